//! The timeline: matches per time bucket, from the lines' leading timestamps.
//!
//! Each line has a time: its own leading stamp ([`crate::input::timestamp`]), else the last stamped
//! line's; lines before the first stamp have none, and their matches are counted apart
//! ([`Timeline::untimed_matches`]). A match belongs to the line where it starts. Buckets are
//! aligned to multiples of their width since the epoch; the width is the smallest of 1s, 10s,
//! 1m, 10m, 1h, 1d that covers the log's time range in at most `max_buckets` buckets (1d when
//! none does). Every bucket between the first and the last is listed, empty ones too, each
//! with the range of lines whose time falls in it, so a front end can jump there.
//!
//! [`TimelinePass`] takes the input a chunk of whole lines at a time (a merged set of logs,
//! a log larger than memory); [`timeline`] is one pass over one text.
//!
//! One pass over the text: counts are kept per bucket of the current width, and the width is
//! raised (buckets merged, which is exact since each width divides the next) whenever more
//! than a few thousand buckets are live, so memory stays small whatever the log's span.

use crate::engine::{MatchOptions, Regex};
use crate::error::Error;
use crate::input::chunks::Run;
use crate::input::timestamp;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// The bucket widths, in milliseconds, smallest first: 1s, 10s, 1m, 10m, 1h, 1d, then 10d,
/// 100d, 1000d and 10000d, used only when a log's span (stamps from year 0 to 9999) would
/// need more than [`MAX_BUCKETS`] days. Each width divides the next, so merging is exact.
pub const WIDTHS_MS: [i64; 10] = [
    1_000,
    10_000,
    60_000,
    600_000,
    3_600_000,
    DAY_MS,
    10 * DAY_MS,
    100 * DAY_MS,
    1_000 * DAY_MS,
    10_000 * DAY_MS,
];

const DAY_MS: i64 = 86_400_000;

/// The index of `1d` in [`WIDTHS_MS`]: the widest bucket a timeline takes to stay near the
/// buckets asked for; the wider ones serve only the cap.
const DAY_LEVEL: usize = 5;

/// Most buckets a timeline has, whatever is asked and whatever the log's span (a span of
/// ten thousand years at one day a bucket would be 3.6 million): past it the width grows.
pub const MAX_BUCKETS: usize = 10_000;

/// Live buckets past which the pass switches to the next width.
const LIVE_BUCKETS: usize = 4096;

/// The widths a chart can be zoomed to: 1s to 1d ([`WIDTHS_MS`] up to a day).
pub const ZOOM_WIDTHS_MS: &[i64] = WIDTHS_MS.split_at(DAY_LEVEL + 1).0;

/// Most buckets a zoomed timeline covers: its window is this many buckets of its width,
/// fewer than `LIVE_BUCKETS`, so the width is never raised.
pub const ZOOM_BUCKETS: i64 = 2048;

/// A zoomed timeline: buckets of one width (one of [`ZOOM_WIDTHS_MS`]) over a window of
/// time, `[from, to)`; matches outside it are counted in [`Timeline::matches`] only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Zoom {
    /// The bucket width in milliseconds.
    pub width_ms: i64,
    /// The window's start, inclusive (a multiple of the width).
    pub from: i64,
    /// The window's end, exclusive.
    pub to: i64,
}

impl Zoom {
    /// Buckets of `width_ms` (taken to the nearest zoom width at or below it) over a window
    /// of [`ZOOM_BUCKETS`] of them centred on the instant `at`.
    pub fn around(width_ms: i64, at: i64) -> Zoom {
        let width_ms = ZOOM_WIDTHS_MS
            .iter()
            .rev()
            .copied()
            .find(|&w| w <= width_ms)
            .unwrap_or(ZOOM_WIDTHS_MS[0]);
        let centre = at.div_euclid(width_ms) * width_ms;
        let from = centre.saturating_sub(ZOOM_BUCKETS / 2 * width_ms);
        Zoom {
            width_ms,
            from,
            to: from.saturating_add(ZOOM_BUCKETS * width_ms),
        }
    }

