//! ECMAScript `RegExp` as node runs it: Annex B without `u`/`v`, UTF-16 offsets, `$<name>`
//! replacements, each node release's own Unicode answers (`js_unicode`).

use super::*;
use crate::release::NodeVersion;

static TEXTS: Texts = Texts {
    unopened_group: "Unmatched ')'",
    unclosed_group: "Unterminated group",
    unclosed_flag_group: "Invalid group",
    unclosed_group_name: "Invalid capture group name",
    bad_group_name: "Invalid capture group name",
    duplicate_group_name: "Duplicate capture group name",
    nothing_to_repeat: "Nothing to repeat",
    nested_repetition: "Nothing to repeat",
    repeat_range_order: "numbers out of order in {} quantifier",
    repeat_too_large: "Nothing to repeat",
    unclosed_class: "Unterminated character class",
    class_range_order: "Range out of order in character class",
    trailing_backslash: "\\ at end of pattern",
    class_trailing_backslash: "\\ at end of pattern",
    class_range_boundary: "Invalid character class",
    unknown_group_letter: "Invalid group",
    unknown_flag: "Invalid flags in modifiers",
    unsupported_perl: "Invalid group",
    lookaround: "Invalid group",
    bad_escape: "Invalid escape",
    unknown_property: "Invalid property name",
    unknown_posix_class: "Invalid escape",
    nesting_too_deep: "Maximum call stack size exceeded",
    backreference: "invalid group reference {}",
    pattern_too_large: "the pattern is too large",
    truncated_hex: "Invalid escape",
};

const SYNTAX: Syntax = Syntax {
    inline_flags: "ims",
    p_named_groups: false,
    angle_named_groups: true,
    max_repeat: u32::MAX,
    lookbehind: LookBehind::Any,
    ..Syntax::BACKTRACKING
};

macro_rules! js_rules {
    ($letters:expr) => {
        Rules {
            family_name: "js",
            spelling_note: "also js@N, nodeN",
            offset_unit: OffsetUnit::Utf16,
            flag_letters: $letters,
            flag_order: "dgimsuvyx",
            grammar: Grammar::Ecma,
            syntax: SYNTAX,
            class_specials: "\\[]^-/",
            texts: &TEXTS,
            perl_classes: PerlClasses::Js,
            case_fold: CaseFold::Js,
            properties: Properties::Node,
            tables: None,
            escapes: Escapes::Ecma,
            group_names: GroupNames::Ecma,
            iteration: Iteration::AdvanceOne,
            empty_iteration: EmptyIteration::Fails,
            replacement: Replacement::Ecma,
            linear_time: false,
            rewrites: Rewrites::None,
            language: "js",
            engine: "node RegExp",
        }
    };
}

/// node 18 has no `v` flag.
static NODE18: Rules = js_rules!("imsxuydg");
static NODE20_AND_LATER: Rules = js_rules!("imsxuydgv");

/// The rules of a node release.
pub fn of(release: NodeVersion) -> &'static Rules {
    if release == NodeVersion::Node18 {
        &NODE18
    } else {
        &NODE20_AND_LATER
    }
}
