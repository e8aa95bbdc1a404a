//! .NET's `System.Text.RegularExpressions` as Mono 6.8 runs it (the .NET Framework regex
//! sources): read by its own reader ([`crate::dotnet`]), which keeps the parser's
//! `ArgumentException` descriptions and refuses what rxw cannot reproduce; UTF-16 offsets;
//! `Regex.Matches`' loop (after an empty match, one unit on); `$1`, `${name}`, `$&`, `` $` ``,
//! `$'`, `$_`, `$$` replacements. Flags `i m s x` (RegexOptions IgnoreCase, Multiline,
//! Singleline, IgnorePatternWhitespace); inline `(?imnsx-imnsx)`.

use super::*;

/// The descriptions of Mono 6.8's `RegexParser` (its message is `parsing "PATTERN" - ` and
/// the description).
pub static TEXTS: Texts = Texts {
    unopened_group: TOO_MANY_PARENS,
    unclosed_group: NOT_ENOUGH_PARENS,
    unclosed_flag_group: UNRECOGNIZED_GROUPING,
    unclosed_group_name: INVALID_GROUP_NAME,
    bad_group_name: INVALID_GROUP_NAME,
    duplicate_group_name: INVALID_GROUP_NAME,
    nothing_to_repeat: QUANTIFY_AFTER_NOTHING,
    nested_repetition: "Nested quantifier {}.",
    repeat_range_order: ILLEGAL_RANGE,
    repeat_too_large: CAPTURE_GROUP_OUT_OF_RANGE,
    unclosed_class: UNTERMINATED_BRACKET,
    class_range_order: "[x-y] range in reverse order.",
    trailing_backslash: ILLEGAL_END_ESCAPE,
    class_trailing_backslash: UNTERMINATED_BRACKET,
    class_range_boundary: "Cannot include class \\{} in character range.",
    unknown_group_letter: UNRECOGNIZED_GROUPING,
    unknown_flag: UNRECOGNIZED_GROUPING,
    unsupported_perl: UNRECOGNIZED_GROUPING,
    lookaround: UNRECOGNIZED_GROUPING,
    bad_escape: "Unrecognized escape sequence \\{}.",
    unknown_property: "Unknown property '{}'.",
    unknown_posix_class: UNTERMINATED_BRACKET,
    nesting_too_deep: NOT_ENOUGH_PARENS,
    backreference: "Reference to undefined group number {}.",
    pattern_too_large: CAPTURE_GROUP_OUT_OF_RANGE,
    truncated_hex: "Insufficient hexadecimal digits.",
};

/// `)` with no group open.
pub const TOO_MANY_PARENS: &str = "Too many )'s.";
/// A group not closed.
pub const NOT_ENOUGH_PARENS: &str = "Not enough )'s.";
/// `(?` followed by what no group starts with.
pub const UNRECOGNIZED_GROUPING: &str = "Unrecognized grouping construct.";
/// `(?<1a>…)`, `(?<-…>` with no name.
pub const INVALID_GROUP_NAME: &str =
    "Invalid group name: Group names must begin with a word character.";
/// `*` at the start of a branch.
pub const QUANTIFY_AFTER_NOTHING: &str = "Quantifier {x,y} following nothing.";
/// `{3,2}`.
pub const ILLEGAL_RANGE: &str = "Illegal {x,y} with x > y.";
/// A number past `Int32.MaxValue`.
pub const CAPTURE_GROUP_OUT_OF_RANGE: &str =
    "Capture group numbers must be less than or equal to Int32.MaxValue.";
/// A class not closed.
pub const UNTERMINATED_BRACKET: &str = "Unterminated [] set.";
/// A `\` at the end.
pub const ILLEGAL_END_ESCAPE: &str = "Illegal \\ at end of pattern.";
/// `(?#` not closed.
pub const UNTERMINATED_COMMENT: &str = "Unterminated (?#...) comment.";
/// `\k` without `<name>`.
pub const MALFORMED_NAME_REF: &str = "Malformed \\k<...> named back reference.";
/// `\k<x>` of no group.
pub const UNDEFINED_NAME_REF: &str = "Reference to undefined group name {}.";
/// `\5` of no group.
pub const UNDEFINED_BACKREF: &str = "Reference to undefined group number {}.";
/// `\c` at the end.
pub const MISSING_CONTROL: &str = "Missing control character.";
/// `\c1`.
pub const UNRECOGNIZED_CONTROL: &str = "Unrecognized control character.";
/// `(?<0>…)`.
pub const CAPNUM_NOT_ZERO: &str = "Capture number cannot be zero.";
/// `[a-[b]c]`.
pub const SUBTRACTION_MUST_BE_LAST: &str =
    "A subtraction must be the last element in a character class.";
/// `\p` without `{X}`.
pub const INCOMPLETE_SLASH_P: &str = "Incomplete \\p{X} character escape.";
/// `\pL`.
pub const MALFORMED_SLASH_P: &str = "Malformed \\p{X} character escape.";
/// `(?(1)a|b|c)`.
pub const TOO_MANY_ALTERNATES: &str = "Too many | in (?()|).";
/// `(?(5)a)` of no group.
pub const UNDEFINED_REFERENCE: &str = "(?({}) ) reference to undefined group.";
/// `(?(1x)a)`.
pub const MALFORMED_REFERENCE: &str = "(?({}) ) malformed.";
/// `(?(?#…)…)`.
pub const ALTERNATION_CANT_HAVE_COMMENT: &str = "Alternation conditions cannot be comments.";
/// `(?((?<n>a))…)`.
pub const ALTERNATION_CANT_CAPTURE: &str =
    "Alternation conditions do not capture and cannot be named.";

/// Mono 6.8.
pub static DOTNET: Rules = Rules {
    family_name: "dotnet",
    spelling_note: "also .net, csharp, mono",
    syntax: Syntax {
        inline_flags: "imnsx",
        duplicate_flags: true,
        p_named_groups: false,
        angle_named_groups: true,
        max_repeat: i32::MAX as u32,
        quote_escapes: false,
        literal_brace: true,
        lookbehind: LookBehind::FixedWidth,
        ..Syntax::BACKTRACKING
    },
    replacement: Replacement::Dotnet,
    language: "csharp",
    engine: "Mono 6.8 System.Text.RegularExpressions",
    ..own_reader(Grammar::Dotnet, &TEXTS)
};
