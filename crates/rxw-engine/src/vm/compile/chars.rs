//! Single characters: the code point a literal stands for (JavaScript's surrogate stand-ins
//! and code units), its test under the flavor's case folding, and the dot.

use super::super::charset::{CaseRule, CharSet, Fold};
use super::super::{Inst, Test};
use super::{Compiler, go_data, js_data};
use rxw_syntax::Span;
use rxw_syntax::flavor::{Flags, Flavor};
use rxw_syntax::rules::CaseFold;

impl Compiler<'_> {
    /// The code point (or, without `u`, code unit) a JavaScript literal stands for: a
    /// surrogate escape is kept by the parser as a private-use stand-in. With `u`/`v` the
    /// surrogate is a lone code point, which no UTF-8 text holds, so its test never passes.
    pub(super) fn literal_code(&self, ch: char, span: Span) -> u32 {
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
    pub(super) fn range_codes(&self, lo: char, hi: char, span: Span) -> (u32, u32) {
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

    pub(super) fn literal(&mut self, ch: char, flags: Flags, back: bool, span: Span) {
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
        let test = self.literal_test(c, flags);
        self.push(Inst::Consume { test, back }, span);
    }

    /// A literal's test: [`Compiler::char_test`], but for node 24 and 25's one-byte rule (see
    /// [`super::compile_for_latin1_text`]).
    pub(super) fn literal_test(&mut self, c: u32, flags: Flags) -> Test {
        if self.latin1_text && c > 0xFF && flags.ignore_case && !self.global_ignore_case {
            return Test::Char(c);
        }
        self.char_test(c, flags)
    }

    pub(super) fn char_test(&mut self, c: u32, flags: Flags) -> Test {
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
    pub(super) fn case_rule(&self, flags: Flags) -> CaseRule {
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
    pub(super) fn fold_category(&self, set: CharSet, flags: Flags) -> CharSet {
        if !flags.ignore_case {
            return set;
        }
        match self.case_rule(flags) {
            CaseRule::Python(v) => Fold::PythonLower(v).preimage(&set),
            CaseRule::PythonAscii => Fold::PythonAsciiLower.preimage(&set),
            rule => rule.close(&set),
        }
    }

    pub(super) fn dot(&self, dotall: bool) -> Test {
        match self.flavor {
            _ if dotall => Test::Any,
            Flavor::Js(_) => Test::AnyNotJsLineTerminator,
            _ => Test::AnyNotNewline,
        }
    }
}

/// ICU's simple case folding of `c` under `rule`'s case classes: the member a class folds to
/// (the lower case of an upper-case member, except where Unicode folds to the upper case, as
/// for Cherokee); `c` when it has no class.
pub(super) fn simple_case_fold(rule: CaseRule, c: u32) -> u32 {
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
