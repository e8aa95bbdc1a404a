//! Drawing helpers shared by the panes and the tabs: a pane's block, a line of text as cells
//! (tabs expanded, controls shown inert, wide characters kept whole), clipping, and numbers
//! with thousands separators.

use super::theme::{Chrome, Palette, chrome};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;
use unicode_width::UnicodeWidthChar;

/// A bordered pane block, its border bright when focused.
pub fn pane_block(title: &str, focused: bool, palette: Palette) -> Block<'static> {
    let style = chrome(
        if focused {
            Chrome::Focused
        } else {
            Chrome::Unfocused
        },
        palette,
    );
    Block::bordered()
        .border_style(style)
        .title(Span::styled(format!(" {title} "), style))
}

/// One screen cell's worth of text: the byte offset it came from and what to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// Byte offset in the source string.
    pub at: usize,
    /// What to draw.
    pub glyph: String,
    /// Columns it takes (1 or 2).
    pub width: usize,
}

/// The cells of `s` on screen: skipping `left` chars, at most `width` columns. Control
/// characters are drawn as their control pictures (C1 controls as `␦`), so they are visible
/// and take one column;
/// with `show_ws`, spaces and tabs are drawn as `·` and `→`.
pub fn cells(s: &str, left: usize, width: usize, show_ws: bool) -> Vec<Cell> {
    let mut out = Vec::new();
    let mut used = 0;
    for (at, c) in s.char_indices().skip(left) {
        let glyph: String = match c {
            ' ' if show_ws => "·".into(),
            '\t' => {
                if show_ws {
                    "→".into()
                } else {
                    " ".into()
                }
            }
            c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or('?').to_string(),
            '\u{7f}' => "␡".into(),
            // C1 controls (U+0080-U+009F, such as the 8-bit CSI U+009B) have no picture of
            // their own: one mark for all, so they are seen (a terminal draws them as nothing).
            '\u{80}'..='\u{9f}' => "␦".into(),
            c => c.to_string(),
        };
        let w = glyph
            .chars()
            .next()
            .and_then(UnicodeWidthChar::width)
            .unwrap_or(1);
        if w == 0 {
            // A combining mark or other zero-width char: show a placeholder so columns stay true.
            if used + 1 > width {
                break;
            }
            out.push(Cell {
                at,
                glyph: "◌".into(),
                width: 1,
            });
            used += 1;
            continue;
        }
        if used + w > width {
            break;
        }
        out.push(Cell {
            at,
            glyph,
            width: w,
        });
        used += w;
    }
    out
}

/// Joins cells into a line, merging neighbours of the same style.
pub fn styled_line(cells: &[Cell], style_of: impl Fn(usize) -> Style) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut cur = String::new();
    let mut cur_style = None;
    for c in cells {
        let st = style_of(c.at);
        if cur_style != Some(st) && !cur.is_empty() {
            spans.push(Span::styled(
                std::mem::take(&mut cur),
                cur_style.unwrap_or_default(),
            ));
        }
        cur_style = Some(st);
        cur.push_str(&c.glyph);
    }
    if !cur.is_empty() {
        spans.push(Span::styled(cur, cur_style.unwrap_or_default()));
    }
    Line::from(spans)
}

/// Text shortened to `width` columns with `…` when cut, control characters made visible.
pub fn clip(s: &str, width: usize) -> String {
    let cs = cells(s, 0, width, false);
    let shown: usize = cs.last().map_or(0, |c| {
        c.at + s[c.at..].chars().next().map_or(0, char::len_utf8)
    });
    let mut out: String = cs.iter().map(|c| c.glyph.as_str()).collect();
    if shown < s.len() && width > 0 {
        let mut w: usize = cs.iter().map(|c| c.width).sum();
        while w + 1 > width {
            match out.pop() {
                Some(ch) => w -= UnicodeWidthChar::width(ch).unwrap_or(1),
                None => break,
            }
        }
        out.push('…');
    }
    out
}

/// `1302` as `1,302`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Highlighted runs as terminal lines (the Code tab's program, the Presets tab's export).
pub fn styled_lines(runs: Vec<Vec<crate::codegen::highlight::Run>>) -> Vec<Line<'static>> {
    runs.into_iter()
        .map(|runs| {
            Line::from(
                runs.into_iter()
                    .map(|r| Span::styled(r.text, super::theme::syntax(r.rgb, r.bold, r.italic)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn cells_respect_width_and_show_controls() {
        let cs = cells("a\tb東c", 0, 4, false);
        let glyphs: Vec<&str> = cs.iter().map(|c| c.glyph.as_str()).collect();
        assert_eq!(
            glyphs,
            vec!["a", " ", "b"],
            "the wide char does not fit in the last column"
        );
        let cs = cells("a b\u{1}", 1, 10, true);
        let glyphs: Vec<&str> = cs.iter().map(|c| c.glyph.as_str()).collect();
        assert_eq!(glyphs, vec!["·", "b", "␁"]);
        assert_eq!(cs[1].at, 2);
    }

    /// Regression: C1 controls (an 8-bit CSI from a log) took a column and drew nothing.
    #[test]
    fn c1_controls_are_drawn_as_a_mark_in_one_column() {
        let cs = cells("a\u{9b}2J\u{85}b\u{a0}", 0, 10, false);
        let glyphs: Vec<&str> = cs.iter().map(|c| c.glyph.as_str()).collect();
        assert_eq!(glyphs, vec!["a", "␦", "2", "J", "␦", "b", "\u{a0}"]);
        assert!(cs.iter().all(|c| c.width == 1));
        assert_eq!(cs[4].at, 5);
    }

    #[test]
    fn clip_marks_cuts() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
        assert_eq!(clip("a\nb", 5), "a␊b");
    }
}

/// `text` cut into lines of at most `width` characters at spaces (a word longer than a line
/// is cut where the line ends), so that a sentence is shown whole instead of clipped.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split(' ') {
        let n = word.chars().count();
        if len > 0 && len + 1 + n > width {
            lines.push(std::mem::take(&mut line));
            len = 0;
        }
        if len > 0 {
            line.push(' ');
            len += 1;
        }
        let mut chars = word.chars();
        let mut rest = n;
        while len + rest > width {
            let take = width - len;
            line.extend(chars.by_ref().take(take));
            lines.push(std::mem::take(&mut line));
            len = 0;
            rest -= take;
        }
        line.extend(chars);
        len += rest;
    }
    if len > 0 || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod wrap_tests {
    use super::wrap;

    #[test]
    fn wrap_breaks_at_spaces_and_cuts_only_words_longer_than_a_line() {
        assert_eq!(
            wrap("verdict: no match after 4 steps", 12),
            ["verdict: no", "match after", "4 steps"]
        );
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 5), [""]);
        for w in 1..30 {
            for l in wrap("the last attempt's last step was `b` at 2", w) {
                assert!(l.chars().count() <= w, "{l:?} at {w}");
            }
        }
    }
}
