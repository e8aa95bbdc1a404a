//! The status bar: match count (exact, or counting), engine, scan time, warnings.

use super::super::action::Action;
use super::super::app::{App, percent};
use super::super::keymap::key_for;
use super::super::text::thousands;
use super::super::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The match count as shown: `44 matches`, `1,024+ matches · counting… 37% · Esc stops`, or
/// `1,024+ matches · stopped at 37%` (the key from the keymap).
pub fn count_text(app: &App) -> String {
    let r = &app.wb.results;
    let n = r.shown_count();
    let noun = if n == 1 { "match" } else { "matches" };
    if app.wb.shown_regex().is_none() {
        return "no pattern".into();
    }
    if app.loading.is_some() {
        // Only the file's first lines are in yet.
        format!("{n}+ {noun} · reading the file…")
    } else if r.done && r.steps > 0 {
        format!("{n} {noun}, {} steps", thousands(r.steps))
    } else if r.done {
        format!("{n} {noun}")
    } else if r.stopped {
        format!(
            "{n}+ {noun} · stopped at {}%",
            percent(r.scanned, r.text_len)
        )
    } else {
        let stop = key_for(&Action::Back)
            .map(|k| format!(" · {k} stops"))
            .unwrap_or_default();
        format!(
            "{n}+ {noun} · counting… {}%{stop}",
            percent(r.scanned, app.wb.input.text().len())
        )
    }
}

/// Draws the status bar.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let wb = &app.wb;
    let r = &wb.results;
    let mut spans = vec![Span::styled(
        format!(" {} ", count_text(app)),
        chrome(Chrome::Selected, p),
    )];
    if let Some(e) = wb.engine() {
        spans.push(Span::styled(
            format!(" {} ", e.name()),
            chrome(Chrome::Dim, p),
        ));
    }
    if let Some(note) = app.shown_tab().status() {
        spans.push(Span::styled(note, chrome(Chrome::Dim, p)));
    }
    if let Some(t) = r.elapsed {
        spans.push(Span::styled(
            format!(" scan {:.1} ms ", t.as_secs_f64() * 1000.0),
            chrome(Chrome::Dim, p),
        ));
    }
    if let Some(e) = &r.error {
        spans.push(Span::styled(
            format!(" ⚠ {} ", e.message),
            chrome(Chrome::Error, p),
        ));
    }
    if wb.compiling() {
        spans.push(Span::styled(
            " compiling the pattern… ",
            chrome(Chrome::Dim, p),
        ));
    }
    if wb.stale() {
        spans.push(Span::styled(
            " ⚠ pattern invalid: showing the last good matches, dimmed ",
            chrome(Chrome::Error, p),
        ));
    }
    if let Some(path) = app.wb.exporting() {
        spans.push(Span::styled(
            format!(" exporting to {}… ", path.display()),
            chrome(Chrome::Dim, p),
        ));
    }
    if let Some(e) = &app.save_error {
        spans.push(Span::styled(format!(" ⚠ {e} "), chrome(Chrome::Error, p)));
    }
    if let Some(w) = &app.input_warning {
        spans.push(Span::styled(format!(" ⚠ {w} "), chrome(Chrome::Error, p)));
    }
    if let Some(m) = &app.message {
        spans.push(Span::raw(format!(" {m} ")));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}
