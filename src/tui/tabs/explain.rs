//! The Explain tab: the explain tree (one row per node, indented by depth) then the lints, or
//! the railroad diagram (`r`). Moving through the rows marks the row's span in the pattern;
//! `b` sets a breakpoint on the node for the Debug tab, and once the Debug tab has a trace each
//! node shows its steps as a bar. The rows come from the workbench's [`Analysis`] (explained
//! once per edit).
//!
//! [`Analysis`]: crate::workbench::Analysis

use super::{DrawCx, Handled, Tab, TabCommand, TabCx, TabEvent, TabId};
use crate::Span;
use crate::highlight::Kind;
use crate::tui::action::{Action, Binding, Context, Edit, KeySpec, bind};
use crate::tui::text::clip;
use crate::tui::theme::{Chrome, chrome, style};
use crate::workbench::Workbench;
use crossterm::event::{KeyCode as K, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span as TextSpan};
use ratatui::widgets::Paragraph;

/// The tab's identity.
pub const ID: TabId = TabId("explain");
/// Set or clear a breakpoint on the selected node.
pub const BREAKPOINT: TabCommand = TabCommand {
    tab: ID,
    name: "breakpoint",
};
/// Switch between the tree and the railroad diagram.
pub const RAILROAD: TabCommand = TabCommand {
    tab: ID,
    name: "railroad",
};

const NONE: KeyModifiers = KeyModifiers::NONE;

static KEYS: &[Binding] = &[
    bind!(
        List,
        Action::Edit(Edit::Left),
        "scroll left (railroad)",
        false,
        [KeySpec::Key(K::Left, NONE)]
    ),
    bind!(
        List,
        Action::Edit(Edit::Right),
        "scroll right (railroad)",
        false,
        [KeySpec::Key(K::Right, NONE)]
    ),
    bind!(
        List,
        Action::Tab(BREAKPOINT),
        "Explain: breakpoint on the node (for the Debug tab)",
        false,
        [KeySpec::Key(K::Char('b'), NONE)]
    ),
    bind!(
        List,
        Action::Tab(RAILROAD),
        "Explain: tree / railroad diagram",
        false,
        [KeySpec::Key(K::Char('r'), NONE)]
    ),
];

/// The explain tree or the railroad diagram.
#[derive(Debug, Default)]
pub struct ExplainTab {
    /// The selected row.
    pub selected: usize,
    /// Show the railroad diagram instead of the tree.
    pub railroad: bool,
    /// First railroad row on screen.
    pub railroad_top: usize,
    /// First railroad column on screen.
    pub railroad_left: usize,
}

impl ExplainTab {
    /// First row on screen in a body of `rows` rows (the selection kept in view).
    fn top(&self, rows: usize) -> usize {
        (self.selected + 1).saturating_sub(rows.max(1))
    }

    /// The span of the selected row.
    pub fn row_span(&self, wb: &Workbench) -> Option<Span> {
        wb.analysis()
            .rows()
            .as_ref()
            .ok()?
            .get(self.selected)
            .and_then(|r| r.span)
    }

    fn scroll_railroad(&mut self, e: &Edit, cx: &TabCx) {
        let page = cx.body_rows();
        let width = cx.body.width as usize;
        match e {
            Edit::Up => self.railroad_top = self.railroad_top.saturating_sub(1),
            Edit::Down => self.railroad_top += 1,
            Edit::PageUp => self.railroad_top = self.railroad_top.saturating_sub(page),
            Edit::PageDown => self.railroad_top += page,
            Edit::Left => self.railroad_left = self.railroad_left.saturating_sub(8),
            Edit::Right => self.railroad_left += 8,
            Edit::Home => {
                self.railroad_top = 0;
                self.railroad_left = 0;
            }
            _ => {}
        }
        if let Ok(lines) = cx.wb.analysis().railroad() {
            let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            self.railroad_top = self.railroad_top.min(lines.len().saturating_sub(page));
            self.railroad_left = self.railroad_left.min(widest.saturating_sub(width));
        }
    }

