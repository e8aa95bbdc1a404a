//! CPython's `re`: the `sre_parse` grammar, code-point offsets, `\1` and `\g<name>`
//! replacements. Release differences (3.11's atomic groups, 3.14's `\z`, each release's
//! Unicode data) are read from the release itself ([`crate::PyVersion`]).

use super::*;
use crate::release::PyVersion;

static TEXTS: Texts = Texts {
    unopened_group: "unbalanced parenthesis",
    unclosed_group: "missing ), unterminated subpattern",
    unclosed_flag_group: "missing -, : or )",
    unclosed_group_name: "missing >, unterminated name",
    bad_group_name: "bad character in group name '{}'",
    duplicate_group_name: "redefinition of group name '{}'",
    nothing_to_repeat: "nothing to repeat",
    nested_repetition: "multiple repeat",
    repeat_range_order: "min repeat greater than max repeat",
    repeat_too_large: "the repetition number is too large",
    unclosed_class: "unterminated character set",
    class_range_order: "bad character range {}",
    trailing_backslash: "bad escape (end of pattern)",
    class_trailing_backslash: "unterminated character set",
    class_range_boundary: "bad character range {}",
    unknown_group_letter: "unknown extension ?{}",
    unknown_flag: "unknown flag",
    unsupported_perl: "unknown extension {}",
    lookaround: "unknown extension {}",
    bad_escape: "bad escape {}",
    unknown_property: "bad escape {}",
    unknown_posix_class: "bad escape {}",
    nesting_too_deep: "maximum recursion limit exceeded",
    backreference: "invalid group reference {}",
    pattern_too_large: "the pattern is too large",
    truncated_hex: "bad escape {}",
};

static PYTHON: Rules = Rules {
    family_name: "python",
    spelling_note: "also py@X.Y",
    offset_unit: OffsetUnit::CodePoints,
    flag_letters: "imsxa",
    flag_order: "aimsx",
    grammar: Grammar::Sre,
    syntax: Syntax {
        inline_flags: "aiLmsux",
        p_named_groups: true,
        angle_named_groups: false,
        max_repeat: u32::MAX - 1,
        lookbehind: LookBehind::FixedWidth,
        ..Syntax::BACKTRACKING
    },
    class_specials: "\\[]^-&~|",
    texts: &TEXTS,
    perl_classes: PerlClasses::Python,
    case_fold: CaseFold::Python,
    properties: Properties::None,
    tables: None,
    escapes: Escapes::Sre,
    group_names: GroupNames::Identifier,
    iteration: Iteration::RetryNonEmpty,
    empty_iteration: EmptyIteration::Kept,
    replacement: Replacement::Backslash,
    linear_time: false,
    rewrites: Rewrites::Sre,
    language: "python",
    engine: "CPython re",
};

/// The rules of a CPython release (one table: the releases' differences are asked of the
/// release where they are carried out).
pub fn of(_release: PyVersion) -> &'static Rules {
    &PYTHON
}
