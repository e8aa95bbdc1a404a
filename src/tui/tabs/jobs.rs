//! The Jobs tab: one row per job id across the log, the table of `rxw jobs` built by the same
//! tracker on a worker ([`crate::workbench::jobs_view`]): status, first line, claim to
//! resolution, the flags `unresolved` / `resolved-twice`, the events. `s` changes the order
//! (first seen, job, status, duration); Enter jumps to the selected job's lines in turn.

use super::{DrawCx, Handled, Request, Tab, TabCommand, TabCx, TabEvent, TabId};
use crate::operator::job_table::JobRow;
use crate::operator::jobs::Status;
use crate::tui::action::{Action, Binding, Context::List, Edit, KeySpec::Key, NONE};
use crate::tui::text::clip;
use crate::tui::text::thousands;
use crate::tui::theme::{Chrome, Palette, chrome};
use crate::workbench::jobs_view::{JobsState, JobsView};
use crossterm::event::KeyCode as K;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// The tab's identity.
pub const ID: TabId = TabId("jobs");

/// The next sort order.
pub const SORT: TabCommand = ID.command("sort");

static KEYS: &[Binding] = &[List.hint(
    Action::Tab(SORT),
    "Jobs: next order (first seen, job, status, duration)",
    &[Key(K::Char('s'), NONE)],
)];

/// The Jobs tab (the table and its selection are the workbench's).
#[derive(Debug, Default)]
pub struct JobsTab;

impl Tab for JobsTab {
    super::face!("Jobs", KEYS);

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        let page = cx.body_rows().saturating_sub(3) as isize;
        let jobs = &mut cx.wb.jobs;
        match action {
            Action::Tab(cmd) if *cmd == SORT => {
                jobs.cycle_sort();
                let msg = format!("jobs sorted by {}", jobs.sort_key().name());
                cx.message(msg);
            }
            Action::Activate => match next_shown_jump(cx) {
                Some(jump) => {
                    let id = cx.wb.jobs.selected_job().map(|j| j.id).unwrap_or_default();
                    let line = jump.line.min(cx.wb.input.line_count());
                    let at = cx.wb.input.line_start(line);
                    cx.request(Request::JumpTo(at));
                    let place = cx.line_place(line);
                    let gave_up = if jump.gave_up {
                        format!(
                            " · its next event is more than {} MiB on: back to the first",
                            crate::workbench::jobs_view::JUMP_SEARCH_BYTES >> 20
                        )
                    } else {
                        String::new()
                    };
                    let passed = match jump.passed {
                        // Every event of the job is on a hidden line: the first is shown.
                        _ if !super::line_shown(cx.shown_lines, &cx.wb.filter, line) => {
                            " · on a line the filters hide (Alt-k)".to_string()
                        }
                        0 => String::new(),
                        1 => " · 1 event on a line the filters hide passed".to_string(),
                        p => format!(
                            " · {} events on lines the filters hide passed",
                            thousands(p as u64)
                        ),
                    };
                    cx.message(format!(
                        "job {id}: event {} of {} ({} on {place}){}{passed}{gave_up}",
                        thousands(jump.k),
                        thousands(jump.n),
                        jump.tag.name(),
                        if jump.n > 1 && !jump.gave_up {
                            " · Enter: the next"
                        } else {
                            ""
                        }
                    ));
                }
                None => cx.message("no job selected"),
            },
            Action::Edit(Edit::Up) => jobs.move_by(-1),
            Action::Edit(Edit::Down) => jobs.move_by(1),
            Action::Edit(Edit::PageUp) => jobs.move_by(-page),
            Action::Edit(Edit::PageDown) => jobs.move_by(page),
            Action::Edit(Edit::Home) => jobs.move_by(isize::MIN / 2),
            Action::Edit(Edit::End) => jobs.move_by(isize::MAX / 2),
            _ => return Handled::NotConsumed,
        }
        Handled::Consumed
    }

    fn on_event(&mut self, event: TabEvent, cx: &mut TabCx) {
        if event == TabEvent::Shown && !cx.wb.jobs.is_active() {
            cx.wb.jobs.activate(&cx.wb.input);
        }
    }

    fn click(&mut self, _col: u16, row: u16, cx: &mut TabCx) -> Handled {
        if row >= 2 {
            let rows = (cx.body.height as usize).saturating_sub(2);
            let r = top(cx.wb.jobs.selected, rows) + row as usize - 2;
            if r < cx.wb.jobs.len() {
                let d = r as isize - cx.wb.jobs.selected as isize;
                cx.wb.jobs.move_by(d);
            }
        }
        Handled::Consumed
    }

    fn wheel(&mut self, delta: i32, cx: &mut TabCx) -> Handled {
        cx.wb.jobs.move_by(delta as isize * 3);
        Handled::Consumed
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        f.render_widget(
            JobsPane {
                view: &cx.wb.jobs,
                focused: cx.focused,
                palette: cx.palette,
                input_len: cx.wb.input.len(),
                sources: cx.sources,
            },
            area,
        );
    }
}

