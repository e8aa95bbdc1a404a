//! Syntax highlighting of generated code, as data: (colour, emphasis, text) runs per line.
//!
//! syntect's grammars and themes are decoded on first use (a `OnceLock`), so a front end that
//! never shows code (the TUI's first frame, `rxw find`) never pays for them. The CLI turns the
//! runs into ANSI escapes, the TUI into ratatui spans.

use super::Lang;
use std::sync::OnceLock;
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, Theme, ThemeSet};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

/// The theme: a dark one whose foregrounds read well on a dark terminal background (the
/// background itself is never painted).
pub const THEME: &str = "base16-eighties.dark";

/// A run of text in one style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Foreground colour (red, green, blue).
    pub rgb: (u8, u8, u8),
    /// Bold.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// The text (no line break).
    pub text: String,
}

fn assets() -> &'static (SyntaxSet, Theme) {
    static ASSETS: OnceLock<(SyntaxSet, Theme)> = OnceLock::new();
    ASSETS.get_or_init(|| {
        let syntaxes = SyntaxSet::load_defaults_newlines();
        let mut themes = ThemeSet::load_defaults();
        let theme = themes
            .themes
            .remove(THEME)
            .or_else(|| themes.themes.into_values().next())
            .unwrap_or_default();
        (syntaxes, theme)
    })
}

/// Whether the grammars are loaded already (they are loaded by the first [`highlight`]).
pub fn is_loaded() -> bool {
    LOADED.get().is_some()
}

static LOADED: OnceLock<()> = OnceLock::new();

/// Highlights `code` as `lang`: one vector of runs per line. Lines the grammar cannot parse
/// come back as plain runs in the theme's foreground colour.
pub fn highlight(code: &str, lang: Lang) -> Vec<Vec<Run>> {
    highlight_as(code, &[lang.extension()]).1
}

/// Highlights `code` with the first grammar found for one of `extensions` (the closest
/// grammar after the exact one: syntect's defaults have SQL, JSON and YAML but no TOML or
/// LogQL); the grammar's name, and one vector of runs per line.
pub fn highlight_as(code: &str, extensions: &[&str]) -> (&'static str, Vec<Vec<Run>>) {
    let (syntaxes, theme) = assets();
    let _ = LOADED.set(());
    let syntax = extensions
        .iter()
        .find_map(|e| syntaxes.find_syntax_by_extension(e))
        .unwrap_or_else(|| syntaxes.find_syntax_plain_text());
    let plain = theme
        .settings
        .foreground
        .map_or((0xd3, 0xd0, 0xc8), |c| (c.r, c.g, c.b));
    let mut h = HighlightLines::new(syntax, theme);
    let lines = LinesWithEndings::from(code)
        .map(|line| {
            let bare = line.trim_end_matches(['\n', '\r']);
            match h.highlight_line(line, syntaxes) {
                Ok(ranges) => ranges
                    .into_iter()
                    .map(|(style, text)| Run {
                        rgb: (style.foreground.r, style.foreground.g, style.foreground.b),
                        bold: style.font_style.contains(FontStyle::BOLD),
                        italic: style.font_style.contains(FontStyle::ITALIC),
                        text: text.trim_end_matches(['\n', '\r']).to_string(),
                    })
                    .filter(|r| !r.text.is_empty())
                    .collect(),
                Err(_) => vec![Run {
                    rgb: plain,
                    bold: false,
                    italic: false,
                    text: bare.to_string(),
                }],
            }
        })
        .collect();
    (syntax.name.as_str(), lines)
}

/// The runs as text with 24-bit ANSI colours, one line each.
pub fn to_ansi(lines: &[Vec<Run>]) -> String {
    let mut out = String::new();
    for line in lines {
        for r in line {
            let (red, green, blue) = r.rgb;
            out.push_str(&format!("\x1b[38;2;{red};{green};{blue}m"));
            if r.bold {
                out.push_str("\x1b[1m");
            }
            if r.italic {
                out.push_str("\x1b[3m");
            }
            out.push_str(&r.text);
            out.push_str("\x1b[0m");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_export_format_has_a_grammar_or_its_named_closest() {
        // SQL and JSON ship with syntect's defaults; TOML does not (YAML is the closest);
        // LogQL has none (the shell's: `#` comments, `|` stages, quoted strings).
        assert_eq!(highlight_as("SELECT 1", &["sql"]).0, "SQL");
        assert_eq!(highlight_as("{}", &["json"]).0, "JSON");
        assert_eq!(highlight_as("a = 1", &["toml", "yaml"]).0, "YAML");
        assert_eq!(
            highlight_as("a | b", &["logql", "sh"]).0,
            "Bourne Again Shell (bash)"
        );
    }

    #[test]
    fn every_language_is_highlighted_in_colours() {
        for lang in Lang::ALL {
            let p = super::super::generate("a", crate::Flavor::Rust, crate::Flags::default(), lang)
                .unwrap();
            let lines = highlight(&p.code, lang);
            assert_eq!(lines.len(), p.code.lines().count(), "{lang}");
            let colours: std::collections::HashSet<_> =
                lines.iter().flatten().map(|r| r.rgb).collect();
            assert!(colours.len() >= 3, "{lang}: {colours:?}");
            let text: String = lines
                .iter()
                .map(|l| l.iter().map(|r| r.text.as_str()).collect::<String>() + "\n")
                .collect();
            assert_eq!(text, p.code, "{lang}");
        }
        assert!(is_loaded());
    }
}
