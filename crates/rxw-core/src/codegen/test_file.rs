//! Test cases exported as a test file: pytest, `node:test`, or Rust `#[test]` functions.

use super::dialect::js::{js_flags, js_str};
use super::dialect::python::{python_flags, python_str};
use super::dialect::rust::{rust_pattern, rust_str};
use super::{Lang, TargetEngine, Translation, refusal, translate};
use crate::Regex;
use crate::engine::replace::{Piece, Template};
use crate::error::Error;
use crate::flavor::{Flags, Flavor};
use crate::testcases::{Case, Expect, group_index};

/// An exported test file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestExport {
    /// The language.
    pub lang: Lang,
    /// The file name it expects (`test_pattern.py`, `pattern.test.js`, `pattern_tests.rs`).
    pub file_name: &'static str,
    /// The source.
    pub code: String,
    /// How many test functions it has.
    pub tests: usize,
}

/// Writes a test file: the translation, its origin, the replacement's pieces, the pattern's
/// group count and the checks.
type WriteTests = fn(&Suite) -> String;

/// What a test file is written from.
struct Suite<'a> {
    /// The pattern as the language writes it.
    t: &'a Translation,
    /// The file's first line: what exported it, from which pattern.
    origin: String,
    /// The replacement template, in pieces (empty: no replacement is tested).
    pieces: &'a [Piece],
    /// The pattern's group count.
    groups: usize,
    /// Each case's line, subject and what it asserts.
    checks: Vec<(usize, &'a str, Check)>,
}

/// How a language's dialect exports cases as a test file.
#[derive(Clone, Copy)]
pub(crate) struct TestFile {
    file_name: &'static str,
    write: WriteTests,
}

/// pytest.
pub(crate) const PYTHON: TestFile = TestFile {
    file_name: "test_pattern.py",
    write: python,
};

/// `node:test`.
pub(crate) const JS: TestFile = TestFile {
    file_name: "pattern.test.js",
    write: js,
};

/// `#[test]` functions.
pub(crate) const RUST: TestFile = TestFile {
    file_name: "pattern_tests.rs",
    write: rust,
};

/// What one case asserts, resolved against the pattern.
enum Check {
    Match,
    NoMatch,
    /// Group numbers and their expected texts (an unset group counts as empty).
    Groups(Vec<(usize, String)>),
    Replace(String),
}

/// Writes the cases as a test file in `lang` (Python, JS or Rust).
///
/// # Errors
/// The pattern does not parse or cannot be carried over to `lang` (see [`translate`]), the
/// replacement template is invalid, or `lang` has no test export (Go, Java, C#).
pub fn export_tests(
    pattern: &str,
    flavor: Flavor,
    flags: Flags,
    replacement: &str,
    cases: &[Case],
    lang: Lang,
) -> Result<TestExport, Error> {
    let Some(test_file) = lang.dialect().tests else {
        return Err(refusal(
            pattern,
            lang,
            None,
            "test files are exported for Python (pytest), JavaScript (node:test) and Rust (#[test])",
        ));
    };
    let re = Regex::new(pattern, flavor, flags)?;
    let t = translate(pattern, flavor, flags, lang)?;
    let needs_template = cases.iter().any(|c| matches!(c.expect, Expect::Replace(_)));
    let mut pieces = if needs_template {
        Template::parse(replacement, &re)?.pieces
    } else {
        Vec::new()
    };
    pieces.retain(|p| !matches!(p, Piece::Literal(s) if s.is_empty()));
    if needs_template && pieces.is_empty() {
        // An empty template: the expansion is one empty literal.
        pieces.push(Piece::Literal(String::new()));
    }
    let groups = re.group_count();
    let checks: Vec<(usize, &str, Check)> = cases
        .iter()
        .filter_map(|c| {
            let check = match &c.expect {
                Expect::Nothing => return None,
                Expect::Match => Check::Match,
                Expect::NoMatch => Check::NoMatch,
                Expect::Groups(want) => Check::Groups(
                    want.iter()
                        .enumerate()
                        .map(|(i, w)| (i + 1, w.clone()))
                        .collect(),
                ),
                Expect::Named(pairs) => {
                    let ix: Option<Vec<usize>> =
                        pairs.iter().map(|(n, _)| group_index(&re, n)).collect();
                    Check::Groups(match ix {
                        Some(ix) => ix
                            .into_iter()
                            .zip(pairs)
                            .map(|(k, (_, v))| (k, v.clone()))
                            .collect(),
                        None => pairs
                            .iter()
                            .enumerate()
                            .map(|(i, (n, v))| (i + 1, format!("{n}={v}")))
                            .collect(),
                    })
                }
                Expect::Replace(want) => Check::Replace(want.clone()),
            };
            Some((c.line, c.subject.as_str(), check))
        })
        .collect();
    let origin = format!(
        "Tests exported by rxw for the {} pattern {}",
        flavor.name(),
        super::program::one_line(pattern)
    );
    let suite = Suite {
        t: &t,
        origin,
        pieces: &pieces,
        groups,
        checks,
    };
    Ok(TestExport {
        lang,
        file_name: test_file.file_name,
        code: (test_file.write)(&suite),
        tests: suite.checks.len(),
    })
}

