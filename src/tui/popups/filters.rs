//! The filter panel (Alt-k): every filter on one screen, each changed or removed alone.
//!
//! One row per filter: matched or not by the pattern, the least level, the time range, a
//! preset key, then one row per log of a merged input with whether its lines are shown. ↑/↓
//! pick a row, ←/→ (or Space) change it, Delete or Backspace turns that filter off, `c` turns
//! every filter off, Enter or Esc closes. A change applies at once (the view behind the panel
//! follows), as [`Action::SetFilters`]; the time row opens the time prompt.

use super::prompt::range_text;
use super::{Outcome, Popup, PopupCx, PopupDrawCx, centred, draw_box};
use crate::tui::action::{Action, Edit};
use crate::tui::text::clip;
use crate::tui::theme::{Chrome, chrome};
use crate::workbench::filter::FilterMode;
use crate::workbench::filters::{Filters, Level, SourceRule};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The rows before the logs'.
const FIXED_ROWS: usize = 4;

/// The panel: the filters as they are being set, and what they can be set to.
#[derive(Debug, Clone)]
pub struct FilterPanel {
    /// The filters besides the pattern's.
    pub filters: Filters,
    /// The pattern's line filter.
    pub matched: FilterMode,
    /// The logs of a merged input, by tag (empty for one log).
    pub tags: Vec<String>,
    /// The preset keys (the lens's).
    pub keys: Vec<String>,
    /// The row picked.
    pub row: usize,
}

impl FilterPanel {
    /// A panel over the filters as they are.
    pub fn new(
        filters: Filters,
        matched: FilterMode,
        tags: Vec<String>,
        keys: Vec<String>,
    ) -> FilterPanel {
        FilterPanel {
            filters,
            matched,
            tags,
            keys,
            row: 0,
        }
    }

    fn rows(&self) -> usize {
        FIXED_ROWS + self.tags.len()
    }

    /// Whether log `k`'s lines are shown.
    fn log_shown(&self, k: usize) -> bool {
        self.filters
            .sources
            .as_ref()
            .is_none_or(|r| r.keeps(Some(k)))
    }

    /// Changes the picked row's filter one step (`forward` or back).
    pub fn step(&mut self, forward: bool) {
        match self.row {
            0 => {
                self.matched = match (self.matched, forward) {
                    (FilterMode::Off, true) | (FilterMode::NonMatching, false) => {
                        FilterMode::Matching
                    }
                    (FilterMode::Matching, true) | (FilterMode::Off, false) => {
                        FilterMode::NonMatching
                    }
                    _ => FilterMode::Off,
                }
            }
            1 => {
                let all = Level::ALL;
                let at = self
                    .filters
                    .level
                    .and_then(|l| all.iter().position(|&x| x == l));
                self.filters.level = match (at, forward) {
                    (None, true) => Some(all[0]),
                    (None, false) => Some(all[all.len() - 1]),
                    (Some(i), true) => all.get(i + 1).copied(),
                    (Some(0), false) => None,
                    (Some(i), false) => Some(all[i - 1]),
                };
            }
            2 => {}
            3 => {
                let at = self
                    .filters
                    .preset
                    .as_ref()
                    .and_then(|k| self.keys.iter().position(|x| x == k));
                let n = self.keys.len();
                self.filters.preset = match (at, forward) {
                    _ if n == 0 => None,
                    (None, true) => Some(0),
                    (None, false) => Some(n - 1),
                    (Some(i), true) => (i + 1 < n).then_some(i + 1),
                    (Some(i), false) => i.checked_sub(1),
                }
                .map(|i| self.keys[i].clone());
            }
            r => self.toggle_log(r - FIXED_ROWS),
        }
    }

