//! The tab bar of the results pane: the registered tabs' titles, numbered.

use super::super::action::tab_digit;
use super::super::app::{App, Focus};
use super::super::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The tab labels for a bar `width` columns wide: full titles when they fit, else short ones.
fn labels(width: u16, titles: &[&str]) -> Vec<String> {
    let key = |i: usize| tab_digit(i).map_or(String::new(), |d| d.to_string());
    let full: Vec<String> = titles
        .iter()
        .enumerate()
        .map(|(i, t)| match tab_digit(i) {
            Some(d) => format!(" {d} {t} "),
            None => format!(" {t} "),
        })
        .collect();
    let need: usize = full.iter().map(|l| l.chars().count() + 1).sum();
    if need <= width as usize + 1 {
        return full;
    }
    titles
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{}{}", key(i), t.chars().take(3).collect::<String>()))
        .collect()
}

/// The index of the tab under column `col` of the bar at `area`, for tabs titled `titles`.
pub fn tab_at(area: Rect, col: u16, titles: &[&str]) -> Option<usize> {
    let mut x = area.x as usize;
    for (i, l) in labels(area.width, titles).into_iter().enumerate() {
        let w = l.chars().count();
        if (col as usize) >= x && (col as usize) < x + w {
            return Some(i);
        }
        x += w + 1;
    }
    None
}

/// Draws the tab bar.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let titles: Vec<&str> = app.tabs().map(|t| t.title()).collect();
    let shown = app.active_tab();
    let mut spans = Vec::new();
    for ((i, t), label) in app.tabs().enumerate().zip(labels(area.width, &titles)) {
        if i > 0 {
            spans.push(Span::styled("│", chrome(Chrome::Dim, p)));
        }
        let current = t.id() == shown;
        let mut st = if current {
            chrome(Chrome::Selected, p)
        } else {
            chrome(Chrome::Dim, p)
        };
        if current && app.focus == Focus::Results {
            st = st.add_modifier(Modifier::BOLD);
        }
        spans.push(Span::styled(label, st));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

#[cfg(test)]
mod unit {
    use super::*;

    const TITLES: [&str; 8] = [
        "Matches", "Groups", "Explain", "Replace", "Presets", "Tests", "Code", "Debug",
    ];

    #[test]
    fn clicks_land_on_the_tab_drawn_there() {
        // Full titles (" 1 Matches " and a separator before " 2 Groups ").
        let area = Rect::new(10, 0, 120, 1);
        assert_eq!(tab_at(area, 10, &TITLES), Some(0));
        assert_eq!(tab_at(area, 10 + 12, &TITLES), Some(1));
        assert_eq!(tab_at(area, 9, &TITLES), None);
        // Too narrow for the eight full titles: short ones ("1Mat", "2Gro", …).
        let narrow = Rect::new(10, 0, 60, 1);
        assert_eq!(tab_at(narrow, 10 + 5, &TITLES), Some(1));
        assert_eq!(tab_at(narrow, 10 + 10, &TITLES), Some(2));
    }
}
