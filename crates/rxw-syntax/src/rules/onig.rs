//! Ruby's `Regexp` (Onigmo, as Ruby 3.1 runs it) and the Oniguruma C library (6.9.8, its own
//! syntax `ONIG_SYNTAX_ONIGURUMA`): read by their own reader ([`crate::onig`]), which keeps the
//! engines' error texts and refuses what rxw cannot reproduce. Both have the flags `i m x`,
//! where `m` lets `.` match a newline; `^` and `$` are always line anchors. Ruby reports
//! positions in characters, the C library in bytes; Ruby's `scan` and the library's search
//! loop go on one character after an empty match; `gsub`'s `\1`, `\k<name>`, `\0`, `\&`.

use super::*;

/// Onigmo's and Oniguruma's error texts (`onig_error_code_to_str`), as `RegexpError` carries
/// them without Ruby's `: /pattern/` suffix.
pub static TEXTS: Texts = Texts {
    unopened_group: UNMATCHED_CLOSE,
    unclosed_group: UNCLOSED_GROUP,
    unclosed_flag_group: END_PATTERN_IN_GROUP,
    unclosed_group_name: "invalid group name <{}>",
    bad_group_name: "invalid group name <{}>",
    duplicate_group_name: "multiplex defined name <{}>",
    nothing_to_repeat: NOTHING_TO_REPEAT,
    nested_repetition: "nested repeat operator",
    repeat_range_order: REPEAT_RANGE_ORDER,
    repeat_too_large: REPEAT_TOO_LARGE,
    unclosed_class: UNCLOSED_CLASS,
    class_range_order: CLASS_RANGE_ORDER,
    trailing_backslash: "too short escape sequence",
    class_trailing_backslash: UNCLOSED_CLASS,
    class_range_boundary: "char-class value at end of range",
    unknown_group_letter: UNDEFINED_GROUP_OPTION,
    unknown_flag: UNDEFINED_GROUP_OPTION,
    unsupported_perl: UNDEFINED_GROUP_OPTION,
    lookaround: LOOK_BEHIND,
    bad_escape: "invalid escape",
    unknown_property: "invalid character property name {{}}",
    unknown_posix_class: "invalid POSIX bracket type",
    nesting_too_deep: "parse depth limit over",
    backreference: "undefined name <{}> reference",
    pattern_too_large: "too big number",
    truncated_hex: "invalid code point value",
};

/// `)` with no group open.
pub const UNMATCHED_CLOSE: &str = "unmatched close parenthesis";
/// A group not closed at the end.
pub const UNCLOSED_GROUP: &str = "end pattern with unmatched parenthesis";
/// `(?` at the end, or a group name not closed.
pub const END_PATTERN_IN_GROUP: &str = "end pattern in group";
/// `*` with nothing before it.
pub const NOTHING_TO_REPEAT: &str = "target of repeat operator is not specified";
/// `a{2,1}`.
pub const REPEAT_RANGE_ORDER: &str = "upper is smaller than lower in repeat range";
/// `a{100001}`.
pub const REPEAT_TOO_LARGE: &str = "too big number for repeat range";
/// `[a`.
pub const UNCLOSED_CLASS: &str = "premature end of char-class";
/// `[b-a]`.
pub const CLASS_RANGE_ORDER: &str = "empty range in char class";
/// `(?z)`.
pub const UNDEFINED_GROUP_OPTION: &str = "undefined group option";
/// A look-behind that is not a fixed width per alternative.
pub const LOOK_BEHIND: &str = "invalid pattern in look-behind";
/// `\1` where the pattern has named groups.
pub const NUMBERED_BACKREF: &str = "numbered backref/call is not allowed. (use name)";
/// `\5` with fewer groups.
pub const INVALID_BACKREF: &str = "invalid backref number/name";
/// `\k<x>` with no group `x`.
pub const UNDEFINED_NAME: &str = "undefined name <{}> reference";
/// `(?<>a)`.
pub const EMPTY_GROUP_NAME: &str = "group name is empty";
/// `[[:foo:]]`.
pub const BAD_POSIX: &str = "invalid POSIX bracket type";
/// `\p{Foo}`.
pub const BAD_PROPERTY: &str = "invalid character property name {{}}";
/// `[]`, `[^]`.
pub const EMPTY_CLASS: &str = "empty char-class";

const fn onig_rules(
    family_name: &'static str,
    spelling_note: &'static str,
    offset_unit: OffsetUnit,
    engine: &'static str,
    language: &'static str,
) -> Rules {
    Rules {
        family_name,
        spelling_note,
        offset_unit,
        flag_letters: "imx",
        flag_order: "imx",
        syntax: Syntax {
            inline_flags: "imx",
            duplicate_names: true,
            duplicate_flags: true,
            p_named_groups: false,
            angle_named_groups: true,
            max_repeat: 100_000,
            class_set_operations: true,
            lookbehind: LookBehind::FixedAlternatives,
            nested_repetition_refused: false,
            loose_property_names: true,
            ..Syntax::BACKTRACKING
        },
        class_specials: "\\[]^-&",
        replacement: Replacement::Ruby,
        language,
        engine,
        ..own_reader(Grammar::Onig, &TEXTS)
    }
}

/// Ruby 3.1's `Regexp` (Onigmo 6.2): positions in characters.
pub static RUBY_3_1: Rules = onig_rules(
    "ruby",
    "also onigmo@3.1",
    OffsetUnit::CodePoints,
    "Ruby 3.1 Regexp (Onigmo)",
    "ruby",
);

/// The Oniguruma C library, 6.9.8 (Debian's libonig5), with its own syntax: positions in bytes.
pub static ONIGURUMA: Rules = onig_rules(
    "oniguruma",
    "also onig",
    OffsetUnit::Bytes,
    "Oniguruma 6.9.8",
    "ruby",
);
