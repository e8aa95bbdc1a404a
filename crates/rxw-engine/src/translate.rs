//! Translation from a flavor's tree to the dialect of the `regex` / `fancy-regex` engines.
//!
//! Every construct is written out with the meaning of the source flavor made explicit: Python's
//! `\w` becomes the class CPython uses, JavaScript's `.` excludes `\r` and the line separators,
//! Python's `$` becomes "end, or before a final newline". A few constructs are exact only with
//! look-around; for those the translator also has a cheaper form that is exact on inputs
//! without a certain property (no trailing newline, say). It reports which properties it
//! relied on, and the engine picks the form per input.

use crate::classes::{
    ASCII_SPACE, JS_SPACE, class_syntax, python_digit_syntax, python_space, python_word_syntax,
};
use rxw_syntax::ast::*;
use rxw_syntax::error::{Error, ErrorKind};
use rxw_syntax::flavor::{Flags, Flavor};
use rxw_syntax::rules::{CaseFold, PerlClasses, Properties};
use std::fmt::Write;

/// Input properties a cheap translation may rely on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Assume {
    /// The text does not end with `\n` (Python `$` without MULTILINE).
    pub no_final_newline: bool,
    /// The text has no `\r`, U+2028 or U+2029 (JS `^`/`$` with MULTILINE).
    pub no_js_line_breaks: bool,
    /// The text has no character where Python's `\w` and the `regex` crate's `\w` disagree
    /// (Python `\b`, `\B`).
    pub python_word_agrees: bool,
    /// The text is not empty (Python `\B` never matches the empty string).
    pub non_empty: bool,
}

impl Assume {
    /// Assumes nothing: the exact translation.
    pub const NOTHING: Assume = Assume {
        no_final_newline: false,
        no_js_line_breaks: false,
        python_word_agrees: false,
        non_empty: false,
    };
}

/// The result of a translation.
#[derive(Debug, Clone)]
pub struct Translation {
    /// Pattern text for the engine.
    pub pattern: String,
    /// True when the pattern needs the backtracking engine.
    pub needs_backtracking: bool,
    /// Which assumptions changed the output (the properties worth checking on an input).
    pub relied_on: Assume,
    /// For each user group (index 0 = group 1), its group index in the engine pattern.
    pub group_map: Vec<usize>,
    /// JS: for each quantified body holding captures, the engine index of the hidden group
    /// recording its last iteration, and the user groups inside it (JS resets them on each
    /// iteration).
    pub iteration_groups: Vec<(usize, Vec<u32>)>,
}

struct Tx<'a> {
    flavor: Flavor,
    assume: Assume,
    out: String,
    backtrack: bool,
    relied: Assume,
    flags: Vec<Flags>,
    /// Engine group counter.
    engine_groups: usize,
    group_map: Vec<usize>,
    iteration_groups: Vec<(usize, Vec<u32>)>,
    /// Open hidden iteration groups: (engine index, user groups seen inside).
    open_iterations: Vec<(usize, Vec<u32>)>,
    pattern: &'a str,
    error: Option<Error>,
    /// JS without `u`: the next astral literal emits only its low surrogate (its high one was
    /// written before the quantifier's group, which repeats the last code unit only).
    low_unit_only: bool,
}

/// Translates a parsed pattern (Python or JS flavor) for the engines.
///
/// # Errors
/// [`ErrorKind::ConstructUnsupported`] for constructs whose meaning cannot be reproduced.
pub fn translate(
    ast: &Ast,
    pattern: &str,
    flavor: Flavor,
    assume: Assume,
) -> Result<Translation, Error> {
    let mut tx = Tx {
        flavor,
        assume,
        out: String::with_capacity(pattern.len() * 2),
        backtrack: false,
        relied: Assume::NOTHING,
        flags: vec![ast.flags],
        engine_groups: 0,
        group_map: vec![0; ast.groups.len()],
        iteration_groups: Vec::new(),
        open_iterations: Vec::new(),
        pattern,
        error: None,
        low_unit_only: false,
    };
    if ast.flags.ignore_case {
        tx.out.push_str("(?i)");
    }
    ast.root.visit(|v| tx.visit(v));
    if let Some(e) = tx.error {
        return Err(e);
    }
    Ok(Translation {
        pattern: tx.out,
        needs_backtracking: tx.backtrack,
        relied_on: tx.relied,
        group_map: tx.group_map,
        iteration_groups: tx.iteration_groups,
    })
}

