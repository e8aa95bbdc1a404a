//! Sets of characters: shorthands, properties and bracketed classes (with set operations),
//! folded for case-insensitive matching the way each flavor folds them.

use super::super::Test;
use super::super::charset::{self, CharSet, Fold};
use super::{Compiler, go_data, js_data};
use rxw_syntax::Span;
use rxw_syntax::ast::*;
use rxw_syntax::error::{Error, ErrorKind};
use rxw_syntax::flavor::{Flags, Flavor};
use rxw_syntax::rules::{CaseFold, PerlClasses, Properties};

impl Compiler<'_> {
    /// The set for a shorthand, property or bracketed class, folded for case-insensitive
    /// matching in the flavor's way: the test compares the character itself, never a folded
    /// form, so the set holds every character that matches.
    pub(super) fn set_test(&mut self, node: &Node, flags: Flags) -> Result<Test, Error> {
        let (set, negated) = match &node.kind {
            NodeKind::Perl { kind, negated } => {
                (self.fold_category(self.perl(*kind, flags), flags), *negated)
            }
            NodeKind::Property { name, negated } if self.folds_v_operands(flags) => {
                let item = ClassItem::Property(name.clone(), *negated, node.span);
                (self.v_item(&item, flags)?.0, false)
            }
            NodeKind::Property { name, negated } if self.flavor.is_js() => {
                // ECMAScript negates `\P{…}` before case folding: `/\P{Lu}/iu` matches `A`
                // (its complement holds `a`, which `A` folds to).
                let set = self.property(name, node.span)?;
                let set = if *negated { set.negate() } else { set };
                (self.fold_category(set, flags), false)
            }
            NodeKind::Property { name, negated }
                if flags.ignore_case && self.flavor.rules().properties == Properties::Tables =>
            {
                // Go folds a property by its own rule (some, `LC`, not at all), then negates.
                (self.go_property_folded(name, node.span)?, *negated)
            }
            NodeKind::Property { name, negated } => {
                let set = self.property(name, node.span)?;
                (self.fold_category(set, flags), *negated)
            }
            NodeKind::Class(class)
                if flags.ignore_case && self.flavor.rules().case_fold == CaseFold::Orbits =>
            {
                (self.go_folded_class(class, flags)?, class.negated)
            }
            NodeKind::Class(class) if flags.ignore_case && self.flavor.is_python() => {
                (self.python_folded_class(class, flags)?, class.negated)
            }
            NodeKind::Class(class) if self.folds_v_operands(flags) => {
                (self.v_folded(class, flags)?.0, class.negated)
            }
            NodeKind::Class(class) if self.node20_folds_unevenly(class, flags) => {
                // The class's own complement is taken before the last closing.
                let (set, _) = self.v_node20(class, flags)?;
                (self.case_rule(flags).close(&set), false)
            }
            NodeKind::Class(class) => {
                let set = self.class(class, flags)?;
                let set = if flags.ignore_case {
                    self.case_rule(flags).close(&set)
                } else {
                    set
                };
                (set, class.negated)
            }
            _ => unreachable!("set_test on a node that is not a set"),
        };
        let set = self.add_set(set);
        Ok(Test::Set {
            set,
            fold: Fold::None,
            negated,
        })
    }

    /// Go's property `name` folded by Go's own rule for it (some, `LC`, not at all), before any
    /// negation; an unknown name is Go's error, at `span`.
    fn go_property_folded(&self, name: &str, span: Span) -> Result<CharSet, Error> {
        go_data(self.flavor)
            .property_folded(name)
            .map(CharSet::from_ranges)
            .ok_or_else(|| {
                self.error(
                    ErrorKind::PatternInvalid,
                    format!("invalid character class range: `\\p{{{name}}}`"),
                    span,
                )
            })
    }

    /// A Go class under `(?i)`, member by member as `regexp/syntax` builds it: each member is
    /// folded as it is added, and a negated member (`[:^upper:]`, `\W`, `\P{Lu}`) is the
    /// complement of its folded set, so `(?i)[[:^upper:]]` leaves out `ſ` and the Kelvin sign.
    fn go_folded_class(&mut self, class: &Class, flags: Flags) -> Result<CharSet, Error> {
        let rule = self.case_rule(flags);
        let mut out = CharSet::empty();
        for item in &class.items {
            let (positive, negated) = match item {
                ClassItem::Perl(kind, negated, span) => {
                    (ClassItem::Perl(*kind, false, *span), *negated)
                }
                ClassItem::Posix(name, negated, span) => {
                    (ClassItem::Posix(name.clone(), false, *span), *negated)
                }
                ClassItem::Property(name, negated, span) => {
                    let set = self.go_property_folded(name, *span)?;
                    out = out.union(&if *negated { set.negate() } else { set });
                    continue;
                }
                other => (other.clone(), false),
            };
            let mut ranges = Vec::new();
            self.class_item(&positive, flags, &mut ranges)?;
            let folded = rule.close(&CharSet::from_ranges(ranges));
            out = out.union(&if negated { folded.negate() } else { folded });
        }
        Ok(out)
    }

    /// A Python class under `i`, member by member as CPython compiles it: literals and
    /// ranges stand for their case-equivalent characters, categories are tested on the lower
    /// case.
    fn python_folded_class(&mut self, class: &Class, flags: Flags) -> Result<CharSet, Error> {
        let rule = self.case_rule(flags);
        let mut literal = Vec::new();
        let mut out = CharSet::empty();
        for item in &class.items {
            match item {
                ClassItem::Char(..) | ClassItem::Range(..) => {
                    self.class_item(item, flags, &mut literal)?
                }
                _ => {
                    let mut ranges = Vec::new();
                    self.class_item(item, flags, &mut ranges)?;
                    out = out.union(&self.fold_category(CharSet::from_ranges(ranges), flags));
                }
            }
        }
        Ok(out.union(&rule.close(&CharSet::from_ranges(literal))))
    }

    pub(super) fn perl(&self, kind: PerlKind, flags: Flags) -> CharSet {
        if self.flavor.rules().perl_classes == PerlClasses::Ascii {
            return match kind {
                PerlKind::Digit => charset::ascii_digit(),
                PerlKind::Word => charset::ascii_word(),
                // RE2's `\s`: no vertical tab.
                PerlKind::Space => CharSet::from_chars([0x9, 0xA, 0xC, 0xD, 0x20]),
            };
        }
        match (self.flavor, kind) {
            (Flavor::Python(_), PerlKind::Digit) if flags.ascii => charset::ascii_digit(),
            (Flavor::Python(_), PerlKind::Word) if flags.ascii => charset::ascii_word(),
            (Flavor::Python(_), PerlKind::Space) if flags.ascii => charset::python_ascii_space(),
            (Flavor::Python(v), PerlKind::Digit) => charset::python_digit(v).clone(),
            (Flavor::Python(v), PerlKind::Word) => charset::python_word(v).clone(),
            (Flavor::Python(v), PerlKind::Space) => charset::python_space(v).clone(),
            (Flavor::Js(_), PerlKind::Digit) => charset::ascii_digit(),
            (Flavor::Js(_), PerlKind::Word) => self.js_word(flags),
            (Flavor::Js(_), PerlKind::Space) => charset::js_space(),
            (_, PerlKind::Space) => charset::rust_space().clone(),
            (_, PerlKind::Digit) => charset::rust_digit().clone(),
            (_, PerlKind::Word) => charset::rust_word().clone(),
        }
    }

    /// JavaScript's `\w`; with `u`/`v` and `i`, also the two characters that case-fold into
    /// it (ſ and the Kelvin sign).
    pub(super) fn js_word(&self, flags: Flags) -> CharSet {
        let w = charset::ascii_word();
        if flags.ignore_case && flags.unicode_mode() {
            w.union(&CharSet::from_chars([0x17F, 0x212A]))
        } else {
            w
        }
    }

    pub(super) fn property(&self, name: &str, span: Span) -> Result<CharSet, Error> {
        if self.flavor.rules().properties == Properties::Tables {
            return go_data(self.flavor)
                .property(name)
                .map(|r| CharSet::from_ranges(r.to_vec()))
                .ok_or_else(|| {
                    self.error(
                        ErrorKind::PatternInvalid,
                        format!("invalid character class range: `\\p{{{name}}}`"),
                        span,
                    )
                });
        }
        if self.flavor.is_js() {
            if let Some(strings) = js_data(self.flavor).property_of_strings(name) {
                // Where only characters can be members, the one-code-point strings.
                return Ok(CharSet::from_chars(strings.iter().filter_map(|s| {
                    let mut chars = s.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => Some(c as u32),
                        _ => None,
                    }
                })));
            }
            // node's own tables: the spellings it accepts and its ICU's code points.
            return js_data(self.flavor)
                .property(name)
                .map(|r| CharSet::from_ranges(r.to_vec()))
                .ok_or_else(|| {
                    self.error(ErrorKind::PatternInvalid, "Invalid property name", span)
                });
        }
        let expr = if name.chars().count() == 1 {
            format!(r"\p{name}")
        } else {
            format!(r"\p{{{name}}}")
        };
        charset::from_regex_syntax(&expr).ok_or_else(|| {
            self.error(
                ErrorKind::ConstructUnsupported,
                format!("the Unicode property {name:?} is not known to rxw"),
                span,
            )
        })
    }

    fn class(&mut self, class: &Class, flags: Flags) -> Result<CharSet, Error> {
        if self.flavor.rules().syntax.class_set_operations
            || class
                .items
                .iter()
                .any(|i| matches!(i, ClassItem::SetOp(..) | ClassItem::Nested(_)))
        {
            return self.class_with_ops(class, flags);
        }
        let mut ranges = Vec::new();
        for item in &class.items {
            self.class_item(item, flags, &mut ranges)?;
        }
        Ok(CharSet::from_ranges(ranges))
    }

    pub(super) fn class_item(
        &mut self,
        item: &ClassItem,
        flags: Flags,
        ranges: &mut Vec<(u32, u32)>,
    ) -> Result<(), Error> {
        match item {
            ClassItem::Char(ch, span) => {
                let c = self.literal_code(*ch, *span);
                if (0xD800..0xE000).contains(&c) {
                    ranges.push((c, c));
                } else if self.code_units && c > 0xFFFF {
                    let mut units = [0u16; 2];
                    char::from_u32(c).unwrap().encode_utf16(&mut units);
                    ranges.push((units[0] as u32, units[0] as u32));
                    ranges.push((units[1] as u32, units[1] as u32));
                } else {
                    ranges.push((c, c));
                }
            }
            ClassItem::Range(a, b, span) => {
                let (a, b) = self.range_codes(*a, *b, *span);
                if self.code_units && b > 0xFFFF {
                    return Err(self.error(
                        ErrorKind::ConstructUnsupported,
                        "a range with a character outside the BMP in JavaScript without the u flag ranges over UTF-16 code units; add the u flag",
                        *span,
                    ));
                }
                ranges.push((a, b));
            }
            ClassItem::Perl(kind, negated, _) => {
                let s = self.perl(*kind, flags);
                let s = if *negated { s.negate() } else { s };
                ranges.extend_from_slice(s.ranges());
            }
            ClassItem::Property(name, negated, span) => {
                let s = self.property(name, *span)?;
                let s = if *negated { s.negate() } else { s };
                ranges.extend_from_slice(s.ranges());
            }
            ClassItem::Posix(name, negated, span) => {
                let expr = format!("[[:{name}:]]");
                let s = charset::from_regex_syntax(&expr).ok_or_else(|| {
                    self.error(
                        ErrorKind::PatternInvalid,
                        format!("unknown class [:{name}:]"),
                        *span,
                    )
                })?;
                let s = if *negated { s.negate() } else { s };
                ranges.extend_from_slice(s.ranges());
            }
            ClassItem::Nested(inner) => {
                let s = self.class(inner, flags)?;
                let s = if inner.negated { s.negate() } else { s };
                ranges.extend_from_slice(s.ranges());
            }
            ClassItem::Strings(alternatives, _) => {
                // Where only characters can be members (an intersection with a class of
                // characters), the one-character strings.
                for a in alternatives {
                    let mut chars = a.chars();
                    if let (Some(c), None) = (chars.next(), chars.next()) {
                        ranges.push((c as u32, c as u32));
                    }
                }
            }
            ClassItem::SetOp(..) => unreachable!("set operations are handled by class_with_ops"),
        }
        Ok(())
    }

    /// A class with set operations (`&&`, `--`, `~~`), evaluated left to right between the
    /// unions of items around each operator.
    fn class_with_ops(&mut self, class: &Class, flags: Flags) -> Result<CharSet, Error> {
        let mut acc: Option<CharSet> = None;
        let mut pending_op: Option<&str> = None;
        let mut cur: Vec<(u32, u32)> = Vec::new();
        let finish = |acc: Option<CharSet>, op: Option<&str>, cur: CharSet| match (acc, op) {
            (None, _) | (_, None) => cur,
            (Some(a), Some("&&")) => a.intersect(&cur),
            (Some(a), Some("--")) => a.difference(&cur),
            (Some(a), Some(_)) => a.union(&cur).difference(&a.intersect(&cur)),
        };
        for item in &class.items {
            if let ClassItem::SetOp(op, _) = item {
                let set = CharSet::from_ranges(std::mem::take(&mut cur));
                acc = Some(finish(acc, pending_op, set));
                pending_op = Some(op.as_str());
                continue;
            }
            self.class_item(item, flags, &mut cur)?;
        }
        Ok(finish(acc, pending_op, CharSet::from_ranges(cur)))
    }
}
