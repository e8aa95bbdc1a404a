//! Everything that differs between flavors, as data: one [`Rules`] per flavor and release.
//!
//! The parser, the engine, the code generators and the front ends ask [`crate::Flavor::rules`]
//! instead of matching on the flavor. A rule's value names a behaviour, not a family
//! ([`Grammar::Re2`] is read by the Rust and Go flavors alike, [`CaseFold::Orbits`] is Go's
//! and RE2's), so a new engine family is a new file here that picks behaviours and writes its
//! texts, plus its tables and its oracle tests; only a behaviour no family had before needs
//! code where it is carried out.
//!
//! One file per family: [`python`], [`js`], [`rust`], [`fancy`], [`go`], [`re2`], [`java`],
//! [`onig`], [`pcre2`], [`dotnet`].

pub mod dotnet;
pub mod fancy;
pub mod go;
pub mod java;
pub mod js;
pub mod onig;
pub mod pcre2;
pub mod python;
pub mod re2;
pub mod rust;

pub use crate::engine_tables::EngineTables;
use crate::release::OffsetUnit;

/// What a flavor is, for every part of rxw that must treat flavors differently.
#[derive(Debug)]
pub struct Rules {
    /// The family's lower-case name: `rust`, `python`, `js`, `go`.
    pub family_name: &'static str,
    /// Other spellings the family accepts, for `--help` (`also py@X.Y`).
    pub spelling_note: &'static str,
    /// The unit the engine reports positions in.
    pub offset_unit: OffsetUnit,
    /// The flag letters a user can set from outside the pattern.
    pub flag_letters: &'static str,
    /// The order flag letters are written in (`letters()`), a superset of `flag_letters`.
    pub flag_order: &'static str,
    /// The grammar the parser reads.
    pub grammar: Grammar,
    /// The switches of that grammar that differ between flavors reading it.
    pub syntax: Syntax,
    /// Characters a lint suggests escaping inside a class.
    pub class_specials: &'static str,
    /// The engine's error texts, in its own words.
    pub texts: &'static Texts,
    /// What `\d`, `\w`, `\s` and `\b` mean.
    pub perl_classes: PerlClasses,
    /// How `i` folds case.
    pub case_fold: CaseFold,
    /// Where `\p{…}` names and their code points come from.
    pub properties: Properties,
    /// The engine's generated Unicode tables ([`Properties::Tables`], [`CaseFold::Orbits`],
    /// [`GroupNames::Tables`] read them); `None` for flavors on rxw's built-in data.
    pub tables: Option<EngineTables>,
    /// How escapes after `\` are read.
    pub escapes: Escapes,
    /// Which characters a group name may hold.
    pub group_names: GroupNames,
    /// What the find-all loop does after an empty match.
    pub iteration: Iteration,
    /// What a repetition does with an iteration that matches the empty text.
    pub empty_iteration: EmptyIteration,
    /// How a replacement template is written.
    pub replacement: Replacement,
    /// Whether the engine guarantees time linear in the text (RE2's automata): a ReDoS verdict
    /// for such an engine is linear by construction.
    pub linear_time: bool,
    /// What the engine's own compiler rewrites before it runs a pattern. The matcher runs the
    /// rewritten program, so its steps, the debugger's trace and the ReDoS verdicts follow it.
    pub rewrites: Rewrites,
    /// The code generator's language for this flavor (`python`, `js`, `rust`, `go`).
    pub language: &'static str,
    /// The real engine, for labels and docs (`CPython 3.11 re`, `Go 1.22 regexp`).
    pub engine: &'static str,
}

