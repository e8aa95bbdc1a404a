//! Compiling a pattern for its flavor and running it: matches, captures, counts, replacement.
//!
//! The `regex` crate runs every pattern it can (linear time, no ReDoS); `fancy-regex` runs the
//! ones that need look-around, backreferences, atomic groups or possessive quantifiers, with a
//! backtrack budget. Python and JavaScript patterns are first translated (see [`translate`]);
//! Rust patterns go to the engines as written.

pub mod limits;
pub mod replace;
pub mod translate;

use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use crate::syntax::ast::{Ast, Greed, NodeKind};
use crate::syntax::parse::parse;
pub use limits::Limits;
use serde::Serialize;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use translate::{Assume, Translation, translate};

/// Which engine runs a compiled pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The `regex` crate: linear time.
    Linear,
    /// `fancy-regex`: backtracking, bounded by a step budget.
    Backtracking,
}

impl EngineKind {
    /// A short name for status lines.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Linear => "regex (linear)",
            EngineKind::Backtracking => "fancy-regex (backtracking)",
        }
    }
}

enum Program {
    Linear(regex::Regex),
    Backtracking(fancy_regex::Regex),
}

struct Compiled {
    program: Program,
    /// User group k (1-based) is engine group `group_map[k - 1]`.
    group_map: Vec<usize>,
    iteration_groups: Vec<(usize, Vec<u32>)>,
}

/// A pattern compiled for its flavor.
pub struct Regex {
    pattern: String,
    flavor: Flavor,
    flags: Flags,
    ast: Ast,
    names: Vec<Option<String>>,
    /// Exact program plus the cheaper ones, by assumption bits.
    variants: [OnceLock<Result<Compiled, Error>>; 16],
    relied: Assume,
    /// Python: the pattern can match empty and prefers an empty match over a longer one
    /// somewhere (lazy quantifier, empty-first alternation).
    prefers_empty: bool,
    /// JS without `u`/`v`: matching works on UTF-16 code units, so a text with characters
    /// outside the BMP is matched in its code-unit form ([`CodeUnits`]).
    js_code_unit_sensitive: bool,
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
    pub groups: Vec<Option<(usize, usize)>>,
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

    /// The matched text.
    pub fn as_str<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start()..self.end()]
    }

    /// The dsh tool's `captures` (groups 1..n, `null` when unset) and `groups` (named groups
    /// as an object, `null` when the pattern has none), as JSON.
    pub fn captures_json(&self, re: &Regex, text: &str) -> (serde_json::Value, serde_json::Value) {
        use serde_json::Value;
        let captures = (1..self.groups.len())
            .map(|k| self.group(text, k).map_or(Value::Null, Value::from))
            .collect();
        let groups = if re.has_named_groups() {
            let named = re.group_names().iter().enumerate().filter_map(|(i, name)| {
                name.as_ref().map(|n| {
                    (
                        n.clone(),
                        self.group(text, i + 1).map_or(Value::Null, Value::from),
                    )
                })
            });
            Value::Object(named.collect())
        } else {
            Value::Null
        };
        (Value::Array(captures), groups)
    }

    /// Group `k`'s text, or `None` when it did not participate.
    pub fn group<'t>(&self, text: &'t str, k: usize) -> Option<&'t str> {
        self.groups
            .get(k)
            .copied()
            .flatten()
            .map(|(s, e)| &text[s..e])
    }
}

fn assume_bits(a: Assume) -> usize {
    (a.no_final_newline as usize)
        | (a.no_js_line_breaks as usize) << 1
        | (a.python_word_agrees as usize) << 2
        | (a.non_empty as usize) << 3
}

