//! PCRE2 10.42 in UTF mode (Debian's libpcre2-8): read by its own reader ([`crate::pcre2`]),
//! which keeps the texts of `pcre2_get_error_message` and refuses what rxw cannot reproduce;
//! byte offsets; pcre2demo's global loop (after an empty match, the same place again for a
//! non-empty match, then one character on); `pcre2_substitute`'s `$1`, `${name}` templates.
//! Flags `i m s x` and `u`, which is PCRE2_UCP.

use super::*;

/// `pcre2_get_error_message` texts of PCRE2 10.42 (compile errors 101–199).
pub static TEXTS: Texts = Texts {
    unopened_group: "unmatched closing parenthesis",
    unclosed_group: "missing closing parenthesis",
    unclosed_flag_group: "missing closing parenthesis",
    unclosed_group_name: "syntax error in subpattern name (missing terminator?)",
    bad_group_name: "subpattern name must start with a non-digit",
    duplicate_group_name: "two named subpatterns have the same name (PCRE2_DUPNAMES not set)",
    nothing_to_repeat: "quantifier does not follow a repeatable item",
    nested_repetition: "quantifier does not follow a repeatable item",
    repeat_range_order: "numbers out of order in {} quantifier",
    repeat_too_large: "number too big in {} quantifier",
    unclosed_class: "missing terminating ] for character class",
    class_range_order: "range out of order in character class",
    trailing_backslash: "\\ at end of pattern",
    class_trailing_backslash: "\\ at end of pattern",
    class_range_boundary: "invalid range in character class",
    unknown_group_letter: "unrecognized character after (? or (?-",
    unknown_flag: "unrecognized character after (? or (?-",
    unsupported_perl: "unrecognized character after (? or (?-",
    lookaround: "lookbehind assertion is not fixed length",
    bad_escape: "unrecognized character follows \\",
    unknown_property: "unknown property after \\P or \\p",
    unknown_posix_class: "unknown POSIX class name",
    nesting_too_deep: "parentheses are too deeply nested",
    backreference: "reference to non-existent subpattern",
    pattern_too_large: "regular expression is too large",
    truncated_hex: "non-hex character in \\x{} (closing brace missing?)",
};

/// PCRE2 10.42, UTF always on.
pub static PCRE2: Rules = Rules {
    family_name: "pcre2",
    spelling_note: "also pcre",
    offset_unit: OffsetUnit::Bytes,
    flag_letters: "imsxu",
    flag_order: "imsxu",
    syntax: Syntax {
        inline_flags: "imsx",
        duplicate_flags: true,
        p_named_groups: true,
        angle_named_groups: true,
        max_repeat: 65_535,
        quote_escapes: true,
        lookbehind: LookBehind::FixedAlternatives,
        byte_escape: true,
        ..Syntax::BACKTRACKING
    },
    iteration: Iteration::RetryNonEmpty,
    replacement: Replacement::Pcre2,
    language: "pcre2",
    engine: "PCRE2 10.42",
    ..own_reader(Grammar::Pcre2, &TEXTS)
};