/// What the families read by a reader of their own ([`Grammar::Java`], [`Grammar::Onig`],
/// [`Grammar::Pcre2`], [`Grammar::Dotnet`]) share: the reader writes sre text with ASCII
/// classes and ASCII case folding and refuses what rests on Unicode data rxw does not hold, so
/// the matcher runs it on its built-in data as the backtracking engine it is, with Perl's
/// escapes and group names; an empty iteration is kept. Each family's rules start from these
/// (`..own_reader(grammar, texts)`) and name the rest: its name, language and engine (left
/// empty here), and its flags, syntax, offsets, find-all loop and replacement where they
/// differ from the defaults below (Java's and .NET's).
pub(crate) const fn own_reader(grammar: Grammar, texts: &'static Texts) -> Rules {
    Rules {
        family_name: "",
        spelling_note: "",
        offset_unit: OffsetUnit::Utf16,
        flag_letters: "imsx",
        flag_order: "imsx",
        grammar,
        syntax: Syntax::BACKTRACKING,
        class_specials: "\\[]^-",
        texts,
        perl_classes: PerlClasses::Ascii,
        case_fold: CaseFold::Python,
        properties: Properties::None,
        tables: None,
        escapes: Escapes::Perl,
        group_names: GroupNames::Identifier,
        iteration: Iteration::AdvanceOne,
        empty_iteration: EmptyIteration::Kept,
        replacement: Replacement::Backslash,
        linear_time: false,
        rewrites: Rewrites::None,
        language: "",
        engine: "",
    }
}

/// A grammar the parser knows. Each is read with its own switches in [`Syntax`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    /// CPython's `sre_parse`.
    Sre,
    /// ECMAScript `RegExp`, with Annex B without `u`/`v`.
    Ecma,
    /// RE2's syntax as the `regex` crate (`regex-syntax`) and Go's `regexp/syntax` read it.
    Re2,
    /// `java.util.regex.Pattern`'s, read by its own reader ([`crate::java`]), which refuses
    /// what rxw cannot reproduce and hands the rest to the matcher as sre constructs of the
    /// same meaning.
    Java,
    /// Onigmo's (Ruby) and Oniguruma's, read by their own reader ([`crate::onig`]) in the same
    /// way as Java's.
    Onig,
    /// PCRE2's, read by its own reader ([`crate::pcre2`]) in the same way as Java's.
    Pcre2,
    /// .NET's, read by its own reader ([`crate::dotnet`]) in the same way as Java's.
    Dotnet,
}

/// Switches of the [`Grammar::Re2`] grammar (the other grammars ask their release directly).
#[derive(Debug, Clone, Copy)]
pub struct Syntax {
    /// Letters accepted in `(?flags)` and `(?flags:…)`.
    pub inline_flags: &'static str,
    /// Two groups may have the same name (Go; the first of them answers to it).
    pub duplicate_names: bool,
    /// A flag may be named twice in one group (`(?i-i)`, Go).
    pub duplicate_flags: bool,
    /// `(?i-)`, a `-` with no flag after it, is refused.
    pub empty_negation_refused: bool,
    /// `(?P<name>…)` opens a named group.
    pub p_named_groups: bool,
    /// `(?<name>…)` opens a named group.
    pub angle_named_groups: bool,
    /// `(?<=` and `(?<!` are read as the start of a group name (Go from 1.22), so refused as a
    /// bad name rather than as look-behind.
    pub lookbehind_reads_as_name: bool,
    /// The largest count in `{n,m}`.
    pub max_repeat: u32,
    /// Look-around, atomic groups and backreferences are accepted (rxw's Rust flavor takes
    /// them as fancy-regex did; RE2 and Go refuse them).
    pub backtracking_constructs: bool,
    /// `\Q…\E` quotes a literal text.
    pub quote_escapes: bool,
    /// `\0`, `\12`, `\123` are octal escapes (a lone `\1`–`\7` is still refused).
    pub octal_escapes: bool,
    /// `\<`, `\>`, `\b{start}` and the other word-boundary forms of regex-syntax.
    pub extended_word_boundaries: bool,
    /// Nested classes and the set operations `&&`, `--`, `~~` inside brackets.
    pub class_set_operations: bool,
    /// A `{` that does not start a valid counted repetition is a literal.
    pub literal_brace: bool,
    /// Nested counted repetitions may not multiply past `max_repeat` (RE2, Go).
    pub repeat_product_limited: bool,
    /// What a look-behind may hold.
    pub lookbehind: LookBehind,
    /// A repetition operator directly after another one (`a**`, `a+*`, `a{2}{3}`) is an error.
    pub nested_repetition_refused: bool,
    /// Whitespace is allowed inside `{ n , m }`.
    pub spaces_in_counts: bool,
    /// A count may start with a zero (`a{01}`); RE2 and Go read such a brace as literal text.
    pub leading_zeros_in_counts: bool,
    /// RE2's and Go's order of checks at `(?`: a look-around needs a character after its opener and a
    /// group name one after its `<` (`(?<=` alone is an unclosed name, `(?P<` alone a bad
    /// flag).
    pub opener_needs_more: bool,
    /// Escaping a character that is not punctuation RE2 knows (`\_`, `\<`) is accepted when it
    /// is ASCII punctuation.
    pub any_ascii_punctuation_escapes: bool,
    /// `\p{…}` names are compared loosely (case, spaces, `_` and `-` ignored).
    pub loose_property_names: bool,
    /// The longest nesting of groups, repetitions and alternations the engine accepts.
    pub max_nesting: Option<u32>,
    /// The largest program the engine compiles, in its own measure.
    pub program_size: ProgramSize,
    /// `\C` (one byte, even inside a character) exists. rxw matches whole characters, so it
    /// refuses `\C` as a construct it cannot reproduce.
    pub byte_escape: bool,
}

