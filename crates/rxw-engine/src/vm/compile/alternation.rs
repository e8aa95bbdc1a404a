//! Alternations, and sre's rewrites of them: a prefix every branch shares hoisted out, an
//! alternation of single characters made one set (which tells in the groups before CPython
//! 3.11).

use super::super::charset::{CharSet, Fold};
use super::super::{Inst, Test};
use super::Compiler;
use rxw_syntax::Span;
use rxw_syntax::ast::*;
use rxw_syntax::error::Error;
use rxw_syntax::flavor::Flags;
use rxw_syntax::rules::Rewrites;

impl Compiler<'_> {
    pub(super) fn alternation(
        &mut self,
        branches: &[Node],
        flags: Flags,
        back: bool,
        span: Span,
        depth: usize,
    ) -> Result<(), Error> {
        let mut jumps = Vec::new();
        for (i, b) in branches.iter().enumerate() {
            if i + 1 < branches.len() {
                let split = self.push(
                    Inst::Split {
                        first: 0,
                        second: 0,
                    },
                    span,
                );
                if self.repeat_depth > 0 {
                    self.mark_restoring.push(split);
                }
                let first = self.pc();
                self.node(b, flags, back, depth + 1)?;
                jumps.push(self.push(Inst::Jump(0), span));
                let second = self.pc();
                self.insts[split as usize] = Inst::Split { first, second };
            } else {
                self.node(b, flags, back, depth + 1)?;
            }
        }
        let end = self.pc();
        for j in jumps {
            self.insts[j as usize] = Inst::Jump(end);
        }
        Ok(())
    }

    /// sre's rewrites of the pattern ([`Rewrites::Sre`]): the matcher runs what CPython runs.
    pub(super) fn sre_rewrites(&self) -> bool {
        self.flavor.rules().rewrites == Rewrites::Sre
    }

    /// An alternation as sre's parser rewrites it ([`sre_alternation`]): the shared leading
    /// items once, then one set, or the branches that are left (an empty one for a branch the
    /// prefix took whole).
    pub(super) fn sre_alternation(
        &mut self,
        branches: &[Node],
        flags: Flags,
        back: bool,
        span: Span,
        depth: usize,
    ) -> Result<(), Error> {
        let rewrite = sre_alternation(branches);
        if rewrite.prefix == 0 && !rewrite.set {
            return self.alternation(branches, flags, back, span, depth);
        }
        for item in &sre_items(&branches[0])[..rewrite.prefix] {
            self.node(item, flags, back, depth + 1)?;
        }
        if rewrite.set {
            let test = self.sre_set_test(branches, rewrite.prefix, flags)?;
            self.push(Inst::Consume { test, back }, span);
            return Ok(());
        }
        let rests: Vec<Node> = branches
            .iter()
            .map(|b| {
                let rest: Vec<Node> = sre_items(b)[rewrite.prefix..]
                    .iter()
                    .map(|n| (*n).clone())
                    .collect();
                let at = rest.first().map_or(b.span.end, |n| n.span.start);
                Node {
                    kind: if rest.is_empty() {
                        NodeKind::Empty
                    } else {
                        NodeKind::Concat(rest)
                    },
                    span: Span::new(at, b.span.end),
                }
            })
            .collect();
        self.alternation(&rests, flags, back, span, depth)
    }

    /// The one test of an alternation [`sre_set_alternation`] turns into a set: the union of
    /// the characters each branch's last item accepts.
    pub(super) fn sre_set_test(
        &mut self,
        branches: &[Node],
        prefix: usize,
        flags: Flags,
    ) -> Result<Test, Error> {
        let mut union = CharSet::empty();
        for b in branches {
            let item = sre_items(b)[prefix];
            let accepted = match self.single_char_test(item, flags)? {
                Some(Test::Char(c)) => CharSet::from_chars([c]),
                Some(Test::Set { set, fold, negated }) => {
                    let accepted = fold.preimage(&self.sets[set as usize]);
                    if negated { accepted.negate() } else { accepted }
                }
                _ => unreachable!("a literal or a class"),
            };
            union = union.union(&accepted);
        }
        let set = self.add_set(union);
        Ok(Test::Set {
            set,
            fold: Fold::None,
            negated: false,
        })
    }
}

/// A branch's items as sre's parser lists them (comments, `x`-mode space and flag settings
/// are not items).
pub(super) fn sre_items(node: &Node) -> Vec<&Node> {
    let item = |n: &&Node| {
        !matches!(
            n.kind,
            NodeKind::Empty | NodeKind::Comment | NodeKind::Whitespace | NodeKind::SetFlags(_)
        )
    };
    match &node.kind {
        NodeKind::Concat(items) => items.iter().filter(item).collect(),
        _ => std::iter::once(node).filter(item).collect(),
    }
}

