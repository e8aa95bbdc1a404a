//! `rxw test`, `rxw find`, `rxw replace`.

use super::inputs::{self, CHUNK, TextInput, load_text};
use super::match_line::{MatchLine, write_match_line};
use super::to_json;
use super::{
    CliError, FindArgs, Outcome, PatternArgs, ReplaceArgs, TestArgs, flags_for, style, use_color,
};
use crate::input::chunks::{Locator, Place};
use crate::wire;
use crate::wire::{MatchDoc, SourceLine, Sourced, Units};
use crate::workbench::follow::matches_independent_of_other_lines;
use crate::{Match, MatchOptions, Regex};
use serde_json::Value;
use std::io::Write;
use style::Layout;

fn compile(pattern: &str, common: &PatternArgs) -> Result<Regex, CliError> {
    let flags = flags_for(&common.flags, common.flavor)?;
    Ok(Regex::new(pattern, common.flavor, flags)?)
}

/// Counts code points and UTF-16 units before byte offsets visited in order.
pub struct CharIndex<'t> {
    text: &'t str,
    pos: usize,
    units: Units,
}

impl<'t> CharIndex<'t> {
    /// Starts at the beginning of `text`.
    pub fn new(text: &'t str) -> Self {
        CharIndex {
            text,
            pos: 0,
            units: Units::default(),
        }
    }

    /// The code points and UTF-16 units before `offset`; offsets must not decrease between
    /// calls.
    pub fn at(&mut self, offset: usize) -> Units {
        if offset < self.pos {
            *self = CharIndex::new(self.text);
        }
        self.units = self.units.plus(Units::of(&self.text[self.pos..offset]));
        self.pos = offset;
        self.units
    }
}

/// Code points (and UTF-16 units) of each log's own text before each run of lines of a merged
/// chunk, so that a match's `char_index` and unit spans count in its own log as its byte
/// offsets do.
#[derive(Default)]
struct SourceChars {
    /// Per log, the units of its lines in the chunks before.
    before: Vec<Units>,
}

impl SourceChars {
    /// For each run of `chunk`: the code points of its log before the run, and of the chunk
    /// before the run.
    fn runs(&mut self, chunk: &crate::input::chunks::Chunk) -> Vec<(Units, Units)> {
        let text = chunk.text.as_str();
        let mut out = Vec::with_capacity(chunk.runs.len());
        let mut in_chunk = Units::default();
        for (k, run) in chunk.runs.iter().enumerate() {
            let end = chunk.runs.get(k + 1).map_or(text.len(), |r| r.offset);
            if self.before.len() <= run.source {
                self.before.resize(run.source + 1, Units::default());
            }
            out.push((self.before[run.source], in_chunk));
            let n = Units::of(&text[run.offset..end]);
            self.before[run.source] = self.before[run.source].plus(n);
            in_chunk = in_chunk.plus(n);
        }
        out
    }
}

/// The JSON shape of one match (the agent tool's shape, plus byte `end`, `char_index` and the
/// spans), its start at `start`.
pub fn match_json(re: &Regex, text: &str, m: &Match, start: Units) -> Value {
    serde_json::to_value(crate::wire::MatchDoc::new(re, text, m, start))
        .expect("a match serializes")
}