impl Syntax {
    /// The switches the backtracking engines of Perl's line (CPython's `re`, ECMAScript,
    /// `java.util.regex`, PCRE2, Oniguruma) share: a family's rules start from these and name
    /// only where its engine differs (its flags, group syntax, repeat limit and look-behind
    /// always).
    pub const BACKTRACKING: Syntax = Syntax {
        inline_flags: "ims",
        duplicate_names: false,
        duplicate_flags: false,
        empty_negation_refused: false,
        p_named_groups: false,
        angle_named_groups: true,
        max_repeat: u32::MAX,
        lookbehind_reads_as_name: false,
        backtracking_constructs: true,
        quote_escapes: false,
        octal_escapes: true,
        extended_word_boundaries: false,
        class_set_operations: false,
        literal_brace: true,
        repeat_product_limited: false,
        lookbehind: LookBehind::FixedWidth,
        nested_repetition_refused: true,
        spaces_in_counts: false,
        leading_zeros_in_counts: true,
        opener_needs_more: false,
        any_ascii_punctuation_escapes: true,
        loose_property_names: false,
        max_nesting: None,
        program_size: ProgramSize::Unlimited,
        byte_escape: false,
    };
}

/// What a look-behind may hold, and so how the matcher runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookBehind {
    /// A pattern of one fixed width, run forward from that many characters back (sre).
    FixedWidth,
    /// Also an alternation whose branches each have a fixed width (fancy-regex), run right
    /// to left.
    FixedAlternatives,
    /// Anything, run right to left (ECMAScript).
    Any,
}

/// How an engine limits the size of the program a pattern compiles to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgramSize {
    /// No limit but rxw's own.
    Unlimited,
    /// Go's `regexp/syntax` `calcSize` estimate, at most this many instructions.
    GoCalcSize(u64),
    /// RE2's compiled instructions (UTF-8 byte ranges, before optimisation), at most this
    /// many: rxw bounds the count from below and above and refuses honestly in between.
    Re2Instructions(u64),
}

/// How the parser reads the escapes of a flavor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escapes {
    /// CPython's `sre_parse`.
    Sre,
    /// ECMAScript's, with Annex B without `u`/`v`.
    Ecma,
    /// Perl's as RE2 and Go read them: `\x41`, `\x{263a}`, octal, and any ASCII punctuation.
    Perl,
    /// regex-syntax's: `\x`, `\u`, `\U` and its list of escapable characters.
    RegexSyntax,
}

