//! Compiling a pattern for its flavor and running it: matches, captures, counts, replacement.
//!
//! One place decides how a pattern runs. The `regex` crate runs a pattern wherever it provably
//! gives the flavor's answer (linear time, no ReDoS): Python and JavaScript patterns are first
//! translated (`translate`) with each flavor's meaning spelled out, and the translation says
//! when it needs more than the `regex` crate can do. Everything else runs on rxw's own
//! backtracking matcher ([`vm`]), which follows each flavor's rules exactly, counts its steps
//! and stops at a step budget. Rust patterns go to the `regex` crate as written; the matcher
//! runs the Rust patterns the `regex` crate rejects (look-around, backreferences). Many
//! patterns over one text are answered together by a [`set::PatternSet`], which decides how
//! (one literal pass, one DFA pass, or each pattern's own engine) with the same exactness.
//!
//! ```
//! use rxw_engine::Regex;
//! use rxw_syntax::{Flags, Flavor};
//!
//! let re = Regex::new(r"\[RESULT (?P<id>[0-9a-f]{8})\]", Flavor::PYTHON, Flags::default())?;
//! let text = "[RESULT 7fce46e0] OK — done";
//! let m = &re.find_all(text, None)?[0];
//! assert_eq!(m.groups[1], Some((8, 16)));
//! assert_eq!(&text[8..16], "7fce46e0");
//! assert_eq!(re.count("[RESULT 7fce46e0] [RESULT 00000000]")?, 2);
//! # Ok::<(), rxw_syntax::Error>(())
//! ```

pub mod classes;
pub mod facts;
pub mod growth;
mod iter;
pub mod limits;
pub mod python_unicode;
pub mod redos;
pub mod reference;
pub mod replace;
pub mod set;
mod strategy;
pub mod trace;
mod translate;
mod units;
pub use units::{CutCharacter, PairCut};
pub mod vm;

pub use iter::{MatchOptions, Matches, TOTAL_STEPS_EXCEEDED};
pub use limits::Limits;
use rxw_syntax::ast::Ast;
use rxw_syntax::error::{Error, ErrorKind};
use rxw_syntax::flavor::{Flags, Flavor, JavaVersion};
use rxw_syntax::parse::parse;
use rxw_syntax::rules::{EmptyIteration, Grammar, Iteration};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, OnceLock};
use std::time::Instant;
use strategy::*;
use translate::{Assume, translate};
use units::CodeUnits;
use vm::{NoObserver, Observer, Outcome, Utf8Hay, Utf16Hay};

/// Which engine runs a compiled pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The `regex` crate: linear time.
    Linear,
    /// rxw's own matcher: backtracking, bounded by a step budget.
    Backtracking,
}

impl EngineKind {
    /// A short name for status lines.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Linear => "regex (linear)",
            EngineKind::Backtracking => "rxw matcher (backtracking)",
        }
    }
}

enum Program {
    Linear(regex::Regex),
    Matcher(Arc<vm::Program>),
}

struct Compiled {
    program: Program,
    /// User group k (1-based) is engine group `group_map[k - 1]` (linear programs).
    group_map: Vec<usize>,
}

/// A pattern compiled for its flavor.
pub struct Regex {
    pattern: String,
    flavor: Flavor,
    flags: Flags,
    /// Shared with whoever parsed it (the workbench's analysis): one parse per edit.
    ast: Arc<Ast>,
    names: Vec<Option<String>>,
    /// Linear programs by assumption bits; the matcher when no linear program is exact.
    variants: [OnceLock<Result<Compiled, Error>>; 16],
    /// The matcher's program, compiled on first use.
    matcher: OnceLock<Result<Arc<vm::Program>, Error>>,
    /// The matcher as a program choice, for code-unit texts.
    code_units_compiled: OnceLock<Result<Compiled, Error>>,
    /// node 24 and 25: the matcher compiled for a text of Latin-1 characters only (see
    /// [`node_one_byte_modifier_literal`]).
    latin1_compiled: OnceLock<Result<Compiled, Error>>,
    /// node 18 with `u`: the matcher compiled for a text with a character outside the BMP,
    /// its negated classes in runs of text reading one code unit (see [`Node18Units`]).
    node18_units_compiled: OnceLock<Result<Compiled, Error>>,
    relied: Assume,
    /// Python: the pattern can match empty and prefers an empty match over a longer one
    /// somewhere (lazy quantifier, empty-first alternation), so `finditer`'s retry of an empty
    /// match's position can find more; the matcher runs it.
    prefers_empty: bool,
    /// A rule of the flavor only the matcher follows (JS captures reset per iteration, Python's
    /// empty iterations): the linear engine is never exact.
    needs_matcher: bool,
    /// JS without `u`/`v`: matching works on UTF-16 code units, so a text with characters
    /// outside the BMP runs on the matcher over its code units.
    js_code_unit_sensitive: bool,
    /// JS with `u`/`v`: node reports an empty match between the two code units of a
    /// character outside the BMP after an attempt fails at it, where the pattern matches
    /// without reading a character (see [`InsidePair`]); rxw reports it as node does.
    js_pair_sensitive: bool,
    /// What the pattern finds inside a pair (JS with `u`/`v`, not sticky).
    js_inside_pair: InsidePair,
    /// node 24 and 25 with `u`/`v`: a literal beyond U+00FF where a modifier group turns `i`
    /// on (see [`node_one_byte_modifier_literal`]): a Latin-1 text runs on
    /// [`vm::compile_for_latin1_text`]'s program.
    node_one_byte_literal: Option<char>,
    /// node 18 with `u` and no `i`: a negated class that V8 10.2 may read as one UTF-16 code
    /// unit (see [`node18_unit_class`]): on a text with a character outside the BMP, such a
    /// pattern runs on [`vm::compile_node18_units`]'s program.
    node18_unit_class: Node18Units,
    /// Java: what in a text rxw cannot match as Java does.
    java_text_rule: Option<JavaTextRule>,
    /// Ruby, Oniguruma and .NET: why only ASCII texts are matched as the engine does
    /// ([`rxw_syntax::onig::text_rule`], [`rxw_syntax::dotnet::text_rule`]).
    onig_text_rule: Option<&'static str>,
    /// .NET: a set of the pattern holds a surrogate, or the pattern matches the empty text,
    /// so Mono could match or stop inside a surrogate pair ([`rxw_syntax::dotnet::reads_units`]):
    /// a text with a character outside the BMP is refused.
    dotnet_reads_units: bool,
    backtrack_limit: usize,
}

impl std::fmt::Debug for Regex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Regex")
            .field("pattern", &self.pattern)
            .field("flavor", &self.flavor)
            .field("flags", &self.flags)
            .finish()
    }
}

/// One match: spans of the whole match and of every group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// `groups[0]` is the whole match; `groups[k]` is group k, `None` when it did not
    /// participate.
    ///
    /// A group's end can come before its start under `python@3.8` … `3.10` only: sre before
    /// 3.11 could report a group whose start a failed lazy iteration had moved past its end
    /// (`(ab|a)*?b` on `ab` gives group 1 the span 2..1). Its text is empty, as Python slices
    /// it ([`Match::group`]); whoever slices the text with a group's span must allow for it.
    pub groups: Vec<Option<(usize, usize)>>,
    /// JavaScript without `u`/`v`: set when a span starts or ends between the two halves of a
    /// surrogate pair (node counts UTF-16 code units), with the exact spans in code units;
    /// `groups` then holds the whole characters around each span. `None` otherwise.
    pub pair_cut: Option<Box<PairCut>>,
}

impl Match {
    /// First byte of the match.
    pub fn start(&self) -> usize {
        self.groups[0].unwrap().0
    }

    /// One past the last byte of the match.
    pub fn end(&self) -> usize {
        self.groups[0].unwrap().1
    }

    /// The matched text (the whole characters around it when it cuts a surrogate pair: see
    /// [`Match::text`] for its exact text).
    pub fn as_str<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start()..self.end()]
    }

    /// Group `k`'s exact text, `None` when it did not take part: [`Match::group`], or when the
    /// match cuts a surrogate pair its code units with a lone surrogate written as U+FFFD.
    pub fn text<'t>(&self, text: &'t str, k: usize) -> Option<std::borrow::Cow<'t, str>> {
        match &self.pair_cut {
            Some(cut) => cut.lossy(k).map(std::borrow::Cow::Owned),
            None => self.group(text, k).map(std::borrow::Cow::Borrowed),
        }
    }

    /// The spans of the match and its groups in UTF-16 code units of `text`, as JavaScript
    /// counts them: exact where the match cuts a surrogate pair. Counts the text up to each
    /// span (linear in the text: for tests and single answers, not for scans).
    pub fn utf16_spans(&self, text: &str) -> Vec<Option<(usize, usize)>> {
        if let Some(cut) = &self.pair_cut {
            return cut.utf16.clone();
        }
        let unit = |b: usize| text[..b].encode_utf16().count();
        self.groups
            .iter()
            .map(|g| g.map(|(s, e)| (unit(s), unit(e.max(s)))))
            .collect()
    }

    /// How many code units the exact start lies after the code unit of byte
    /// [`Match::start`]: 1 when the match starts between the two halves of a surrogate pair,
    /// else 0.
    pub fn start_units_past_byte(&self) -> usize {
        self.pair_cut
            .as_ref()
            .map_or(0, |c| c.utf16[0].map_or(0, |(s, _)| s - c.base))
    }

    /// Group `k`'s text, or `None` when it did not participate; empty for a group that ends
    /// before it starts (see [`Match::groups`]).
    pub fn group<'t>(&self, text: &'t str, k: usize) -> Option<&'t str> {
        self.groups
            .get(k)
            .copied()
            .flatten()
            .map(|(s, e)| &text[s..e.max(s)])
    }
}

