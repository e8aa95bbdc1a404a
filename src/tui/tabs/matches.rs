//! The Matches tab: every match of the full scan as index, line:column and text (only the
//! rows on screen are formatted). Enter or a click on a row jumps there in the input. With
//! filters on, the list is the matches on the lines they show, numbered as in the whole
//! scan, and its header says how many of how many.

use super::{DrawCx, Handled, Request, Tab, TabCx, TabEvent, TabId};
use crate::highlight::Kind;
use crate::tui::action::Action;
use crate::tui::text::clip;
use crate::tui::theme::{Chrome, chrome, style};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The tab's identity.
pub const ID: TabId = TabId("matches");

/// The match list.
#[derive(Debug, Default)]
pub struct MatchesTab {
    /// First row of the list on screen.
    pub top: usize,
}

impl Tab for MatchesTab {
    super::face!("Matches");

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        super::list_keys(action, cx)
    }

    fn on_event(&mut self, event: TabEvent, cx: &mut TabCx) {
        match event {
            TabEvent::SelectionReset => self.top = 0,
            TabEvent::SelectionMoved => {
                // Keep the current match's row on screen.
                let rows = cx.body_rows().saturating_sub(1).max(1);
                let at = place(cx.shown_matches, cx.selected);
                if at < self.top {
                    self.top = at;
                } else if at >= self.top + rows {
                    self.top = at + 1 - rows;
                }
            }
            _ => {}
        }
    }

    fn click(&mut self, _col: u16, row: u16, cx: &mut TabCx) -> Handled {
        let row = row as usize;
        if row >= 1 {
            let j = self.top + row - 1;
            let i = match cx.shown_matches {
                Some(s) => s.get(j).map(|&i| i as usize),
                None => (j < cx.wb.results.spans.len()).then_some(j),
            };
            if let Some(i) = i {
                cx.request(Request::SelectMatch(i));
            }
        }
        Handled::Consumed
    }

    fn wheel(&mut self, delta: i32, cx: &mut TabCx) -> Handled {
        let n = cx
            .shown_matches
            .map_or(cx.wb.results.spans.len(), <[u32]>::len);
        self.top =
            (self.top as i64 + delta as i64 * 3).clamp(0, n.saturating_sub(1) as i64) as usize;
        Handled::Consumed
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let p = cx.palette;
        let r = &cx.wb.results;
        let input = &cx.wb.input;
        let all = r.spans.len();
        let list = cx.shown_matches;
        let n = list.map_or(all, <[u32]>::len);
        let idx_w = all.max(1).to_string().len().max(3);
        let rows = (area.height as usize).saturating_sub(1);
        let top = self.top.min(n.saturating_sub(1));
        let shown: Vec<usize> = (top..(top + rows).min(n))
            .map(|j| list.map_or(j, |l| l[j] as usize))
            .collect();
        // A merged input names each match's log and its line there (`b.log:12:3`): the
        // column is as wide as the widest name on screen.
        // Columns count in the flavor's unit, as its engine reports positions (Python code
        // points, JavaScript UTF-16 units, Rust and Go bytes).
        let unit = cx.wb.flavor.offset_unit();
        let locs: Vec<String> = shown
            .iter()
            .map(|&i| {
                let at = r.spans[i].0.min(input.len());
                let (line, _) = input.position_of(at);
                let start = input.line_start(line).min(at);
                let col = unit.count(&input.shared().read(start..at));
                format!("{}:{}", cx.line_name(line), col + 1)
            })
            .collect();
        let loc_w = locs
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
            .max(10);
        let filtered = match list {
            Some(l) => format!(
                " · {} of {} on the filtered lines",
                crate::tui::text::thousands(l.len() as u64),
                crate::tui::text::thousands(all as u64)
            ),
            None => String::new(),
        };
        let mut lines = vec![Line::from(Span::styled(
            format!(
                "{:>idx_w$}  {:<loc_w$} text (columns in {}){filtered}",
                "#",
                "line:col",
                unit.name()
            ),
            chrome(Chrome::Dim, p),
        ))];
        for (i, loc) in shown.into_iter().zip(locs) {
            let (s, e) = r.spans[i];
            let prefix = format!("{:>idx_w$}  {:<loc_w$} ", i + 1, loc);
            let room = (area.width as usize).saturating_sub(prefix.chars().count());
            // Spans can be a scan behind the text (an edit just shortened it): clamp both ends.
            let len = input.len();
            let s = s.min(len);
            let end = e.min(s + 4 * room.max(1) + 4).min(len).max(s);
            let text = clip(&input.shared().read(s..end), room);
            let text = if s == e { "(empty)".to_string() } else { text };
            let mut line = Line::from(vec![
                Span::styled(prefix, style(Kind::Location, p)),
                Span::styled(text, style(Kind::Match, p)),
            ]);
            if i == cx.selected {
                line = line.style(chrome(Chrome::Selected, p));
                if cx.focused {
                    line.spans[0].content = format!("▶{}", &line.spans[0].content[1..]).into();
                }
            }
            lines.push(line);
        }
        if n == 0 {
            let msg = if cx.wb.stale() {
                "the pattern is invalid; fix it to see matches"
            } else if list.is_some() && all > 0 {
                "no match on the lines the filters show (Alt-k to change them)"
            } else if cx.wb.stale() {
                "the pattern is invalid; fix it to see matches"
            } else if cx.wb.count_final() {
                "no matches"
            } else {
                "counting…"
            };
            lines.push(Line::from(Span::styled(msg, chrome(Chrome::Dim, p))));
        } else if list.is_none() && r.count > n && top + rows >= n {
            lines.push(Line::from(Span::styled(
                format!("… {} more not listed", r.count - n),
                chrome(Chrome::Dim, p),
            )));
        }
        f.render_widget(Paragraph::new(lines), area);
    }
}

/// The place of match `selected` in the list: itself, or its place among the shown ones.
fn place(shown: Option<&[u32]>, selected: usize) -> usize {
    match shown {
        Some(s) => s.partition_point(|&i| (i as usize) < selected),
        None => selected,
    }
}
