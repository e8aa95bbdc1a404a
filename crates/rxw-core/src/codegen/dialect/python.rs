//! Python 3 with `re`.

use super::OUTPUT_DOC;
use crate::codegen::Translation;

pub(super) fn code_escape(v: u32) -> String {
    if v < 0x100 {
        format!("\\x{v:02X}")
    } else if v < 0x10000 {
        format!("\\u{v:04X}")
    } else {
        format!("\\U{v:08X}")
    }
}

pub(super) fn property(name: &str, negated: bool, _oniguruma: bool) -> Result<String, String> {
    match name {
        "Nd" => Ok(if negated { "\\D" } else { "\\d" }.to_string()),
        _ => Err(format!(
            "Python's re has no Unicode properties, and this means \\{}{{{name}}} here",
            if negated { 'P' } else { 'p' }
        )),
    }
}

/// The `re` flag names for the translation's flag letters, as the arguments after the pattern.
pub(crate) fn python_flags(t: &Translation) -> String {
    super::flag_argument(t, |c| match c {
        'a' => Some("re.ASCII"),
        'i' => Some("re.IGNORECASE"),
        'm' => Some("re.MULTILINE"),
        's' => Some("re.DOTALL"),
        'x' => Some("re.VERBOSE"),
        _ => None,
    })
}

pub(super) fn program(t: &Translation, origin: &str) -> String {
    format!(
        r#"#!/usr/bin/env python3
# {origin}
#
# It {OUTPUT_DOC}.
import re
import sys

PATTERN = re.compile({lit}{flags})


def field(group):
    if group is None:
        return "\\N"
    return (
        group.replace("\\", "\\\\")
        .replace("\t", "\\t")
        .replace("\n", "\\n")
        .replace("\r", "\\r")
    )


def main():
    text = sys.stdin.buffer.read().decode("utf-8")
    lines = []
    for m in PATTERN.finditer(text):
        lines.append("\t".join(field(g) for g in (m.group(0),) + m.groups()) + "\n")
    sys.stdout.buffer.write("".join(lines).encode("utf-8"))


if __name__ == "__main__":
    main()
"#,
        lit = python_str(&t.pattern),
        flags = python_flags(t),
    )
}

/// A Python string literal: raw when it can be, else escaped.
pub(crate) fn python_str(s: &str) -> String {
    let trailing = s.len() - s.trim_end_matches('\\').len();
    if !s.contains('"') && !s.chars().any(char::is_control) && trailing.is_multiple_of(2) {
        return format!("r\"{s}\"");
    }
    super::quoted_controls(s, |c| format!("\\x{:02x}", c as u32))
}
