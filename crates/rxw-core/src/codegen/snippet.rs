//! Exporting a pattern as code, and a match's groups as JSON.

use crate::flavor::{Flags, Flavor};

// One set of string-literal writers for the whole project: the code generator's.
use crate::codegen::dialect::{go::go_str, python::python_str, rust::rust_str};

/// The pattern as a code literal in `lang` (`rust`, `python`, `js`, `go`), flags included.
///
/// The pattern text is carried over as written; where the target engine's syntax differs from
/// the pattern's flavor the literal still compiles only if the syntax is shared.
pub fn code_literal(lang: &str, pattern: &str, flavor: Flavor, flags: Flags) -> String {
    let inline: String = flags
        .letters(flavor)
        .chars()
        .filter(|c| "imsx".contains(*c))
        .collect();
    match lang {
        "rust" => {
            let p = if inline.is_empty() {
                pattern.to_string()
            } else {
                format!("(?{inline}){pattern}")
            };
            format!("let re = regex::Regex::new({}).unwrap();", rust_str(&p))
        }
        "python" => {
            let names: Vec<&str> = flags
                .letters(Flavor::PYTHON)
                .chars()
                .filter_map(|c| match c {
                    'i' => Some("re.IGNORECASE"),
                    'm' => Some("re.MULTILINE"),
                    's' => Some("re.DOTALL"),
                    'x' => Some("re.VERBOSE"),
                    'a' => Some("re.ASCII"),
                    _ => None,
                })
                .collect();
            if names.is_empty() {
                format!("pattern = re.compile({})", python_str(pattern))
            } else {
                format!(
                    "pattern = re.compile({}, {})",
                    python_str(pattern),
                    names.join(" | ")
                )
            }
        }
        "js" => {
            let mut body = String::new();
            let mut in_class = false;
            let mut escaped = false;
            for c in pattern.chars() {
                match c {
                    '/' if !escaped && !in_class => body.push_str("\\/"),
                    '\n' => body.push_str("\\n"),
                    c => body.push(c),
                }
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '[' {
                    in_class = true;
                } else if c == ']' {
                    in_class = false;
                }
            }
            let js_flags: String = flags
                .letters(Flavor::JS)
                .chars()
                .filter(|c| *c != 'x')
                .collect();
            format!("const re = /{body}/{js_flags};")
        }
        _ => {
            let p = if inline.is_empty() {
                pattern.to_string()
            } else {
                format!("(?{inline}){pattern}")
            };
            format!("re := regexp.MustCompile({})", go_str(&p))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(s: &str, f: Flavor) -> Flags {
        Flags::parse(s, f).unwrap()
    }

    #[test]
    fn literals_for_each_language() {
        let p = r#"a"(\d+)/b"#;
        assert_eq!(
            code_literal("rust", p, Flavor::Rust, flags("i", Flavor::Rust)),
            r##"let re = regex::Regex::new(r#"(?i)a"(\d+)/b"#).unwrap();"##
        );
        assert_eq!(
            code_literal(
                "python",
                r"\d+",
                Flavor::PYTHON,
                flags("im", Flavor::PYTHON)
            ),
            r#"pattern = re.compile(r"\d+", re.IGNORECASE | re.MULTILINE)"#
        );
        assert_eq!(
            code_literal("python", p, Flavor::PYTHON, Flags::default()),
            r#"pattern = re.compile("a\"(\\d+)/b")"#
        );
        assert_eq!(
            code_literal("js", r"a/[/]b", Flavor::JS, flags("gi", Flavor::JS)),
            r"const re = /a\/[/]b/gi;"
        );
        assert_eq!(
            code_literal("go", r"\w+", Flavor::Rust, Flags::default()),
            r"re := regexp.MustCompile(`\w+`)"
        );
    }

    #[test]
    fn regression_python_literal_keeps_braces() {
        // The copied literal used to drop every `}` when the pattern needed escaping.
        assert_eq!(
            code_literal("python", r#"a"{2}"#, Flavor::PYTHON, Flags::default()),
            r#"pattern = re.compile("a\"{2}")"#
        );
    }
}