fn assume_bits(a: Assume) -> usize {
    (a.no_final_newline as usize)
        | (a.no_js_line_breaks as usize) << 1
        | (a.python_word_agrees as usize) << 2
        | (a.non_empty as usize) << 3
}

/// The characters where the `\w` of some Python release and the `regex` crate's `\w`
/// disagree, as sorted ranges (all outside ASCII). One list for every release keeps
/// [`InputTraits`] independent of the flavor: a text without these characters has the same
/// word characters in every release and in the crate.
fn python_word_hazard() -> &'static [(char, char)] {
    static RANGES: OnceLock<Vec<(char, char)>> = OnceLock::new();
    RANGES.get_or_init(|| {
        let crate_word = vm::charset::rust_word();
        let mut hazard = vm::charset::CharSet::empty();
        for v in rxw_syntax::PyVersion::ALL {
            let py = vm::charset::python_word(v);
            hazard = hazard
                .union(&crate_word.difference(py))
                .union(&py.difference(crate_word));
        }
        hazard
            .ranges()
            .iter()
            .filter_map(|&(lo, hi)| Some((char::from_u32(lo)?, char::from_u32(hi)?)))
            .collect()
    })
}

/// Whether `text` has no character where Python's `\w` and the `regex` crate's disagree.
/// Such characters are not ASCII, so only the non-ASCII characters are looked up (ASCII is
/// skipped eight bytes at a time): far quicker than a regex pass over the whole text.
fn python_words_agree(text: &str) -> bool {
    let hazard = python_word_hazard();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if let Some(word) = b.get(i..i + 8) {
            let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
            if word & 0x8080_8080_8080_8080 == 0 {
                i += 8;
                continue;
            }
        }
        if b[i].is_ascii() {
            i += 1;
            continue;
        }
        let ch = text[i..].chars().next().expect("a character starts here");
        let found = hazard.binary_search_by(|&(lo, hi)| {
            if hi < ch {
                std::cmp::Ordering::Less
            } else if lo > ch {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        if found.is_ok() {
            return false;
        }
        i += ch.len_utf8();
    }
    true
}

/// Nesting a thread's default stack compiles without trouble.
const SHALLOW: usize = 48;
/// The stack a deeper pattern is compiled on (the compiler stops at 400 levels).
const DEEP_STACK: usize = 64 << 20;

/// The `regex` crate's default compiled-size limit (`RegexBuilder::size_limit`), 10 MiB.
const REGEX_CRATE_SIZE_LIMIT: usize = 10 << 20;

/// How deeply the tree nests, counted without recursion.
fn nesting_depth(root: &rxw_syntax::ast::Node) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(root, 1usize)];
    while let Some((node, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        stack.extend(node.children().into_iter().map(|c| (c, depth + 1)));
    }
    deepest
}

/// What rxw cannot reproduce of a Java pattern on some texts: Java's `\b` counts a
/// non-spacing mark after a letter as a word character (and Java 17 every Unicode letter and
/// digit); its search steps by UTF-16 units, so after an empty match, and in a look-behind, it
/// stands between the two units of a character outside the BMP.
#[derive(Debug, Clone, Copy)]
struct JavaTextRule {
    /// `\b` or `\B` in the pattern: Java 17's word characters are Unicode letters and digits,
    /// so only ASCII texts are matched as it does; Java 25's are `\w`'s, ASCII, but a
    /// non-spacing mark after a letter counts as one, and `\B` holds inside a character
    /// outside the BMP, so only texts without either are.
    word_boundary: Option<JavaVersion>,
    /// The pattern can match the empty text or holds a look-behind: only BMP texts.
    unit_steps: bool,
}

impl JavaTextRule {
    fn of(ast: &rxw_syntax::ast::Ast, pattern: &str, version: JavaVersion) -> JavaTextRule {
        use rxw_syntax::ast::{AnchorKind, GroupKind, NodeKind};
        let (mut word_boundary, mut lookbehind) = (None, false);
        ast.root.walk(|n, _| match &n.kind {
            NodeKind::Anchor {
                kind: AnchorKind::WordBoundary | AnchorKind::NotWordBoundary,
                ..
            } => word_boundary = Some(version),
            // Java's own look-behinds (its `$` and `^` are written with one-character ones).
            NodeKind::Group {
                kind: GroupKind::Lookbehind | GroupKind::NegativeLookbehind,
                ..
            } if pattern
                .get(n.span.start..)
                .is_some_and(|p| p.starts_with("(?<")) =>
            {
                lookbehind = true
            }
            _ => {}
        });
        JavaTextRule {
            word_boundary,
            unit_steps: lookbehind || ast.root.nullable(),
        }
    }

    fn check(&self, text: &str) -> Result<(), Error> {
        let words_differ = match self.word_boundary {
            None => false,
            Some(JavaVersion::V17) => !text.is_ascii(),
            Some(JavaVersion::V25) => {
                static MARK: OnceLock<regex::Regex> = OnceLock::new();
                let mark = MARK.get_or_init(|| regex::Regex::new(r"\p{Mn}").expect("\\p{Mn}"));
                !text.is_ascii() && (has_astral(text) || mark.is_match(text))
            }
        };
        if words_differ {
            return Err(Error::new(
                ErrorKind::InputUnsupported,
                "java: \\b and \\B are not reproduced by rxw on this text (Java counts a non-spacing \\
                 mark after a letter as a word character, Java 17 every Unicode letter and digit, \\
                 and \\B holds inside a character outside the BMP)",
            ));
        }
        if self.unit_steps && has_astral(text) {
            return Err(Error::new(
                ErrorKind::InputUnsupported,
                "java: a pattern that can match the empty text, or holds a look-behind, on a text \\
                 with characters outside the BMP is not reproduced by rxw (Java's search and \\
                 look-behind step by UTF-16 units and stop inside such a character)",
            ));
        }
        Ok(())
    }
}

/// node 24 and 25 under `u`/`v`: the first literal beyond U+00FF that a modifier group
/// `(?i:…)` makes case-insensitive where the pattern's own flags do not. V8 compiles a text
/// of Latin-1 characters only (a one-byte string) with such a literal as one that never
/// matches, though its case equivalents (`ſ` and `s`, `K` and `k`) are Latin-1: `(?i:ſ)`
/// finds nothing in `S` but finds `S` in `SĀ`. node 26 matches them on every text.
fn node_one_byte_modifier_literal(ast: &Ast, flavor: Flavor, flags: Flags) -> Option<char> {
    use rxw_syntax::ast::{GroupKind, NodeKind};
    let major = flavor.node_version()?.major();
    if !(24..=25).contains(&major) || !flags.unicode_mode() || flags.ignore_case {
        return None;
    }
    let mut stack = vec![(&ast.root, false)];
    while let Some((node, fold)) = stack.pop() {
        let fold = match &node.kind {
            NodeKind::Literal { ch, .. } if fold && (*ch as u32) > 0xFF => return Some(*ch),
            NodeKind::Group {
                kind: GroupKind::Flags(change),
                ..
            } if change.on.contains('i') => true,
            NodeKind::Group {
                kind: GroupKind::Flags(change),
                ..
            } if change.off.contains('i') => false,
            _ => fold,
        };
        stack.extend(node.children().into_iter().map(|c| (c, fold)));
    }
    None
}

fn has_astral(text: &str) -> bool {
    text.bytes().any(|b| b >= 0xF0)
}

impl Regex {
    /// Compiles `pattern` in `flavor` with the human limits.
    ///
    /// # Errors
    /// See [`Regex::with_limits`].
    pub fn new(pattern: &str, flavor: Flavor, flags: Flags) -> Result<Regex, Error> {
        Regex::with_limits(pattern, flavor, flags, &Limits::human())
    }

    /// Compiles `pattern` in `flavor` with `flags`, under `limits`.
    ///
    /// # Errors
    /// An invalid pattern, a construct rxw cannot reproduce, or a pattern over the size limit;
    /// each with the span it concerns.
    pub fn with_limits(
        pattern: &str,
        flavor: Flavor,
        flags: Flags,
        limits: &Limits,
    ) -> Result<Regex, Error> {
        limits.check_pattern(pattern)?;
        let ast = parse(pattern, flavor, flags)?;
        Regex::from_parsed(pattern, flavor, flags, Arc::new(ast), limits)
    }

