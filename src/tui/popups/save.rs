//! The "save as preset" prompt: the key to save under.

use super::super::app::App;
use super::super::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// Draws the prompt when it is open.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let Some(prompt) = &app.save_prompt else {
        return;
    };
    let p = app.palette;
    let w = area.width.saturating_sub(4).min(64);
    let h = 4.min(area.height);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let block = Block::bordered()
        .title(" Save as preset in the user registry ")
        .border_style(chrome(Chrome::Focused, p));
    let lines = vec![
        Line::from(vec![
            Span::styled("key: ", chrome(Chrome::Dim, p)),
            Span::raw(prompt.text().to_string()),
        ]),
        Line::from(Span::styled(
            "Enter saves · Esc cancels",
            chrome(Chrome::Dim, p),
        )),
    ];
    f.render_widget(Clear, r);
    f.render_widget(Paragraph::new(lines).block(block), r);
    let x = r.x + 1 + 5 + prompt.cursor_chars() as u16;
    if x + 1 < r.x + r.width && r.height > 2 {
        f.set_cursor_position((x, r.y + 1));
    }
}
