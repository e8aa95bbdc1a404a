//! The operator's one-line prompts: the time range of the lines shown (Alt-r) and where to go
//! (Alt-o: a line, a time, or a bookmark picked from the list under the field).
//!
//! The text is read by the core's time parser ([`crate::input::time_range::parse_time`]), the
//! one `--since` / `--until` use: an ISO-8601 instant or date, or a time relative to the end
//! of the log (`-15m`, `-1h30m`). A relative time counts back from the log's last stamp rather
//! than from the clock, so `-15m` is the last quarter of an hour of a log captured last week
//! as much as of one being followed. What cannot be read keeps the prompt open with the
//! reason under the field; nothing is changed until Enter reads.

use super::{Outcome, Popup, PopupCx, PopupDrawCx, centred, draw_box, field, field_cursor};
use crate::input::time_range::{TimeRange, parse_time};
use crate::input::timestamp::format_utc;
use crate::tui::action::{Action, Edit, GoTarget, apply_line};
use crate::tui::text::clip;
use crate::tui::theme::{Chrome, chrome};
use crate::workbench::LineEditor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// What the prompt asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// The time range filter.
    TimeRange,
    /// A place to go to: a line number, a time, or one of these bookmarks (line from 0, its
    /// text).
    GoTo {
        /// The bookmarks, in line order.
        bookmarks: Vec<(usize, String)>,
        /// The bookmark picked with ↑/↓, if any.
        picked: Option<usize>,
    },
}

/// A one-line prompt over the panes.
#[derive(Debug, Clone)]
pub struct Prompt {
    /// What is asked.
    pub asked: Asked,
    /// The text typed.
    pub text: LineEditor,
    /// The input's lines (a line number past them is refused).
    pub lines: usize,
    /// The instant relative times count back from: the log's last stamp, else the clock.
    pub end: i64,
    /// Why the last Enter was refused.
    pub error: Option<String>,
}

impl Prompt {
    /// The time range prompt, offering `current` as text.
    pub fn time_range(current: Option<TimeRange>, end: i64) -> Prompt {
        let text = current.map(|r| range_text(&r)).unwrap_or_default();
        Prompt {
            asked: Asked::TimeRange,
            text: LineEditor::new(&text),
            lines: 0,
            end,
            error: None,
        }
    }

    /// The go-to prompt over an input of `lines` lines with `bookmarks`.
    pub fn go_to(lines: usize, end: i64, bookmarks: Vec<(usize, String)>) -> Prompt {
        Prompt {
            asked: Asked::GoTo {
                bookmarks,
                picked: None,
            },
            text: LineEditor::new(""),
            lines,
            end,
            error: None,
        }
    }

    /// What Enter does with the text as typed, or why it cannot.
    pub fn answer(&self) -> Result<Action, String> {
        let text = self.text.text().trim();
        match &self.asked {
            Asked::TimeRange => read_range(text, self.end).map(Action::SetTimeRange),
            Asked::GoTo { bookmarks, picked } => {
                if text.is_empty() {
                    return match picked.and_then(|i| bookmarks.get(i)) {
                        Some(&(line, _)) => Ok(Action::GoTo(GoTarget::Line(line))),
                        None => {
                            Err("type a line number or a time, or pick a bookmark with ↑/↓".into())
                        }
                    };
                }
                read_place(text, self.lines, self.end).map(Action::GoTo)
            }
        }
    }
}

/// The range as the prompt shows it: `FROM..TO`, an open edge left empty.
pub fn range_text(r: &TimeRange) -> String {
    format!(
        "{}..{}",
        r.since().map(format_utc).unwrap_or_default(),
        r.until().map(format_utc).unwrap_or_default()
    )
}

/// Reads a time range: `FROM..TO`, `FROM..`, `..TO`, or `FROM` alone (from then on); empty
/// is every time (`None`). Relative times count back from `end`.
///
/// # Errors
/// An edge that is not a time, or an end not after the start, in words.
pub fn read_range(text: &str, end: i64) -> Result<Option<TimeRange>, String> {
    let text = text.trim();
    if text.is_empty() || text == ".." {
        return Ok(None);
    }
    let (from, to) = match text.split_once("..") {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (text, ""),
    };
    let edge = |t: &str, which: &str| -> Result<Option<i64>, String> {
        if t.is_empty() {
            return Ok(None);
        }
        parse_time(t, end)
            .map(Some)
            .map_err(|e| format!("{which} {t:?}: {}", e.message))
    };
    let (since, until) = (edge(from, "from")?, edge(to, "to")?);
    if let (Some(s), Some(u)) = (since, until)
        && u <= s
    {
        return Err(format!(
            "the range is empty: {} is not after {}",
            format_utc(u),
            format_utc(s)
        ));
    }
    TimeRange::new(since, until)
        .map(Some)
        .map_err(|e| e.message)
}

/// Reads a place to go to: a line number (from 1) of the `lines` there are, or a time.
///
/// # Errors
/// A line number of 0 or past the end, or text that is neither a number nor a time.
pub fn read_place(text: &str, lines: usize, end: i64) -> Result<GoTarget, String> {
    let text = text.trim();
    if let Ok(n) = text.parse::<u64>() {
        if n == 0 || n > lines as u64 {
            return Err(format!(
                "line {n} is not in the input: it has lines 1 to {lines}"
            ));
        }
        return Ok(GoTarget::Line(n as usize - 1));
    }
    parse_time(text, end)
        .map(GoTarget::Time)
        .map_err(|e| format!("neither a line number nor a time: {}", e.message))
}

