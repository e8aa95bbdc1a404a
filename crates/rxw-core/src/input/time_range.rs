//! Time ranges: `--since` / `--until` on the command line, the TUI's time-range prompt.
//!
//! A [`TimeRange`] keeps the records whose time `t` has `since <= t < until`: the start is
//! inclusive, the end exclusive, so `--since 2026-10-05 --until 2026-10-06` is the whole
//! 5th of October (UTC) and two ranges that share an edge never hold the same record.
//! Either edge may be left open.
//!
//! An edge is written ([`parse_time`]) as:
//! - an ISO-8601 instant: `2026-10-05T00:01:48Z`, `2026-10-05 00:01:48`, with a fraction
//!   (`.250`) and a zone (`Z`, `+02:00`, `+0200`, `+02`); without a zone it is UTC, as a
//!   log's stamps are read ([`super::timestamp`]). The seconds may be left out
//!   (`2026-10-05T00:01`);
//! - a date, `2026-10-05`: its midnight, UTC;
//! - a time relative to now: `-15m`, `-2h`, `-1d`, `-90s`, `-1w`, or several joined
//!   (`-1h30m`); `now` is now.
//!
//! A record's time is its own: the leading stamp of its first line, or its format's time
//! field (a JSON or logfmt `ts`). A record without one (an unstamped line, a stack trace's
//! line) takes the time of the record before it in its own log; a record before the first
//! timed one of its log has no time, and is in no range with an edge ([`TimeRange::admits`]).

use super::timestamp;
use crate::error::{Error, ErrorKind};
use std::fmt;

/// A range of instants, in milliseconds since 1970-01-01T00:00:00Z: `since` inclusive,
/// `until` exclusive, either open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TimeRange {
    since: Option<i64>,
    until: Option<i64>,
}

impl TimeRange {
    /// Every instant: no edge.
    pub const ALL: TimeRange = TimeRange {
        since: None,
        until: None,
    };

    /// The range from `since` (inclusive) to `until` (exclusive), in milliseconds.
    ///
    /// # Errors
    /// [`ErrorKind::ArgumentsInvalid`] when both are given and `until` is not after `since`
    /// (the range would hold nothing, which is never what was meant).
    pub fn new(since: Option<i64>, until: Option<i64>) -> Result<TimeRange, Error> {
        if let (Some(s), Some(u)) = (since, until)
            && u <= s
        {
            return Err(Error::new(
                ErrorKind::ArgumentsInvalid,
                format!(
                    "the time range is empty: --until {} is not after --since {}",
                    timestamp::format_utc(u),
                    timestamp::format_utc(s)
                ),
            ));
        }
        Ok(TimeRange { since, until })
    }

    /// The range `since` and `until` say as written ([`parse_time`]), relative times taken
    /// against `now_millis`.
    ///
    /// # Errors
    /// [`ErrorKind::ArgumentsInvalid`] naming the option and the text for an edge that is
    /// not a time, and as [`TimeRange::new`].
    pub fn parse(
        since: Option<&str>,
        until: Option<&str>,
        now_millis: i64,
    ) -> Result<TimeRange, Error> {
        let edge = |option: &str, text: Option<&str>| -> Result<Option<i64>, Error> {
            text.map(|t| {
                parse_time(t, now_millis).map_err(|e| {
                    Error::new(
                        ErrorKind::ArgumentsInvalid,
                        format!("{option}: {}", e.message),
                    )
                })
            })
            .transpose()
        };
        TimeRange::new(edge("--since", since)?, edge("--until", until)?)
    }

    /// The first instant in the range, when it has a start.
    pub fn since(&self) -> Option<i64> {
        self.since
    }

    /// The first instant past the range, when it has an end.
    pub fn until(&self) -> Option<i64> {
        self.until
    }

    /// Whether the range has no edge (every record is in it, timed or not).
    pub fn is_all(&self) -> bool {
        self.since.is_none() && self.until.is_none()
    }

    /// Whether the instant `millis` is in the range: `since <= millis < until`.
    pub fn contains(&self, millis: i64) -> bool {
        self.since.is_none_or(|s| s <= millis) && self.until.is_none_or(|u| millis < u)
    }

    /// Whether a record of time `time` is in the range: a record without a time is in the
    /// range without edges and in no other.
    pub fn admits(&self, time: Option<i64>) -> bool {
        match time {
            Some(t) => self.contains(t),
            None => self.is_all(),
        }
    }

