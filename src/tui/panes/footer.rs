//! Key hints for the focused pane, generated from the keymap.

use super::super::app::App;
use super::super::keymap::footer_hints;
use super::super::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the footer: the focused pane's hints in the keymap's order (its priority), as many
/// whole hints as fit; the first that does not fit and those after it are left out, never cut.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let mut spans = Vec::new();
    let mut used = 0usize;
    for (key, help) in footer_hints(app.context(), app.active_tab()) {
        let key = format!(" {key}");
        let help = format!(" {help} ");
        let w = key.chars().count() + help.chars().count();
        if used + w > area.width as usize + 1 {
            // The last hint may lose its trailing space only; the ones after it give way.
            break;
        }
        used += w;
        spans.push(Span::styled(key, chrome(Chrome::Focused, p)));
        spans.push(Span::styled(help, chrome(Chrome::Dim, p)));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}
