//! The JSON vocabulary of the command line, in one place: typed shapes, one span shape
//! (`{"start","end"}`, byte offsets into the text the span indexes) everywhere — errors,
//! explain nodes, lints, debugger steps — and offsets named for their unit.

use crate::Span;
use crate::engine::{Match, Regex};
use crate::error::Error;
use crate::presets::Entry;
use rxw_syntax::release::OffsetUnit;
use serde::Serialize;
use std::borrow::Cow;

/// `{"error": {…}}`: what every command prints under `--json` when it fails.
#[derive(Debug, Serialize)]
pub struct ErrorDoc<'a> {
    /// The error.
    pub error: ErrorBody<'a>,
}

/// An error's JSON body.
#[derive(Debug, Serialize)]
pub struct ErrorBody<'a> {
    /// The snake_case kind (`pattern_invalid`, `backtrack_limit`…).
    pub kind: &'static str,
    /// One line.
    pub message: &'a str,
    /// Byte span in the pattern (or flags, or replacement) it is about, when it is about one.
    pub span: Option<Span>,
}

impl<'a> From<&'a Error> for ErrorDoc<'a> {
    fn from(e: &'a Error) -> ErrorDoc<'a> {
        ErrorDoc {
            error: ErrorBody {
                kind: e.kind.name(),
                message: &e.message,
                span: e.span,
            },
        }
    }
}

/// A match's text and groups in the agent tool's shape: `"match"`, `"captures"` (groups 1..n,
/// `null` where one did not take part) and `"groups"` (named groups, `null` when the pattern
/// names none). Flattened into [`MatchDoc`] and [`ToolMatch`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchText<'t> {
    /// The matched text (a lone surrogate, left by a JavaScript match that cuts a surrogate
    /// pair, written as U+FFFD: the exact code units are in the spans).
    #[serde(rename = "match")]
    pub text: Cow<'t, str>,
    /// Groups 1..n.
    pub captures: Captures<'t>,
    /// Named groups by name.
    pub groups: Option<NamedGroups<'t>>,
}

impl<'t> MatchText<'t> {
    /// The text and groups of `m`, a match of `re` in `text`.
    pub fn of(re: &'t Regex, text: &'t str, m: &Match) -> MatchText<'t> {
        MatchText {
            text: m.text(text, 0).unwrap_or_default(),
            captures: Captures::of(text, m),
            groups: NamedGroups::of(re, text, m),
        }
    }
}

/// Where a JavaScript match without `u`/`v` cuts a character outside the BMP between its two
/// UTF-16 code units (node reports such matches; a lone surrogate has no UTF-8 form): the
/// characters cut, with their bytes, and one sentence saying so.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairCutDoc {
    /// One sentence: which characters are cut, at which bytes.
    pub note: String,
    /// The characters cut, in text order.
    pub characters: Vec<CutCharacterDoc>,
}

/// One character a match cuts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CutCharacterDoc {
    /// `U+1F600`.
    pub code_point: String,
    /// Its bytes in the text.
    pub bytes: [usize; 2],
    /// Its two code units' span in UTF-16 units (counted as the match's `spans.utf16` are).
    pub utf16: [usize; 2],
}

impl PairCutDoc {
    /// The document for `m`, whose byte `start` stands at code unit `start_utf16`; `None`
    /// when `m` cuts no pair.
    pub fn of(m: &Match, start_utf16: usize) -> Option<PairCutDoc> {
        let cut = m.pair_cut.as_ref()?;
        let unit = |u: usize| (start_utf16 + u).saturating_sub(cut.base);
        let mut doc = PairCutDoc {
            note: String::new(),
            characters: cut
                .cuts
                .iter()
                .map(|c| CutCharacterDoc {
                    code_point: format!("U+{:04X}", c.ch as u32),
                    bytes: [c.bytes.0, c.bytes.1],
                    utf16: [unit(c.utf16), unit(c.utf16 + 2)],
                })
                .collect(),
        };
        doc.say();
        Some(doc)
    }

