//! The Explain tab: the explain tree (one row per node, indented by depth) then the lints, or
//! the railroad diagram (`r`). Moving through the rows marks the row's span in the pattern;
//! `b` sets a breakpoint on the node for the Debug tab, and once the Debug tab has a trace each
//! node shows its steps as a bar. The rows come from the workbench's [`Analysis`] (explained
//! once per edit).
//!
//! Under the lints, the pattern's ReDoS verdict, proved on a worker thread by counting the
//! matcher's steps on a derived attack (the next edit cancels it); selecting that row marks the
//! culprit in the pattern, and `a` loads the attack into the input and opens the Debug tab on
//! it.
//!
//! [`Analysis`]: crate::workbench::Analysis

use super::{DrawCx, Handled, Request, Tab, TabCommand, TabCx, TabEvent, TabId};
use crate::Span;
use crate::engine::redos::{RedosOptions, RedosReport, Verdict};
use crate::highlight::Kind;
use crate::tui::action::{Action, Binding, Context::List, Edit, KeySpec::Key, NONE};
use crate::tui::text::clip;
use crate::tui::theme::{Chrome, chrome, style};
use crate::workbench::Workbench;
use crossterm::event::KeyCode as K;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span as TextSpan};
use ratatui::widgets::Paragraph;
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};

/// The tab's identity.
pub const ID: TabId = TabId("explain");
/// Set or clear a breakpoint on the selected node.
pub const BREAKPOINT: TabCommand = ID.command("breakpoint");
/// Switch between the tree and the railroad diagram.
pub const RAILROAD: TabCommand = ID.command("railroad");
/// Load the ReDoS attack into the input and open the Debug tab on it.
pub const ATTACK: TabCommand = ID.command("attack");

static KEYS: &[Binding] = &[
    List.bind(
        Action::Edit(Edit::Left),
        "scroll left (railroad)",
        &[Key(K::Left, NONE)],
    ),
    List.bind(
        Action::Edit(Edit::Right),
        "scroll right (railroad)",
        &[Key(K::Right, NONE)],
    ),
    List.bind(
        Action::Tab(BREAKPOINT),
        "Explain: breakpoint on the node (for the Debug tab)",
        &[Key(K::Char('b'), NONE)],
    ),
    List.bind(
        Action::Tab(RAILROAD),
        "Explain: tree / railroad diagram",
        &[Key(K::Char('r'), NONE)],
    ),
    List.bind(
        Action::Tab(ATTACK),
        "Explain: load the ReDoS attack into the input and debug it",
        &[Key(K::Char('a'), NONE)],
    ),
];

/// What the pattern the verdict is for was: its text, flavor and flags.
type PatternKey = (String, crate::Flavor, crate::flavor::Flags);

/// The ReDoS verdict of the pattern on screen, worked out on a thread of its own.
#[derive(Default)]
pub struct RedosCheck {
    /// The pattern the running or finished check is for.
    key: Option<PatternKey>,
    /// The running check's answer, when it comes.
    rx: Option<Receiver<Result<RedosReport, String>>>,
    /// Raised to stop the running check.
    cancel: Option<Arc<AtomicBool>>,
    /// The answer for `key`.
    pub result: Option<Result<RedosReport, String>>,
    /// Whether the tab was drawn since the last poll (only a shown tab starts a check).
    drawn: Cell<bool>,
    /// The time a check may take (zero: the engine's default, under a second).
    pub budget: std::time::Duration,
}

impl std::fmt::Debug for RedosCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedosCheck")
            .field("key", &self.key)
            .field("running", &self.rx.is_some())
            .field("result", &self.result)
            .finish()
    }
}