    /// The range intersected with `other` (the later start, the earlier end).
    ///
    /// # Errors
    /// As [`TimeRange::new`], when they do not overlap.
    pub fn and(&self, other: &TimeRange) -> Result<TimeRange, Error> {
        let since = match (self.since, other.since) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let until = match (self.until, other.until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        TimeRange::new(since, until)
    }
}

impl fmt::Display for TimeRange {
    /// `2026-10-05T00:00:00Z..2026-10-06T00:00:00Z`, an open edge left empty
    /// (`2026-10-05T00:00:00Z..`), `..` for the whole range: what a status bar shows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.since {
            f.write_str(&timestamp::format_utc(s))?;
        }
        f.write_str("..")?;
        if let Some(u) = self.until {
            f.write_str(&timestamp::format_utc(u))?;
        }
        Ok(())
    }
}

/// Now, in milliseconds since 1970-01-01T00:00:00Z (0 if the clock is before it).
pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The help text shared by `--since` and `--until`.
pub const EDGE_HELP: &str = "an ISO-8601 time (2026-10-05T00:01:48Z; UTC when it has no \
    zone), a date (2026-10-05: its midnight UTC), or a time before now (-15m, -2h, -1d, -1w, \
    -1h30m; now)";

/// The instant `text` writes (see the module documentation), relative times taken against
/// `now_millis`.
///
/// # Errors
/// [`ErrorKind::ArgumentsInvalid`] saying what a time may be, for any other text.
pub fn parse_time(text: &str, now_millis: i64) -> Result<i64, Error> {
    let t = text.trim();
    let bad = |why: &str| {
        Error::new(
            ErrorKind::ArgumentsInvalid,
            format!("{text:?} is not a time{why}: write {EDGE_HELP}"),
        )
    };
    if t.eq_ignore_ascii_case("now") {
        return Ok(now_millis);
    }
    if let Some(rest) = t.strip_prefix('-') {
        return relative(rest)
            .map(|ago| now_millis.saturating_sub(ago))
            .ok_or_else(|| bad(""));
    }
    let b = t.as_bytes();
    if b.len() == 10 {
        // A date alone: its midnight.
        let midnight = format!("{t}T00:00:00Z");
        return timestamp::leading(midnight.as_bytes())
            .filter(|s| s.len == midnight.len())
            .map(|s| s.millis)
            .ok_or_else(|| bad(""));
    }
    // `YYYY-MM-DDThh:mm` and its zone: the seconds are :00.
    let with_seconds;
    let t = if b.len() >= 16
        && b[13] == b':'
        && b.get(16).is_none_or(|c| !c.is_ascii_digit() && *c != b':')
    {
        with_seconds = format!("{}:00{}", &t[..16], &t[16..]);
        with_seconds.as_str()
    } else {
        t
    };
    match timestamp::leading(t.as_bytes()) {
        Some(s) if s.len == t.len() => Ok(s.millis),
        Some(_) => Err(bad(" (text after the time)")),
        None => Err(bad("")),
    }
}