fn python_word_hazard() -> &'static regex::Regex {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let w = translate::PY_WORD;
        regex::Regex::new(&format!(r"[[\w--[{w}]][[{w}]--\w]]")).expect("static hazard class")
    })
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
        let names = ast.groups.iter().map(|g| g.name.clone()).collect();
        if flavor == Flavor::Python
            && let Some(span) = python_empty_iteration(&ast)
        {
            return Err(Error::new(
                ErrorKind::ConstructUnsupported,
                "a repeated group that can match empty and holds a capture that can match empty: CPython records one more empty iteration in that capture, which rxw cannot reproduce",
            )
            .with_span_in(pattern, Some(span)));
        }
        let prefers_empty = flavor == Flavor::Python && ast.root.nullable() && prefers_empty(&ast);
        let js_code_unit_sensitive = flavor == Flavor::Js && !flags.unicode_mode();
        let mut re = Regex {
            pattern: pattern.to_string(),
            flavor,
            flags,
            ast,
            names,
            variants: Default::default(),
            relied: Assume::NOTHING,
            prefers_empty,
            js_code_unit_sensitive,
            backtrack_limit: limits.backtrack_limit,
        };
        let exact = re.compile(Assume::NOTHING);
        if let Ok((_, relied)) = &exact {
            re.relied = *relied;
        }
        let exact = exact.map(|(c, _)| c);
        if let Err(e) = &exact {
            return Err(e.clone());
        }
        let _ = re.variants[0].set(exact);
        Ok(re)
    }

    fn compile(&self, assume: Assume) -> Result<(Compiled, Assume), Error> {
        if self.flavor == Flavor::Rust {
            return self.compile_rust().map(|c| (c, Assume::NOTHING));
        }
        let t = translate(&self.ast, &self.pattern, self.flavor, assume)?;
        let relied = t.relied_on;
        self.build(t).map(|c| (c, relied))
    }

    fn size_error(&self, msg: String) -> Error {
        Error::new(ErrorKind::ConstructUnsupported, msg)
            .with_span_in(&self.pattern, Some(self.ast.root.span))
    }

    fn build(&self, t: Translation) -> Result<Compiled, Error> {
        let program = if t.needs_backtracking {
            let re = fancy_regex::RegexBuilder::new(&t.pattern)
                .backtrack_limit(self.backtrack_limit)
                .delegate_size_limit(64 << 20)
                .build()
                .map_err(|e| {
                    self.size_error(format!(
                        "the backtracking engine rejected the translated pattern: {e}"
                    ))
                })?;
            Program::Backtracking(re)
        } else {
            let re = regex::RegexBuilder::new(&t.pattern)
                .size_limit(64 << 20)
                .build()
                .map_err(|e| {
                    self.size_error(format!(
                        "the regex engine rejected the translated pattern: {}",
                        last_line(&e.to_string())
                    ))
                })?;
            Program::Linear(re)
        };
        Ok(Compiled {
            program,
            group_map: t.group_map,
            iteration_groups: t.iteration_groups,
        })
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
        match regex::RegexBuilder::new(&full).size_limit(64 << 20).build() {
            Ok(re) => Ok(Compiled {
                program: Program::Linear(re),
                group_map,
                iteration_groups: vec![],
            }),
            Err(linear_err) => match fancy_regex::RegexBuilder::new(&full)
                .backtrack_limit(self.backtrack_limit)
                .build()
            {
                Ok(re) => Ok(Compiled {
                    program: Program::Backtracking(re),
                    group_map,
                    iteration_groups: vec![],
                }),
                Err(_) => Err(Error::new(
                    ErrorKind::PatternInvalid,
                    last_line(&linear_err.to_string()),
                )
                .with_span_in(&self.pattern, Some(self.ast.root.span))),
            },
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
        if self.prefers_empty || (self.flavor == Flavor::Js && self.flags.sticky) {
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
                    bmp_only: self.js_code_unit_sensitive,
                },
            )),
            Program::Backtracking(_) => None,
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

    fn program_for(&self, text: &str) -> Result<&Compiled, Error> {
        let r = self.relied;
        let assume = Assume {
            no_final_newline: r.no_final_newline && !text.ends_with('\n'),
            no_js_line_breaks: r.no_js_line_breaks
                && memchr::memchr(b'\r', text.as_bytes()).is_none()
                && memchr::memmem::find(text.as_bytes(), "\u{2028}".as_bytes()).is_none()
                && memchr::memmem::find(text.as_bytes(), "\u{2029}".as_bytes()).is_none(),
            python_word_agrees: r.python_word_agrees
                && (text.is_ascii() || !python_word_hazard().is_match(text)),
            non_empty: r.non_empty && !text.is_empty(),
        };
        self.variant(assume_bits(assume), assume)
    }

    /// Whether the pattern matches anywhere in `text` (JS `y`: at the start).
    ///
    /// # Errors
    /// A backtrack budget exhausted, or an input rxw cannot match faithfully.
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
        let units = if self.js_code_unit_sensitive {
            CodeUnits::of(text)
        } else {
            None
        };
        let start = options.start.min(text.len());
        let pos = units.as_ref().map_or(start, |u| u.to_transformed(start));
        let (compiled, error) = match setup {
            Ok(c) => (Some(c), None),
            Err(e) => (None, Some(e)),
        };
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
            done: false,
            options,
            locs,
            found: 0,
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
        let sticky = self.flavor == Flavor::Js && self.flags.sticky;
        let code_units = self.js_code_unit_sensitive && text.bytes().any(|b| b >= 0xF0);
        let plain = !self.ast.root.nullable() && !sticky && !code_units;
        if plain && let Program::Linear(re) = &self.program_for(text)?.program {
            let it = re.find_iter(text);
            return Ok(match limit {
                Some(l) => it.take(l).count(),
                None => it.count(),
            });
        }
        let mut n = 0;
        for m in self.matches(text, MatchOptions::bounds_only()) {
            if limit.is_some_and(|l| n >= l) {
                break;
            }
            m?;
            n += 1;
        }
        Ok(n)
    }

    fn search(
        &self,
        c: &Compiled,
        locs: Option<&mut regex::CaptureLocations>,
        text: &str,
        pos: usize,
        captures: bool,
    ) -> Result<Option<Match>, Error> {
        let n = self.names.len();
        let mut groups: Vec<Option<(usize, usize)>> = Vec::new();
        match &c.program {
            Program::Linear(re) => {
                if !captures {
                    return Ok(re.find_at(text, pos).map(|m| Match {
                        groups: vec![Some((m.start(), m.end()))],
                    }));
                }
                let locs = locs.expect("capture locations for the linear engine");
                if re.captures_read_at(locs, text, pos).is_none() {
                    return Ok(None);
                }
                groups.push(locs.get(0));
                for k in 0..n {
                    groups.push(locs.get(c.group_map[k]));
                }
                for (hidden, inner) in &c.iteration_groups {
                    let h = locs.get(*hidden);
                    reset_stale(&mut groups, h, inner);
                }
            }
            Program::Backtracking(re) => {
                let map_err = |e: fancy_regex::Error| match e {
                    fancy_regex::Error::RuntimeError(
                        fancy_regex::RuntimeError::BacktrackLimitExceeded,
                    ) => Error::new(
                        ErrorKind::BacktrackLimit,
                        format!(
                            "backtrack limit exceeded ({} steps): the pattern backtracks catastrophically on this input",
                            self.backtrack_limit
                        ),
                    ),
                    other => Error::new(ErrorKind::BacktrackLimit, other.to_string()),
                };
                if !captures {
                    return re
                        .find_from_pos(text, pos)
                        .map(|m| {
                            m.map(|m| Match {
                                groups: vec![Some((m.start(), m.end()))],
                            })
                        })
                        .map_err(map_err);
                }
                let Some(caps) = re.captures_from_pos(text, pos).map_err(map_err)? else {
                    return Ok(None);
                };
                let get = |i: usize| caps.get(i).map(|m| (m.start(), m.end()));
                groups.push(get(0));
                for k in 0..n {
                    groups.push(get(c.group_map[k]));
                }
                for (hidden, inner) in &c.iteration_groups {
                    reset_stale(&mut groups, get(*hidden), inner);
                }
            }
        }
        Ok(Some(Match { groups }))
    }
}

