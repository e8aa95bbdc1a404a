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

/// How [`inert`] treats line breaks and tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The text stands on one line of output (a match, a cell): newlines, carriage returns
    /// and tabs are shown as `\n`, `\r`, `\t`.
    OneLine,
    /// The text is printed as lines (a message, a description): newlines and tabs stay.
    Lines,
}

/// Text from outside rxw (a log, a registry, a tests file, a path) made safe to print on a
/// terminal: the controls a terminal acts on are written as escapes, so a log line cannot
/// set the clipboard (OSC 52), retitle the window, clear the screen, ask the terminal for a
/// reply, or reorder what is shown with bidirectional overrides.
///
/// Escaped: C0 controls (`\x1b`; newline and tab as [`Layout`] says, `\r` as `\r`), DEL
/// (`\x7f`), C1 controls (`\u{9b}`), and the bidirectional controls U+061C, U+200E, U+200F,
/// U+202A–U+202E and U+2066–U+2069 (`\u{202e}`). Everything else, including other
/// non-ASCII text, is kept. Every human-readable CLI output that holds such text goes
/// through here; JSON keeps the exact text (its own escapes are enough).
pub fn inert(s: &str, layout: Layout) -> std::borrow::Cow<'_, str> {
    use std::fmt::Write as _;
    let needs = |c: char| match c {
        '\n' | '\t' => layout == Layout::OneLine,
        c => is_terminal_control(c),
    };
    if !s.chars().any(needs) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            c if !needs(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A quoted, escaped string for a group value or a match shown in quotes: Rust's `{:?}`
/// escapes (`"a\"b"`, `"\u{1b}"`), made [`inert`] for whatever `{:?}` keeps.
pub fn quoted(s: &str) -> String {
    inert(&format!("{s:?}"), Layout::OneLine).into_owned()
}

/// Whether a terminal would act on `c` rather than show it (tab and newline included; the
/// caller decides about those).
fn is_terminal_control(c: char) -> bool {
    c.is_control() || crate::error::is_bidi_control(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inert_escapes_what_a_terminal_acts_on() {
        let hostile =
            "a\x1b]52;c;aGk=\x07b\x1b[2Jc\u{9b}31md\u{202e}e\u{2066}\u{7f}f\u{200f}g\u{61c}";
        let shown = inert(hostile, Layout::Lines);
        assert_eq!(
            shown,
            "a\\x1b]52;c;aGk=\\x07b\\x1b[2Jc\\u{9b}31md\\u{202e}e\\u{2066}\\x7ff\\u{200f}g\\u{61c}"
        );
        assert!(!shown.chars().any(is_terminal_control));
    }

    #[test]
    fn inert_keeps_lines_and_tabs_unless_one_line() {
        assert_eq!(inert("a\tb\nc\rd", Layout::Lines), "a\tb\nc\\rd");
        assert_eq!(inert("a\tb\nc\rd", Layout::OneLine), "a\\tb\\nc\\rd");
        assert!(matches!(
            inert("plain é ✅", Layout::OneLine),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn quoted_escapes_bidi_and_controls() {
        assert_eq!(quoted("x\u{202e}\x1b\""), "\"x\\u{202e}\\u{1b}\\\"\"");
    }
}