/// How one test language writes the checks: `{s}` stands for the quoted subject, `{line}`
/// for the case's line, `{k}` for a group number, `{v}` for a quoted expected text, `{n}` for
/// the pattern's group count.
struct CheckSyntax {
    quote: fn(&str) -> String,
    open: &'static str,
    matches: &'static str,
    no_match: &'static str,
    first: &'static str,
    group_eq: &'static str,
    group_missing: &'static str,
    replaced: &'static str,
    close: &'static str,
}

const PYTHON_CHECKS: CheckSyntax = CheckSyntax {
    quote: python_str,
    open: "def test_line_{line}():\n",
    matches: "    assert PATTERN.search({s}) is not None\n",
    no_match: "    assert PATTERN.search({s}) is None\n",
    first: "    m = PATTERN.search({s})\n    assert m is not None\n",
    group_eq: "    assert (m.group({k}) or \"\") == {v}\n",
    group_missing: "    assert False, \"expects group {k}; the pattern has {n}\"\n",
    replaced: "    assert replace_all({s}) == {v}\n",
    close: "\n\n",
};

const JS_CHECKS: CheckSyntax = CheckSyntax {
    quote: js_str,
    open: "\ntest(\"line {line}\", () => {\n",
    matches: "  assert.notStrictEqual(first({s}), null);\n",
    no_match: "  assert.strictEqual(first({s}), null);\n",
    first: "  const m = first({s});\n  assert.notStrictEqual(m, null);\n",
    group_eq: "  assert.strictEqual(m[{k}] ?? \"\", {v});\n",
    group_missing: "  assert.fail(\"expects group {k}; the pattern has {n}\");\n",
    replaced: "  assert.strictEqual(replaceAll({s}), {v});\n",
    close: "});\n",
};

const RUST_CHECKS: CheckSyntax = CheckSyntax {
    quote: rust_str,
    open: "\n#[test]\nfn line_{line}() {\n",
    matches: "    assert!(pattern().captures({s}).is_some());\n",
    no_match: "    assert!(pattern().captures({s}).is_none());\n",
    first: "    let caps = pattern().captures({s}).expect(\"a match\");\n",
    group_eq: "    assert_eq!(caps.get({k}).map_or(\"\", |g| g.as_str()), {v});\n",
    group_missing: "    panic!(\"expects group {k}; the pattern has {n}\");\n",
    replaced: "    assert_eq!(replace_all({s}), {v});\n",
    close: "}\n",
};

/// fancy-regex answers `Result<Option<Captures>>`.
const RUST_FANCY_CHECKS: CheckSyntax = CheckSyntax {
    matches: "    assert!(pattern().captures({s}).unwrap().is_some());\n",
    no_match: "    assert!(pattern().captures({s}).unwrap().is_none());\n",
    first: "    let caps = pattern().captures({s}).unwrap().expect(\"a match\");\n",
    ..RUST_CHECKS
};

/// How one test language writes a piece of a replacement: `{v}` stands for a quoted literal
/// or for the groups of a [`Piece::FirstOf`] (each written as `each`, joined by `join`), `{k}`
/// for a group number.
struct PieceSyntax {
    quote: fn(&str) -> String,
    literal: &'static str,
    group: &'static str,
    each: &'static str,
    join: &'static str,
    first_of: &'static str,
    before: &'static str,
    after: &'static str,
}