    /// Compiles `pattern`, already parsed into `ast` (by [`rxw_syntax::parse::parse`] with the
    /// same flavor and flags), under `limits`: the caller's tree is shared, not parsed again.
    ///
    /// # Errors
    /// As [`Regex::with_limits`], but for the parse errors, which the caller has seen.
    pub fn from_parsed(
        pattern: &str,
        flavor: Flavor,
        flags: Flags,
        ast: Arc<Ast>,
        limits: &Limits,
    ) -> Result<Regex, Error> {
        limits.check_pattern(pattern)?;
        if flavor.node_version().is_some_and(|v| v.major() == 20)
            && flags.unicode_sets
            && node20_v_class_in_copies(&ast.root)
        {
            return Err(Error::new(
                ErrorKind::ConstructUnsupported,
                "js@node20: a negated class beside a character or class escape inside a repeat that V8 11.3 writes out as copies (+, {2}, {0,2}) under v is compiled by node 20 with its negation undone in one copy (/(?:[^b]a)+/v on 'ca ba' matches 3-5, node 22 and later 0-2); rxw does not reproduce that and refuses the pattern rather than answer differently from node 20",
            ));
        }
        let names = ast.groups.iter().map(|g| g.name.clone()).collect();
        let prefers_empty = flavor.is_python() && ast.root.nullable() && prefers_empty(&ast);
        // Java's tree (and PCRE2's, Onigmo's, .NET's) is sre constructs of the engine's meaning:
        // only the matcher runs it as sre.
        let needs_matcher = flavor.is_java()
            || flavor.is_onig()
            || flavor.is_pcre2()
            || flavor.is_dotnet()
            || match (flavor.rules().empty_iteration, flavor.py_version()) {
                (EmptyIteration::Kept, Some(v)) => {
                    // Before 3.11 a repeated group can keep a failed iteration's marks (even
                    // end before it starts), which only the matcher reproduces.
                    (v < rxw_syntax::flavor::PyVersion::V3_11
                        && repeat_holding_capture(&ast, |_, _| true))
                        || prefers_empty
                        || nullable_repeat(&ast)
                        || python_empty_iteration(&ast)
                        || (uses_flag(&ast, 'a') && uses_flag(&ast, 'i'))
                        || vm::python_search_prefix(&ast, flavor).is_some()
                }
                (EmptyIteration::Fails, _) => nullable_repeat(&ast) || js_iteration_captures(&ast),
                // RE2 keeps the captures of a repetition's last iteration that took part, as the
                // matcher does; the regex crate may differ on empty iterations.
                (EmptyIteration::Revisited, _) => nullable_repeat(&ast),
                // The regex crate itself.
                (EmptyIteration::Kept, None) => false,
            };
        let js_code_unit_sensitive = flavor.is_js() && !flags.unicode_mode();
        let js_inside_pair = if flavor.is_js() && flags.unicode_mode() && !flags.sticky {
            inside_a_pair(&ast.root)
        } else {
            InsidePair::NoMatch
        };
        let js_pair_sensitive = js_inside_pair != InsidePair::NoMatch;
        let node_one_byte_literal = node_one_byte_modifier_literal(&ast, flavor, flags);
        let node18_unit_class = if flavor.node_version().is_some_and(|v| v.major() == 18)
            && flags.unicode_mode()
            && !flags.ignore_case
            && node18_unit_class(&ast.root)
        {
            Node18Units::Reproduced
        } else {
            Node18Units::None
        };
        let java_text_rule = flavor
            .java_version()
            .map(|v| JavaTextRule::of(&ast, pattern, v));
        let onig_text_rule = if flavor.is_onig() {
            rxw_syntax::onig::text_rule(pattern, flavor, flags)
        } else if flavor.is_dotnet() {
            rxw_syntax::dotnet::text_rule(pattern, flags)
        } else {
            None
        };
        let dotnet_reads_units = flavor.is_dotnet()
            && (ast.root.nullable() || rxw_syntax::dotnet::reads_units(pattern, flags));
        let mut re = Regex {
            pattern: pattern.to_string(),
            flavor,
            flags,
            ast,
            names,
            variants: Default::default(),
            matcher: OnceLock::new(),
            code_units_compiled: OnceLock::new(),
            latin1_compiled: OnceLock::new(),
            node18_units_compiled: OnceLock::new(),
            relied: Assume::NOTHING,
            prefers_empty,
            needs_matcher,
            js_code_unit_sensitive,
            js_pair_sensitive,
            js_inside_pair,
            node_one_byte_literal,
            node18_unit_class,
            java_text_rule,
            onig_text_rule,
            dotnet_reads_units,
            backtrack_limit: limits.backtrack_limit,
        };
        let (exact, relied) = re.compile(Assume::NOTHING)?;
        re.relied = relied;
        let _ = re.variants[0].set(Ok(exact));
        Ok(re)
    }

    /// The matcher's search from `start` with this pattern's own settings: anchored for a
    /// sticky JavaScript pattern, each attempt within the backtrack limit, and nothing else
    /// (no total budget, cancel flag, deadline, scan counting or progress).
    fn search_params<'a>(&self, start: usize) -> vm::exec::SearchParams<'a> {
        vm::exec::SearchParams {
            start,
            anchored: self.flavor.is_js() && self.flags.sticky,
            not_empty_at: None,
            budget: self.backtrack_limit as u64,
            total_budget: None,
            cancel: None,
            deadline: None,
            count_scans: false,
            progress: None,
        }
    }

