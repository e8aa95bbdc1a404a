//! CPython 3.8 and 3.9 refuse some valid conditionals with "invalid SRE code".
//!
//! Their code validator cannot tell a conditional without a "no" branch from one with it by
//! its shape, so it looks for the `JUMP` opcode (16 in those releases) in the word two before
//! the end of the "yes" branch, where a "no" branch's jump would be. When that word is a value
//! that happens to be 16 (the character U+0010 in `\x10?`, `[\x05\x10]`, `(?=\x10)`), the
//! validator takes the "yes" branch as cut short and refuses the pattern. 3.10 validates the
//! branch by its real length. This module works out the last two words of sre's code for a
//! piece of pattern, as `sre_compile` emits it in those releases, far enough to see that value.

use crate::ast::{Class, ClassItem, GroupKind, Node, NodeKind};

/// The opcode of `JUMP` in CPython 3.8 and 3.9.
const JUMP: u32 = 16;

/// One word of sre code: a value rxw follows (a character, a count) or one that is never
/// [`JUMP`] (an opcode or category other than it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Word {
    Value(u32),
    Other,
}

/// The first conditional without a "no" branch whose "yes" branch 3.8 and 3.9 refuse, if any.
pub(crate) fn refused_conditional(root: &Node) -> Option<&Node> {
    let mut found = None;
    root.walk(|n, _| {
        if found.is_some() {
            return;
        }
        if let NodeKind::Group {
            kind: GroupKind::Conditional { .. },
            child,
        } = &n.kind
        {
            let has_no = matches!(&child.kind, NodeKind::Alternation(b) if b.len() == 2 && !items(&b[1]).is_empty());
            let yes: &Node = match &child.kind {
                NodeKind::Alternation(b) if b.len() == 2 => &b[0],
                _ => child,
            };
            // The "yes" code is preceded by its skip word (its length plus one, never 16 when
            // the code is one word long).
            if !has_no && last_two(&items(yes))[0] == Some(Word::Value(JUMP)) {
                found = Some(n);
            }
        }
    });
    found
}

/// A piece's items as sre's parser lists them.
fn items(node: &Node) -> Vec<&Node> {
    let item = |n: &&Node| {
        !matches!(
            n.kind,
            NodeKind::Empty | NodeKind::Comment | NodeKind::Whitespace | NodeKind::SetFlags(_)
        )
    };
    match &node.kind {
        NodeKind::Concat(v) => v.iter().filter(item).collect(),
        _ => std::iter::once(node).filter(item).collect(),
    }
}

/// The last two words of the code of `seq` in order ([second to last, last]); `None` where
/// the code is shorter.
fn last_two(seq: &[&Node]) -> [Option<Word>; 2] {
    let mut words: Vec<Word> = Vec::new();
    for n in seq.iter().rev() {
        let tail = node_tail(n);
        for w in tail.iter().rev() {
            words.push(*w);
            if words.len() == 2 {
                return [Some(words[1]), Some(words[0])];
            }
        }
    }
    [None, words.first().copied()]
}

/// The last word of the code of `seq`, if it has code.
fn last_word(seq: &[&Node]) -> Option<Word> {
    last_two(seq)[1]
}

/// The last (up to) two words of a node's code, in order; fewer only when its whole code is
/// that short.
fn node_tail(n: &Node) -> Vec<Word> {
    use Word::{Other, Value};
    match &n.kind {
        NodeKind::Empty | NodeKind::Comment | NodeKind::Whitespace | NodeKind::SetFlags(_) => {
            vec![]
        }
        // LITERAL c (under IGNORECASE the lower case, which is c itself for U+0010).
        NodeKind::Literal { ch, .. } => vec![Other, Value(*ch as u32)],
        // ANY or ANY_ALL: one word.
        NodeKind::Dot { .. } => vec![Other],
        // IN <skip> CATEGORY <code> FAILURE.
        NodeKind::Perl { .. } => vec![Other, Value(0)],
        NodeKind::Property { .. } | NodeKind::Anchor { .. } => vec![Other, Other],
        NodeKind::Class(c) => class_tail(c),
        NodeKind::Backref { index, .. } => vec![Other, Value(index.saturating_sub(1))],
        NodeKind::Concat(_) => {
            let seq = items(n);
            match last_two(&seq) {
                [Some(a), Some(b)] => vec![a, b],
                [_, Some(b)] => vec![b],
                _ => vec![],
            }
        }
        NodeKind::Alternation(branches) => alternation_tail(branches),
        // REPEAT_ONE … <item> SUCCESS, or REPEAT … <item> MAX_UNTIL/MIN_UNTIL.
        NodeKind::Repeat { child, .. } => {
            vec![last_word(&items(child)).unwrap_or(Other), Other]
        }
        NodeKind::Group { kind, child } => match kind {
            // … MARK <2k+1>: an odd mark.
            GroupKind::Capture { .. } => vec![Other, Other],
            GroupKind::NonCapture | GroupKind::Flags(_) | GroupKind::Atomic => node_tail(child),
            // ASSERT <skip> <back> <body> SUCCESS.
            GroupKind::Lookahead
            | GroupKind::NegativeLookahead
            | GroupKind::Lookbehind
            | GroupKind::NegativeLookbehind => {
                vec![last_word(&items(child)).unwrap_or(Other), Other]
            }
            GroupKind::Conditional { .. } => match &child.kind {
                // … JUMP <skip> <no>: the "no" branch ends it.
                NodeKind::Alternation(b) if b.len() == 2 && !items(&b[1]).is_empty() => {
                    match last_two(&items(&b[1])) {
                        [Some(a), Some(z)] => vec![a, z],
                        [_, Some(z)] => vec![Value(JUMP), z],
                        _ => vec![Other, Other],
                    }
                }
                NodeKind::Alternation(b) if b.len() == 2 => yes_tail(&b[0]),
                _ => yes_tail(child),
            },
        },
    }
}

