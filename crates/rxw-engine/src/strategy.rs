//! What in a pattern's tree decides how it runs: the rules of a flavor that only rxw's matcher
//! follows (Python's empty iterations, JavaScript's captures reset per iteration, a
//! repetition that can match empty) and the look-around a byte offset cannot express.
//! [`crate::Regex`] asks these once, when it compiles.

use rxw_syntax::ast::{Ast, Greed, NodeKind};

pub(crate) fn prefers_empty(ast: &Ast) -> bool {
    let mut found = false;
    ast.root.walk(|n, _| match &n.kind {
        NodeKind::Repeat {
            greed: Greed::Lazy, ..
        } => found = true,
        NodeKind::Alternation(branches)
            if branches[..branches.len() - 1].iter().any(|b| b.nullable()) =>
        {
            found = true
        }
        _ => {}
    });
    found
}

/// Python: a repeat (max > 1) whose body can match empty and holds a capture; CPython records
/// an empty iteration in that capture, which only the matcher follows.
pub(crate) fn python_empty_iteration(ast: &Ast) -> bool {
    repeat_holding_capture(ast, |max, child| {
        max.is_none_or(|m| m > 1) && child.nullable()
    })
}

/// JavaScript: a quantified body holding a capture (captures reset on each iteration, and an
/// empty iteration is dropped with its captures): the matcher runs it.
pub(crate) fn js_iteration_captures(ast: &Ast) -> bool {
    repeat_holding_capture(ast, |max, child| {
        max.is_none_or(|m| m > 1 || child.nullable())
    })
}

/// Whether a repeat for which `applies(max, body)` holds has a capturing group in its body.
pub(crate) fn repeat_holding_capture(
    ast: &Ast,
    applies: impl Fn(Option<u32>, &rxw_syntax::ast::Node) -> bool,
) -> bool {
    let mut found = false;
    ast.root.walk(|n, _| {
        if found {
            return;
        }
        if let NodeKind::Repeat { max, child, .. } = &n.kind
            && applies(*max, child)
        {
            child.walk(|c, _| {
                if matches!(
                    c.kind,
                    NodeKind::Group {
                        kind: rxw_syntax::ast::GroupKind::Capture { .. },
                        ..
                    }
                ) {
                    found = true;
                }
            });
        }
    });
    found
}

/// A repeat whose body can match empty: Python keeps one empty iteration and stops, JavaScript
/// drops an empty iteration past the minimum (and backtracks into the body for a longer one);
/// the `regex` crate does neither, so the matcher runs these.
pub(crate) fn nullable_repeat(ast: &Ast) -> bool {
    let mut found = false;
    ast.root.walk(|n, _| {
        if let NodeKind::Repeat { child, .. } = &n.kind
            && child.nullable()
        {
            found = true;
        }
    });
    found
}

/// Whether a flag is on anywhere (Python's `a` flag with `i` folds ASCII only, which the
/// `regex` crate's Unicode folding cannot express exactly).
pub(crate) fn uses_flag(ast: &Ast, letter: char) -> bool {
    use rxw_syntax::ast::GroupKind;
    if ast.flags.get(letter) {
        return true;
    }
    let mut found = false;
    ast.root.walk(|n, _| match &n.kind {
        NodeKind::SetFlags(c)
        | NodeKind::Group {
            kind: GroupKind::Flags(c),
            ..
        } if c.on.contains(letter) => found = true,
        _ => {}
    });
    found
}

/// Rust: look-around or backreferences, which the `regex` crate does not have.
pub(crate) fn rust_needs_backtracking(ast: &Ast) -> bool {
    use rxw_syntax::ast::GroupKind;
    let mut found = false;
    ast.root.walk(|n, _| {
        if matches!(
            n.kind,
            NodeKind::Backref { .. }
                | NodeKind::Group {
                    kind: GroupKind::Lookahead
                        | GroupKind::NegativeLookahead
                        | GroupKind::Lookbehind
                        | GroupKind::NegativeLookbehind
                        | GroupKind::Atomic,
                    ..
                }
                | NodeKind::Repeat {
                    greed: Greed::Possessive,
                    ..
                }
        ) {
            found = true;
        }
    });
    found
}

