//! Test strings: one per line, each marked pass / fail / match / no match, live.

use super::super::action::ResultTab;
use super::super::app::{App, Focus};
use super::super::theme::{Chrome, chrome};
use super::{cells, styled_line};
use crate::workbench::Expect;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the tests tab.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let wb = &app.wb;
    let focused = app.focus == Focus::Results && app.tab == ResultTab::Tests && !app.help;
    let outcomes = wb.test_outcomes();
    let (passed, failed) = outcomes.iter().fold((0, 0), |(a, b), o| match o.passed() {
        Some(true) => (a + 1, b),
        Some(false) => (a, b + 1),
        None => (a, b),
    });
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{passed} passed"), chrome(Chrome::Pass, p)),
        Span::raw(" · "),
        Span::styled(
            format!("{failed} failed"),
            if failed > 0 {
                chrome(Chrome::Fail, p)
            } else {
                chrome(Chrome::Dim, p)
            },
        ),
        Span::styled(
            "   + must match · - must not · + text => g1, g2 | name=v · ~ in => out · Ctrl-G generate",
            chrome(Chrome::Dim, p),
        ),
    ])];
    let rows = (area.height as usize).saturating_sub(1);
    let (cur_line, cur_col) = wb.tests.cursor_position();
    let top = (cur_line + 1).saturating_sub(rows);
    let mark_w = 9;
    let text_w = (area.width as usize).saturating_sub(mark_w);
    for i in top..(top + rows).min(wb.tests.line_count()) {
        let o = outcomes.iter().find(|o| o.line == i);
        let (mark, st) = match o {
            None => ("", Style::new()),
            Some(o) => match (o.passed(), &o.found, &o.expect) {
                (Some(true), ..) => ("✓ pass", chrome(Chrome::Pass, p)),
                (Some(false), ..) => ("✗ FAIL", chrome(Chrome::Fail, p)),
                (None, Some(_), Expect::Nothing) => ("• match", chrome(Chrome::Dim, p)),
                _ => ("· none", chrome(Chrome::Dim, p)),
            },
        };
        let cs = cells(wb.tests.line(i), 0, text_w, app.show_whitespace);
        let mut l = styled_line(&cs, |_| Style::new());
        l.spans
            .insert(0, Span::styled(format!("{mark:<w$} ", w = mark_w - 1), st));
        lines.push(l);
    }
    if wb.tests.text().is_empty() {
        lines.push(Line::from(Span::styled(
            "type test strings here, one per line",
            chrome(Chrome::Dim, p),
        )));
    }
    f.render_widget(Paragraph::new(lines), area);
    if focused && area.height > 1 && cur_line >= top {
        let x = area.x as usize + mark_w + cur_col.min(text_w);
        if x < (area.x + area.width) as usize {
            f.set_cursor_position((x as u16, area.y + 1 + (cur_line - top) as u16));
        }
    }
}