/// The Jobs tab as a widget over the jobs view.
pub struct JobsPane<'a> {
    /// The view.
    pub view: &'a JobsView,
    /// Whether the results pane has the keys.
    pub focused: bool,
    /// Colours.
    pub palette: Palette,
    /// The input's length (for the reading progress).
    pub input_len: usize,
    /// For logs merged into one input: which log each line comes from.
    pub sources: Option<&'a crate::tui::gutter::SourceGutter>,
}

/// First row on screen for `rows` rows of jobs.
pub fn top(selected: usize, rows: usize) -> usize {
    (selected + 1).saturating_sub(rows.max(1))
}

fn status_style(status: Status, p: Palette) -> Style {
    match status {
        Status::Result("FAIL" | "ERROR") => chrome(Chrome::Fail, p),
        Status::Result("OK" | "SUCCESS") => chrome(Chrome::Pass, p),
        Status::Claimed => Style::new(),
        _ => chrome(Chrome::Dim, p),
    }
}

impl Widget for JobsPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let p = self.palette;
        let view = self.view;
        let table = view.table();
        let jobs = table.jobs();
        let state = match view.state() {
            JobsState::Idle => String::new(),
            JobsState::Reading(at) => format!(
                " · reading… {}%",
                crate::progress::percent_running(at as u64, self.input_len as u64)
            ),
            JobsState::Done => String::new(),
            JobsState::Stopped(at) => format!(
                " · stopped at {}%",
                crate::progress::percent(at as u64, self.input_len as u64)
            ),
        };
        let flagged = view.flagged();
        let of = if table.filtered() {
            " on the lines the filters show"
        } else {
            ""
        };
        let mut lines = vec![Line::from(Span::styled(
            format!(
                "{} jobs{of} · {} flagged · sorted by {} (s: next order){state}",
                thousands(view.len() as u64),
                thousands(flagged as u64),
                view.sort_key().name()
            ),
            chrome(Chrome::Dim, p),
        ))];
        let rows = (area.height as usize).saturating_sub(2);
        let first = top(view.selected, rows);
        let shown: Vec<(usize, JobRow)> = view
            .rows_in(first..first + rows)
            .iter()
            .enumerate()
            .filter(|&(_, &i)| i < jobs.len())
            .map(|(n, &i)| (first + n, jobs.row(i)))
            .collect();
        // The first line of a job of merged logs is named by its log and its line there.
        let rows_cells: Vec<[String; 5]> = shown
            .iter()
            .map(|(_, j)| {
                let mut cells = j.table_cells();
                if self.sources.is_some() {
                    cells[2] =
                        super::line_name(self.sources, j.first().1.saturating_sub(1) as usize);
                }
                cells
            })
            .collect();
        let header = ["JOB", "STATUS", "LINE", "CLAIM→END", "FLAGS"];
        let mut widths = header.map(|h| h.chars().count());
        for r in &rows_cells {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        widths[0] = widths[0].min(24);
        let pad = |s: &str, w: usize, right: bool| {
            let s = clip(s, w);
            if right {
                format!("{s:>w$}  ")
            } else {
                format!("{s:<w$}  ")
            }
        };
        let used: usize = widths.iter().map(|w| w + 2).sum();
        let events_w = (area.width as usize).saturating_sub(used + 1);
        let mut head = String::from(" ");
        for (k, h) in header.iter().enumerate() {
            head.push_str(&pad(h, widths[k], k == 2 || k == 3));
        }
        head.push_str("EVENTS");
        lines.push(Line::from(Span::styled(head, chrome(Chrome::Dim, p))));
        for ((row, job), c) in shown.iter().zip(&rows_cells) {
            let marker = if *row == view.selected && self.focused {
                "▶"
            } else {
                " "
            };
            let mut line = Line::from(vec![
                Span::raw(marker),
                Span::raw(pad(&c[0], widths[0], false)),
                Span::styled(pad(&c[1], widths[1], false), status_style(job.status(), p)),
                Span::styled(pad(&c[2], widths[2], true), chrome(Chrome::Dim, p)),
                Span::raw(pad(&c[3], widths[3], true)),
                Span::styled(
                    pad(&c[4], widths[4], false),
                    if c[4].is_empty() {
                        Style::new()
                    } else {
                        chrome(Chrome::Fail, p)
                    },
                ),
                Span::raw(clip(&job.event_summary(), events_w)),
            ]);
            if *row == view.selected {
                line = line.style(chrome(Chrome::Selected, p));
            }
            lines.push(line);
        }
        if view.is_empty() {
            let why = match view.state() {
                JobsState::Reading(_) => "reading the input…",
                _ if self.input_len == 0 => "the input is empty: no jobs",
                _ => "no job tags ([WO:id], [ACK id], [CLAIM id], [RESULT id] …) in the input",
            };
            lines.push(Line::from(Span::styled(why, chrome(Chrome::Dim, p))));
        }
        drop(table);
        Paragraph::new(lines).render(area, buf);
    }
}

