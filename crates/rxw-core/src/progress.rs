//! How a long pass's progress reads, the same in the status bar and on the command line's
//! standard error: `counting 42% · 610 MB/s`.

/// A pass's rate as shown (` · 610 MB/s`): nothing until it is known, nor below 1 MB/s, where
/// the figure would read `0 MB/s` (a pass that slow is named by its percentage alone).
pub fn rate_text(bytes_per_second: Option<f64>) -> String {
    bytes_per_second
        .filter(|b| *b >= 1e6)
        .map(|b| format!(" · {:.0} MB/s", b / 1e6))
        .unwrap_or_default()
}

/// A pass's rate in bytes a second: from byte `from`, started at `started`, now at byte `at`;
/// `None` until it has run 200 ms, before which the figure means nothing.
pub fn rate_since(started: std::time::Instant, from: usize, at: usize) -> Option<f64> {
    let elapsed = started.elapsed().as_secs_f64();
    (elapsed >= 0.2).then(|| at.saturating_sub(from) as f64 / elapsed)
}

/// `done` of `total` as a whole percentage, 0 to 100 (100 when there is nothing to do): how
/// far a pass that stopped or ended got.
pub fn percent(done: u64, total: u64) -> u64 {
    if total == 0 {
        return 100;
    }
    (u128::from(done.min(total)) * 100 / u128::from(total)) as u64
}

/// As [`percent`] for a pass still running: at most 99, so it never reads 100% before it is
/// over (0 when there is nothing to do yet).
pub fn percent_running(done: u64, total: u64) -> u64 {
    (u128::from(done) * 100 / u128::from(total.max(1))).min(99) as u64
}

/// How far a pass that has read `done` bytes of `total` is: `42%` (99% at most until it is
/// over), or the bytes read (`120 MB`) when the total is not known (standard input).
pub fn how_far(done: u64, total: Option<u64>) -> String {
    match total {
        Some(t) if t > 0 => format!("{}%", percent_running(done, t)),
        _ => format!("{} MB", done / 1_000_000),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_are_whole_and_bounded() {
        assert_eq!(percent(0, 0), 100);
        assert_eq!(percent(5, 10), 50);
        assert_eq!(percent(11, 10), 100);
        assert_eq!(percent(u64::MAX - 1, u64::MAX), 99);
        assert_eq!(percent_running(0, 0), 0);
        assert_eq!(percent_running(10, 10), 99);
        assert_eq!(percent_running(1, 3), 33);
    }

    #[test]
    fn a_rate_shows_from_one_megabyte_a_second() {
        assert_eq!(rate_text(None), "");
        assert_eq!(rate_text(Some(999_999.0)), "");
        assert_eq!(rate_text(Some(610e6)), " · 610 MB/s");
    }

    #[test]
    fn how_far_is_a_percentage_when_the_total_is_known() {
        assert_eq!(how_far(42, Some(100)), "42%");
        assert_eq!(how_far(100, Some(100)), "99%", "100% only once it is over");
        assert_eq!(how_far(120_000_000, None), "120 MB");
        assert_eq!(how_far(5, Some(0)), "0 MB");
    }
}