const PYTHON_PIECES: PieceSyntax = PieceSyntax {
    quote: python_str,
    literal: "{v}",
    group: "(m.group({k}) or \"\")",
    each: "m.group({k})",
    join: " or ",
    first_of: "({v} or \"\")",
    before: "m.string[: m.start()]",
    after: "m.string[m.end() :]",
};

const JS_PIECES: PieceSyntax = PieceSyntax {
    quote: js_str,
    literal: "{v}",
    group: "(m[{k}] ?? \"\")",
    each: "m[{k}]",
    join: " ?? ",
    first_of: "({v} ?? \"\")",
    before: "text.slice(0, m.index)",
    after: "text.slice(m.index + m[0].length)",
};

const RUST_PIECES: PieceSyntax = PieceSyntax {
    quote: rust_str,
    literal: "out.push_str({v});",
    group: "out.push_str(caps.get({k}).map_or(\"\", |g| g.as_str()));",
    each: "{k}",
    join: ", ",
    first_of: "out.push_str([{v}].into_iter().find_map(|k| caps.get(k)).map_or(\"\", |g| g.as_str()));",
    before: "out.push_str(&text[..whole.start()]);",
    after: "out.push_str(&text[whole.end()..]);",
};

/// Each piece of a replacement written in `syntax`.
fn piece_exprs(pieces: &[Piece], syntax: &PieceSyntax) -> Vec<String> {
    let group = |template: &str, k: &usize| fill_template(template, &[("k", &k.to_string())]);
    pieces
        .iter()
        .map(|p| match p {
            Piece::Literal(s) => fill_template(syntax.literal, &[("v", &(syntax.quote)(s))]),
            Piece::Group(k) => group(syntax.group, k),
            Piece::FirstOf(ks) => {
                let each: Vec<String> = ks.iter().map(|k| group(syntax.each, k)).collect();
                fill_template(syntax.first_of, &[("v", &each.join(syntax.join))])
            }
            Piece::Before => syntax.before.to_string(),
            Piece::After => syntax.after.to_string(),
        })
        .collect()
}

