//! The `regex` crate itself: regex-syntax's grammar, byte offsets, `$name` replacements, and
//! no look-around, backreferences or atomic groups (refused in the crate's own words; those
//! are the [`super::fancy`] flavor's).

use super::*;

static TEXTS: Texts = Texts {
    unopened_group: "unopened group",
    unclosed_group: "unclosed group",
    unclosed_flag_group: "unclosed group",
    unclosed_group_name: "unclosed capture group name",
    bad_group_name: "invalid capture group character",
    duplicate_group_name: "duplicate capture group name",
    nothing_to_repeat: "repetition operator missing expression",
    nested_repetition: "repetition operator missing expression",
    repeat_range_order: "invalid repetition count range, the start must be <= the end",
    repeat_too_large: "decimal literal invalid",
    unclosed_class: "unclosed character class",
    class_range_order: "invalid character class range, the start must be <= the end",
    trailing_backslash: "incomplete escape sequence, reached end of pattern prematurely",
    class_trailing_backslash: "unclosed character class",
    class_range_boundary: "invalid range boundary, must be a literal",
    unknown_group_letter: "unrecognized flag",
    unknown_flag: "unrecognized flag",
    unsupported_perl: "unrecognized flag",
    lookaround: "look-around, including look-ahead and look-behind, is not supported (the \
                 fancy flavor, fancy-regex, has it)",
    bad_escape: "unrecognized escape sequence",
    unknown_property: "Unicode property not found",
    unknown_posix_class: "invalid ASCII character class",
    nesting_too_deep: "exceed the maximum nesting depth",
    backreference: "backreferences are not supported (the fancy flavor, fancy-regex, has \
                    them)",
    pattern_too_large: "the pattern is too large",
    truncated_hex: "unrecognized escape sequence",
};

/// The Rust flavor's rules.
pub static RUST: Rules = rust_rules(false, LookBehind::FixedWidth, "the regex crate");

/// The regex-syntax grammar's rules, with or without fancy-regex's backtracking constructs.
pub(super) const fn rust_rules(
    backtracking: bool,
    lookbehind: LookBehind,
    engine: &'static str,
) -> Rules {
    Rules {
        family_name: "rust",
        spelling_note: "",
        offset_unit: OffsetUnit::Bytes,
        flag_letters: "imsxUR",
        flag_order: "imsxUR",
        grammar: Grammar::Re2,
        syntax: Syntax {
            inline_flags: "imsuxUR",
            duplicate_names: false,
            duplicate_flags: false,
            empty_negation_refused: false,
            p_named_groups: true,
            angle_named_groups: true,
            max_repeat: u32::MAX,
            lookbehind_reads_as_name: false,
            backtracking_constructs: backtracking,
            quote_escapes: false,
            octal_escapes: false,
            extended_word_boundaries: true,
            class_set_operations: true,
            literal_brace: false,
            repeat_product_limited: false,
            lookbehind,
            nested_repetition_refused: false,
            spaces_in_counts: true,
            leading_zeros_in_counts: true,
            opener_needs_more: false,
            any_ascii_punctuation_escapes: false,
            loose_property_names: true,
            max_nesting: None,
            program_size: ProgramSize::Unlimited,
            byte_escape: false,
        },
        class_specials: "\\[]^-&~",
        texts: &TEXTS,
        perl_classes: PerlClasses::RegexSyntax,
        case_fold: CaseFold::Simple,
        properties: Properties::RegexSyntax,
        tables: None,
        escapes: Escapes::RegexSyntax,
        group_names: GroupNames::RegexSyntax,
        iteration: Iteration::SkipEmptyAfterMatch,
        empty_iteration: EmptyIteration::Kept,
        replacement: Replacement::Dollar,
        linear_time: false,
        rewrites: Rewrites::None,
        language: "rust",
        engine,
    }
}