    fn draw_railroad(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let p = cx.palette;
        let analysis = cx.wb.analysis();
        let lines = match analysis.railroad() {
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
        let top = self.railroad_top.min(lines.len().saturating_sub(1));
        let shown: Vec<Line> = lines
            .iter()
            .skip(top)
            .take(area.height as usize)
            .map(|l| {
                let s: String = l
                    .chars()
                    .skip(self.railroad_left)
                    .take(area.width as usize)
                    .collect();
                Line::from(TextSpan::raw(s))
            })
            .collect();
        f.render_widget(Paragraph::new(shown), area);
    }
}

/// Steps the Debug tab's trace spent in each pattern span's instructions (a node's count holds
/// its descendants'), when there is a trace.
fn node_steps(cx: &DrawCx) -> Option<Vec<(Span, u64)>> {
    let t = cx.shared.trace.as_ref()?;
    let re = cx.wb.compiled().ok()?;
    let prog = re.program().ok()?;
    Some(
        t.per_pc
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            // A trace of an older pattern may name instructions this program lacks.
            .filter_map(|(pc, n)| Some((*prog.spans.get(pc)?, *n)))
            .collect(),
    )
}

impl Tab for ExplainTab {
    fn id(&self) -> TabId {
        ID
    }

    fn title(&self) -> &'static str {
        "Explain"
    }

    fn keymap(&self) -> &'static [Binding] {
        KEYS
    }

    fn context(&self) -> Context {
        Context::List
    }

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        match action {
            Action::Tab(c) if *c == RAILROAD => self.railroad = !self.railroad,
            Action::Tab(c) if *c == BREAKPOINT => {
                if let Some(span) = self.row_span(cx.wb) {
                    let bps = &mut cx.wb.breakpoints;
                    let set = match bps.iter().position(|b| *b == span) {
                        Some(i) => {
                            bps.remove(i);
                            false
                        }
                        None => {
                            bps.push(span);
                            true
                        }
                    };
                    cx.message(format!(
                        "breakpoint {} on bytes {}..{} (Debug tab: c runs to it)",
                        if set { "set" } else { "cleared" },
                        span.start,
                        span.end
                    ));
                }
            }
            Action::Edit(e) if self.railroad => self.scroll_railroad(e, cx),
            Action::Edit(e) => {
                let page = cx.body_rows() as isize;
                let cur = self.selected as isize;
                let target = match e {
                    Edit::Up => cur - 1,
                    Edit::Down => cur + 1,
                    Edit::PageUp => cur - page,
                    Edit::PageDown => cur + page,
                    Edit::Home => 0,
                    Edit::End => isize::MAX / 2,
                    _ => return Handled::NotConsumed,
                };
                let rows = row_count(cx.wb) as isize;
                self.selected = target.clamp(0, (rows - 1).max(0)) as usize;
            }
            _ => return Handled::NotConsumed,
        }
        Handled::Consumed
    }

    fn on_event(&mut self, event: TabEvent, _cx: &mut TabCx) {
        if event == TabEvent::SelectionReset {
            self.selected = 0;
        }
    }

    fn click(&mut self, _col: u16, row: u16, cx: &mut TabCx) -> Handled {
        let r = row as usize;
        if r < row_count(cx.wb) {
            self.selected = r + self.top(cx.body_rows());
        }
        Handled::Consumed
    }

    fn pattern_mark(&self, cx: &DrawCx) -> Option<Span> {
        if !cx.focused {
            return None;
        }
        self.row_span(cx.wb)
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        if self.railroad {
            self.draw_railroad(f, area, cx);
            return;
        }
        let p = cx.palette;
        let w = area.width as usize;
        let steps = node_steps(cx);
        let hottest = steps
            .as_ref()
            .and_then(|v| v.iter().map(|(_, n)| *n).max())
            .unwrap_or(0);
        let analysis = cx.wb.analysis();
        let rows = match analysis.rows() {
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
        let top = self.top(area.height as usize);
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
            if cx.wb.breakpoints.iter().any(|b| Some(*b) == r.span) {
                line.spans
                    .insert(0, TextSpan::styled("● ", chrome(Chrome::Error, p)));
            }
            if i == self.selected {
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
}

/// Number of rows.
fn row_count(wb: &Workbench) -> usize {
    wb.analysis().rows().as_ref().map_or(0, Vec::len)
}