/// `template` with each `{name}` of `values` replaced in one pass, so a subject or an expected
/// text that holds `{s}` or `{v}` itself is written as it is.
fn fill_template(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let found = after.find('}').and_then(|close| {
            let name = &after[..close];
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v, close))
        });
        match found {
            Some((value, close)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Writes one test per case in `syntax`.
fn write_checks(out: &mut String, suite: &Suite, syntax: &CheckSyntax) {
    let groups = suite.groups;
    for (line, subject, check) in &suite.checks {
        let s = (syntax.quote)(subject);
        let (line, n) = (line.to_string(), groups.to_string());
        let fill = |template: &str, k: usize, v: &str| {
            let k = k.to_string();
            fill_template(
                template,
                &[("line", &line), ("k", &k), ("n", &n), ("v", v), ("s", &s)],
            )
        };
        out.push_str(&fill(syntax.open, 0, ""));
        match check {
            Check::Match => out.push_str(&fill(syntax.matches, 0, "")),
            Check::NoMatch => out.push_str(&fill(syntax.no_match, 0, "")),
            Check::Groups(want) => {
                out.push_str(&fill(syntax.first, 0, ""));
                for (k, v) in want {
                    let template = if *k > groups {
                        syntax.group_missing
                    } else {
                        syntax.group_eq
                    };
                    out.push_str(&fill(template, *k, &(syntax.quote)(v)));
                }
            }
            Check::Replace(want) => out.push_str(&fill(syntax.replaced, 0, &(syntax.quote)(want))),
        }
        out.push_str(syntax.close);
    }
}

fn python(suite: &Suite) -> String {
    let Suite {
        t, origin, pieces, ..
    } = suite;
    let mut out = format!(
        "# {origin} (run with pytest).\nimport re\n\nPATTERN = re.compile({}{})\n\n\n",
        python_str(&t.pattern),
        python_flags(t)
    );
    if !pieces.is_empty() {
        let expr = piece_exprs(pieces, &PYTHON_PIECES);
        out.push_str(&format!(
            "def replace_all(text):\n    return PATTERN.sub(lambda m: {}, text)\n\n\n",
            expr.join(" + ")
        ));
    }
    write_checks(&mut out, suite, &PYTHON_CHECKS);
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

fn js(suite: &Suite) -> String {
    let Suite {
        t, origin, pieces, ..
    } = suite;
    let flags = js_flags(t);
    let mut out = format!(
        "// {origin} (run with `node --test`).\n\"use strict\";\nconst test = require(\"node:test\");\nconst assert = require(\"node:assert\");\n\nconst PATTERN = new RegExp({lit}, \"{flags}\");\n\n// The first match (from the start, whatever a sticky flag left in lastIndex).\nfunction first(text) {{\n  PATTERN.lastIndex = 0;\n  return PATTERN.exec(text);\n}}\n",
        lit = js_str(&t.pattern),
    );
    if !pieces.is_empty() {
        let expr = piece_exprs(pieces, &JS_PIECES);
        out.push_str(&format!(
            "const ALL = new RegExp({lit}, \"{flags}g\");\n\nfunction replaceAll(text) {{\n  let out = \"\";\n  let last = 0;\n  for (const m of text.matchAll(ALL)) {{\n    out += text.slice(last, m.index) + {};\n    last = m.index + m[0].length;\n  }}\n  return out + text.slice(last);\n}}\n",
            expr.join(" + "),
            lit = js_str(&t.pattern),
        ));
    }
    write_checks(&mut out, suite, &JS_CHECKS);
    out
}

fn rust(suite: &Suite) -> String {
    let Suite {
        t, origin, pieces, ..
    } = suite;
    let fancy = t.engine == TargetEngine::RustFancy;
    let (krate, unwrap) = if fancy {
        ("fancy_regex", ".unwrap()")
    } else {
        ("regex", "")
    };
    let mut out = format!(
        "//! {origin}\n//! (a test module: `cargo test`; needs the `{krate}` crate).\n\nfn pattern() -> {krate}::Regex {{\n    {krate}::Regex::new({}).unwrap()\n}}\n",
        rust_str(&rust_pattern(t)),
    );
    if !pieces.is_empty() {
        let expr = piece_exprs(pieces, &RUST_PIECES);
        out.push_str(&format!(
            "\nfn replace_all(text: &str) -> String {{\n    let mut out = String::new();\n    let mut last = 0;\n    for caps in pattern().captures_iter(text) {{\n        let caps = caps{unwrap};\n        let whole = caps.get(0).unwrap();\n        out.push_str(&text[last..whole.start()]);\n        {}\n        last = whole.end();\n    }}\n    out.push_str(&text[last..]);\n    out\n}}\n",
            expr.join("\n        ")
        ));
    }
    let syntax = if fancy {
        &RUST_FANCY_CHECKS
    } else {
        &RUST_CHECKS
    };
    write_checks(&mut out, suite, syntax);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_once_so_texts_holding_them_stay_as_written() {
        let got = fill_template(
            "a({s}) == {v} {x} { {k}",
            &[("s", "'{v}'"), ("v", "'{s}{k}'"), ("k", "3")],
        );
        assert_eq!(got, "a('{v}') == '{s}{k}' {x} { 3");
    }
    use crate::testcases::parse_line;

    fn cases(lines: &[&str]) -> Vec<Case> {
        lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                let (expect, subject) = parse_line(l)?;
                Some(Case {
                    line: i + 1,
                    subject,
                    expect,
                })
            })
            .collect()
    }

    #[test]
    fn exports_name_groups_by_number() {
        let c = cases(&[
            "+ [CLAIM 7f] => verb=CLAIM, job_id=7f",
            "- nope",
            "~ [ACK 1] => 1",
        ]);
        let e = export_tests(
            r"\[(?P<verb>CLAIM|ACK)\s+(?P<job_id>\w+)\]",
            Flavor::PYTHON,
            Flags::default(),
            r"\g<job_id>",
            &c,
            Lang::Python,
        )
        .unwrap();
        assert_eq!(e.tests, 3);
        assert!(
            e.code.contains("assert (m.group(2) or \"\") == r\"7f\""),
            "{}",
            e.code
        );
        assert!(
            e.code.contains("lambda m: (m.group(2) or \"\")"),
            "{}",
            e.code
        );
        let go = export_tests("a", Flavor::Rust, Flags::default(), "", &c, Lang::Go);
        assert!(go.is_err());
    }
}
