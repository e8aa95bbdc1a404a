//! Leading ISO-8601 timestamps of log lines, and UTC instants as text.
//!
//! Captured agent logs start most lines with a stamp (`2026-10-05T00:01:48Z harvester: …`);
//! the jobs view and the timeline read time from it. [`leading`] recognises, at byte 0 of a
//! line: `YYYY-MM-DD`, `T` or one space, `hh:mm:ss`, an optional fraction (`.` or `,` and
//! digits), and an optional zone (`Z`, `±hh:mm`, `±hhmm`, `±hh`); a stamp without a zone is
//! taken as UTC. The stamp must end there: at the end of the line or before a character that
//! is not a letter or a digit, so `2026-10-05T00:01:48Zulu` is not a stamp. Out-of-range
//! fields (month 13, 25:00) are not a stamp either.
//!
//! Everything works on bytes, so a line that is not valid UTF-8 still has its time.

/// A recognised leading timestamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// The instant, in milliseconds since 1970-01-01T00:00:00Z.
    pub millis: i64,
    /// How many bytes of the line the stamp takes.
    pub len: usize,
}

/// The timestamp at the very start of `line`, if there is one.
pub fn leading(line: &[u8]) -> Option<Stamp> {
    leading_from(line, None)
}

/// Reads the leading stamps of many lines, one after another: the lines of a log share
/// their date for hours on end, so the day of the last date read is kept and a line with the
/// same ten date bytes skips the date's checks and calendar arithmetic. Gives exactly what
/// [`leading`] gives.
#[derive(Debug, Clone, Default)]
pub struct StampReader {
    /// The `YYYY-MM-DD` bytes of the last valid date read, and its day since 1970-01-01.
    last_date: Option<([u8; 10], i64)>,
}

impl StampReader {
    /// A reader that has seen no date yet.
    pub fn new() -> StampReader {
        StampReader::default()
    }

    /// The timestamp at the very start of `line` ([`leading`]).
    pub fn leading(&mut self, line: &[u8]) -> Option<Stamp> {
        leading_from(line, Some(&mut self.last_date))
    }
}

