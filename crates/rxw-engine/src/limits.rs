//! Resource limits as data: the `human` profile for people, the `tool` profile for agents.

use rxw_syntax::error::{Error, ErrorKind};
use std::time::Duration;

/// Caps on what one request may use. `None` means no cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest input, in UTF-8 bytes.
    pub max_input: Option<usize>,
    /// Largest pattern, in bytes.
    pub max_pattern: Option<usize>,
    /// Largest replacement template, in bytes.
    pub max_replacement: Option<usize>,
    /// Largest output (a replace result), in bytes.
    pub max_output: Option<usize>,
    /// Matches reported when the caller gives no limit.
    pub default_matches: Option<usize>,
    /// Most matches reported whatever the caller asks.
    pub max_matches: Option<usize>,
    /// Wall clock for one request.
    pub time_budget: Option<Duration>,
    /// Steps the backtracking engine may take per search.
    pub backtrack_limit: usize,
    /// Steps the backtracking engine may take over a whole scan (every search attempt of every
    /// match): without it, a pattern that stays just under `backtrack_limit` at each of a
    /// million start positions works without end.
    pub max_total_steps: Option<u64>,
    /// Most nodes `explain` will describe.
    pub max_explain_nodes: usize,
}

impl Limits {
    /// The human profile's total step budget of a scan, sized so that what CPython finishes
    /// within a second on a 64 KB text is answered: its slowest ratio measured
    /// (`benches/step_budget.py`), a lazy `(?:.|\n)+?` before a look-ahead retried from every
    /// start, is about 340 million of the matcher's steps per second of CPython, so a
    /// billion leaves room for three such seconds. A catastrophe stops after some seconds of
    /// the matcher's work (it runs about 200 million steps a second), never runs on.
    pub const HUMAN_TOTAL_STEPS: u64 = 1_000_000_000;

    /// People at a terminal: no input cap, every match.
    pub fn human() -> Limits {
        Limits {
            max_input: None,
            max_pattern: None,
            max_replacement: None,
            max_output: None,
            default_matches: None,
            max_matches: None,
            time_budget: None,
            backtrack_limit: 1_000_000,
            max_total_steps: Some(Limits::HUMAN_TOTAL_STEPS),
            max_explain_nodes: 4096,
        }
    }

    /// The agent regex tool's contract for agents.
    pub fn tool() -> Limits {
        Limits {
            max_input: Some(64_000),
            max_pattern: Some(16 * 1024),
            max_replacement: Some(16 * 1024),
            max_output: Some(1_000_000),
            default_matches: Some(50),
            max_matches: Some(1000),
            time_budget: Some(Duration::from_millis(1000)),
            backtrack_limit: 1_000_000,
            max_total_steps: None,
            max_explain_nodes: 4096,
        }
    }

    /// The number of matches to report for a requested `limit`.
    pub fn clamp_matches(&self, requested: Option<usize>) -> Option<usize> {
        let wanted = requested.or(self.default_matches);
        match (wanted, self.max_matches) {
            (Some(w), Some(m)) => Some(w.min(m)),
            (w, None) => w,
            (None, m) => m,
        }
    }

    fn check(what: &str, len: usize, cap: Option<usize>) -> Result<(), Error> {
        match cap {
            Some(cap) if len > cap => Err(Error::new(
                ErrorKind::LimitExceeded,
                format!("{what} is {len} bytes, over the limit of {cap} bytes"),
            )),
            _ => Ok(()),
        }
    }

    /// # Errors
    /// [`ErrorKind::LimitExceeded`] when the pattern is too large.
    pub fn check_pattern(&self, pattern: &str) -> Result<(), Error> {
        Limits::check("pattern", pattern.len(), self.max_pattern)
    }

    /// # Errors
    /// [`ErrorKind::LimitExceeded`] when the input is too large (never truncated).
    pub fn check_input(&self, input: &str) -> Result<(), Error> {
        Limits::check("input", input.len(), self.max_input)
    }

    /// # Errors
    /// [`ErrorKind::LimitExceeded`] when the replacement template is too large.
    pub fn check_replacement(&self, replacement: &str) -> Result<(), Error> {
        Limits::check("replacement", replacement.len(), self.max_replacement)
    }

    /// # Errors
    /// [`ErrorKind::LimitExceeded`] with the agent tool's wording when an output is too large.
    pub fn check_output(&self, len: usize) -> Result<(), Error> {
        match self.max_output {
            Some(cap) if len > cap => Err(Error::new(
                ErrorKind::LimitExceeded,
                format!("result/output exceeds {cap} bytes"),
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_profile_clamps_matches() {
        let l = Limits::tool();
        assert_eq!(l.clamp_matches(None), Some(50));
        assert_eq!(l.clamp_matches(Some(5000)), Some(1000));
        assert_eq!(Limits::human().clamp_matches(None), None);
    }

    #[test]
    fn over_limit_input_is_rejected() {
        let l = Limits::tool();
        assert!(l.check_input(&"a".repeat(64_000)).is_ok());
        let e = l.check_input(&"a".repeat(64_001)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::LimitExceeded);
    }
}