impl Popup for Prompt {
    fn update(&mut self, action: &Action, cx: &mut PopupCx) -> Outcome {
        match action {
            Action::Back => return Outcome::Close,
            Action::Edit(Edit::Newline) | Action::Activate => match self.answer() {
                Ok(a) => {
                    *cx.then = Some(a);
                    return Outcome::Close;
                }
                Err(e) => self.error = Some(e),
            },
            Action::Edit(e @ (Edit::Up | Edit::Down)) => {
                if let Asked::GoTo { bookmarks, picked } = &mut self.asked
                    && !bookmarks.is_empty()
                {
                    let last = bookmarks.len() - 1;
                    *picked = Some(match (*picked, e) {
                        (None, Edit::Down) => 0,
                        (None, _) => last,
                        (Some(i), Edit::Down) => (i + 1).min(last),
                        (Some(i), _) => i.saturating_sub(1),
                    });
                    self.text.set("");
                }
            }
            Action::Edit(e) => {
                apply_line(&mut self.text, e);
                self.error = None;
                if let Asked::GoTo { picked, .. } = &mut self.asked {
                    *picked = None;
                }
            }
            _ => {}
        }
        Outcome::Stay
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx) {
        let p = cx.palette;
        let (title, label, hint) = match &self.asked {
            Asked::TimeRange => (
                " Time range of the lines shown ",
                "range: ",
                "FROM..TO, FROM.., ..TO: 2026-10-05T10:00, 2026-10-05, -15m (from the log's end) · empty: every time · Enter sets · Esc",
            ),
            Asked::GoTo { .. } => (
                " Go to ",
                "line or time: ",
                "a line number, a time (2026-10-05T10:00, -1h from the log's end), or ↑/↓ a bookmark · Enter goes · Esc",
            ),
        };
        let bookmarks: &[(usize, String)] = match &self.asked {
            Asked::GoTo { bookmarks, .. } => bookmarks,
            Asked::TimeRange => &[],
        };
        let width = area.width.saturating_sub(4).min(90);
        let inner_w = width.saturating_sub(2) as usize;
        let list_rows = bookmarks.len().min(8);
        let hint_lines = crate::tui::text::wrap(hint, inner_w.max(1));
        let height = (3 + hint_lines.len() + list_rows + usize::from(!bookmarks.is_empty())) as u16;
        let r = centred(area, width, height + 1);
        let mut lines = vec![field(label, &self.text, p)];
        lines.push(match &self.error {
            Some(e) => Line::from(Span::styled(clip(e, inner_w), chrome(Chrome::Error, p))),
            None => Line::default(),
        });
        if !bookmarks.is_empty() {
            lines.push(Line::from(Span::styled(
                format!("bookmarks ({}):", bookmarks.len()),
                chrome(Chrome::Dim, p),
            )));
            let picked = match &self.asked {
                Asked::GoTo { picked, .. } => *picked,
                Asked::TimeRange => None,
            };
            let first = picked.map_or(0, |i| (i + 1).saturating_sub(list_rows));
            for (i, (line, text)) in bookmarks.iter().enumerate().skip(first).take(list_rows) {
                let row = clip(&format!("{:>7}  {text}", line + 1), inner_w);
                let st = if picked == Some(i) {
                    chrome(Chrome::Selected, p)
                } else {
                    ratatui::style::Style::new()
                };
                lines.push(Line::from(Span::styled(row, st)));
            }
        }
        for h in hint_lines {
            lines.push(Line::from(Span::styled(h, chrome(Chrome::Dim, p))));
        }
        draw_box(f, r, title, Paragraph::new(lines), p);
        field_cursor(f, r, 0, label, &self.text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const END: i64 = 1_791_159_600_000; // 2026-10-05T00:20:00Z

    #[test]
    fn ranges_read_both_edges_one_edge_or_none() {
        let r = read_range("2026-10-05T00:10..2026-10-05T00:15", END)
            .unwrap()
            .unwrap();
        assert_eq!(range_text(&r), "2026-10-05T00:10:00Z..2026-10-05T00:15:00Z");
        let r = read_range("-15m", END).unwrap().unwrap();
        assert_eq!(r.since(), Some(END - 15 * 60_000));
        assert_eq!(r.until(), None);
        let r = read_range("..-5m", END).unwrap().unwrap();
        assert_eq!((r.since(), r.until()), (None, Some(END - 5 * 60_000)));
        assert_eq!(read_range("  ", END).unwrap(), None);
    }

    #[test]
    fn a_bad_range_says_why() {
        let e = read_range("yesterday", END).unwrap_err();
        assert!(e.starts_with("from \"yesterday\""), "{e}");
        let e = read_range("-5m..-15m", END).unwrap_err();
        assert!(e.contains("is not after"), "{e}");
    }

    #[test]
    fn places_are_line_numbers_in_the_input_or_times() {
        assert_eq!(read_place("3", 10, END), Ok(GoTarget::Line(2)));
        assert_eq!(read_place("-1m", 10, END), Ok(GoTarget::Time(END - 60_000)));
        let e = read_place("11", 10, END).unwrap_err();
        assert_eq!(e, "line 11 is not in the input: it has lines 1 to 10");
        assert!(read_place("0", 10, END).is_err());
        assert!(read_place("soon", 10, END).unwrap_err().contains("neither"));
    }

    #[test]
    fn enter_on_an_empty_go_to_takes_the_picked_bookmark() {
        let mut p = Prompt::go_to(10, END, vec![(4, "four".into()), (8, "eight".into())]);
        assert!(p.answer().is_err());
        if let Asked::GoTo { picked, .. } = &mut p.asked {
            *picked = Some(1);
        }
        assert_eq!(p.answer(), Ok(Action::GoTo(GoTarget::Line(8))));
    }
}
