//! Syntax highlighting of generated code, as data: (colour, emphasis, text) runs per line.
//!
//! syntect's grammars and themes are decoded on first use (a `OnceLock`), so a front end that
//! never shows code (the TUI's first frame, `rxw find`) never pays for them. The CLI turns the
//! runs into ANSI escapes, the TUI into ratatui spans.

use super::Lang;
use super::xterm::{self, Depth};
use std::sync::OnceLock;
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, Theme, ThemeSet};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

/// The theme: a dark one whose foregrounds read well on a dark terminal background (the
/// background itself is never painted).
pub const THEME: &str = "base16-eighties.dark";

/// The theme for a light terminal background: its foregrounds are dark enough to read on
/// white.
pub const THEME_LIGHT: &str = "InspiredGitHub";

/// The terminal background the colours are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Background {
    /// A dark background ([`THEME`]).
    #[default]
    Dark,
    /// A light background ([`THEME_LIGHT`]).
    Light,
}

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

/// The grammars and the two themes (dark, light).
fn assets() -> &'static (SyntaxSet, [Theme; 2]) {
    static ASSETS: OnceLock<(SyntaxSet, [Theme; 2])> = OnceLock::new();
    ASSETS.get_or_init(|| {
        let syntaxes = SyntaxSet::load_defaults_newlines();
        let mut themes = ThemeSet::load_defaults();
        let mut take = |name: &str| {
            themes
                .themes
                .remove(name)
                .or_else(|| themes.themes.values().next().cloned())
                .unwrap_or_default()
        };
        let dark = take(THEME);
        let light = take(THEME_LIGHT);
        (syntaxes, [dark, light])
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
    highlight_on(code, lang, Background::Dark)
}

/// As [`highlight`], in the colours for `background`.
pub fn highlight_on(code: &str, lang: Lang, background: Background) -> Vec<Vec<Run>> {
    highlight_as_on(code, &[lang.extension()], background).1
}

/// Highlights `code` with the first grammar found for one of `extensions` (the closest
/// grammar after the exact one: syntect's defaults have SQL, JSON and YAML but no TOML or
/// LogQL); the grammar's name, and one vector of runs per line.
pub fn highlight_as(code: &str, extensions: &[&str]) -> (&'static str, Vec<Vec<Run>>) {
    highlight_as_on(code, extensions, Background::Dark)
}

/// As [`highlight_as`], in the colours for `background`.
pub fn highlight_as_on(
    code: &str,
    extensions: &[&str],
    background: Background,
) -> (&'static str, Vec<Vec<Run>>) {
    let (syntaxes, themes) = assets();
    let theme = &themes[match background {
        Background::Dark => 0,
        Background::Light => 1,
    }];
    let _ = LOADED.set(());
    let syntax = extensions
        .iter()
        .find_map(|e| syntaxes.find_syntax_by_extension(e))
        .unwrap_or_else(|| syntaxes.find_syntax_plain_text());
    let plain = theme.settings.foreground.map_or(
        match background {
            Background::Dark => (0xd3, 0xd0, 0xc8),
            Background::Light => (0x32, 0x32, 0x32),
        },
        |c| (c.r, c.g, c.b),
    );
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
    to_ansi_at(lines, Depth::TrueColor)
}

/// The runs as text with ANSI colours a terminal of `depth` draws: 24-bit, the nearest of
/// xterm's 256, or the nearest of the 16 in hue.
pub fn to_ansi_at(lines: &[Vec<Run>], depth: Depth) -> String {
    let mut out = String::new();
    for line in lines {
        for r in line {
            let (red, green, blue) = r.rgb;
            out.push_str(&match depth {
                Depth::TrueColor => format!("\x1b[38;2;{red};{green};{blue}m"),
                Depth::Ansi256 => format!("\x1b[38;5;{}m", xterm::nearest_256(r.rgb)),
                Depth::Ansi16 => match xterm::nearest_16(r.rgb) {
                    i @ 0..8 => format!("\x1b[{}m", 30 + i),
                    i => format!("\x1b[{}m", 90 + i - 8),
                },
            });
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

    #[test]
    fn escapes_are_24_bit_only_at_that_depth() {
        let lines = vec![vec![Run {
            rgb: (0xf2, 0x77, 0x7a),
            bold: true,
            italic: false,
            text: "x".into(),
        }]];
        assert_eq!(to_ansi(&lines), "\x1b[38;2;242;119;122m\x1b[1mx\x1b[0m\n");
        assert_eq!(
            to_ansi_at(&lines, Depth::Ansi256),
            "\x1b[38;5;210m\x1b[1mx\x1b[0m\n"
        );
        assert_eq!(
            to_ansi_at(&lines, Depth::Ansi16),
            "\x1b[91m\x1b[1mx\x1b[0m\n"
        );
    }

    /// The light theme's colours read on white: every run's colour has a contrast of at
    /// least 2.5:1 with a white background (its comments' grey is the palest, 2.9:1); the
    /// dark theme's do not, which is why the light one exists.
    #[test]
    fn the_light_theme_is_dark_on_white() {
        let luminance = crate::codegen::xterm::luminance;
        let on_white = |rgb| 1.05 / (luminance(rgb) + 0.05);
        let p = super::super::generate(
            r"(?P<id>\d+)-\w",
            crate::Flavor::PYTHON,
            crate::Flags::default(),
            Lang::Python,
        )
        .unwrap();
        let light = highlight_on(&p.code, Lang::Python, Background::Light);
        let colours: std::collections::HashSet<_> = light.iter().flatten().map(|r| r.rgb).collect();
        assert!(colours.len() >= 3, "{colours:?}");
        for c in &colours {
            assert!(on_white(*c) >= 2.5, "{c:?}: {:.2}", on_white(*c));
        }
        let dark = highlight_on(&p.code, Lang::Python, Background::Dark);
        assert!(
            dark.iter().flatten().any(|r| on_white(r.rgb) < 2.5),
            "the dark theme has light colours"
        );
    }
}
