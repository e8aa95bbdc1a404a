//! Filters that combine: which lines of the input a view shows when several filters are on.
//!
//! An operator narrows a log step by step: one agent's lines, then warnings and worse, then the
//! last quarter of an hour, then the records with a `result` hit. Each filter is a predicate
//! on a line, and the lines shown are those every active filter keeps (AND), in input order:
//! - the source ([`SourceRule`]): only some logs of a merged input, or all but some;
//! - the level ([`Level`]): a line's own level word (`ERROR`, `level=warn`, a JSON `level`
//!   field), or for a line without a stamp (a record's continuation) the level of the line
//!   before it in its own log; lines with no level are left out by a level filter;
//! - the time ([`TimeRange`]): a line's own leading stamp (or a JSON line's time field), or
//!   the time of the line before it in its own log, as [`crate::operator::timeline`] reads
//!   it; a line before its log's first stamp has no time and is in no range;
//! - matched or not by the pattern: the rows of [`super::filter::LineFilter`], as they
//!   stream in from the full scan;
//! - a preset key: lines that a lens hit of that key covers ([`super::lens::Lens::hits`]).
//!
//! [`CombinedFilter`] walks the lines once, a bounded number per [`CombinedFilter::refresh`],
//! so a log of millions of lines never stalls a frame; it goes only as far as every filter
//! has decided (the full scan and the lens may still be running), and extends as they go on
//! and as the input grows. The matches on the lines shown ([`CombinedFilter::matches`]) are
//! kept beside the rows, so the match list and its count follow the same combination.
//!
//! The core knows nothing of where a line's source comes from (the front end's merged input
//! says): the caller hands [`CombinedFilter::refresh`] a function for it.

use super::Results;
use super::buffer::TextBuffer;
use super::filter::{FilterMode, LineFilter};
use super::lens::Span;
use crate::input::format::{JsonLine, json_record};
use crate::input::time_range::TimeRange;
use crate::input::timestamp::{self, StampReader};
use std::ops::Range;

/// Lines classified per [`CombinedFilter::refresh`] call at most.
pub const LINES_PER_REFRESH: usize = 1 << 20;

/// Bytes of a line read for its level and time (a line of megabytes is judged by its start).
const FACTS_PREFIX: usize = 512;

/// A record's severity, least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// `TRACE`.
    Trace,
    /// `DEBUG`.
    Debug,
    /// `INFO`, `NOTICE`.
    Info,
    /// `WARN`, `WARNING`.
    Warn,
    /// `ERROR`, `ERR`.
    Error,
    /// `CRITICAL`, `FATAL`, `PANIC`, `EMERG`, `ALERT`.
    Critical,
}

impl Level {
    /// Every level, least severe first.
    pub const ALL: [Level; 6] = [
        Level::Trace,
        Level::Debug,
        Level::Info,
        Level::Warn,
        Level::Error,
        Level::Critical,
    ];

    /// The level's name, lower case: `trace`, `debug`, `info`, `warn`, `error`, `critical`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Trace => "trace",
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
            Level::Critical => "critical",
        }
    }

    /// The level a word names, in any case (`warning`, `ERR`, `fatal`), or `None`.
    pub fn from_word(word: &str) -> Option<Level> {
        let w = word.to_ascii_lowercase();
        Some(match w.as_str() {
            "trace" => Level::Trace,
            "debug" | "dbg" => Level::Debug,
            "info" | "information" | "notice" => Level::Info,
            "warn" | "warning" => Level::Warn,
            "error" | "err" => Level::Error,
            "critical" | "crit" | "fatal" | "panic" | "emerg" | "emergency" | "alert" => {
                Level::Critical
            }
            _ => return None,
        })
    }

    /// The next level up, after the most severe none (the level filter's cycle).
    pub fn next(self) -> Option<Level> {
        let i = Level::ALL.iter().position(|&l| l == self)?;
        Level::ALL.get(i + 1).copied()
    }
}

