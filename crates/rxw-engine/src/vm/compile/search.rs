//! What the search knows before it runs the program: whether every match starts at the
//! text's start, the characters and UTF-8 bytes a match can start with, CPython's search
//! filter, and what may follow a single-character loop (its guard).

use super::super::charset::{self, CharSet, Fold};
use super::super::{Assertion, Guard, Inst, Test};
use super::{Compiler, apply};
use rxw_syntax::ast::*;
use rxw_syntax::flavor::{Flags, Flavor};

/// Whether every match must start at the start of the text.
pub(super) fn starts_anchored(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Anchor {
            kind: AnchorKind::TextStart,
            ..
        } => true,
        NodeKind::Anchor {
            kind: AnchorKind::LineStart,
            multiline: false,
        } => true,
        NodeKind::Concat(items) => items
            .iter()
            .find(|n| !matches!(n.kind, NodeKind::Comment | NodeKind::Whitespace))
            .is_some_and(starts_anchored),
        NodeKind::Group {
            kind: GroupKind::Capture { .. } | GroupKind::NonCapture | GroupKind::Atomic,
            child,
        } => starts_anchored(child),
        NodeKind::Alternation(b) => b.iter().all(starts_anchored),
        _ => false,
    }
}

/// CPython's search filter where it differs from the pattern's own first character: sre
/// compiles the set its search tests before trying a position (`_compile_info`'s charset
/// prefix) with the pattern's global flags, even when the first item sits in a group whose
/// scoped flags say otherwise. So under the `a` flag, `(?u:\w)x` never starts a match on `é`
/// (the filter is ASCII `\w`), although the item itself is Unicode `\w`. `None` when there is
/// no such filter or it accepts what the first item does.
///
/// sre builds the filter when the pattern cannot match empty and has no literal prefix, from
/// its first item, looking through groups: a shorthand or a bracketed class (not a case-
/// insensitive one holding letters).
pub(crate) fn python_search_prefix(ast: &Ast, flavor: Flavor) -> Option<CharSet> {
    let Flavor::Python(_) = flavor else {
        return None;
    };
    if ast.root.nullable() {
        return None;
    }
    let global = ast.flags;
    let mut flags = global;
    let mut node = &ast.root;
    let first = loop {
        match &node.kind {
            NodeKind::Concat(items) => {
                node = items.iter().find(|n| {
                    !matches!(
                        n.kind,
                        NodeKind::Comment | NodeKind::Whitespace | NodeKind::SetFlags(_)
                    )
                })?;
            }
            NodeKind::Group {
                kind: GroupKind::Capture { .. } | GroupKind::NonCapture,
                child,
            } => node = child,
            NodeKind::Group {
                kind: GroupKind::Flags(change),
                child,
            } => {
                flags = apply(flags, change);
                node = child;
            }
            _ => break node,
        }
    };
    if flags.ascii == global.ascii {
        return None;
    }
    let c = Compiler::new("", &[], flavor, false);
    // The filter's categories read with the global flags; its other members as written.
    let perl = |kind: PerlKind, negated: bool| {
        let s = c.perl(kind, global);
        if negated { s.negate() } else { s }
    };
    match &first.kind {
        NodeKind::Perl { kind, negated } => Some(perl(*kind, *negated)),
        NodeKind::Class(class) => {
            if !class.items.iter().any(|i| matches!(i, ClassItem::Perl(..))) {
                return None;
            }
            let mut set = CharSet::empty();
            for item in &class.items {
                set = set.union(&match item {
                    ClassItem::Perl(kind, negated, _) => perl(*kind, *negated),
                    ClassItem::Char(..) | ClassItem::Range(..) if flags.ignore_case => return None,
                    ClassItem::Char(ch, _) => CharSet::from_chars([*ch as u32]),
                    ClassItem::Range(a, b, _) => CharSet::from_ranges(vec![(*a as u32, *b as u32)]),
                    _ => return None,
                });
            }
            Some(if class.negated { set.negate() } else { set })
        }
        _ => None,
    }
}

/// The characters a match can start with, or `None` when it may be empty or start with
/// anything. Case-insensitive and look-around starts give up (`None`).
pub(super) fn first_set(c: &Compiler, node: &Node, flags: Flags) -> Option<CharSet> {
    first_set_at(c, node, flags, 0)
}

fn first_set_at(c: &Compiler, node: &Node, flags: Flags, depth: usize) -> Option<CharSet> {
    if depth > 64 {
        return None;
    }
    match &node.kind {
        NodeKind::Literal { ch, .. } if !flags.ignore_case => {
            Some(CharSet::from_chars([*ch as u32]))
        }
        NodeKind::Perl { kind, negated } if !flags.ignore_case => {
            let s = c.perl(*kind, flags);
            Some(if *negated { s.negate() } else { s })
        }
        NodeKind::Class(class)
            if !flags.ignore_case
                && class
                    .items
                    .iter()
                    .all(|i| matches!(i, ClassItem::Char(..) | ClassItem::Range(..))) =>
        {
            let s = CharSet::from_ranges(
                class
                    .items
                    .iter()
                    .map(|i| match i {
                        ClassItem::Char(ch, _) => (*ch as u32, *ch as u32),
                        ClassItem::Range(a, b, _) => (*a as u32, *b as u32),
                        _ => unreachable!(),
                    })
                    .collect(),
            );
            Some(if class.negated { s.negate() } else { s })
        }
        NodeKind::Group {
            kind: GroupKind::Capture { .. } | GroupKind::NonCapture | GroupKind::Atomic,
            child,
        } => first_set_at(c, child, flags, depth + 1),
        NodeKind::Group {
            kind: GroupKind::Flags(ch),
            child,
        } => first_set_at(c, child, apply(flags, ch), depth + 1),
        NodeKind::Repeat { min, child, .. } if *min > 0 => first_set_at(c, child, flags, depth + 1),
        NodeKind::Alternation(branches) => {
            let mut acc = CharSet::empty();
            for b in branches {
                acc = acc.union(&first_set_at(c, b, flags, depth + 1)?);
            }
            Some(acc)
        }
        NodeKind::Concat(items) => {
            let mut flags = flags;
            for n in items {
                match &n.kind {
                    NodeKind::Comment | NodeKind::Whitespace => continue,
                    NodeKind::SetFlags(ch) => {
                        flags = apply(flags, ch);
                        continue;
                    }
                    _ => return first_set_at(c, n, flags, depth + 1),
                }
            }
            None
        }
        _ => None,
    }
}

