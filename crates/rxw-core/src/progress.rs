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

/// How far a pass that has read `done` bytes of `total` is: `42%` (99% at most until it is
/// over), or the bytes read (`120 MB`) when the total is not known (standard input).
pub fn how_far(done: u64, total: Option<u64>) -> String {
    match total {
        Some(t) if t > 0 => format!("{}%", (done.saturating_mul(100) / t).min(99)),
        _ => format!("{} MB", done / 1_000_000),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