/// The level a line states: a JSON line's `level` / `severity` field; else the first word
/// of its first bytes that names a level and is written in capitals (`ERROR`, `WARN`), in
/// brackets (`[error]`, `<warn>`) or after `level=`. A lower-case word in running text
/// ("an error occurred") is no level.
pub fn level_of(line: &str) -> Option<Level> {
    if line.trim_start().starts_with('{')
        && let JsonLine::Record(fields) = json_record(line)
    {
        return fields.level.as_deref().and_then(Level::from_word);
    }
    let head = prefix(line, FACTS_PREFIX);
    let bytes = head.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        if start > 0 && (bytes[start - 1].is_ascii_digit() || bytes[start - 1] == b'_') {
            continue;
        }
        if i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
            continue;
        }
        let word = &head[start..i];
        let Some(level) = Level::from_word(word) else {
            continue;
        };
        let before = head[..start].trim_end_matches(' ');
        let marked = before.ends_with('[')
            || before.ends_with('<')
            || before.ends_with("level=")
            || before.ends_with("level:");
        if marked || word.bytes().all(|b| b.is_ascii_uppercase()) {
            return Some(level);
        }
    }
    None
}

/// The time a line states: its leading stamp, or a JSON line's time field (an ISO-8601 text
/// or a number of seconds, or of milliseconds when it is past the year 33658 in seconds).
pub fn time_of(line: &str, stamps: &mut StampReader) -> Option<i64> {
    if let Some(s) = stamps.leading(line.as_bytes()) {
        return Some(s.millis);
    }
    if !line.trim_start().starts_with('{') {
        return None;
    }
    let JsonLine::Record(fields) = json_record(line) else {
        return None;
    };
    let t = fields.time?;
    if let Some(s) = timestamp::leading(t.as_bytes()) {
        return Some(s.millis);
    }
    let x: f64 = t.parse().ok()?;
    if !x.is_finite() {
        return None;
    }
    Some(if x.abs() >= 1e12 {
        x as i64
    } else {
        (x * 1000.0) as i64
    })
}

/// Lines looked at, from a probe on, for a stamped one (a stack trace's lines have none).
const STAMP_LOOKAHEAD: usize = 256;

/// The time of line `line` of `input` as it states it ([`time_of`]), `None` when it states
/// none.
fn line_time(input: &TextBuffer, line: usize, stamps: &mut StampReader) -> Option<i64> {
    let text = input.slice(input.shown_line_range(line));
    time_of(prefix(&text, FACTS_PREFIX), stamps)
}

/// The last time the input states, looking back from its end over at most
/// `STAMP_LOOKAHEAD` lines: the instant relative times (`-15m`) count back from.
pub fn last_time(input: &TextBuffer) -> Option<i64> {
    let mut stamps = StampReader::new();
    let n = input.line_count();
    (n.saturating_sub(STAMP_LOOKAHEAD)..n)
        .rev()
        .find_map(|l| line_time(input, l, &mut stamps))
}

/// The first line whose stated time is `at` or later, found by bisection (a log's lines are
/// in time order, a merged set's too); a probe without a stamp takes the next stamped line's
/// within `STAMP_LOOKAHEAD`. `None` when no line is stamped that late.
pub fn line_at_time(input: &TextBuffer, at: i64) -> Option<usize> {
    let mut stamps = StampReader::new();
    let n = input.line_count();
    let mut stamped_at = |from: usize| -> Option<(usize, i64)> {
        (from..n.min(from + STAMP_LOOKAHEAD))
            .find_map(|l| line_time(input, l, &mut stamps).map(|t| (l, t)))
    };
    let (mut lo, mut hi) = (0usize, n);
    let mut found = None;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match stamped_at(mid) {
            Some((l, t)) if t >= at => {
                found = Some(l);
                hi = mid;
            }
            Some((l, _)) => lo = l + 1,
            None => hi = mid,
        }
    }
    found
}

