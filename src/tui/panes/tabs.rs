//! The tab bar of the results pane: the registered tabs' titles, numbered.

use super::super::app::{App, Focus};
use super::super::layout::labels;
use super::super::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

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