    fn matcher_program(&self) -> Result<&Arc<vm::Program>, Error> {
        self.matcher
            .get_or_init(|| {
                self.compile_on_its_stack(|| {
                    vm::compile(&self.ast, &self.pattern, self.flavor.matcher_flavor())
                })
                .map(Arc::new)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Runs `compile` (which recurses once a level of the tree, up to its limit of 400) on a
    /// thread with a stack of its own when the tree is deep, so that a worker or test thread's
    /// small stack cannot overflow.
    fn compile_on_its_stack(
        &self,
        compile: impl FnOnce() -> Result<vm::Program, Error> + Send,
    ) -> Result<vm::Program, Error> {
        if nesting_depth(&self.ast.root) <= SHALLOW {
            return compile();
        }
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(DEEP_STACK)
                .spawn_scoped(scope, compile)
                .map_err(|e| {
                    Error::new(
                        ErrorKind::LimitExceeded,
                        format!("no thread to compile a deeply nested pattern on: {e}"),
                    )
                })?
                .join()
                .unwrap_or_else(|_| {
                    Err(Error::new(
                        ErrorKind::LimitExceeded,
                        "compiling the deeply nested pattern failed",
                    ))
                })
        })
    }

    fn matcher_compiled(&self) -> Result<Compiled, Error> {
        Ok(Compiled {
            program: Program::Matcher(self.matcher_program()?.clone()),
            group_map: Vec::new(),
        })
    }

    fn compile(&self, assume: Assume) -> Result<(Compiled, Assume), Error> {
        if self.flavor.is_rust() {
            return self.compile_rust().map(|c| (c, Assume::NOTHING));
        }
        if self.needs_matcher {
            return Ok((self.matcher_compiled()?, Assume::NOTHING));
        }
        match translate(&self.ast, &self.pattern, self.flavor, assume) {
            Ok(t) if !t.needs_backtracking && t.iteration_groups.is_empty() => {
                match regex::RegexBuilder::new(&t.pattern)
                    .size_limit(64 << 20)
                    .build()
                {
                    Ok(re) => Ok((
                        Compiled {
                            program: Program::Linear(re),
                            group_map: t.group_map,
                        },
                        t.relied_on,
                    )),
                    Err(_) => Ok((self.matcher_compiled()?, t.relied_on)),
                }
            }
            Ok(t) => Ok((self.matcher_compiled()?, t.relied_on)),
            Err(e) if e.kind == ErrorKind::ConstructUnsupported => {
                Ok((self.matcher_compiled()?, Assume::NOTHING))
            }
            Err(e) => Err(e),
        }
    }

    fn compile_rust(&self) -> Result<Compiled, Error> {
        let f = self.flags;
        let mut prefix = String::new();
        for (on, c) in [
            (f.ignore_case, 'i'),
            (f.multiline, 'm'),
            (f.dotall, 's'),
            (f.verbose, 'x'),
            (f.swap_greed, 'U'),
            (f.crlf, 'R'),
        ] {
            if on {
                prefix.push(c);
            }
        }
        let full = if prefix.is_empty() {
            self.pattern.clone()
        } else {
            format!("(?{prefix}){}", self.pattern)
        };
        let n = self.names.len();
        let group_map = (1..=n).collect();
        // The crate's own default limit: what `Regex::new` accepts is what rust accepts.
        match regex::RegexBuilder::new(&full)
            .size_limit(REGEX_CRATE_SIZE_LIMIT)
            .build()
        {
            Ok(re) => Ok(Compiled {
                program: Program::Linear(re),
                group_map,
            }),
            Err(linear_err) => {
                // Look-around and backreferences parse in rxw's Rust flavor (as they did for
                // fancy-regex users); the matcher runs them. Anything else the regex crate
                // rejects is invalid.
                if rust_needs_backtracking(&self.ast) {
                    self.matcher_compiled()
                } else {
                    Err(Error::new(
                        ErrorKind::PatternInvalid,
                        last_line(&linear_err.to_string()),
                    )
                    .with_span_in(&self.pattern, Some(self.ast.root.span)))
                }
            }
        }
    }

    /// The linear program this pattern runs on typical input, and what "typical" requires.
    ///
    /// On every input whose [`InputTraits`] meet the returned requirements, "does the pattern
    /// match?" is exactly "does this `regex` crate pattern match?" (it is the program
    /// [`Regex::is_match`] would pick), which lets the audit answer many patterns in one
    /// `RegexSet` pass and fall back to [`Regex::is_match`] only on the other inputs. `None`
    /// when matching needs backtracking even on typical input, or has a rule of its own (JS
    /// sticky, Python's retry after an empty match).
    pub fn typical_linear(&self) -> Option<(&str, InputTraits)> {
        // node 24/25's modifier literals run on a program of their own on Latin-1 texts.
        if self.prefers_empty
            || (self.flavor.is_js() && self.flags.sticky)
            || self.node_one_byte_literal.is_some()
        {
            return None;
        }
        let all = Assume {
            no_final_newline: true,
            no_js_line_breaks: true,
            python_word_agrees: true,
            non_empty: true,
        };
        let assume = self.mask(all);
        match &self.variant(assume_bits(assume), assume).ok()?.program {
            Program::Linear(re) => Some((
                re.as_str(),
                InputTraits {
                    no_final_newline: assume.no_final_newline,
                    no_js_line_breaks: assume.no_js_line_breaks,
                    python_word_agrees: assume.python_word_agrees,
                    non_empty: assume.non_empty,
                    bmp_only: self.js_code_unit_sensitive
                        || self.js_pair_sensitive
                        || self.node18_unit_class != Node18Units::None,
                },
            )),
            Program::Matcher(_) => None,
        }
    }

    /// The pattern in the `regex` crate's dialect that gives this flavor's answer on every
    /// text, when there is one (callers that drive `regex-automata` directly, such as the
    /// presets' anchored counting, take it from here instead of translating themselves).
    /// `None` when the pattern needs the matcher, and for JavaScript (whose code-unit rule
    /// depends on the text).
    pub fn exact_linear_pattern(&self) -> Option<String> {
        match (self.flavor, self.flavor.rules().grammar) {
            (_, Grammar::Ecma) => None,
            (Flavor::Rust, _) => {
                let letters = self.flags.letters(Flavor::Rust);
                Some(if letters.is_empty() {
                    self.pattern.clone()
                } else {
                    format!("(?{letters}){}", self.pattern)
                })
            }
            (_, grammar) => {
                if self.needs_matcher {
                    return None;
                }
                // (Every Python release is translated with the default release's rules, as
                // the presets' counting has always done.)
                let flavor = if grammar == Grammar::Sre {
                    Flavor::PYTHON
                } else {
                    self.flavor
                };
                let t = translate(&self.ast, &self.pattern, flavor, Assume::NOTHING).ok()?;
                (!t.needs_backtracking && t.iteration_groups.is_empty()).then_some(t.pattern)
            }
        }
    }

    /// The pattern as written.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The flavor it was compiled for.
    pub fn flavor(&self) -> Flavor {
        self.flavor
    }

    /// The flags it was compiled with.
    pub fn flags(&self) -> Flags {
        self.flags
    }

    /// The parsed tree.
    pub fn ast(&self) -> &Ast {
        &self.ast
    }

    /// The parsed tree, shared: [`Arc::ptr_eq`] tells whether it is a caller's own parse.
    pub fn shared_ast(&self) -> &Arc<Ast> {
        &self.ast
    }

    /// Number of capturing groups (not counting group 0).
    pub fn group_count(&self) -> usize {
        self.names.len()
    }

    /// Group names, index 0 being group 1.
    pub fn group_names(&self) -> &[Option<String>] {
        &self.names
    }

    /// Whether any group has a name.
    pub fn has_named_groups(&self) -> bool {
        self.names.iter().any(Option::is_some)
    }

    /// The step budget of one search attempt on the matcher.
    pub fn backtrack_limit(&self) -> usize {
        self.backtrack_limit
    }

    /// The engine that runs this pattern on an input such as `text`.
    pub fn engine_kind(&self, text: &str) -> EngineKind {
        match self.program_for(text).map(|c| &c.program) {
            Ok(Program::Linear(_)) => EngineKind::Linear,
            _ => EngineKind::Backtracking,
        }
    }

    /// The engine that runs this pattern on ordinary input (no trailing newline etc.).
    pub fn engine_kind_typical(&self) -> EngineKind {
        let assume = Assume {
            no_final_newline: true,
            no_js_line_breaks: true,
            python_word_agrees: true,
            non_empty: true,
        };
        let bits = assume_bits(self.mask(assume));
        match self.variant(bits, self.mask(assume)).map(|c| &c.program) {
            Ok(Program::Linear(_)) => EngineKind::Linear,
            _ => EngineKind::Backtracking,
        }
    }

    fn mask(&self, a: Assume) -> Assume {
        Assume {
            no_final_newline: a.no_final_newline && self.relied.no_final_newline,
            no_js_line_breaks: a.no_js_line_breaks && self.relied.no_js_line_breaks,
            python_word_agrees: a.python_word_agrees && self.relied.python_word_agrees,
            non_empty: a.non_empty && self.relied.non_empty,
        }
    }

    fn variant(&self, bits: usize, assume: Assume) -> Result<&Compiled, Error> {
        self.variants[bits]
            .get_or_init(|| self.compile(assume).map(|(c, _)| c))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// A matcher program of a variant kept in `cell`, compiled (on its own stack) the first time
    /// it is asked for.
    fn matcher_program_once<'s>(
        &'s self,
        cell: &'s OnceLock<Result<Compiled, Error>>,
        compile: impl FnOnce() -> Result<vm::Program, Error> + Send,
    ) -> Result<&'s Compiled, Error> {
        cell.get_or_init(|| {
            let program = self.compile_on_its_stack(compile)?;
            Ok(Compiled {
                program: Program::Matcher(Arc::new(program)),
                group_map: Vec::new(),
            })
        })
        .as_ref()
        .map_err(Clone::clone)
    }

    fn program_for(&self, text: &str) -> Result<&Compiled, Error> {
        match self.node18_unit_class {
            Node18Units::Reproduced if has_astral(text) => {
                return self.matcher_program_once(&self.node18_units_compiled, || {
                    vm::compile_node18_units(&self.ast, &self.pattern, self.flavor)
                });
            }
            _ => {}
        }
        if self.node_one_byte_literal.is_some() && text.chars().all(|c| (c as u32) <= 0xFF) {
            // V8's one-byte code: the modifier's wide literals match only themselves.
            return self.matcher_program_once(&self.latin1_compiled, || {
                vm::compile_for_latin1_text(&self.ast, &self.pattern, self.flavor)
            });
        }
        if let Some(rule) = &self.java_text_rule {
            rule.check(text)?;
        }
        if self.dotnet_reads_units && has_astral(text) {
            return Err(Error::new(
                ErrorKind::InputUnsupported,
                format!(
                    "dotnet: a text with a character outside the BMP is not matched by rxw: {}",
                    rxw_syntax::dotnet::ASTRAL_TEXT
                ),
            ));
        }
        if let Some(why) = self.onig_text_rule
            && !text.is_ascii()
        {
            return Err(Error::new(
                ErrorKind::InputUnsupported,
                format!(
                    "{}: a text outside ASCII is not matched by rxw with this pattern: {why}",
                    self.flavor.family_name()
                ),
            ));
        }
        if self.js_code_unit_sensitive && has_astral(text) {
            // Code units: only the matcher walks them.
            return self.matcher_variant();
        }
        let r = self.relied;
        let assume = Assume {
            no_final_newline: r.no_final_newline && !text.ends_with('\n'),
            no_js_line_breaks: r.no_js_line_breaks
                && memchr::memchr(b'\r', text.as_bytes()).is_none()
                && memchr::memmem::find(text.as_bytes(), "\u{2028}".as_bytes()).is_none()
                && memchr::memmem::find(text.as_bytes(), "\u{2029}".as_bytes()).is_none(),
            python_word_agrees: r.python_word_agrees && python_words_agree(text),
            non_empty: r.non_empty && !text.is_empty(),
        };
        self.variant(assume_bits(assume), assume)
    }

    /// Whether a search of `text` runs on its UTF-16 code units (JavaScript without `u`/`v`
    /// on a text with a character outside the BMP), where a match can cut a surrogate pair.
    pub fn searches_code_units(&self, text: &str) -> bool {
        (self.js_code_unit_sensitive || self.node18_unit_class == Node18Units::Reproduced)
            && has_astral(text)
    }

    /// Whether a match in `text` may cut a surrogate pair ([`Match::pair_cut`]): JavaScript
    /// without `u`/`v` searching code units, or with them where node tries a position inside a
    /// pair after a failed attempt.
    pub fn may_cut_a_pair_in(&self, text: &str) -> bool {
        (self.js_code_unit_sensitive
            || self.js_pair_sensitive
            || self.node18_unit_class == Node18Units::Reproduced)
            && has_astral(text)
    }

