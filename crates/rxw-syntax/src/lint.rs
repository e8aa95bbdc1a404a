//! Static warnings about a pattern: things that parse fine but probably do not do what the
//! author meant, or that can be slow on a backtracking engine.
//!
//! Every lint has a stable `code`, a [`Severity`], a one-line message and the span it points
//! at. The checks are single passes over the tree (no recursion on the tree itself), so
//! linting a deeply nested pattern is as safe and fast as parsing it.
//!
//! | code | fires on | stays silent on |
//! |---|---|---|
//! | `nested-quantifier` | `(a+)+`, `(.*)*` | `(a+)b+`, `(?>a+)+` |
//! | `greedy-dotall-swallows-lines` | `(.+)$` with DOTALL and MULTILINE | `(.+?)$`, `([^\n]+)$` |
//! | `lazy-until-end` | `(.*?)(?=X\|\Z)` with DOTALL | `(.*?)(?=X)` |
//! | `suspicious-range` | `[A-z]` | `[A-Za-z]` |
//! | `duplicate-alternative` | `a\|b\|a` | `a\|ab` |
//! | `useless-escape` | `\-` outside a class, `[\.]` | `\.`, `[\]]` |
//! | `flag-no-effect` | flag `s` without a `.` | flag `s` with a `.` |
//! | `flags-not-at-start` | `a(?i)b` in Python 3.8–3.10 | `(?i)ab`; 3.11 and later refuse it |

use super::ast::*;
use crate::flavor::Flavor;
use crate::highlight::Kind;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// How serious a lint is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Probably a bug or a performance trap.
    Warning,
    /// Harmless but noisy or misleading.
    Info,
}

