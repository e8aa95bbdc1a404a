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

/// A pattern (Rust flavor) that matches every example.
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] when there is no example.
pub fn from_examples(examples: &[String], options: Options) -> Result<String, Error> {
    if examples.is_empty() {
        return Err(Error::new(
            ErrorKind::PatternInvalid,
            "no examples to generate a pattern from",
        ));
    }
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
    Ok(b.build())
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
    let re = Regex::new(pattern, Flavor::Rust, Flags::default())?;
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
}
