//! Alternations, and sre's rewrite of an alternation of single characters into one set
//! (which tells in the groups before CPython 3.11).

use super::super::charset::{CharSet, Fold};
use super::super::{Inst, Test};
use super::Compiler;
use rxw_syntax::Span;
use rxw_syntax::ast::*;
use rxw_syntax::error::Error;
use rxw_syntax::flavor::Flags;

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

    /// CPython before 3.11, whose marks tell a branch from a set apart (see
    /// [`sre_set_alternation`]).
    pub(super) fn sre_marks(&self) -> bool {
        self.flavor
            .py_version()
            .is_some_and(|v| v < rxw_syntax::flavor::PyVersion::V3_11)
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

/// Whether sre's parser takes two items as the same (it hoists a prefix they share out of
/// the branches): equal characters, classes, anchors or references; a group or a repeat is
/// never the same as another.
fn same_sre_atom(a: &Node, b: &Node) -> bool {
    match (&a.kind, &b.kind) {
        (NodeKind::Literal { ch: x, .. }, NodeKind::Literal { ch: y, .. }) => x == y,
        (NodeKind::Dot { dotall: x }, NodeKind::Dot { dotall: y }) => x == y,
        (
            NodeKind::Perl {
                kind: k1,
                negated: n1,
            },
            NodeKind::Perl {
                kind: k2,
                negated: n2,
            },
        ) => k1 == k2 && n1 == n2,
        (NodeKind::Anchor { kind: k1, .. }, NodeKind::Anchor { kind: k2, .. }) => k1 == k2,
        (NodeKind::Class(x), NodeKind::Class(y)) => x.negated == y.negated && x.items == y.items,
        (NodeKind::Backref { index: x, .. }, NodeKind::Backref { index: y, .. }) => x == y,
        _ => false,
    }
}

/// sre's parser (every release) rewrites an alternation whose branches, after the leading
/// items they all share, are each one character or one class that is not negated (`c|a`,
/// `ab|a[cd]`) as those shared items and one set: no branch is left to try. Before 3.11 that
/// tells in the groups, since a branch puts `lastmark` back and a set does not. Returns how
/// many shared items come first.
pub(super) fn sre_set_alternation(branches: &[Node]) -> Option<usize> {
    let items: Vec<Vec<&Node>> = branches.iter().map(sre_items).collect();
    let first = items.first()?;
    let mut prefix = 0;
    while items
        .iter()
        .all(|b| b.len() > prefix && same_sre_atom(b[prefix], first[prefix]))
    {
        prefix += 1;
    }
    let one_char = |n: &Node| match &n.kind {
        NodeKind::Literal { .. } | NodeKind::Perl { .. } => true,
        // `[^a]` and `[^ab]` are not sets sre merges.
        NodeKind::Class(c) => !c.negated,
        _ => false,
    };
    items
        .iter()
        .all(|b| b.len() == prefix + 1 && one_char(b[prefix]))
        .then_some(prefix)
}