    /// Writes `note` from `characters` (again after a rebase).
    fn say(&mut self) {
        let chars: Vec<String> = self
            .characters
            .iter()
            .map(|c| {
                format!(
                    "{} (bytes {}..{}, UTF-16 {}..{})",
                    c.code_point, c.bytes[0], c.bytes[1], c.utf16[0], c.utf16[1]
                )
            })
            .collect();
        self.note = format!(
            "the match cuts {} between its two UTF-16 code units, as node reports it (without u/v node matches code units; with u/v it tries the position inside a pair after an attempt there fails, and node 18 reads a negated class in a run of text by code unit); a lone surrogate is written as U+FFFD in the texts, exactly in spans.utf16",
            chars.join(", ")
        );
    }
}

/// One match as `find --json` (and `debug --json`) print it: the agent tool's shape plus the
/// byte `end`, the code-point `char_index`, and the spans of the match and of every group in
/// bytes and in the flavor's own unit.
#[derive(Debug, Serialize)]
pub struct MatchDoc<'t> {
    /// Byte offset of the start.
    pub index: usize,
    /// Byte offset one past the end.
    pub end: usize,
    /// Code-point offset of the start.
    pub char_index: usize,
    /// The text and groups.
    #[serde(flatten)]
    pub matched: MatchText<'t>,
    /// The spans of the match (first) and of each group, named for their unit.
    pub spans: SpanDoc,
    /// Set when the match cuts a surrogate pair (JavaScript without `u`/`v`): the characters
    /// cut, with their bytes; `spans.utf16` holds the exact spans.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pair_cut: Option<PairCutDoc>,
}

/// Positions counted two ways at once: code points and UTF-16 code units (a match's start,
/// counted by the caller from where its offsets count).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Units {
    /// Code points.
    pub code_points: usize,
    /// UTF-16 code units.
    pub utf16: usize,
}

impl Units {
    /// The units of `text`.
    pub fn of(text: &str) -> Units {
        let mut u = Units::default();
        for c in text.chars() {
            u.code_points += 1;
            u.utf16 += c.len_utf16();
        }
        u
    }

    /// The sum, part by part.
    pub fn plus(self, other: Units) -> Units {
        Units {
            code_points: self.code_points + other.code_points,
            utf16: self.utf16 + other.utf16,
        }
    }

    /// The difference, part by part (saturating).
    pub fn minus(self, other: Units) -> Units {
        Units {
            code_points: self.code_points.saturating_sub(other.code_points),
            utf16: self.utf16.saturating_sub(other.utf16),
        }
    }
}

/// The spans of a match and its groups, group 0 first, `null` for a group that did not take
/// part: always in bytes (as `index` and `end`), and in the flavor's unit when it is not
/// bytes (`code_points` for Python, `utf16` for JavaScript).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpanDoc {
    /// Byte spans.
    pub bytes: Vec<Option<[usize; 2]>>,
    /// Code-point spans (flavors that count code points).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_points: Option<Vec<Option<[usize; 2]>>>,
    /// UTF-16 code-unit spans (flavors that count UTF-16 units).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utf16: Option<Vec<Option<[usize; 2]>>>,
}

impl SpanDoc {
    /// The spans of `m` in `text` whose start is at byte `index` and at `start` in units.
    fn of(re: &Regex, text: &str, m: &Match, index: usize, start: Units) -> SpanDoc {
        let unit = re.flavor().offset_unit();
        let from = m.start();
        // A position in units, counted from the match's start (a group of a look-behind may
        // begin before it).
        let at = |byte: usize| -> Units {
            if byte >= from {
                start.plus(Units::of(&text[from..byte]))
            } else {
                start.minus(Units::of(&text[byte..from]))
            }
        };
        let pick = |u: Units| match unit {
            OffsetUnit::Utf16 => u.utf16,
            _ => u.code_points,
        };
        let byte = |b: usize| {
            if b >= from {
                index + (b - from)
            } else {
                index.saturating_sub(from - b)
            }
        };
        let bytes = m
            .groups
            .iter()
            .map(|g| g.map(|(s, e)| [byte(s), byte(e)]))
            .collect();
        let units = (unit != OffsetUnit::Bytes).then(|| match &m.pair_cut {
            // The exact code units, counted from the match's first byte's unit.
            Some(cut) if unit == OffsetUnit::Utf16 => cut
                .utf16
                .iter()
                .map(|g| {
                    g.map(|(s, e)| {
                        let u = |x: usize| (start.utf16 + x).saturating_sub(cut.base);
                        [u(s), u(e)]
                    })
                })
                .collect::<Vec<_>>(),
            _ => m
                .groups
                .iter()
                .map(|g| g.map(|(s, e)| [pick(at(s)), pick(at(e))]))
                .collect::<Vec<_>>(),
        });
        SpanDoc {
            bytes,
            code_points: units.clone().filter(|_| unit == OffsetUnit::CodePoints),
            utf16: units.filter(|_| unit == OffsetUnit::Utf16),
        }
    }
}

