//! The Debug tab: where the matcher is (step k of n), what it does there, the captures so far,
//! the backtrack depth, and the steps around the current one.

use super::super::app::App;
use super::super::theme::{Chrome, chrome, style};
use super::clip;
use crate::highlight::Kind;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span as TextSpan};
use ratatui::widgets::Paragraph;

/// Draws the tab.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let d = &app.debug;
    let w = area.width as usize;
    let mut lines: Vec<Line> = Vec::new();
    let Some(t) = &d.trace else {
        let msg = d.error.clone().unwrap_or_else(|| {
            "no trace yet: pick a match (Matches tab) or place the input cursor, then show this tab"
                .into()
        });
        lines.push(Line::from(TextSpan::styled(
            clip(&msg, w),
            chrome(Chrome::Dim, p),
        )));
        f.render_widget(Paragraph::new(lines), area);
        return;
    };
    let pattern = app.wb.pattern.text();
    let Some(cur) = t.steps.get(d.cursor) else {
        lines.push(Line::from(TextSpan::styled(
            "the search took no step",
            chrome(Chrome::Dim, p),
        )));
        f.render_widget(Paragraph::new(lines), area);
        return;
    };
    let end = match (&t.stopped, t.truncated) {
        (Some(e), _) => format!(" · stopped: {}", e.message),
        (None, true) => format!(
            " · {} steps taken, first {} recorded",
            t.total_steps,
            t.steps.len()
        ),
        (None, false) => String::new(),
    };
    let header = format!(
        "step {} / {} · {} · depth {}{end}",
        d.cursor + 1,
        t.steps.len(),
        cur.op,
        cur.depth
    );
    lines.push(Line::from(TextSpan::styled(
        clip(&header, w),
        style(Kind::Name, p),
    )));
    let caps: Vec<String> = cur
        .captures
        .iter()
        .enumerate()
        .skip(1)
        .map(|(k, c)| match c {
            Some([s, e]) => format!("{k}={:?}", app.wb.input.text().get(*s..*e).unwrap_or("?")),
            None => format!("{k}=∅"),
        })
        .collect();
    let caps = if caps.is_empty() {
        "no groups".to_string()
    } else {
        caps.join("  ")
    };
    lines.push(Line::from(TextSpan::styled(
        clip(&format!("captures: {caps}"), w),
        chrome(Chrome::Dim, p),
    )));
    let note = d.note.clone().unwrap_or_else(|| {
        let bps = d.breakpoints.len();
        format!("→/n next  ←/p back  b/B backtrack  c breakpoint ({bps} set)  Home/End  r retrace")
    });
    lines.push(Line::from(TextSpan::styled(
        clip(&note, w),
        chrome(Chrome::Dim, p),
    )));
    if let Some(line) = growth_line(app, pattern) {
        lines.push(Line::from(TextSpan::styled(
            clip(&line, w),
            style(Kind::Error, p),
        )));
    }
    // The steps around the current one.
    let rows = (area.height as usize).saturating_sub(lines.len());
    let first = d.cursor.saturating_sub(rows / 2);
    for (i, s) in t.steps.iter().enumerate().skip(first).take(rows) {
        let piece = pattern.get(s.span.start..s.span.end).unwrap_or("");
        let text = format!(
            "{:>6} {:<24} {:<12} @{:<6} d{}",
            i + 1,
            s.op,
            piece,
            s.pos,
            s.depth
        );
        let st = if i == d.cursor {
            style(Kind::Match, p)
        } else if s.backtrack {
            style(Kind::Warning, p)
        } else {
            ratatui::style::Style::new()
        };
        lines.push(Line::from(TextSpan::styled(clip(&text, w), st)));
    }
    f.render_widget(Paragraph::new(lines), area);
}

/// "steps grow exponential with the input · caused by (a+)+", once the worker has measured it.
fn growth_line(app: &App, pattern: &str) -> Option<String> {
    let g = app.debug.growth.lock().ok()?;
    let g = g.as_ref()?;
    let class = g.class?;
    let culprits: Vec<&str> = match app.wb.compiled() {
        Ok(re) => crate::syntax::lint::lint(re.ast(), pattern, app.wb.flavor)
            .into_iter()
            .filter(|l| l.code == "nested-quantifier")
            .filter_map(|l| l.span)
            .filter_map(|s| pattern.get(s.start..s.end))
            .collect(),
        Err(_) => Vec::new(),
    };
    let degree = g
        .degree
        .filter(|d| *d > 1)
        .map(|d| format!(" (degree {d})"))
        .unwrap_or_default();
    let cause = if culprits.is_empty() {
        String::new()
    } else {
        format!(" · caused by {}", culprits.join(", "))
    };
    Some(format!(
        "steps grow {}{degree} with the input{cause}",
        class.name()
    ))
}