    fn level(&self) -> usize {
        WIDTHS_MS
            .iter()
            .position(|&w| w == self.width_ms)
            .unwrap_or(0)
    }
}

/// One bucket: `[start, end)` in milliseconds since the epoch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bucket {
    /// Start, inclusive.
    pub start: i64,
    /// End, exclusive.
    pub end: i64,
    /// Matches that start on a line whose time falls here.
    pub count: usize,
    /// The first and last line (from 1) whose time falls here; `None` when no line does.
    /// Lines of the merged input when several logs were read (see `sources`).
    pub lines: Option<(u64, u64)>,
    /// When several logs were read: each log's share of the bucket, its lines counted in
    /// that log, in order of the logs; empty for one log.
    pub sources: Vec<SourceShare>,
}

/// One log's share of a [`Bucket`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceShare {
    /// The log, an index into the input's sources.
    pub source: usize,
    /// Matches on its lines whose time falls in the bucket.
    pub count: usize,
    /// The first and last of its lines (from 1, in that log) whose time falls there.
    pub lines: (u64, u64),
}

impl Bucket {
    /// The bucket as JSON: `{"start","end","count","first_line","last_line"}`, times as
    /// RFC 3339 UTC text.
    pub fn wire(&self) -> BucketJson<'_> {
        self.wire_in(&[])
    }

    /// The bucket as JSON, each log's share naming the log from `names` (the input's sources
    /// by index): `{"start","end","count","first_line","last_line","sources":[…]}`,
    /// `sources` only when several logs were read.
    pub fn wire_in<'a>(&self, names: &'a [String]) -> BucketJson<'a> {
        BucketJson {
            start: timestamp::format_utc(self.start),
            end: timestamp::format_utc(self.end),
            count: self.count,
            first_line: self.lines.map(|l| l.0),
            last_line: self.lines.map(|l| l.1),
            sources: self
                .sources
                .iter()
                .map(|s| SourceShareJson {
                    source: names.get(s.source).map_or("", String::as_str),
                    count: s.count,
                    first_line: s.lines.0,
                    last_line: s.lines.1,
                })
                .collect(),
        }
    }
}

/// A bucket as `rxw timeline --json` prints it.
#[derive(Debug, Serialize)]
pub struct BucketJson<'a> {
    /// Start, inclusive.
    pub start: String,
    /// End, exclusive.
    pub end: String,
    /// Matches.
    pub count: usize,
    /// First line in the bucket, or `null`.
    pub first_line: Option<u64>,
    /// Last line in the bucket, or `null`.
    pub last_line: Option<u64>,
    /// Each log's share, when several were read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<SourceShareJson<'a>>,
}

/// One log's share of a bucket as JSON: `{"source","count","first_line","last_line"}`, the
/// lines counted in that log.
#[derive(Debug, Serialize)]
pub struct SourceShareJson<'a> {
    /// The log's name.
    pub source: &'a str,
    /// Matches.
    pub count: usize,
    /// Its first line in the bucket.
    pub first_line: u64,
    /// Its last line in the bucket.
    pub last_line: u64,
}

/// Matches per time bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timeline {
    /// The bucket width in milliseconds (one of [`WIDTHS_MS`]).
    pub width_ms: i64,
    /// Every bucket from the first timed line's to the last's, in time order.
    pub buckets: Vec<Bucket>,
    /// All matches, timed or not.
    pub matches: usize,
    /// Matches on lines before the first stamp.
    pub untimed_matches: usize,
}

/// The width as text: `1s`, `10s`, `1m`, `10m`, `1h`, `1d`.
pub fn width_label(width_ms: i64) -> String {
    match width_ms {
        w if w % 86_400_000 == 0 => format!("{}d", w / 86_400_000),
        w if w % 3_600_000 == 0 => format!("{}h", w / 3_600_000),
        w if w % 60_000 == 0 => format!("{}m", w / 60_000),
        w => format!("{}s", w / 1000),
    }
}

