//! Well-known unambiguous rewrites of a ReDoS culprit, for flavors without atomic groups or
//! possessive quantifiers (and as a second choice where they have them).
//!
//! Each rewrite takes away the ambiguity backtracking pays for while matching the same texts:
//! - a loop over a loop of one character class, `(a+)+` or `(?:\w*)*`: one loop is enough
//!   (`(a+)` keeping the group, `a+` without one);
//! - a loop over an alternation of one-character branches or repeated branches, `(a|a)*` or
//!   `(\d|\w)+`: the branches become one class (`(a)*`, `([\d\w])+`);
//! - a loop over a run and an optional separator the run cannot contain, `(\w+\s?)*`: the runs
//!   are separated explicitly (`(?:\w+(?:\s\w+)*\s?)?`), which leaves one way to split a text;
//!   the group, if there was one, no longer holds the last repetition.
//!
//! Rewrites are only proposals: the caller keeps one when the attack no longer grows on it and
//! it matches as the original does on the attack and on examples of the pattern.

use crate::Regex;
use rxw_syntax::Span;
use rxw_syntax::ast::{Greed, GroupKind, Node, NodeKind};

/// A rewritten pattern and what it changes.
pub(crate) struct Rewrite {
    /// The whole pattern, rewritten.
    pub pattern: String,
    /// What the rewrite does, for the hint's note.
    pub note: String,
    /// Whether the groups capture as before (otherwise only the matches' extents are kept).
    pub keeps_groups: bool,
}

/// The node at `span` that is a quantifier, if any.
fn repeat_at(root: &Node, span: Span) -> Option<&Node> {
    find_by_span(root, span, |k| matches!(k, NodeKind::Repeat { .. }))
}

/// The first node (pre-order, without recursion) with this span and a kind `want` accepts.
fn find_by_span(root: &Node, span: Span, want: impl Fn(&NodeKind) -> bool) -> Option<&Node> {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.span == span && want(&n.kind) {
            return Some(n);
        }
        match &n.kind {
            NodeKind::Group { child, .. } | NodeKind::Repeat { child, .. } => stack.push(child),
            NodeKind::Concat(items) | NodeKind::Alternation(items) => {
                stack.extend(items.iter().rev())
            }
            _ => {}
        }
    }
    None
}

/// Groups that do not capture, peeled off.
fn peel(mut n: &Node) -> &Node {
    while let NodeKind::Group {
        kind: GroupKind::NonCapture,
        child,
    } = &n.kind
    {
        n = child;
    }
    n
}

/// Whether the node matches exactly one character (a literal, a class, a shorthand).
fn one_char(n: &Node) -> bool {
    matches!(
        peel(n).kind,
        NodeKind::Literal { .. }
            | NodeKind::Class(_)
            | NodeKind::Perl { .. }
            | NodeKind::Property { .. }
            | NodeKind::Dot { .. }
    )
}

fn has_capture(n: &Node) -> bool {
    let mut found = false;
    n.walk(|m, _| {
        found |= matches!(
            m.kind,
            NodeKind::Group {
                kind: GroupKind::Capture { .. },
                ..
            }
        )
    });
    found
}

/// The text of a one-character node as a member of a bracketed class, if it can be one.
fn class_member(text: &str, n: &Node) -> Option<String> {
    let n = peel(n);
    let t = &text[n.span.start..n.span.end];
    match &n.kind {
        NodeKind::Literal { ch, .. } => Some(if "\\]^-[".contains(*ch) && !t.starts_with('\\') {
            format!("\\{ch}")
        } else {
            t.to_string()
        }),
        NodeKind::Perl { .. } | NodeKind::Property { .. } => Some(t.to_string()),
        NodeKind::Class(c) if !c.negated && t.starts_with('[') && t.ends_with(']') => {
            Some(t[1..t.len() - 1].to_string())
        }
        _ => None,
    }
}

/// A quantifier's operator for `min` with no maximum, greedy.
fn star_or_plus(min: u32) -> &'static str {
    if min == 0 { "*" } else { "+" }
}