/// What the program can consume first from `pc` on (a superset), following jumps, splits,
/// saves and zero-width instructions; `None` when it cannot tell (a loop, a backreference, the
/// end of the match).
pub(super) fn continuation_first(
    insts: &[Inst],
    sets: &[CharSet],
    pc: u32,
) -> Option<(Guard, CharSet)> {
    let mut g = Guard {
        bytes: [false; 256],
        at_end: false,
        disjoint: false,
    };
    let mut chars = CharSet::empty();
    let mut todo = vec![pc];
    let mut seen = std::collections::HashSet::new();
    while let Some(pc) = todo.pop() {
        if !seen.insert(pc) || seen.len() > 64 {
            if seen.len() > 64 {
                return None;
            }
            continue;
        }
        match insts.get(pc as usize)? {
            Inst::Consume { test, back: false } => add_test(&mut g, &mut chars, test, sets)?,
            Inst::RepeatOne {
                test,
                min,
                back: false,
                ..
            } => {
                add_test(&mut g, &mut chars, test, sets)?;
                if *min == 0 {
                    todo.push(pc + 1);
                }
            }
            // (An atomic group's end is not followed: the group commits to its first way
            // there, whatever comes after.)
            Inst::Save(_) | Inst::ClearSlots { .. } | Inst::AtomicStart => todo.push(pc + 1),
            Inst::Jump(t) => todo.push(*t),
            Inst::Split { first, second } => {
                todo.push(*first);
                todo.push(*second);
            }
            Inst::Assert(Assertion::TextEnd) => g.at_end = true,
            Inst::Assert(Assertion::EndOrFinalNewline) => {
                g.at_end = true;
                g.bytes[0x0A] = true;
                chars = chars.union(&CharSet::from_chars([0x0A]));
            }
            // Other assertions consume nothing: what follows them decides (a superset).
            Inst::Assert(_) => todo.push(pc + 1),
            // A positive look-ahead's body must match here: its first characters bound the
            // continuation's.
            Inst::LookStart {
                negative: false,
                back_chars: 0,
                ..
            } => todo.push(pc + 1),
            // A negative look-ahead or a look-behind constrains nothing ahead.
            Inst::LookStart { next, .. } => todo.push(*next),
            _ => return None,
        }
    }
    Some((g, chars))
}

/// The characters a test accepts, when it compares without folding.
pub(super) fn test_chars(test: &Test, sets: &[CharSet]) -> Option<CharSet> {
    match test {
        Test::Char(c) => Some(CharSet::from_chars([*c])),
        Test::Set {
            set,
            fold: Fold::None,
            negated,
        } => {
            let s = &sets[*set as usize];
            Some(if *negated { s.negate() } else { s.clone() })
        }
        _ => None,
    }
}

/// Adds a test's characters to a guard (first bytes and the character set).
fn add_test(g: &mut Guard, chars: &mut CharSet, test: &Test, sets: &[CharSet]) -> Option<()> {
    let set = test_chars(test, sets)?;
    let t = byte_table(&set);
    for (i, b) in t.iter().enumerate() {
        g.bytes[i] |= *b;
    }
    *chars = chars.union(&set);
    Some(())
}

/// The UTF-8 first bytes of the characters in a set (a superset for multi-byte ranges).
///
/// Only bytes that can start a character are ever marked: a range that runs from ASCII into
/// the multi-byte characters spans the continuation bytes `0x80..=0xBF` in byte order, and a
/// search that skips to a marked byte must land on a character boundary, never inside one.
pub(super) fn byte_table(set: &CharSet) -> Box<[bool; 256]> {
    let mut t = Box::new([false; 256]);
    for &(lo, hi) in set.ranges() {
        let lead = |c: u32| -> u8 {
            match c {
                0..=0x7F => c as u8,
                0x80..=0x7FF => 0xC0 | (c >> 6) as u8,
                0x800..=0xFFFF => 0xE0 | (c >> 12) as u8,
                _ => 0xF0 | (c >> 18) as u8,
            }
        };
        let (a, b) = (lead(lo), lead(hi.min(charset::MAX_CP)));
        for x in (a..=b).filter(|&x| is_lead_byte(x)) {
            t[x as usize] = true;
        }
    }
    t
}

/// Whether `b` can be the first byte of a character in UTF-8 (ASCII or a multi-byte lead).
fn is_lead_byte(b: u8) -> bool {
    b < 0x80 || (0xC2..=0xF4).contains(&b)
}
