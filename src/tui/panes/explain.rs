//! The explain tree: one row per node, indented by depth; moving through it highlights the
//! node's span in the pattern. Lints follow, each with its span.

use super::super::action::ResultTab;
use super::super::app::{App, Focus};
use super::super::theme::{Chrome, chrome, style};
use super::clip;
use crate::Span;
use crate::highlight::Kind;
use crate::syntax::ast::NodeKind;
use crate::syntax::parse::parse;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span as TextSpan};
use ratatui::widgets::Paragraph;

/// One row of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Nesting depth.
    pub depth: usize,
    /// The pattern text of the node.
    pub text: String,
    /// What it means.
    pub meaning: String,
    /// Its span in the pattern.
    pub span: Span,
}

fn describe(kind: &NodeKind) -> String {
    match kind {
        NodeKind::Empty => "empty".into(),
        NodeKind::Literal { ch, .. } => format!("the character {ch:?}"),
        NodeKind::Dot { dotall: true } => "any character".into(),
        NodeKind::Dot { .. } => "any character except a line break".into(),
        NodeKind::Perl { .. } => "a character class shorthand".into(),
        NodeKind::Property { .. } => "a Unicode property".into(),
        NodeKind::Class(_) => "one character from a set".into(),
        NodeKind::Anchor { .. } => "an anchor (matches a position)".into(),
        NodeKind::Group { .. } => "a group".into(),
        NodeKind::SetFlags(_) => "inline flags".into(),
        NodeKind::Repeat { min, max, .. } => match max {
            Some(m) if m == min => format!("exactly {min} times"),
            Some(m) => format!("{min} to {m} times"),
            None => format!("{min} or more times"),
        },
        NodeKind::Concat(_) => "in sequence".into(),
        NodeKind::Alternation(_) => "one of the alternatives".into(),
        NodeKind::Backref { .. } => "the text a group matched".into(),
        NodeKind::Comment => "a comment".into(),
        NodeKind::Whitespace => "ignored whitespace".into(),
    }
}

/// The tree rows for the current pattern (empty when it does not parse).
pub fn rows(app: &App) -> Vec<Row> {
    let wb = &app.wb;
    let pattern = wb.pattern.text();
    let Ok(ast) = parse(pattern, wb.flavor, wb.flags) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    ast.root.walk(|n, depth| {
        if out.len() < 4096 {
            let text = pattern
                .get(n.span.start..n.span.end)
                .unwrap_or("")
                .to_string();
            out.push(Row {
                depth,
                text,
                meaning: describe(&n.kind),
                span: n.span,
            });
        }
    });
    out
}

/// Number of tree rows.
pub fn row_count(app: &App) -> usize {
    rows(app).len()
}

/// First row on screen.
pub fn top(app: &App) -> usize {
    let rows = app.body_rows().saturating_sub(1).max(1);
    (app.explain_selected + 1).saturating_sub(rows)
}

/// The span of the selected node, when the explain tab is showing.
pub fn selected_span(app: &App) -> Option<Span> {
    if app.tab != ResultTab::Explain || app.focus != Focus::Results {
        return None;
    }
    rows(app).get(app.explain_selected).map(|r| r.span)
}

/// Draws the explain tab.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let w = area.width as usize;
    let all = rows(app);
    let mut lines = Vec::new();
    if all.is_empty() {
        lines.push(Line::from(TextSpan::styled(
            "the pattern does not parse; see the error under it",
            chrome(Chrome::Dim, p),
        )));
    }
    let height = area.height as usize;
    let top = top(app);
    for (i, r) in all.iter().enumerate().skip(top).take(height) {
        let indent = "  ".repeat(r.depth.min(20));
        let text_w = 18usize.min(w / 3);
        let mut line = Line::from(vec![
            TextSpan::raw(indent.clone()),
            TextSpan::styled(
                format!("{:<text_w$} ", clip(&r.text, text_w)),
                style(Kind::Literal, p).patch(chrome(Chrome::Focused, p)),
            ),
            TextSpan::raw(clip(
                &r.meaning,
                w.saturating_sub(indent.len() + text_w + 1),
            )),
        ]);
        if i == app.explain_selected {
            line = line.style(chrome(Chrome::Selected, p));
        }
        lines.push(line);
    }
    f.render_widget(Paragraph::new(lines), area);
}
