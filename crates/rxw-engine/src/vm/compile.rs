//! From a pattern's tree to a [`Program`], with the flavor's meaning of every construct.

use super::charset::{self, CaseRule, CharSet, Fold};
use super::{Assertion, Inst, LoopRule, Program, Test};
use rxw_syntax::Span;
use rxw_syntax::ast::*;
use rxw_syntax::error::{Error, ErrorKind};
use rxw_syntax::flavor::{Flags, Flavor, NodeVersion};
use rxw_syntax::rules::{CaseFold, EmptyIteration, PerlClasses, Properties};
use std::collections::BTreeSet;

/// The empty string, a member of some `v`-flag classes.
static EMPTY: Vec<u32> = Vec::new();

/// Deepest nesting compiled; deeper patterns are refused rather than risking the stack.
const MAX_DEPTH: usize = 400;
/// Instructions at most (counted repeats are compiled as loops, so this bounds the pattern's
/// own size, not its counts).
const MAX_INSTS: usize = 1 << 20;

struct Compiler<'a> {
    pattern: &'a str,
    /// The pattern's groups (a Python look-behind's width counts a backreference as its
    /// group's width; JavaScript references to a duplicated name).
    groups: &'a [GroupInfo],
    flavor: Flavor,
    insts: Vec<Inst>,
    spans: Vec<Span>,
    sets: Vec<CharSet>,
    regs: u32,
    /// JavaScript without `u`/`v`: code units.
    code_units: bool,
    /// Loops (other than single-character ones) around the node being compiled.
    repeat_depth: u32,
    /// The alternations' splits inside such a loop (see [`Program::mark_restoring`]).
    mark_restoring: Vec<u32>,
}

/// The Unicode data of the node version a JavaScript flavor stands for.
pub(crate) fn js_data(flavor: Flavor) -> rxw_syntax::js_unicode::NodeUnicode {
    rxw_syntax::js_unicode::NodeUnicode::of(flavor)
}

/// The engine's generated Unicode tables (Go's release, RE2's); the newest Go release's for
/// a flavor that has none.
pub(crate) fn go_data(flavor: Flavor) -> rxw_syntax::engine_tables::EngineTables {
    flavor.tables().unwrap_or_else(|| {
        rxw_syntax::engine_tables::EngineTables::Go(rxw_syntax::go_unicode::GoUnicode::nth(
            rxw_syntax::go_unicode::GoUnicode::RELEASES.len() - 1,
        ))
    })
}

/// Compiles a parsed pattern for the matcher.
///
/// # Errors
/// A construct the matcher cannot run (an unknown property name, a pattern nested too deeply
/// or too large), with its span.
pub fn compile(ast: &Ast, pattern: &str, flavor: Flavor) -> Result<Program, Error> {
    let code_units = flavor.is_js() && !ast.flags.unicode_mode();
    let mut c = Compiler {
        pattern,
        groups: &ast.groups,
        flavor,
        insts: Vec::new(),
        spans: Vec::new(),
        sets: Vec::new(),
        regs: 0,
        code_units,
        repeat_depth: 0,
        mark_restoring: Vec::new(),
    };
    let root = ast.root.span;
    c.push(Inst::Save(0), Span::new(root.start, root.start));
    if let Some(prefix) = python_search_prefix(ast, flavor) {
        // sre's search filter: a match may start only on a character of this set.
        let here = Span::new(root.start, root.start);
        let start = c.push(
            Inst::LookStart {
                negative: false,
                back_chars: 0,
                next: 0,
            },
            here,
        );
        let set = c.add_set(prefix);
        c.push(
            Inst::Consume {
                test: Test::Set {
                    set,
                    fold: Fold::None,
                    negated: false,
                },
                back: false,
            },
            here,
        );
        c.push(Inst::LookEnd, here);
        let next = c.pc();
        c.insts[start as usize] = Inst::LookStart {
            negative: false,
            back_chars: 0,
            next,
        };
    }
    c.node(&ast.root, ast.flags, false, 0)?;
    c.push(Inst::Save(1), Span::new(root.end, root.end));
    c.push(Inst::Match, Span::new(root.end, root.end));
    let anchored_start = starts_anchored(&ast.root);
    let guards = if code_units {
        vec![None; c.insts.len()]
    } else {
        (0..c.insts.len())
            .map(|pc| match &c.insts[pc] {
                Inst::RepeatOne {
                    test, back: false, ..
                } => continuation_first(&c.insts, &c.sets, pc as u32 + 1).map(|(mut g, next)| {
                    // Disjoint on characters, not on first bytes (which overlap for
                    // multi-byte sets).
                    g.disjoint = test_chars(test, &c.sets)
                        .is_some_and(|taken| taken.intersect(&next).is_empty());
                    Box::new(g)
                }),
                _ => None,
            })
            .collect()
    };
    let first_bytes = if code_units {
        None
    } else {
        first_set(&c, &ast.root, ast.flags).map(|s| byte_table(&s))
    };
    Ok(Program {
        insts: c.insts,
        spans: c.spans,
        sets: c.sets,
        slots: (ast.groups.len() + 1) * 2,
        regs: c.regs as usize * 2,
        flavor,
        code_units,
        anchored_start,
        first_byte_list: first_bytes.as_ref().and_then(|t| {
            let list: Vec<u8> = (0..=255u8).filter(|b| t[*b as usize]).collect();
            (list.len() <= 3).then_some(list)
        }),
        first_bytes,
        guards,
        mark_restoring: c.mark_restoring,
    })
}