/// GROUPREF_EXISTS <group> <skip> <yes>.
fn yes_tail(yes: &Node) -> Vec<Word> {
    let seq = items(yes);
    let len = seq.len();
    match last_two(&seq) {
        [Some(a), Some(b)] => vec![a, b],
        [_, Some(b)] => vec![Word::Value(2), b],
        _ if len == 0 => vec![Word::Other, Word::Value(1)],
        _ => vec![Word::Other, Word::Other],
    }
}

/// An item of a set as sre's parser lists it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SetItem {
    Literal(u32),
    Range(u32, u32),
    Category,
}

/// An alternation: one set when every branch (after a shared prefix) is one character or one
/// class that is not negated, else BRANCH … JUMP <2> FAILURE.
fn alternation_tail(branches: &[Node]) -> Vec<Word> {
    let lists: Vec<Vec<&Node>> = branches.iter().map(items).collect();
    let Some(first) = lists.first() else {
        return vec![Word::Other, Word::Other];
    };
    let mut prefix = 0;
    while lists
        .iter()
        .all(|b| b.len() > prefix && same_atom(b[prefix], first[prefix]))
    {
        prefix += 1;
    }
    let mut set = Vec::new();
    for b in &lists {
        if b.len() != prefix + 1 {
            return vec![Word::Value(2), Word::Value(0)];
        }
        match &b[prefix].kind {
            NodeKind::Literal { ch, .. } => set.push(SetItem::Literal(*ch as u32)),
            NodeKind::Perl { .. } => set.push(SetItem::Category),
            NodeKind::Class(c) if !c.negated => match class_items(c) {
                Some(items) => set.extend(items),
                None => return vec![Word::Other, Word::Value(0)],
            },
            _ => return vec![Word::Value(2), Word::Value(0)],
        }
    }
    let mut unique = Vec::new();
    for i in set {
        if !unique.contains(&i) {
            unique.push(i);
        }
    }
    vec![set_last_word(&unique, false), Word::Value(0)]
}

/// Whether sre's parser takes two items as the same (the shared prefix it hoists).
fn same_atom(a: &Node, b: &Node) -> bool {
    match (&a.kind, &b.kind) {
        (NodeKind::Literal { ch: x, .. }, NodeKind::Literal { ch: y, .. }) => x == y,
        (NodeKind::Dot { dotall: x }, NodeKind::Dot { dotall: y }) => x == y,
        (NodeKind::Class(x), NodeKind::Class(y)) => x.negated == y.negated && x.items == y.items,
        (NodeKind::Backref { index: x, .. }, NodeKind::Backref { index: y, .. }) => x == y,
        _ => false,
    }
}

/// A class's items as sre's parser lists them, `None` for what this model does not follow.
fn class_items(c: &Class) -> Option<Vec<SetItem>> {
    let mut out = Vec::new();
    for item in &c.items {
        let i = match item {
            ClassItem::Char(ch, _) => SetItem::Literal(*ch as u32),
            ClassItem::Range(lo, hi, _) => SetItem::Range(*lo as u32, *hi as u32),
            ClassItem::Perl(..) => SetItem::Category,
            _ => return None,
        };
        if !out.contains(&i) {
            out.push(i);
        }
    }
    Some(out)
}

/// A class: LITERAL c or NOT_LITERAL c when it holds one character, else IN <skip> <items>
/// FAILURE.
fn class_tail(c: &Class) -> Vec<Word> {
    match class_items(c) {
        Some(items) => match items.as_slice() {
            [SetItem::Literal(ch)] => vec![Word::Other, Word::Value(*ch)],
            _ => vec![set_last_word(&items, c.negated), Word::Value(0)],
        },
        None => vec![Word::Other, Word::Value(0)],
    }
}