fn reset_stale(
    groups: &mut [Option<(usize, usize)>],
    iteration: Option<(usize, usize)>,
    inner: &[u32],
) {
    for g in inner {
        let slot = &mut groups[*g as usize];
        if let Some((s, _)) = *slot
            && iteration.is_none_or(|(hs, _)| s < hs)
        {
            *slot = None;
        }
    }
}

fn last_line(s: &str) -> String {
    s.lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .trim_start_matches("error: ")
        .to_string()
}

fn prefers_empty(ast: &Ast) -> bool {
    let mut found = false;
    ast.root.walk(|n, _| match &n.kind {
        NodeKind::Repeat {
            greed: Greed::Lazy, ..
        } => found = true,
        NodeKind::Alternation(branches)
            if branches[..branches.len() - 1].iter().any(|b| b.nullable()) =>
        {
            found = true
        }
        _ => {}
    });
    found
}

/// The span of a repeat (max > 1) whose body can match empty and holds a capture that can
/// match empty, if any.
fn python_empty_iteration(ast: &Ast) -> Option<crate::Span> {
    let mut found = None;
    ast.root.walk(|n, _| {
        if found.is_some() {
            return;
        }
        if let NodeKind::Repeat { max, child, .. } = &n.kind
            && max.is_none_or(|m| m > 1)
            && child.nullable()
        {
            child.walk(|c, _| {
                if matches!(
                    c.kind,
                    NodeKind::Group {
                        kind: crate::syntax::ast::GroupKind::Capture { .. },
                        ..
                    }
                ) && c.nullable()
                {
                    found = Some(n.span);
                }
            });
        }
    });
    found
}

