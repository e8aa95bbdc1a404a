//! A time range applied to the lines of merged logs, by each record's time.
//!
//! [`TimeFilter::keep`] is asked about each line of each log in its order, and answers whether
//! the line's record is in the range ([`TimeRange`]): a line that gives a time of its own in
//! its log's format ([`LogFormat::line_time`]: a leading stamp, a JSON or logfmt time field)
//! is the first line of a timed record; a line that gives none (an indented continuation, a
//! stack trace's line, an unstamped line) belongs with the line before it in its log and takes
//! its time. Lines before the first timed line of their log have no time: they are left out
//! whenever the range has an edge, and counted ([`TimeFilter::untimed`]).
//!
//! Each log's format is the one the user named, else detected from its first lines as they
//! come ([`LogFormat::detect`] on up to [`DETECT_LINES`] lines, settled as soon as they read
//! as a record format).

use super::format::LogFormat;
use super::time_range::TimeRange;
use super::timestamp::StampReader;

/// Lines of a log read to detect its format, at most.
pub const DETECT_LINES: usize = 64;

/// What the filter knows of one log.
#[derive(Debug, Default, Clone)]
struct SourceState {
    /// Its format, once settled.
    format: Option<LogFormat>,
    /// The first lines, while the format is not settled.
    head: String,
    head_lines: usize,
    /// The time of the last line that gave one.
    time: Option<i64>,
    stamps: StampReader,
}

/// The lines of merged logs whose record's time is in a range (see the module documentation).
#[derive(Debug, Clone)]
pub struct TimeFilter {
    range: TimeRange,
    forced: Option<LogFormat>,
    sources: Vec<SourceState>,
    kept: u64,
    dropped: u64,
    untimed: u64,
}

impl TimeFilter {
    /// A filter keeping the records in `range`; `forced` is the format the user named (else
    /// each log's is detected).
    pub fn new(range: TimeRange, forced: Option<LogFormat>) -> TimeFilter {
        TimeFilter {
            range,
            forced,
            sources: Vec::new(),
            kept: 0,
            dropped: 0,
            untimed: 0,
        }
    }

    /// The range.
    pub fn range(&self) -> TimeRange {
        self.range
    }

    /// Whether the line `line` (without its line break) of log `source`, the next of that log
    /// in order, is kept.
    pub fn keep(&mut self, source: usize, line: &[u8]) -> bool {
        if self.sources.len() <= source {
            self.sources.resize_with(source + 1, SourceState::default);
        }
        let forced = self.forced;
        let state = &mut self.sources[source];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let format = match (forced, state.format) {
            (Some(f), _) | (None, Some(f)) => f,
            (None, None) => {
                if state.head_lines < DETECT_LINES && !line.iter().all(u8::is_ascii_whitespace) {
                    state.head.push_str(&String::from_utf8_lossy(line));
                    state.head.push('\n');
                    state.head_lines += 1;
                }
                let f = LogFormat::detect(&state.head);
                if f != LogFormat::Lines || state.head_lines >= DETECT_LINES {
                    state.format = Some(f);
                    state.head = String::new();
                }
                f
            }
        };
        let own = match format {
            // The stamp reader keeps the last date, as the merge reads stamps.
            LogFormat::Lines | LogFormat::NetVm => state.stamps.leading(line).map(|s| s.millis),
            f => match std::str::from_utf8(line) {
                Ok(l) => f.line_time(l),
                Err(_) => f.line_time(&String::from_utf8_lossy(line)),
            },
        };
        if own.is_some() {
            state.time = own;
        }
        let keep = self.range.admits(state.time);
        if keep {
            self.kept += 1;
        } else {
            self.dropped += 1;
            if state.time.is_none() {
                self.untimed += 1;
            }
        }
        keep
    }

    /// Lines kept so far.
    pub fn kept(&self) -> u64 {
        self.kept
    }

    /// Lines left out so far (outside the range, or without a time).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Lines left out because their log had given no time yet.
    pub fn untimed(&self) -> u64 {
        self.untimed
    }

