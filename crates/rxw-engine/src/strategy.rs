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

/// JavaScript with `u`/`v`: what node finds at a position between the two code units of a
/// surrogate pair.
///
/// ECMAScript never starts a match there, but node's search loop (V8's, in every node from 18
/// to 26) steps by code unit after an attempt fails at a character outside the BMP, and tries
/// the position inside the pair. There no character can be read forward or backward (V8 reads
/// a trail surrogate only when no lead stands before it, a lead only when no trail follows),
/// `\b`, `^`, `$` and a backreference fail (but one inside the group it names, which V8
/// makes empty) and `\B` holds. Nothing moves the position, so
/// whether the pattern matches there depends on the pattern alone, and so do the groups that
/// take part (each empty, there). `/(?!\W)/u` on `😀` reports a match at UTF-16
/// index 1, which has no UTF-8 offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum InsidePair {
    /// The pattern never matches there.
    NoMatch,
    /// It matches there (empty), with these groups (1-based numbers) taking part.
    Match(Vec<u32>),
    /// Not worked out (a tree nested deeper than the walk goes): a text where node would try
    /// such a position is refused.
    Unsure,
}

/// [`InsidePair`] for a JavaScript pattern with `u`/`v`.
pub(crate) fn inside_a_pair(root: &rxw_syntax::ast::Node) -> InsidePair {
    let mut groups = Vec::new();
    match matches_inside_a_pair(root, 0, &mut groups, &mut Vec::new()) {
        Some(true) => InsidePair::Match(groups),
        Some(false) => InsidePair::NoMatch,
        None => InsidePair::Unsure,
    }
}

/// Whether `node` matches (empty) at a position inside a pair, `None` when not worked out;
/// the groups of the first way it matches, in backtracking order, are pushed on `groups`.
/// The rest of the pattern cannot tell one way from another (each leaves the position where it
/// was, every group empty or unset, and a backreference fails either way), so the first way
/// that matches locally is the one node takes. `open` holds the capture groups around `node`.
fn matches_inside_a_pair<'a>(
    node: &'a rxw_syntax::ast::Node,
    depth: usize,
    groups: &mut Vec<u32>,
    open: &mut Vec<(u32, Option<&'a str>)>,
) -> Option<bool> {
    use rxw_syntax::ast::{AnchorKind, GroupKind};
    if depth > 200 {
        return None;
    }
    Some(match &node.kind {
        NodeKind::Empty | NodeKind::SetFlags(_) | NodeKind::Comment | NodeKind::Whitespace => true,
        NodeKind::Literal { .. }
        | NodeKind::Dot { .. }
        | NodeKind::Perl { .. }
        | NodeKind::Property { .. } => false,
        // A class reads a character, which fails there, unless it holds the empty string
        // (a `v`-flag `\q{}`), which holds.
        NodeKind::Class(c) => class_holds_empty(c, depth)?,
        NodeKind::Anchor { kind, .. } => match kind {
            AnchorKind::NotWordBoundary => true,
            AnchorKind::LineStart
            | AnchorKind::LineEnd
            | AnchorKind::TextStart
            | AnchorKind::TextEnd
            | AnchorKind::WordBoundary => false,
            _ => return None,
        },
        // V8's parser makes a backreference inside the group it names empty, which holds
        // there; any other fails when it ends inside a pair (V8's CheckNotInSurrogatePair),
        // set or not, forward or in a look-behind. A `\k<name>` is empty inside any group of
        // that name, though several groups share it (its IsInsideCaptureGroup asks the
        // groups around the reference for the name: `(?:(?<a>\k<a>)|(?<a>b))`).
        NodeKind::Backref { index, name } => {
            open.iter().any(|(k, _)| k == index)
                || (name.is_some() && open.iter().any(|(_, n)| *n == name.as_deref()))
        }
        NodeKind::Group { kind, child } => match kind {
            GroupKind::Capture { index, name } => {
                let mark = groups.len();
                open.push((*index, name.as_deref()));
                let found = matches_inside_a_pair(child, depth + 1, groups, open);
                open.pop();
                let found = found?;
                if found {
                    groups.insert(mark, *index);
                } else {
                    groups.truncate(mark);
                }
                found
            }
            // A negative look-around's groups never take part.
            GroupKind::NegativeLookahead | GroupKind::NegativeLookbehind => {
                !matches_inside_a_pair(child, depth + 1, &mut Vec::new(), open)?
            }
            GroupKind::Conditional { .. } => return None,
            _ => matches_inside_a_pair(child, depth + 1, groups, open)?,
        },
        // An iteration beyond the minimum that matches empty is rejected (ECMAScript's
        // RepeatMatcher), so past the minimum none takes part.
        NodeKind::Repeat { min, child, .. } => {
            if *min == 0 {
                let mut scratch = Vec::new();
                matches_inside_a_pair(child, depth + 1, &mut scratch, open)?;
                true
            } else {
                matches_inside_a_pair(child, depth + 1, groups, open)?
            }
        }
        NodeKind::Concat(items) => {
            let mark = groups.len();
            for item in items {
                if !matches_inside_a_pair(item, depth + 1, groups, open)? {
                    groups.truncate(mark);
                    return Some(false);
                }
            }
            true
        }
        NodeKind::Alternation(branches) => {
            let mark = groups.len();
            for branch in branches {
                if matches_inside_a_pair(branch, depth + 1, groups, open)? {
                    return Some(true);
                }
                groups.truncate(mark);
            }
            false
        }
    })
}

