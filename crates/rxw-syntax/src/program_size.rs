//! Engines that refuse a pattern whose compiled program is too large: Go's `regexp/syntax`
//! (its `calcSize` estimate) and RE2 (its compiled instructions). Asked by the parser once a
//! tree is built, by the flavor's [`ProgramSize`] rule.

use crate::Span;
use crate::ast::{AnchorKind, Class, ClassItem, GroupKind, Node, NodeKind};
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use crate::rules::{ProgramSize, Texts};

/// Refuses `root` when its program passes the flavor's size limit: in the engine's words when
/// the program is surely over, as a construct rxw cannot judge when only RE2's own compiler
/// could tell (rxw bounds RE2's count from below and above; the two meet for patterns
/// without large classes or case folding).
pub(crate) fn check(root: &Node, flavor: Flavor, flags: Flags, pattern: &str) -> Result<(), Error> {
    let rules = flavor.rules();
    let whole = Some(Span::new(0, pattern.len()));
    let too_large = || {
        Error::new(
            ErrorKind::PatternInvalid,
            Texts::fill(rules.texts.pattern_too_large, pattern),
        )
        .with_span_in(pattern, whole)
    };
    match rules.syntax.program_size {
        ProgramSize::Unlimited => Ok(()),
        ProgramSize::GoCalcSize(limit) if go_size(root) > limit => Err(too_large()),
        ProgramSize::GoCalcSize(_) => Ok(()),
        ProgramSize::Re2Instructions(limit) => {
            let folds = flags.ignore_case || pattern.contains("(?");
            let cx = Re2Count { flavor, folds };
            let (low, high) = cx.count(root, 0);
            // The fail and match instructions, and the unanchored search's `.*?` loop (two),
            // which RE2 leaves out of a pattern anchored at the start.
            let anchored = starts_anchored(root);
            let (low, high) = (
                low.saturating_add(if anchored { 2 } else { 4 }),
                high.saturating_add(4),
            );
            if low > limit {
                Err(too_large())
            } else if high <= limit {
                Ok(())
            } else {
                Err(Error::new(
                    ErrorKind::ConstructUnsupported,
                    format!(
                        "rxw cannot tell whether RE2 compiles this pattern: its program has \
                         between {low} and {high} instructions and RE2 refuses more than {limit}"
                    ),
                )
                .with_span_in(pattern, whole))
            }
        }
    }
}

/// Whether every match must start at the start of the text (`^` without `m`, `\A`).
fn starts_anchored(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Anchor { kind, multiline } => {
            matches!(kind, AnchorKind::LineStart) && !multiline
                || matches!(kind, AnchorKind::TextStart)
        }
        NodeKind::Concat(items) => items.first().is_some_and(starts_anchored),
        NodeKind::Group { child, .. } => starts_anchored(child),
        _ => false,
    }
}

/// Counts RE2's instructions for a tree, from below and from above.
struct Re2Count {
    flavor: Flavor,
    /// Case folding may be on somewhere (a literal may then compile to several ranges).
    folds: bool,
}

/// Nesting past this is counted as unbounded from above (RE2 has no nesting limit; rxw's own
/// parser limit keeps real trees far below it).
const DEEPEST: u32 = 2_000;

impl Re2Count {
    fn count(&self, node: &Node, depth: u32) -> (u64, u64) {
        if depth > DEEPEST {
            return (0, u64::MAX);
        }
        let sum = |items: &[Node]| {
            items.iter().fold((0u64, 0u64), |(l, h), n| {
                let (a, b) = self.count(n, depth + 1);
                (l.saturating_add(a), h.saturating_add(b))
            })
        };
        match &node.kind {
            NodeKind::Empty | NodeKind::SetFlags(_) | NodeKind::Comment | NodeKind::Whitespace => {
                (0, 0)
            }
            NodeKind::Anchor { .. } => (0, 1),
            NodeKind::Literal { ch, .. } => {
                let bytes = ch.len_utf8() as u64;
                let high = if !self.folds || !ch.is_alphabetic() {
                    bytes
                } else {
                    // An orbit of up to four members, each a UTF-8 sequence, and the
                    // alternations between them.
                    4 * 4 + 3
                };
                (1, high)
            }
            NodeKind::Concat(items) => sum(items),
            NodeKind::Alternation(branches) => {
                let low = branches
                    .iter()
                    .map(|b| self.count(b, depth + 1).0)
                    .max()
                    .unwrap_or(0);
                let (_, high) = sum(branches);
                (low, high.saturating_add(branches.len() as u64))
            }
            NodeKind::Group { kind, child } => {
                let (l, h) = self.count(child, depth + 1);
                if matches!(kind, GroupKind::Capture { .. }) {
                    (l.saturating_add(2), h.saturating_add(2))
                } else {
                    (l, h)
                }
            }
            NodeKind::Repeat {
                min, max, child, ..
            } => {
                let (l, h) = self.count(child, depth + 1);
                let copies = u64::from(max.unwrap_or(*min).max(*min).max(1));
                match (*min, *max) {
                    (_, Some(0)) => (0, 0),
                    (0, None) | (1, None) | (0, Some(1)) => (l, h.saturating_add(1)),
                    _ => (
                        l.saturating_mul(u64::from(*min).max(1)),
                        h.saturating_mul(copies).saturating_add(copies + 1),
                    ),
                }
            }
            NodeKind::Dot { .. } => (1, 16),
            NodeKind::Perl { negated, .. } => (1, if *negated { 24 } else { 8 }),
            NodeKind::Property { name, negated } => (1, self.ranges_high(name, *negated)),
            NodeKind::Class(class) => (1, self.class_high(class)),
            NodeKind::Backref { .. } => (1, 1),
        }
    }