fn push_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric()
        || c == '_'
        || (!c.is_ascii() && !c.is_whitespace() && !c.is_control())
    {
        out.push(c);
    } else {
        let _ = write!(out, "\\x{{{:X}}}", c as u32);
    }
}

impl Tx<'_> {
    fn flags(&self) -> Flags {
        *self.flags.last().unwrap()
    }

    /// Writes `syntax` that only the backtracking engine (fancy-regex) runs: look-around, an
    /// atomic group, a possessive quantifier.
    fn push_backtracking(&mut self, syntax: &str) {
        self.backtrack = true;
        self.out.push_str(syntax);
    }

    fn fail(&mut self, span: Span, msg: String) {
        if self.error.is_none() {
            self.error = Some(
                Error::new(ErrorKind::ConstructUnsupported, msg)
                    .with_span_in(self.pattern, Some(span)),
            );
        }
    }

    fn js_unicode(&self) -> bool {
        self.flavor.is_js() && self.flags().unicode_mode()
    }

    /// Class body (no brackets) for a shorthand, or `None` for classes best written as an
    /// escape.
    fn perl_body(&self, kind: PerlKind) -> String {
        let f = self.flags();
        match (self.flavor, kind) {
            (Flavor::Python(_), PerlKind::Digit) if f.ascii => "0-9".into(),
            (Flavor::Python(v), PerlKind::Digit) => python_digit_syntax(v).into(),
            (Flavor::Python(_), PerlKind::Word) if f.ascii => "0-9A-Za-z_".into(),
            (Flavor::Python(v), PerlKind::Word) => python_word_syntax(v).into(),
            (Flavor::Python(_), PerlKind::Space) if f.ascii => class_syntax(ASCII_SPACE),
            (Flavor::Python(v), PerlKind::Space) => class_syntax(python_space(v)),
            (_, PerlKind::Digit) => "0-9".into(),
            (_, PerlKind::Word) => "0-9A-Za-z_".into(),
            // RE2's `\s` has no vertical tab.
            (_, PerlKind::Space) if self.flavor.rules().perl_classes == PerlClasses::Ascii => {
                r"\t\n\x0C\r ".into()
            }
            (_, PerlKind::Space) => class_syntax(JS_SPACE),
        }
    }

    /// Whether ASCII letter classes must be shielded from Unicode case folding here.
    fn shield_case(&self) -> bool {
        let f = self.flags();
        f.ignore_case && !(self.flavor.is_js() && f.unicode_mode())
    }

    fn emit_perl(&mut self, kind: PerlKind, negated: bool) {
        let body = self.perl_body(kind);
        let neg = if negated { "^" } else { "" };
        let ascii = body.starts_with("0-9");
        if ascii && kind == PerlKind::Word && self.shield_case() {
            let _ = write!(self.out, "(?-i:[{neg}{body}])");
        } else {
            let _ = write!(self.out, "[{neg}{body}]");
        }
    }

    fn emit_literal(&mut self, ch: char) {
        let f = self.flags();
        let ascii_only_fold = f.ignore_case && !ch.is_ascii() && self.flavor.is_python() && f.ascii;
        // `(?i)k` in the regex crate also matches the Kelvin sign; Python's ASCII mode and
        // JS without `u` do not fold across the ASCII boundary.
        let shield_ascii = f.ignore_case
            && ch.is_ascii_alphabetic()
            && ((self.flavor.is_python() && f.ascii) || (self.flavor.is_js() && !f.unicode_mode()));
        if ascii_only_fold {
            self.out.push_str("(?-i:");
            push_char(&mut self.out, ch);
            self.out.push(')');
        } else if shield_ascii {
            let _ = write!(
                self.out,
                "[{}{}]",
                ch.to_ascii_lowercase(),
                ch.to_ascii_uppercase()
            );
        } else if self.code_units() && (ch as u32) > 0xFFFF {
            if std::mem::take(&mut self.low_unit_only) {
                let mut units = [0u16; 2];
                ch.encode_utf16(&mut units);
                push_char(
                    &mut self.out,
                    rxw_syntax::surrogate_stand_in(units[1] as u32),
                );
            } else {
                self.push_code_units(ch);
            }
        } else {
            push_char(&mut self.out, ch);
        }
    }

    /// JS without `u`: the pattern matches UTF-16 code units (see the engine's code-unit form).
    fn code_units(&self) -> bool {
        self.flavor.is_js() && !self.flags().unicode_mode()
    }

    fn push_code_units(&mut self, ch: char) {
        let mut units = [0u16; 2];
        for u in ch.encode_utf16(&mut units) {
            push_char(&mut self.out, rxw_syntax::surrogate_stand_in(*u as u32));
        }
    }

    fn emit_class(&mut self, class: &Class) {
        if class.items.is_empty() {
            // JS `[]` never matches; `[^]` matches anything.
            self.out
                .push_str(if class.negated { r"[\s\S]" } else { r"[a&&b]" });
            return;
        }
        self.out.push('[');
        if class.negated {
            self.out.push('^');
        }
        for item in &class.items {
            match item {
                ClassItem::Char(c, _) if self.code_units() && (*c as u32) > 0xFFFF => {
                    self.push_code_units(*c)
                }
                ClassItem::Char(c, _) => push_char(&mut self.out, *c),
                ClassItem::Range(a, b, span) if self.code_units() && (*b as u32) > 0xFFFF => {
                    let _ = a;
                    self.fail(
                        *span,
                        "a range with a character outside the BMP in JavaScript without the u flag (it ranges over UTF-16 code units); add the u flag".into(),
                    );
                }
                ClassItem::Range(a, b, _) => {
                    push_char(&mut self.out, *a);
                    self.out.push('-');
                    push_char(&mut self.out, *b);
                }
                ClassItem::Perl(kind, negated, _) => {
                    let body = self.perl_body(*kind);
                    if *negated {
                        let _ = write!(self.out, "[^{body}]");
                    } else {
                        self.out.push_str(&body);
                    }
                }
                ClassItem::Property(name, negated, _) => {
                    let _ = write!(self.out, "\\{}{{{name}}}", if *negated { 'P' } else { 'p' });
                }
                ClassItem::Posix(..)
                | ClassItem::Nested(_)
                | ClassItem::SetOp(..)
                | ClassItem::Strings(..) => {
                    self.fail(
                        item.span(),
                        "nested classes and set operations are Rust syntax".into(),
                    );
                }
            }
        }
        self.out.push(']');
    }

    fn emit_anchor(&mut self, kind: AnchorKind, multiline: bool, span: Span) {
        let js = self.flavor.is_js();
        match kind {
            AnchorKind::LineStart if !multiline => self.out.push_str(r"\A"),
            AnchorKind::LineStart if js => {
                self.relied.no_js_line_breaks = true;
                if self.assume.no_js_line_breaks {
                    self.out.push_str("(?m:^)");
                } else {
                    self.push_backtracking(r"(?:\A|(?<=[\n\r\x{2028}\x{2029}]))");
                }
            }
            AnchorKind::LineStart => self.out.push_str("(?m:^)"),
            AnchorKind::LineEnd if js && multiline => {
                self.relied.no_js_line_breaks = true;
                if self.assume.no_js_line_breaks {
                    self.out.push_str("(?m:$)");
                } else {
                    self.push_backtracking(r"(?=[\n\r\x{2028}\x{2029}]|\z)");
                }
            }
            AnchorKind::LineEnd if js => self.out.push_str(r"\z"),
            AnchorKind::LineEnd if multiline => self.out.push_str("(?m:$)"),
            AnchorKind::LineEnd if !self.flavor.is_python() => self.out.push_str(r"\z"),
            AnchorKind::LineEnd => {
                self.relied.no_final_newline = true;
                if self.assume.no_final_newline {
                    self.out.push_str(r"\z");
                } else {
                    self.push_backtracking(r"(?=\n?\z)");
                }
            }
            AnchorKind::TextStart => self.out.push_str(r"\A"),
            AnchorKind::TextEnd => self.out.push_str(r"\z"),
            AnchorKind::WordBoundary | AnchorKind::NotWordBoundary => {
                let not = kind == AnchorKind::NotWordBoundary;
                let f = self.flags();
                let b_skips_empty = self.flavor.py_version().is_some_and(|v| v.minor() < 14);
                if b_skips_empty && not && !self.assume.non_empty {
                    // CPython before 3.14: `\B` does not match the empty string.
                    self.relied.non_empty = true;
                    self.push_backtracking(r"(?=[\s\S]|(?<=[\s\S]))");
                }
                if b_skips_empty && not {
                    self.relied.non_empty = true;
                }
                if self.flavor.is_python() && !f.ascii {
                    self.relied.python_word_agrees = true;
                    if self.assume.python_word_agrees {
                        self.out.push_str(if not { r"\B" } else { r"\b" });
                    } else {
                        self.backtrack = true;
                        let w = match self.flavor {
                            Flavor::Python(v) => python_word_syntax(v),
                            _ => unreachable!("a Python word boundary"),
                        };
                        // Python's word characters do not change with case folding: `(?i)`
                        // would add U+0345, which folds to a letter.
                        if not {
                            let _ =
                                write!(self.out, "(?-i:(?<=[{w}])(?=[{w}])|(?<![{w}])(?![{w}]))");
                        } else {
                            let _ =
                                write!(self.out, "(?-i:(?<=[{w}])(?![{w}])|(?<![{w}])(?=[{w}]))");
                        }
                    }
                } else if js && f.ignore_case && f.unicode_mode() {
                    // With `ui`, JS word characters include U+017F and U+212A.
                    let w = r"0-9A-Za-z_\x{17F}\x{212A}";
                    self.backtrack = true;
                    if not {
                        let _ = write!(self.out, "(?:(?<=[{w}])(?=[{w}])|(?<![{w}])(?![{w}]))");
                    } else {
                        let _ = write!(self.out, "(?:(?<=[{w}])(?![{w}])|(?<![{w}])(?=[{w}]))");
                    }
                } else {
                    self.out
                        .push_str(if not { r"(?-u:\B)" } else { r"(?-u:\b)" });
                }
            }
            AnchorKind::WordStart
            | AnchorKind::WordEnd
            | AnchorKind::WordStartHalf
            | AnchorKind::WordEndHalf => {
                self.fail(span, "this word assertion is Rust syntax".into());
            }
        }
    }

    fn visit(&mut self, v: Visit<'_>) {
        if self.error.is_some() {
            return;
        }
        match v {
            Visit::Enter(node) => self.enter(node),
            Visit::Between(node, _) => {
                if matches!(node.kind, NodeKind::Alternation(_)) {
                    self.out.push('|');
                }
            }
            Visit::Exit(node) => self.exit(node),
        }
    }

    /// Whether case-insensitive matching here folds in a way the `regex` crate's `(?i)`
    /// (simple case folding) does not: Python's `re` (lower cases plus the characters that
    /// share an upper case, so `i` also matches `ı` and `İ`), and JavaScript without `u`/`v`
    /// (`Canonicalize`: upper case, never from a non-ASCII character to an ASCII one, so `k`
    /// does not match the Kelvin sign). Python's ASCII mode with `i` runs on the matcher.
    fn explicit_fold(&self) -> bool {
        let f = self.flags();
        f.ignore_case
            && match self.flavor.rules().case_fold {
                CaseFold::Python => !f.ascii,
                // With `u`/`v` too: node's simple case folding is its ICU's, not the `regex`
                // crate's; Go's orbits are its release's `unicode.SimpleFold`.
                CaseFold::Js | CaseFold::Orbits => true,
                CaseFold::Simple => false,
            }
    }

    /// JavaScript properties follow node's own Unicode tables, not the `regex` crate's: a
    /// property, or a class holding one, is written out as the matcher's explicit set.
    /// So is a lone surrogate escape under `u`/`v` (a code point no UTF-8 text holds, kept
    /// by the parser as a private-use stand-in), alone or in a class.
    fn js_explicit_set(&self, node: &Node) -> bool {
        let lone = |c: char, span: Span| {
            (0xF0000..0xF0800).contains(&(c as u32))
                && rxw_syntax::escaped_surrogate(&self.pattern[span.start..span.end]).is_some()
        };
        let own_tables = matches!(
            self.flavor.rules().properties,
            Properties::Node | Properties::Tables
        );
        own_tables
            && match &node.kind {
                NodeKind::Property { .. } => true,
                NodeKind::Literal { ch, .. } => self.js_unicode() && lone(*ch, node.span),
                NodeKind::Class(class) => {
                    class_needs_explicit_set(class, &|c, span| self.js_unicode() && lone(c, span))
                }
                _ => false,
            }
    }

    /// Writes the characters a case-insensitive single-character node accepts as an explicit
    /// class outside `(?i)`, computed by the matcher's own folding; false when the node has no
    /// such set (a JavaScript astral literal without `u`, which is two code units).
    fn emit_folded(&mut self, node: &Node) -> bool {
        let set = match crate::vm::accepted_chars(node, self.flags(), self.flavor, self.pattern) {
            Ok(Some(set)) => set,
            Ok(None) => return false,
            Err(e) => {
                if self.error.is_none() {
                    self.error = Some(e);
                }
                return true;
            }
        };
        self.out.push_str("(?-i:");
        push_set(&mut self.out, &set);
        self.out.push(')');
        true
    }

    fn enter(&mut self, node: &Node) {
        if node.may_match_strings() {
            // A `v`-flag class of strings is an alternation the matcher builds.
            self.fail(
                node.span,
                "a v-flag class of strings runs on the matcher".into(),
            );
            return;
        }
        if matches!(
            node.kind,
            NodeKind::Literal { .. }
                | NodeKind::Perl { .. }
                | NodeKind::Property { .. }
                | NodeKind::Class(_)
        ) && (self.explicit_fold() || self.js_explicit_set(node))
            && self.emit_folded(node)
        {
            return;
        }
        match &node.kind {
            NodeKind::Empty | NodeKind::Comment | NodeKind::Whitespace => {}
            NodeKind::SetFlags(change) => {
                // `(?i)` inside a group (RE2's grammar) holds to the end of that group, later
                // alternatives included: the group's entry on the flag stack changes, and the
                // regex crate is told the same for what it folds itself.
                let flags = crate::vm::apply_flag_change(self.flags(), change);
                *self.flags.last_mut().expect("the root's flags") = flags;
                // What the flags come to (`(?i-i)` turns `i` off again).
                if change.on.contains('i') || change.off.contains('i') {
                    self.out
                        .push_str(if flags.ignore_case { "(?i)" } else { "(?-i)" });
                }
            }
            NodeKind::Literal { ch, .. } => self.emit_literal(*ch),
            NodeKind::Dot { dotall } => {
                if *dotall {
                    self.out.push_str(r"[\s\S]");
                } else if self.flavor.is_js() {
                    self.out.push_str(r"[^\n\r\x{2028}\x{2029}]");
                } else {
                    self.out.push_str(r"[^\n]");
                }
            }
            NodeKind::Perl { kind, negated } => self.emit_perl(*kind, *negated),
            NodeKind::Property { name, negated } => {
                let _ = write!(self.out, "\\{}{{{name}}}", if *negated { 'P' } else { 'p' });
            }
            NodeKind::Class(class) => self.emit_class(class),
            NodeKind::Anchor { kind, multiline } => self.emit_anchor(*kind, *multiline, node.span),
            NodeKind::Group { kind, .. } => {
                let mut flags = self.flags();
                match kind {
                    GroupKind::Capture { index, .. } => {
                        self.engine_groups += 1;
                        self.group_map[*index as usize - 1] = self.engine_groups;
                        for (_, inner) in &mut self.open_iterations {
                            inner.push(*index);
                        }
                        self.out.push('(');
                    }
                    GroupKind::NonCapture => self.out.push_str("(?:"),
                    GroupKind::Flags(change) => {
                        flags = crate::vm::apply_flag_change(flags, change);
                        if !change.on.contains('i') && !change.off.contains('i') {
                            self.out.push_str("(?:");
                        } else if flags.ignore_case {
                            self.out.push_str("(?i:");
                        } else {
                            self.out.push_str("(?-i:");
                        }
                    }
                    GroupKind::Lookahead => self.push_backtracking("(?="),
                    GroupKind::NegativeLookahead => self.push_backtracking("(?!"),
                    GroupKind::Lookbehind => self.push_backtracking("(?<="),
                    GroupKind::NegativeLookbehind => self.push_backtracking("(?<!"),
                    GroupKind::Atomic => self.push_backtracking("(?>"),
                    GroupKind::Conditional { .. } => {
                        self.fail(node.span, "a conditional group runs on the matcher".into());
                        self.out.push_str("(?:");
                    }
                }
                self.flags.push(flags);
            }
            NodeKind::Repeat {
                greed, child, max, ..
            } => {
                if let NodeKind::Literal { ch, .. } = child.kind
                    && self.code_units()
                    && (ch as u32) > 0xFFFF
                {
                    let mut units = [0u16; 2];
                    ch.encode_utf16(&mut units);
                    push_char(
                        &mut self.out,
                        rxw_syntax::surrogate_stand_in(units[0] as u32),
                    );
                    self.low_unit_only = true;
                }
                if *greed == Greed::Possessive {
                    self.push_backtracking("(?>");
                }
                let resets = self.flavor.is_js() && max.is_none_or(|m| m > 1) && has_capture(child);
                if resets {
                    self.engine_groups += 1;
                    self.open_iterations.push((self.engine_groups, Vec::new()));
                    self.out.push('(');
                } else {
                    self.out.push_str("(?:");
                }
            }
            NodeKind::Concat(_) | NodeKind::Alternation(_) => {}
            NodeKind::Backref { index, .. } => {
                self.backtrack = true;
                let engine = (*index as usize)
                    .checked_sub(1)
                    .and_then(|k| self.group_map.get(k))
                    .copied()
                    .unwrap_or(0);
                if engine == 0 && self.flavor.is_js() {
                    // A forward reference or a reference to a group not yet opened matches
                    // the empty string in JS.
                    return;
                }
                if engine == 0 {
                    self.fail(
                        node.span,
                        "backreference to a group that is not defined before it".into(),
                    );
                    return;
                }
                if self.flavor.is_js() {
                    // JS: a reference to a group that did not participate matches empty.
                    let _ = write!(self.out, "(?({engine})\\{engine})");
                } else {
                    let _ = write!(self.out, "\\{engine}");
                }
            }
        }
    }

    fn exit(&mut self, node: &Node) {
        match &node.kind {
            NodeKind::Group { .. } => {
                self.flags.pop();
                self.out.push(')');
            }
            NodeKind::Repeat {
                min,
                max,
                greed,
                child,
                ..
            } => {
                let resets = self.flavor.is_js() && max.is_none_or(|m| m > 1) && has_capture(child);
                if resets {
                    let it = self.open_iterations.pop().unwrap();
                    self.iteration_groups.push(it);
                }
                self.out.push(')');
                match (min, max) {
                    (0, None) => self.out.push('*'),
                    (1, None) => self.out.push('+'),
                    (0, Some(1)) => self.out.push('?'),
                    (m, None) => {
                        let _ = write!(self.out, "{{{m},}}");
                    }
                    (m, Some(n)) if m == n => {
                        let _ = write!(self.out, "{{{m}}}");
                    }
                    (m, Some(n)) => {
                        let _ = write!(self.out, "{{{m},{n}}}");
                    }
                }
                match greed {
                    Greed::Lazy if !self.flags().swap_greed => self.out.push('?'),
                    Greed::Greedy if self.flags().swap_greed => self.out.push('?'),
                    Greed::Lazy | Greed::Greedy => {}
                    Greed::Possessive => self.out.push(')'),
                }
            }
            _ => {}
        }
    }
}

