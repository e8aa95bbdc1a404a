//! The one place that turns highlight kinds into ANSI escapes for the command line.

use crate::highlight::Kind;

/// Wraps `text` in the ANSI style for `kind` when `color` is on.
pub fn paint(text: &str, kind: Kind, color: bool) -> String {
    if !color {
        return text.to_string();
    }
    format!("\x1b[{}m{text}\x1b[0m", ansi_code(kind))
}

/// The SGR code for a highlight kind.
pub fn ansi_code(kind: Kind) -> &'static str {
    match kind {
        Kind::Match => "1;31",
        Kind::Group(i) => ["1;32", "1;33", "1;34", "1;35", "1;36", "1;92"][i % 6],
        Kind::Location => "2",
        Kind::Literal => "0",
        Kind::Escape => "33",
        Kind::Class => "36",
        Kind::Group0 => "35",
        Kind::Quantifier => "34",
        Kind::Anchor => "32",
        Kind::Alternation => "1;35",
        Kind::Backref => "1;33",
        Kind::Comment => "2",
        Kind::Error => "1;4;31",
        Kind::Warning => "33",
        Kind::Name => "1",
    }
}
