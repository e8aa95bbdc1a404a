//! The pattern history search (Ctrl-R in the pattern pane), as a shell's reverse search with
//! the matches listed: typing narrows the current flavor family's earlier patterns, newest
//! first; Ctrl-R or Up/Down move through them; Enter puts the chosen one in the pattern pane
//! (one undo step); Esc keeps the pattern as it was.

use super::{Outcome, Popup, PopupCx, PopupDrawCx, centred, draw_box, field, field_cursor};
use crate::tui::action::{Action, Context, Edit, apply_line};
use crate::tui::history::matching;
use crate::tui::theme::{Chrome, chrome};
use crate::workbench::LineEditor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Most matches listed at once.
const LISTED: usize = 10;

/// The search: the family's patterns (oldest first), the query, and the chosen match.
#[derive(Debug, Clone)]
pub struct HistorySearch {
    /// The flavor family searched.
    pub family: String,
    entries: Vec<String>,
    /// What is typed.
    pub query: LineEditor,
    /// The patterns containing the query, newest first.
    pub found: Vec<String>,
    /// The chosen one in `found`.
    pub chosen: usize,
}

impl HistorySearch {
    /// A search over `entries` (oldest first) of `family`.
    pub fn new(family: &str, entries: Vec<String>) -> HistorySearch {
        let found = matching(&entries, "");
        HistorySearch {
            family: family.to_string(),
            entries,
            query: LineEditor::new(""),
            found,
            chosen: 0,
        }
    }

    fn refind(&mut self) {
        self.found = matching(&self.entries, self.query.text());
        self.chosen = 0;
    }
}

impl Popup for HistorySearch {
    fn update(&mut self, action: &Action, cx: &mut PopupCx) -> Outcome {
        match action {
            Action::Back => return Outcome::Close,
            Action::Edit(Edit::Newline) | Action::Activate => {
                match self.found.get(self.chosen) {
                    Some(p) => *cx.then = Some(Action::SetPattern(p.clone())),
                    None => *cx.message = Some("no earlier pattern contains that".into()),
                }
                return Outcome::Close;
            }
            Action::HistorySearch | Action::Edit(Edit::Down)
                if self.chosen + 1 < self.found.len() =>
            {
                self.chosen += 1;
            }
            Action::Edit(Edit::Up) => self.chosen = self.chosen.saturating_sub(1),
            Action::Edit(e) if apply_line(&mut self.query, e) => self.refind(),
            _ => {}
        }
        Outcome::Stay
    }

    /// The pattern pane's keys: Ctrl-R is "older" here, as in a shell.
    fn context(&self) -> Option<Context> {
        Some(Context::Pattern)
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx) {
        let p = cx.palette;
        let listed = self.found.len().clamp(1, LISTED);
        let r = centred(
            area,
            area.width.saturating_sub(4).min(90),
            listed as u16 + 4,
        );
        let mut lines = vec![field("search: ", &self.query, p)];
        // The window of matches that holds the chosen one.
        let first = self.chosen.saturating_sub(LISTED - 1);
        for (i, pattern) in self.found.iter().enumerate().skip(first).take(LISTED) {
            let shown = pattern.replace('\n', "␊");
            lines.push(if i == self.chosen {
                Line::from(Span::styled(
                    format!("> {shown}"),
                    chrome(Chrome::Selected, p),
                ))
            } else {
                Line::from(Span::raw(format!("  {shown}")))
            });
        }
        if self.found.is_empty() {
            lines.push(Line::from(Span::styled(
                if self.entries.is_empty() {
                    "  (no earlier patterns in this flavor yet)"
                } else {
                    "  (none contains that)"
                },
                chrome(Chrome::Dim, p),
            )));
        }
        lines.push(Line::from(Span::styled(
            format!(
                "{} of {} · Ctrl-R/Down older · Enter uses it · Esc keeps yours",
                self.found.len(),
                self.entries.len()
            ),
            chrome(Chrome::Dim, p),
        )));
        let title = format!(" Earlier {} patterns ", self.family);
        draw_box(f, r, &title, Paragraph::new(lines), p);
        field_cursor(f, r, 0, "search: ", &self.query);
    }
}
