//! The explain tree (from [`crate::syntax::explain`]): one row per node, indented by depth,
//! then the lints. Moving through the rows highlights the row's span in the pattern.

use super::super::action::ResultTab;
use super::super::app::{App, Focus};
use super::super::theme::{Chrome, chrome, style};
use super::clip;
use crate::Span;
use crate::highlight::Kind;
use crate::syntax::explain::explain_pattern;
use crate::syntax::lint::Severity;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span as TextSpan};
use ratatui::widgets::Paragraph;

/// One row: a tree node or a lint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Nesting depth (lints: 0).
    pub depth: usize,
    /// The node kind, or `warning[code]` / `info[code]` for a lint.
    pub kind: String,
    /// The pattern text of the node (empty for lints).
    pub text: String,
    /// What it means, or the lint's message.
    pub meaning: String,
    /// The span in the pattern.
    pub span: Option<Span>,
    /// How the node's text is coloured.
    pub highlight: Kind,
    /// Whether this row is a lint.
    pub lint: bool,
}

/// The explain rows last computed, keyed by what they were computed for.
#[derive(Debug, Default)]
pub struct ExplainCache(std::sync::Mutex<Option<Explained>>);

/// One computed explanation and its key.
#[derive(Debug)]
struct Explained {
    pattern: String,
    flavor: crate::Flavor,
    flags: crate::Flags,
    rows: Result<Vec<Row>, String>,
}

/// The rows for the current pattern, or the reason there are none (explained once per edit).
pub fn rows_or_error(app: &App) -> Result<Vec<Row>, String> {
    let wb = &app.wb;
    let pattern = wb.pattern.text();
    if let Ok(cache) = app.explain_cache.0.lock()
        && let Some(e) = cache.as_ref()
        && e.pattern == pattern
        && e.flavor == wb.flavor
        && e.flags == wb.flags
    {
        return e.rows.clone();
    }
    let rows = explain_rows(app);
    if let Ok(mut cache) = app.explain_cache.0.lock() {
        *cache = Some(Explained {
            pattern: pattern.to_string(),
            flavor: wb.flavor,
            flags: wb.flags,
            rows: rows.clone(),
        });
    }
    rows
}

fn explain_rows(app: &App) -> Result<Vec<Row>, String> {
    let wb = &app.wb;
    let pattern = wb.pattern.text();
    let ex = explain_pattern(
        pattern,
        wb.flavor,
        wb.flags,
        crate::Limits::human().max_explain_nodes,
    )
    .map_err(|e| e.message)?;
    let mut out: Vec<Row> = ex
        .lines()
        .into_iter()
        .map(|l| Row {
            depth: l.depth,
            kind: l.node.kind.clone(),
            text: l.node.text.clone(),
            meaning: l.node.meaning.clone(),
            span: Some(l.node.span),
            highlight: l.node.highlight,
            lint: false,
        })
        .collect();
    for lint in &ex.lints {
        let sev = match lint.severity {
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        out.push(Row {
            depth: 0,
            kind: format!("{sev}[{}]", lint.code),
            text: String::new(),
            meaning: lint.message.clone(),
            span: lint.span,
            highlight: if lint.severity == Severity::Warning {
                Kind::Warning
            } else {
                Kind::Comment
            },
            lint: true,
        });
    }
    Ok(out)
}

/// Number of rows.
pub fn row_count(app: &App) -> usize {
    rows_or_error(app).map_or(0, |r| r.len())
}

/// First row on screen.
pub fn top(app: &App) -> usize {
    let rows = app.body_rows().max(1);
    (app.explain_selected + 1).saturating_sub(rows)
}

/// The span of the selected row, when the explain tab has the focus.
pub fn selected_span(app: &App) -> Option<Span> {
    if app.tab == ResultTab::Debug {
        // The Debug tab marks the current step's instruction in the pattern.
        return app.debug.current().map(|s| s.span);
    }
    if app.tab != ResultTab::Explain || app.focus != Focus::Results {
        return None;
    }
    row_span(app)
}

/// The span of the selected explain row, whatever the focus.
pub fn row_span(app: &App) -> Option<Span> {
    rows_or_error(app)
        .ok()?
        .get(app.explain_selected)
        .and_then(|r| r.span)
}

/// The railroad diagram of the current pattern, or why there is none.
pub fn railroad_lines(app: &App) -> Result<Vec<String>, String> {
    let wb = &app.wb;
    let pattern = wb.pattern.text();
    let ast = crate::syntax::parse::parse(pattern, wb.flavor, wb.flags).map_err(|e| e.message)?;
    crate::syntax::railroad::railroad(&ast, pattern, wb.flavor).map_err(|e| e.message)
}

fn render_railroad(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let lines = match railroad_lines(app) {
        Ok(l) => l,
        Err(msg) => {
            let line = Line::from(TextSpan::styled(
                format!("cannot draw: {msg}"),
                chrome(Chrome::Error, p),
            ));
            f.render_widget(Paragraph::new(line), area);
            return;
        }
    };
    let top = app.railroad_top.min(lines.len().saturating_sub(1));
    let shown: Vec<Line> = lines
        .iter()
        .skip(top)
        .take(area.height as usize)
        .map(|l| {
            let s: String = l
                .chars()
                .skip(app.railroad_left)
                .take(area.width as usize)
                .collect();
            Line::from(TextSpan::raw(s))
        })
        .collect();
    f.render_widget(Paragraph::new(shown), area);
}

/// Steps the Debug tab's trace spent in each pattern span's instructions (a node's count holds
/// its descendants'), when there is a trace.
fn node_steps(app: &App) -> Option<Vec<(Span, u64)>> {
    let t = app.debug.trace.as_ref()?;
    let re = app.wb.compiled().ok()?;
    let prog = re.program().ok()?;
    Some(
        t.per_pc
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(pc, n)| (prog.spans[pc], *n))
            .collect(),
    )
}