impl<'t> MatchDoc<'t> {
    /// The document for `m`, a match of `re` in `text` whose start is at `start` (code points
    /// and UTF-16 units, counted by the caller from where its offsets count). Byte offsets are
    /// `m`'s; [`MatchDoc::rebase`] moves them.
    pub fn new(re: &'t Regex, text: &'t str, m: &Match, start: Units) -> MatchDoc<'t> {
        MatchDoc {
            index: m.start(),
            end: m.end(),
            char_index: start.code_points,
            matched: MatchText::of(re, text, m),
            spans: SpanDoc::of(re, text, m, m.start(), start),
            pair_cut: PairCutDoc::of(m, start.utf16),
        }
    }

    /// Moves the byte offsets so that the match starts at byte `index` (a chunk's or a log's
    /// offset added), the byte spans with it.
    pub fn rebase(&mut self, index: usize) {
        let old = self.index;
        let shift = |b: usize| {
            if index >= old {
                b + (index - old)
            } else {
                b.saturating_sub(old - index)
            }
        };
        self.end = shift(self.end);
        self.index = index;
        for span in self.spans.bytes.iter_mut().flatten() {
            *span = [shift(span[0]), shift(span[1])];
        }
        if let Some(cut) = &mut self.pair_cut {
            for c in &mut cut.characters {
                c.bytes = [shift(c.bytes[0]), shift(c.bytes[1])];
            }
            cut.say();
        }
    }
}

/// `rxw debug --json`: the matches, the recorded steps and how the recording ended.
///
/// Written straight to the output by serde (no JSON tree in memory), so its size in memory is
/// the recorded steps themselves.
#[derive(Debug, Serialize)]
pub struct DebugTraceDoc<'t> {
    /// The matches found, as `find --json` shows them.
    pub matches: Vec<MatchDoc<'t>>,
    /// Steps taken in all.
    pub steps: u64,
    /// The recorded steps (at most `recorded_limit`).
    pub trace: &'t [crate::engine::trace::TraceStep],
    /// True when fewer steps were recorded than taken, or the run stopped.
    pub truncated: bool,
    /// The most steps that were to be recorded: `--max-steps`, or the recording cap when
    /// that asked for more.
    pub recorded_limit: usize,
    /// Set when `--max-steps` asked for more steps than the cap and the cap cut the trace
    /// short: the number asked for.
    pub cap_cut: Option<usize>,
    /// The error that stopped the run (a step budget), if any.
    pub stopped: Option<&'t str>,
    /// How the search ended, in one sentence and as data.
    pub verdict: DebugVerdict,
}

/// How a traced search ended: matched or not, after how many steps and attempts, the
/// positions in the flavor's own units (`unit`), beside bytes where a position is a byte.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DebugVerdict {
    /// True when the pattern matched at least once.
    pub matched: bool,
    /// The sentence `rxw debug` ends with.
    pub text: String,
    /// The unit of the positions below: `code points`, `UTF-16 units` or `bytes`.
    pub unit: &'static str,
    /// The first match's span in `unit`, when there is one.
    pub first_match: Option<[usize; 2]>,
    /// Where each search attempt began (the first 100), in `unit`.
    pub attempt_starts: Vec<usize>,
    /// How many attempts were recorded.
    pub attempts: usize,
    /// The last recorded step's position in `unit`: where a failed search gave up.
    pub last_position: Option<usize>,
    /// Steps taken in all.
    pub steps: u64,
    /// The number (`step`) of the last recorded step that failed, when one did: for a search
    /// that found nothing, the last thing it tried.
    pub last_failed_step: Option<u64>,
}