/// Which logs of a merged input the source filter keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceRule {
    /// Only these logs (indices into the input's sources, ascending).
    Only(Vec<usize>),
    /// Every log but these.
    Hide(Vec<usize>),
}

impl SourceRule {
    /// Whether a line of log `source` is kept (a line whose log is not known is kept).
    pub fn keeps(&self, source: Option<usize>) -> bool {
        match (self, source) {
            (_, None) => true,
            (SourceRule::Only(v), Some(s)) => v.binary_search(&s).is_ok(),
            (SourceRule::Hide(v), Some(s)) => v.binary_search(&s).is_err(),
        }
    }

    /// The rule with log `source` added to or taken off its list; `None` when the list is
    /// left empty (the filter is off).
    pub fn toggled(self, source: usize) -> Option<SourceRule> {
        let flip = |mut v: Vec<usize>| {
            match v.binary_search(&source) {
                Ok(i) => {
                    v.remove(i);
                }
                Err(i) => v.insert(i, source),
            }
            v
        };
        let rule = match self {
            SourceRule::Only(v) => SourceRule::Only(flip(v)),
            SourceRule::Hide(v) => SourceRule::Hide(flip(v)),
        };
        match &rule {
            SourceRule::Only(v) | SourceRule::Hide(v) if v.is_empty() => None,
            _ => Some(rule),
        }
    }

    /// How the status bar names it: `only a.log, b.log`, `hiding c.log`.
    pub fn label(&self, tags: &[String]) -> String {
        let names = |v: &[usize]| {
            v.iter()
                .map(|&k| {
                    tags.get(k)
                        .cloned()
                        .unwrap_or_else(|| format!("log {}", k + 1))
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            SourceRule::Only(v) if v.is_empty() => "no log".to_string(),
            SourceRule::Only(v) => format!("only {}", names(v)),
            SourceRule::Hide(v) => format!("hiding {}", names(v)),
        }
    }
}

/// One filter of the stack, named for the status bar and for removing it alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterKind {
    /// The source filter.
    Source,
    /// The level filter.
    Level,
    /// The time range.
    Time,
    /// Matched or not by the pattern (the line filter, kept by the workbench).
    Matched,
    /// Lines with a hit of a preset key.
    Preset,
}

/// The filters on besides the pattern's line filter (which the workbench keeps, as it is
/// built from the full scan).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filters {
    /// Which logs.
    pub sources: Option<SourceRule>,
    /// The least severe level kept.
    pub level: Option<Level>,
    /// The time range.
    pub time: Option<TimeRange>,
    /// A preset key whose hits' lines are kept.
    pub preset: Option<String>,
}

impl Filters {
    /// Whether any of them is on.
    pub fn any(&self) -> bool {
        self.sources.is_some()
            || self.level.is_some()
            || self.time.is_some()
            || self.preset.is_some()
    }

    /// Whether a line's level or time must be read.
    fn needs_facts(&self) -> bool {
        self.level.is_some() || self.time.is_some()
    }
}

/// The lines a preset key's hits cover, as far as the lens has scanned.
#[derive(Debug, Clone, Copy)]
pub struct PresetHits<'a> {
    /// The key's hits, in text order.
    pub hits: &'a [Span],
    /// The byte the lens has scanned to (every hit before it is in).
    pub scanned: usize,
}

/// What one refresh reads besides the input.
pub struct FilterInputs<'a> {
    /// The pattern's line filter (used when it is on).
    pub matched: &'a LineFilter,
    /// The full scan's results (for the matches on the lines shown).
    pub results: &'a Results,
    /// The preset key's hits, when a preset filter is on and the lens has them.
    pub preset: Option<PresetHits<'a>>,
    /// The log of each line of a range (`None`: not known, or a single log).
    pub sources: &'a dyn Fn(Range<usize>) -> Vec<Option<usize>>,
}

/// Per log, what the line before said (for lines that say nothing themselves).
#[derive(Debug, Clone, Default)]
struct Carry {
    time: Option<i64>,
    level: Option<Level>,
}