    fn matcher_variant(&self) -> Result<&Compiled, Error> {
        self.code_unit_variant()
    }

    /// Whether the pattern matches anywhere in `text` (JS `y`: at the start).
    ///
    /// # Errors
    /// A step budget exhausted, or an input rxw cannot match faithfully.
    pub fn is_match(&self, text: &str) -> Result<bool, Error> {
        Ok(self
            .matches(text, MatchOptions::bounds_only())
            .next()
            .transpose()?
            .is_some())
    }

    /// An iterator over matches with the flavor's rules for empty matches.
    pub fn matches<'r, 't>(&'r self, text: &'t str, options: MatchOptions<'r>) -> Matches<'r, 't> {
        let setup = self.program_for(text);
        let start = options.start.min(text.len());
        let (compiled, error) = match setup {
            Ok(c) => (Some(c), None),
            Err(e) => (None, Some(e)),
        };
        let units = match compiled.map(|c| &c.program) {
            Some(Program::Matcher(p)) if (p.code_units || p.unit_classes) && has_astral(text) => {
                Some(CodeUnits::of(text))
            }
            _ => None,
        };
        let pos = units.as_ref().map_or(start, |u| u.unit_of_byte(start));
        let locs = match compiled.map(|c| &c.program) {
            Some(Program::Linear(re)) => Some(re.capture_locations()),
            _ => None,
        };
        Matches {
            re: self,
            compiled,
            error,
            text,
            units,
            pos,
            last_end: None,
            not_empty_at: None,
            done: false,
            options,
            locs,
            found: 0,
            steps: 0,
            pair_units: (0, 0),
        }
    }

    /// All matches with their groups, at most `limit`.
    ///
    /// # Errors
    /// As for [`Regex::matches`].
    pub fn find_all(&self, text: &str, limit: Option<usize>) -> Result<Vec<Match>, Error> {
        let mut out = Vec::new();
        for m in self.matches(text, MatchOptions::default()) {
            if limit.is_some_and(|l| out.len() >= l) {
                break;
            }
            out.push(m?);
        }
        Ok(out)
    }

    /// The number of matches.
    ///
    /// # Errors
    /// As for [`Regex::matches`].
    pub fn count(&self, text: &str) -> Result<usize, Error> {
        self.count_up_to(text, None)
    }

    /// The number of matches, stopping at `limit`.
    ///
    /// A pattern that cannot match the empty string has the same iteration in every flavor
    /// (each search starts where the previous match ended), so when the linear engine runs it
    /// and no code-unit form is needed, the engine's own iterator counts directly.
    ///
    /// # Errors
    /// As for [`Regex::matches`].
    pub fn count_up_to(&self, text: &str, limit: Option<usize>) -> Result<usize, Error> {
        self.count_with_steps(text, limit).map(|(n, _)| n)
    }

    /// The number of matches (stopping at `limit`) and the matcher's steps (0 when the linear
    /// engine ran, which counts none).
    ///
    /// # Errors
    /// As for [`Regex::matches`].
    pub fn count_with_steps(
        &self,
        text: &str,
        limit: Option<usize>,
    ) -> Result<(usize, u64), Error> {
        self.count_with_options(text, limit, MatchOptions::bounds_only())
    }

    /// As [`Regex::count_with_steps`], with the scan's options (a deadline, a total step
    /// budget, a cancel flag); captures are never extracted.
    ///
    /// # Errors
    /// As for [`Regex::matches`].
    pub fn count_with_options(
        &self,
        text: &str,
        limit: Option<usize>,
        options: MatchOptions<'_>,
    ) -> Result<(usize, u64), Error> {
        let sticky = self.flavor.is_js() && self.flags.sticky;
        let plain = !self.ast.root.nullable() && !sticky && !self.js_pair_sensitive;
        if plain && let Program::Linear(re) = &self.program_for(text)?.program {
            let it = re.find_iter(text);
            return Ok((
                match limit {
                    Some(l) => it.take(l).count(),
                    None => it.count(),
                },
                0,
            ));
        }
        let mut n = 0;
        let options = MatchOptions {
            bounds_only: true,
            ..options
        };
        let mut it = self.matches(text, options);
        for m in it.by_ref() {
            if limit.is_some_and(|l| n >= l) {
                break;
            }
            m?;
            n += 1;
        }
        Ok((n, it.steps()))
    }

    /// The observed searches run the ordinary program: node 18's code-unit classes on a text
    /// with a character outside the BMP are matched ([`Regex::matches`]) but not traced.
    fn node18_not_traced(&self, text: &str) -> Result<(), Error> {
        if self.node18_unit_class != Node18Units::None && has_astral(text) {
            return Err(Error::new(
                ErrorKind::InputUnsupported,
                "js@node18: a negated class V8 10.2 may read as one UTF-16 code unit, on a text with a character outside the BMP, is matched as node 18 does but not traced step by step by rxw",
            ));
        }
        Ok(())
    }

    /// Runs one search on the matcher from `start` (a byte offset), with `observer` seeing
    /// every step: the debugger's entry point. `not_empty_at` is CPython's retry rule (a match
    /// starting there must not be empty).
    ///
    /// Returns the match (if any) and the steps taken.
    ///
    /// # Errors
    /// The step budget ran out, or the pattern cannot run on the matcher.
    pub fn search_observed<O: Observer>(
        &self,
        text: &str,
        start: usize,
        not_empty_at: Option<usize>,
        observer: &mut O,
    ) -> Result<(Option<Match>, u64), Error> {
        self.node18_not_traced(text)?;
        let prog = self.matcher_program()?;
        let params = vm::exec::SearchParams {
            not_empty_at,
            ..self.search_params(start)
        };
        let (outcome, steps) = if prog.code_units && has_astral(text) {
            let units = CodeUnits::of(text);
            let mut params = params;
            params.start = units.unit_of_byte(start);
            params.not_empty_at = not_empty_at.map(|b| units.unit_of_byte(b));
            let (o, s) = vm::run_search(prog, &Utf16Hay(&units.units), &params, observer);
            let (o, cut) = units.map_outcome(o, text);
            ((o, cut), s)
        } else {
            let (o, s) = vm::run_search(prog, &Utf8Hay(text.as_bytes()), &params, observer);
            ((o, None), s)
        };
        let (outcome, cut) = outcome;
        match outcome {
            Outcome::Match(slots) => Ok((Some(slots_to_match(&slots, cut)), steps)),
            Outcome::NoMatch | Outcome::Cancelled => Ok((None, steps)),
            other => Err(self.stop_error(other, text)),
        }
    }

    /// As [`Regex::search_observed`], stopping with [`ErrorKind::TimedOut`] at `deadline`.
    ///
    /// # Errors
    /// The step budget or the deadline ran out.
    pub fn search_observed_until<O: Observer>(
        &self,
        text: &str,
        start: usize,
        deadline: Instant,
        observer: &mut O,
    ) -> Result<Option<Match>, Error> {
        self.node18_not_traced(text)?;
        let prog = self.matcher_program()?;
        let params = vm::exec::SearchParams {
            deadline: Some(deadline),
            ..self.search_params(start)
        };
        let outcome = if prog.code_units && has_astral(text) {
            let units = CodeUnits::of(text);
            let mut params = params;
            params.start = units.unit_of_byte(start);
            let (o, _) = vm::run_search(prog, &Utf16Hay(&units.units), &params, observer);
            units.map_outcome(o, text)
        } else {
            (
                vm::run_search(prog, &Utf8Hay(text.as_bytes()), &params, observer).0,
                None,
            )
        };
        let (outcome, cut) = outcome;
        match outcome {
            Outcome::Match(slots) => Ok(Some(slots_to_match(&slots, cut))),
            Outcome::NoMatch | Outcome::Cancelled => Ok(None),
            other => Err(self.stop_error(other, text)),
        }
    }

    /// Steps of one search over `text` from its start on the matcher (the counter the debugger
    /// shows), with the search stopped when one attempt passes `budget` steps, at `deadline`, or
    /// when `cancel` is raised: the ReDoS proof's measurement.
    ///
    /// # Errors
    /// The pattern cannot run on the matcher.
    pub(crate) fn search_steps(
        &self,
        text: &str,
        budget: u64,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
    ) -> Result<(Outcome, u64), Error> {
        let prog = self.matcher_program()?;
        let params = vm::exec::SearchParams {
            budget,
            cancel,
            deadline,
            count_scans: true,
            ..self.search_params(0)
        };
        Ok(if prog.code_units && has_astral(text) {
            let units = CodeUnits::of(text);
            vm::run_search(prog, &Utf16Hay(&units.units), &params, &mut NoObserver)
        } else {
            vm::run_search(prog, &Utf8Hay(text.as_bytes()), &params, &mut NoObserver)
        })
    }

    /// Whether the match attempt that begins at byte `at` of `text` examines the end of the
    /// text (reads or tests an anchor there), run on the matcher: when it does not, the attempt
    /// ends the same way (the same match, or none) on any longer text that starts with `text`,
    /// which is what a scan of a growing text needs to know ([`growth`]). `true` when the
    /// answer cannot be had (see [`Regex::attempt_extent`]).
    pub fn attempt_examines_end(&self, text: &str, at: usize) -> bool {
        self.attempt_extent(text, at)
            .is_none_or(|far| far >= text.len())
    }