/// JavaScript with `u`/`v`: whether the pattern can match at a position between the two code
/// units of a surrogate pair as node runs it (a superset).
///
/// ECMAScript never starts a match there, but node's search loop steps by code unit after an
/// attempt fails at a character outside the BMP, and tries the position inside the pair: there
/// no character can be read forward or backward, `\b` fails and `\B` holds, `^` and `$`
/// fail. So `/(?!\W)/u` on `😀` reports a match at UTF-16 index 1, which has no UTF-8 offset.
/// Nodes nested deeper than the walk goes count as able to match.
pub(crate) fn may_match_inside_a_pair(node: &rxw_syntax::ast::Node, depth: usize) -> bool {
    use rxw_syntax::ast::{AnchorKind, GroupKind};
    if depth > 200 {
        return true;
    }
    let inner = |n: &rxw_syntax::ast::Node| may_match_inside_a_pair(n, depth + 1);
    match &node.kind {
        NodeKind::Empty | NodeKind::SetFlags(_) | NodeKind::Comment | NodeKind::Whitespace => true,
        NodeKind::Literal { .. }
        | NodeKind::Dot { .. }
        | NodeKind::Perl { .. }
        | NodeKind::Property { .. }
        | NodeKind::Class(_) => false,
        NodeKind::Anchor { kind, .. } => !matches!(
            kind,
            AnchorKind::LineStart
                | AnchorKind::LineEnd
                | AnchorKind::TextStart
                | AnchorKind::TextEnd
                | AnchorKind::WordBoundary
        ),
        // A reference to a group that captured nothing matches empty.
        NodeKind::Backref { .. } => true,
        NodeKind::Group { kind, child } => match kind {
            // Holds whenever its body cannot match there, which is most bodies.
            GroupKind::NegativeLookahead | GroupKind::NegativeLookbehind => {
                !must_match_inside_a_pair(child, depth + 1)
            }
            GroupKind::Conditional { .. } => true,
            _ => inner(child),
        },
        NodeKind::Repeat { min, child, .. } => *min == 0 || inner(child),
        NodeKind::Concat(items) => items.iter().all(inner),
        NodeKind::Alternation(branches) => branches.iter().any(inner),
    }
}

/// JavaScript with `u`/`v`: whether the pattern surely matches (empty) at a position between
/// the two code units of a surrogate pair, where nothing can be read and only `\B` among the
/// assertions holds (a subset: `false` when unsure). A negative look-around whose body
/// surely matches there, as in `(?!|b)`, never holds there.
pub(crate) fn must_match_inside_a_pair(node: &rxw_syntax::ast::Node, depth: usize) -> bool {
    use rxw_syntax::ast::{AnchorKind, GroupKind};
    if depth > 200 {
        return false;
    }
    let inner = |n: &rxw_syntax::ast::Node| must_match_inside_a_pair(n, depth + 1);
    match &node.kind {
        NodeKind::Empty | NodeKind::SetFlags(_) | NodeKind::Comment | NodeKind::Whitespace => true,
        NodeKind::Anchor { kind, .. } => matches!(kind, AnchorKind::NotWordBoundary),
        NodeKind::Group { kind, child } => match kind {
            GroupKind::NegativeLookahead | GroupKind::NegativeLookbehind => {
                !may_match_inside_a_pair(child, depth + 1)
            }
            GroupKind::Conditional { .. } => false,
            _ => inner(child),
        },
        NodeKind::Repeat { min, child, .. } => *min == 0 || inner(child),
        NodeKind::Concat(items) => items.iter().all(inner),
        NodeKind::Alternation(branches) => branches.iter().any(inner),
        _ => false,
    }
}