/// An item as sre's parser represents it, for the comparisons its rewrites make: two items
/// are the same when their keys are equal. `[a]` is the literal `a` and `[^a]` its negation,
/// `[\d]` is `\d`; a group, a repeat or a look-around has no key (sre's tuple holds a fresh
/// subpattern, never equal to another).
#[derive(PartialEq, Eq)]
enum SreAtom {
    Literal(char),
    NotLiteral(char),
    /// A set (`IN`): its members in source order, and whether it starts with `NEGATE`.
    In(Vec<SreMember>, bool),
    Any(bool),
    At(AnchorKind),
    GroupRef(u32),
}

#[derive(PartialEq, Eq)]
enum SreMember {
    Literal(char),
    Range(char, char),
    Category(PerlKind, bool),
}

fn sre_atom(node: &Node) -> Option<SreAtom> {
    Some(match &node.kind {
        NodeKind::Literal { ch, .. } => SreAtom::Literal(*ch),
        NodeKind::Dot { dotall } => SreAtom::Any(*dotall),
        NodeKind::Perl { kind, negated } => {
            SreAtom::In(vec![SreMember::Category(*kind, *negated)], false)
        }
        NodeKind::Anchor { kind, .. } => SreAtom::At(*kind),
        NodeKind::Backref { index, .. } => SreAtom::GroupRef(*index),
        NodeKind::Class(class) => {
            let members = class
                .items
                .iter()
                .map(|item| match item {
                    ClassItem::Char(c, _) => Some(SreMember::Literal(*c)),
                    ClassItem::Range(a, b, _) => Some(SreMember::Range(*a, *b)),
                    ClassItem::Perl(kind, negated, _) => Some(SreMember::Category(*kind, *negated)),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?;
            match members.as_slice() {
                [SreMember::Literal(c)] if class.negated => SreAtom::NotLiteral(*c),
                [SreMember::Literal(c)] => SreAtom::Literal(*c),
                _ => SreAtom::In(members, class.negated),
            }
        }
        _ => return None,
    })
}

/// Whether sre's parser takes two items as the same (it hoists a prefix they share out of
/// the branches): equal characters, sets, anchors or references.
fn same_sre_atom(a: &Node, b: &Node) -> bool {
    match (sre_atom(a), sre_atom(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// How sre's parser rewrites an alternation (`_parse_sub`, the same in every release): the
/// items every branch starts with are hoisted out, one after another while each branch has
/// one left and all are the same (`ab|ac` is `a(?:b|c)`, `a|ab` is `a(?:|b)`); then, when
/// every branch is one character or one set that does not start with a negation (`c|a`,
/// `\w|_`, `a|[ab]`, but not `[^a]` or `.`), the branches become one set. Before 3.11 the
/// set also tells in the groups, since a branch puts `lastmark` back and a set does not.
pub(super) struct SreAlternation {
    /// How many leading items every branch shares.
    pub prefix: usize,
    /// The branches after the prefix are one set.
    pub set: bool,
}

pub(super) fn sre_alternation(branches: &[Node]) -> SreAlternation {
    let items: Vec<Vec<&Node>> = branches.iter().map(sre_items).collect();
    let Some(first) = items.first() else {
        return SreAlternation {
            prefix: 0,
            set: false,
        };
    };
    let mut prefix = 0;
    while items
        .iter()
        .all(|b| b.len() > prefix && same_sre_atom(b[prefix], first[prefix]))
    {
        prefix += 1;
    }
    let one_char = |n: &Node| {
        matches!(
            sre_atom(n),
            Some(SreAtom::Literal(_) | SreAtom::In(_, false))
        )
    };
    let set = items
        .iter()
        .all(|b| b.len() == prefix + 1 && one_char(b[prefix]));
    SreAlternation { prefix, set }
}

/// Whether sre's parser makes the alternation one set, with no item before it (`\w|_`).
pub(crate) fn sre_makes_one_set(branches: &[Node]) -> bool {
    sre_set_alternation(branches) == Some(0)
}

/// Returns how many shared items come first when sre turns the alternation into those items
/// and one set ([`sre_alternation`]), `None` when it keeps a branch.
pub(super) fn sre_set_alternation(branches: &[Node]) -> Option<usize> {
    let a = sre_alternation(branches);
    a.set.then_some(a.prefix)
}