/// The rewrites that apply to the quantifier at `culprit`, most faithful first.
pub(crate) fn rewrites(re: &Regex, culprit: Span) -> Vec<Rewrite> {
    let p = re.pattern();
    let Some(outer) = repeat_at(&re.ast().root, culprit) else {
        return Vec::new();
    };
    let NodeKind::Repeat {
        min,
        max: None,
        greed: Greed::Greedy,
        child,
        ..
    } = &outer.kind
    else {
        return Vec::new();
    };
    if *min > 1 {
        return Vec::new();
    }
    let splice =
        |replacement: String| format!("{}{replacement}{}", &p[..culprit.start], &p[culprit.end..]);
    let optional = if *min == 0 { "?" } else { "" };
    let mut out = Vec::new();
    let body = peel(child);

    // A loop over a loop of one character: one loop.
    if let NodeKind::Repeat {
        min: imin,
        max: None,
        greed: Greed::Greedy,
        child: ichild,
        ..
    } = &peel(match &body.kind {
        NodeKind::Group {
            kind: GroupKind::Capture { .. },
            child,
        } => child,
        _ => body,
    })
    .kind
        && *imin <= 1
        && one_char(ichild)
    {
        let captured = matches!(
            body.kind,
            NodeKind::Group {
                kind: GroupKind::Capture { .. },
                ..
            }
        );
        if captured && *imin == 1 && !has_capture(ichild) {
            // `(a+)+` → `(a+)`, `(a+)*` → `(a+)?`: the one iteration takes the whole run.
            let text = &p[body.span.start..body.span.end];
            out.push(Rewrite {
                pattern: splice(format!("{text}{optional}")),
                note: format!(
                    "`{}` repeats a group that already takes the whole run: `{text}{optional}` matches the same, with one way to split the text",
                    &p[culprit.start..culprit.end]
                ),
                keeps_groups: true,
            });
        } else if !captured && !has_capture(ichild) {
            let unit = &p[ichild.span.start..ichild.span.end];
            let op = star_or_plus((*min).min(*imin));
            out.push(Rewrite {
                pattern: splice(format!("{unit}{op}")),
                note: format!(
                    "a loop of a loop of `{unit}` is one loop: `{unit}{op}` matches the same, with one way to split the text"
                ),
                keeps_groups: true,
            });
        }
    }

    // A loop over branches of one character each (or repeated branches): one class.
    let (alt_holder, alt) = match &body.kind {
        NodeKind::Group {
            kind: GroupKind::Capture { .. },
            child,
        } => (Some(body), peel(child)),
        _ => (None, body),
    };
    if let NodeKind::Alternation(branches) = &alt.kind
        && !branches.iter().any(has_capture)
    {
        let mut distinct: Vec<&str> = Vec::new();
        let mut members: Option<Vec<String>> = Some(Vec::new());
        for b in branches {
            let t = &p[b.span.start..b.span.end];
            if !distinct.contains(&t) {
                distinct.push(t);
                match (
                    &mut members,
                    one_char(b).then(|| class_member(p, b)).flatten(),
                ) {
                    (Some(m), Some(c)) => m.push(c),
                    _ => members = None,
                }
            }
        }
        // The merged body and whether it is one atom (takes the quantifier without a group).
        let merged = if distinct.len() == 1 {
            let only = branches
                .iter()
                .find(|b| &p[b.span.start..b.span.end] == distinct[0]);
            Some((distinct[0].to_string(), only.is_some_and(one_char)))
        } else if let Some(m) = members {
            Some((format!("[{}]", m.concat()), true))
        } else if distinct.len() < branches.len() {
            Some((distinct.join("|"), false))
        } else {
            None
        };
        if let Some((merged, atom)) = merged {
            let inner = &p[alt.span.start..alt.span.end];
            let op = &p[child.span.end..culprit.end];
            let replacement = match alt_holder {
                Some(g) => format!(
                    "{}{merged}{}{op}",
                    &p[g.span.start..alt.span.start],
                    &p[alt.span.end..g.span.end]
                ),
                None if atom => format!("{merged}{op}"),
                None => format!("(?:{merged}){op}"),
            };
            out.push(Rewrite {
                pattern: splice(replacement),
                note: format!(
                    "the branches of `{inner}` match the same characters in more than one way: `{merged}` matches each of them once"
                ),
                keeps_groups: true,
            });
        }
    }

    // A loop over a run and an optional separator the run cannot hold: separate explicitly.
    let seq = match &body.kind {
        NodeKind::Group {
            kind: GroupKind::Capture { .. },
            child,
        } => peel(child),
        _ => body,
    };
    if let NodeKind::Concat(items) = &seq.kind {
        let items: Vec<&Node> = items
            .iter()
            .filter(|n| !matches!(n.kind, NodeKind::Empty))
            .collect();
        if let [run, sep] = items.as_slice()
            && let NodeKind::Repeat {
                min: 1,
                max: None,
                greed: Greed::Greedy,
                child: x,
                ..
            } = &run.kind
            && let NodeKind::Repeat {
                min: 0,
                max: Some(1),
                greed: Greed::Greedy,
                child: y,
                ..
            } = &sep.kind
            && one_char(x)
            && one_char(y)
            && disjoint(re, x, y)
        {
            let xt = &p[x.span.start..x.span.end];
            let yt = &p[y.span.start..y.span.end];
            let xs = xt.to_string();
            let core = format!("{xs}+(?:{yt}{xs}+)*{yt}?");
            let replacement = if *min == 0 {
                format!("(?:{core})?")
            } else {
                format!("(?:{core})")
            };
            let captured = !std::ptr::eq(seq, body);
            out.push(Rewrite {
                pattern: splice(replacement.clone()),
                note: if captured {
                    format!(
                        "runs of `{xt}` with an optional `{yt}` between them can be split in many ways; `{replacement}` separates them explicitly (the group no longer holds the last repetition)"
                    )
                } else {
                    format!(
                        "runs of `{xt}` with an optional `{yt}` between them can be split in many ways; `{replacement}` separates them explicitly"
                    )
                },
                keeps_groups: !has_capture(child),
            });
        }
    }
    out
}

/// Whether two one-character nodes share no character in the pattern's flavor.
fn disjoint(re: &Regex, a: &Node, b: &Node) -> bool {
    let flags = re.flags();
    let (Ok(Some(x)), Ok(Some(y))) = (
        crate::vm::accepted_chars(peel(a), flags, re.flavor(), re.pattern()),
        crate::vm::accepted_chars(peel(b), flags, re.flavor(), re.pattern()),
    ) else {
        return false;
    };
    x.intersect(&y).is_empty()
}