/// Whether a `v`-flag class holds the empty string (`[\q{}]`, `[\q{|a}&&\q{|b}]`, not
/// `[\q{}--\q{}]`): a union when any operand does, an intersection when every operand does, a
/// difference when its first operand does and no other; a negated class holds no string.
/// `None` past the nesting the walk goes to.
fn class_holds_empty(class: &rxw_syntax::ast::Class, depth: usize) -> Option<bool> {
    use rxw_syntax::ast::ClassItem;
    if depth > 200 {
        return None;
    }
    if class.negated {
        return Some(false);
    }
    let mut operands = Vec::new();
    for operand in class.items.split(|i| matches!(i, ClassItem::SetOp(..))) {
        let mut holds = false;
        for item in operand {
            holds |= match item {
                ClassItem::Strings(alternatives, _) => alternatives.iter().any(String::is_empty),
                ClassItem::Nested(inner) => class_holds_empty(inner, depth + 1)?,
                _ => false,
            };
        }
        operands.push(holds);
    }
    let op = class.items.iter().find_map(|i| match i {
        ClassItem::SetOp(op, _) => Some(op.as_str()),
        _ => None,
    });
    Some(match op {
        None => operands.iter().any(|&h| h),
        Some("&&") => operands.iter().all(|&h| h),
        Some(_) => operands.first() == Some(&true) && !operands[1..].iter().any(|&h| h),
    })
}

/// node 18 with `u` and without `i`: whether the pattern may hold a negated class that V8
/// 10.2 reads as one UTF-16 code unit (a superset: such a pattern runs, on a text with a
/// character outside the BMP, on [`crate::vm::compile_node18_units`]'s program, which decides
/// each class exactly).
///
/// V8 10.2's parser keeps a class that needs no Unicode desugaring inside a run of text with
/// its neighbours, and asks that of the class's *listed* ranges: for `[^b]` those are `b`
/// alone, so the negated class joins the run and matches any one code unit outside its list,
/// a lone half of a pair included, forward and in a look-behind (`/a[^b]/u` on `a😂` matches
/// `a` and the first half; `(?<=a[^a-z])` holds inside the pair). A class alone (`[^b]`,
/// `(a)[^b]`, `a(?:[^b])`, `a[^b]+`: a run of one element is compiled as the class, which is
/// desugared), a class listing a surrogate or a character outside the BMP (`[^😂]`, `[^\D]`),
/// `[^]`, `.`, `\W`, `\S` and any class under `i` read whole characters. Checked on node
/// 18.20.8.
pub(crate) fn node18_unit_class(root: &rxw_syntax::ast::Node) -> bool {
    use rxw_syntax::ast::ClassItem;
    let bmp_only = |c: &rxw_syntax::ast::Class| {
        c.negated
            && c.items.iter().all(|item| match item {
                ClassItem::Char(ch, _) => !is_wide(*ch as u32, *ch as u32),
                ClassItem::Range(a, b, _) => !is_wide(*a as u32, *b as u32),
                // `\D`, `\W`, `\S` list characters outside the BMP.
                ClassItem::Perl(_, negated, _) => !negated,
                // A property may list only BMP characters (`\p{ASCII}`): unsure, counted.
                _ => true,
            })
    };
    // An element V8 10.2 may keep in a run of text (a superset).
    let text_atom = |n: &rxw_syntax::ast::Node| {
        matches!(
            n.kind,
            NodeKind::Literal { .. }
                | NodeKind::Class(_)
                | NodeKind::Perl { .. }
                | NodeKind::Property { .. }
        )
    };
    let mut found = false;
    root.walk(|n, _| {
        if let NodeKind::Concat(items) = &n.kind {
            for (k, item) in items.iter().enumerate() {
                if let NodeKind::Class(c) = &item.kind
                    && bmp_only(c)
                    && ((k > 0 && text_atom(&items[k - 1]))
                        || items.get(k + 1).is_some_and(text_atom))
                {
                    found = true;
                }
            }
        }
    });
    found
}

