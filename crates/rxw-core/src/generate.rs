//! Patterns from examples (with the grex crate), checked against counter-examples.
//!
//! grex writes a pattern that matches every example and, anchored, nothing else of the same
//! shape; the pattern is in the Rust flavor's syntax. [`check`] then runs it through rxw's
//! own engine over the examples and the counter-examples, so what the caller sees is what
//! rxw would match.

use crate::engine::Regex;
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};

/// How grex generalises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Digits as `\d`.
    pub digits: bool,
    /// Repeated substrings as `{n}` quantifiers.
    pub repetitions: bool,
    /// Case-insensitive (`(?i)`).
    pub ignore_case: bool,
    /// `^` … `$` around the pattern.
    pub anchors: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            digits: false,
            repetitions: false,
            ignore_case: false,
            anchors: true,
        }
    }
}

/// How much grex is given and how long it may take: its work and memory grow much faster
/// than its input (a 20 KB example asked for 16 GB, 10,000 lines ran for minutes), so the
/// input is bounded up front and the run has a deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Most examples.
    pub max_examples: usize,
    /// Longest example, in bytes.
    pub max_example_bytes: usize,
    /// Most bytes over all examples.
    pub max_total_bytes: usize,
    /// How long grex may run.
    pub time: std::time::Duration,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_examples: 1_000,
            max_example_bytes: 1_000,
            max_total_bytes: 64 * 1024,
            time: std::time::Duration::from_secs(10),
        }
    }
}

impl Bounds {
    /// Checks the examples against the bounds.
    ///
    /// # Errors
    /// [`ErrorKind::LimitExceeded`] naming the bound and the example.
    pub fn check(&self, examples: &[String]) -> Result<(), Error> {
        let over = |what: String| Err(Error::new(ErrorKind::LimitExceeded, what));
        if examples.len() > self.max_examples {
            return over(format!(
                "{} examples, over the limit of {}: give fewer (a sample of each shape is enough)",
                examples.len(),
                self.max_examples
            ));
        }
        if let Some((i, e)) = examples
            .iter()
            .enumerate()
            .find(|(_, e)| e.len() > self.max_example_bytes)
        {
            return over(format!(
                "example {} is {} bytes, over the limit of {} bytes an example",
                i + 1,
                e.len(),
                self.max_example_bytes
            ));
        }
        let total: usize = examples.iter().map(String::len).sum();
        if total > self.max_total_bytes {
            return over(format!(
                "the examples are {total} bytes in all, over the limit of {} bytes",
                self.max_total_bytes
            ));
        }
        Ok(())
    }
}

/// A pattern (Rust flavor) that matches every example, within the default [`Bounds`].
///
/// # Errors
/// As [`from_examples_within`].
pub fn from_examples(examples: &[String], options: Options) -> Result<String, Error> {
    from_examples_within(examples, options, &Bounds::default())
}

/// A pattern (Rust flavor) that matches every example. grex runs on a thread of its own and
/// is waited for until `bounds.time`; past it the caller gets an error at once (the thread
/// ends on its own later: grex cannot be interrupted, and its input is bounded).
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] when there is no example, [`ErrorKind::LimitExceeded`] for
/// examples over the bounds, [`ErrorKind::TimedOut`] when grex does not finish in time.
pub fn from_examples_within(
    examples: &[String],
    options: Options,
    bounds: &Bounds,
) -> Result<String, Error> {
    if examples.is_empty() {
        return Err(Error::new(
            ErrorKind::PatternInvalid,
            "no examples to generate a pattern from",
        ));
    }
    bounds.check(examples)?;
    let owned = examples.to_vec();
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("grex".into())
        .spawn(move || {
            let _ = tx.send(run_grex(&owned, options));
        });
    if let Err(e) = spawned {
        return Err(Error::new(
            ErrorKind::Io,
            format!("cannot start the generator: {e}"),
        ));
    }
    match rx.recv_timeout(bounds.time) {
        Ok(pattern) => Ok(pattern),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(Error::new(
            ErrorKind::TimedOut,
            format!(
                "generating from {} examples took more than {:.1} s: give fewer or shorter examples",
                examples.len(),
                bounds.time.as_secs_f64()
            ),
        )),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(Error::new(
            ErrorKind::PatternInvalid,
            "the generator failed on these examples",
        )),
    }
}

fn run_grex(examples: &[String], options: Options) -> String {
    let mut b = grex::RegExpBuilder::from(examples);
    if options.digits {
        b.with_conversion_of_digits();
    }
    if options.repetitions {
        b.with_conversion_of_repetitions();
    }
    if options.ignore_case {
        b.with_case_insensitive_matching();
    }
    if !options.anchors {
        b.without_anchors();
    }
    b.build()
}