impl DebugVerdict {
    /// How the search ended, said in the flavor's units: a match where and after what, or no
    /// match after how many attempts from which positions, and the last step that failed
    /// (what it tried, where, and what it found), after which nothing was left to try.
    pub fn of(
        re: &crate::engine::Regex,
        pattern: &str,
        text: &str,
        t: &crate::engine::trace::Trace,
    ) -> DebugVerdict {
        let unit = re.flavor().offset_unit();
        // An attempt begins where the matcher runs its first instruction; each step knows its
        // position in the flavor's unit (inside an astral character, for JavaScript).
        let starts: Vec<usize> = t
            .steps
            .iter()
            .filter(|s| s.pc == 0 && !s.backtrack)
            .map(|s| s.unit_pos)
            .collect();
        // The match's positions, in the flavor's units, counted in one walk of the text up to
        // the last of them (a workbench's text can be large).
        let wanted: Vec<usize> = t
            .matches
            .first()
            .map(|m| [m.start(), m.end()])
            .into_iter()
            .flatten()
            .collect();
        let floor = |byte: usize| {
            let mut b = byte.min(text.len());
            while !text.is_char_boundary(b) {
                b -= 1;
            }
            b
        };
        let mut bytes: Vec<usize> = wanted.iter().map(|&b| floor(b)).collect();
        bytes.sort_unstable();
        bytes.dedup();
        let mut units = std::collections::HashMap::with_capacity(bytes.len());
        let (mut from, mut count) = (0, 0);
        for b in bytes {
            count += unit.count(&text[from..b]);
            units.insert(b, count);
            from = b;
        }
        let at = |byte: usize| units.get(&floor(byte)).copied().unwrap_or(0);
        let shown: Vec<String> = starts.iter().take(8).map(|p| p.to_string()).collect();
        let more = if starts.len() > 8 { ", …" } else { "" };
        let attempts = if starts.len() == 1 {
            "1 attempt".to_string()
        } else {
            format!("{} attempts", starts.len())
        };
        let partial = if t.truncated { " recorded" } else { "" };
        let last = t.steps.last();
        let last_failed = t
            .steps
            .iter()
            .rev()
            .find(|s| s.outcome == Some(crate::engine::trace::StepOutcome::Failed));
        let text_of = match t.matches.first() {
            Some(m) => format!(
                "verdict: match at {}..{} ({}) after {} steps from {attempts}{partial} (at {}{more})",
                at(m.start()),
                at(m.end()),
                unit.name(),
                t.per_match.first().copied().unwrap_or(t.total_steps),
                shown.join(", ")
            ),
            None => {
                let gave_up = match (last_failed, last) {
                    (Some(f), _) => format!(
                        "; the last failing step was step {}, {} at {}{}, after which nothing was left to try",
                        f.step,
                        f.action,
                        f.unit_pos,
                        f.result
                            .as_ref()
                            .map(|r| format!(" ({r})"))
                            .unwrap_or_default()
                    ),
                    (None, Some(s)) => {
                        let piece = &pattern
                            [s.span.start.min(pattern.len())..s.span.end.min(pattern.len())];
                        format!(
                            "; the last attempt's last step was `{}` at {}, after which nothing was left to try",
                            piece, s.unit_pos
                        )
                    }
                    (None, None) => String::new(),
                };
                let stopped = t
                    .stopped
                    .as_ref()
                    .map(|e| format!(" (stopped: {})", e.message))
                    .unwrap_or_default();
                format!(
                    "verdict: no match ({}) after {} steps and {attempts}{partial} (at {}{more}){gave_up}{stopped}",
                    unit.name(),
                    t.total_steps,
                    shown.join(", ")
                )
            }
        };
        DebugVerdict {
            matched: !t.matches.is_empty(),
            text: text_of,
            unit: unit.name(),
            first_match: t.matches.first().map(|m| [at(m.start()), at(m.end())]),
            attempt_starts: starts.iter().take(100).copied().collect(),
            attempts: starts.len(),
            last_position: last.map(|s| s.unit_pos),
            steps: t.total_steps,
            last_failed_step: last_failed.map(|s| s.step),
        }
    }
}

