//! The JSON vocabulary of the command line, in one place: typed shapes, one span shape
//! (`{"start","end"}`, byte offsets into the text the span indexes) everywhere — errors,
//! explain nodes, lints, debugger steps — and offsets named for their unit.

use crate::Span;
use crate::engine::{Match, Regex};
use crate::error::Error;
use serde::Serialize;
use serde_json::Value;

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

/// One match as `find --json` (and `debug --json`) print it: the agent tool's shape plus the
/// byte `end` and the code-point `char_index`.
#[derive(Debug, Serialize)]
pub struct MatchDoc<'t> {
    /// Byte offset of the start.
    pub index: usize,
    /// Byte offset one past the end.
    pub end: usize,
    /// Code-point offset of the start.
    pub char_index: usize,
    /// The matched text.
    #[serde(rename = "match")]
    pub text: &'t str,
    /// Groups 1..n (`null` when a group did not participate).
    pub captures: Value,
    /// Named groups by name, `null` when the pattern has none.
    pub groups: Value,
}

impl<'t> MatchDoc<'t> {
    /// The document for `m`, a match of `re` in `text` starting at code point `char_index`.
    pub fn new(re: &Regex, text: &'t str, m: &Match, char_index: usize) -> MatchDoc<'t> {
        let (captures, groups) = m.captures_json(re, text);
        MatchDoc {
            index: m.start(),
            end: m.end(),
            char_index,
            text: m.as_str(text),
            captures,
            groups,
        }
    }
}