/// How a pattern fares on examples and counter-examples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The pattern checked.
    pub pattern: String,
    /// Examples it does not match.
    pub missed: Vec<String>,
    /// Counter-examples it matches anyway.
    pub wrongly_matched: Vec<String>,
}

/// Runs `pattern` (Rust flavor) over the examples (which must match) and counter-examples
/// (which must not).
///
/// # Errors
/// The pattern does not compile, or matching fails.
pub fn check(pattern: &str, examples: &[String], counter: &[String]) -> Result<Report, Error> {
    check_in(pattern, Flavor::Rust, examples, counter)
}

/// Runs `pattern` in `flavor` over the examples (which must match) and counter-examples
/// (which must not): whether a generated pattern, written in the Rust flavor's syntax, means
/// the same on them in the flavor the user works in.
///
/// # Errors
/// The pattern does not compile in `flavor`, or matching fails.
pub fn check_in(
    pattern: &str,
    flavor: Flavor,
    examples: &[String],
    counter: &[String],
) -> Result<Report, Error> {
    let re = Regex::new(pattern, flavor, Flags::default())?;
    let mut report = Report {
        pattern: pattern.to_string(),
        missed: Vec::new(),
        wrongly_matched: Vec::new(),
    };
    for e in examples {
        if !re.is_match(e)? {
            report.missed.push(e.clone());
        }
    }
    for c in counter {
        if re.is_match(c)? {
            report.wrongly_matched.push(c.clone());
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_pattern_is_checked_in_the_users_flavor_too() {
        let examples = vec!["12".to_string(), "٣".to_string()];
        let rust = check(r"^\d+$", &examples, &[]).unwrap();
        assert!(rust.missed.is_empty(), "Unicode digits in the regex crate");
        let js = check_in(r"^\d+$", Flavor::JS, &examples, &[]).unwrap();
        assert_eq!(
            js.missed,
            vec!["٣".to_string()],
            "ASCII digits in JavaScript"
        );
        assert!(check_in("(?P<a>x)", Flavor::JS, &examples, &[]).is_err());
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn grex_pattern_matches_every_example() {
        let ex = strings(&["[CLAIM 7fce46e0]", "[CLAIM 8a12bc44]", "[ACK 12]"]);
        for options in [
            Options::default(),
            Options {
                digits: true,
                repetitions: true,
                ..Options::default()
            },
            Options {
                anchors: false,
                ignore_case: true,
                ..Options::default()
            },
        ] {
            let p = from_examples(&ex, options).unwrap();
            let r = check(&p, &ex, &[]).unwrap();
            assert!(r.missed.is_empty(), "{p}: {r:?}");
        }
    }

    #[test]
    fn a_counter_example_it_matches_is_reported() {
        let ex = strings(&["id 12", "id 345"]);
        let p = from_examples(
            &ex,
            Options {
                digits: true,
                repetitions: true,
                anchors: false,
                ..Options::default()
            },
        )
        .unwrap();
        // Unanchored, the pattern finds "id 12" inside a longer line.
        let counter = strings(&["xid 12 and more", "nothing"]);
        let r = check(&p, &ex, &counter).unwrap();
        assert_eq!(r.wrongly_matched, ["xid 12 and more"], "{p}");
        assert!(from_examples(&[], Options::default()).is_err());
    }

    /// Regression: a 20 KB example made grex ask for 16 GB and 10,000 lines ran for minutes;
    /// the input is bounded with an error that names the bound, and the run has a deadline.
    #[test]
    fn generating_is_bounded_in_input_and_time() {
        let err = from_examples(&["x".repeat(20_000)], Options::default()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::LimitExceeded);
        crate::testing::assert_message_has(&err, "example 1 is 20000 bytes");
        let many: Vec<String> = (0..10_000).map(|i| format!("line {i}")).collect();
        let err = from_examples(&many, Options::default()).unwrap_err();
        crate::testing::assert_message_has(&err, "10000 examples");
        let wide: Vec<String> = (0..100).map(|i| format!("{i:0>999}")).collect();
        let err = from_examples(&wide, Options::default()).unwrap_err();
        crate::testing::assert_message_has(&err, "bytes in all");
        // A deadline that has passed before grex can answer.
        let bounds = Bounds {
            time: std::time::Duration::ZERO,
            ..Bounds::default()
        };
        let lines: Vec<String> = (0..500).map(|i| format!("{i:x}-{}", i * 7919)).collect();
        let err = from_examples_within(&lines, Options::default(), &bounds).unwrap_err();
        assert_eq!(err.kind, ErrorKind::TimedOut);
        crate::testing::assert_message_has(&err, "took more than 0.0 s");
    }
}