    /// Shows or hides log `k`'s lines.
    pub fn toggle_log(&mut self, k: usize) {
        // Hiding a log adds it to the hidden ones; under "only", it leaves the shown ones.
        self.filters.sources = match self.filters.sources.take() {
            None => Some(SourceRule::Hide(vec![k])),
            // The last shown log hidden: no log is shown (not every log again).
            Some(SourceRule::Only(v)) => Some(
                SourceRule::Only(v)
                    .toggled(k)
                    .unwrap_or(SourceRule::Only(Vec::new())),
            ),
            Some(rule) => rule.toggled(k),
        };
        // Every log hidden is no view: it is every log but none shown, said as "only".
        if let Some(SourceRule::Hide(v)) = &self.filters.sources
            && v.len() == self.tags.len()
        {
            self.filters.sources = Some(SourceRule::Only(Vec::new()));
        }
        if matches!(&self.filters.sources, Some(SourceRule::Only(v)) if v.len() == self.tags.len())
        {
            self.filters.sources = None;
        }
    }

    /// Turns the picked row's filter off.
    pub fn remove(&mut self) {
        match self.row {
            0 => self.matched = FilterMode::Off,
            1 => self.filters.level = None,
            2 => self.filters.time = None,
            3 => self.filters.preset = None,
            _ => self.filters.sources = None,
        }
    }

    fn apply(&self, cx: &mut PopupCx) {
        *cx.then = Some(Action::SetFilters(
            Box::new(self.filters.clone()),
            self.matched,
        ));
    }

    fn value(&self, row: usize) -> (String, bool) {
        match row {
            0 => match self.matched {
                FilterMode::Off => ("off".into(), false),
                FilterMode::Matching => ("lines with a match".into(), true),
                FilterMode::NonMatching => ("lines without a match".into(), true),
            },
            1 => match self.filters.level {
                None => ("off".into(), false),
                Some(l) => (format!("{} and worse", l.name()), true),
            },
            2 => match &self.filters.time {
                None => ("off (Enter to set)".into(), false),
                Some(r) => (range_text(r), true),
            },
            3 => match &self.filters.preset {
                None if self.keys.is_empty() => ("no preset keys".into(), false),
                None => ("off".into(), false),
                Some(k) => (format!("records with a {k} hit"), true),
            },
            r => {
                let shown = self.log_shown(r - FIXED_ROWS);
                (
                    if shown { "[x] shown" } else { "[ ] hidden" }.into(),
                    !shown,
                )
            }
        }
    }
}