/// The code-unit form of a text for JS without `u`: every character outside the BMP is
/// written as two private-use characters standing for its UTF-16 surrogates
/// ([`surrogate_stand_in`]), so that `.`, negated classes and empty-match steps see two code
/// units, as JavaScript does. Offsets map back to the original text; a match boundary between
/// the two halves is reported as an error, since it would cut a character in two.
struct CodeUnits {
    text: String,
    /// Start of each stand-in pair in `text`, in order.
    pairs: Vec<usize>,
}

/// The private-use character standing for a UTF-16 surrogate code unit in the code-unit form
/// of a text (and in translated JS patterns without `u`). Supplementary Private Use Area-A
/// characters never survive into the code-unit form as themselves (they are astral, so they
/// are split into stand-ins too), so the stand-ins cannot collide with real text.
pub fn surrogate_stand_in(unit: u32) -> char {
    debug_assert!((0xD800..0xE000).contains(&unit));
    char::from_u32(0xF0000 + (unit - 0xD800)).expect("plane 15 private use")
}

impl CodeUnits {
    fn of(text: &str) -> Option<CodeUnits> {
        if !text.bytes().any(|b| b >= 0xF0) {
            return None;
        }
        let mut out = String::with_capacity(text.len() + text.len() / 4);
        let mut pairs = Vec::new();
        for c in text.chars() {
            if (c as u32) > 0xFFFF {
                let mut units = [0u16; 2];
                c.encode_utf16(&mut units);
                pairs.push(out.len());
                out.push(surrogate_stand_in(units[0] as u32));
                out.push(surrogate_stand_in(units[1] as u32));
            } else {
                out.push(c);
            }
        }
        Some(CodeUnits { text: out, pairs })
    }

    /// Pairs wholly before `t` and, when `t` falls between the halves of a pair, that pair.
    fn locate(&self, t: usize) -> (usize, Option<usize>) {
        let k = self.pairs.partition_point(|&p| p + 8 <= t);
        let inside = self.pairs.get(k).filter(|&&p| p < t).copied();
        (k, inside)
    }

    fn to_transformed(&self, o: usize) -> usize {
        // Pair k starts at original offset pairs[k] - 4k.
        let k = self
            .pairs
            .iter()
            .enumerate()
            .take_while(|(i, p)| **p - 4 * i < o)
            .count();
        o + 4 * k
    }