    /// At most how many instructions a set of ranges compiles to: each UTF-8 sequence its
    /// ranges split into, a byte range per byte and an alternation per sequence (RE2 shares
    /// suffixes, so it has fewer). Twice that under case folding.
    fn ranges(&self, ranges: &[(u32, u32)]) -> u64 {
        let mut total = 0u64;
        for &(lo, hi) in ranges {
            let (Some(lo), Some(hi)) = (char::from_u32(lo), char::from_u32(hi)) else {
                total += 4 * 5;
                continue;
            };
            for seq in regex_syntax::utf8::Utf8Sequences::new(lo, hi) {
                total += seq.len() as u64 + 1;
            }
        }
        if self.folds { total * 2 } else { total }
    }

    fn ranges_high(&self, name: &str, negated: bool) -> u64 {
        let Some(tables) = self.flavor.tables() else {
            return u64::MAX;
        };
        let Some(set) = tables.property(name) else {
            return u64::MAX;
        };
        if negated {
            self.ranges(&complement(set))
        } else {
            self.ranges(set)
        }
    }

    fn class_high(&self, class: &Class) -> u64 {
        let mut total = 0u64;
        let mut items = 0u64;
        for item in &class.items {
            items += 1;
            total = total.saturating_add(match item {
                ClassItem::Char(c, _) => self.ranges(&[(*c as u32, *c as u32)]),
                ClassItem::Range(a, b, _) => self.ranges(&[(*a as u32, *b as u32)]),
                ClassItem::Perl(_, negated, _) => {
                    if *negated {
                        24
                    } else {
                        8
                    }
                }
                ClassItem::Property(name, negated, _) => self.ranges_high(name, *negated),
                ClassItem::Posix(..) => 2 * 8,
                ClassItem::Nested(_) | ClassItem::SetOp(..) | ClassItem::Strings(..) => u64::MAX,
            });
        }
        if class.negated {
            // The complement of n ranges is at most n + 1 ranges, each of at most seven
            // UTF-8 sequences of four bytes.
            total
                .saturating_add(items.saturating_add(1).saturating_mul(7 * 5))
                .saturating_mul(if self.folds { 2 } else { 1 })
        } else {
            total
        }
    }
}

/// The code points not in `set` (sorted, disjoint inclusive ranges).
fn complement(set: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::with_capacity(set.len() + 1);
    let mut next = 0u32;
    for &(lo, hi) in set {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi.saturating_add(1);
    }
    if next <= 0x10FFFF {
        out.push((next, 0x10FFFF));
    }
    out
}

/// The size of the program Go would compile the tree to, as `regexp/syntax`'s `calcSize`
/// estimates it (a star counts 2 and its body, a counted repetition its largest count of
/// copies). Called on trees Go's nesting limit already bounds, so the recursion is shallow.
fn go_size(node: &Node) -> u64 {
    let size = match &node.kind {
        NodeKind::Literal { .. } => 1,
        NodeKind::Concat(items) => items.iter().map(go_size).sum(),
        NodeKind::Alternation(branches) => {
            branches.iter().map(go_size).sum::<u64>() + branches.len().saturating_sub(1) as u64
        }
        NodeKind::Group { kind, child } => {
            let inner = go_size(child);
            if matches!(kind, GroupKind::Capture { .. }) {
                2 + inner
            } else {
                inner
            }
        }
        NodeKind::Repeat {
            min, max, child, ..
        } => {
            let sub = go_size(child);
            match (*min, *max) {
                (0, None) => 2 + sub,
                (m, None) => 1 + u64::from(m) * sub,
                (0, Some(1)) => 1 + sub,
                (m, Some(n)) => u64::from(n) * sub + u64::from(n - m),
            }
        }
        _ => 0,
    };
    size.max(1)
}