impl Severity {
    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One static warning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lint {
    /// Stable kebab-case code, e.g. `nested-quantifier`.
    pub code: &'static str,
    /// How serious it is.
    pub severity: Severity,
    /// One line, no trailing period.
    pub message: String,
    /// Where it points in the pattern; `None` for a flag given outside the pattern.
    pub span: Option<Span>,
}

impl Lint {
    /// `severity[code]: message`, then the pattern with a caret line under the span.
    /// `paint` styles pieces by highlight kind.
    pub fn render(&self, pattern: &str, paint: &dyn Fn(&str, Kind) -> String) -> String {
        let kind = match self.severity {
            Severity::Warning => Kind::Warning,
            Severity::Info => Kind::Comment,
        };
        let mut out = format!(
            "{}: {}\n",
            paint(&format!("{}[{}]", self.severity.name(), self.code), kind),
            self.message
        );
        if let Some(span) = self.span {
            let start = span.start.min(pattern.len());
            let end = span.end.clamp(start, pattern.len());
            let shown = crate::error::caret_line(pattern);
            let pad = pattern.get(..start).map_or(0, crate::error::display_width);
            let width = pattern
                .get(start..end)
                .map_or(1, crate::error::display_width)
                .max(1);
            let _ = writeln!(out, "  {shown}");
            let _ = writeln!(
                out,
                "  {}{}",
                " ".repeat(pad),
                paint(&"^".repeat(width), kind)
            );
        }
        out
    }
}

/// All lints for a parsed pattern, ordered by position.
pub fn lint(ast: &Ast, pattern: &str, flavor: Flavor) -> Vec<Lint> {
    let mut out = Vec::new();
    nested_quantifiers(&ast.root, flavor, pattern, &mut out);
    ast.root.walk(|n, _| match &n.kind {
        NodeKind::Concat(v) => {
            greedy_dotall_then_multiline_end(v, pattern, &mut out);
            lazy_until_end(v, pattern, &mut out);
        }
        NodeKind::Alternation(v) => duplicate_alternatives(v, pattern, &mut out),
        NodeKind::Class(c) => class_lints(c, pattern, flavor, 0, &mut out),
        NodeKind::Literal {
            ch,
            form: LiteralForm::Escaped,
        } => useless_escape_outside(*ch, n.span, pattern, flavor, &mut out),
        _ => {}
    });
    flags_without_effect(ast, pattern, flavor, &mut out);
    flags_not_at_start(ast, flavor, &mut out);
    out.sort_by_key(|l| l.span.map_or((0, 0), |s| (s.start, s.end)));
    out
}

/// Python 3.8–3.10: global flags after the start are a DeprecationWarning (3.11 refuses them)
/// and apply to the whole pattern, not from where they are written.
fn flags_not_at_start(ast: &Ast, flavor: Flavor, out: &mut Vec<Lint>) {
    if flavor.py_version().is_none_or(|v| v.minor() >= 11) {
        return;
    }
    // The leading flag groups: at the start of the pattern (of its first branch).
    let mut first = &ast.root;
    if let NodeKind::Alternation(branches) = &first.kind {
        first = &branches[0];
    }
    let leading: Vec<Span> = match &first.kind {
        NodeKind::Concat(items) => items
            .iter()
            .take_while(|n| {
                matches!(
                    n.kind,
                    NodeKind::SetFlags(_) | NodeKind::Whitespace | NodeKind::Comment
                )
            })
            .map(|n| n.span)
            .collect(),
        NodeKind::SetFlags(_) => vec![first.span],
        _ => Vec::new(),
    };
    ast.root.walk(|n, _| {
        if matches!(n.kind, NodeKind::SetFlags(_)) && !leading.contains(&n.span) {
            out.push(Lint {
                code: "flags-not-at-start",
                severity: Severity::Warning,
                message: "global flags not at the start of the expression: they apply to the \
                          whole pattern (a DeprecationWarning before Python 3.11, an error from \
                          3.11)"
                    .into(),
                span: Some(n.span),
            });
        }
    });
}

fn slice(pattern: &str, span: Span) -> &str {
    pattern.get(span.start..span.end).unwrap_or("")
}

fn unbounded(n: &Node) -> bool {
    matches!(
        n.kind,
        NodeKind::Repeat {
            max: None,
            greed: Greed::Greedy | Greed::Lazy,
            ..
        }
    )
}

/// An unbounded quantifier applied to something that itself contains an unbounded
/// quantifier: the classic exponential-backtracking shape. One lint per outer quantifier.
fn nested_quantifiers(root: &Node, flavor: Flavor, pattern: &str, out: &mut Vec<Lint>) {
    // For each entered node: the outermost unbounded repeat around it (reset by atomic groups).
    let mut outer: Vec<Option<&Node>> = Vec::new();
    let mut reported: HashSet<Span> = HashSet::new();
    root.visit(|v| match v {
        Visit::Enter(n) => {
            let around = outer.last().copied().flatten();
            if unbounded(n)
                && let Some(o) = around
                && reported.insert(o.span)
            {
                let (severity, engine) = match flavor {
                    Flavor::Rust | Flavor::Fancy => (
                        Severity::Info,
                        "harmless on Rust's linear-time engine, but catastrophic backtracking wherever the pattern needs a backtracking engine (look-around, backreferences)",
                    ),
                    _ => (
                        Severity::Warning,
                        "catastrophic backtracking: on a text that almost matches, the engine tries exponentially many ways to split it",
                    ),
                };
                out.push(Lint {
                    code: "nested-quantifier",
                    severity,
                    message: format!(
                        "nested unbounded quantifiers: `{}` repeats `{}`, itself unbounded; {engine}",
                        slice(pattern, o.span),
                        slice(pattern, n.span)
                    ),
                    span: Some(o.span),
                });
            }
            let next = match &n.kind {
                NodeKind::Group {
                    kind: GroupKind::Atomic,
                    ..
                } => None,
                NodeKind::Repeat {
                    greed: Greed::Possessive,
                    ..
                } => None,
                _ if unbounded(n) => around.or(Some(n)),
                _ => around,
            };
            outer.push(next);
        }
        Visit::Exit(_) => {
            outer.pop();
        }
        Visit::Between(..) => {}
    });
}

fn trivia(n: &Node) -> bool {
    matches!(
        n.kind,
        NodeKind::Comment | NodeKind::Whitespace | NodeKind::Empty | NodeKind::SetFlags(_)
    )
}

/// The unbounded repeat of a dot-all `.` that `n` ends with, looking through groups and
/// sequences.
fn trailing_dotall_repeat(mut n: &Node) -> Option<&Node> {
    // Bounded, so that a pattern nested thousands deep stays linear to lint.
    for _ in 0..256 {
        match &n.kind {
            NodeKind::Repeat {
                max: None, child, ..
            } if matches!(child.kind, NodeKind::Dot { dotall: true }) => return Some(n),
            NodeKind::Group {
                kind: GroupKind::Capture { .. } | GroupKind::NonCapture | GroupKind::Flags(_),
                child,
            } => n = child,
            NodeKind::Concat(v) => n = v.iter().rev().find(|c| !trivia(c))?,
            _ => return None,
        }
    }
    None
}

fn greed_of(n: &Node) -> Option<Greed> {
    match n.kind {
        NodeKind::Repeat { greed, .. } => Some(greed),
        _ => None,
    }
}

fn greedy_dotall_then_multiline_end(v: &[Node], pattern: &str, out: &mut Vec<Lint>) {
    for (i, n) in v.iter().enumerate() {
        let Some(next) = v[i + 1..].iter().find(|c| !trivia(c)) else {
            continue;
        };
        if !matches!(
            next.kind,
            NodeKind::Anchor {
                kind: AnchorKind::LineEnd,
                multiline: true
            }
        ) {
            continue;
        }
        // Checked after the cheap test on the next sibling.
        let Some(rep) = trailing_dotall_repeat(n) else {
            continue;
        };
        if greed_of(rep) != Some(Greed::Greedy) {
            continue;
        }
        let dot = slice(pattern, rep.span);
        out.push(Lint {
            code: "greedy-dotall-swallows-lines",
            severity: Severity::Warning,
            message: format!(
                "greedy `{dot}` under DOTALL crosses newlines, so the MULTILINE `$` after it stops only at the end of the last line: the match swallows every later line; use `[^\\n]+` to stop at the end of this line, or drop DOTALL"
            ),
            span: Some(rep.span.to(next.span)),
        });
    }
}

/// True when `n` is, or has an alternative that is, the end of the text.
fn has_end_alternative(n: &Node) -> bool {
    let is_end = |b: &Node| {
        matches!(
            b.kind,
            NodeKind::Anchor {
                kind: AnchorKind::TextEnd,
                ..
            } | NodeKind::Anchor {
                kind: AnchorKind::LineEnd,
                multiline: false
            }
        )
    };
    match &n.kind {
        NodeKind::Alternation(bs) => bs.iter().any(is_end),
        _ => is_end(n),
    }
}

fn lazy_until_end(v: &[Node], pattern: &str, out: &mut Vec<Lint>) {
    for (i, n) in v.iter().enumerate() {
        let Some(next) = v[i + 1..].iter().find(|c| !trivia(c)) else {
            continue;
        };
        let NodeKind::Group {
            kind: GroupKind::Lookahead,
            child,
        } = &next.kind
        else {
            continue;
        };
        if !has_end_alternative(child) {
            continue;
        }
        let Some(rep) = trailing_dotall_repeat(n) else {
            continue;
        };
        if greed_of(rep) != Some(Greed::Lazy) {
            continue;
        }
        out.push(Lint {
            code: "lazy-until-end",
            severity: Severity::Warning,
            message: format!(
                "lazy `{}` under DOTALL stops only where the look-ahead `{}` succeeds, and one of its alternatives is the end of the text: when nothing else follows, the match spans the whole rest of the text, newlines and unrelated lines included",
                slice(pattern, rep.span),
                slice(pattern, next.span)
            ),
            span: Some(rep.span.to(next.span)),
        });
    }
}

fn duplicate_alternatives(v: &[Node], pattern: &str, out: &mut Vec<Lint>) {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for b in v {
        let text = slice(pattern, b.span);
        if let Some(first) = seen.get(text) {
            if *first == b.span {
                // One construct a reader wrote out as alternatives (PCRE2's and Java's `\R`):
                // the same written text, not two alternatives the user wrote.
                continue;
            }
            out.push(Lint {
                code: "duplicate-alternative",
                severity: Severity::Warning,
                message: format!(
                    "alternative `{text}` repeats the one at byte {}: it can never match anything the first did not",
                    first.start
                ),
                span: Some(b.span),
            });
        } else {
            seen.insert(text, b.span);
        }
    }
}

const SPECIAL_OUTSIDE: &str = "\\^$.|?*+()[]{}";

fn useless_escape_outside(
    ch: char,
    span: Span,
    pattern: &str,
    flavor: Flavor,
    out: &mut Vec<Lint>,
) {
    let text = slice(pattern, span);
    if text != format!("\\{ch}") || SPECIAL_OUTSIDE.contains(ch) || ch.is_whitespace() || ch == '#'
    {
        return;
    }
    if flavor.is_js() && ch == '/' {
        // Needed in a `/…/` literal; harmless elsewhere.
        return;
    }
    let note = if ch.is_ascii_alphanumeric() {
        " (and a syntax error under the u flag)"
    } else {
        ""
    };
    out.push(Lint {
        code: "useless-escape",
        severity: Severity::Info,
        message: format!("`{text}` needs no backslash: `{ch}` is not special here{note}"),
        span: Some(span),
    });
}

fn class_lints(c: &Class, pattern: &str, flavor: Flavor, depth: usize, out: &mut Vec<Lint>) {
    // Class nesting is bounded by the parser (64), so this recursion is bounded too.
    let special_in_class: &str = flavor.rules().class_specials;
    for item in &c.items {
        match item {
            ClassItem::Range(lo, hi, span)
                if lo.is_ascii_uppercase() && hi.is_ascii_lowercase() =>
            {
                out.push(Lint {
                    code: "suspicious-range",
                    severity: Severity::Warning,
                    message: format!(
                        "range `{}` runs from an uppercase to a lowercase letter, so it also matches [ \\ ] ^ _ ` between Z and a; write `A-Za-z` for letters",
                        slice(pattern, *span)
                    ),
                    span: Some(*span),
                });
            }
            ClassItem::Char(ch, span) => {
                let text = slice(pattern, *span);
                if text == format!("\\{ch}")
                    && !ch.is_alphanumeric()
                    && !ch.is_whitespace()
                    && *ch != '#'
                    && !special_in_class.contains(*ch)
                {
                    out.push(Lint {
                        code: "useless-escape",
                        severity: Severity::Info,
                        message: format!("`{text}` needs no backslash inside a class: `{ch}` is not special there"),
                        span: Some(*span),
                    });
                }
            }
            ClassItem::Nested(inner) if depth < 64 => {
                class_lints(inner, pattern, flavor, depth + 1, out)
            }
            _ => {}
        }
    }
}

fn class_uses_case(c: &Class, depth: usize) -> bool {
    c.items.iter().any(|i| match i {
        ClassItem::Char(ch, _) => ch.is_lowercase() || ch.is_uppercase(),
        ClassItem::Range(lo, hi, _) => {
            let (lo, hi) = (*lo as u32, *hi as u32);
            (lo <= 'z' as u32 && hi >= 'A' as u32) || hi >= 0x80
        }
        ClassItem::Property(..) | ClassItem::Posix(..) => true,
        ClassItem::Nested(inner) => depth < 64 && class_uses_case(inner, depth + 1),
        _ => false,
    })
}

fn class_uses_perl(c: &Class, depth: usize) -> bool {
    c.items.iter().any(|i| match i {
        ClassItem::Perl(..) => true,
        ClassItem::Nested(inner) => depth < 64 && class_uses_perl(inner, depth + 1),
        _ => false,
    })
}

/// Whether flag `letter` can change what `node` matches; `None` for flags rxw does not judge.
fn flag_matters(letter: char, node: &Node, pattern: &str) -> Option<bool> {
    let mut any = false;
    let mut check = |f: &dyn Fn(&Node) -> bool| {
        node.walk(|n, _| {
            if !any && f(n) {
                any = true;
            }
        })
    };
    match letter {
        'i' => check(&|n| match &n.kind {
            NodeKind::Literal { ch, .. } => ch.is_lowercase() || ch.is_uppercase(),
            NodeKind::Class(c) => class_uses_case(c, 0),
            NodeKind::Property { .. } | NodeKind::Backref { .. } => true,
            _ => false,
        }),
        'm' => check(&|n| {
            matches!(
                n.kind,
                NodeKind::Anchor {
                    kind: AnchorKind::LineStart | AnchorKind::LineEnd,
                    ..
                }
            )
        }),
        's' => check(&|n| matches!(n.kind, NodeKind::Dot { .. })),
        'R' => check(&|n| {
            matches!(
                n.kind,
                NodeKind::Dot { .. }
                    | NodeKind::Anchor {
                        kind: AnchorKind::LineStart | AnchorKind::LineEnd,
                        ..
                    }
            )
        }),
        'U' => check(&|n| matches!(n.kind, NodeKind::Repeat { min, max, .. } if Some(min) != max)),
        'a' => check(&|n| match &n.kind {
            NodeKind::Perl { .. } => true,
            NodeKind::Anchor {
                kind: AnchorKind::WordBoundary | AnchorKind::NotWordBoundary,
                ..
            } => true,
            NodeKind::Class(c) => class_uses_perl(c, 0) || class_uses_case(c, 0),
            NodeKind::Literal { ch, .. } => {
                !ch.is_ascii() && (ch.is_lowercase() || ch.is_uppercase())
            }
            _ => false,
        }),
        'x' => {
            any = slice(pattern, node.span)
                .chars()
                .any(|c| c.is_whitespace() || c == '#');
        }
        _ => return None,
    }
    Some(any)
}

fn why_no_effect(letter: char) -> &'static str {
    match letter {
        'i' => "there is no letter, class or backreference whose case could matter",
        'm' => "there is no `^` or `$`",
        's' => "there is no `.`",
        'x' => "there is no whitespace or `#` to ignore",
        'a' => "there is no \\w, \\d, \\s, \\b or non-ASCII letter",
        'U' => "there is no quantifier with a choice of how much to take",
        'R' => "there is no `.`, `^` or `$`",
        _ => "nothing depends on it",
    }
}

