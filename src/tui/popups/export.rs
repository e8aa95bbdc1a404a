//! The export prompt: what to write (Tab cycles) and the file (JSON Lines, or CSV for a
//! `.csv` name), written atomically on a worker.

use super::super::app::App;
use super::super::theme::{Chrome, chrome};
use crate::export::Format;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use std::path::Path;

/// Draws the prompt when it is open.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let Some(prompt) = &app.export_prompt else {
        return;
    };
    let p = app.palette;
    let w = area.width.saturating_sub(4).min(72);
    let h = 5.min(area.height);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let format = match Format::from_path(Path::new(prompt.path.text())) {
        Format::Csv => "CSV",
        Format::JsonLines => "JSON Lines",
    };
    let block = Block::bordered()
        .title(" Export to a file ")
        .border_style(chrome(Chrome::Focused, p));
    let lines = vec![
        Line::from(vec![
            Span::styled("what: ", chrome(Chrome::Dim, p)),
            Span::styled(prompt.what.noun(), chrome(Chrome::Selected, p)),
            Span::styled(format!("  ({format})"), chrome(Chrome::Dim, p)),
        ]),
        Line::from(vec![
            Span::styled("file: ", chrome(Chrome::Dim, p)),
            Span::raw(prompt.path.text().to_string()),
        ]),
        Line::from(Span::styled(
            "Tab: lines / matches / lens hits · .csv for CSV · Enter writes · Esc cancels",
            chrome(Chrome::Dim, p),
        )),
    ];
    f.render_widget(Clear, r);
    f.render_widget(Paragraph::new(lines).block(block), r);
    let x = r.x + 1 + 6 + prompt.path.cursor_chars() as u16;
    if x + 1 < r.x + r.width && r.height > 3 {
        f.set_cursor_position((x, r.y + 2));
    }
}