#[derive(Debug, Clone, Copy)]
struct Tally {
    count: usize,
    first_line: u64,
    last_line: u64,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.count += other.count;
        self.first_line = self.first_line.min(other.first_line);
        self.last_line = self.last_line.max(other.last_line);
    }
}

/// Tallies per bucket of a width that grows as needed.
#[derive(Debug, Clone)]
struct Tallies {
    level: usize,
    map: BTreeMap<i64, Tally>,
    /// Per bucket and log, that log's own lines.
    by_source: BTreeMap<(i64, usize), Tally>,
    current_source: Option<((i64, usize), Tally)>,
    /// The bucket being filled, flushed into `map` when a line falls elsewhere (consecutive
    /// lines mostly share a bucket, so the map is seldom touched).
    current: Option<(i64, Tally)>,
}

impl Tallies {
    /// Counts `matches` on `line` (of the merged input), line `own` of log `source`.
    fn add(&mut self, time: i64, line: u64, (source, own): (usize, u64), matches: usize) {
        let width = WIDTHS_MS[self.level];
        let key = time.div_euclid(width) * width;
        let tally = |line| Tally {
            count: matches,
            first_line: line,
            last_line: line,
        };
        match &mut self.current_source {
            Some((k, t)) if *k == (key, source) => t.merge(tally(own)),
            _ => {
                if let Some((k, t)) = self.current_source.take() {
                    self.by_source
                        .entry(k)
                        .and_modify(|m| m.merge(t))
                        .or_insert(t);
                }
                self.current_source = Some(((key, source), tally(own)));
            }
        }
        match &mut self.current {
            Some((k, t)) if *k == key => t.merge(tally(line)),
            _ => {
                self.flush();
                self.current = Some((key, tally(line)));
            }
        }
    }

    fn flush(&mut self) {
        if let Some((key, tally)) = self.current.take() {
            self.map
                .entry(key)
                .and_modify(|t| t.merge(tally))
                .or_insert(tally);
            while self.map.len() > LIVE_BUCKETS
                && (self.level < DAY_LEVEL || self.map.len() > MAX_BUCKETS)
                && self.level + 1 < WIDTHS_MS.len()
            {
                self.coarsen(self.level + 1);
            }
        }
    }

    fn coarsen(&mut self, level: usize) {
        let width = WIDTHS_MS[level];
        let mut merged: BTreeMap<i64, Tally> = BTreeMap::new();
        for (key, tally) in std::mem::take(&mut self.map) {
            merged
                .entry(key.div_euclid(width) * width)
                .and_modify(|t| t.merge(tally))
                .or_insert(tally);
        }
        self.map = merged;
        if let Some((k, t)) = self.current_source.take() {
            self.by_source
                .entry(k)
                .and_modify(|m| m.merge(t))
                .or_insert(t);
        }
        let mut merged: BTreeMap<(i64, usize), Tally> = BTreeMap::new();
        for ((key, source), tally) in std::mem::take(&mut self.by_source) {
            merged
                .entry((key.div_euclid(width) * width, source))
                .and_modify(|t| t.merge(tally))
                .or_insert(tally);
        }
        self.by_source = merged;
        self.level = level;
    }
}

/// The timeline of `re`'s matches in `text`, in at most about `max_buckets` buckets.
///
/// # Errors
/// A matching error (a backtrack budget exhausted).
pub fn timeline(text: &str, re: &Regex, max_buckets: usize) -> Result<Timeline, Error> {
    timeline_with_cancel(text, re, max_buckets, None)
}

