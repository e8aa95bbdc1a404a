//! The help overlay, generated from the keymap.

use super::super::action::{Context, help_rows};
use super::super::app::App;
use super::super::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// The lines of the help text.
pub fn lines(app: &App) -> Vec<Line<'static>> {
    let p = app.palette;
    let rows = help_rows();
    let key_w = rows
        .iter()
        .map(|(_, k, _)| k.chars().count())
        .max()
        .unwrap_or(10)
        .min(26);
    let mut out = Vec::new();
    for ctx in [Context::Global, Context::Editor, Context::List] {
        out.push(Line::from(Span::styled(
            ctx.title(),
            chrome(Chrome::Focused, p),
        )));
        for (c, keys, help) in &rows {
            if *c == ctx {
                out.push(Line::from(vec![
                    Span::raw(format!("  {keys:<key_w$}  ")),
                    Span::styled(*help, chrome(Chrome::Dim, p)),
                ]));
            }
        }
    }
    out
}

/// Draws the overlay centred in `area`.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let text = lines(app);
    let w = (area.width.saturating_sub(4)).min(84);
    let h = (text.len() as u16 + 2).min(area.height.saturating_sub(2));
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let max_scroll = (text.len() as u16).saturating_sub(h.saturating_sub(2));
    let scroll = (app.help_scroll as u16).min(max_scroll);
    let block = Block::bordered()
        .title(" Help · ↑↓ PgUp PgDn scroll · F1, ? or Esc closes ")
        .border_style(chrome(Chrome::Focused, app.palette));
    f.render_widget(Clear, r);
    f.render_widget(Paragraph::new(text).block(block).scroll((scroll, 0)), r);
}