    /// How far the match attempt that begins at byte `at` of `text` read, run on the matcher:
    /// the farthest position it examined (a byte it read, or a position where it tested an
    /// anchor; `text.len()` when it looked at the end of the text), whether it matched or
    /// failed. `None` when the answer cannot be had: the attempt passed its step budget, the
    /// pattern does not run on the matcher, `at` is no character boundary of `text`, or
    /// JavaScript without `u` meets text with a character outside the BMP.
    pub fn attempt_extent(&self, text: &str, at: usize) -> Option<usize> {
        self.attempt_extent_with(text, at, false)
    }

    /// [`Regex::attempt_extent`], or with `retry` that of the attempt a scan runs where it
    /// found an empty match, for one that is not empty: CPython's rule. Other flavors move on
    /// after an empty match, so their retry reads nothing (`Some(at)`).
    pub fn attempt_extent_with(&self, text: &str, at: usize, retry: bool) -> Option<usize> {
        if retry && !self.flavor.is_python() {
            return Some(at);
        }
        let prog = self.matcher_program().ok()?;
        if at > text.len() || !text.is_char_boundary(at) || (prog.code_units && has_astral(text)) {
            return None;
        }
        let params = vm::exec::SearchParams {
            anchored: true,
            not_empty_at: retry.then_some(at),
            ..self.search_params(at)
        };
        let hay = vm::exec::EndWatch::new(text.as_bytes());
        let (outcome, _) = vm::run_search(prog, &hay, &params, &mut NoObserver);
        match outcome {
            Outcome::Match(_) | Outcome::NoMatch => Some(hay.farthest().max(at)),
            _ => None,
        }
    }

    /// The matcher's compiled program (instructions with their pattern spans), for tracing.
    ///
    /// # Errors
    /// The pattern cannot run on the matcher.
    pub fn program(&self) -> Result<&vm::Program, Error> {
        self.matcher_program().map(|p| &**p)
    }

    fn stop_error(&self, outcome: Outcome, _text: &str) -> Error {
        match outcome {
            Outcome::BudgetExceeded { pos, pc, start } => {
                let span = self
                    .matcher_program()
                    .ok()
                    .and_then(|p| p.spans.get(pc as usize).copied());
                let piece = span
                    .and_then(|s| self.pattern.get(s.start..s.end))
                    .filter(|s| !s.is_empty())
                    .map(|s| format!(" at `{s}`"))
                    .unwrap_or_default();
                Error::new(
                    ErrorKind::BacktrackLimit,
                    format!(
                        "backtrack limit exceeded: one search attempt from byte {start} took more than {} steps (stopped at byte {pos}{piece}); the pattern backtracks catastrophically on this input",
                        self.backtrack_limit
                    ),
                )
                .with_span_in(&self.pattern, span)
            }
            Outcome::TimedOut => Error::new(ErrorKind::TimedOut, "execution timed out"),
            _ => Error::new(ErrorKind::BacktrackLimit, "the search stopped"),
        }
    }
}

impl Regex {
    fn code_unit_variant(&self) -> Result<&Compiled, Error> {
        self.code_units_compiled
            .get_or_init(|| self.matcher_compiled())
            .as_ref()
            .map_err(Clone::clone)
    }
}

pub use rxw_syntax::surrogate_stand_in;

/// node 18 with `u` and without `i`: what a pattern that may hold a negated class V8 10.2
/// reads as one UTF-16 code unit ([`node18_unit_class`]) does on a text with a character
/// outside the BMP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node18Units {
    /// No such class: the ordinary program.
    None,
    /// Runs on [`vm::compile_node18_units`]'s program, on the text's code units.
    Reproduced,
}

/// The groups of a matcher's match. A group may end before it starts (python@3.8–3.10 only:
/// see [`Match::groups`]).
fn slots_to_match(slots: &[usize], pair_cut: Option<Box<PairCut>>) -> Match {
    let groups = slots
        .chunks(2)
        .map(|p| (p[0] != vm::exec::UNSET && p[1] != vm::exec::UNSET).then_some((p[0], p[1])))
        .collect();
    Match { groups, pair_cut }
}

fn last_line(s: &str) -> String {
    s.lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .trim_start_matches("error: ")
        .to_string()
}

/// Properties of an input that decide which compiled program is exact on it.
///
/// Used both ways: as what an input has ([`InputTraits::of`]) and as what a program needs
/// ([`Regex::typical_linear`]); [`InputTraits::meets`] compares them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InputTraits {
    /// The text does not end with `\n`.
    pub no_final_newline: bool,
    /// The text has no `\r`, U+2028 or U+2029.
    pub no_js_line_breaks: bool,
    /// No character where Python's `\w` and the `regex` crate's `\w` disagree.
    pub python_word_agrees: bool,
    /// The text is not empty.
    pub non_empty: bool,
    /// No character outside the Basic Multilingual Plane (JS without `u` matches such text in
    /// its UTF-16 code-unit form, not with the typical program).
    pub bmp_only: bool,
}

impl InputTraits {
    /// The properties of `text`, computing only those in `wanted` (the rest are `false`).
    pub fn of(text: &str, wanted: InputTraits) -> InputTraits {
        let b = text.as_bytes();
        InputTraits {
            no_final_newline: wanted.no_final_newline && !text.ends_with('\n'),
            no_js_line_breaks: wanted.no_js_line_breaks
                && memchr::memchr(b'\r', b).is_none()
                && memchr::memmem::find(b, "\u{2028}".as_bytes()).is_none()
                && memchr::memmem::find(b, "\u{2029}".as_bytes()).is_none(),
            python_word_agrees: wanted.python_word_agrees && python_words_agree(text),
            non_empty: wanted.non_empty && !text.is_empty(),
            bmp_only: wanted.bmp_only && (text.is_ascii() || !b.iter().any(|&c| c >= 0xF0)),
        }
    }

    /// Whether these properties (an input's) satisfy `needs` (a program's).
    pub fn meets(&self, needs: &InputTraits) -> bool {
        (!needs.no_final_newline || self.no_final_newline)
            && (!needs.no_js_line_breaks || self.no_js_line_breaks)
            && (!needs.python_word_agrees || self.python_word_agrees)
            && (!needs.non_empty || self.non_empty)
            && (!needs.bmp_only || self.bmp_only)
    }