/// Whether a class holds a `\p{…}`, a range with a private-use end, or a character `special`
/// picks, at any depth.
fn class_needs_explicit_set(class: &Class, special: &dyn Fn(char, Span) -> bool) -> bool {
    class.items.iter().any(|i| match i {
        ClassItem::Property(..) => true,
        ClassItem::Char(c, span) => special(*c, *span),
        // A range whose end may be a lone surrogate's stand-in (`[\\-\\ud800]`): the compiled
        // set knows which end stands for what.
        ClassItem::Range(a, b, _) => [*a, *b]
            .iter()
            .any(|&c| (0xF0000..0xF0800).contains(&(c as u32))),
        ClassItem::Strings(..) => true,
        ClassItem::Nested(inner) => class_needs_explicit_set(inner, special),
        _ => false,
    })
}

/// Writes a set as a `regex` crate class. Surrogate code points (members of JavaScript
/// code-unit sets) are left out: no `&str` holds one, so they can never match there.
fn push_set(out: &mut String, set: &crate::vm::charset::CharSet) {
    let mut ranges = Vec::new();
    for &(lo, hi) in set.ranges() {
        if lo < 0xD800 {
            ranges.push((lo, hi.min(0xD7FF)));
        }
        if hi > 0xDFFF {
            ranges.push((lo.max(0xE000), hi));
        }
    }
    if ranges.is_empty() {
        out.push_str("[a&&b]");
        return;
    }
    out.push('[');
    for (lo, hi) in ranges {
        let (lo, hi) = (
            char::from_u32(lo).expect("not a surrogate"),
            char::from_u32(hi).expect("not a surrogate"),
        );
        push_class_char(out, lo);
        if hi != lo {
            out.push('-');
            push_class_char(out, hi);
        }
    }
    out.push(']');
}