/// As [`timeline`], stopping early when `cancel` becomes true (the result is then partial,
/// for the caller to drop).
///
/// # Errors
/// A matching error (a backtrack budget exhausted).
pub fn timeline_with_cancel(
    text: &str,
    re: &Regex,
    max_buckets: usize,
    cancel: Option<&AtomicBool>,
) -> Result<Timeline, Error> {
    timeline_zoomed(text, re, max_buckets, None, cancel)
}

/// As [`timeline_with_cancel`], zoomed to `zoom` when it is given.
///
/// # Errors
/// A matching error (a backtrack budget exhausted).
pub fn timeline_zoomed(
    text: &str,
    re: &Regex,
    max_buckets: usize,
    zoom: Option<Zoom>,
    cancel: Option<&AtomicBool>,
) -> Result<Timeline, Error> {
    let mut pass = zoom.map_or_else(TimelinePass::new, TimelinePass::zoomed);
    pass.feed(text, text, &[], re, cancel)?;
    Ok(pass.finish(max_buckets))
}

/// A timeline built from the input a chunk of whole lines at a time (the timeline of
/// [`timeline`], for inputs too large to hold or merged from several logs). A copy can be
/// finished while the original goes on (a followed log's unfinished last line).
#[derive(Debug, Clone)]
pub struct TimelinePass {
    tallies: Tallies,
    matches: usize,
    untimed: usize,
    time: Option<i64>,
    line: u64,
    /// The log the last line fed came from.
    source: Option<usize>,
    /// The last line fed, counted in its own log.
    source_line: u64,
    /// Whether lines of more than one log were fed.
    several: bool,
    /// The zoom: one width, one window of time.
    zoom: Option<Zoom>,
}

impl Default for TimelinePass {
    fn default() -> Self {
        TimelinePass::new()
    }
}

impl TimelinePass {
    /// Nothing counted yet.
    pub fn new() -> TimelinePass {
        TimelinePass {
            tallies: Tallies {
                level: 0,
                map: BTreeMap::new(),
                by_source: BTreeMap::new(),
                current_source: None,
                current: None,
            },
            matches: 0,
            untimed: 0,
            time: None,
            line: 0,
            source: None,
            source_line: 0,
            several: false,
            zoom: None,
        }
    }

    /// Nothing counted yet, for a timeline zoomed to `zoom`: buckets of its width over its
    /// window only.
    pub fn zoomed(zoom: Zoom) -> TimelinePass {
        let mut pass = TimelinePass::new();
        pass.tallies.level = zoom.level();
        pass.zoom = Some(zoom);
        pass
    }