fn print_stats(
    common: &PatternArgs,
    re: &Regex,
    text: &str,
    matches: usize,
    steps: Option<u64>,
    started: std::time::Instant,
    err: &mut dyn Write,
) {
    if common.stats {
        let engine = re.engine_kind(text);
        let steps = match (engine, steps) {
            (crate::EngineKind::Backtracking, Some(s)) => format!(" · {s} steps"),
            _ => String::new(),
        };
        let _ = writeln!(
            err,
            "rxw: {matches} match{} · engine {}{steps} · {:.1} ms",
            if matches == 1 { "" } else { "es" },
            engine.name(),
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}

/// The progress line's label: `counted` for a run that prints only at its end, `listed` for
/// one whose output streams, which shows no progress when the output goes to the terminal
/// too (the lines would mix).
pub(crate) fn progress_label(
    at_end: bool,
    counted: &'static str,
    listed: &'static str,
) -> Option<&'static str> {
    use std::io::IsTerminal as _;
    if at_end {
        Some(counted)
    } else {
        (!std::io::stdout().is_terminal()).then_some(listed)
    }
}

/// The commands that read their whole input at once (`rxw test`, `rxw replace`): the pattern
/// compiled, the text read (its warning said on `err`), `run` timed on it, and the statistics
/// printed with the number of matches `run` gives beside its answer.
fn on_whole_text<T>(
    pattern: &str,
    text: Option<&str>,
    common: &PatternArgs,
    err: &mut dyn Write,
    run: impl FnOnce(&Regex, &str) -> Result<(T, usize), CliError>,
) -> Result<T, CliError> {
    let re = compile(pattern, common)?;
    let text = load_text(text, &common.file)?;
    if let Some(w) = text.warning() {
        let _ = writeln!(err, "rxw: warning: {w}");
    }
    let started = std::time::Instant::now();
    let (answer, matches) = run(&re, text.as_str())?;
    print_stats(common, &re, text.as_str(), matches, None, started, err);
    Ok(answer)
}

/// `rxw test`.
pub fn test(a: &TestArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let matched = on_whole_text(&a.pattern, a.text.as_deref(), &a.common, err, |re, text| {
        let options = MatchOptions {
            bounds_only: true,
            ..crate::engine::MatchOptions::within(&a.common.budget.limits())
        };
        let matched = re
            .matches(text, options)
            .next()
            .transpose()
            .map_err(|e| a.common.budget.explain(e))?
            .is_some();
        Ok((matched, usize::from(matched)))
    })?;
    if a.common.json {
        writeln!(out, "{}", to_json(&wire::Matched { matched }))?;
    } else {
        writeln!(out, "{}", if matched { "match" } else { "no match" })?;
    }
    Ok(if matched { 0 } else { 1 })
}

/// `rxw find`.
///
/// A pattern whose matches cannot depend on other lines
/// ([`matches_independent_of_other_lines`]) is matched a chunk of lines at a time, so memory
/// does not grow with the logs; any other is matched on the whole (merged) text. The matches
/// are the same either way. Offsets (`index`, `end`, `char_index`) count in the text of the
/// log the match starts in (for several logs: that log's own text, not the merged one), and
/// `source` and `line` say where that is.
pub fn find(a: &FindArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let re = compile(&a.pattern, &a.common)?;
    // Checked before anything is read or printed.
    let followed = if a.follow {
        super::follow::check(a, &re)?
    } else {
        Vec::new()
    };
    if let Some(format) = a.format.filter(|f| f.has_records()) {
        return find_in_records(a, &re, format, &followed, out, err);
    }
    let chunk = if matches_independent_of_other_lines(&re) {
        CHUNK
    } else {
        usize::MAX
    };
    let mut input = open_input(a, chunk)?;
    let mut scan = Scan::new(a, &re);
    let explain = |e| a.common.budget.explain(e);
    let json = a.common.json;
    let mut chars_before = Units::default();
    let mut source_chars = SourceChars::default();
    let mut first_text: Option<String> = None;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    while let Some(chunk) = input.next_chunk() {
        if scan.full() {
            break;
        }
        let text = chunk.searchable();
        if a.common.stats && first_text.is_none() {
            // The engine is chosen by the input's traits: the first chunk's stand for all.
            first_text = Some(text.chars().take(1 << 16).collect());
        }
        if a.count {
            scan.count(text)?;
            continue;
        }
        let mut places = Locator::new(&chunk);
        let mut chars = CharIndex::new(text);
        let run_chars = if json && input.tagged() {
            source_chars.runs(&chunk)
        } else {
            Vec::new()
        };
        let mut it = re.matches(text, scan.options());
        for m in it.by_ref() {
            if scan.full() {
                break;
            }
            let m = m.map_err(explain)?;
            let place = places.locate(m.start());
            let doc = || {
                let at = chars.at(m.start());
                if input.tagged() {
                    // Counted in the match's own log.
                    let k = chunk.runs.partition_point(|r| r.offset <= m.start());
                    let (log_before, chunk_before) = run_chars[k.saturating_sub(1)];
                    let mut doc =
                        MatchDoc::new(&re, text, &m, log_before.plus(at).minus(chunk_before));
                    doc.rebase(usize::try_from(place.source_offset).unwrap_or(usize::MAX));
                    doc
                } else {
                    let mut doc = MatchDoc::new(&re, text, &m, chars_before.plus(at));
                    doc.rebase(m.start() + chunk.offset);
                    doc
                }
            };
            scan.put(&mut out, &input, text, &m, place, doc, None)?;
        }
        scan.steps += it.steps();
        if json && !chunk.last {
            chars_before = chars_before.plus(Units::of(&chunk.text));
        }
    }
    let stats_text = first_text.as_deref().unwrap_or("");
    conclude(
        a, &re, &followed, input, scan, "lines", stats_text, out, err,
    )
}

/// `rxw find --format netvm|jsonl`: the pattern on each record's message (see
/// [`crate::presets::per_record::RecordCutter`]), a chunk of whole records at a time.
fn find_in_records(
    a: &FindArgs,
    re: &Regex,
    format: crate::input::format::LogFormat,
    followed: &[std::path::PathBuf],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    use crate::input::format::{self, Message};
    let mut input = open_input(a, CHUNK)?;
    let mut scan = Scan::new(a, re);
    let explain = |e| a.common.budget.explain(e);
    let mut skipped = 0u64;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let mut cutter = crate::presets::per_record::RecordCutter::new(Some(format));
    'chunks: while let Some(chunk) = input.next_chunk() {
        let (window, extents) = cutter.cut(chunk);
        let mut places = Locator::new(&window);
        for (start, end, fmt) in extents {
            if scan.full() {
                break 'chunks;
            }
            let record = format::record(&window.text, start, end, fmt);
            let (text, at): (&str, Option<usize>) = match &record.message {
                Message::Stretch { at, .. } => (window.text.as_str(), Some(*at)),
                Message::Decoded(m) => (m.as_str(), None),
                Message::Invalid(_) => {
                    skipped += 1;
                    continue;
                }
            };
            let message = record.message.as_str();
            if a.count {
                scan.count(message)?;
                continue;
            }
            let record_place = places.locate(start);
            let mut chars = CharIndex::new(message);
            let mut it = re.matches(message, scan.options());
            for m in it.by_ref() {
                if scan.full() {
                    break;
                }
                let mut m = m.map_err(explain)?;
                let char_index = chars.at(m.start());
                if let Some(at) = at {
                    for (s, e) in m.groups.iter_mut().flatten() {
                        *s += at;
                        *e += at;
                    }
                }
                let place = match at {
                    Some(_) => places.locate(m.start()),
                    None => record_place,
                };
                let doc = || {
                    let mut doc = MatchDoc::new(re, text, &m, char_index);
                    if at.is_some() {
                        doc.rebase(usize::try_from(place.source_offset).unwrap_or(usize::MAX));
                    }
                    doc
                };
                let offsets = at.is_none().then_some("message");
                scan.put(&mut out, &input, text, &m, place, doc, offsets)?;
            }
            scan.steps += it.steps();
        }
    }
    inputs::warn_cut_records(cutter.cut_records(), err)?;
    if skipped > 0 {
        let (s, were) = if skipped == 1 {
            (" is", "was")
        } else {
            ("s are", "were")
        };
        writeln!(
            err,
            "rxw: warning: {skipped} line{s} no {format} record and {were} skipped"
        )?;
    }
    conclude(a, re, followed, input, scan, format.name(), "", out, err)
}

