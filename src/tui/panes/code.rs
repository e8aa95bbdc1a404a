//! The Code tab: the current pattern as a program (or the tests as a test file) in a chosen
//! language, highlighted, or the reason it cannot be written there.

use super::super::app::App;
use super::super::code::rendered;
use super::super::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Lines of the tab's body below its header.
pub fn body_rows(area: Rect) -> usize {
    (area.height as usize).saturating_sub(1)
}

/// Draws the code tab.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let r = rendered(app);
    let mut lines = vec![Line::from(vec![
        Span::styled(app.code.title(), chrome(Chrome::Selected, p)),
        Span::styled(
            "   F4 language · Alt-t program/tests · Alt-c copy · ↑↓ scroll",
            chrome(Chrome::Dim, p),
        ),
    ])];
    match &r.result {
        Ok(_) => {
            let top = app.code.top.min(r.lines.len().saturating_sub(1));
            lines.extend(r.lines.iter().skip(top).take(body_rows(area)).cloned());
        }
        Err(e) => {
            lines.push(Line::from(Span::styled(
                format!("✗ {}", e.message),
                chrome(Chrome::Error, p),
            )));
            if let Some(caret) = e.caret() {
                for l in caret.lines() {
                    lines.push(Line::from(format!("  {l}")));
                }
            }
        }
    }
    f.render_widget(Paragraph::new(lines), area);
}