/// [`leading`], with the last valid date read and its day when `cache` is given.
fn leading_from(line: &[u8], cache: Option<&mut Option<([u8; 10], i64)>>) -> Option<Stamp> {
    // The shortest stamp is `YYYY-MM-DDThh:mm:ss` (19 bytes).
    if line.len() < 19 || !line[0].is_ascii_digit() {
        return None;
    }
    let num = |at: usize, n: usize| -> Option<i64> {
        let digits = line.get(at..at + n)?;
        digits.iter().try_fold(0i64, |acc, &b| {
            b.is_ascii_digit().then(|| acc * 10 + i64::from(b - b'0'))
        })
    };
    if !matches!(line[10], b'T' | b't' | b' ') {
        return None;
    }
    let date: &[u8; 10] = line[..10].try_into().ok()?;
    let days = match cache {
        Some(Some((last, days))) if last == date => *days,
        cache => {
            let year = num(0, 4)?;
            if line[4] != b'-' || line[7] != b'-' {
                return None;
            }
            let month = num(5, 2)?;
            let day = num(8, 2)?;
            if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
                return None;
            }
            let days = days_from_civil(year, month, day);
            if let Some(cache) = cache {
                *cache = Some((*date, days));
            }
            days
        }
    };
    if line[13] != b':' || line[16] != b':' {
        return None;
    }
    let (hour, minute, second) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut pos = 19;
    let mut millis_frac = 0i64;
    if matches!(line.get(pos), Some(b'.' | b',')) {
        let digits = line[pos + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        // Milliseconds from the first three digits; finer digits are read and dropped.
        for k in 0..3 {
            millis_frac *= 10;
            if k < digits {
                millis_frac += i64::from(line[pos + 1 + k] - b'0');
            }
        }
        pos += 1 + digits;
    }
    let mut offset_minutes = 0i64;
    match line.get(pos) {
        Some(b'Z' | b'z') => pos += 1,
        Some(&sign @ (b'+' | b'-')) => {
            let hh = num(pos + 1, 2)?;
            let (mm, len) = if line.get(pos + 3) == Some(&b':') {
                (num(pos + 4, 2)?, 6)
            } else if let Some(mm) = num(pos + 3, 2) {
                (mm, 5)
            } else {
                (0, 3)
            };
            if hh > 23 || mm > 59 {
                return None;
            }
            offset_minutes = (hh * 60 + mm) * if sign == b'-' { -1 } else { 1 };
            pos += len;
        }
        _ => {}
    }
    if line.get(pos).is_some_and(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    // An instant RFC 3339 cannot write in UTC (before 0000-01-01 or after 9999-12-31, as
    // `0000-01-01T00:00:00+23:59` is) is no stamp: every time rxw prints is RFC 3339.
    if !(FIRST_WRITABLE_S..=LAST_WRITABLE_S).contains(&seconds) {
        return None;
    }
    Some(Stamp {
        millis: seconds * 1000 + millis_frac,
        len: pos,
    })
}

/// 0000-01-01T00:00:00Z and 9999-12-31T23:59:60Z in seconds since the epoch: the instants
/// RFC 3339 (four-digit years, `Z`) can write.
const FIRST_WRITABLE_S: i64 = -62_167_219_200;
const LAST_WRITABLE_S: i64 = 253_402_300_800;

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (March-based years, so the leap day
/// is the last day of its year and needs no special case).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let shifted_month = (month + 9) % 12; // March = 0
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day count since 1970-01-01 (the inverse of [`days_from_civil`]).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// An instant as RFC 3339 UTC text: `2026-10-05T00:01:48Z`, with `.mmm` when the
/// milliseconds are not zero.
pub fn format_utc(millis: i64) -> String {
    let seconds = millis.div_euclid(1000);
    let ms = millis.rem_euclid(1000);
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    let in_day = seconds.rem_euclid(86_400);
    let (h, m, s) = (in_day / 3600, in_day / 60 % 60, in_day % 60);
    if ms == 0 {
        format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}Z")
    } else {
        format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn millis(line: &str) -> Option<i64> {
        leading(line.as_bytes()).map(|s| s.millis)
    }

    /// Regression: `jobs --json` printed `0000-01-01T00:00:00+23:59` as
    /// `"-001-12-31T00:01:00Z"` and year 9999 with an offset as `"10000-01-01…"`, neither
    /// RFC 3339. Such an instant is no stamp; every stamp formats as RFC 3339.
    #[test]
    fn a_stamp_outside_what_rfc_3339_writes_is_no_stamp() {
        assert_eq!(millis("0000-01-01T00:00:00+23:59 x"), None);
        assert_eq!(millis("9999-12-31T23:59:59-00:01 x"), None);
        assert_eq!(
            millis("0000-01-01T00:00:00Z x"),
            Some(FIRST_WRITABLE_S * 1000)
        );
        let last = millis("9999-12-31T23:59:59.999Z x").unwrap();
        assert_eq!(format_utc(last), "9999-12-31T23:59:59.999Z");
        assert_eq!(format_utc(FIRST_WRITABLE_S * 1000), "0000-01-01T00:00:00Z");
    }

    #[test]
    fn the_log_stamp_and_its_variants() {
        // 2026-10-05T00:01:48Z is 1,791,158,508 seconds after the epoch (date -ud).
        let base = 1_791_158_508_000;
        assert_eq!(
            millis("2026-10-05T00:01:48Z harvester: [CLAIM a]"),
            Some(base)
        );
        assert_eq!(leading(b"2026-10-05T00:01:48Z x").unwrap().len, 20);
        assert_eq!(millis("2026-10-05 00:01:48 x"), Some(base));
        assert_eq!(millis("2026-10-05T00:01:48"), Some(base));
        assert_eq!(millis("2026-10-05T00:01:48.250Z"), Some(base + 250));
        assert_eq!(millis("2026-10-05T00:01:48,5Z"), Some(base + 500));
        assert_eq!(millis("2026-10-05T00:01:48.123456Z"), Some(base + 123));
        assert_eq!(millis("2026-10-05T02:01:48+02:00"), Some(base));
        assert_eq!(millis("2026-10-04T23:01:48-0100 x"), Some(base));
        assert_eq!(millis("2026-10-05T01:01:48+01"), Some(base));
    }

    #[test]
    fn not_a_stamp() {
        for line in [
            "",
            "[CLAIM a]",
            " 2026-10-05T00:01:48Z leading space",
            "2026-10-05",
            "2026-13-05T00:01:48Z",
            "2026-02-29T00:00:00Z",
            "2026-10-05T24:00:00Z",
            "2026-10-05T00:01:48Zulu",
            "2026-10-05T00:01:48.Z",
            "2026/10/05T00:01:48Z",
            "2026-10-05X00:01:48Z",
        ] {
            assert_eq!(millis(line), None, "{line:?}");
        }
        assert!(millis("2024-02-29T00:00:00Z").is_some());
    }

    #[test]
    fn the_stamp_reader_that_keeps_the_last_date_reads_what_leading_reads() {
        // Lines that share a date, change it, break it after a good one, and put a valid
        // date before a broken time: each read alone and in this order agree.
        let lines = [
            "2026-10-05T00:01:48Z a",
            "2026-10-05T23:59:59.5+02:00 b",
            "2026-10-05T24:00:00Z not a time",
            "2026-10-05 00:00:01",
            "2026-10-06T00:00:00Z next day",
            "2026-10-06X00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2024-02-29T00:00:00Z leap",
            "2024-02-29T00:00:00Zulu",
            "2024-02-29t00:00:00-0130",
            "  trace",
            "2024-02-29T00:00:00",
            "2024-02-29T00:00",
        ];
        let mut reader = StampReader::new();
        for round in 0..3 {
            // A different order each round, so each line follows others.
            for k in 0..lines.len() {
                let line = lines[(k * (2 * round + 1) + round) % lines.len()];
                assert_eq!(
                    reader.leading(line.as_bytes()),
                    leading(line.as_bytes()),
                    "{line:?}"
                );
            }
        }
    }

    #[test]
    fn formatting_inverts_parsing() {
        for text in [
            "1970-01-01T00:00:00Z",
            "2026-10-05T00:01:48Z",
            "2000-02-29T23:59:59.999Z",
            "1969-12-31T23:59:59Z",
            "2400-03-01T12:00:00Z",
        ] {
            assert_eq!(format_utc(millis(text).unwrap()), text);
        }
    }
}