/// Milliseconds of a duration written as numbers and units (`15m`, `1h30m`, `2d`), each unit
/// one of `s m h d w`.
fn relative(text: &str) -> Option<i64> {
    if text.is_empty() {
        return None;
    }
    let mut total: i64 = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let n: i64 = rest[..digits].parse().ok()?;
        let unit = match rest.as_bytes().get(digits)? {
            b's' => 1_000,
            b'm' => 60_000,
            b'h' => 3_600_000,
            b'd' => 86_400_000,
            b'w' => 7 * 86_400_000,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(unit)?)?;
        rest = &rest[digits + 1..];
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> i64 {
        timestamp::leading(text.as_bytes()).unwrap().millis
    }

    const NOW: i64 = 1_791_158_508_000; // 2026-10-05T00:01:48Z

    #[test]
    fn absolute_times_dates_and_minutes() {
        assert_eq!(parse_time("2026-10-05T00:01:48Z", 0).unwrap(), NOW);
        assert_eq!(parse_time(" 2026-10-05 00:01:48 ", 0).unwrap(), NOW);
        assert_eq!(parse_time("2026-10-05T02:01:48+02:00", 0).unwrap(), NOW);
        assert_eq!(
            parse_time("2026-10-05T00:01:48.250Z", 0).unwrap(),
            NOW + 250
        );
        assert_eq!(
            parse_time("2026-10-05", 0).unwrap(),
            at("2026-10-05T00:00:00Z")
        );
        assert_eq!(
            parse_time("2026-10-05T00:01", 0).unwrap(),
            at("2026-10-05T00:01:00Z")
        );
        assert_eq!(
            parse_time("2026-10-05T00:01+01:00", 0).unwrap(),
            at("2026-10-04T23:01:00Z")
        );
    }

    #[test]
    fn relative_times_count_back_from_now() {
        assert_eq!(parse_time("-15m", NOW).unwrap(), NOW - 15 * 60_000);
        assert_eq!(parse_time("-2h", NOW).unwrap(), NOW - 2 * 3_600_000);
        assert_eq!(parse_time("-1d", NOW).unwrap(), NOW - 86_400_000);
        assert_eq!(parse_time("-1w", NOW).unwrap(), NOW - 7 * 86_400_000);
        assert_eq!(parse_time("-90s", NOW).unwrap(), NOW - 90_000);
        assert_eq!(parse_time("-1h30m", NOW).unwrap(), NOW - 90 * 60_000);
        assert_eq!(parse_time("now", NOW).unwrap(), NOW);
        assert_eq!(parse_time("NOW", NOW).unwrap(), NOW);
    }

    #[test]
    fn what_is_not_a_time_is_an_error_saying_what_is() {
        for bad in [
            "",
            "-",
            "-15",
            "-m",
            "-15x",
            "-1h30",
            "15m",
            "yesterday",
            "2026-13-05",
            "2026-10-05T25:00:00Z",
            "2026-10-05T00:01:48Z trailing",
            "2026-10-05Tx",
            "-99999999999999999999d",
        ] {
            let e = parse_time(bad, NOW).unwrap_err();
            assert_eq!(e.kind, ErrorKind::ArgumentsInvalid, "{bad:?}");
            assert!(e.message.contains("-15m"), "{bad:?}: {}", e.message);
        }
        let e = TimeRange::parse(Some("soon"), None, NOW).unwrap_err();
        crate::testing::assert_message_starts(&e, "--since: \"soon\"");
    }

    #[test]
    fn the_start_is_inclusive_and_the_end_exclusive() {
        let r = TimeRange::parse(Some("2026-10-05"), Some("2026-10-06"), NOW).unwrap();
        let first = at("2026-10-05T00:00:00Z");
        let next_day = at("2026-10-06T00:00:00Z");
        assert!(!r.contains(first - 1));
        assert!(r.contains(first));
        assert!(r.contains(next_day - 1));
        assert!(!r.contains(next_day));
        // A record without a time is in no range with an edge.
        assert!(!r.admits(None));
        assert!(TimeRange::ALL.admits(None));
        assert!(TimeRange::ALL.contains(i64::MIN) && TimeRange::ALL.contains(i64::MAX));
        // Open edges.
        let since = TimeRange::parse(Some("-1h"), None, NOW).unwrap();
        assert!(since.contains(NOW - 3_600_000) && since.contains(i64::MAX));
        assert!(!since.contains(NOW - 3_600_001));
        let until = TimeRange::parse(None, Some("now"), NOW).unwrap();
        assert!(until.contains(i64::MIN) && !until.contains(NOW));
    }

    #[test]
    fn an_empty_range_is_an_error_and_ranges_intersect() {
        let e = TimeRange::parse(Some("-1h"), Some("-2h"), NOW).unwrap_err();
        crate::testing::assert_message_has(&e, "empty");
        assert!(TimeRange::parse(Some("now"), Some("now"), NOW).is_err());
        let a = TimeRange::new(Some(10), Some(100)).unwrap();
        let b = TimeRange::new(Some(50), None).unwrap();
        assert_eq!(
            a.and(&b).unwrap(),
            TimeRange::new(Some(50), Some(100)).unwrap()
        );
        assert_eq!(a.and(&TimeRange::ALL).unwrap(), a);
        assert!(a.and(&TimeRange::new(Some(100), None).unwrap()).is_err());
    }

    #[test]
    fn the_range_displays_as_utc_edges() {
        let r = TimeRange::parse(Some("2026-10-05"), None, NOW).unwrap();
        assert_eq!(r.to_string(), "2026-10-05T00:00:00Z..");
        assert_eq!(TimeRange::ALL.to_string(), "..");
        let r = TimeRange::new(Some(NOW), Some(NOW + 1)).unwrap();
        assert_eq!(
            r.to_string(),
            "2026-10-05T00:01:48Z..2026-10-05T00:01:48.001Z"
        );
    }
}