/// One class member, escaped unless it is a plain letter or digit.
fn push_class_char(out: &mut String, c: char) {
    if c.is_alphanumeric() {
        out.push(c);
    } else {
        let _ = write!(out, "\\x{{{:X}}}", c as u32);
    }
}

fn has_capture(node: &Node) -> bool {
    let mut found = false;
    node.walk(|n, _| {
        if matches!(
            n.kind,
            NodeKind::Group {
                kind: GroupKind::Capture { .. },
                ..
            }
        ) {
            found = true;
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxw_syntax::parse::parse;

    fn tx(p: &str, flavor: Flavor, flags: &str) -> String {
        let flags = Flags::parse(flags, flavor).unwrap();
        let ast = parse(p, flavor, flags).unwrap();
        translate(&ast, p, flavor, Assume::NOTHING).unwrap().pattern
    }

    #[test]
    fn python_z_is_the_absolute_end() {
        assert_eq!(tx(r"a\Z", Flavor::PYTHON, ""), r"a\z");
    }

    #[test]
    fn python_dollar_allows_a_final_newline() {
        assert_eq!(tx(r"a$", Flavor::PYTHON, ""), r"a(?=\n?\z)");
        assert_eq!(tx(r"a$", Flavor::PYTHON, "m"), r"a(?m:$)");
    }

    #[test]
    fn js_dot_and_shorthands() {
        assert_eq!(tx(r".\d", Flavor::JS, ""), r"[^\n\r\x{2028}\x{2029}][0-9]");
    }

    #[test]
    fn python_named_groups_become_plain_groups() {
        assert_eq!(tx(r"(?P<x>a)(?P=x)", Flavor::PYTHON, ""), r"(a)\1");
    }
}