/// One match as the agent tool's `find` action lists it: `{"index","match","captures","groups"}`,
/// `index` counted in the flavor's own units (UTF-16 code units for JS).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolMatch<'t> {
    /// Start, in the flavor's units.
    pub index: usize,
    /// The text and groups.
    #[serde(flatten)]
    pub matched: MatchText<'t>,
    /// Set when the match cuts a surrogate pair (JavaScript without `u`/`v`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pair_cut: Option<PairCutDoc>,
}

impl<'t> ToolMatch<'t> {
    /// The item for `m`, a match of `re` in `text` whose first byte stands at `index` in the
    /// flavor's units (one unit more is added when `m` starts inside a surrogate pair).
    pub fn new(re: &'t Regex, text: &'t str, m: &Match, index: usize) -> ToolMatch<'t> {
        ToolMatch {
            index: index + m.start_units_past_byte(),
            matched: MatchText::of(re, text, m),
            pair_cut: PairCutDoc::of(m, index),
        }
    }
}

/// The agent tool's `captures`: groups 1..n as an array, `null` where a group did not take part.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Captures<'t>(pub Vec<Option<Cow<'t, str>>>);

impl<'t> Captures<'t> {
    /// The captures of `m`, a match in `text` (exact: [`Match::text`]).
    pub fn of(text: &'t str, m: &Match) -> Captures<'t> {
        Captures((1..m.groups.len()).map(|k| m.text(text, k)).collect())
    }
}

/// The agent tool's `groups`: the named groups by name (`null` where one did not take part);
/// a pattern without named groups has none ([`NamedGroups::of`] gives `None`, written `null`).
/// A name given to several groups appears once: in ECMAScript (node 24's duplicate named
/// groups) with the text of the group that took part, as the `groups` object has it; in Go
/// and RE2 with the first group's, as `SubexpIndex` and `groupindex` answer.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedGroups<'t>(pub Vec<(&'t str, Option<Cow<'t, str>>)>);

impl<'t> NamedGroups<'t> {
    /// The named groups of `m` (a match of `re` in `text`), or `None` when `re` names none.
    pub fn of(re: &'t Regex, text: &'t str, m: &Match) -> Option<NamedGroups<'t>> {
        if !re.has_named_groups() {
            return None;
        }
        let participating = re.flavor().rules().grammar == rxw_syntax::rules::Grammar::Ecma;
        let mut out: Vec<(&'t str, Option<Cow<'t, str>>)> = Vec::new();
        for (i, name) in re.group_names().iter().enumerate() {
            let Some(name) = name.as_deref() else {
                continue;
            };
            let value = m.text(text, i + 1);
            match out.iter_mut().find(|(n, _)| *n == name) {
                // At most one such group takes part (node 24 also accepts a few patterns
                // where two can: its groups object then names the last of them).
                Some(slot) if participating && value.is_some() => slot.1 = value,
                Some(_) => {}
                None => out.push((name, value)),
            }
        }
        Some(NamedGroups(out))
    }
}

impl Serialize for NamedGroups<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_map_of(&self.0, s)
    }
}

/// Pairs serialized as a JSON object, in their order.
fn serialize_map_of<S: serde::Serializer, K: Serialize, V: Serialize>(
    pairs: &[(K, V)],
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (key, value) in pairs {
        map.serialize_entry(key, value)?;
    }
    map.end()
}

/// A match's groups, serialized as a JSON object: name (or number, for an unnamed group) to
/// text, `null` when the group did not take part. Borrows the texts, so a huge group (a
/// DOTALL body running to the end of a log) is escaped straight into the output, not copied.
#[derive(Debug, Clone, PartialEq)]
pub struct Groups<'a>(pub Vec<(Cow<'a, str>, Option<&'a str>)>);

impl<'a> Groups<'a> {
    /// The groups of `m` (a match of `re` in `text`).
    pub fn of(re: &'a Regex, text: &'a str, m: &Match) -> Groups<'a> {
        Groups(
            re.group_names()
                .iter()
                .enumerate()
                .map(|(i, name)| {
                    let label = match name {
                        Some(n) => Cow::Borrowed(n.as_str()),
                        None => Cow::Owned((i + 1).to_string()),
                    };
                    (label, m.group(text, i + 1))
                })
                .collect(),
        )
    }

    /// As [`Groups::of`], with the whole match first as group `"0"` (what the workbench copies).
    pub fn with_whole(re: &'a Regex, text: &'a str, m: &Match) -> Groups<'a> {
        let mut groups = Groups::of(re, text, m);
        groups.0.insert(0, (Cow::Borrowed("0"), m.group(text, 0)));
        groups
    }

    /// The groups as one line of JSON.
    pub fn to_json_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl Serialize for Groups<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_map_of(&self.0, s)
    }
}