/// The lines every active filter keeps, extended as they decide more lines.
#[derive(Debug, Clone, Default)]
pub struct CombinedFilter {
    filters: Filters,
    /// The pattern's line filter's mode (it takes part unless off).
    mode: FilterMode,
    /// The input revision, scan generation and lens hits the rows were built for.
    built_for: Option<(u64, u64, bool)>,
    rows: Vec<u32>,
    /// The first line not yet classified.
    next_line: usize,
    /// Real lines in the input at the last refresh.
    lines: usize,
    /// The next line of the pattern filter's rows to compare with.
    matched_at: usize,
    /// The next preset hit to look at, and how far the hits seen cover.
    hit_at: usize,
    hit_cover: usize,
    /// Per log (index + 1; 0 for an unknown log), the carried time and level.
    carry: Vec<Carry>,
    stamps: StampReader,
    /// Indices of the full scan's spans that start on a line shown, ascending.
    matches: Vec<u32>,
    /// The next span to place.
    next_span: usize,
    /// Which building of the rows this is ([`CombinedFilter::build`]).
    build: u64,
}

/// A new number for each building of a [`CombinedFilter`]'s rows.
fn next_build() -> u64 {
    static BUILDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The lines the input has, not counting the empty "line" after a final line break.
fn real_lines(input: &TextBuffer) -> usize {
    input.line_count() - usize::from(input.ends_with_newline() && input.line_count() > 1)
}

impl CombinedFilter {
    /// The filters besides the pattern's.
    pub fn filters(&self) -> &Filters {
        &self.filters
    }

    /// Sets the filters and the pattern's line filter's mode; the rows are built again from
    /// the first line when anything changed.
    pub fn set(&mut self, filters: Filters, mode: FilterMode) {
        if filters != self.filters || mode != self.mode {
            *self = CombinedFilter {
                filters,
                mode,
                build: next_build(),
                ..CombinedFilter::default()
            };
        }
    }

    /// Which building of the rows this is: it changes whenever the rows are built again from
    /// the first line (the filters, the input or the scan changed), and stays while they only
    /// grow, so a view fed the rows so far goes on with the rows after them.
    pub fn build(&self) -> u64 {
        self.build
    }

    /// Whether the combination has rows of its own: a filter besides the pattern's is on, or
    /// the pattern's shows the lines without a match (whose matches are none of the
    /// scan's). The pattern's filter alone on the lines with a match needs none: its rows
    /// are the workbench's, and every match is on them.
    pub fn active(&self) -> bool {
        self.filters.any() || self.mode == FilterMode::NonMatching
    }

    /// The input lines shown, ascending (0-based), as far as classified.
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// The indices of the full scan's spans that start on a line shown, as far as classified.
    pub fn matches(&self) -> &[u32] {
        &self.matches
    }

    /// Whether every line of the input has been classified.
    pub fn complete(&self) -> bool {
        self.next_line >= self.lines && self.built_for.is_some()
    }

    /// The lines classified so far.
    pub fn classified(&self) -> usize {
        self.next_line
    }

    /// Classifies up to [`LINES_PER_REFRESH`] more lines of `input` as far as every filter
    /// has decided, and places the matches on them; rebuilds for a changed input or a new
    /// scan. Returns whether rows or matches were added.
    pub fn refresh(&mut self, input: &TextBuffer, inp: &FilterInputs) -> bool {
        if !self.active() {
            return false;
        }
        let key = (
            input.revision(),
            inp.results.generation,
            inp.preset.is_some(),
        );
        let grown =
            matches!(self.built_for, Some((r, g, p)) if g == key.1 && p == key.2 && r != key.0);
        if self.built_for != Some(key) && !grown {
            *self = CombinedFilter {
                filters: std::mem::take(&mut self.filters),
                mode: self.mode,
                build: next_build(),
                ..CombinedFilter::default()
            };
        } else if grown && inp.results.spans.len() < self.next_span {
            // The scan of the grown input dropped spans near the old end: place them again.
            let keep = inp.results.spans.len();
            self.matches.retain(|&i| (i as usize) < keep);
            self.next_span = keep;
        }
        self.built_for = Some(key);
        self.lines = real_lines(input);
        let before = (self.rows.len(), self.matches.len());
        // How far every filter has decided.
        let mut limit = self.lines;
        if self.mode != FilterMode::Off {
            limit = limit.min(inp.matched.decided());
        }
        if let Some(p) = inp.preset {
            if p.scanned < input.len() {
                limit = limit.min(input.line_of(p.scanned));
            }
        } else if self.filters.preset.is_some() {
            // The lens has no hits for the key yet: nothing is decided.
            limit = 0;
        }
        let end = limit.min(self.next_line + LINES_PER_REFRESH);
        if end > self.next_line {
            self.classify(input, inp, self.next_line..end);
        }
        self.place_matches(inp.results);
        (self.rows.len(), self.matches.len()) != before
    }

    fn classify(&mut self, input: &TextBuffer, inp: &FilterInputs, range: Range<usize>) {
        let sources = if self.filters.sources.is_some() || self.filters.needs_facts() {
            (inp.sources)(range.clone())
        } else {
            Vec::new()
        };
        let matched_rows = inp.matched.rows();
        for line in range.clone() {
            let source = sources.get(line - range.start).copied().flatten();
            let mut shown = true;
            if let Some(rule) = &self.filters.sources {
                shown &= rule.keeps(source);
            }
            if self.filters.needs_facts() {
                let slot = source.map_or(0, |s| s + 1);
                if self.carry.len() <= slot {
                    self.carry.resize(slot + 1, Carry::default());
                }
                let shown_text = input.slice(input.shown_line_range(line));
                let text = prefix(&shown_text, FACTS_PREFIX);
                let c = &mut self.carry[slot];
                match time_of(text, &mut self.stamps) {
                    Some(t) => {
                        c.time = Some(t);
                        c.level = level_of(text);
                    }
                    None => {
                        if let Some(l) = level_of(text) {
                            c.level = Some(l);
                        }
                    }
                }
                if let Some(min) = self.filters.level {
                    shown &= c.level.is_some_and(|l| l >= min);
                }
                if let Some(range) = &self.filters.time {
                    shown &= range.admits(c.time);
                }
            }
            if self.mode != FilterMode::Off {
                let at = self.matched_at
                    + matched_rows[self.matched_at..].partition_point(|&l| (l as usize) < line);
                self.matched_at = at;
                shown &= matched_rows.get(at).is_some_and(|&l| l as usize == line);
            }
            if let Some(p) = inp.preset {
                let start = input.line_start(line);
                let next = input.line_start(line + 1).max(start + 1);
                let mut here = false;
                while let Some(&(s, e)) = p.hits.get(self.hit_at) {
                    if s >= next {
                        break;
                    }
                    here |= s >= start || e > start;
                    self.hit_cover = self.hit_cover.max(e);
                    self.hit_at += 1;
                }
                here |= self.hit_cover > start;
                shown &= here;
            }
            if shown {
                self.rows.push(u32::try_from(line).unwrap_or(u32::MAX));
            }
        }
        self.next_line = range.end;
    }

    /// Places the spans whose first line is classified: kept when that line is shown.
    fn place_matches(&mut self, results: &Results) {
        let mut row = 0;
        while self.next_span < results.spans.len() {
            let line = match results.span_lines.get(self.next_span) {
                Some(&(f, _)) if f != u32::MAX => f as usize,
                // A span the scan did not count the line of (made by hand).
                _ => usize::MAX,
            };
            if line >= self.next_line {
                break;
            }
            row += self.rows[row..].partition_point(|&l| (l as usize) < line);
            if self.rows.get(row).is_some_and(|&l| l as usize == line) {
                self.matches
                    .push(u32::try_from(self.next_span).unwrap_or(u32::MAX));
            }
            self.next_span += 1;
        }
    }
}

/// The first `n` bytes of `text` at most, cut at a character boundary.
fn prefix(text: &str, n: usize) -> &str {
    let mut end = text.len().min(n);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn levels_are_words_in_capitals_brackets_or_after_level() {
        assert_eq!(
            level_of("2026-10-05T00:00:01Z a: ERROR disk"),
            Some(Level::Error)
        );
        assert_eq!(level_of("ts=1 level=warn msg=x"), Some(Level::Warn));
        assert_eq!(level_of("[info] started"), Some(Level::Info));
        assert_eq!(level_of("x: WARNING low"), Some(Level::Warn));
        assert_eq!(level_of("an error occurred"), None, "running text");
        assert_eq!(
            level_of("ERROR_CODE=4 INFO2"),
            None,
            "part of a longer word"
        );
        assert_eq!(
            level_of(r#"{"ts":"2026-10-05T00:00:01Z","level":"fatal","msg":"m"}"#),
            Some(Level::Critical)
        );
        assert_eq!(Level::Warn.next(), Some(Level::Error));
        assert_eq!(Level::Critical.next(), None);
    }

    #[test]
    fn json_times_are_iso_text_or_epoch_numbers() {
        let mut r = StampReader::new();
        assert_eq!(
            time_of(r#"{"ts":"1970-01-01T00:00:02Z","msg":"m"}"#, &mut r),
            Some(2000)
        );
        assert_eq!(time_of(r#"{"ts":3,"msg":"m"}"#, &mut r), Some(3000));
        assert_eq!(
            time_of(r#"{"ts":1700000000123,"msg":"m"}"#, &mut r),
            Some(1_700_000_000_123)
        );
        assert_eq!(time_of("no stamp", &mut r), None);
    }

    #[test]
    fn a_source_rule_toggles_logs_in_and_out_and_turns_off_when_empty() {
        let r = SourceRule::Only(vec![1]).toggled(3).unwrap();
        assert_eq!(r, SourceRule::Only(vec![1, 3]));
        assert!(r.keeps(Some(3)) && !r.keeps(Some(0)) && r.keeps(None));
        let r = r.toggled(1).unwrap().toggled(3);
        assert_eq!(r, None);
        let h = SourceRule::Hide(vec![0, 2]);
        assert!(!h.keeps(Some(2)) && h.keeps(Some(1)));
        assert_eq!(
            h.label(&["a".into(), "b".into(), "c".into()]),
            "hiding a, c"
        );
    }

    /// A log of `n` lines: stamps a second apart (every third line a continuation without
    /// one), levels in turn, three logs in turn, `x` on some lines.
    struct Log {
        text: String,
        sources: Vec<usize>,
    }

    fn log(spec: &[(u8, u8, bool, bool)]) -> Log {
        let mut text = String::new();
        let mut sources = Vec::new();
        for (i, &(source, level, stamped, x)) in spec.iter().enumerate() {
            if stamped {
                text.push_str(&format!("2026-10-05T00:00:{:02}Z a{source}: ", i % 60));
            } else {
                text.push_str("  ");
            }
            if level < 6 {
                text.push_str(&Level::ALL[level as usize].name().to_ascii_uppercase());
            }
            text.push_str(if x { " x\n" } else { " y\n" });
            sources.push(source as usize);
        }
        Log { text, sources }
    }

    fn scan(input: &TextBuffer, pattern: &str) -> Results {
        let mut spans = Vec::new();
        let mut span_lines = Vec::new();
        for (at, m) in input.text().match_indices(pattern) {
            spans.push((at, at + m.len()));
            let l = input.line_of(at) as u32;
            span_lines.push((l, l));
        }
        Results {
            generation: 1,
            count: spans.len(),
            spans,
            span_lines,
            done: true,
            ..Default::default()
        }
    }

    /// The rows of `filters` (and the pattern filter in `mode`) over `log`, run to the end.
    fn rows(log: &Log, filters: &Filters, mode: FilterMode, preset: &str) -> (Vec<u32>, Vec<u32>) {
        let input = TextBuffer::new(log.text.clone());
        let results = scan(&input, " x");
        let mut matched = LineFilter::new(mode, 0);
        matched.refresh(&input, &results);
        let hits: Vec<Span> = log
            .text
            .match_indices(preset)
            .map(|(at, m)| (at, at + m.len()))
            .collect();
        let sources = |r: Range<usize>| r.map(|l| log.sources.get(l).copied()).collect();
        let mut c = CombinedFilter::default();
        c.set(filters.clone(), mode);
        if !c.active() {
            // The pattern filter alone: its own rows, and every match on them.
            let rows = match mode {
                FilterMode::Off => (0..real_lines(&input) as u32).collect(),
                _ => matched.rows().to_vec(),
            };
            let ms = (0..results.spans.len() as u32)
                .filter(|&i| rows.contains(&results.span_lines[i as usize].0))
                .collect();
            return (rows, ms);
        }
        let inp = FilterInputs {
            matched: &matched,
            results: &results,
            preset: filters.preset.as_ref().map(|_| PresetHits {
                hits: &hits,
                scanned: input.len(),
            }),
            sources: &sources,
        };
        while !c.complete() {
            c.refresh(&input, &inp);
        }
        (c.rows().to_vec(), c.matches().to_vec())
    }

    fn intersect(a: &[u32], b: &[u32]) -> Vec<u32> {
        a.iter().copied().filter(|x| b.contains(x)).collect()
    }

    #[test]
    fn a_line_without_a_stamp_takes_its_logs_time_and_level() {
        // a0 at :00 ERROR, a1 at :01 INFO, a continuation of a0, a continuation of a1.
        let l = log(&[
            (0, 4, true, false),
            (1, 2, true, false),
            (0, 9, false, true),
            (1, 9, false, true),
        ]);
        let f = Filters {
            level: Some(Level::Error),
            ..Default::default()
        };
        assert_eq!(rows(&l, &f, FilterMode::Off, "-").0, vec![0, 2]);
        let f = Filters {
            time: Some(TimeRange::new(Some(ms("2026-10-05T00:00:01Z")), None).unwrap()),
            ..Default::default()
        };
        assert_eq!(rows(&l, &f, FilterMode::Off, "-").0, vec![1, 3]);
    }

    fn ms(t: &str) -> i64 {
        timestamp::leading(t.as_bytes()).unwrap().millis
    }

    #[test]
    fn go_to_a_time_finds_the_first_line_stamped_then_or_later() {
        let l = log(&[
            (0, 2, true, false),
            (0, 2, false, false),
            (0, 2, false, false),
            (0, 2, true, false),
            (0, 2, true, false),
        ]);
        let input = TextBuffer::new(l.text.clone());
        assert_eq!(line_at_time(&input, ms("2026-10-05T00:00:01Z")), Some(3));
        assert_eq!(line_at_time(&input, ms("2026-10-05T00:00:00Z")), Some(0));
        assert_eq!(line_at_time(&input, ms("2026-10-05T00:00:00.5Z")), Some(3));
        assert_eq!(line_at_time(&input, ms("2026-10-05T00:01:00Z")), None);
        assert_eq!(last_time(&input), Some(ms("2026-10-05T00:00:04Z")));
        assert_eq!(last_time(&TextBuffer::new("no time\n".into())), None);
    }

    #[test]
    fn the_matches_follow_the_lines_shown() {
        let l = log(&[(0, 4, true, true), (1, 2, true, true), (2, 4, true, true)]);
        let f = Filters {
            sources: Some(SourceRule::Hide(vec![1])),
            ..Default::default()
        };
        let (r, m) = rows(&l, &f, FilterMode::Matching, "-");
        assert_eq!((r, m), (vec![0, 2], vec![0, 2]));
        // Lines without a match: no match is shown.
        let (_, m) = rows(&l, &f, FilterMode::NonMatching, "-");
        assert!(m.is_empty());
    }

    #[test]
    fn nothing_is_shown_past_what_the_lens_has_scanned() {
        let l = log(&[(0, 2, true, true), (0, 2, true, false), (0, 2, true, true)]);
        let input = TextBuffer::new(l.text.clone());
        let results = scan(&input, " x");
        let matched = LineFilter::default();
        let hits = [(0usize, 3usize)];
        let sources = |r: Range<usize>| r.map(|_| None).collect();
        let mut c = CombinedFilter::default();
        c.set(
            Filters {
                preset: Some("k".into()),
                ..Default::default()
            },
            FilterMode::Off,
        );
        let second = input.line_start(1);
        c.refresh(
            &input,
            &FilterInputs {
                matched: &matched,
                results: &results,
                preset: Some(PresetHits {
                    hits: &hits,
                    scanned: second + 2,
                }),
                sources: &sources,
            },
        );
        assert_eq!(c.rows(), &[0]);
        assert_eq!(c.classified(), 1, "line 1 waits for the lens");
        assert!(!c.complete());
    }

    fn spec() -> impl Strategy<Value = Vec<(u8, u8, bool, bool)>> {
        prop::collection::vec(
            (0u8..3, 0u8..8, prop::bool::weighted(0.7), any::<bool>()),
            0..60,
        )
    }

    proptest! {
        /// The combined filter's lines are the intersection of each filter's lines alone,
        /// and its matches are the matches on those lines.
        #[test]
        fn combined_lines_are_the_intersection_of_each_filter_alone(
            spec in spec(),
            only in prop::collection::vec(0usize..3, 1..3),
            hide in any::<bool>(),
            level in prop::option::of(0usize..6),
            since in prop::option::of(0i64..60),
            until in prop::option::of(0i64..60),
            mode in 0u8..3,
            preset in prop::option::of(prop::sample::select(vec!["WARN", "x", "a2"])),
        ) {
            let l = log(&spec);
            let mut only = only;
            only.sort_unstable();
            only.dedup();
            let base = ms("2026-10-05T00:00:00Z");
            let time = match (since, until) {
                (None, None) => None,
                (s, u) => {
                    let (s, u) = (s.map(|s| base + s * 1000), u.map(|u| base + u * 1000));
                    if let (Some(a), Some(b)) = (s, u) { prop_assume!(a < b); }
                    Some(TimeRange::new(s, u).unwrap())
                }
            };
            let mode = [FilterMode::Off, FilterMode::Matching, FilterMode::NonMatching][mode as usize];
            let alone = [
                Filters { sources: Some(if hide { SourceRule::Hide(only.clone()) } else { SourceRule::Only(only.clone()) }), ..Default::default() },
                Filters { level: level.map(|i| Level::ALL[i]), ..Default::default() },
                Filters { time, ..Default::default() },
                Filters { preset: preset.map(str::to_string), ..Default::default() },
            ];
            let all = Filters {
                sources: alone[0].sources.clone(),
                level: alone[1].level,
                time: alone[2].time,
                preset: alone[3].preset.clone(),
            };
            let needle = preset.unwrap_or("-");
            let (mut expected, _) = rows(&l, &Filters::default(), mode, needle);
            for f in &alone {
                expected = intersect(&expected, &rows(&l, f, FilterMode::Off, needle).0);
            }
            let (got, matches) = rows(&l, &all, mode, needle);
            prop_assert_eq!(&got, &expected);
            let input = TextBuffer::new(l.text.clone());
            let results = scan(&input, " x");
            let on_rows: Vec<u32> = (0..results.spans.len() as u32)
                .filter(|&i| got.contains(&results.span_lines[i as usize].0))
                .collect();
            prop_assert_eq!(matches, on_rows);
        }
    }
}