/// Which characters a group name may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupNames {
    /// CPython's: an identifier.
    Identifier,
    /// ECMAScript's (decoded and checked with its escapes).
    Ecma,
    /// regex-syntax's: a letter or `_` first, then letters, digits, `_`, `.`, `[`, `]`.
    RegexSyntax,
    /// The engine tables' ([`EngineTables::capture_name_char`]), anywhere in the name.
    Tables,
}

/// Error texts, each a template whose `{}` is filled with the piece the engine quotes (the
/// group name, the offending text). Families whose message for a case carries no piece leave
/// the `{}` out.
#[derive(Debug)]
pub struct Texts {
    /// A `)` with no group open.
    pub unopened_group: &'static str,
    /// A group not closed at the end of the pattern.
    pub unclosed_group: &'static str,
    /// A flag group `(?i` not closed.
    pub unclosed_flag_group: &'static str,
    /// A group name without its `>`.
    pub unclosed_group_name: &'static str,
    /// A group name with a character a name cannot hold.
    pub bad_group_name: &'static str,
    /// A group name used twice.
    pub duplicate_group_name: &'static str,
    /// A repetition with nothing before it.
    pub nothing_to_repeat: &'static str,
    /// A repetition directly after another one.
    pub nested_repetition: &'static str,
    /// `{5,3}`.
    pub repeat_range_order: &'static str,
    /// A count over the engine's limit.
    pub repeat_too_large: &'static str,
    /// A class not closed at the end of the pattern.
    pub unclosed_class: &'static str,
    /// A class range whose end is before its start.
    pub class_range_order: &'static str,
    /// A `\` at the end of the pattern.
    pub trailing_backslash: &'static str,
    /// A `\` at the end of the pattern inside a class.
    pub class_trailing_backslash: &'static str,
    /// A range whose end is not a character (`[a-\d]`).
    pub class_range_boundary: &'static str,
    /// An unknown letter right after `(?`.
    pub unknown_group_letter: &'static str,
    /// An unknown flag letter after other flags.
    pub unknown_flag: &'static str,
    /// A construct of another dialect (an atomic group in RE2).
    pub unsupported_perl: &'static str,
    /// Look-ahead or look-behind in a grammar without them.
    pub lookaround: &'static str,
    /// An escape the grammar does not know.
    pub bad_escape: &'static str,
    /// A `\p{…}` name the engine does not know.
    pub unknown_property: &'static str,
    /// A `[:name:]` the engine does not know.
    pub unknown_posix_class: &'static str,
    /// Nesting deeper than the engine accepts.
    pub nesting_too_deep: &'static str,
    /// A backreference in a grammar without them (`\\1` for the regex crate).
    pub backreference: &'static str,
    /// A pattern whose program would pass the engine's size limit.
    pub pattern_too_large: &'static str,
    /// `\x{` at the very end of the pattern.
    pub truncated_hex: &'static str,
}

impl Texts {
    /// The text for a case, with the piece filled in.
    pub fn fill(template: &str, piece: &str) -> String {
        template.replacen("{}", piece, 1)
    }
}

/// What `\d`, `\w`, `\s` and `\b` mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerlClasses {
    /// Unicode classes as regex-syntax defines them.
    RegexSyntax,
    /// CPython's (Unicode by default, ASCII under `a`), of the release's Unicode data.
    Python,
    /// ECMAScript's (ASCII, `\s` the JS white space and line terminators).
    Js,
    /// ASCII only: `\d` = `[0-9]`, `\w` = `[0-9A-Za-z_]`, `\s` = `[\t\n\f\r ]`, `\b` between
    /// ASCII word and non-word (RE2, Go).
    Ascii,
}

/// How `i` folds case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseFold {
    /// regex-syntax's simple case folding.
    Simple,
    /// CPython's lower-casing, of the release's data.
    Python,
    /// ECMAScript's Canonicalize (simple folding with `u`/`v`, upper-casing without).
    Js,
    /// The orbits of `unicode.SimpleFold` (Go, RE2), of the engine's tables
    /// ([`Rules::tables`]).
    Orbits,
}

