//! Test cases for a pattern: the Tests tab's lines and the `rxw tests` file format.
//!
//! One case per line:
//!
//! - `+ text` — the pattern must match somewhere in `text`;
//! - `- text` — it must not;
//! - `+ text => g1, g2` — it must match, with groups 1, 2 … equal to these texts;
//! - `+ text => verb=CLAIM, job_id=7fce46e0` — it must match, with these named groups (when
//!   every item is `name=value` and every name is a group of the pattern; otherwise the items
//!   are compared by position, as texts);
//! - `~ input => expected` — replacing every match of `input` with the replacement template
//!   gives `expected`;
//! - a blank line or a line starting with `#` is ignored; any other line is shown with its
//!   result and expects nothing.
//!
//! A tests file ([`Suite::parse`]) starts with `key: value` header lines — `pattern:`
//! (required), `flavor:` (`rust`, `python`, `js`; default `rust`), `flags:`, `replace:` (the
//! template, in the flavor's syntax) — then the case lines. The value is everything after the
//! first `": "`, so a pattern may end in spaces.

use crate::engine::replace::Template;
use crate::engine::{MatchOptions, Regex};
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};

/// What a case line expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// No expectation.
    Nothing,
    /// Must match.
    Match,
    /// Must not match.
    NoMatch,
    /// Must match with these group texts (group 1 onward).
    Groups(Vec<String>),
    /// Must match with these named groups (`name=value` items, in the order written).
    Named(Vec<(String, String)>),
    /// Replacing every match in the subject must give this text.
    Replace(String),
}

/// Parses one case line; `None` for blank lines and `#` comments.
pub fn parse_line(line: &str) -> Option<(Expect, String)> {
    if line.trim().is_empty() || line.starts_with('#') {
        return None;
    }
    if let Some(rest) = line.strip_prefix("+ ") {
        if let Some((subject, groups)) = rest.rsplit_once(" => ") {
            let items: Vec<&str> = groups.split(", ").collect();
            let named: Option<Vec<(String, String)>> = items
                .iter()
                .map(|item| {
                    let (name, value) = item.split_once('=')?;
                    is_group_name(name).then(|| (name.to_string(), value.to_string()))
                })
                .collect();
            let expect = match named {
                Some(pairs) => Expect::Named(pairs),
                None => Expect::Groups(items.into_iter().map(str::to_string).collect()),
            };
            return Some((expect, subject.to_string()));
        }
        return Some((Expect::Match, rest.to_string()));
    }
    if let Some(rest) = line.strip_prefix("- ") {
        return Some((Expect::NoMatch, rest.to_string()));
    }
    if let Some(rest) = line.strip_prefix("~ ")
        && let Some((input, expected)) = rest.split_once(" => ")
    {
        return Some((Expect::Replace(expected.to_string()), input.to_string()));
    }
    Some((Expect::Nothing, line.to_string()))
}

fn is_group_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// What one case found, and whether that is what it expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The first match's groups (whole match first), or `None` for no match.
    pub found: Option<Vec<Option<String>>>,
    /// For a replacement case: the text after replacement.
    pub replaced: Option<String>,
    /// An engine or template error on this case.
    pub error: Option<String>,
    /// `Some(true)` passed, `Some(false)` failed, `None` no expectation.
    pub passed: Option<bool>,
}