/// Where a record's match is in the logs it was read from: the source (its path as given,
/// `-` for standard input) and the line there, from 1. Added to every record read from
/// files or standard input (`rxw find`, `rxw parse`), flattened into it.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct SourceLine<'a> {
    /// The log the match starts in.
    pub source: &'a str,
    /// The line it starts on, counted in that log from 1.
    pub line: u64,
}

/// A record and where it came from: the record's fields, then `source` and `line`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Sourced<'a, T> {
    /// The record.
    #[serde(flatten)]
    pub record: T,
    /// Where it came from (absent for a text given as an argument).
    #[serde(flatten)]
    pub at: Option<SourceLine<'a>>,
    /// `"message"` when `index` and `end` are offsets in the record's decoded message (a JSON
    /// log's), not in the log's text; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offsets: Option<&'static str>,
}

/// A preset hit, the shape of `rxw parse --json`: `{"key","index","end","match","groups"}`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HitRecord<'a> {
    /// The preset key.
    pub key: &'a str,
    /// Byte offset of the start.
    pub index: usize,
    /// Byte offset of the end.
    pub end: usize,
    /// The matched text.
    #[serde(rename = "match")]
    pub text: &'a str,
    /// The groups.
    pub groups: Groups<'a>,
}

impl<'a> HitRecord<'a> {
    /// The record of a preset's match in `text`.
    pub fn new(entry: &'a Entry, text: &'a str, m: &Match) -> HitRecord<'a> {
        HitRecord {
            key: &entry.preset.key,
            index: m.start(),
            end: m.end(),
            text: m.as_str(text),
            groups: Groups::of(
                entry.regex().expect("a preset that matched has compiled"),
                text,
                m,
            ),
        }
    }
}

/// `{"matched": bool}`: `rxw find --test --json`, the agent tool's `test`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Matched {
    /// Whether the pattern matched.
    pub matched: bool,
}

/// `{"count": n, "format"}`: `rxw find --count --json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Count {
    /// How many matches.
    pub count: usize,
    /// How the logs were read (`lines`: the text as is; a record format's name when the
    /// pattern ran on each record's message). Absent for a text argument.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
}

/// `{"result", "replaced"}`: `rxw replace --json`, the agent tool's `replace`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replaced<'a> {
    /// The text after replacing.
    pub result: &'a str,
    /// How many matches were replaced.
    pub replaced: usize,
    /// JavaScript without `u`/`v`: the result's exact UTF-16 code units when it holds a lone
    /// surrogate (a match cut a surrogate pair), which `result` writes as U+FFFD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utf16: Option<&'a [u16]>,
}

/// A document with the registry warnings beside its own fields (`"warnings"` only when there
/// are any: a user registry that was skipped).
#[derive(Debug, Serialize)]
pub struct WithWarnings<'w, T> {
    /// The document.
    #[serde(flatten)]
    pub doc: T,
    /// The warnings.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub warnings: &'w [String],
}

/// One preset as `rxw preset list --json` lists it.
#[derive(Debug, Serialize)]
pub struct PresetRow<'a> {
    /// The key.
    pub key: &'a str,
    /// What it is for.
    pub purpose: &'a str,
    /// Its flavor.
    pub flavor: crate::Flavor,
    /// Its flag letters.
    pub flags: &'a str,
    /// Where it was loaded from.
    pub origin: String,
}

impl<'a> PresetRow<'a> {
    /// The row of `entry`.
    pub fn new(entry: &'a Entry) -> PresetRow<'a> {
        PresetRow {
            key: &entry.preset.key,
            purpose: &entry.preset.purpose,
            flavor: entry.preset.flavor,
            flags: &entry.preset.flags,
            origin: entry.origin.to_string(),
        }
    }
}

/// `rxw preset test --json`: the first match of one preset, or `{"matched": false, "key"}`.
#[derive(Debug, Serialize)]
pub struct PresetTest<'a> {
    /// Whether it matched.
    pub matched: bool,
    /// The preset's key.
    pub key: &'a str,
    /// The match, when there is one.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub hit: Option<PresetHit<'a>>,
}

