//! The preset browser: a filter line, the list, and the selected preset's pattern, groups
//! (with their descriptions) and examples.

use super::super::action::ResultTab;
use super::super::app::{App, Focus};
use super::super::theme::{Chrome, chrome, style};
use super::clip;
use crate::highlight::Kind;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

fn detail_height(body: Rect) -> u16 {
    (body.height / 2).min(10)
}

/// Rows of the list inside the tab body `body`.
pub fn list_rows(body: Rect) -> usize {
    body.height.saturating_sub(1 + detail_height(body)) as usize
}

/// Draws the presets tab.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let b = &app.presets;
    let focused = app.focus == Focus::Results && app.tab == ResultTab::Presets && !app.help;
    let w = area.width as usize;
    let mut lines = vec![Line::from(vec![
        Span::styled("filter: ", chrome(Chrome::Dim, p)),
        Span::raw(b.filter.text().to_string()),
        Span::styled(
            format!("   {} of {} · Enter loads", b.visible.len(), b.all.len()),
            chrome(Chrome::Dim, p),
        ),
    ])];
    let rows = list_rows(area);
    let top = b.top(rows);
    let key_w = b
        .all
        .iter()
        .map(|p| p.key.chars().count())
        .max()
        .unwrap_or(4)
        .min(20);
    for (row, &i) in b.visible.iter().enumerate().skip(top).take(rows) {
        let pv = &b.all[i];
        let mut line = Line::from(vec![
            Span::styled(
                format!(" {:<key_w$} ", clip(&pv.key, key_w)),
                style(Kind::Name, p),
            ),
            Span::raw(clip(&pv.description, w.saturating_sub(key_w + 3))),
        ]);
        if row == b.selected {
            line = line.style(chrome(Chrome::Selected, p));
        }
        lines.push(line);
    }
    if let Some(e) = &b.load_error {
        lines.push(Line::from(Span::styled(
            clip(e, w),
            chrome(Chrome::Error, p),
        )));
    } else if b.visible.is_empty() {
        lines.push(Line::from(Span::styled(
            "no preset matches the filter",
            chrome(Chrome::Dim, p),
        )));
    }
    while lines.len() < 1 + rows {
        lines.push(Line::from(""));
    }
    if let Some(pv) = b.selected_preset() {
        lines.push(Line::from(Span::styled(
            "─".repeat(w),
            chrome(Chrome::Dim, p),
        )));
        lines.push(Line::from(vec![
            Span::styled(
                format!("{} · {} ", pv.flavor, pv.origin),
                chrome(Chrome::Dim, p),
            ),
            Span::raw(clip(&pv.pattern, w.saturating_sub(16))),
        ]));
        for (k, (name, desc)) in pv.groups.iter().enumerate() {
            lines.push(Line::from(vec![
                Span::styled(format!(" {name} "), style(Kind::Group(k), p)),
                Span::raw(format!(
                    " {}",
                    clip(desc, w.saturating_sub(name.chars().count() + 4))
                )),
            ]));
        }
        for e in pv.examples.iter().take(2) {
            lines.push(Line::from(vec![
                Span::styled("  e.g. ", chrome(Chrome::Dim, p)),
                Span::raw(clip(e, w.saturating_sub(8))),
            ]));
        }
    }
    f.render_widget(Paragraph::new(lines), area);
    if focused && area.height > 0 {
        let x = area.x as usize + 8 + b.filter.cursor_chars();
        if x < (area.x + area.width) as usize {
            f.set_cursor_position((x as u16, area.y));
        }
    }
}
