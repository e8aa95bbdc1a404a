//! The tab bar of the results pane.

use super::super::action::ResultTab;
use super::super::app::{App, Focus};
use super::super::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

fn full(t: ResultTab) -> String {
    format!(" {} {} ", t.index() + 1, t.title())
}

/// The tab labels for a bar `width` columns wide: full titles when they fit, else short ones.
fn labels(width: u16) -> Vec<String> {
    let full: Vec<String> = ResultTab::ALL.into_iter().map(full).collect();
    let need: usize = full.iter().map(|l| l.chars().count() + 1).sum();
    if need <= width as usize + 1 {
        return full;
    }
    ResultTab::ALL
        .into_iter()
        .map(|t| format!("{}{}", t.index() + 1, &t.title()[..3]))
        .collect()
}

/// The tab under column `col` of the bar at `area`.
pub fn tab_at(area: Rect, col: u16) -> Option<ResultTab> {
    let mut x = area.x as usize;
    for (t, l) in ResultTab::ALL.into_iter().zip(labels(area.width)) {
        let w = l.chars().count();
        if (col as usize) >= x && (col as usize) < x + w {
            return Some(t);
        }
        x += w + 1;
    }
    None
}

/// Draws the tab bar.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let mut spans = Vec::new();
    for ((i, t), label) in ResultTab::ALL
        .into_iter()
        .enumerate()
        .zip(labels(area.width))
    {
        if i > 0 {
            spans.push(Span::styled("│", chrome(Chrome::Dim, p)));
        }
        let mut st = if t == app.tab {
            chrome(Chrome::Selected, p)
        } else {
            chrome(Chrome::Dim, p)
        };
        if t == app.tab && app.focus == Focus::Results {
            st = st.add_modifier(Modifier::BOLD);
        }
        spans.push(Span::styled(label, st));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn clicks_land_on_the_tab_drawn_there() {
        // Full titles (" 1 Matches " and a separator before " 2 Groups ").
        let area = Rect::new(10, 0, 120, 1);
        assert_eq!(tab_at(area, 10), Some(ResultTab::Matches));
        assert_eq!(tab_at(area, 10 + 12), Some(ResultTab::Groups));
        assert_eq!(tab_at(area, 9), None);
        // Too narrow for the eight full titles: short ones ("1Mat", "2Gro", …).
        let narrow = Rect::new(10, 0, 60, 1);
        assert_eq!(tab_at(narrow, 10 + 5), Some(ResultTab::Groups));
        assert_eq!(tab_at(narrow, 10 + 10), Some(ResultTab::Explain));
    }
}
