//! RE2 (the library of ClickHouse, DuckDB, BigQuery and Loki): the grammar Go's
//! `regexp/syntax` reads, with RE2's own error texts (no quotes around the piece), Unicode
//! group names, `\C`, no nesting limit, a limit on the compiled program's instructions, and
//! RE2's Unicode 15.1 tables (`re2_unicode`, generated from the `google-re2` package). Find-all
//! runs `RE2::GlobalReplace`'s loop (an empty match where the previous one ended is skipped,
//! as in Go) and replacements are `RE2::Rewrite`'s `\0`–`\9`. Everything else, and every
//! difference from Go with its probe, is in `gen/re2_notes.md`.

use super::*;
use crate::re2_unicode::Re2Unicode;

static TEXTS: Texts = Texts {
    unopened_group: "unexpected ): {}",
    unclosed_group: "missing ): {}",
    unclosed_flag_group: "invalid perl operator: {}",
    unclosed_group_name: "invalid named capture group: {}",
    bad_group_name: "invalid named capture group: {}",
    duplicate_group_name: "duplicate capture group name: {}",
    nothing_to_repeat: "no argument for repetition operator: {}",
    nested_repetition: "bad repetition operator: {}",
    repeat_range_order: "invalid repetition size: {}",
    repeat_too_large: "invalid repetition size: {}",
    unclosed_class: "missing ]: {}",
    class_range_order: "invalid character class range: {}",
    trailing_backslash: "trailing \\",
    class_trailing_backslash: "trailing \\",
    class_range_boundary: "invalid escape sequence: {}",
    unknown_group_letter: "invalid perl operator: {}",
    unknown_flag: "invalid perl operator: {}",
    unsupported_perl: "invalid perl operator: {}",
    lookaround: "invalid perl operator: {}",
    bad_escape: "invalid escape sequence: {}",
    unknown_property: "invalid character class range: {}",
    unknown_posix_class: "invalid character class range: {}",
    nesting_too_deep: "expression nests too deeply: {}",
    backreference: "invalid escape sequence: {}",
    pattern_too_large: "pattern too large - compile failed",
    truncated_hex: "invalid UTF-8",
};

/// RE2's syntax switches; Go's `regexp/syntax` starts from them ([`super::go`]).
pub(super) const SYNTAX: Syntax = Syntax {
    inline_flags: "imsU",
    duplicate_names: true,
    duplicate_flags: true,
    empty_negation_refused: true,
    p_named_groups: true,
    angle_named_groups: true,
    max_repeat: 1000,
    lookbehind_reads_as_name: false,
    backtracking_constructs: false,
    quote_escapes: true,
    octal_escapes: true,
    extended_word_boundaries: false,
    class_set_operations: false,
    literal_brace: true,
    repeat_product_limited: true,
    lookbehind: LookBehind::FixedWidth,
    nested_repetition_refused: true,
    spaces_in_counts: false,
    leading_zeros_in_counts: false,
    opener_needs_more: true,
    any_ascii_punctuation_escapes: true,
    loose_property_names: false,
    max_nesting: None,
    // The forward program's share of the default 8 MiB `max_mem`, in 8-byte instructions
    // (probe: `'a' * 698992` compiles, one more does not).
    program_size: ProgramSize::Re2Instructions(698_996),
    byte_escape: true,
};

/// The RE2 flavor's rules.
pub static RE2: Rules = Rules {
    family_name: "re2",
    spelling_note: "",
    offset_unit: OffsetUnit::Bytes,
    flag_letters: "ims",
    flag_order: "imsU",
    grammar: Grammar::Re2,
    syntax: SYNTAX,
    class_specials: "\\[]^-",
    texts: &TEXTS,
    perl_classes: PerlClasses::Ascii,
    case_fold: CaseFold::Orbits,
    properties: Properties::Tables,
    tables: Some(EngineTables::Re2(Re2Unicode)),
    escapes: Escapes::Perl,
    group_names: GroupNames::Tables,
    iteration: Iteration::SkipEmptyAfterMatch,
    empty_iteration: EmptyIteration::Revisited,
    replacement: Replacement::Rewrite,
    linear_time: true,
    rewrites: Rewrites::None,
    language: "go",
    engine: "RE2 2025-11-05",
};
