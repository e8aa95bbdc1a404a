//! Go's `regexp` (`regexp/syntax`): RE2's grammar without look-around or backreferences,
//! ASCII `\d \w \s \b`, case folding by `unicode.SimpleFold` orbits, byte offsets,
//! leftmost-first matches in time linear in the text, `Regexp.Expand` replacements. Each
//! release's Unicode data and `\p{…}` names are its own (`go_unicode`, generated from the
//! real toolchains). Error texts are `regexp/syntax`'s codes with the text it quotes (what
//! `err.Error()` says after `error parsing regexp: `).

use super::*;
use crate::go_unicode::GoUnicode;
use crate::release::GoVersion;

const TEXTS: Texts = Texts {
    unopened_group: "unexpected ): `{}`",
    unclosed_group: "missing closing ): `{}`",
    unclosed_flag_group: "invalid or unsupported Perl syntax: `{}`",
    unclosed_group_name: "invalid named capture: `{}`",
    bad_group_name: "invalid named capture: `{}`",
    duplicate_group_name: "duplicate capture group name: `{}`",
    nothing_to_repeat: "missing argument to repetition operator: `{}`",
    nested_repetition: "invalid nested repetition operator: `{}`",
    repeat_range_order: "invalid repeat count: `{}`",
    repeat_too_large: "invalid repeat count: `{}`",
    unclosed_class: "missing closing ]: `{}`",
    class_range_order: "invalid character class range: `{}`",
    trailing_backslash: "trailing backslash at end of expression: ``",
    class_trailing_backslash: "trailing backslash at end of expression: ``",
    class_range_boundary: "invalid escape sequence: `{}`",
    unknown_group_letter: "invalid or unsupported Perl syntax: `{}`",
    unknown_flag: "invalid or unsupported Perl syntax: `{}`",
    unsupported_perl: "invalid or unsupported Perl syntax: `{}`",
    lookaround: "invalid or unsupported Perl syntax: `{}`",
    bad_escape: "invalid escape sequence: `{}`",
    unknown_property: "invalid character class range: `{}`",
    unknown_posix_class: "invalid character class range: `{}`",
    nesting_too_deep: "expression nests too deeply: `{}`",
    backreference: "invalid escape sequence: `{}`",
    pattern_too_large: "expression too large: `{}`",
    truncated_hex: "invalid escape sequence: `{}`",
};

/// Go 1.19 had no "expression too large" yet: its size check panicked as an internal error.
static TEXTS_1_19: Texts = Texts {
    pattern_too_large: "regexp/syntax: internal error: `{}`",
    ..TEXTS
};
static TEXTS_1_21: Texts = TEXTS;

macro_rules! go_rules {
    ($angle:expr, $loose:expr, $engine:expr, $texts:expr, $tables:expr) => {
        Rules {
            family_name: "go",
            spelling_note: "also golang@1.X; a release between two named ones reads as the older",
            offset_unit: OffsetUnit::Bytes,
            flag_letters: "imsU",
            flag_order: "imsU",
            grammar: Grammar::Re2,
            syntax: Syntax {
                angle_named_groups: $angle,
                lookbehind_reads_as_name: $angle,
                loose_property_names: $loose,
                max_nesting: Some(1000),
                // 128 MiB of 40-byte instructions.
                program_size: ProgramSize::GoCalcSize((128 << 20) / 40),
                byte_escape: false,
                ..super::re2::SYNTAX
            },
            class_specials: "\\[]^-",
            texts: $texts,
            perl_classes: PerlClasses::Ascii,
            case_fold: CaseFold::Orbits,
            properties: Properties::Tables,
            tables: Some(EngineTables::Go($tables)),
            escapes: Escapes::Perl,
            group_names: GroupNames::Tables,
            iteration: Iteration::SkipEmptyAfterMatch,
            empty_iteration: EmptyIteration::Revisited,
            replacement: Replacement::GoExpand,
            linear_time: true,
            rewrites: Rewrites::None,
            language: "go",
            engine: $engine,
        }
    };
}

static GO_1_19: Rules = go_rules!(
    false,
    false,
    "Go 1.19 regexp",
    &TEXTS_1_19,
    GoUnicode::nth(0)
);
static GO_1_21: Rules = go_rules!(
    false,
    false,
    "Go 1.21 regexp",
    &TEXTS_1_21,
    GoUnicode::nth(1)
);
static GO_1_22: Rules = go_rules!(
    true,
    false,
    "Go 1.22 regexp",
    &TEXTS_1_21,
    GoUnicode::nth(2)
);
static GO_1_25: Rules = go_rules!(true, true, "Go 1.25 regexp", &TEXTS_1_21, GoUnicode::nth(3));
static GO_1_26: Rules = go_rules!(true, true, "Go 1.26 regexp", &TEXTS_1_21, GoUnicode::nth(4));
static GO_1_27: Rules = go_rules!(true, true, "Go 1.27 regexp", &TEXTS_1_21, GoUnicode::nth(5));

/// The rules of a Go release.
pub fn of(release: GoVersion) -> &'static Rules {
    match release {
        GoVersion::V1_19 => &GO_1_19,
        GoVersion::V1_21 => &GO_1_21,
        GoVersion::V1_22 => &GO_1_22,
        GoVersion::V1_25 => &GO_1_25,
        GoVersion::V1_26 => &GO_1_26,
        GoVersion::V1_27 => &GO_1_27,
    }
}