impl RedosCheck {
    /// Starts a check for the workbench's pattern when it is not the one checked; takes in a
    /// finished check. Returns whether something changed on screen.
    fn poll(&mut self, wb: &Workbench) -> bool {
        let mut changed = false;
        if let Some(rx) = &self.rx {
            match rx.try_recv() {
                Ok(result) => {
                    self.result = Some(result);
                    self.rx = None;
                    changed = true;
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    self.result = Some(Err("the ReDoS check stopped".into()));
                    self.rx = None;
                    changed = true;
                }
            }
        }
        // The compiled pattern, not the editor's text: a compile still running leaves the
        // previous pattern in place, and the verdict must be for the pattern it names.
        let Ok(re) = wb.compiled() else {
            return changed;
        };
        let checked = self.key.as_ref().is_some_and(|(text, flavor, flags)| {
            text == re.pattern() && *flavor == re.flavor() && *flags == re.flags()
        });
        if checked || !self.drawn.replace(false) {
            return changed;
        }
        let key = (re.pattern().to_string(), re.flavor(), re.flags());
        if let Some(old) = self.cancel.take() {
            old.store(true, Ordering::Relaxed);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        let re = Arc::clone(re);
        let flag = Arc::clone(&cancel);
        let budget = self.budget;
        let spawned = std::thread::Builder::new()
            .name("rxw-redos".into())
            .spawn(move || {
                let mut options = RedosOptions {
                    cancel: Some(&flag),
                    ..RedosOptions::default()
                };
                if !budget.is_zero() {
                    options.time = budget;
                }
                let _ = tx.send(re.redos(options).map_err(|e| e.message));
            });
        self.key = Some(key);
        self.result = None;
        match spawned {
            Ok(_) => {
                self.rx = Some(rx);
                self.cancel = Some(cancel);
            }
            Err(e) => self.result = Some(Err(format!("cannot start the ReDoS check: {e}"))),
        }
        true
    }

    /// The verdict's lines for a body `width` columns wide.
    fn lines(&self, width: usize, p: crate::tui::theme::Palette) -> Vec<Line<'static>> {
        let Some(result) = &self.result else {
            if self.rx.is_none() {
                return Vec::new();
            }
            return vec![Line::from(TextSpan::styled(
                "redos: checking…",
                chrome(Chrome::Dim, p),
            ))];
        };
        let report = match result {
            Ok(r) => r,
            Err(e) => {
                return vec![Line::from(TextSpan::styled(
                    clip(&format!("redos: not checked: {e}"), width),
                    chrome(Chrome::Dim, p),
                ))];
            }
        };
        let verdict = match report.degree {
            Some(k) if report.verdict == Verdict::Polynomial => format!("polynomial, degree {k}"),
            _ => report.verdict.name().to_string(),
        };
        let at = report
            .span
            .map_or(String::new(), |s| format!(" at {}..{}", s.start, s.end));
        let head = format!("redos: {verdict}{at} ");
        let sev = if report.verdict.is_vulnerable() {
            chrome(Chrome::Error, p)
        } else {
            chrome(Chrome::Dim, p)
        };
        let mut out = vec![Line::from(vec![
            TextSpan::styled(head.clone(), sev),
            TextSpan::raw(clip(
                &report.reason,
                width.saturating_sub(head.chars().count()),
            )),
        ])];
        if let Some(attack) = &report.attack {
            let n = attack_size(report);
            let text = format!(
                "  attack: {} + {} × n + {} (a: load n = {n} into the input and debug it)",
                escaped(&attack.prefix),
                escaped(&attack.pump),
                escaped(&attack.suffix)
            );
            out.push(Line::from(TextSpan::styled(
                clip(&text, width),
                chrome(Chrome::Dim, p),
            )));
        }
        out
    }
}

/// How many pumps the loaded attack holds: enough to see the growth in the Debug tab, few
/// enough that an exponential one stops on the step budget quickly.
fn attack_size(report: &RedosReport) -> usize {
    match report.verdict {
        Verdict::Exponential => 16,
        _ => 64,
    }
}

/// A text as a quoted, escaped string (controls and quotes visible).
fn escaped(s: &str) -> String {
    format!("{s:?}")
}

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
    /// The pattern's ReDoS verdict.
    pub redos: RedosCheck,
}

impl ExplainTab {
    /// First row on screen in a body of `rows` rows (the selection kept in view).
    fn top(&self, rows: usize) -> usize {
        (self.selected + 1).saturating_sub(rows.max(1))
    }

    /// The span of the selected row (the verdict's row: the culprit of the ReDoS verdict).
    pub fn row_span(&self, wb: &Workbench) -> Option<Span> {
        let analysis = wb.analysis();
        let rows = analysis.rows().as_ref().ok()?;
        match rows.get(self.selected) {
            Some(r) => r.span,
            None => self.redos.result.as_ref()?.as_ref().ok()?.span,
        }
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
        if let Ok(lines) = cx.wb.analysis().railroad_fit(width).as_ref() {
            let view = RailroadView::of(lines, width, page);
            self.railroad_top = self.railroad_top.min(lines.len().saturating_sub(view.rows));
            self.railroad_left = self.railroad_left.min(view.widest.saturating_sub(width));
        }
    }