    /// The union of two sets of needs.
    pub fn union(self, other: InputTraits) -> InputTraits {
        InputTraits {
            no_final_newline: self.no_final_newline || other.no_final_newline,
            no_js_line_breaks: self.no_js_line_breaks || other.no_js_line_breaks,
            python_word_agrees: self.python_word_agrees || other.python_word_agrees,
            non_empty: self.non_empty || other.non_empty,
            bmp_only: self.bmp_only || other.bmp_only,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lookup over non-ASCII characters answers as the sets say: a text agrees when no
    /// character of it is a word character in some Python release and not in the crate, or
    /// the other way round.
    #[test]
    fn python_words_agree_as_the_sets_say() {
        let crate_word = vm::charset::rust_word();
        let differs = |c: char| {
            rxw_syntax::PyVersion::ALL.iter().any(|&v| {
                vm::charset::python_word(v).contains(c as u32) != crate_word.contains(c as u32)
            })
        };
        let mut texts: Vec<String> = vec![String::new(), "plain ascii text, 12345678".into()];
        for c in (0x80..0x3400u32)
            .chain(0x1_0000..0x1_0400)
            .chain(0x1_E4C0..0x1_E500)
            .chain(0x1_F600..0x1_F650)
        {
            if let Some(ch) = char::from_u32(c) {
                texts.push(format!("abcdefgh{ch}"));
                texts.push(format!("{ch}x"));
            }
        }
        texts.push("caf\u{e9} abcdef\u{b2} more".into());
        for t in &texts {
            assert_eq!(python_words_agree(t), !t.chars().any(differs), "{t:?}");
        }
        assert!(
            !python_words_agree("x\u{b2}"),
            "U+00B2 is \\w for Python only"
        );
        assert!(
            !python_words_agree("x\u{1e4d0}"),
            "U+1E4D0 is \\w from Python 3.12 only"
        );
    }

    fn spans(p: &str, flavor: Flavor, flags: &str, text: &str) -> Vec<(usize, usize)> {
        let re = Regex::new(p, flavor, Flags::parse(flags, flavor).unwrap()).unwrap();
        re.find_all(text, None)
            .unwrap()
            .iter()
            .map(|m| (m.start(), m.end()))
            .collect()
    }

    fn groups(p: &str, flavor: Flavor, flags: &str, text: &str) -> Vec<Vec<Option<String>>> {
        let re = Regex::new(p, flavor, Flags::parse(flags, flavor).unwrap()).unwrap();
        re.find_all(text, None)
            .unwrap()
            .iter()
            .map(|m| {
                (0..m.groups.len())
                    .map(|k| m.group(text, k).map(str::to_string))
                    .collect()
            })
            .collect()
    }

    fn g(v: &[Option<&str>]) -> Vec<Option<String>> {
        v.iter().map(|s| s.map(str::to_string)).collect()
    }

    /// A case of [`assert_spans`]: pattern, flavor, flags, text, and the spans of its matches.
    type SpansCase<'a> = (&'a str, Flavor, &'a str, &'a str, &'a [(usize, usize)]);

    /// Asserts the spans of every match of each case.
    fn assert_spans(cases: &[SpansCase]) {
        for &(p, flavor, flags, text, want) in cases {
            assert_eq!(
                spans(p, flavor, flags, text),
                want,
                "{flavor} /{p}/{flags} on {text:?}"
            );
        }
    }

    #[test]
    fn empty_match_after_a_match_python_and_js_report_it_rust_does_not() {
        assert_spans(&[
            ("a*", Flavor::PYTHON, "", "baa", &[(0, 0), (1, 3), (3, 3)]),
            ("a*", Flavor::JS, "", "baa", &[(0, 0), (1, 3), (3, 3)]),
            ("a*", Flavor::Rust, "", "baa", &[(0, 0), (1, 3)]),
        ]);
    }

    #[test]
    fn python_dollar_before_final_newline() {
        assert_spans(&[
            ("a$", Flavor::PYTHON, "", "a\n", &[(0, 1)]),
            ("a$", Flavor::JS, "", "a\n", &[]),
            (r"a\Z", Flavor::PYTHON, "", "a\n", &[]),
        ]);
    }

    #[test]
    fn js_resets_captures_each_iteration() {
        let re = Regex::new("(?:(a)|b)+", Flavor::JS, Flags::default()).unwrap();
        let m = &re.find_all("ab", None).unwrap()[0];
        assert_eq!(m.groups[1], None);
        let re = Regex::new("(?:(a)|b)+", Flavor::PYTHON, Flags::default()).unwrap();
        let m = &re.find_all("ab", None).unwrap()[0];
        assert_eq!(m.groups[1], Some((0, 1)));
    }

    #[test]
    fn engine_choice_is_reported() {
        let re = Regex::new(r"\d+", Flavor::PYTHON, Flags::default()).unwrap();
        assert_eq!(re.engine_kind("12"), EngineKind::Linear);
        let re = Regex::new(r"a(?=b)", Flavor::PYTHON, Flags::default()).unwrap();
        assert_eq!(re.engine_kind("ab"), EngineKind::Backtracking);
    }

    #[test]
    fn regression_js_empty_iteration_is_dropped_with_its_captures() {
        // node: /(a*)*b/.exec("aaa\nbba") -> ["b", undefined]
        assert_eq!(
            groups("(a*)*b", Flavor::JS, "", "aaa\nbba")[0],
            g(&[Some("b"), None])
        );
        // CPython keeps the empty iteration: group 1 is "".
        assert_eq!(
            groups("(a*)*b", Flavor::PYTHON, "", "b")[0],
            g(&[Some("b"), Some("")])
        );
    }

    #[test]
    fn regression_js_lookbehind_runs_right_to_left() {
        assert_eq!(spans(r"(?<=\1(a))b", Flavor::JS, "", "ab"), vec![]);
        assert_eq!(
            groups(r"(?<=(\d+)(\d+))$", Flavor::JS, "", "$100 and 200")[0],
            g(&[Some(""), Some("2"), Some("00")])
        );
    }

    #[test]
    fn regression_js_lazy_iterations() {
        assert_eq!(
            groups("(a*?)*?b", Flavor::JS, "", "aab")[0],
            g(&[Some("aab"), Some("a")])
        );
        assert_eq!(
            spans("(?:(?:ab)*?)?", Flavor::JS, "", "abb"),
            vec![(0, 2), (2, 2), (3, 3)]
        );
    }

    #[test]
    fn regression_python_ascii_ignorecase_does_not_fold_kelvin() {
        assert_spans(&[
            ("(?i)k", Flavor::PYTHON, "a", "\u{212A}", &[]),
            ("(?i)k", Flavor::PYTHON, "", "\u{212A}", &[(0, 3)]),
        ]);
    }

    #[test]
    fn python_retries_the_empty_match_position() {
        assert_spans(&[
            ("a??", Flavor::PYTHON, "", "a", &[(0, 0), (0, 1), (1, 1)]),
            (
                "a*?",
                Flavor::PYTHON,
                "",
                "aa",
                &[(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
            ),
        ]);
    }

    /// Regression: the matcher's first-byte skip marked UTF-8 continuation bytes for sets
    /// spanning ASCII and multi-byte characters (Python's `\W`), so a search started inside a
    /// character in the blocks whose lead bytes the set lacks: Cyrillic text gave matches cut
    /// through characters (a panic when sliced) and `\W(?!q)` missed the space in `Āb c`.
    #[test]
    fn regression_python_non_word_search_starts_on_character_boundaries() {
        assert_spans(&[
            (r"\W+(?=\w)", Flavor::PYTHON, "", "привет, мир", &[(12, 14)]),
            (r"\W(?!q)", Flavor::PYTHON, "", "Āb c", &[(3, 4)]),
            (r"\W(?=)", Flavor::PYTHON, "", "Ā", &[]),
        ]);
        let word = vm::charset::python_word(rxw_syntax::PyVersion::V3_11);
        for (lo, hi) in [
            (0x100, 0x2BF),
            (0x400, 0x47F),
            (0x4C0, 0x4FF),
            (0x680, 0x6BF),
            (0x80, 0x7FF),
        ] {
            let text: String = (lo..=hi)
                .filter_map(char::from_u32)
                .flat_map(|c| [c, 'b', ' '])
                .collect();
            let want: Vec<(usize, usize)> = text
                .char_indices()
                .filter(|&(_, c)| !word.contains(c as u32))
                .map(|(i, c)| (i, i + c.len_utf8()))
                .collect();
            for p in [r"\W(?!q)", r"\W(?=)", r"(?=\W)."] {
                let got = spans(p, Flavor::PYTHON, "", &text);
                assert!(
                    got.iter()
                        .all(|&(s, e)| text.is_char_boundary(s) && text.is_char_boundary(e)),
                    "{p} cut a character in U+{lo:04X}..U+{hi:04X}"
                );
                assert_eq!(got, want, "{p} over U+{lo:04X}..U+{hi:04X}");
            }
        }
    }

    /// Regression: Python `i` on the linear engine used the `regex` crate's simple case
    /// folding, so `i` missed `ı` and `İ` (CPython folds through lower cases and the
    /// characters sharing an upper case).
    #[test]
    fn regression_python_ignore_case_linear_folds_as_cpython() {
        let text = "i I ı İ";
        let all = vec![(0, 1), (2, 3), (4, 6), (7, 9)];
        for p in ["i", "[a-z]", "ı", "İ", "[ı]", "(?i:İ)"] {
            let re = Regex::new(
                p,
                Flavor::PYTHON,
                Flags::parse("i", Flavor::PYTHON).unwrap(),
            );
            assert_eq!(re.unwrap().engine_kind(text), EngineKind::Linear, "{p}");
            assert_eq!(spans(p, Flavor::PYTHON, "i", text), all, "{p}");
        }
        assert_eq!(
            spans("[^i]", Flavor::PYTHON, "i", text),
            vec![(1, 2), (3, 4), (6, 7)]
        );
    }

    /// Regression: JavaScript `i` without `u` on the linear engine used simple case folding
    /// instead of `Canonicalize` (which never maps a non-ASCII character to an ASCII one).
    #[test]
    fn regression_js_ignore_case_without_u_uses_canonicalize() {
        let no = |p: &str, text: &str| {
            assert_eq!(
                spans(p, Flavor::JS, "i", text),
                vec![],
                "/{p}/i on {text:?}"
            );
        };
        no("k", "\u{212A}");
        no("[a-z]", "\u{212A}\u{17F}");
        no("s", "\u{17F}");
        no("ß", "\u{1E9E}");
        no("θ", "\u{3F4}");
        no("ϑ", "\u{3F4}");
        no("ω", "\u{2126}");
        no("å", "\u{212B}");
        no("\u{FB05}", "\u{FB06}");
        assert_eq!(spans("θ", Flavor::JS, "i", "ϑΘ"), vec![(0, 2), (2, 4)]);
        // With `u`, simple case folding applies.
        assert_eq!(spans("k", Flavor::JS, "iu", "\u{212A}"), vec![(0, 3)]);
    }

    /// Regression: with `u`/`v`, node reports empty matches between the two code units of a
    /// character outside the BMP after an attempt fails at it (`/(?!\W)/gv` on `😀` gives
    /// index 1); rxw first answered as the specification says, then refused such a text. It
    /// now answers as node does (node's answers in UTF-16 units, from node 20 and 26).
    #[test]
    fn regression_js_unicode_empty_match_inside_a_pair_was_refused() {
        let utf16 = |p: &str, flags: &str, text: &str| -> Vec<(usize, usize)> {
            let re = Regex::new(p, Flavor::JS, Flags::parse(flags, Flavor::JS).unwrap()).unwrap();
            re.find_all(text, None)
                .unwrap()
                .iter()
                .map(|m| m.utf16_spans(text)[0].unwrap())
                .collect()
        };
        assert_eq!(utf16(r"(?!\W)", "v", "😀"), vec![(1, 1), (2, 2)]);
        assert_eq!(utf16(r"(?!\W)", "u", "a😀"), vec![(0, 0), (2, 2), (3, 3)]);
        assert_eq!(utf16(r"\B", "u", "i😀 "), vec![(2, 2), (3, 3), (4, 4)]);
        assert_eq!(utf16(r"x|(?![\s\S])", "u", "😀"), vec![(1, 1), (2, 2)]);
        // A backreference fails inside a pair (V8's CheckNotInSurrogatePair).
        assert_eq!(utf16(r"(?!\W)\1()", "u", "😀"), vec![(2, 2)]);
        // The match inside the pair: its byte span is the character's first byte, and it
        // names the character it cuts; the groups that take part are empty there.
        let re = Regex::new(
            r"(?!\W)()",
            Flavor::JS,
            Flags::parse("u", Flavor::JS).unwrap(),
        );
        let m = &re.unwrap().find_all("a😀", None).unwrap()[1];
        assert_eq!(m.groups, vec![Some((1, 1)), Some((1, 1))]);
        let cut = m.pair_cut.as_ref().expect("the match cuts U+1F600");
        assert_eq!(cut.utf16, vec![Some((2, 2)), Some((2, 2))]);
        assert_eq!(cut.cuts[0].bytes, (1, 5));
        // node also matches at index 0 of "a😀" first: that answer stands.
        let re = Regex::new(
            r"(?!\W)",
            Flavor::JS,
            Flags::parse("u", Flavor::JS).unwrap(),
        );
        assert!(re.unwrap().is_match("a😀").unwrap());
        // node's own answers, in UTF-8 offsets: no position inside a pair is ever tried.
        assert_eq!(spans(r"(?!a)", Flavor::JS, "u", "😀"), vec![(0, 0), (4, 4)]);
        assert_eq!(
            spans(r"\B", Flavor::JS, "u", "😀😀"),
            vec![(0, 0), (4, 4), (8, 8)]
        );
        assert_eq!(spans("a*", Flavor::JS, "u", "😀"), vec![(0, 0), (4, 4)]);
        assert_eq!(spans(r"\b", Flavor::JS, "u", "😀 a"), vec![(5, 5), (6, 6)]);
        assert_eq!(
            spans(r"(?!\W)", Flavor::JS, "u", "a b"),
            vec![(0, 0), (2, 2), (3, 3)]
        );
        // Without `u`, code units are matched one by one, and a match cut between them is
        // answered as node answers it: at UTF-16 index 1, the byte span the split character's
        // first byte.
        assert_eq!(spans(r"(?!\W)", Flavor::JS, "", "😀"), vec![(4, 4)]);
        let re = Regex::new(r"(?=\uDE00)", Flavor::JS, Flags::default()).unwrap();
        let m = &re.find_all("😀", None).unwrap()[0];
        assert_eq!(m.groups[0], Some((0, 0)));
        assert_eq!(m.utf16_spans("😀"), vec![Some((1, 1))]);
    }

    /// Regression: a JavaScript match without `u` that starts or ends between the two halves
    /// of a surrogate pair was refused ("the match cuts U+1F600 … add the u flag"), though
    /// node answers it in UTF-16 indices; the search after an empty match inside a pair moves
    /// on by one code unit, as node's `lastIndex` does.
    #[test]
    fn regression_js_match_cutting_a_surrogate_pair_was_refused() {
        let js = |p: &str, text: &str| {
            let re = Regex::new(p, Flavor::JS, Flags::default()).unwrap();
            re.find_all(text, None)
                .unwrap()
                .iter()
                .map(|m| m.utf16_spans(text)[0].unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(js(r"(?:\s|\/\/.*)*", "😀"), [(0, 0), (1, 1), (2, 2)]);
        assert_eq!(js(".", "a😀"), [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(js(r"[^a]\S", "😀a"), [(0, 2)]);
        let re = Regex::new("(.)(.)", Flavor::JS, Flags::default()).unwrap();
        let m = &re.find_all("x😀", None).unwrap()[0];
        let cut = m.pair_cut.as_ref().expect("the match cuts U+1F600");
        assert_eq!(cut.utf16, [Some((0, 2)), Some((0, 1)), Some((1, 2))]);
        assert_eq!(cut.cuts[0].bytes, (1, 5));
        assert_eq!(m.groups[0], Some((0, 5)), "the whole characters around it");
        assert_eq!(m.text("x😀", 2).as_deref(), Some("\u{FFFD}"));
        let r = re.replace("x😀", "$2$1", None, &Limits::human()).unwrap();
        assert_eq!(r.utf16.as_deref(), Some(&[0xD83D, 0x78, 0xDE00][..]));
        assert_eq!(r.result, "\u{FFFD}x\u{FFFD}");
    }

    /// Regression: the matcher skipped case folding for sets of more than 400,000 characters
    /// (a class holding `\W`, `\D`, `\S`), and folded Python's categories like literals,
    /// through the characters sharing an upper case.
    #[test]
    fn regression_matcher_folds_large_sets_and_python_categories() {
        let on_matcher = |p: &str| format!("(?:{p})(?=)");
        let none: &[(usize, usize)] = &[];
        for (pattern, flavor, flags, text, want) in [
            // CPython: `[\WA-Z]` under `i` takes `a`; `\w` tests the lower case only.
            (r"[\WA-Z]", Flavor::PYTHON, "i", "a", &[(0, 1)][..]),
            (r"\w", Flavor::PYTHON, "i", "\u{345}", none),
            (r"[ι]", Flavor::PYTHON, "i", "\u{345}", &[(0, 2)]),
            (r"[^ß\W]+", Flavor::PYTHON, "i", "ẞﬆa", &[(3, 7)]),
            // node: `/[\Wſ.]/iv` matches `s`; `/[^\WA-Z]/iv` does not match `ſ`.
            (r"[\Wſ.]", Flavor::JS, "iv", "s", &[(0, 1)]),
            (r"[^\WA-Z]", Flavor::JS, "iv", "ſ", none),
            // The regex crate: `(?i)[a-zé\W]` matches `Z`.
            (r"[a-zé\W]", Flavor::Fancy, "i", "Z", &[(0, 1)]),
        ] {
            assert_eq!(
                spans(&on_matcher(pattern), flavor, flags, text),
                want,
                "{flavor} /{pattern}/{flags} on {text:?}"
            );
        }
    }

    #[test]
    fn budget_bounds_one_attempt_not_the_input() {
        let text = "abc ".repeat(100_000);
        let re = Regex::new(r"(\w+)\s\1x", Flavor::PYTHON, Flags::default()).unwrap();
        assert_eq!(re.count(&text).unwrap(), 0);
        let text = "a".repeat(40_000);
        let re = Regex::new(r"(a+)+\1$", Flavor::JS, Flags::default()).unwrap();
        let err = re.count(&format!("{text}b")).unwrap_err();
        assert_eq!(err.kind, ErrorKind::BacktrackLimit);
    }

    #[test]
    fn regression_a_group_ending_before_it_starts_is_reported_as_cpython_3_10_does() {
        // Regression: python@3.8–3.10 refused this search (input_unsupported) where CPython
        // reports group 1 as 2..1, whose text is empty.
        let text = "ab";
        for (v, span, group) in [
            (rxw_syntax::PyVersion::V3_10, (2, 1), ""),
            (rxw_syntax::PyVersion::V3_11, (0, 1), "a"),
        ] {
            let re = Regex::new(r"(ab|a)*?b", Flavor::Python(v), Flags::default()).unwrap();
            let m = re.find_all(text, None).unwrap().remove(0);
            assert_eq!(m.groups, vec![Some((0, 2)), Some(span)]);
            assert_eq!(m.group(text, 1), Some(group));
            let replaced = re.replace(text, r"<\1>", None, &Limits::human()).unwrap();
            assert_eq!(replaced.result, format!("<{group}>"));
        }
    }

    #[test]
    fn a_total_step_budget_bounds_the_scan() {
        let text = "aaaaaaaaaa\n".repeat(200);
        let re = Regex::new(r"(a|a)*c(?<=c)", Flavor::PYTHON, Flags::default()).unwrap();
        let (n, steps) = re
            .count_with_options(&text, None, MatchOptions::default())
            .unwrap();
        assert_eq!(n, 0);
        let budget = steps / 4;
        let options = MatchOptions {
            max_total_steps: Some(budget),
            ..Default::default()
        };
        let err = re
            .count_with_options(&text, None, options.clone())
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::BacktrackLimit);
        assert!(
            err.message.starts_with(TOTAL_STEPS_EXCEEDED),
            "{}",
            err.message
        );
        // The iterator stops once the budget is passed (by at most one attempt's steps),
        // far from the whole scan's.
        let mut it = re.matches(&text, options);
        assert!(it.next().unwrap().is_err());
        assert!(
            it.steps() > budget && it.steps() < steps / 2,
            "{} steps for a budget of {budget} (the scan: {steps})",
            it.steps()
        );
        assert!(it.next().is_none());
    }
}