/// The characters one single-character node accepts, exactly as the matcher tests them (the
/// flavor's case folding under `flags` included): a literal, a shorthand, a property or a
/// bracketed class. `None` for any other node, and for a JavaScript literal outside the BMP
/// without `u`/`v` (two code units, not one character).
///
/// The translation to the `regex` crate and the code generator write case-insensitive sets
/// out with this, so every program shares one definition of what a folded set holds.
///
/// # Errors
/// As [`compile`] for the node (an unknown property name, a range the flavor cannot express).
pub fn accepted_chars(
    node: &Node,
    flags: Flags,
    flavor: Flavor,
    pattern: &str,
) -> Result<Option<CharSet>, Error> {
    let mut c = Compiler {
        pattern,
        groups: &[],
        flavor,
        insts: Vec::new(),
        spans: Vec::new(),
        sets: Vec::new(),
        regs: 0,
        code_units: flavor.is_js() && !flags.unicode_mode(),
        repeat_depth: 0,
        mark_restoring: Vec::new(),
    };
    let test = match &node.kind {
        NodeKind::Literal { ch, .. } if c.code_units && (*ch as u32) > 0xFFFF => return Ok(None),
        NodeKind::Literal { ch, .. } => {
            let cp = c.literal_code(*ch, node.span);
            c.char_test(cp, flags)
        }
        _ if node.may_match_strings() => return Ok(None),
        NodeKind::Perl { .. } | NodeKind::Property { .. } | NodeKind::Class(_) => {
            c.set_test(node, flags)?
        }
        _ => return Ok(None),
    };
    Ok(Some(match test {
        Test::Char(ch) => CharSet::from_chars([ch]),
        Test::Set { set, fold, negated } => {
            let accepted = fold.preimage(&c.sets[set as usize]);
            if negated { accepted.negate() } else { accepted }
        }
        Test::Any | Test::AnyNotNewline | Test::AnyNotJsLineTerminator => return Ok(None),
    }))
}