impl Popup for FilterPanel {
    fn update(&mut self, action: &Action, cx: &mut PopupCx) -> Outcome {
        match action {
            Action::Back | Action::Filters => return Outcome::Close,
            Action::Edit(Edit::Newline) | Action::Activate if self.row == 2 => {
                *cx.then = Some(Action::AskTimeRange);
                return Outcome::Close;
            }
            Action::Edit(Edit::Newline) | Action::Activate => return Outcome::Close,
            Action::Edit(Edit::Up) => self.row = self.row.saturating_sub(1),
            Action::Edit(Edit::Down) => self.row = (self.row + 1).min(self.rows() - 1),
            Action::Edit(Edit::Right | Edit::Insert(' ')) => {
                self.step(true);
                self.apply(cx);
            }
            Action::Edit(Edit::Left) => {
                self.step(false);
                self.apply(cx);
            }
            Action::Edit(Edit::Backspace | Edit::Delete) => {
                self.remove();
                self.apply(cx);
            }
            Action::Edit(Edit::Insert('o')) if self.row >= FIXED_ROWS => {
                self.filters.sources = Some(SourceRule::Only(vec![self.row - FIXED_ROWS]));
                self.apply(cx);
            }
            Action::Edit(Edit::Insert('c')) => {
                self.filters = Filters::default();
                self.matched = FilterMode::Off;
                self.apply(cx);
            }
            _ => {}
        }
        Outcome::Stay
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx) {
        let p = cx.palette;
        let width = area.width.saturating_sub(4).min(80);
        let inner_w = width.saturating_sub(2) as usize;
        let hint =
            "↑↓ pick · ←→ Space change · Del off · c all off · o only this log · Enter/Esc close";
        let hints = crate::tui::text::wrap(hint, inner_w.max(1));
        // Logs past the screen scroll with the pick.
        let room = (area.height as usize).saturating_sub(4 + FIXED_ROWS + hints.len() + 1);
        let logs_shown = self.tags.len().min(room.max(1));
        let height =
            (FIXED_ROWS + logs_shown + usize::from(!self.tags.is_empty()) + hints.len() + 3) as u16;
        let r = centred(area, width, height);
        let active = usize::from(self.matched != FilterMode::Off)
            + usize::from(self.filters.level.is_some())
            + usize::from(self.filters.time.is_some())
            + usize::from(self.filters.preset.is_some())
            + usize::from(self.filters.sources.is_some());
        let names = ["pattern", "level", "time", "preset"];
        let mut lines = Vec::new();
        let row = |i: usize, name: String, lines: &mut Vec<Line>| {
            let (value, on) = self.value(i);
            let mark = if on { "●" } else { "○" };
            let text = clip(&format!("{mark} {name:<12} {value}"), inner_w);
            let st = if i == self.row {
                chrome(Chrome::Selected, p)
            } else if on {
                Style::new()
            } else {
                chrome(Chrome::Dim, p)
            };
            lines.push(Line::from(Span::styled(text, st)));
        };
        for (i, name) in names.iter().enumerate() {
            row(i, (*name).to_string(), &mut lines);
        }
        if !self.tags.is_empty() {
            lines.push(Line::from(Span::styled(
                format!("logs ({}):", self.tags.len()),
                chrome(Chrome::Dim, p),
            )));
            let picked = self.row.saturating_sub(FIXED_ROWS);
            let first = (picked + 1).saturating_sub(logs_shown);
            for (k, tag) in self.tags.iter().enumerate().skip(first).take(logs_shown) {
                row(FIXED_ROWS + k, tag.clone(), &mut lines);
            }
        }
        lines.push(Line::default());
        for h in hints {
            lines.push(Line::from(Span::styled(h, chrome(Chrome::Dim, p))));
        }
        let title = format!(" Filters: {active} on, all must hold ");
        draw_box(f, r, &title, Paragraph::new(lines), p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel() -> FilterPanel {
        FilterPanel::new(
            Filters::default(),
            FilterMode::Off,
            vec!["a".into(), "b".into(), "c".into()],
            vec!["result".into(), "work_order".into()],
        )
    }

    #[test]
    fn logs_are_hidden_one_by_one_and_all_hidden_shows_none() {
        let mut p = panel();
        p.toggle_log(1);
        assert_eq!(p.filters.sources, Some(SourceRule::Hide(vec![1])));
        p.toggle_log(0);
        p.toggle_log(2);
        assert_eq!(p.filters.sources, Some(SourceRule::Only(vec![])));
        p.toggle_log(2);
        assert_eq!(p.filters.sources, Some(SourceRule::Only(vec![2])));
        p.toggle_log(0);
        p.toggle_log(1);
        assert_eq!(p.filters.sources, None, "every log shown is no filter");
    }

    #[test]
    fn each_row_steps_and_is_removed_alone() {
        let mut p = panel();
        p.step(true);
        p.row = 1;
        p.step(true);
        p.step(true);
        p.row = 3;
        p.step(true);
        assert_eq!(p.matched, FilterMode::Matching);
        assert_eq!(p.filters.level, Some(Level::Debug));
        assert_eq!(p.filters.preset.as_deref(), Some("result"));
        p.row = 1;
        p.remove();
        assert_eq!(p.filters.level, None);
        assert_eq!(p.matched, FilterMode::Matching, "the others stay");
        assert_eq!(p.filters.preset.as_deref(), Some("result"));
        p.row = 3;
        p.step(true);
        p.step(true);
        assert_eq!(p.filters.preset, None, "after the last key: off");
    }
}