    /// Counts the matches of `re` in `search`, a prefix of `text`, whose lines follow the
    /// lines fed before. `text` is whole lines (the last may lack its newline); `search` is
    /// what to match ([`crate::input::chunks::Chunk::searchable`]: the text less a final line feed when more
    /// follows), and a match belongs to the line it starts on. `runs` say which log each
    /// line came from: a line without a stamp takes the time of the last stamped line of
    /// its own log, none when another log's line came between. Stops early, the pass then
    /// partial, when `cancel` becomes true.
    ///
    /// # Errors
    /// A matching error (a backtrack budget exhausted).
    pub fn feed(
        &mut self,
        text: &str,
        search: &str,
        runs: &[Run],
        re: &Regex,
        cancel: Option<&AtomicBool>,
    ) -> Result<(), Error> {
        let bytes = text.as_bytes();
        let options = MatchOptions {
            bounds_only: true,
            cancel,
            ..Default::default()
        };
        let mut found = re.matches(search, options).peekable();
        let mut runs = runs.iter().peekable();
        let mut start = 0usize;
        loop {
            self.line += 1;
            self.source_line += 1;
            while let Some(run) = runs.next_if(|r| r.offset <= start) {
                if self.source.is_some_and(|s| s != run.source) {
                    self.time = None;
                    self.several = true;
                }
                self.source = Some(run.source);
                self.source_line = run.line;
            }
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |k| start + k);
            if let Some(stamp) = timestamp::leading(&bytes[start..end]) {
                self.time = Some(stamp.millis);
            }
            // The last line (a final newline ends it, it starts no empty line) also takes
            // matches at the very end of the text.
            let last = end + 1 >= bytes.len();
            let next = if last { usize::MAX } else { end + 1 };
            let mut on_line = 0;
            while let Some(m) = found.next_if(|m| m.as_ref().map_or(true, |m| m.start() < next)) {
                m?;
                on_line += 1;
            }
            self.matches += on_line;
            match self.time {
                Some(t) if self.zoom.is_some_and(|z| t < z.from || t >= z.to) => {}
                Some(t) => self.tallies.add(
                    t,
                    self.line,
                    (self.source.unwrap_or(0), self.source_line),
                    on_line,
                ),
                None => self.untimed += on_line,
            }
            if last
                || (self.line.is_multiple_of(65_536)
                    && cancel.is_some_and(|c| c.load(Ordering::Relaxed)))
            {
                break;
            }
            start = end + 1;
        }
        Ok(())
    }

    /// The timeline in at most about `max_buckets` buckets.
    pub fn finish(mut self, max_buckets: usize) -> Timeline {
        self.tallies.flush();
        let max_buckets = match self.zoom {
            // Every bucket of the window at its width.
            Some(_) => MAX_BUCKETS,
            None => max_buckets.max(1),
        };
        let buckets = finish(self.tallies, max_buckets, self.several);
        Timeline {
            width_ms: buckets.0,
            buckets: buckets.1,
            matches: self.matches,
            untimed_matches: self.untimed,
        }
    }
}

