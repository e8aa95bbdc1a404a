//! The product's error: a kind, a message, and the span it points at.
//!
//! The regex layers keep their own error ([`RegexError`], `rxw-syntax`'s, which the engine
//! reports through too): a pattern that is invalid, unsupported, over a limit or out of
//! budget. What only the product can get wrong, a registry, a preset key, a file, a command
//! line, has no place there and lives here, beside those kinds carried under the same names.
//! `?` turns a regex error into this one ([`From`]), span and source kept, so the CLI's
//! caret, the TUI's underline and every JSON document (`"kind":"pattern_invalid"`,
//! `"kind":"io"`) read the same whichever layer failed.

use crate::Span;
use serde::Serialize;
use std::fmt;

/// The regex layers' error (`rxw-syntax`'s, also the engine's), which `?` converts into
/// [`Error`].
pub use rxw_syntax::error::{Error as RegexError, ErrorKind as RegexErrorKind};
/// The caret line's helpers, shared with the regex layers' renderer.
pub use rxw_syntax::error::{caret_line, display_width, is_bidi_control};

/// What went wrong, named subject-then-problem: a regex's kinds (the first ten, each the
/// [`RegexErrorKind`] of the same name) and the product's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
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
    /// A registry (preset file) could not be read or is malformed.
    RegistryInvalid,
    /// A preset key that no loaded registry defines: `unknown preset "wo"`.
    PresetUnknown,
    /// Reading or writing a file failed, e.g. `app.log: No such file or directory`.
    Io,
    /// The command line is not valid (an unknown option, a missing argument): clap's usage
    /// errors, as JSON when `--json` was given.
    ArgumentsInvalid,
}

impl ErrorKind {
    /// The snake_case name used in JSON; a regex kind's is its [`RegexErrorKind::name`].
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
            ErrorKind::RegistryInvalid => "registry_invalid",
            ErrorKind::PresetUnknown => "preset_unknown",
            ErrorKind::Io => "io",
            ErrorKind::ArgumentsInvalid => "arguments_invalid",
        }
    }
}

impl From<RegexErrorKind> for ErrorKind {
    /// The product kind that carries a regex kind: the one of the same name. Exhaustive (the
    /// regex kind is not `#[non_exhaustive]`), so a new regex kind must be added here too.
    fn from(kind: RegexErrorKind) -> ErrorKind {
        match kind {
            RegexErrorKind::PatternInvalid => ErrorKind::PatternInvalid,
            RegexErrorKind::ConstructUnsupported => ErrorKind::ConstructUnsupported,
            RegexErrorKind::FlagInvalid => ErrorKind::FlagInvalid,
            RegexErrorKind::FlagDuplicate => ErrorKind::FlagDuplicate,
            RegexErrorKind::LimitExceeded => ErrorKind::LimitExceeded,
            RegexErrorKind::BacktrackLimit => ErrorKind::BacktrackLimit,
            RegexErrorKind::TimedOut => ErrorKind::TimedOut,
            RegexErrorKind::ReplacementInvalid => ErrorKind::ReplacementInvalid,
            RegexErrorKind::InputUnsupported => ErrorKind::InputUnsupported,
            RegexErrorKind::ExplainTooComplex => ErrorKind::ExplainTooComplex,
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

    /// Draws the source line with carets under the span, as a regex error does
    /// ([`RegexError::caret`]), e.g.
    /// ```text
    /// (a|b
    /// ^^^^
    /// ```
    /// Returns `None` when there is no span or source.
    pub fn caret(&self) -> Option<String> {
        Some(rxw_syntax::error::caret(
            self.source.as_deref()?,
            self.span?,
        ))
    }
}

impl From<RegexError> for Error {
    /// The regex error as the product's: its kind under the same name, its message, span and
    /// source unchanged.
    fn from(e: RegexError) -> Error {
        Error {
            kind: e.kind.into(),
            message: e.message,
            span: e.span,
            source: e.source,
        }
    }
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

    /// Every regex kind, spelled by hand: `From` is exhaustive, this list is what the test
    /// walks.
    const REGEX_KINDS: [RegexErrorKind; 10] = [
        RegexErrorKind::PatternInvalid,
        RegexErrorKind::ConstructUnsupported,
        RegexErrorKind::FlagInvalid,
        RegexErrorKind::FlagDuplicate,
        RegexErrorKind::LimitExceeded,
        RegexErrorKind::BacktrackLimit,
        RegexErrorKind::TimedOut,
        RegexErrorKind::ReplacementInvalid,
        RegexErrorKind::InputUnsupported,
        RegexErrorKind::ExplainTooComplex,
    ];

    #[test]
    fn a_regex_kind_keeps_its_name_in_json() {
        for k in REGEX_KINDS {
            let ours = ErrorKind::from(k);
            assert_eq!(ours.name(), k.name());
            assert_eq!(
                serde_json::to_string(&ours).unwrap(),
                serde_json::to_string(&k).unwrap()
            );
        }
    }

    #[test]
    fn a_regex_error_converts_with_its_span_and_caret() {
        let e = rxw_syntax::parse::parse(
            "ab(cd",
            rxw_syntax::Flavor::PYTHON,
            rxw_syntax::Flags::default(),
        )
        .unwrap_err();
        let caret = e.caret();
        let shown = e.to_string();
        let ours = Error::from(e);
        assert_eq!(ours.kind, ErrorKind::PatternInvalid);
        assert_eq!(ours.message, "missing ), unterminated subpattern");
        assert_eq!(ours.caret(), caret);
        assert!(ours.caret().is_some());
        assert_eq!(ours.to_string(), shown);
    }

    #[test]
    fn the_product_kinds_are_named_as_before() {
        let names = [
            ErrorKind::RegistryInvalid,
            ErrorKind::PresetUnknown,
            ErrorKind::Io,
            ErrorKind::ArgumentsInvalid,
        ]
        .map(ErrorKind::name);
        assert_eq!(
            names,
            [
                "registry_invalid",
                "preset_unknown",
                "io",
                "arguments_invalid"
            ]
        );
    }

    #[test]
    fn caret_counts_display_columns_of_wide_characters() {
        let e =
            Error::new(ErrorKind::PatternInvalid, "x").with_span_in("日本(", Some(Span::new(6, 7)));
        assert_eq!(e.caret().unwrap(), "日本(\n    ^");
    }
}