/// The selected job's next event on a line the filters show (`JobsView::next_jump`).
fn next_shown_jump(cx: &mut TabCx) -> Option<crate::workbench::jobs_view::Jump> {
    let lines = cx.shown_lines;
    let wb = &mut *cx.wb;
    let filter = &wb.filter;
    let shown = |line: usize| super::line_shown(lines, filter, line);
    wb.jobs.next_jump(&wb.input, &shown)
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::workbench::TextBuffer;
    use crate::workbench::matching::SharedWaker;
    use std::time::Duration;

    fn draw(view: &JobsView, input_len: usize, w: u16, h: u16) -> (Buffer, String) {
        draw_merged(view, input_len, w, h, None)
    }

    fn draw_merged(
        view: &JobsView,
        input_len: usize,
        w: u16,
        h: u16,
        sources: Option<&crate::tui::gutter::SourceGutter>,
    ) -> (Buffer, String) {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        JobsPane {
            view,
            focused: true,
            palette: Palette::Color,
            input_len,
            sources,
        }
        .render(area, &mut buf);
        let s = crate::tui::tabs::text_of(&buf);
        (buf, s)
    }

    /// Regression: of merged logs, the LINE column gave the merged line number, which names
    /// no line of any log; it names the log and the line there, as the Matches tab does.
    #[test]
    fn a_merged_inputs_jobs_name_their_first_line_by_log() {
        let log = "2026-10-05T00:00:00Z [CLAIM a1]\n\
                   2026-10-05T00:01:00Z [RESULT a1] OK\n\
                   2026-10-05T00:02:00Z noise\n\
                   2026-10-05T00:03:00Z [CLAIM b2]\n";
        let input = TextBuffer::new(log.to_string());
        let mut view = JobsView::new(SharedWaker::default());
        view.activate(&input);
        assert!(view.settle(&input, Duration::from_secs(10)));
        // Lines 1-2 are a.log's first two, lines 3-4 db.log's.
        let gutter = crate::tui::gutter::SourceGutter {
            revision: 0,
            tags: vec!["a".into(), "db".into()],
            runs: vec![(0, 0, 1), (2, 1, 1)],
            tag_width: 2,
            paged: None,
        };
        let (_, text) = draw_merged(&view, log.len(), 100, 6, Some(&gutter));
        assert!(text.contains("a1   OK        a:1"), "{text}");
        assert!(text.contains("b2   CLAIMED  db:2"), "{text}");
        let (_, text) = draw(&view, log.len(), 100, 6);
        assert!(text.contains("b2   CLAIMED     4"), "{text}");
    }

    #[test]
    fn rows_show_status_duration_flags_and_events() {
        let log = "2026-10-05T00:00:00Z [CLAIM a1]\n\
                   2026-10-05T00:01:45Z [RESULT a1] FAIL\n\
                   2026-10-05T00:02:00Z [RESULT a1] OK\n\
                   2026-10-05T00:03:00Z [CLAIM b2]\n";
        let input = TextBuffer::new(log.to_string());
        let mut view = JobsView::new(SharedWaker::default());
        view.activate(&input);
        assert!(view.settle(&input, Duration::from_secs(10)));
        let (buf, text) = draw(&view, log.len(), 100, 6);
        assert!(
            text.contains("2 jobs · 2 flagged · sorted by first"),
            "{text}"
        );
        assert!(
            text.contains("▶a1   OK          1      1m45s  resolved-twice  CLAIM RESULT×2"),
            "{text}"
        );
        assert!(
            text.contains(" b2   CLAIMED     4          -  unresolved      CLAIM"),
            "{text}"
        );
        // The failed-then-OK job is OK; a FAIL row would be red.
        let row = text.lines().position(|l| l.contains("b2")).unwrap() as u16;
        assert_eq!(buf[(1, row)].fg, ratatui::style::Color::Reset);
    }

    #[test]
    fn no_jobs_is_said() {
        let input = TextBuffer::new("plain text\n".to_string());
        let mut view = JobsView::new(SharedWaker::default());
        view.activate(&input);
        assert!(view.settle(&input, Duration::from_secs(10)));
        let (_, text) = draw(&view, 11, 90, 4);
        assert!(text.contains("0 jobs"), "{text}");
        assert!(text.contains("no job tags"), "{text}");
        let input = TextBuffer::new(String::new());
        let mut view = JobsView::new(SharedWaker::default());
        view.activate(&input);
        assert!(view.settle(&input, Duration::from_secs(10)));
        assert!(draw(&view, 0, 90, 4).1.contains("the input is empty"));
    }
}