/// Where a preset matched and its groups.
#[derive(Debug, Serialize)]
pub struct PresetHit<'a> {
    /// Byte offset of the start.
    pub index: usize,
    /// Byte offset of the end.
    pub end: usize,
    /// The matched text.
    #[serde(rename = "match")]
    pub text: &'a str,
    /// The groups.
    pub groups: Groups<'a>,
}

/// `rxw parse --count --json`: `{"count", "by_key": {key: n}}`.
#[derive(Debug, Serialize)]
pub struct CountByKey<'a> {
    /// All hits.
    pub count: usize,
    /// Hits per preset key, in registry order.
    #[serde(serialize_with = "pairs_as_map")]
    pub by_key: Vec<(&'a str, usize)>,
    /// How the logs were read: `lines` (the text as is), or the record format the presets ran
    /// on the messages of (`netvm`, `jsonl`; several joined by `,` for merged logs of
    /// different formats). Absent for a text argument read as is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

fn pairs_as_map<S: serde::Serializer>(pairs: &[(&str, usize)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

/// `rxw preset check --json`: `{"passed", "failed", "cases"}`.
#[derive(Debug, Serialize)]
pub struct CheckDoc<'a, C: Serialize> {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Every case.
    pub cases: &'a [C],
}

/// `rxw explain --railroad --json`: `{"railroad": [lines]}`.
#[derive(Debug, Serialize)]
pub struct Railroad {
    /// The diagram's lines.
    pub railroad: Vec<String>,
}

/// A part of the pattern with its text, and the matcher's steps there when counted.
#[derive(Debug, Clone, Serialize)]
pub struct PatternPart<'a> {
    /// Where it is in the pattern.
    pub span: Span,
    /// Its text.
    pub text: &'a str,
    /// Steps the matcher took in it (hot nodes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
}

/// A position of the text and the steps the matcher took there.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct HotPosition {
    /// Byte offset in the text.
    pub pos: usize,
    /// Steps taken there.
    pub steps: u64,
}

/// `rxw debug --summary --json`: where the steps went and how they grow.
#[derive(Debug, Serialize)]
pub struct DebugSummaryDoc<'a> {
    /// Steps in all.
    pub steps: u64,
    /// Steps per match.
    pub per_match: &'a [u64],
    /// The hottest pattern nodes.
    pub hot_nodes: &'a [PatternPart<'a>],
    /// The hottest text positions.
    pub hot_positions: &'a [HotPosition],
    /// The growth class (`linear`, `polynomial`, `exponential`), when measured.
    pub growth: Option<&'static str>,
    /// The polynomial degree, when measured.
    pub degree: Option<u32>,
    /// The nested quantifiers the lint blames.
    pub culprits: &'a [PatternPart<'a>],
    /// Why the run stopped early, if it did.
    pub stopped: Option<&'a str>,
    /// Whether per-position counts stopped at their cap.
    pub positions_capped: bool,
}

/// The audit matrix as JSON: the audit's own document type, named here with the others.
pub use crate::audit::render::AuditDoc;

/// How an exported preset fared on its engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every row gave the same hits, text and named groups.
    Agree,
    /// A row gave other hits (see `first_difference`).
    Differ,
    /// The target cannot express the preset exactly (see `reason`).
    Refused,
}

/// One preset on one target in `rxw registry verify --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyRecord {
    /// The preset key.
    pub preset: String,
    /// The target's name (`clickhouse`).
    pub target: String,
    /// agree, differ or refused.
    pub verdict: Verdict,
    /// How it was exported: exact, rewrite or refused.
    pub form: String,
    /// rxw's hits on the verification rows (as the target shows them).
    pub hits_rxw: usize,
    /// The engine's hits on the same rows.
    pub hits_engine: usize,
    /// The first row whose hits differ, with both answers.
    pub first_difference: Option<String>,
    /// Why the preset was refused.
    pub reason: Option<String>,
    /// What ran the definitions: the target's own component (`vrl 0.38`, `Go regexp`,
    /// `Spark 4.3.0`, `grok on joni`, chDB, DuckDB) or, said so, a stand-in for it.
    pub engine: String,
}