    /// A one-line note on the lines left out for having no time, when there were any.
    pub fn note(&self) -> Option<String> {
        (self.untimed > 0).then(|| {
            format!(
                "--since/--until: {} line{} before {} log's first time left out (a record \
                 without a time is in no range with an edge)",
                self.untimed,
                if self.untimed == 1 { "" } else { "s" },
                if self.sources.len() > 1 { "its" } else { "the" },
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(log: &str, range: TimeRange, forced: Option<LogFormat>) -> Vec<&str> {
        let mut f = TimeFilter::new(range, forced);
        log.lines().filter(|l| f.keep(0, l.as_bytes())).collect()
    }

    fn range(since: &str, until: &str) -> TimeRange {
        let edge =
            |t: &str| (!t.is_empty()).then(|| super::super::time_range::parse_time(t, 0).unwrap());
        TimeRange::new(edge(since), edge(until)).unwrap()
    }

    const LOG: &str = "untimed head\n\
        2026-10-05T00:00:00Z a: one\n  one's continuation\n[ACK:1] unstamped record\n\
        2026-10-05T00:01:00Z a: two\n\
        2026-10-05T00:02:00Z a: three\n  three's continuation\n";

    #[test]
    fn a_line_takes_its_record_s_time_and_the_edges_hold() {
        // Since inclusive: 00:01:00 keeps `two`; until exclusive: 00:02:00 drops `three`.
        assert_eq!(
            kept(
                LOG,
                range("2026-10-05T00:01:00Z", "2026-10-05T00:02:00Z"),
                None
            ),
            vec!["2026-10-05T00:01:00Z a: two"]
        );
        // The continuation and the unstamped record go with `one`.
        assert_eq!(
            kept(LOG, range("", "2026-10-05T00:00:00.001Z"), None),
            vec![
                "2026-10-05T00:00:00Z a: one",
                "  one's continuation",
                "[ACK:1] unstamped record"
            ]
        );
        assert_eq!(
            kept(LOG, range("2026-10-05T00:02:00Z", ""), None),
            vec!["2026-10-05T00:02:00Z a: three", "  three's continuation"]
        );
    }

    #[test]
    fn lines_before_the_first_time_are_left_out_and_counted() {
        let mut f = TimeFilter::new(range("2026-10-05", ""), None);
        let kept: Vec<&str> = LOG.lines().filter(|l| f.keep(0, l.as_bytes())).collect();
        assert_eq!(kept.len(), LOG.lines().count() - 1);
        assert_eq!((f.untimed(), f.dropped(), f.kept()), (1, 1, 6));
        assert!(f.note().unwrap().contains("1 line before"));
        // With no edge, every line is kept, timed or not.
        assert_eq!(kept_all(LOG), LOG.lines().count());
    }

    fn kept_all(log: &str) -> usize {
        kept(log, TimeRange::ALL, None).len()
    }

    #[test]
    fn json_lines_are_timed_by_their_field_and_logs_keep_their_own_times() {
        let json = "{\"ts\":\"2026-10-05T00:00:00Z\",\"msg\":\"a\"}\n\
            {\"ts\":\"2026-10-05T00:05:00Z\",\"msg\":\"b\"}\n\
            {\"msg\":\"c, no time\"}\n";
        let r = range("2026-10-05T00:01:00Z", "");
        let mut f = TimeFilter::new(r, None);
        let netvm = ["2026-10-05T00:00:00Z a: x", "2026-10-05T00:09:00Z a: y"];
        let mut got = Vec::new();
        // Two logs interleaved: each keeps its own last time.
        for (k, l) in json.lines().enumerate() {
            if f.keep(1, l.as_bytes()) {
                got.push(l);
            }
            if let Some(n) = netvm.get(k)
                && f.keep(0, n.as_bytes())
            {
                got.push(n);
            }
        }
        assert_eq!(
            got,
            vec![
                "{\"ts\":\"2026-10-05T00:05:00Z\",\"msg\":\"b\"}",
                "2026-10-05T00:09:00Z a: y",
                "{\"msg\":\"c, no time\"}"
            ]
        );
        // A format named by the user is used as is: JSON read as lines has no stamps.
        assert!(kept(json, r, Some(LogFormat::Lines)).is_empty());
    }

    #[test]
    fn crlf_and_invalid_utf8_lines_keep_their_time() {
        let mut f = TimeFilter::new(range("2026-10-05", ""), None);
        assert!(f.keep(0, b"2026-10-05T00:00:00Z a: x\r"));
        assert!(f.keep(0, b"  \xff\xfe bytes\r"));
        assert!(!f.keep(0, b"2026-10-04T23:59:59Z a: \xff"));
    }
}