/// The input of `rxw find`, `chunk` bytes at a time, within `--since` / `--until`.
fn open_input(a: &FindArgs, chunk: usize) -> Result<TextInput, CliError> {
    let label = progress_label(a.count, "counting", "matching");
    let time = a.time.filter(a.format)?;
    if time.is_some() && a.text.is_some() {
        return Err(inputs::time_with_text().into());
    }
    Ok(TextInput::open_within(
        a.text.as_deref(),
        &a.common.file,
        chunk,
        label,
        time,
    )?)
}

/// A `rxw find` scan as it goes: the matches of `re` found and the steps spent so far, under
/// one deadline and one step budget for the whole scan over every chunk; with `--json` the
/// matches' documents, for one array at the end (JSON is one document whatever happens: an
/// error after some matches is reported alone, as `{"error": …}`, never after half an array),
/// else each match printed as a line as it is found.
struct Scan<'a> {
    re: &'a Regex,
    color: bool,
    json: bool,
    budget: &'a super::BudgetArgs,
    limits: crate::Limits,
    limit: Option<usize>,
    options: MatchOptions<'static>,
    started: std::time::Instant,
    n: usize,
    steps: u64,
    json_items: Vec<Value>,
}

impl<'a> Scan<'a> {
    /// A scan that starts now.
    fn new(a: &'a FindArgs, re: &'a Regex) -> Scan<'a> {
        let started = std::time::Instant::now();
        let limits = a.common.budget.limits();
        Scan {
            re,
            color: use_color(a.common.color),
            json: a.common.json,
            budget: &a.common.budget,
            limit: limits.clamp_matches(a.limit),
            options: MatchOptions::within(&limits),
            limits,
            started,
            n: 0,
            steps: 0,
            json_items: Vec::new(),
        }
    }

    /// Whether the matches `--limit` asks for are all found.
    fn full(&self) -> bool {
        self.limit.is_some_and(|l| self.n >= l)
    }

    /// The options of the next search: the scan's deadline, and the steps left of its budget.
    fn options(&self) -> MatchOptions<'static> {
        MatchOptions {
            max_total_steps: self
                .limits
                .max_total_steps
                .map(|t| t.saturating_sub(self.steps)),
            ..self.options.clone()
        }
    }

    /// A match `m` found in `text` at `place`: with `--json` its document, made by `doc` and
    /// placed at its source's line (`offsets`: as [`Sourced::offsets`]), kept for the array;
    /// else its line printed, the source named when several logs are read.
    #[allow(clippy::too_many_arguments)]
    fn put<'t>(
        &mut self,
        out: &mut dyn Write,
        input: &'t TextInput,
        text: &'t str,
        m: &'t Match,
        place: Place,
        doc: impl FnOnce() -> MatchDoc<'t>,
        offsets: Option<&'static str>,
    ) -> std::io::Result<()>
    where
        'a: 't,
    {
        let source = input.source(place.source);
        if self.json {
            let record = Sourced {
                record: doc(),
                at: source.map(|source| SourceLine {
                    source,
                    line: place.line,
                }),
                offsets,
            };
            let item = serde_json::to_value(record).expect("a match serializes");
            self.json_items.push(item);
        } else {
            let line = MatchLine {
                re: self.re,
                text,
                m,
                source: source.filter(|_| input.tagged()),
                place,
                color: self.color,
            };
            write_match_line(out, line)?;
        }
        self.n += 1;
        Ok(())
    }

    /// `--count`: the matches in `text` counted, up to the limit.
    fn count(&mut self, text: &str) -> Result<(), crate::error::Error> {
        let (k, s) = self
            .re
            .count_with_options(text, self.limit.map(|l| l - self.n), self.options())
            .map_err(|e| self.budget.explain(e))?;
        self.n += k;
        self.steps += s;
        Ok(())
    }
}