/// node 20 with `v`: whether the pattern may hold a negated class that V8 11.3 compiles as if
/// it were not negated in some copies of a repeat (a superset). V8 writes out a repeat with
/// a minimum (`+`, `{2}`, `{1,3}`) or a bounded maximum (`{0,2}`) as copies of its body, each
/// compiled from the same tree; a negated class in a run of text with a neighbour (`[^b]a`,
/// `a[^b]`, `\w[^b]`) comes out of one copy with its negation undone: `/(?:[^b]a)+/v` on
/// `ca ba` matches 3–5 (node 22 and later 0–2), `/(?:[^😀]a)+/v` on `😀a` 0–3 (later nodes
/// nothing), `/(?:[^b]a){0,2}/v` nothing in `ca`. A class alone in the body (`[^b]+`,
/// `(?:[^😀])+`), a repeat `*` that is not itself inside such a repeat, and node 22 and later
/// are not affected. Probed on node 20.20.2; the copies' order is not pinned, so rxw refuses
/// the pattern for `js@node20` (`construct_unsupported`) instead of answering differently.
pub(crate) fn node20_v_class_in_copies(root: &rxw_syntax::ast::Node) -> bool {
    fn walk(node: &rxw_syntax::ast::Node, copied: bool, depth: usize) -> bool {
        if depth > 400 {
            return true;
        }
        let neighbour = |n: &rxw_syntax::ast::Node| {
            matches!(
                n.kind,
                NodeKind::Literal { .. }
                    | NodeKind::Perl { .. }
                    | NodeKind::Property { .. }
                    | NodeKind::Class(_)
            )
        };
        match &node.kind {
            NodeKind::Repeat {
                min, max, child, ..
            } => {
                let written_out = match max {
                    None => *min > 0,
                    Some(m) => *m >= 2,
                };
                walk(child, copied || written_out, depth + 1)
            }
            NodeKind::Group { child, .. } => walk(child, copied, depth + 1),
            NodeKind::Alternation(branches) => branches.iter().any(|b| walk(b, copied, depth + 1)),
            NodeKind::Concat(items) => {
                (copied
                    && items.iter().enumerate().any(|(k, item)| {
                        matches!(&item.kind, NodeKind::Class(c) if c.negated)
                            && ((k > 0 && neighbour(&items[k - 1]))
                                || items.get(k + 1).is_some_and(neighbour))
                    }))
                    || items.iter().any(|i| walk(i, copied, depth + 1))
            }
            _ => false,
        }
    }
    walk(root, false, 0)
}

/// Whether the range `a..=b` reaches a surrogate or a character outside the BMP (with `u` the
/// parser keeps a lone surrogate escape as a private-use character outside the BMP).
fn is_wide(a: u32, b: u32) -> bool {
    b > 0xFFFF || (a <= 0xDFFF && b >= 0xD800)
}