/// Runs one case against a compiled pattern and the replacement template.
pub fn run_case(re: &Regex, template: &str, expect: &Expect, subject: &str) -> Verdict {
    let (found, mut error) = match re.matches(subject, MatchOptions::default()).next() {
        None => (None, None),
        Some(Ok(m)) => (
            Some(
                (0..m.groups.len())
                    .map(|k| m.group(subject, k).map(str::to_string))
                    .collect::<Vec<_>>(),
            ),
            None,
        ),
        Some(Err(e)) => (None, Some(e.message)),
    };
    let mut replaced = None;
    if let Expect::Replace(_) = expect {
        match re.replace(subject, template, None, &crate::Limits::human()) {
            Ok(r) => replaced = Some(r.result),
            Err(e) => error = Some(e.message),
        }
    }
    let text_of = |k: usize| -> Option<&str> {
        found
            .as_ref()
            .and_then(|g| g.get(k))
            .and_then(|g| g.as_deref())
    };
    let positional = |want: &[String]| {
        found.as_ref().is_some_and(|g| {
            g.len() > want.len()
                && g[1..=want.len()]
                    .iter()
                    .zip(want)
                    .all(|(got, w)| got.as_deref().unwrap_or("") == w)
        })
    };
    let passed = if error.is_some() {
        Some(false)
    } else {
        match expect {
            Expect::Nothing => None,
            Expect::Match => Some(found.is_some()),
            Expect::NoMatch => Some(found.is_none()),
            Expect::Groups(want) => Some(positional(want)),
            Expect::Named(pairs) => {
                let indices: Option<Vec<usize>> =
                    pairs.iter().map(|(n, _)| group_index(re, n)).collect();
                Some(match indices {
                    Some(ix) => {
                        found.is_some()
                            && ix
                                .iter()
                                .zip(pairs)
                                .all(|(k, (_, v))| text_of(*k).unwrap_or("") == v)
                    }
                    // Not every name is a group: the items were texts after all.
                    None => positional(
                        &pairs
                            .iter()
                            .map(|(n, v)| format!("{n}={v}"))
                            .collect::<Vec<_>>(),
                    ),
                })
            }
            Expect::Replace(want) => Some(replaced.as_deref() == Some(want.as_str())),
        }
    };
    Verdict {
        found,
        replaced,
        error,
        passed,
    }
}

/// The number of the group named `name`.
pub fn group_index(re: &Regex, name: &str) -> Option<usize> {
    re.group_names()
        .iter()
        .position(|n| n.as_deref() == Some(name))
        .map(|i| i + 1)
}

/// One case of a suite, with its line number (1-based) in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// 1-based line in the file (or 0-based line in the Tests tab, for the TUI).
    pub line: usize,
    /// The subject text.
    pub subject: String,
    /// What it expects.
    pub expect: Expect,
}

/// A tests file: a pattern, its flavor, flags and replacement, and the cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suite {
    /// The pattern.
    pub pattern: String,
    /// Its flavor.
    pub flavor: Flavor,
    /// Flag letters, as written.
    pub flags: String,
    /// The replacement template for `~` cases (empty when absent).
    pub replacement: String,
    /// The cases, in file order.
    pub cases: Vec<Case>,
}

impl Suite {
    /// Parses a tests file.
    ///
    /// # Errors
    /// [`ErrorKind::PatternInvalid`] when there is no `pattern:` line, a header key is unknown,
    /// or the flavor is unknown; the span is the offending line's byte range in `text`.
    pub fn parse(text: &str) -> Result<Suite, Error> {
        let mut suite = Suite {
            pattern: String::new(),
            flavor: Flavor::Rust,
            flags: String::new(),
            replacement: String::new(),
            cases: Vec::new(),
        };
        let mut has_pattern = false;
        let mut in_header = true;
        let mut offset = 0;
        for (i, raw) in text.split('\n').enumerate() {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let span = Some(crate::Span::new(offset, offset + line.len()));
            offset += raw.len() + 1;
            let bad = |msg: String| {
                Error::new(ErrorKind::PatternInvalid, format!("line {}: {msg}", i + 1))
                    .with_span_in(text, span)
            };
            if in_header && !line.starts_with('#') && !line.trim().is_empty() {
                let header = line
                    .split_once(':')
                    .filter(|(k, _)| k.chars().all(|c| c.is_ascii_lowercase()) && !k.is_empty());
                if let Some((key, value)) = header {
                    let value = value.strip_prefix(' ').unwrap_or(value);
                    match key {
                        "pattern" => {
                            suite.pattern = value.to_string();
                            has_pattern = true;
                        }
                        "flavor" => suite.flavor = value.trim().parse().map_err(bad)?,
                        "flags" => suite.flags = value.trim().to_string(),
                        "replace" => suite.replacement = value.to_string(),
                        other => {
                            return Err(bad(format!(
                                "unknown header {other:?} (expected pattern, flavor, flags or replace)"
                            )));
                        }
                    }
                    continue;
                }
                in_header = false;
            }
            if let Some((expect, subject)) = parse_line(line) {
                suite.cases.push(Case {
                    line: i + 1,
                    subject,
                    expect,
                });
            }
        }
        if !has_pattern {
            return Err(Error::new(
                ErrorKind::PatternInvalid,
                "a tests file needs a `pattern: …` line before its cases",
            ));
        }
        Ok(suite)
    }

