//! Groups and assertions: captures, conditionals, atomic groups, look-around, and anchors
//! (word boundaries with the flavor's word set).

use super::super::charset;
use super::super::{Assertion, Inst};
use super::{Compiler, apply};
use rxw_syntax::Span;
use rxw_syntax::ast::*;
use rxw_syntax::error::{Error, ErrorKind};
use rxw_syntax::flavor::{Flags, Flavor};
use rxw_syntax::rules::{LookBehind, PerlClasses};

impl Compiler<'_> {
    fn word_set(&mut self, flags: Flags) -> u32 {
        let set = match self.flavor {
            // RE2's `\b` is between ASCII word characters and the rest, whatever `i` says.
            _ if self.flavor.rules().perl_classes == PerlClasses::Ascii => charset::ascii_word(),
            Flavor::Python(_) if flags.ascii => charset::ascii_word(),
            Flavor::Python(v) => charset::python_word(v).clone(),
            Flavor::Js(_) => self.js_word(flags),
            _ => charset::rust_word().clone(),
        };
        self.add_set(set)
    }

    pub(super) fn anchor(&mut self, kind: AnchorKind, multiline: bool, flags: Flags) -> Assertion {
        let js = self.flavor.is_js();
        match kind {
            AnchorKind::LineStart if !multiline => Assertion::TextStart,
            AnchorKind::LineStart if js => Assertion::LineStartJs,
            AnchorKind::LineStart => Assertion::LineStartNewline,
            AnchorKind::LineEnd if multiline && js => Assertion::LineEndJs,
            AnchorKind::LineEnd if multiline => Assertion::LineEndNewline,
            AnchorKind::LineEnd if self.flavor.is_python() => Assertion::EndOrFinalNewline,
            AnchorKind::LineEnd => Assertion::TextEnd,
            AnchorKind::TextStart => Assertion::TextStart,
            AnchorKind::TextEnd => Assertion::TextEnd,
            AnchorKind::WordBoundary | AnchorKind::NotWordBoundary => Assertion::WordBoundary {
                word: self.word_set(flags),
                negated: kind == AnchorKind::NotWordBoundary,
            },
            AnchorKind::WordStart => Assertion::WordStart {
                word: self.word_set(flags),
            },
            AnchorKind::WordEnd => Assertion::WordEnd {
                word: self.word_set(flags),
            },
            AnchorKind::WordStartHalf => Assertion::WordStartHalf {
                word: self.word_set(flags),
            },
            AnchorKind::WordEndHalf => Assertion::WordEndHalf {
                word: self.word_set(flags),
            },
        }
    }

    pub(super) fn group(
        &mut self,
        kind: &GroupKind,
        child: &Node,
        flags: Flags,
        back: bool,
        span: Span,
        depth: usize,
    ) -> Result<(), Error> {
        let open = Span::new(span.start, child.span.start.max(span.start));
        let close = Span::new(child.span.end.min(span.end), span.end);
        match kind {
            GroupKind::Capture { index, .. } => {
                let (first, second) = if back {
                    (index * 2 + 1, index * 2)
                } else {
                    (index * 2, index * 2 + 1)
                };
                self.push(Inst::Save(first), open);
                self.node(child, flags, back, depth + 1)?;
                self.push(Inst::Save(second), close);
            }
            GroupKind::NonCapture => self.node(child, flags, back, depth + 1)?,
            GroupKind::Flags(change) => self.node(child, apply(flags, change), back, depth + 1)?,
            GroupKind::Conditional { index, .. } => {
                let (yes, no) = match &child.kind {
                    NodeKind::Alternation(b) if b.len() == 2 => (&b[0], Some(&b[1])),
                    _ => (child, None),
                };
                let test = self.push(
                    Inst::IfGroup {
                        group: *index,
                        no: 0,
                    },
                    open,
                );
                self.node(yes, flags, back, depth + 1)?;
                let jump = self.push(Inst::Jump(0), close);
                let no_pc = self.pc();
                if let Some(no) = no {
                    self.node(no, flags, back, depth + 1)?;
                }
                let end = self.pc();
                self.insts[test as usize] = Inst::IfGroup {
                    group: *index,
                    no: no_pc,
                };
                self.insts[jump as usize] = Inst::Jump(end);
            }
            GroupKind::Atomic => {
                self.push(Inst::AtomicStart, open);
                self.node(child, flags, back, depth + 1)?;
                self.push(Inst::AtomicEnd, close);
            }
            GroupKind::Lookahead
            | GroupKind::NegativeLookahead
            | GroupKind::Lookbehind
            | GroupKind::NegativeLookbehind => {
                let negative = matches!(
                    kind,
                    GroupKind::NegativeLookahead | GroupKind::NegativeLookbehind
                );
                let behind = matches!(kind, GroupKind::Lookbehind | GroupKind::NegativeLookbehind);
                // Python runs a (fixed-width) look-behind forward from width characters back;
                // JavaScript runs it right to left.
                let rule = self.flavor.rules().syntax.lookbehind;
                let branches_fixed = || match &child.kind {
                    NodeKind::Alternation(branches) => branches
                        .iter()
                        .all(|b| rxw_syntax::parse::fixed_width_in(b, self.groups).is_some()),
                    _ => false,
                };
                let (body_back, back_chars) = match (behind, rule) {
                    (false, _) => (false, 0),
                    (true, LookBehind::Any) => (true, 0),
                    // fancy-regex: branches of different fixed widths, each tried where it
                    // ends (right to left here).
                    (true, LookBehind::FixedAlternatives)
                        if rxw_syntax::parse::fixed_width_in(child, self.groups).is_none()
                            && branches_fixed() =>
                    {
                        (true, 0)
                    }
                    (true, _) => {
                        let w = rxw_syntax::parse::fixed_width_in(child, self.groups).ok_or_else(
                            || {
                                self.error(
                                    ErrorKind::PatternInvalid,
                                    "look-behind requires fixed-width pattern",
                                    span,
                                )
                            },
                        )?;
                        (false, w)
                    }
                };
                let start = self.push(
                    Inst::LookStart {
                        negative,
                        back_chars,
                        next: 0,
                    },
                    open,
                );
                self.node(child, flags, body_back, depth + 1)?;
                self.push(Inst::LookEnd, close);
                let next = self.pc();
                self.insts[start as usize] = Inst::LookStart {
                    negative,
                    back_chars,
                    next,
                };
            }
        }
        Ok(())
    }
}