/// Draws the explain tab.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    if app.railroad {
        render_railroad(f, app, area);
        return;
    }
    let p = app.palette;
    let w = area.width as usize;
    let steps = node_steps(app);
    let hottest = steps
        .as_ref()
        .and_then(|v| v.iter().map(|(_, n)| *n).max())
        .unwrap_or(0);
    let rows = match rows_or_error(app) {
        Ok(r) => r,
        Err(msg) => {
            let line = Line::from(TextSpan::styled(
                format!("cannot explain: {msg}"),
                chrome(Chrome::Error, p),
            ));
            f.render_widget(Paragraph::new(line), area);
            return;
        }
    };
    let lints = rows.iter().filter(|r| r.lint).count();
    let top = top(app);
    let mut lines = Vec::new();
    for (i, r) in rows.iter().enumerate().skip(top).take(area.height as usize) {
        let indent = "  ".repeat(r.depth.min(16));
        let mut line = if r.lint {
            let sev = if r.highlight == Kind::Warning {
                chrome(Chrome::Error, p)
            } else {
                chrome(Chrome::Dim, p)
            };
            let at = r
                .span
                .map_or(String::new(), |s| format!(" at {}..{}", s.start, s.end));
            Line::from(vec![
                TextSpan::styled(format!("{}{at} ", r.kind), sev),
                TextSpan::raw(clip(
                    &r.meaning,
                    w.saturating_sub(r.kind.len() + at.len() + 1),
                )),
            ])
        } else {
            let text_w = (w / 3).clamp(4, 24);
            let shown = clip(&r.text, text_w.saturating_sub(indent.len()).max(4));
            let pad = text_w.saturating_sub(indent.chars().count() + shown.chars().count());
            Line::from(vec![
                TextSpan::raw(indent.clone()),
                TextSpan::styled(shown, style(r.highlight, p)),
                TextSpan::raw(" ".repeat(pad + 1)),
                TextSpan::styled(format!("{} ", r.kind), chrome(Chrome::Dim, p)),
                TextSpan::raw(clip(
                    &r.meaning,
                    w.saturating_sub(text_w + r.kind.len() + 2),
                )),
            ])
        };
        if let (Some(steps), Some(span)) = (&steps, r.span)
            && !r.lint
        {
            // Steps per node: a bar of up to five cells, scaled to the hottest instruction.
            let n: u64 = steps
                .iter()
                .filter(|(s, _)| span.start <= s.start && s.end <= span.end)
                .map(|(_, n)| *n)
                .sum();
            let cells = if n == 0 || hottest == 0 {
                0
            } else {
                ((n as f64 / hottest as f64).min(1.0) * 5.0).ceil() as usize
            };
            let bar = format!("{:<5}{:>7} ", "█".repeat(cells), n);
            line.spans
                .insert(0, TextSpan::styled(bar, style(Kind::Warning, p)));
        }
        if app.debug.breakpoints.iter().any(|b| Some(*b) == r.span) {
            line.spans
                .insert(0, TextSpan::styled("● ", chrome(Chrome::Error, p)));
        }
        if i == app.explain_selected {
            line = line.style(chrome(Chrome::Selected, p));
        }
        lines.push(line);
    }
    if lints == 0 && lines.len() < area.height as usize {
        lines.push(Line::from(TextSpan::styled(
            "no lints",
            chrome(Chrome::Dim, p),
        )));
    }
    f.render_widget(Paragraph::new(lines), area);
}