    fn to_original_floor(&self, t: usize) -> usize {
        let (k, inside) = self.locate(t);
        match inside {
            Some(p) => p - 4 * k,
            None => t - 4 * k,
        }
    }

    fn map_match(&self, mut m: Match, original: &str) -> Result<Match, Error> {
        for (s, e) in m.groups.iter_mut().flatten() {
            for off in [&mut *s, &mut *e] {
                let (k, inside) = self.locate(*off);
                if let Some(p) = inside {
                    let at = p - 4 * k;
                    let ch = original[at..].chars().next().unwrap_or('?');
                    return Err(Error::new(
                        ErrorKind::InputUnsupported,
                        format!(
                            "the match cuts U+{:04X} (byte {at}) between its two UTF-16 code units, as JavaScript without the u flag does; add the u flag",
                            ch as u32
                        ),
                    ));
                }
                *off -= 4 * k;
            }
        }
        Ok(m)
    }
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
            python_word_agrees: wanted.python_word_agrees
                && (text.is_ascii() || !python_word_hazard().is_match(text)),
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

/// How to iterate.
#[derive(Clone, Default)]
pub struct MatchOptions<'a> {
    /// Byte where the scan starts (context before it still counts for anchors).
    pub start: usize,
    /// Skip capture extraction (faster counting).
    pub bounds_only: bool,
    /// Stop with [`ErrorKind::TimedOut`] after this instant.
    pub deadline: Option<Instant>,
    /// Stop quietly when this becomes true.
    pub cancel: Option<&'a AtomicBool>,
}

impl MatchOptions<'_> {
    /// Options that skip captures.
    pub fn bounds_only() -> Self {
        MatchOptions {
            bounds_only: true,
            ..Default::default()
        }
    }
}

/// Iterator over matches; see [`Regex::matches`].
pub struct Matches<'r, 't> {
    re: &'r Regex,
    compiled: Option<&'r Compiled>,
    error: Option<Error>,
    text: &'t str,
    /// JS without `u` on a text with astral characters: the code-unit form searched instead.
    units: Option<CodeUnits>,
    /// Where the next search starts, in the searched text.
    pos: usize,
    last_end: Option<usize>,
    done: bool,
    options: MatchOptions<'r>,
    locs: Option<regex::CaptureLocations>,
    found: usize,
}

impl Matches<'_, '_> {
    /// The byte where the next search starts (the scan's progress).
    pub fn position(&self) -> usize {
        match &self.units {
            Some(u) => u.to_original_floor(self.pos),
            None => self.pos,
        }
    }

    fn hay(&self) -> &str {
        self.units.as_ref().map_or(self.text, |u| u.text.as_str())
    }

    /// Moves the scan forward to byte `pos` (never backward).
    ///
    /// For callers that know no match can start before `pos`, e.g. a literal prefilter that
    /// saw none of the pattern's required first literals in between: the bytes skipped are
    /// never searched, while anchors and look-behind still see them as context.
    pub fn skip_to(&mut self, pos: usize) {
        if pos > self.pos {
            self.pos = pos;
        }
    }

    /// Continues the scan at byte `pos`, also backward.
    ///
    /// For callers that run a rewritten pattern which consumes more than the original would
    /// (a trailing look-ahead turned into a group) and must resume where the original match
    /// ends. Empty-match bookkeeping is left as it is.
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos;
    }

    fn next_char(&self, at: usize) -> usize {
        at + self.hay()[at..].chars().next().map_or(1, char::len_utf8)
    }
}

