//! The fewest characters a match needs, as CPython's `sre` works it out (`getwidth` in
//! `sre_parse`/`re._parser`) and records in the pattern's `INFO` block, where its search reads
//! it: a text with fewer characters left is not searched, so `.{4294967294}` on a short text
//! is answered at once.

use rxw_syntax::ast::{Ast, GroupKind, Node, NodeKind};
use rxw_syntax::flavor::PyVersion;
use std::collections::HashMap;

/// Deeper trees are not measured: their width counts as 0 (no check), never too much.
const MAX_DEPTH: usize = 400;

/// The pattern's least width as sre's `INFO` block holds it: each character, set or dot 1,
/// a repeat its minimum times its body's, an alternation its narrowest branch, a group its
/// body, a backreference its group's least width, a conditional the narrower of its branches
/// (0 without a "no" branch), look-arounds and anchors 0. Before 3.11 sre caps it at
/// `MAXREPEAT - 1` (2³² − 2); from 3.11 the compiler writes at most `MAXCODE` (2³² − 1).
pub(super) fn sre_min_width(ast: &Ast, version: PyVersion) -> u64 {
    let mut groups = HashMap::new();
    let lo = width(&ast.root, &mut groups, 0);
    let cap = if version < PyVersion::V3_11 {
        u64::from(u32::MAX) - 1
    } else {
        u64::from(u32::MAX)
    };
    lo.min(cap)
}

fn width(node: &Node, groups: &mut HashMap<u32, u64>, depth: usize) -> u64 {
    if depth > MAX_DEPTH {
        return 0;
    }
    let d = depth + 1;
    match &node.kind {
        NodeKind::Empty
        | NodeKind::Comment
        | NodeKind::Whitespace
        | NodeKind::SetFlags(_)
        | NodeKind::Anchor { .. } => 0,
        NodeKind::Literal { .. }
        | NodeKind::Dot { .. }
        | NodeKind::Perl { .. }
        | NodeKind::Property { .. }
        | NodeKind::Class(_) => 1,
        NodeKind::Concat(items) => items
            .iter()
            .fold(0u64, |acc, n| acc.saturating_add(width(n, groups, d))),
        NodeKind::Alternation(branches) => branches
            .iter()
            .map(|b| width(b, groups, d))
            .min()
            .unwrap_or(0),
        NodeKind::Repeat { min, child, .. } => {
            width(child, groups, d).saturating_mul(u64::from(*min))
        }
        NodeKind::Backref { index, .. } => groups.get(index).copied().unwrap_or(0),
        NodeKind::Group { kind, child } => match kind {
            GroupKind::Lookahead
            | GroupKind::NegativeLookahead
            | GroupKind::Lookbehind
            | GroupKind::NegativeLookbehind => 0,
            GroupKind::Capture { index, .. } => {
                let w = width(child, groups, d);
                groups.insert(*index, w);
                w
            }
            GroupKind::Conditional { .. } => match &child.kind {
                NodeKind::Alternation(b) if b.len() == 2 => {
                    width(&b[0], groups, d).min(width(&b[1], groups, d))
                }
                _ => {
                    width(child, groups, d);
                    0
                }
            },
            _ => width(child, groups, d),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxw_syntax::flavor::{Flags, Flavor};

    fn min(p: &str) -> u64 {
        let ast = rxw_syntax::parse::parse(p, Flavor::PYTHON, Flags::default()).unwrap();
        sre_min_width(&ast, PyVersion::V3_11)
    }

    #[test]
    fn widths_are_sres() {
        assert_eq!(min("abc"), 3);
        assert_eq!(min("a|bc"), 1);
        assert_eq!(min("(ab){3,}x?"), 6);
        assert_eq!(min(r"(?=abc)\bx$"), 1);
        assert_eq!(min(r"(a+)b\1"), 3);
        assert_eq!(min(r"(a)?(?(1)bc|d)"), 1);
        assert_eq!(min(r"(a)?(?(1)bc)"), 0);
        assert_eq!(min(".{4294967294}"), 4294967294);
        assert_eq!(min("(?:.{4294967294}){3}"), 4294967295);
    }
}
