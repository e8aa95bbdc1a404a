//! JavaScript's `v`-flag classes: a class or property that may match strings, compiled as an
//! alternation of its strings and characters, and how node 20 and node 22 and later fold a
//! `v`-flag class under `i`.

use super::super::charset::{CaseRule, CharSet, Fold};
use super::super::{Inst, Test};
use super::chars::simple_case_fold;
use super::{Compiler, js_data};
use rxw_syntax::ast::*;
use rxw_syntax::error::Error;
use rxw_syntax::flavor::{Flags, Flavor, NodeVersion};
use std::collections::BTreeSet;

/// The empty string, a member of some `v`-flag classes.
static EMPTY: Vec<u32> = Vec::new();

impl Compiler<'_> {
    /// A `v`-flag class or property that may match strings: an alternation of its strings,
    /// longest first (as ECMAScript orders them), then its single characters, then the empty
    /// string when it is a member.
    pub(super) fn string_class(
        &mut self,
        node: &Node,
        flags: Flags,
        back: bool,
    ) -> Result<(), Error> {
        let node20 =
            matches!(&node.kind, NodeKind::Class(c) if self.node20_folds_unevenly(c, flags));
        let folded =
            (self.folds_v_operands(flags) && matches!(node.kind, NodeKind::Class(_))) || node20;
        let (chars, strings) = match &node.kind {
            NodeKind::Class(class) if node20 => {
                let (chars, strings) = self.v_node20(class, flags)?;
                (self.case_rule(flags).close(&chars), strings)
            }
            NodeKind::Class(class) if folded => self.v_folded(class, flags)?,
            NodeKind::Class(class) => self.class_contents(class, flags)?,
            NodeKind::Property { name, .. } => {
                let mut chars = Vec::new();
                let mut strings = BTreeSet::new();
                for s in js_data(self.flavor)
                    .property_of_strings(name)
                    .unwrap_or_default()
                {
                    let cps: Vec<u32> = s.chars().map(|c| c as u32).collect();
                    match cps.as_slice() {
                        [c] => chars.push((*c, *c)),
                        _ => {
                            strings.insert(cps);
                        }
                    }
                }
                (CharSet::from_ranges(chars), strings)
            }
            _ => unreachable!("string_class on a node that is not a class"),
        };
        let span = node.span;
        let mut ordered: Vec<&Vec<u32>> = strings.iter().filter(|s| !s.is_empty()).collect();
        ordered.sort_by_key(|s| std::cmp::Reverse(s.len()));
        let mut branches: Vec<Option<&Vec<u32>>> = ordered.into_iter().map(Some).collect();
        let has_chars = !chars.is_empty();
        if has_chars {
            branches.push(None);
        }
        if strings.contains(&Vec::new()) {
            branches.push(Some(&EMPTY));
        }
        if branches.is_empty() {
            // Nothing is a member: a test no character passes.
            let set = self.add_set(CharSet::empty());
            let test = Test::Set {
                set,
                fold: Fold::None,
                negated: false,
            };
            self.push(Inst::Consume { test, back }, span);
            return Ok(());
        }
        let chars = if flags.ignore_case && !folded {
            self.case_rule(flags).close(&chars)
        } else {
            chars
        };
        let mut jumps = Vec::new();
        let count = branches.len();
        for (i, branch) in branches.into_iter().enumerate() {
            let split = (i + 1 < count).then(|| {
                self.push(
                    Inst::Split {
                        first: 0,
                        second: 0,
                    },
                    span,
                )
            });
            let first = self.pc();
            match branch {
                Some(cps) => {
                    let order: Vec<u32> = if back {
                        cps.iter().rev().copied().collect()
                    } else {
                        cps.clone()
                    };
                    for c in order {
                        let test = self.char_test(c, flags);
                        self.push(Inst::Consume { test, back }, span);
                    }
                }
                None => {
                    let set = self.add_set(chars.clone());
                    let test = Test::Set {
                        set,
                        fold: Fold::None,
                        negated: false,
                    };
                    self.push(Inst::Consume { test, back }, span);
                }
            }
            if let Some(split) = split {
                jumps.push(self.push(Inst::Jump(0), span));
                let second = self.pc();
                self.insts[split as usize] = Inst::Split { first, second };
            }
        }
        let end = self.pc();
        for j in jumps {
            self.insts[j as usize] = Inst::Jump(end);
        }
        Ok(())
    }

    /// Whether `v`-flag classes under `i` fold their operands before the set operations (node
    /// 22 and later; node 20 folds some and not others, see [`Compiler::v_node20`]).
    pub(super) fn folds_v_operands(&self, flags: Flags) -> bool {
        flags.ignore_case
            && flags.unicode_sets
            && matches!(self.flavor, Flavor::Js(v) if v.major() >= 22)
    }

    /// A `v`-flag class under `i`, as node 22 and later match it: the characters a character
    /// is tested against as it is (no further folding) and the strings (each folded to its case
    /// classes' smallest members, compared character by character under `i`).
    ///
    /// ECMAScript folds every operand before the set operations (`MaybeSimpleCaseFolding`)
    /// and takes complements among folded characters, so `[[a-z]--c]` matches neither `c` nor
    /// `C`, `[^\q{C}]` neither, `\P{Lu}` not `a`. A folded set is kept here closed under node's
    /// case classes, which is the same test. V8 departs from it in two places: a one-character
    /// `\q{x}` stands for the simple case folding of `x` alone (`[\q{C}]` matches `c`, not
    /// `C`; node 22 takes a bare character as a set operation's first operand as written), and
    /// `\p{ASCII}`, `\p{Any}`, `\p{Assigned}` are not folded (`[\p{ASCII}]` does
    /// not match the Kelvin sign).
    pub(super) fn v_folded(&mut self, class: &Class, flags: Flags) -> Result<Contents, Error> {
        let node22 = self.flavor == Flavor::Js(NodeVersion::Node22);
        self.set_operation(class, |this, operand, first| {
            let mut chars = CharSet::empty();
            let mut strings = BTreeSet::new();
            for item in operand {
                let (c, s) = match item {
                    // node 22 takes a set operation's first operand, when it is one
                    // character, as written (`[S&&[a-z]]` matches `S`, not `s`).
                    ClassItem::Char(ch, span) if first && node22 => {
                        let c = this.literal_code(*ch, *span);
                        (CharSet::from_chars([c]), BTreeSet::new())
                    }
                    _ => this.v_item(item, flags)?,
                };
                chars = chars.union(&c);
                strings.extend(s);
            }
            Ok((chars, strings))
        })
    }

    /// One operand of [`Compiler::v_folded`], folded.
    pub(super) fn v_item(&mut self, item: &ClassItem, flags: Flags) -> Result<Contents, Error> {
        let node = js_data(self.flavor);
        let rule = CaseRule::JsSimple(node);
        let fold = Fold::JsSimple(node);
        let fold_string =
            |s: &str| -> Vec<u32> { s.chars().map(|c| fold.apply(c as u32)).collect() };
        Ok(match item {
            ClassItem::Strings(alternatives, _) => {
                let mut c = Vec::new();
                let mut s = BTreeSet::new();
                for a in alternatives {
                    let mut it = a.chars();
                    match (it.next(), it.next()) {
                        (Some(x), None) => c.push(simple_case_fold(rule, x as u32)),
                        _ => {
                            s.insert(fold_string(a));
                        }
                    }
                }
                (CharSet::from_chars(c), s)
            }
            ClassItem::Property(name, false, _)
                if rxw_syntax::js_unicode::is_property_of_strings(name) =>
            {
                let mut c = Vec::new();
                let mut s = BTreeSet::new();
                for x in node.property_of_strings(name).unwrap_or_default() {
                    let mut it = x.chars();
                    match (it.next(), it.next()) {
                        (Some(one), None) => c.push(one as u32),
                        _ => {
                            s.insert(fold_string(x));
                        }
                    }
                }
                (rule.close(&CharSet::from_chars(c)), s)
            }
            ClassItem::Nested(inner) if inner.negated => {
                let (c, _) = self.v_folded(inner, flags)?;
                (c.negate(), BTreeSet::new())
            }
            ClassItem::Nested(inner) => self.v_folded(inner, flags)?,
            ClassItem::Perl(kind, negated, _) => {
                let c = rule.close(&self.perl(*kind, flags));
                (if *negated { c.negate() } else { c }, BTreeSet::new())
            }
            ClassItem::Property(name, negated, span) => {
                let p = self.property(name, *span)?;
                // V8 computes these three itself, outside the case folding.
                let c = if matches!(name.as_str(), "ASCII" | "Any" | "Assigned") {
                    p
                } else {
                    rule.close(&p)
                };
                (if *negated { c.negate() } else { c }, BTreeSet::new())
            }
            other => {
                let mut ranges = Vec::new();
                self.class_item(other, flags, &mut ranges)?;
                (rule.close(&CharSet::from_ranges(ranges)), BTreeSet::new())
            }
        })
    }

    /// Whether `class` is a `v`-flag class under `i` that node 20 folds operand by operand
    /// (see [`Compiler::v_node20`]); other classes fold as a whole, as every release does.
    pub(super) fn node20_folds_unevenly(&self, class: &Class, flags: Flags) -> bool {
        flags.ignore_case
            && flags.unicode_sets
            && matches!(
                self.flavor,
                Flavor::Js(NodeVersion::Node18 | NodeVersion::Node20)
            )
            && node20_folds_unevenly(class)
    }

    /// A `v`-flag class under `i` as node 20 builds it, before the class as a whole is closed
    /// under case folding when it is compiled: its characters (complemented when the class is
    /// negated) and its strings (folded, as node compares them).
    ///
    /// node 20 (V8 11.3) closes some parts under case folding and takes others as written:
    /// - a class that is a union of items (`[c]`, `[a-z\w]`) is closed, then complemented when
    ///   negated; a class that is a set operation (`[c--a]`) is neither closed nor folded, its
    ///   complement taken as it stands;
    /// - a character and a range are taken as written, a one-character `\q{…}` alternative as
    ///   its simple case folding (`\q{K}` is `k`);
    /// - a shorthand is closed, then complemented (`\W`); a property value (`\p{Lu}`,
    ///   `\p{Script=Greek}`) is closed, then complemented (`\P`); a binary property is
    ///   complemented first (`\P{Uppercase}` closes the characters that are not upper case,
    ///   which gives back the upper-case letters); `\p{ASCII}`, `\p{Any}` and `\p{Assigned}`
    ///   are not closed at all.
    ///
    /// So `[[a-z]--c]` matches `c` (the `C` left in is closed back to `c` at the end) while
    /// `[[a-z]--[c]]` does not.
    pub(super) fn v_node20(&mut self, class: &Class, flags: Flags) -> Result<Contents, Error> {
        let rule = self.case_rule(flags);
        let fold = Fold::JsSimple(js_data(self.flavor));
        let fold_string =
            |cps: &[u32]| -> Vec<u32> { cps.iter().map(|&c| fold.apply(c)).collect() };
        let (chars, strings) = self.set_operation(class, |this, operand, _| {
            let mut chars = CharSet::empty();
            let mut strings = BTreeSet::new();
            for item in operand {
                let mut add = |cps: Vec<u32>, chars: &mut CharSet| match cps.as_slice() {
                    [c] => *chars = chars.union(&CharSet::from_chars([*c])),
                    _ => {
                        strings.insert(fold_string(&cps));
                    }
                };
                match item {
                    // A one-character alternative stands for its simple case folding.
                    ClassItem::Strings(alternatives, _) => {
                        for a in alternatives {
                            let mut cps: Vec<u32> = a.chars().map(|c| c as u32).collect();
                            if let [c] = cps.as_mut_slice() {
                                *c = simple_case_fold(rule, *c);
                            }
                            add(cps, &mut chars);
                        }
                    }
                    ClassItem::Property(name, false, _)
                        if rxw_syntax::js_unicode::is_property_of_strings(name) =>
                    {
                        for x in js_data(this.flavor)
                            .property_of_strings(name)
                            .unwrap_or_default()
                        {
                            add(x.chars().map(|c| c as u32).collect(), &mut chars);
                        }
                    }
                    ClassItem::Nested(inner) => {
                        let (c, s) = this.v_node20(inner, flags)?;
                        chars = chars.union(&c);
                        strings.extend(s);
                    }
                    ClassItem::Property(name, negated, span) => {
                        let p = this.property(name, *span)?;
                        let p = match (name.as_str(), *negated) {
                            ("ASCII" | "Any" | "Assigned", false) => p,
                            ("ASCII" | "Any" | "Assigned", true) => p.negate(),
                            (_, false) => rule.close(&p),
                            (name, true)
                                if rxw_syntax::js_unicode::is_property_value(name)
                                    .unwrap_or(false) =>
                            {
                                rule.close(&p).negate()
                            }
                            (_, true) => rule.close(&p.negate()),
                        };
                        chars = chars.union(&p);
                    }
                    ClassItem::Perl(kind, negated, _) => {
                        let p = rule.close(&this.perl(*kind, flags));
                        chars = chars.union(&if *negated { p.negate() } else { p });
                    }
                    other => {
                        let mut ranges = Vec::new();
                        this.class_item(other, flags, &mut ranges)?;
                        chars = chars.union(&CharSet::from_ranges(ranges));
                    }
                }
            }
            Ok((chars, strings))
        })?;
        let chars = if set_operator(class).is_none() {
            rule.close(&chars)
        } else {
            chars
        };
        let chars = if class.negated { chars.negate() } else { chars };
        Ok((chars, strings))
    }

    /// What a `v`-flag class holds: its single characters and its other strings (each a
    /// sequence of code points, possibly empty), through its set operations.
    fn class_contents(&mut self, class: &Class, flags: Flags) -> Result<Contents, Error> {
        self.set_operation(class, |this, operand, _| {
            let mut chars = Vec::new();
            let mut strings = BTreeSet::new();
            for item in operand {
                let mut add = |cps: Vec<u32>| match cps.as_slice() {
                    [c] => chars.push((*c, *c)),
                    _ => {
                        strings.insert(cps);
                    }
                };
                match item {
                    ClassItem::Strings(alternatives, _) => {
                        for a in alternatives {
                            add(a.chars().map(|c| c as u32).collect());
                        }
                    }
                    ClassItem::Property(name, false, _)
                        if rxw_syntax::js_unicode::is_property_of_strings(name) =>
                    {
                        for s in js_data(this.flavor)
                            .property_of_strings(name)
                            .unwrap_or_default()
                        {
                            add(s.chars().map(|c| c as u32).collect());
                        }
                    }
                    ClassItem::Nested(inner) if !inner.negated && inner.may_contain_strings() => {
                        let (c, s) = this.class_contents(inner, flags)?;
                        chars.extend_from_slice(c.ranges());
                        strings.extend(s);
                    }
                    other => this.class_item(other, flags, &mut chars)?,
                }
            }
            Ok((CharSet::from_ranges(chars), strings))
        })
    }

    /// A `v`-flag class's operands (the items between its operators), each read by `operand`
    /// (told whether it is the first operand of a set operation), joined by the class's one
    /// operator: `&&` an intersection, `--` a difference, none a union (one operand).
    fn set_operation(
        &mut self,
        class: &Class,
        mut operand: impl FnMut(&mut Self, &[ClassItem], bool) -> Result<Contents, Error>,
    ) -> Result<Contents, Error> {
        let op = set_operator(class);
        let mut acc: Option<Contents> = None;
        for items in class.items.split(|i| matches!(i, ClassItem::SetOp(..))) {
            let (chars, strings) = operand(self, items, op.is_some() && acc.is_none())?;
            acc = Some(match (acc, op) {
                (Some((a, sa)), Some("&&")) => (
                    a.intersect(&chars),
                    sa.intersection(&strings).cloned().collect(),
                ),
                (Some((a, sa)), Some(_)) => (
                    a.difference(&chars),
                    sa.difference(&strings).cloned().collect(),
                ),
                _ => (chars, strings),
            });
        }
        Ok(acc.unwrap_or_else(|| (CharSet::empty(), BTreeSet::new())))
    }
}

/// A `v`-flag class's characters and its other strings (each a sequence of code points).
type Contents = (CharSet, BTreeSet<Vec<u32>>);

/// The operator a `v`-flag class joins its operands with (`&&` or `--`: `v` never mixes
/// operators in one class), `None` for a union.
fn set_operator(class: &Class) -> Option<&str> {
    class.items.iter().find_map(|i| match i {
        ClassItem::SetOp(o, _) => Some(o.as_str()),
        _ => None,
    })
}

/// Whether a `v`-flag class holds what node 20 folds unevenly under `i`: a set operation, a
/// negated nested class, or a negated property or shorthand inside a nested class.
fn node20_folds_unevenly(class: &Class) -> bool {
    fn walk(class: &Class, nested: bool) -> bool {
        class.items.iter().any(|i| match i {
            ClassItem::SetOp(..) => true,
            ClassItem::Nested(inner) => inner.negated || walk(inner, true),
            ClassItem::Property(_, negated, _) => *negated,
            ClassItem::Perl(_, negated, _) => *negated && nested,
            _ => false,
        })
    }
    walk(class, false)
}