impl Iterator for Matches<'_, '_> {
    type Item = Result<Match, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let Some(e) = self.error.take() {
            self.done = true;
            return Some(Err(e));
        }
        let compiled = self.compiled?;
        let flavor = self.re.flavor;
        let sticky = flavor == Flavor::Js && self.re.flags.sticky;
        loop {
            let hay = self.units.as_ref().map_or(self.text, |u| u.text.as_str());
            if self.pos > hay.len() {
                self.done = true;
                return None;
            }
            if let Some(c) = self.options.cancel
                && c.load(Ordering::Relaxed)
            {
                self.done = true;
                return None;
            }
            if let Some(d) = self.options.deadline
                && Instant::now() > d
            {
                self.done = true;
                return Some(Err(Error::new(ErrorKind::TimedOut, "execution timed out")));
            }
            let m = match self.re.search(
                compiled,
                self.locs.as_mut(),
                hay,
                self.pos,
                !self.options.bounds_only,
            ) {
                Ok(Some(m)) => m,
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            let (s, e) = (m.start(), m.end());
            if sticky && s != self.pos {
                self.done = true;
                return None;
            }
            match flavor {
                Flavor::Rust if s == e && self.last_end == Some(e) => {
                    // The regex crate never reports an empty match adjacent to the end of the
                    // previous match.
                    if e >= self.hay().len() {
                        self.done = true;
                        return None;
                    }
                    self.pos = self.next_char(e);
                    continue;
                }
                Flavor::Python if s == e && self.re.prefers_empty => {
                    self.done = true;
                    return Some(Err(Error::new(
                        ErrorKind::ConstructUnsupported,
                        "after an empty match Python retries the same position for a non-empty match; rxw cannot reproduce that for a pattern that prefers the empty match (a lazy quantifier or an empty-first alternative)",
                    )
                    .with_span_in(&self.re.pattern, Some(self.re.ast.root.span))));
                }
                _ => {}
            }
            self.last_end = Some(e);
            self.pos = if s == e { self.next_char(e) } else { e };
            self.found += 1;
            return Some(match &self.units {
                None => Ok(m),
                Some(u) => u.map_match(m, self.text).inspect_err(|_| self.done = true),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(p: &str, flavor: Flavor, flags: &str, text: &str) -> Vec<(usize, usize)> {
        let re = Regex::new(p, flavor, Flags::parse(flags, flavor).unwrap()).unwrap();
        re.find_all(text, None)
            .unwrap()
            .iter()
            .map(|m| (m.start(), m.end()))
            .collect()
    }

    #[test]
    fn empty_match_after_a_match_python_and_js_report_it_rust_does_not() {
        assert_eq!(
            spans("a*", Flavor::Python, "", "baa"),
            vec![(0, 0), (1, 3), (3, 3)]
        );
        assert_eq!(
            spans("a*", Flavor::Js, "", "baa"),
            vec![(0, 0), (1, 3), (3, 3)]
        );
        assert_eq!(spans("a*", Flavor::Rust, "", "baa"), vec![(0, 0), (1, 3)]);
    }

    #[test]
    fn python_dollar_before_final_newline() {
        assert_eq!(spans("a$", Flavor::Python, "", "a\n"), vec![(0, 1)]);
        assert_eq!(spans("a$", Flavor::Js, "", "a\n"), vec![]);
        assert_eq!(spans(r"a\Z", Flavor::Python, "", "a\n"), vec![]);
    }

    #[test]
    fn js_resets_captures_each_iteration() {
        let re = Regex::new("(?:(a)|b)+", Flavor::Js, Flags::default()).unwrap();
        let m = &re.find_all("ab", None).unwrap()[0];
        assert_eq!(m.groups[1], None);
        let re = Regex::new("(?:(a)|b)+", Flavor::Python, Flags::default()).unwrap();
        let m = &re.find_all("ab", None).unwrap()[0];
        assert_eq!(m.groups[1], Some((0, 1)));
    }

    #[test]
    fn engine_choice_is_reported() {
        let re = Regex::new(r"\d+", Flavor::Python, Flags::default()).unwrap();
        assert_eq!(re.engine_kind("12"), EngineKind::Linear);
        let re = Regex::new(r"a(?=b)", Flavor::Python, Flags::default()).unwrap();
        assert_eq!(re.engine_kind("ab"), EngineKind::Backtracking);
    }
}