impl Compiler<'_> {
    fn push(&mut self, inst: Inst, span: Span) -> u32 {
        self.insts.push(inst);
        self.spans.push(span);
        (self.insts.len() - 1) as u32
    }

    fn pc(&self) -> u32 {
        self.insts.len() as u32
    }

    fn error(&self, kind: ErrorKind, msg: impl Into<String>, span: Span) -> Error {
        Error::new(kind, msg).with_span_in(self.pattern, Some(span))
    }

    fn add_set(&mut self, set: CharSet) -> u32 {
        if let Some(i) = self.sets.iter().position(|s| *s == set) {
            return i as u32;
        }
        self.sets.push(set);
        (self.sets.len() - 1) as u32
    }

    fn node(&mut self, node: &Node, flags: Flags, back: bool, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(self.error(
                ErrorKind::LimitExceeded,
                format!("the pattern nests deeper than {MAX_DEPTH} levels"),
                node.span,
            ));
        }
        if self.insts.len() > MAX_INSTS {
            return Err(self.error(
                ErrorKind::LimitExceeded,
                "the pattern compiles to more than a million instructions",
                node.span,
            ));
        }
        let span = node.span;
        match &node.kind {
            NodeKind::Empty | NodeKind::Comment | NodeKind::Whitespace | NodeKind::SetFlags(_) => {}
            NodeKind::Literal { ch, .. } => self.literal(*ch, flags, back, span),
            NodeKind::Dot { dotall } => {
                let test = self.dot(*dotall);
                self.push(Inst::Consume { test, back }, span);
            }
            NodeKind::Property { .. } | NodeKind::Class(_) if node.may_match_strings() => {
                self.string_class(node, flags, back)?
            }
            NodeKind::Perl { .. } | NodeKind::Property { .. } | NodeKind::Class(_) => {
                let test = self.set_test(node, flags)?;
                self.push(Inst::Consume { test, back }, span);
            }
            NodeKind::Anchor { kind, multiline } => {
                let a = self.anchor(*kind, *multiline, flags);
                self.push(Inst::Assert(a), span);
            }
            NodeKind::Concat(items) => {
                let mut flags = flags;
                let order: Vec<&Node> = if back {
                    // Inline flags apply to what follows them in the source; resolve them in
                    // source order first.
                    let mut with_flags = Vec::with_capacity(items.len());
                    for n in items {
                        if let NodeKind::SetFlags(ch) = &n.kind {
                            flags = apply(flags, ch);
                        }
                        with_flags.push((n, flags));
                    }
                    for (n, f) in with_flags.into_iter().rev() {
                        self.node(n, f, back, depth + 1)?;
                    }
                    return Ok(());
                } else {
                    items.iter().collect()
                };
                for n in order {
                    if let NodeKind::SetFlags(ch) = &n.kind {
                        flags = apply(flags, ch);
                    }
                    self.node(n, flags, back, depth + 1)?;
                }
            }
            NodeKind::Alternation(branches) if self.sre_marks() => {
                if let Some(prefix) = sre_set_alternation(branches) {
                    // sre's parser: the common leading items, then one set, and no branch.
                    for item in &sre_items(&branches[0])[..prefix] {
                        self.node(item, flags, back, depth + 1)?;
                    }
                    let test = self.sre_set_test(branches, prefix, flags)?;
                    self.push(Inst::Consume { test, back }, span);
                } else {
                    self.alternation(branches, flags, back, span, depth)?;
                }
            }
            NodeKind::Alternation(branches) => {
                self.alternation(branches, flags, back, span, depth)?
            }
            NodeKind::Group { kind, child } => self.group(kind, child, flags, back, span, depth)?,
            NodeKind::Repeat {
                min,
                max,
                greed,
                child,
                ..
            } => self.repeat(*min, *max, *greed, child, flags, back, span, depth)?,
            NodeKind::Backref { index, name } => {
                let fold = match (self.flavor.rules().case_fold, self.flavor) {
                    _ if !flags.ignore_case => Fold::None,
                    (_, Flavor::Python(_)) if flags.ascii => Fold::PythonAsciiLower,
                    (_, Flavor::Python(v)) => Fold::PythonLower(v),
                    (CaseFold::Js, _) if !self.code_units => Fold::JsSimple(js_data(self.flavor)),
                    (CaseFold::Js, _) => Fold::JsCanonical(js_data(self.flavor)),
                    // RE2 has no backreferences: nothing folds here.
                    (CaseFold::Orbits, _) => Fold::None,
                    _ => Fold::Lower,
                };
                // JavaScript duplicate names (node 24): the reference is to whichever group of
                // that name took part, tested in order; none did, it matches empty.
                let same_name: Vec<u32> = match (&name, self.flavor) {
                    (Some(name), Flavor::Js(_)) => self
                        .groups
                        .iter()
                        .filter(|g| g.name.as_deref() == Some(name.as_str()))
                        .map(|g| g.index)
                        .collect(),
                    _ => Vec::new(),
                };
                let mut jumps = Vec::new();
                if same_name.len() > 1 {
                    for &group in &same_name[..same_name.len() - 1] {
                        let test = self.push(Inst::IfGroup { group, no: 0 }, span);
                        self.push(
                            Inst::Backref {
                                group,
                                fold,
                                back,
                                unset_matches_empty: true,
                            },
                            span,
                        );
                        jumps.push(self.push(Inst::Jump(0), span));
                        let no = self.pc();
                        self.insts[test as usize] = Inst::IfGroup { group, no };
                    }
                }
                let last = same_name.last().copied().unwrap_or(*index);
                self.push(
                    Inst::Backref {
                        group: last,
                        fold,
                        back,
                        unset_matches_empty: self.flavor.is_js(),
                    },
                    span,
                );
                let end = self.pc();
                for j in jumps {
                    self.insts[j as usize] = Inst::Jump(end);
                }
            }
        }
        Ok(())
    }

    fn alternation(
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
    fn sre_marks(&self) -> bool {
        self.flavor
            .py_version()
            .is_some_and(|v| v < rxw_syntax::flavor::PyVersion::V3_11)
    }

    /// The one test of an alternation [`sre_set_alternation`] turns into a set: the union of
    /// the characters each branch's last item accepts.
    fn sre_set_test(
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

    /// The code point (or, without `u`, code unit) a JavaScript literal stands for: a
    /// surrogate escape is kept by the parser as a private-use stand-in. With `u`/`v` the
    /// surrogate is a lone code point, which no UTF-8 text holds, so its test never passes.
    fn literal_code(&self, ch: char, span: Span) -> u32 {
        self.code_written_as(ch, &self.pattern[span.start..span.end])
    }

    /// The code point `ch` stands for, written as `source`: a lone surrogate escape parses to a
    /// private-use stand-in, which means the surrogate again here.
    fn code_written_as(&self, ch: char, source: &str) -> u32 {
        let c = ch as u32;
        let stand_in = (0xF0000..0xF0800).contains(&c);
        let lone = self.flavor.is_js()
            && stand_in
            && (self.code_units || rxw_syntax::escaped_surrogate(source).is_some());
        if lone { 0xD800 + (c - 0xF0000) } else { c }
    }

    /// A class range's ends as code points (`[\\-\\ud800]` ends at the surrogate, not at its
    /// stand-in).
    fn range_codes(&self, lo: char, hi: char, span: Span) -> (u32, u32) {
        let source = &self.pattern[span.start..span.end];
        // The dash after the first character (an escaped `\-` can only be the low end) and the
        // last dash.
        let first_dash = source
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == '-')
            .map_or(0, |(i, _)| i);
        let last_dash = source.rfind('-').unwrap_or(0);
        (
            self.code_written_as(lo, &source[..first_dash]),
            self.code_written_as(hi, &source[last_dash + 1..]),
        )
    }

    fn literal(&mut self, ch: char, flags: Flags, back: bool, span: Span) {
        let c = self.literal_code(ch, span);
        if self.code_units && c > 0xFFFF {
            let mut units = [0u16; 2];
            ch.encode_utf16(&mut units);
            let (first, second) = if back {
                (units[1], units[0])
            } else {
                (units[0], units[1])
            };
            for u in [first, second] {
                let test = self.char_test(u as u32, flags);
                self.push(Inst::Consume { test, back }, span);
            }
            return;
        }
        let test = self.char_test(c, flags);
        self.push(Inst::Consume { test, back }, span);
    }

    fn char_test(&mut self, c: u32, flags: Flags) -> Test {
        if !flags.ignore_case {
            return Test::Char(c);
        }
        let set = self.case_rule(flags).close(&CharSet::from_chars([c]));
        if set.len() == 1 {
            return Test::Char(c);
        }
        let set = self.add_set(set);
        Test::Set {
            set,
            fold: Fold::None,
            negated: false,
        }
    }

    /// How case-insensitive members close here.
    fn case_rule(&self, flags: Flags) -> CaseRule {
        match (self.flavor.rules().case_fold, self.flavor) {
            (_, Flavor::Python(_)) if flags.ascii => CaseRule::PythonAscii,
            (_, Flavor::Python(v)) => CaseRule::Python(v),
            (CaseFold::Js, _) if self.code_units => CaseRule::JsCanonical(js_data(self.flavor)),
            (CaseFold::Js, _) => CaseRule::JsSimple(js_data(self.flavor)),
            (CaseFold::Orbits, _) => CaseRule::Orbits(go_data(self.flavor)),
            _ => CaseRule::Simple,
        }
    }

    /// A shorthand's or property's set under case-insensitive matching. CPython tests a
    /// category on the character's lower case (`\w` does not take the characters that share
    /// an upper case with a word character, as literals do); JavaScript and Rust close the
    /// set under case folding like any other.
    fn fold_category(&self, set: CharSet, flags: Flags) -> CharSet {
        if !flags.ignore_case {
            return set;
        }
        match self.case_rule(flags) {
            CaseRule::Python(v) => Fold::PythonLower(v).preimage(&set),
            CaseRule::PythonAscii => Fold::PythonAsciiLower.preimage(&set),
            rule => rule.close(&set),
        }
    }

    fn dot(&self, dotall: bool) -> Test {
        match self.flavor {
            _ if dotall => Test::Any,
            Flavor::Js(_) => Test::AnyNotJsLineTerminator,
            _ => Test::AnyNotNewline,
        }
    }

    /// The set for a shorthand, property or bracketed class, folded for case-insensitive
    /// matching in the flavor's way: the test compares the character itself, never a folded
    /// form, so the set holds every character that matches.
    fn set_test(&mut self, node: &Node, flags: Flags) -> Result<Test, Error> {
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
                let set = go_data(self.flavor)
                    .property_folded(name)
                    .map(CharSet::from_ranges)
                    .ok_or_else(|| {
                        self.error(
                            ErrorKind::PatternInvalid,
                            format!("invalid character class range: `\\p{{{name}}}`"),
                            node.span,
                        )
                    })?;
                (set, *negated)
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
                    let set = go_data(self.flavor)
                        .property_folded(name)
                        .map(CharSet::from_ranges)
                        .ok_or_else(|| {
                            self.error(
                                ErrorKind::PatternInvalid,
                                format!("invalid character class range: `\\p{{{name}}}`"),
                                *span,
                            )
                        })?;
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

    fn perl(&self, kind: PerlKind, flags: Flags) -> CharSet {
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
    fn js_word(&self, flags: Flags) -> CharSet {
        let w = charset::ascii_word();
        if flags.ignore_case && flags.unicode_mode() {
            w.union(&CharSet::from_chars([0x17F, 0x212A]))
        } else {
            w
        }
    }

    fn property(&self, name: &str, span: Span) -> Result<CharSet, Error> {
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

    fn class_item(
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

    /// A `v`-flag class or property that may match strings: an alternation of its strings,
    /// longest first (as ECMAScript orders them), then its single characters, then the empty
    /// string when it is a member.
    fn string_class(&mut self, node: &Node, flags: Flags, back: bool) -> Result<(), Error> {
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
    fn folds_v_operands(&self, flags: Flags) -> bool {
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
    fn v_folded(
        &mut self,
        class: &Class,
        flags: Flags,
    ) -> Result<(CharSet, BTreeSet<Vec<u32>>), Error> {
        let op = class.items.iter().find_map(|i| match i {
            ClassItem::SetOp(o, _) => Some(o.as_str()),
            _ => None,
        });
        let mut acc: Option<(CharSet, BTreeSet<Vec<u32>>)> = None;
        for operand in class.items.split(|i| matches!(i, ClassItem::SetOp(..))) {
            let mut chars = CharSet::empty();
            let mut strings = BTreeSet::new();
            for item in operand {
                let node22 = self.flavor == Flavor::Js(NodeVersion::Node22);
                let (c, s) = match (item, op, &acc) {
                    // node 22 takes a set operation's first operand, when it is one
                    // character, as written (`[S&&[a-z]]` matches `S`, not `s`).
                    (ClassItem::Char(ch, span), Some(_), None) if node22 => {
                        let c = self.literal_code(*ch, *span);
                        (CharSet::from_chars([c]), BTreeSet::new())
                    }
                    _ => self.v_item(item, flags)?,
                };
                chars = chars.union(&c);
                strings.extend(s);
            }
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

    /// One operand of [`Compiler::v_folded`], folded.
    fn v_item(
        &mut self,
        item: &ClassItem,
        flags: Flags,
    ) -> Result<(CharSet, BTreeSet<Vec<u32>>), Error> {
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
    fn node20_folds_unevenly(&self, class: &Class, flags: Flags) -> bool {
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
    fn v_node20(
        &mut self,
        class: &Class,
        flags: Flags,
    ) -> Result<(CharSet, BTreeSet<Vec<u32>>), Error> {
        let rule = self.case_rule(flags);
        let fold = Fold::JsSimple(js_data(self.flavor));
        let fold_string =
            |cps: &[u32]| -> Vec<u32> { cps.iter().map(|&c| fold.apply(c)).collect() };
        let op = class.items.iter().find_map(|i| match i {
            ClassItem::SetOp(o, _) => Some(o.as_str()),
            _ => None,
        });
        let mut acc: Option<(CharSet, BTreeSet<Vec<u32>>)> = None;
        for operand in class.items.split(|i| matches!(i, ClassItem::SetOp(..))) {
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
                        for x in js_data(self.flavor)
                            .property_of_strings(name)
                            .unwrap_or_default()
                        {
                            add(x.chars().map(|c| c as u32).collect(), &mut chars);
                        }
                    }
                    ClassItem::Nested(inner) => {
                        let (c, s) = self.v_node20(inner, flags)?;
                        chars = chars.union(&c);
                        strings.extend(s);
                    }
                    ClassItem::Property(name, negated, span) => {
                        let p = self.property(name, *span)?;
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
                        let p = rule.close(&self.perl(*kind, flags));
                        chars = chars.union(&if *negated { p.negate() } else { p });
                    }
                    other => {
                        let mut ranges = Vec::new();
                        self.class_item(other, flags, &mut ranges)?;
                        chars = chars.union(&CharSet::from_ranges(ranges));
                    }
                }
            }
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
        let (chars, strings) = acc.unwrap_or_else(|| (CharSet::empty(), BTreeSet::new()));
        let chars = if op.is_none() {
            rule.close(&chars)
        } else {
            chars
        };
        let chars = if class.negated { chars.negate() } else { chars };
        Ok((chars, strings))
    }

    /// What a `v`-flag class holds: its single characters and its other strings (each a
    /// sequence of code points, possibly empty), through its set operations.
    fn class_contents(
        &mut self,
        class: &Class,
        flags: Flags,
    ) -> Result<(CharSet, BTreeSet<Vec<u32>>), Error> {
        // `v` never mixes operators in one class: one operator joins every operand.
        let op = class.items.iter().find_map(|i| match i {
            ClassItem::SetOp(o, _) => Some(o.as_str()),
            _ => None,
        });
        let mut acc: Option<(CharSet, BTreeSet<Vec<u32>>)> = None;
        for operand in class.items.split(|i| matches!(i, ClassItem::SetOp(..))) {
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
                        for s in js_data(self.flavor)
                            .property_of_strings(name)
                            .unwrap_or_default()
                        {
                            add(s.chars().map(|c| c as u32).collect());
                        }
                    }
                    ClassItem::Nested(inner) if !inner.negated && inner.may_contain_strings() => {
                        let (c, s) = self.class_contents(inner, flags)?;
                        chars.extend_from_slice(c.ranges());
                        strings.extend(s);
                    }
                    other => self.class_item(other, flags, &mut chars)?,
                }
            }
            let cur = (CharSet::from_ranges(chars), strings);
            acc = Some(match (acc, op) {
                (Some((a, sa)), Some("&&")) => (
                    a.intersect(&cur.0),
                    sa.intersection(&cur.1).cloned().collect(),
                ),
                (Some((a, sa)), Some(_)) => (
                    a.difference(&cur.0),
                    sa.difference(&cur.1).cloned().collect(),
                ),
                _ => cur,
            });
        }
        Ok(acc.unwrap_or_else(|| (CharSet::empty(), BTreeSet::new())))
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

    fn anchor(&mut self, kind: AnchorKind, multiline: bool, flags: Flags) -> Assertion {
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

    fn group(
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
                let (body_back, back_chars) = match (behind, self.flavor) {
                    (false, _) => (false, 0),
                    (true, Flavor::Js(_)) => (true, 0),
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

    #[allow(clippy::too_many_arguments)]
    fn repeat(
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
    fn single_char_test(&mut self, node: &Node, flags: Flags) -> Result<Option<Test>, Error> {
        Ok(match &node.kind {
            NodeKind::Literal { ch, .. } => {
                let c = self.literal_code(*ch, node.span);
                if self.code_units && c > 0xFFFF {
                    return Ok(None);
                }
                Some(self.char_test(c, flags))
            }
            NodeKind::Dot { dotall } => Some(self.dot(*dotall)),
            NodeKind::Alternation(branches)
                if self.sre_marks() && sre_set_alternation(branches) == Some(0) =>
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

/// A branch's items as sre's parser lists them (comments, `x`-mode space and flag settings
/// are not items).
fn sre_items(node: &Node) -> Vec<&Node> {
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
fn sre_set_alternation(branches: &[Node]) -> Option<usize> {
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

/// The flags in force after an inline flag change (`(?i)`, `(?-i:…)`); the matcher and the
/// translation to the `regex` crate read inline flags through this one function.
pub(crate) fn apply(mut flags: Flags, change: &FlagChange) -> Flags {
    for c in change.on.chars() {
        flags.set(c, true);
    }
    for c in change.off.chars() {
        flags.set(c, false);
    }
    // Python's `(?u)` only says what is already true for str patterns; `(?a)` and `(?u)`
    // exclude each other.
    if change.on.contains('u') {
        flags.ascii = false;
        flags.unicode = false;
    }
    flags
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

/// Whether every match must start at the start of the text.
fn starts_anchored(node: &Node) -> bool {
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
    let c = Compiler {
        pattern: "",
        groups: &[],
        flavor,
        insts: Vec::new(),
        spans: Vec::new(),
        sets: Vec::new(),
        regs: 0,
        code_units: false,
        repeat_depth: 0,
        mark_restoring: Vec::new(),
    };
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
fn first_set(c: &Compiler, node: &Node, flags: Flags) -> Option<CharSet> {
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
fn continuation_first(
    insts: &[Inst],
    sets: &[CharSet],
    pc: u32,
) -> Option<(super::Guard, CharSet)> {
    let mut g = super::Guard {
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
fn test_chars(test: &Test, sets: &[CharSet]) -> Option<CharSet> {
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
fn add_test(
    g: &mut super::Guard,
    chars: &mut CharSet,
    test: &Test,
    sets: &[CharSet],
) -> Option<()> {
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
fn byte_table(set: &CharSet) -> Box<[bool; 256]> {
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

/// ICU's simple case folding of `c` under `rule`'s case classes: the member a class folds to
/// (the lower case of an upper-case member, except where Unicode folds to the upper case, as
/// for Cherokee); `c` when it has no class.
fn simple_case_fold(rule: CaseRule, c: u32) -> u32 {
    let class = rule.close(&CharSet::from_chars([c]));
    if class.len() < 2 {
        return c;
    }
    let single = |it: &mut dyn Iterator<Item = char>| match (it.next(), it.next()) {
        (Some(x), None) => Some(x),
        _ => None,
    };
    let ch = char::from_u32(c).expect("a character");
    let lowered = single(&mut ch.to_uppercase())
        .and_then(|u| single(&mut u.to_lowercase()))
        .or_else(|| single(&mut ch.to_lowercase()))
        .map(|x| x as u32)
        .filter(|&x| class.contains(x));
    match lowered {
        // Cherokee folds to its upper case (the lower case letters came later).
        Some(x) if (0xAB70..=0xABBF).contains(&x) || (0x13F8..=0x13FD).contains(&x) => class
            .ranges()
            .iter()
            .flat_map(|&(a, b)| a..=b)
            .find(|&m| m != x && (0x13A0..=0x13F5).contains(&m))
            .unwrap_or(x),
        Some(x) => x,
        None => class.ranges()[0].0,
    }
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