    /// The railroad diagram, its top-level sequence wrapped to the pane's width; when it is
    /// still taller or wider than the pane, the last row says which part is shown and how to
    /// scroll.
    fn draw_railroad(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let p = cx.palette;
        let analysis = cx.wb.analysis();
        let (width, height) = (area.width as usize, area.height as usize);
        let fitted = analysis.railroad_fit(width);
        let lines = match fitted.as_ref() {
            Ok(l) => l,
            Err(msg) => {
                draw_failure(f, area, format!("cannot draw: {msg}"), p);
                return;
            }
        };
        let view = RailroadView::of(lines, width, height);
        let top = self.railroad_top.min(lines.len().saturating_sub(view.rows));
        let left = self.railroad_left.min(view.widest.saturating_sub(width));
        let mut shown: Vec<Line> = lines
            .iter()
            .skip(top)
            .take(view.rows)
            .map(|l| {
                let s: String = l.chars().skip(left).take(width).collect();
                Line::from(TextSpan::raw(s))
            })
            .collect();
        if view.scrolls() && height > 1 {
            let mut said = Vec::new();
            if view.tall {
                said.push(format!(
                    "rows {}–{} of {} (↑/↓ scroll)",
                    top + 1,
                    (top + view.rows).min(lines.len()),
                    lines.len()
                ));
            }
            if view.wide {
                said.push(format!(
                    "columns {}–{} of {} (←/→ scroll)",
                    left + 1,
                    (left + width).min(view.widest),
                    view.widest
                ));
            }
            shown.push(Line::from(TextSpan::styled(
                crate::tui::text::clip(&said.join(" · "), width),
                chrome(Chrome::Dim, p),
            )));
        }
        f.render_widget(Paragraph::new(shown), area);
    }
}

/// How a railroad diagram sits in a pane: whether it is taller or wider than the pane, and
/// the diagram rows shown (one pane row goes to the scrolling note when it scrolls).
struct RailroadView {
    widest: usize,
    tall: bool,
    wide: bool,
    rows: usize,
}

impl RailroadView {
    fn of(lines: &[String], width: usize, height: usize) -> RailroadView {
        let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let wide = widest > width;
        // The note takes a row, which can make a diagram that just fitted scroll.
        let tall = lines.len() > height || (wide && lines.len() + 1 > height);
        let rows = if (tall || wide) && height > 1 {
            height - 1
        } else {
            height
        };
        RailroadView {
            widest,
            tall,
            wide,
            rows,
        }
    }

    fn scrolls(&self) -> bool {
        self.tall || self.wide
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

/// Draws `message` in the error colour in place of the tab's body.
fn draw_failure(f: &mut Frame, area: Rect, message: String, p: crate::tui::theme::Palette) {
    let line = Line::from(TextSpan::styled(message, chrome(Chrome::Error, p)));
    f.render_widget(Paragraph::new(line), area);
}

impl Tab for ExplainTab {
    super::face!("Explain", KEYS);

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        match action {
            Action::Tab(c) if *c == RAILROAD => self.railroad = !self.railroad,
            Action::Tab(c) if *c == ATTACK => {
                let attack = self.redos.result.as_ref().and_then(|r| r.as_ref().ok());
                match attack.and_then(|r| Some((r.attack.as_ref()?, attack_size(r)))) {
                    Some((attack, n)) => {
                        let text = attack.at(n);
                        let len = text.len();
                        // One edit, so that Ctrl-Z in the input brings the user's text back.
                        let undoable = !cx.wb.input.is_paged();
                        cx.wb.input.replace_all_undoably(text);
                        cx.request(Request::InputReplaced);
                        cx.request(Request::ShowTab(super::debug::ID));
                        let back = if undoable {
                            "; Ctrl-Z in the input takes it back"
                        } else {
                            ""
                        };
                        cx.message(format!(
                            "loaded the ReDoS attack (n = {n}, {len} bytes) into the input{back}"
                        ));
                    }
                    None => cx.message("no ReDoS attack for this pattern"),
                }
            }
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

    fn poll(&mut self, cx: &mut TabCx) -> bool {
        self.redos.poll(cx.wb)
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
                draw_failure(f, area, format!("cannot explain: {msg}"), p);
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
        self.redos.drawn.set(true);
        if top + lines.len() >= rows.len() {
            let mut verdict = self.redos.lines(w, p);
            if self.selected == rows.len()
                && let Some(first) = verdict.first_mut()
            {
                *first = first.clone().style(chrome(Chrome::Selected, p));
            }
            lines.extend(verdict);
            lines.truncate(area.height as usize);
        }
        f.render_widget(Paragraph::new(lines), area);
    }
}

/// Number of rows: the tree, the lints and the ReDoS verdict's row.
fn row_count(wb: &Workbench) -> usize {
    wb.analysis().rows().as_ref().map_or(0, |r| r.len() + 1)
}