/// Picks the final width, merges into it and fills the gaps.
fn finish(mut tallies: Tallies, max_buckets: usize, several: bool) -> (i64, Vec<Bucket>) {
    if let Some((k, t)) = tallies.current_source.take() {
        tallies
            .by_source
            .entry(k)
            .and_modify(|m| m.merge(t))
            .or_insert(t);
    }
    let (Some(&lo), Some(&hi)) = (tallies.map.keys().next(), tallies.map.keys().next_back()) else {
        return (WIDTHS_MS[tallies.level], Vec::new());
    };
    let count = |l: usize| {
        let w = WIDTHS_MS[l];
        (hi.div_euclid(w) - lo.div_euclid(w) + 1) as u64
    };
    let max_buckets = max_buckets.min(MAX_BUCKETS) as u64;
    // The narrowest width up to a day that gives at most the buckets asked for; else a day,
    // or the narrowest wider width that keeps within the cap.
    let level = (tallies.level..=DAY_LEVEL.max(tallies.level))
        .find(|&l| count(l) <= max_buckets)
        .or_else(|| {
            (DAY_LEVEL.max(tallies.level)..WIDTHS_MS.len())
                .find(|&l| count(l) <= MAX_BUCKETS as u64)
        })
        .unwrap_or(WIDTHS_MS.len() - 1);
    if level != tallies.level {
        tallies.coarsen(level);
    }
    let share = |key: i64| -> Vec<SourceShare> {
        if !several {
            return Vec::new();
        }
        tallies
            .by_source
            .range((key, 0)..=(key, usize::MAX))
            .map(|(&(_, source), t)| SourceShare {
                source,
                count: t.count,
                lines: (t.first_line, t.last_line),
            })
            .collect()
    };
    let width = WIDTHS_MS[level];
    let first = lo.div_euclid(width) * width;
    let last = hi.div_euclid(width) * width;
    let mut buckets = Vec::new();
    let mut key = first;
    while key <= last {
        let tally = tallies.map.get(&key);
        buckets.push(Bucket {
            start: key,
            end: key + width,
            count: tally.map_or(0, |t| t.count),
            lines: tally.map(|t| (t.first_line, t.last_line)),
            sources: share(key),
        });
        key += width;
    }
    (width, buckets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::{Flags, Flavor};

    fn re(p: &str) -> Regex {
        Regex::new(p, Flavor::PYTHON, Flags::default()).unwrap()
    }

    fn stamp(t: &str) -> i64 {
        timestamp::leading(t.as_bytes()).unwrap().millis
    }

    #[test]
    fn buckets_count_matches_and_keep_line_ranges() {
        let text = "[CLAIM early] before the first stamp\n\
                    2026-10-05T00:00:05Z a: [CLAIM x] [CLAIM y]\n\
                    no stamp, inherits 00:00:05 [CLAIM z]\n\
                    2026-10-05T00:00:25Z a: nothing\n\
                    2026-10-05T00:00:41Z a: [CLAIM w]";
        let t = timeline(text, &re(r"\[CLAIM \w+\]"), 60).unwrap();
        assert_eq!(t.width_ms, 1_000);
        assert_eq!((t.matches, t.untimed_matches), (5, 1));
        assert_eq!(t.buckets.len(), 37);
        let b = &t.buckets[0];
        assert_eq!(b.start, stamp("2026-10-05T00:00:05Z"));
        assert_eq!((b.count, b.lines), (3, Some((2, 3))));
        assert_eq!((t.buckets[1].count, t.buckets[1].lines), (0, None));
        assert_eq!(
            (t.buckets[20].count, t.buckets[20].lines),
            (0, Some((4, 4)))
        );
        assert_eq!(
            (t.buckets[36].count, t.buckets[36].lines),
            (1, Some((5, 5)))
        );
        let t = timeline(text, &re(r"\[CLAIM \w+\]"), 10).unwrap();
        assert_eq!(t.width_ms, 10_000);
        assert_eq!(
            t.buckets.iter().map(|b| b.count).collect::<Vec<_>>(),
            [3, 0, 0, 0, 1]
        );
        assert_eq!(
            serde_json::to_value(t.buckets[0].wire()).unwrap(),
            serde_json::json!({"start":"2026-10-05T00:00:00Z","end":"2026-10-05T00:00:10Z",
                               "count":3,"first_line":2,"last_line":3})
        );
    }

    #[test]
    fn the_width_follows_the_span() {
        let pick = |span_s: i64| {
            let text = format!(
                "{} x\n{} x\n",
                timestamp::format_utc(0),
                timestamp::format_utc(span_s * 1000)
            );
            width_label(timeline(&text, &re("x"), 60).unwrap().width_ms)
        };
        assert_eq!(pick(0), "1s");
        assert_eq!(pick(59), "1s");
        assert_eq!(pick(60), "10s");
        assert_eq!(pick(599), "10s");
        assert_eq!(pick(3000), "1m");
        assert_eq!(pick(30_000), "10m");
        assert_eq!(pick(200_000), "1h");
        assert_eq!(pick(86_400 * 30), "1d");
        assert_eq!(pick(86_400 * 400), "1d");
    }

    /// Regression: stamps at year 0 and year 9999 made 3,652,425 one-day buckets (87 MB of
    /// chart, 390 MB of JSON), and `--buckets 1000000000` grew past 13 GB. The count is
    /// capped at MAX_BUCKETS, the width growing past a day only for that.
    #[test]
    fn a_span_of_ten_thousand_years_stays_under_the_bucket_cap() {
        let text = "0000-01-01T00:00:00Z x\n9999-12-31T23:59:59Z x\n";
        for asked in [60, 10_000, 1_000_000_000] {
            let t = timeline(text, &re("x"), asked).unwrap();
            assert!(
                t.buckets.len() <= MAX_BUCKETS,
                "{asked}: {}",
                t.buckets.len()
            );
            assert_eq!(t.buckets.iter().map(|b| b.count).sum::<usize>(), 2);
        }
        let t = timeline(text, &re("x"), 60).unwrap();
        assert_eq!(width_label(t.width_ms), "1000d");
        // A short log asking for a billion buckets gets at most the cap, at one second.
        let t = timeline(
            "2026-01-01T00:00:00Z x\n2026-01-02T00:00:00Z x\n",
            &re("x"),
            1_000_000_000,
        )
        .unwrap();
        assert!(t.buckets.len() <= MAX_BUCKETS);
        assert_eq!(width_label(t.width_ms), "10s");
    }

    #[test]
    fn a_long_log_coarsens_as_it_goes_and_stays_exact() {
        // One stamped line every 7 s for 3 days: far more live 1 s buckets than allowed.
        let mut text = String::new();
        let mut expected_per_hour = vec![0usize; 72];
        for k in 0..(3 * 86_400 / 7) {
            let t = k * 7;
            let hit = k % 3 == 0;
            text.push_str(&timestamp::format_utc(t * 1000));
            text.push_str(if hit { " [CLAIM a]\n" } else { " idle\n" });
            if hit {
                expected_per_hour[(t / 3600) as usize] += 1;
            }
        }
        let t = timeline(&text, &re(r"\[CLAIM"), 100).unwrap();
        assert_eq!(t.width_ms, 3_600_000);
        assert_eq!(
            t.buckets.iter().map(|b| b.count).collect::<Vec<_>>(),
            expected_per_hour
        );
        assert_eq!(t.buckets[1].lines, Some((516, 1029)));
    }

    #[test]
    fn a_zoomed_timeline_keeps_its_width_over_its_window_only() {
        // A match a second for ten minutes.
        let text: String = (0..600)
            .map(|k| format!("2026-10-05T00:{:02}:{:02}Z FAIL\n", k / 60, k % 60))
            .collect();
        let whole = timeline(&text, &re("FAIL"), 20).unwrap();
        assert_eq!(whole.width_ms, 60_000, "ten minutes fit 20 buckets at 1m");
        let at = stamp("2026-10-05T00:05:00Z");
        let z = Zoom::around(1_000, at);
        assert_eq!((z.to - z.from) / 1_000, ZOOM_BUCKETS);
        let t = timeline_zoomed(&text, &re("FAIL"), 20, Some(z), None).unwrap();
        assert_eq!(t.width_ms, 1_000);
        assert_eq!(t.matches, 600, "every match is counted");
        // The window starts 1024 s before 00:05:00, so it holds the whole log.
        assert_eq!(t.buckets.len(), 600);
        assert!(t.buckets.iter().all(|b| b.count == 1));
        // A window at 1s that holds only the last minutes of the log.
        let late = Zoom::around(1_000, stamp("2026-10-05T00:25:00Z"));
        let t = timeline_zoomed(&text, &re("FAIL"), 20, Some(late), None).unwrap();
        assert_eq!(
            t.buckets[0].start,
            late.from.max(stamp("2026-10-05T00:00:00Z"))
        );
        assert_eq!(
            t.buckets.iter().map(|b| b.count).sum::<usize>(),
            (600 - (late.from - stamp("2026-10-05T00:00:00Z")) / 1000) as usize
        );
        // A width between two zoom widths is taken down to the narrower.
        assert_eq!(Zoom::around(90_000, at).width_ms, 60_000);
        assert_eq!(ZOOM_WIDTHS_MS.last(), Some(&86_400_000));
    }

    #[test]
    fn empty_and_unstamped_texts() {
        let t = timeline("", &re("x"), 60).unwrap();
        assert!(t.buckets.is_empty());
        let t = timeline("x\nx\n", &re("x"), 60).unwrap();
        assert!(t.buckets.is_empty());
        assert_eq!((t.matches, t.untimed_matches), (2, 2));
        // An empty match at the very end belongs to the last line.
        let t = timeline("2026-10-05T00:00:00Z\n", &re("$"), 60).unwrap();
        assert_eq!((t.matches, t.buckets[0].count), (2, 2));
    }
}