    /// The parsed flags.
    ///
    /// # Errors
    /// Invalid or duplicate flag letters.
    pub fn flags(&self) -> Result<Flags, Error> {
        Ok(Flags::parse(&self.flags, self.flavor)?)
    }

    /// Compiles the pattern.
    ///
    /// # Errors
    /// Invalid flags or pattern.
    pub fn regex(&self) -> Result<Regex, Error> {
        Ok(Regex::new(&self.pattern, self.flavor, self.flags()?)?)
    }

    /// Runs every case; checks the replacement template first when a `~` case needs it.
    ///
    /// # Errors
    /// The pattern, the flags or (with a `~` case) the template is invalid.
    pub fn run(&self) -> Result<Vec<(Case, Verdict)>, Error> {
        let re = self.regex()?;
        if self
            .cases
            .iter()
            .any(|c| matches!(c.expect, Expect::Replace(_)))
        {
            Template::parse(&self.replacement, &re)?;
        }
        Ok(self
            .cases
            .iter()
            .map(|c| {
                (
                    c.clone(),
                    run_case(&re, &self.replacement, &c.expect, &c.subject),
                )
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_into_expectations() {
        assert_eq!(
            parse_line("+ [CLAIM 7f] => verb=CLAIM, job_id=7f"),
            Some((
                Expect::Named(vec![
                    ("verb".into(), "CLAIM".into()),
                    ("job_id".into(), "7f".into())
                ]),
                "[CLAIM 7f]".into()
            ))
        );
        assert_eq!(
            parse_line("+ a-b => a, b"),
            Some((Expect::Groups(vec!["a".into(), "b".into()]), "a-b".into()))
        );
        assert_eq!(
            parse_line("~ a b => b a"),
            Some((Expect::Replace("b a".into()), "a b".into()))
        );
        assert_eq!(parse_line("# note"), None);
    }

    #[test]
    fn named_groups_and_replacements_are_checked() {
        let re = Regex::new(
            r"\[(?P<verb>CLAIM|ACK)\s+(?P<job_id>\w+)\]",
            Flavor::PYTHON,
            Flags::default(),
        )
        .unwrap();
        let run = |line: &str| {
            let (e, s) = parse_line(line).unwrap();
            run_case(&re, r"\g<job_id>:\g<verb>", &e, &s).passed
        };
        assert_eq!(run("+ [CLAIM 7f] => verb=CLAIM, job_id=7f"), Some(true));
        assert_eq!(run("+ [CLAIM 7f] => verb=ACK, job_id=7f"), Some(false));
        assert_eq!(run("+ [CLAIM 7f] => job_id=7f"), Some(true));
        // `x=1` is not a group: compared by position, as a text.
        assert_eq!(run("+ [CLAIM 7f] => x=1"), Some(false));
        assert_eq!(run("~ go [ACK 12] now => go 12:ACK now"), Some(true));
        assert_eq!(run("~ go [ACK 12] now => go ACK:12 now"), Some(false));
    }

    #[test]
    fn a_suite_file_has_a_header_then_cases() {
        let s = Suite::parse(
            "# t\npattern: a(b) \nflavor: python\nreplace: <\\1>\n+ ab \n- x\n~ ab => <b> ",
        )
        .unwrap();
        assert_eq!(s.pattern, "a(b) ");
        assert_eq!(s.flavor, Flavor::PYTHON);
        assert_eq!(s.cases.len(), 3);
        assert_eq!(s.cases[0].line, 5);
        let results = s.run().unwrap();
        assert_eq!(results.len(), 3);
        assert_eq!(results[2].1.passed, Some(false), "{:?}", results[2]);
        let e = Suite::parse("patern: a\n+ a").unwrap_err();
        assert!(e.message.contains("unknown header"), "{e}");
        assert!(Suite::parse("+ a").is_err());
    }
}