/// Where `\p{…}` names and their code points come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Properties {
    /// regex-syntax's Unicode tables.
    RegexSyntax,
    /// None: the grammar has no `\p`.
    None,
    /// The node release's own answers (`js_unicode`).
    Node,
    /// The engine's generated tables ([`Rules::tables`]): Go's per release, RE2's.
    Tables,
}

/// What the find-all loop does after an empty match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Iteration {
    /// An empty match right where the previous match ended is skipped (the regex crate, Go's
    /// `FindAll`).
    SkipEmptyAfterMatch,
    /// After an empty match the search is retried at the same place for a non-empty match
    /// (CPython 3.7 and later).
    RetryNonEmpty,
    /// After an empty match the search goes on one character (code unit without `u`) later
    /// (`String.prototype.matchAll`).
    AdvanceOne,
}

/// What a repetition does with an iteration that matches the empty text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmptyIteration {
    /// sre: the empty iteration is kept and ends the loop.
    Kept,
    /// ECMAScript: an iteration past the minimum that matches empty fails.
    Fails,
    /// RE2 and Go: a thread that comes back to a state it already holds at a position is
    /// dropped (an unbounded loop's first free iteration may be empty and ends it; a later
    /// empty iteration fails; a bounded repetition's copies are never refused).
    Revisited,
}

/// The rewrites an engine makes of a pattern before it runs it that change how it runs (its
/// steps, so the debugger's trace and the ReDoS verdicts), not what it matches (but for the
/// groups of CPython before 3.11, which the matcher's marks follow).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rewrites {
    /// None that tell: the pattern runs as written.
    None,
    /// sre's, the same in every CPython release. Its parser hoists the leading items that
    /// every branch of an alternation starts with (`ab|ac` runs as `a(?:b|c)`, `a|aa` as
    /// `a(?:|a)`) and turns an alternation whose branches are then single characters or
    /// classes into one class (`\w|_`, `a|[ab]`: no branch is left to backtrack into, so
    /// `(\w|_)+` runs in linear time). Its compiler records the fewest characters a match
    /// needs: a search tries no start with fewer left (`.{4294967294}` on a short text is
    /// answered at once), and a single-character loop fails at once when its minimum is more
    /// than what is left.
    Sre,
}

/// How a replacement template is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacement {
    /// The regex crate's `$1`, `${name}`, `$$`, names taking the longest run of word
    /// characters.
    Dollar,
    /// CPython's `\1`, `\g<name>`, escapes processed.
    Backslash,
    /// ECMAScript's `$1`, `$<name>`, `$&`, `` $` ``, `$'`, `$$`.
    Ecma,
    /// Go's `Regexp.Expand`: `$1`, `${1}`, `$name`, `${name}`, `$$`; a name takes the longest
    /// run of letters, digits and `_`, and an unknown group is the empty text.
    GoExpand,
    /// RE2's `Rewrite` (`RE2::GlobalReplace`): `\0`–`\9` and `\\`; any other `\` is an
    /// error, and so is a group the pattern does not have.
    Rewrite,
    /// Java's `Matcher.appendReplacement`: `$1` (more digits while the number is a group),
    /// `${name}`, and `\x` for any `x`; its errors are thrown at the first match only.
    Java,
    /// Ruby's `gsub`: `\0`-`\9`, `\&`, `\k<name>`, `` \` ``, `\'`, `\\`; any other `\x` is
    /// itself, an unknown group the empty text.
    Ruby,
    /// `pcre2_substitute`'s: `$1`, `${1}`, `$name`, `${name}`, `$$`; a group the pattern does
    /// not have is an error, and so is one that did not take part in the match.
    Pcre2,
    /// .NET's `Regex.Replace`: `$1` (all the digits, when that group exists), `${1}`,
    /// `${name}`, `$&`, `` $` ``, `$'`, `$_`, `$+`, `$$`; anything else is literal text.
    Dotnet,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_is_filled_once() {
        assert_eq!(
            Texts::fill("missing closing ): `{}`", "(a"),
            "missing closing ): `(a`"
        );
        assert_eq!(Texts::fill("unclosed group", "(a"), "unclosed group");
    }
}