fn flags_without_effect(ast: &Ast, pattern: &str, flavor: Flavor, out: &mut Vec<Lint>) {
    let mut inline_letters = String::new();
    let report = |letter: char, scope: &Node, span: Option<Span>, out: &mut Vec<Lint>| {
        if flag_matters(letter, scope, pattern) == Some(false) {
            let whence = if span.is_some() {
                "inline flag"
            } else {
                "flag"
            };
            out.push(Lint {
                code: "flag-no-effect",
                severity: Severity::Info,
                message: format!(
                    "{whence} `{letter}` changes nothing: {}",
                    why_no_effect(letter)
                ),
                span,
            });
        }
    };
    let mut groups: Vec<(&FlagChange, &Node, Span)> = Vec::new();
    ast.root.walk(|n, _| match &n.kind {
        NodeKind::Group {
            kind: GroupKind::Flags(change),
            child,
        } => groups.push((change, child, n.span)),
        // A bare `(?i)` holds to the end of its group; judging it on the whole pattern only
        // errs towards silence.
        NodeKind::SetFlags(change) => groups.push((change, &ast.root, n.span)),
        _ => {}
    });
    for (change, scope, span) in groups {
        inline_letters.push_str(&change.on);
        for letter in change.on.chars() {
            let letter_span = pattern
                .get(span.start..span.end)
                .and_then(|t| t.find(letter))
                .map(|i| Span::new(span.start + i, span.start + i + letter.len_utf8()));
            report(letter, scope, letter_span.or(Some(span)), out);
        }
    }
    for letter in ast.flags.letters(flavor).chars() {
        if !inline_letters.contains(letter) {
            report(letter, &ast.root, None, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::Flags;
    use crate::parse::parse;

    fn codes(pat: &str, flavor: Flavor, flags: &str) -> Vec<&'static str> {
        let ast = parse(pat, flavor, Flags::parse(flags, flavor).unwrap()).unwrap();
        lint(&ast, pat, flavor)
            .into_iter()
            .map(|l| l.code)
            .collect()
    }

    fn fires(code: &str, pat: &str, flavor: Flavor, flags: &str) -> bool {
        codes(pat, flavor, flags).contains(&code)
    }

    #[test]
    fn nested_quantifier() {
        assert!(fires("nested-quantifier", "(a+)+", Flavor::PYTHON, ""));
        assert!(fires("nested-quantifier", "(.*)*", Flavor::JS, ""));
        assert!(fires(
            "nested-quantifier",
            r"(?:\w+\s?)*$",
            Flavor::PYTHON,
            ""
        ));
        assert!(!fires("nested-quantifier", "(a+)b+", Flavor::PYTHON, ""));
        assert!(!fires("nested-quantifier", "(a{1,3})+", Flavor::PYTHON, ""));
        assert!(!fires("nested-quantifier", "(?>a+)+", Flavor::PYTHON, ""));
        assert_eq!(codes("((a+)+)+", Flavor::PYTHON, ""), ["nested-quantifier"]);
    }

    #[test]
    fn nested_quantifier_is_info_on_rust() {
        let ast = parse("(a+)+", Flavor::Rust, Flags::default()).unwrap();
        assert_eq!(
            lint(&ast, "(a+)+", Flavor::Rust)[0].severity,
            Severity::Info
        );
    }

    const WORK_ORDER: &str = r"^\[WO:(?P<wo_id>[a-f0-9-]+)\]\s+\[from\s+(?P<sender>[a-zA-Z0-9_-]+)\]\s+(?P<title>[^—\n]+?)\s*—\s*(?P<body>.+)$";

    #[test]
    fn greedy_dotall_swallows_lines() {
        assert!(fires(
            "greedy-dotall-swallows-lines",
            WORK_ORDER,
            Flavor::PYTHON,
            "ms"
        ));
        assert!(fires(
            "greedy-dotall-swallows-lines",
            "(?s)(?m)a.*$",
            Flavor::Rust,
            ""
        ));
        // Near misses: no DOTALL, no MULTILINE, lazy.
        assert!(!fires(
            "greedy-dotall-swallows-lines",
            WORK_ORDER,
            Flavor::PYTHON,
            "m"
        ));
        assert!(!fires(
            "greedy-dotall-swallows-lines",
            WORK_ORDER,
            Flavor::PYTHON,
            "s"
        ));
        assert!(!fires(
            "greedy-dotall-swallows-lines",
            "(.+?)$",
            Flavor::PYTHON,
            "ms"
        ));
    }

    const RESULT: &str = r"\[RESULT\s+(?P<job_id>[A-Za-z0-9_/-]+)\]\s*(?P<status>OK|FAIL|DECLINE|SUCCESS|ERROR)?\s*(?P<summary>.*?)(?=\[RESULT\s|\Z)";

    #[test]
    fn lazy_until_end() {
        assert!(fires("lazy-until-end", RESULT, Flavor::PYTHON, "s"));
        assert!(fires("lazy-until-end", r"x(.*?)(?=;|$)", Flavor::JS, "s"));
        assert!(!fires(
            "lazy-until-end",
            r"(.*?)(?=\[RESULT\s)",
            Flavor::PYTHON,
            "s"
        ));
        assert!(!fires("lazy-until-end", RESULT, Flavor::PYTHON, ""));
        assert!(!fires("lazy-until-end", r"x(.*?)(?=;|$)", Flavor::JS, "sm"));
    }

    #[test]
    fn suspicious_range() {
        assert!(fires("suspicious-range", "[A-z]", Flavor::JS, ""));
        assert!(!fires("suspicious-range", "[A-Za-z]", Flavor::JS, ""));
        assert!(!fires("suspicious-range", "[A-Z]", Flavor::JS, ""));
    }

    #[test]
    fn duplicate_alternative() {
        assert!(fires(
            "duplicate-alternative",
            "cat|dog|cat",
            Flavor::PYTHON,
            ""
        ));
        assert!(!fires(
            "duplicate-alternative",
            "cat|dog|cats",
            Flavor::PYTHON,
            ""
        ));
    }

    #[test]
    fn useless_escape() {
        assert!(fires("useless-escape", r"a\-b", Flavor::PYTHON, ""));
        assert!(fires("useless-escape", r"[\.]", Flavor::Rust, ""));
        assert!(fires("useless-escape", r"\q", Flavor::JS, ""));
        assert!(!fires("useless-escape", r"a\.b", Flavor::PYTHON, ""));
        assert!(!fires("useless-escape", r"[\]\-]", Flavor::Rust, ""));
        assert!(!fires("useless-escape", r"\/", Flavor::JS, ""));
        assert!(!fires("useless-escape", r"a\ b", Flavor::PYTHON, "x"));
    }

    #[test]
    fn flag_no_effect() {
        assert!(fires("flag-no-effect", "abc", Flavor::PYTHON, "s"));
        assert!(fires("flag-no-effect", "(?i:123)", Flavor::Rust, ""));
        assert!(!fires("flag-no-effect", "a$", Flavor::JS, "i"));
        assert!(fires("flag-no-effect", "123", Flavor::JS, "i"));
        assert!(!fires("flag-no-effect", "a.c", Flavor::PYTHON, "s"));
        assert!(!fires("flag-no-effect", "(?i:abc)", Flavor::Rust, ""));
        assert!(!fires("flag-no-effect", WORK_ORDER, Flavor::PYTHON, "ms"));
        let ast = parse("(?i:123)", Flavor::Rust, Flags::default()).unwrap();
        assert_eq!(
            lint(&ast, "(?i:123)", Flavor::Rust)[0].span,
            Some(Span::new(2, 3))
        );
    }

    #[test]
    fn render_draws_a_caret() {
        let ast = parse("[A-z]", Flavor::JS, Flags::default()).unwrap();
        let text = lint(&ast, "[A-z]", Flavor::JS)[0].render("[A-z]", &|s, _| s.to_string());
        assert!(text.starts_with("warning[suspicious-range]: "));
        assert!(text.ends_with("  [A-z]\n   ^^^\n"), "{text}");
    }
}
