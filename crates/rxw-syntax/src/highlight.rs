//! Highlighting as data: `(range, kind)` pairs that the CLI maps to ANSI and the TUI to
//! ratatui styles, each in one function.

use crate::ast::{Node, NodeKind, Span};

/// What a highlighted range is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A whole match in the text.
    Match,
    /// Capture group `n - 1` inside a match (0 = group 1).
    Group(usize),
    /// A `line:column` prefix.
    Location,
    /// A literal character in a pattern.
    Literal,
    /// An escape in a pattern.
    Escape,
    /// A class or shorthand class.
    Class,
    /// Group parentheses.
    Group0,
    /// A quantifier.
    Quantifier,
    /// An anchor or boundary.
    Anchor,
    /// `|`.
    Alternation,
    /// A backreference.
    Backref,
    /// A comment or ignored whitespace.
    Comment,
    /// The span of an error.
    Error,
    /// The span of a lint.
    Warning,
    /// A name (group name, key).
    Name,
}

/// Colour tokens for a pattern: every byte of the pattern belongs to at most one token.
/// Groups give their opening and closing parentheses; quantifiers their operator only.
pub fn pattern_tokens(root: &Node, pattern: &str) -> Vec<(Span, Kind)> {
    let mut out = Vec::new();
    root.walk(|n, _| match &n.kind {
        NodeKind::Literal { form, .. } => out.push((
            n.span,
            if *form == crate::ast::LiteralForm::Verbatim {
                Kind::Literal
            } else {
                Kind::Escape
            },
        )),
        NodeKind::Dot { .. }
        | NodeKind::Perl { .. }
        | NodeKind::Property { .. }
        | NodeKind::Class(_) => out.push((n.span, Kind::Class)),
        NodeKind::Anchor { .. } => out.push((n.span, Kind::Anchor)),
        NodeKind::Backref { .. } => out.push((n.span, Kind::Backref)),
        NodeKind::Comment | NodeKind::Whitespace | NodeKind::SetFlags(_) => {
            out.push((n.span, Kind::Comment))
        }
        NodeKind::Repeat { op_span, .. } => out.push((*op_span, Kind::Quantifier)),
        NodeKind::Group { child, .. } => {
            let open_end = if child.span.start >= n.span.start && child.span.start <= n.span.end {
                child.span.start
            } else {
                n.span.start + 1
            };
            out.push((Span::new(n.span.start, open_end), Kind::Group0));
            if n.span.end > open_end && pattern.as_bytes().get(n.span.end - 1) == Some(&b')') {
                out.push((Span::new(n.span.end - 1, n.span.end), Kind::Group0));
            }
        }
        NodeKind::Alternation(branches) => {
            for w in branches.windows(2) {
                if w[0].span.end < w[1].span.start {
                    out.push((Span::new(w[0].span.end, w[1].span.start), Kind::Alternation));
                }
            }
        }
        NodeKind::Empty | NodeKind::Concat(_) => {}
    });
    out.sort_by_key(|(s, _)| s.start);
    out
}
