//! Repetition: counted loops under the flavor's rule for an iteration that matches empty,
//! single-character repeats, and lazy and possessive quantifiers.

use super::super::{Inst, LoopRule, Test};
use super::alternation::sre_set_alternation;
use super::{Compiler, apply};
use rxw_syntax::Span;
use rxw_syntax::ast::*;
use rxw_syntax::error::Error;
use rxw_syntax::flavor::Flags;
use rxw_syntax::rules::EmptyIteration;

impl Compiler<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn repeat(
        &mut self,
        min: u32,
        max: Option<u32>,
        greed: Greed,
        child: &Node,
        flags: Flags,
        back: bool,
        span: Span,
        depth: usize,
    ) -> Result<(), Error> {
        let max_n = max.unwrap_or(u32::MAX);
        let greed = match greed {
            Greed::Greedy if flags.swap_greed => Greed::Lazy,
            Greed::Lazy if flags.swap_greed => Greed::Greedy,
            g => g,
        };
        if greed == Greed::Possessive {
            self.push(Inst::AtomicStart, span);
            self.repeat(min, max, Greed::Greedy, child, flags, back, span, depth)?;
            self.push(Inst::AtomicEnd, span);
            return Ok(());
        }
        let greedy = greed == Greed::Greedy;
        if max_n == 0 {
            // `x{0}`: nothing is matched, but the body still exists (groups stay unset).
            return Ok(());
        }
        // JS without `u`: a quantifier after an astral literal repeats its last code unit.
        if self.code_units
            && let NodeKind::Literal { ch, .. } = &child.kind
            && (*ch as u32) > 0xFFFF
            && !(0xF0000..0xF0800).contains(&(*ch as u32))
        {
            let mut units = [0u16; 2];
            ch.encode_utf16(&mut units);
            let (hi, lo) = (units[0] as u32, units[1] as u32);
            // Right to left (JS look-behind) the repeated low unit comes first.
            if !back {
                let test = self.char_test(hi, flags);
                self.push(Inst::Consume { test, back }, child.span);
            }
            let test = self.char_test(lo, flags);
            self.repeat_one(test, min, max_n, greedy, back, span);
            if back {
                let test = self.char_test(hi, flags);
                self.push(Inst::Consume { test, back }, child.span);
            }
            return Ok(());
        }
        if let Some(test) = self.single_char_test(child, flags)? {
            self.repeat_one(test, min, max_n, greedy, back, span);
            return Ok(());
        }
        let rule = match self.flavor.rules().empty_iteration {
            EmptyIteration::Fails => LoopRule::Js,
            EmptyIteration::Kept => LoopRule::Python,
            EmptyIteration::Revisited => LoopRule::Re2 {
                unbounded: max.is_none(),
            },
        };
        let reg = self.regs;
        self.regs += 1;
        let (g_from, g_to) = group_range(child);
        self.push(Inst::LoopInit { reg }, span);
        let head = self.push(Inst::Jump(0), span);
        let retry = self.push(
            Inst::LoopIter {
                reg,
                rule,
                max: max_n,
                lazy_retry: true,
            },
            span,
        );
        let iter = self.push(
            Inst::LoopIter {
                reg,
                rule,
                max: max_n,
                lazy_retry: false,
            },
            span,
        );
        debug_assert_eq!(retry + 1, iter);
        if self.flavor.is_js() && g_from < g_to {
            self.push(
                Inst::ClearSlots {
                    from: g_from * 2,
                    to: g_to * 2,
                },
                span,
            );
        }
        self.repeat_depth += 1;
        let body = self.node(child, flags, back, depth + 1);
        self.repeat_depth -= 1;
        body?;
        self.push(
            Inst::LoopEnd {
                reg,
                min,
                head,
                rule,
            },
            span,
        );
        let exit = self.pc();
        self.insts[head as usize] = Inst::LoopHead {
            reg,
            min,
            max: max_n,
            greedy,
            iter,
            exit,
            rule,
        };
        Ok(())
    }

    fn repeat_one(&mut self, test: Test, min: u32, max: u32, greedy: bool, back: bool, span: Span) {
        self.push(
            Inst::RepeatOne {
                test,
                min,
                max,
                greedy,
                back,
            },
            span,
        );
    }

    /// The test of a node that always consumes exactly one character and holds no group.
    pub(super) fn single_char_test(
        &mut self,
        node: &Node,
        flags: Flags,
    ) -> Result<Option<Test>, Error> {
        Ok(match &node.kind {
            NodeKind::Literal { ch, .. } => {
                let c = self.literal_code(*ch, node.span);
                if self.code_units && c > 0xFFFF {
                    return Ok(None);
                }
                Some(self.literal_test(c, flags))
            }
            NodeKind::Dot { dotall } => Some(self.dot(*dotall)),
            NodeKind::Alternation(branches)
                if self.sre_rewrites() && sre_set_alternation(branches) == Some(0) =>
            {
                Some(self.sre_set_test(branches, 0, flags)?)
            }
            _ if node.may_match_strings() => None,
            NodeKind::Perl { .. } | NodeKind::Property { .. } | NodeKind::Class(_) => {
                Some(self.set_test(node, flags)?)
            }
            NodeKind::Group {
                kind: GroupKind::NonCapture,
                child,
            } => self.single_char_test(child, flags)?,
            NodeKind::Group {
                kind: GroupKind::Flags(change),
                child,
            } => self.single_char_test(child, apply(flags, change))?,
            _ => None,
        })
    }
}

/// The range of group numbers `[from, to)` inside a node.
fn group_range(node: &Node) -> (u32, u32) {
    let (mut lo, mut hi) = (u32::MAX, 0);
    node.walk(|n, _| {
        if let NodeKind::Group {
            kind: GroupKind::Capture { index, .. },
            ..
        } = &n.kind
        {
            lo = lo.min(*index);
            hi = hi.max(*index + 1);
        }
    });
    if lo == u32::MAX { (0, 0) } else { (lo, hi) }
}
