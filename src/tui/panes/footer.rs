//! Key hints for the focused pane, generated from the keymap.

use super::super::app::App;
use super::super::keymap::footer_hints;
use super::super::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the footer.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let mut spans = Vec::new();
    for (key, help) in footer_hints(app.context(), app.active_tab()) {
        spans.push(Span::styled(format!(" {key}"), chrome(Chrome::Focused, p)));
        spans.push(Span::styled(format!(" {help} "), chrome(Chrome::Dim, p)));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}
