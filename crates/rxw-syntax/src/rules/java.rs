//! Java's `java.util.regex`: read by its own reader ([`crate::java`]), which keeps Java's
//! error descriptions and refuses what rxw cannot reproduce; UTF-16 offsets; `Matcher.find`'s
//! loop (after an empty match, one unit on); `$1` / `${name}` replacements. Java 17 and 25
//! differ in the trailing-backslash text, `\b`'s word characters and their Unicode data
//! (`gen/java_notes.md`, section 14).

use super::*;
use crate::release::JavaVersion;

/// `PatternSyntaxException` descriptions of Java 25 (`getDescription()`).
pub static TEXTS_25: Texts = Texts {
    unopened_group: "Unmatched closing ')'",
    unclosed_group: UNCLOSED_GROUP,
    unclosed_flag_group: "Unknown inline modifier",
    unclosed_group_name: NAME_UNCLOSED,
    bad_group_name: NAME_START,
    duplicate_group_name: "Named capturing group <{}> is already defined",
    nothing_to_repeat: "Dangling meta character '{}'",
    nested_repetition: "Dangling meta character '{}'",
    repeat_range_order: "Illegal repetition range",
    repeat_too_large: "Illegal repetition range",
    unclosed_class: "Unclosed character class",
    class_range_order: "Illegal character range",
    trailing_backslash: "Unescaped trailing backslash",
    class_trailing_backslash: "Unclosed character class",
    class_range_boundary: "Illegal character range",
    unknown_group_letter: "Unknown inline modifier",
    unknown_flag: "Unknown inline modifier",
    unsupported_perl: "Unknown group type",
    lookaround: LOOKBEHIND_LENGTH,
    bad_escape: BAD_ESCAPE,
    unknown_property: "Unknown character property name {{}}",
    unknown_posix_class: BAD_ESCAPE,
    nesting_too_deep: "Stack overflow during pattern compilation",
    backreference: "named capturing group <{}> does not exist",
    pattern_too_large: "Stack overflow during pattern compilation",
    truncated_hex: BAD_HEX,
};

/// Java 17's: the same but for a trailing `\`.
pub static TEXTS_17: Texts = Texts {
    trailing_backslash: "Unexpected internal error",
    ..TEXTS_25
};

/// A group not closed at the end.
pub const UNCLOSED_GROUP: &str = "Unclosed group";
/// `\q` and the other letters that are no escape.
pub const BAD_ESCAPE: &str = "Illegal/unsupported escape sequence";
/// `\0` without an octal digit.
pub const BAD_OCTAL: &str = "Illegal octal escape sequence";
/// `\x` without two hex digits or a `{`.
pub const BAD_HEX: &str = "Illegal hexadecimal escape sequence";
/// `\x{41`.
pub const UNCLOSED_HEX: &str = "Unclosed hexadecimal escape sequence";
/// `\x{110000}`.
pub const HEX_TOO_BIG: &str = "Hexadecimal codepoint is too big";
/// `\u12`.
pub const BAD_UNICODE: &str = "Illegal Unicode escape sequence";
/// `\c` at the end.
pub const BAD_CONTROL: &str = "Illegal control escape sequence";
/// `(?<1a>`.
pub const NAME_START: &str = "capturing group name does not start with a Latin letter";
/// `(?<a-b>`.
pub const NAME_UNCLOSED: &str = "named capturing group is missing trailing '>'";
/// `\k` without `<`.
pub const K_NOT_FOLLOWED: &str = "\\k is not followed by '<' for named capturing group";
/// A backreference in a look-behind.
pub const LOOKBEHIND_LENGTH: &str = "Look-behind group does not have an obvious maximum length";
/// `[&&]`.
pub const BAD_CLASS: &str = "Bad class syntax";
/// `a{x}`, `a{,3}`.
pub const ILLEGAL_REPETITION: &str = "Illegal repetition";
/// `a{1`, `a{1,2,3}`.
pub const UNCLOSED_COUNT: &str = "Unclosed counted closure";

/// The description of a `\` that ends the pattern.
pub fn trailing_backslash(version: JavaVersion) -> &'static str {
    of(version).texts.trailing_backslash
}

const fn java_rules(texts: &'static Texts, engine: &'static str) -> Rules {
    Rules {
        family_name: "java",
        spelling_note: "also jdk@N",
        syntax: Syntax {
            inline_flags: "imsxuUdc",
            duplicate_flags: true,
            p_named_groups: false,
            angle_named_groups: true,
            max_repeat: i32::MAX as u32,
            quote_escapes: true,
            literal_brace: false,
            lookbehind: LookBehind::FixedWidth,
            ..Syntax::BACKTRACKING
        },
        class_specials: "\\[]^-&",
        replacement: Replacement::Java,
        language: "java",
        engine,
        ..own_reader(Grammar::Java, texts)
    }
}

static JAVA_17: Rules = java_rules(&TEXTS_17, "Java 17 java.util.regex");
static JAVA_25: Rules = java_rules(&TEXTS_25, "Java 25 java.util.regex");

/// The rules of a JDK.
pub fn of(release: JavaVersion) -> &'static Rules {
    match release {
        JavaVersion::V17 => &JAVA_17,
        JavaVersion::V25 => &JAVA_25,
    }
}