/// The end of `rxw find`: the inputs closed (followed on with `--follow`), the count or the
/// JSON array printed (`--count --json` says it counted in `count_format` when the input is
/// files), the statistics (the engine chosen for `stats_text`), the exit code.
#[allow(clippy::too_many_arguments)]
fn conclude(
    a: &FindArgs,
    re: &Regex,
    followed: &[std::path::PathBuf],
    mut input: TextInput,
    scan: Scan,
    count_format: &'static str,
    stats_text: &str,
    mut out: std::io::BufWriter<&mut dyn Write>,
    err: &mut dyn Write,
) -> Outcome {
    let Scan {
        n,
        steps,
        json_items,
        started,
        ..
    } = scan;
    let json = a.common.json;
    let failures = input.finish(err)?;
    if a.follow && failures.is_empty() {
        out.flush()?;
        return super::follow::run(a, re, followed, &input, n, &mut out, err);
    }
    let code = if n > 0 { 0 } else { 1 };
    if json && !failures.is_empty() {
        // The document is the error: a partial array would read as the whole answer.
        let code = inputs::conclude(failures, code, true, &mut out, err)?;
        out.flush()?;
        return Ok(code);
    }
    if a.count {
        if json {
            writeln!(
                out,
                "{}",
                to_json(&wire::Count {
                    count: n,
                    format: a.text.is_none().then_some(count_format),
                })
            )?;
        } else {
            writeln!(out, "{n}")?;
        }
    } else if json {
        writeln!(out, "{}", Value::Array(json_items))?;
    }
    out.flush()?;
    drop(out);
    print_stats(&a.common, re, stats_text, n, Some(steps), started, err);
    // What was read is printed; the sources that broke say where, and the exit is 2.
    inputs::conclude(failures, code, false, &mut std::io::sink(), err)
}

/// `rxw replace`.
pub fn replace(a: &ReplaceArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let r = on_whole_text(&a.pattern, a.text.as_deref(), &a.common, err, |re, text| {
        let r = re
            .replace(text, &a.replacement, a.max, &a.common.budget.limits())
            .map_err(|e| a.common.budget.explain(e))?;
        let replaced = r.replaced;
        Ok((r, replaced))
    })?;
    if a.common.json {
        let doc = wire::Replaced {
            result: &r.result,
            replaced: r.replaced,
            utf16: r.utf16.as_deref(),
        };
        writeln!(out, "{}", to_json(&doc))?;
    } else if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        // On a terminal the text is shown, not handed on: its controls are shown inert.
        out.write_all(style::inert(&r.result, Layout::Lines).as_bytes())?;
    } else {
        out.write_all(r.result.as_bytes())?;
        if a.text.is_some() && !r.result.ends_with('\n') {
            writeln!(out)?;
        }
    }
    Ok(if r.replaced > 0 { 0 } else { 1 })
}
