//! The help overlay, generated from the keymap.

use super::super::action::Context;
use super::super::app::App;
use super::super::keymap::{help_rows, tab_help_rows};
use super::super::tabs::TabId;
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
    let row = |keys: &str, help: &'static str| {
        Line::from(vec![
            Span::raw(format!("  {keys:<key_w$}  ")),
            Span::styled(help, chrome(Chrome::Dim, p)),
        ])
    };
    for ctx in [Context::Global, Context::Editor, Context::List] {
        out.push(Line::from(Span::styled(
            ctx.title(),
            chrome(Chrome::Focused, p),
        )));
        for (c, keys, help) in &rows {
            if *c == ctx {
                out.push(row(keys, help));
            }
        }
    }
    // Each tab's own keys (those that work only while it is shown), the shown tab first.
    let shown = app.shown_tab().id();
    let mut tabs: Vec<(TabId, &'static str)> = app.tabs().map(|t| (t.id(), t.title())).collect();
    tabs.sort_by_key(|&(id, _)| id != shown);
    for (id, title) in tabs {
        let own: Vec<_> = tab_help_rows(id);
        if own.is_empty() {
            continue;
        }
        out.push(Line::from(Span::styled(
            format!("In the {title} tab"),
            chrome(Chrome::Focused, p),
        )));
        for (keys, help) in own {
            // "Lens: next hit" reads "next hit" under "In the Lens tab".
            let help = help
                .strip_prefix(title)
                .and_then(|h| h.strip_prefix(": "))
                .unwrap_or(help);
            out.push(row(&keys, help));
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