/// The last word of a set's items after `_optimize_charset`: at most two runs of characters
/// become LITERAL and RANGE items (kept only when shorter than the parsed list), more runs
/// below U+0100 a 256-bit map; categories follow.
fn set_last_word(items: &[SetItem], negated: bool) -> Word {
    let mut chars = std::collections::BTreeSet::new();
    let mut categories = 0;
    for i in items {
        match *i {
            SetItem::Literal(c) => {
                chars.insert(c);
            }
            SetItem::Range(lo, hi) => {
                if hi >= 0x10000 {
                    return Word::Other;
                }
                chars.extend(lo..=hi);
            }
            SetItem::Category => categories += 1,
        }
    }
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for c in chars.iter().copied() {
        match runs.last_mut() {
            Some((_, hi)) if *hi + 1 == c => *hi = c,
            _ => runs.push((c, c)),
        }
    }
    if chars.iter().any(|&c| c >= 0x10000) {
        return Word::Other;
    }
    if runs.len() <= 2 {
        // NEGATE first, the runs, then the categories; kept when shorter than the parsed list.
        let optimized = usize::from(negated) + runs.len() + categories;
        let parsed = usize::from(negated) + items.len();
        let last = if optimized < parsed {
            match (categories, runs.last()) {
                (0, Some(&(_, hi))) => Some(SetItem::Literal(hi)),
                _ => None,
            }
        } else {
            items.last().copied()
        };
        return match last {
            Some(SetItem::Literal(c) | SetItem::Range(_, c)) => Word::Value(c),
            _ => Word::Other,
        };
    }
    if chars.iter().any(|&c| c >= 0x100) {
        // A BIGCHARSET, whose last word this model does not follow.
        return Word::Other;
    }
    if categories > 0 {
        return Word::Other;
    }
    // CHARSET: eight 32-bit words, the last for U+00E0 … U+00FF.
    Word::Value(
        chars
            .iter()
            .filter(|&&c| c >= 0xE0)
            .fold(0u32, |w, &c| w | 1 << (c - 0xE0)),
    )
}

#[cfg(test)]
mod tests {
    use crate::flavor::{Flags, Flavor, PyVersion};
    use crate::parse::parse;

    fn refused(p: &str) -> bool {
        let ast = parse(p, Flavor::Python(PyVersion::V3_11), Flags::default()).unwrap();
        super::refused_conditional(&ast.root).is_some()
    }

    #[test]
    fn regression_3_8_and_3_9_refuse_a_yes_branch_their_validator_misreads() {
        // Regression: every release accepted `()(?(1)\x10?)`; 3.8 and 3.9 refuse it.
        for v in PyVersion::ALL {
            let got = parse(r"()(?(1)\x10?)", Flavor::Python(v), Flags::default());
            if v <= PyVersion::V3_9 {
                let e = got.unwrap_err();
                assert_eq!(e.message, "invalid SRE code");
                assert_eq!(e.span.map(|s| (s.start, s.end)), Some((2, 13)));
            } else {
                assert!(got.is_ok(), "python@{v} accepts it");
            }
        }
    }

    #[test]
    fn the_word_two_before_the_end_of_the_yes_branch_decides() {
        // Each answer is what CPython 3.8 and 3.9 do with the pattern.
        for p in [
            r"()(?(1)\x10?)",
            r"()(?(1)\x10*)",
            r"()(?(1)\x10+?)",
            r"()(?(1)[\x05\x10])",
            r"()(?(1)\x10.)",
            r"()(?(1)(?:a\x10)*)",
            r"()(?(1)[\x01-\x10])",
            r"()(?(1)(?=\x10))",
            r"()(?(1)\x10{2})",
            r"()(?(1)(?:\x10?))",
            r"()(?(1)\x10??)",
            r"()b(?(1)\x10?)",
            r"()(?(1)[\x01\x03\xe4])",
        ] {
            assert!(refused(p), "{p} is refused");
        }
        for p in [
            r"()(?(1)\x10$)",
            r"()(?(1)\x10?|b)",
            r"()(?(1)a\x10)",
            r"()(?(1)\x10)",
            r"()(?(1)\x10\w)",
            r"()(?(1)x{16})",
            r"()(?(1)(\x10?))",
            r"()(?(1)\x10?\x10)",
            r"()(?(1)\x11?)",
            r"()(?(1)[\x10\x05])",
            r"()(?(1)[\x01\x03\xe5])",
            r"()(?(1)[\x01\x03\xe4\xe5])",
            r"()(?(1)(?:\x10|\x12))",
            r"()(?(1)(?:a|[\x05\x10]))",
        ] {
            assert!(!refused(p), "{p} is accepted");
        }
    }
}