/// One preset in `rxw registry export --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExportRecord {
    /// The preset key.
    pub preset: String,
    /// The target's name.
    pub target: String,
    /// exact, rewrite or refused.
    pub form: String,
    /// What the rewrite is and how it was checked.
    pub note: Option<String>,
    /// Why the preset was refused.
    pub reason: Option<String>,
    /// The pattern with a caret under the refused construct.
    pub caret: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Flavor;

    fn first(pattern: &str, text: &str) -> (Regex, Match) {
        let re = Regex::new(pattern, Flavor::PYTHON, Default::default()).unwrap();
        let m = re.find_all(text, Some(1)).unwrap().remove(0);
        (re, m)
    }

    #[test]
    fn groups_name_or_number_each_group_and_null_the_absent() {
        let (re, m) = first(r"(?P<k>a)=(b)?(c)?", "a=b");
        let json = serde_json::to_string(&Groups::of(&re, "a=b", &m)).unwrap();
        assert_eq!(json, r#"{"k":"a","2":"b","3":null}"#);
        let whole = serde_json::to_string(&Groups::with_whole(&re, "a=b", &m)).unwrap();
        assert_eq!(whole, r#"{"0":"a=b","k":"a","2":"b","3":null}"#);
    }

    #[test]
    fn the_tool_match_lists_captures_and_names_only_named_groups() {
        let (re, m) = first(r"(?P<k>a)=(b)(c)?", "a=b");
        let doc = serde_json::to_string(&ToolMatch::new(&re, "a=b", &m, 7)).unwrap();
        assert_eq!(
            doc,
            r#"{"index":7,"match":"a=b","captures":["a","b",null],"groups":{"k":"a"}}"#
        );
        let (re, m) = first(r"(a)", "a");
        let doc = serde_json::to_string(&ToolMatch::new(&re, "a", &m, 0)).unwrap();
        assert_eq!(
            doc,
            r#"{"index":0,"match":"a","captures":["a"],"groups":null}"#
        );
    }
}

/// `rxw parse --schema`: the fields of the records `rxw parse --json` and `--jsonl` write, each
/// preset's groups (the keys of a record's `groups`) with their types, and statements that
/// load `--jsonl` output into a table `rxw_hits`.
#[derive(Debug, Serialize)]
pub struct ParseSchema {
    /// The record's fields, in the order they are written.
    pub record: Vec<SchemaField>,
    /// One entry per preset, in registry order.
    pub presets: Vec<PresetSchema>,
    /// `CREATE TABLE rxw_hits …` and how to load a `--jsonl` file into it, per store.
    pub load: LoadStatements,
}

/// One field of a hit record.
#[derive(Debug, Clone, Serialize)]
pub struct SchemaField {
    /// The JSON key.
    pub name: &'static str,
    /// `string`, `integer` or `object`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Whether the key can be absent (`source` and `line` are there only for text read from
    /// a file or standard input).
    pub optional: bool,
    /// What it holds.
    pub description: &'static str,
}

/// A preset's groups as its records carry them.
#[derive(Debug, Serialize)]
pub struct PresetSchema {
    /// The preset key (a record's `key`).
    pub key: String,
    /// What it is for.
    pub purpose: String,
    /// Its flavor.
    pub flavor: crate::Flavor,
    /// Its groups, in the pattern's order.
    pub groups: Vec<GroupSchema>,
}

/// One group of a preset: a key of a record's `groups`.
#[derive(Debug, Serialize)]
pub struct GroupSchema {
    /// The key in `groups`: the group's name, or its number when it has none.
    pub name: String,
    /// Its number in the pattern (from 1).
    pub index: usize,
    /// Whether the pattern names it.
    pub named: bool,
    /// Always `string`: a group's value is the text it matched.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Whether a hit can leave it unset (the value is then `null`).
    pub nullable: bool,
}

/// Statements that create `rxw_hits` and load `rxw parse --jsonl` output (`hits.jsonl`).
#[derive(Debug, Serialize)]
pub struct LoadStatements {
    /// ClickHouse (and chDB).
    pub clickhouse: String,
    /// DuckDB.
    pub duckdb: String,
}
