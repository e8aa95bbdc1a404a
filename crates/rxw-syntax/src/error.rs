//! The regex's error: a kind, a message, and the span it points at.
//!
//! These are the kinds of one pattern's life, and only those: written wrong or not reproducible
//! in its flavor (the parser), and over a limit, out of budget or given an input it cannot
//! match faithfully (the engine, `rxw-engine`, which reports through this type so a pattern has
//! one error vocabulary from parse to run). What the product around the regex can get wrong, a
//! registry, a preset key, a file, a command line, is `rxw-core`'s error, which carries these
//! kinds under the same names.

use crate::Span;
use serde::Serialize;
use std::fmt;

/// What went wrong with a pattern, named subject-then-problem.
///
/// Not `#[non_exhaustive]`, unlike the product's kind (`rxw_core::ErrorKind`): the core
/// carries every one of these kinds under its own name through an exhaustive conversion, so
/// a kind added here does not compile until the core has it too, and no regex kind can reach
/// the product's JSON as some other kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The pattern is not valid in its flavor, e.g. `(a` or `a{2,1}`.
    PatternInvalid,
    /// The pattern is valid in its flavor but rxw cannot reproduce the flavor's meaning,
    /// e.g. a conditional group in JS.
    ConstructUnsupported,
    /// A flag letter the flavor does not know: `invalid flag "q"`.
    FlagInvalid,
    /// A flag letter given twice: `duplicate flag "g"`.
    FlagDuplicate,
    /// An input, pattern, replacement or output over the active limits.
    LimitExceeded,
    /// The backtracking engine gave up (its step budget ran out).
    BacktrackLimit,
    /// The wall-clock budget ran out.
    TimedOut,
    /// A replacement template that refers to a missing group or has a bad escape.
    ReplacementInvalid,
    /// The input cannot be matched faithfully (e.g. astral characters under JS without `u`).
    InputUnsupported,
    /// Explain refused: more than the node budget.
    ExplainTooComplex,
}

impl ErrorKind {
    /// The snake_case name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::PatternInvalid => "pattern_invalid",
            ErrorKind::ConstructUnsupported => "construct_unsupported",
            ErrorKind::FlagInvalid => "flag_invalid",
            ErrorKind::FlagDuplicate => "flag_duplicate",
            ErrorKind::LimitExceeded => "limit_exceeded",
            ErrorKind::BacktrackLimit => "backtrack_limit",
            ErrorKind::TimedOut => "timed_out",
            ErrorKind::ReplacementInvalid => "replacement_invalid",
            ErrorKind::InputUnsupported => "input_unsupported",
            ErrorKind::ExplainTooComplex => "explain_too_complex",
        }
    }
}

/// An error with its kind, a one-line message, and where it points.
///
/// `source` is the text the span indexes (the pattern, the flag letters or the replacement),
/// kept so that [`Error::caret`] can draw the span without the caller passing it again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// One line, no trailing period.
    pub message: String,
    /// Byte span in `source`, when the error is about a place.
    pub span: Option<Span>,
    /// The text the span indexes.
    #[serde(skip)]
    pub source: Option<String>,
}

impl Error {
    /// A new error without a span.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            span: None,
            source: None,
        }
    }

    /// Attaches the text and the span inside it.
    pub fn with_span_in(mut self, source: &str, span: Option<Span>) -> Error {
        self.source = Some(source.to_string());
        self.span = span;
        self
    }

    /// Draws the source line with carets under the span, e.g.
    /// ```text
    /// (a|b
    /// ^^^^
    /// ```
    /// Returns `None` when there is no span or source.
    pub fn caret(&self) -> Option<String> {
        Some(caret(self.source.as_deref()?, self.span?))
    }
}

/// `source` on one line with carets under `span` beneath it, counted in terminal columns
/// ([`display_width`]); a span past the end is clamped, an empty one gets one caret. The one
/// caret renderer: [`Error::caret`] and the core's error draw with it.
pub fn caret(source: &str, span: Span) -> String {
    let start = span.start.min(source.len());
    let end = span.end.clamp(start, source.len());
    let pad = display_width(&source[..start]);
    let width = display_width(&source[start..end]).max(1);
    let shown = caret_line(source);
    format!("{shown}\n{}{}", " ".repeat(pad), "^".repeat(width))
}

/// Terminal columns `s` takes on a caret line: wide characters (CJK, most emoji) take two,
/// combining marks none, and a control character (shown as a space) one. Carets under a
/// pattern ([`Error::caret`], lints) count with this, so they stand under the right column.
pub fn display_width(s: &str) -> usize {
    use unicode_width::UnicodeWidthChar;
    s.chars()
        .map(|c| {
            if c.is_control() {
                1
            } else {
                c.width().unwrap_or(0)
            }
        })
        .sum()
}

/// The bidirectional formatting characters (U+061C, U+200E/F, U+202A–E, U+2066–9): they take
/// no column but reorder the text around them on a terminal.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c as u32, 0x061c | 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069)
}

/// `s` with every control character (newline, tab…) shown as a space, for a caret line.
/// Bidirectional controls (U+061C, U+200E/F, U+202A–E, U+2066–9), which take no column but
/// would reorder the line on a terminal, are left out.
pub fn caret_line(s: &str) -> String {
    s.chars()
        .filter(|&c| !is_bidi_control(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(span) = self.span {
            write!(f, " at {}..{}", span.start, span.end)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_counts_display_columns_of_wide_characters() {
        // Regression: the caret stood under column 2 (characters), not 4 (columns).
        let e =
            Error::new(ErrorKind::PatternInvalid, "x").with_span_in("日本(", Some(Span::new(6, 7)));
        assert_eq!(e.caret().unwrap(), "日本(\n    ^");
        let e = Error::new(ErrorKind::PatternInvalid, "x")
            .with_span_in("e\u{301}(日)", Some(Span::new(3, 8)));
        assert_eq!(e.caret().unwrap(), "e\u{301}(日)\n ^^^^");
    }
}
