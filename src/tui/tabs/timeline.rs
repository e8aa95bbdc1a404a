//! The Timeline tab: matches per time bucket (from the lines' leading stamps, as `rxw
//! timeline`) of the pattern or of one lens key, computed on a worker
//! ([`crate::workbench::timeline_view`]), drawn as vertical bars, one column or a few per
//! bucket, so a spike stands out. ←/→ select a bucket, Enter jumps to its first line, `s`
//! counts the pattern, then each lens key in turn.

use super::{DrawCx, Handled, Request, Tab, TabCommand, TabCx, TabEvent, TabId};
use crate::highlight::Kind;
use crate::operator::timeline::{Timeline, width_label};
use crate::operator::timestamp::format_utc;
use crate::tui::action::{Action, Binding, Edit, KeySpec, bind};
use crate::tui::text::clip;
use crate::tui::text::thousands;
use crate::tui::theme::{Chrome, Palette, chrome, lens_key, style};
use crate::workbench::timeline_view::{TimelineSource, TimelineState, TimelineView};
use crossterm::event::{KeyCode as K, KeyModifiers};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// The tab's identity.
pub const ID: TabId = TabId("timeline");

/// Counts the next source: the pattern, then each lens key.
pub const SOURCE: TabCommand = ID.command("source");
/// The previous bucket.
pub const PREV: TabCommand = ID.command("prev-bucket");
/// The next bucket.
pub const NEXT: TabCommand = ID.command("next-bucket");

const NONE: KeyModifiers = KeyModifiers::NONE;

static KEYS: &[Binding] = &[
    bind!(
        Global,
        Action::ShowTab(ID),
        "Timeline tab",
        false,
        [KeySpec::Key(K::Char('l'), KeyModifiers::ALT)]
    ),
    bind!(
        List,
        Action::Tab(SOURCE),
        "Timeline: count the pattern, then each lens key",
        true,
        [KeySpec::Key(K::Char('s'), NONE)]
    ),
    bind!(
        List,
        Action::Tab(NEXT),
        "Timeline: next bucket (→ too; Enter jumps to its first line)",
        true,
        [KeySpec::Key(K::Char('l'), NONE)]
    ),
    bind!(
        List,
        Action::Tab(PREV),
        "Timeline: previous bucket (← too)",
        false,
        [KeySpec::Key(K::Char('h'), NONE)]
    ),
];

/// The Timeline tab (the timeline and its selection are the workbench's).
#[derive(Debug, Default)]
pub struct TimelineTab;

/// The next source after `now`: the pattern, then each of `keys`, then the pattern again.
pub fn next_source(now: &TimelineSource, keys: &[String]) -> TimelineSource {
    let next = match now {
        TimelineSource::Pattern => keys.first(),
        TimelineSource::Preset(k) => keys
            .iter()
            .position(|x| x == k)
            .and_then(|i| keys.get(i + 1)),
    };
    next.cloned()
        .map_or(TimelineSource::Pattern, TimelineSource::Preset)
}

impl Tab for TimelineTab {
    super::face!("Timeline", KEYS);

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        let t = &mut cx.wb.timeline;
        match action {
            Action::Tab(cmd) if *cmd == SOURCE => {
                let source = next_source(t.source(), cx.wb.lens.keys());
                let msg = match &source {
                    TimelineSource::Pattern => "timeline of the pattern".to_string(),
                    TimelineSource::Preset(k) => format!("timeline of lens key {k}"),
                };
                t.set_source(source);
                cx.wb.sync_views();
                cx.message(msg);
            }
            Action::Tab(cmd) if *cmd == PREV => t.move_by(-1),
            Action::Tab(cmd) if *cmd == NEXT => t.move_by(1),
            Action::Edit(Edit::Left | Edit::Up) => t.move_by(-1),
            Action::Edit(Edit::Right | Edit::Down) => t.move_by(1),
            Action::Edit(Edit::PageUp) => t.move_by(-10),
            Action::Edit(Edit::PageDown) => t.move_by(10),
            Action::Edit(Edit::Home) => t.move_by(isize::MIN / 2),
            Action::Edit(Edit::End) => t.move_by(isize::MAX / 2),
            Action::Activate => match t.selected_line() {
                Some(line) => {
                    let at = cx.wb.input.line_start(line.min(cx.wb.input.line_count()));
                    cx.request(Request::JumpTo(at));
                }
                None => cx.message("no line falls in this bucket"),
            },
            _ => return Handled::NotConsumed,
        }
        Handled::Consumed
    }

    fn on_event(&mut self, event: TabEvent, cx: &mut TabCx) {
        if event == TabEvent::Shown {
            cx.wb.timeline.activate();
            cx.wb
                .timeline
                .set_max_buckets(buckets_for_width(cx.body.width));
            cx.wb.sync_views();
        }
    }

    fn poll(&mut self, cx: &mut TabCx) -> bool {
        if !cx.wb.timeline.is_active() {
            return false;
        }
        // The chart's width decides the buckets (a resize asks for a new pass).
        cx.wb
            .timeline
            .set_max_buckets(buckets_for_width(cx.body.width));
        cx.wb.sync_views()
    }

    fn click(&mut self, col: u16, _row: u16, cx: &mut TabCx) -> Handled {
        if let Some(Ok(t)) = cx.wb.timeline.result() {
            let slot = slot_width(cx.body.width as usize, t.buckets.len());
            let i = col as usize / slot;
            if i < t.buckets.len() {
                cx.wb.timeline.select(i);
            }
        }
        Handled::Consumed
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let key_index = match cx.wb.timeline.source() {
            TimelineSource::Pattern => None,
            TimelineSource::Preset(key) => cx.wb.lens.keys().iter().position(|k| k == key),
        };
        f.render_widget(
            TimelinePane {
                view: &cx.wb.timeline,
                key_index,
                focused: cx.focused,
                palette: cx.palette,
                input_empty: cx.wb.input.is_empty(),
            },
            area,
        );
    }
}

/// The Timeline tab as a widget over the timeline view.
pub struct TimelinePane<'a> {
    /// The view.
    pub view: &'a TimelineView,
    /// The lens key's colour index, when a lens key is counted.
    pub key_index: Option<usize>,
    /// Whether the results pane has the keys.
    pub focused: bool,
    /// Colours.
    pub palette: Palette,
    /// Whether the input is empty.
    pub input_empty: bool,
}

/// Columns each bucket takes in a chart `width` wide holding `n` buckets (bar and gap).
pub fn slot_width(width: usize, n: usize) -> usize {
    (width / n.max(1)).clamp(1, 4)
}

/// How many buckets fit a chart `width` columns wide (what the view asks the timeline for).
pub fn buckets_for_width(width: u16) -> usize {
    (width as usize).saturating_sub(1).max(1)
}

const EIGHTHS: [&str; 9] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];

/// The bar of a bucket `count` high (of `max`) in a chart `height` rows tall: the glyph of
/// each row, top row first, in eighths of a row.
pub fn bar(count: usize, max: usize, height: usize) -> Vec<&'static str> {
    let eighths = if max == 0 {
        0
    } else {
        // At least a sliver for any bucket with a match, so one match is not invisible.
        ((count as u128 * height as u128 * 8).div_ceil(max as u128) as usize)
            .max(usize::from(count > 0))
    };
    (0..height)
        .map(|row| {
            let from_bottom = height - 1 - row;
            let filled = eighths.saturating_sub(from_bottom * 8).min(8);
            EIGHTHS[filled]
        })
        .collect()
}

impl TimelinePane<'_> {
    fn source_label(&self) -> String {
        match self.view.source() {
            TimelineSource::Pattern => "the pattern".to_string(),
            TimelineSource::Preset(key) => format!("lens key {key}"),
        }
    }

    fn chart(&self, t: &Timeline, area: Rect, buf: &mut Buffer) {
        let p = self.palette;
        let title = format!(
            "{} matches of {} · {} buckets of {}{} (s: next source)",
            thousands(t.matches as u64),
            self.source_label(),
            t.buckets.len(),
            width_label(t.width_ms),
            if t.untimed_matches > 0 {
                format!(
                    " · {} before the first stamp",
                    thousands(t.untimed_matches as u64)
                )
            } else {
                String::new()
            },
        );
        let mut lines = vec![Line::from(Span::styled(
            clip(&title, area.width as usize),
            chrome(Chrome::Dim, p),
        ))];
        if t.buckets.is_empty() {
            let why = if self.input_empty {
                "the input is empty: nothing to chart".to_string()
            } else {
                format!(
                    "no line starts with a timestamp (ISO-8601, e.g. 2026-10-05T00:01:48Z): no time axis for the {} matches",
                    thousands(t.matches as u64)
                )
            };
            lines.push(Line::from(Span::styled(why, chrome(Chrome::Dim, p))));
            Paragraph::new(lines).render(area, buf);
            return;
        }
        Paragraph::new(lines).render(Rect::new(area.x, area.y, area.width, 1), buf);
        let height = (area.height as usize).saturating_sub(3).max(1);
        let slot = slot_width(area.width as usize, t.buckets.len());
        let bar_w = if slot >= 2 { slot - 1 } else { 1 };
        let max = t.buckets.iter().map(|b| b.count).max().unwrap_or(0);
        let bar_style = match self.key_index {
            Some(k) => Style::new().fg(lens_key(k, p).bg.unwrap_or_default()),
            None => Style::new().fg(style(Kind::Match, p).bg.unwrap_or_default()),
        };
        let bar_style = if p == Palette::Mono {
            Style::new()
        } else {
            bar_style
        };
        for (i, b) in t.buckets.iter().enumerate() {
            let x0 = area.x as usize + i * slot;
            if x0 + bar_w > (area.x + area.width) as usize {
                break;
            }
            let selected = i == self.view.selected;
            for (row, glyph) in bar(b.count, max, height).into_iter().enumerate() {
                let y = area.y + 1 + row as u16;
                for dx in 0..bar_w {
                    let mut st = bar_style;
                    if selected {
                        // The selected bucket in white (black on a light background, reversed in
                        // monochrome), whatever its height.
                        st = st.patch(chrome(Chrome::Marked, p));
                    }
                    if let Some(cell) = buf.cell_mut(((x0 + dx) as u16, y)) {
                        cell.set_symbol(glyph).set_style(st);
                    }
                }
            }
        }
        // The axis: the first bucket's start and the last bucket's end.
        let axis_y = area.y + 1 + height as u16;
        let first = format_utc(t.buckets[0].start);
        let last = format_utc(t.buckets[t.buckets.len() - 1].end);
        let gap = (area.width as usize).saturating_sub(first.len() + last.len());
        Paragraph::new(Line::from(Span::styled(
            clip(
                &format!("{first}{}{last}", " ".repeat(gap)),
                area.width as usize,
            ),
            chrome(Chrome::Dim, p),
        )))
        .render(Rect::new(area.x, axis_y, area.width, 1), buf);
        if let Some(b) = t.buckets.get(self.view.selected) {
            let lines = match b.lines {
                Some((a, z)) if a == z => format!("line {a} · Enter jumps there"),
                Some((a, z)) => format!("lines {a}–{z} · Enter jumps to {a}"),
                None => "no line falls in this bucket".to_string(),
            };
            let marker = if self.focused { "▶ " } else { "  " };
            let detail = format!(
                "{marker}{} +{}: {} match{} · {lines}",
                format_utc(b.start),
                width_label(t.width_ms),
                thousands(b.count as u64),
                if b.count == 1 { "" } else { "es" },
            );
            Paragraph::new(Line::from(Span::styled(
                clip(&detail, area.width as usize),
                chrome(Chrome::Selected, p),
            )))
            .render(Rect::new(area.x, axis_y + 1, area.width, 1), buf);
        }
    }
}

impl Widget for TimelinePane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let p = self.palette;
        let note = |s: String, buf: &mut Buffer, st: Style| {
            Paragraph::new(Line::from(Span::styled(s, st))).render(area, buf);
        };
        match (self.view.result(), self.view.state()) {
            (Some(Ok(t)), _) => self.chart(t, area, buf),
            (Some(Err(e)), _) => note(format!("⚠ {}", e.message), buf, chrome(Chrome::Error, p)),
            (None, TimelineState::Computing(_)) => note(
                "counting per time bucket…".into(),
                buf,
                chrome(Chrome::Dim, p),
            ),
            (None, _) => note(
                format!(
                    "{} does not compile: nothing to count (s: a lens key instead)",
                    self.source_label()
                ),
                buf,
                chrome(Chrome::Dim, p),
            ),
        }
    }
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::flavor::{Flags, Flavor};
    use crate::workbench::TextBuffer;
    use crate::workbench::matching::SharedWaker;
    use ratatui::style::Color;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn bars_fill_in_eighths_and_one_match_shows() {
        assert_eq!(bar(4, 4, 2), ["█", "█"]);
        assert_eq!(bar(2, 4, 2), [" ", "█"]);
        assert_eq!(bar(1, 4, 2), [" ", "▄"]);
        assert_eq!(bar(1, 1000, 2), [" ", "▁"]);
        assert_eq!(bar(0, 1000, 2), [" ", " "]);
        assert_eq!(slot_width(100, 10), 4);
        assert_eq!(slot_width(100, 60), 1);
    }

    fn pane_text(log: &str, w: u16, h: u16) -> (Buffer, String, TimelineView) {
        let input = TextBuffer::new(log.to_string());
        let re = Arc::new(Regex::new("FAIL", Flavor::PYTHON, Flags::default()).unwrap());
        let mut view = TimelineView::new(SharedWaker::default());
        view.activate();
        view.set_max_buckets(buckets_for_width(w));
        assert!(view.settle(&input, Some(&re), &Arc::default(), Duration::from_secs(10)));
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        TimelinePane {
            view: &view,
            key_index: None,
            focused: true,
            palette: Palette::Color,
            input_empty: log.is_empty(),
        }
        .render(area, &mut buf);
        let s = crate::tui::tabs::text_of(&buf);
        (buf, s, view)
    }

    use crate::engine::Regex;

    #[test]
    fn the_spike_is_the_tallest_bar_and_is_selected() {
        let log = "2026-10-05T00:00:00Z FAIL\n\
                   2026-10-05T00:00:01Z ok\n\
                   2026-10-05T00:00:02Z FAIL FAIL FAIL FAIL\n\
                   2026-10-05T00:00:03Z FAIL\n";
        let (buf, text, view) = pane_text(log, 90, 8);
        assert_eq!(view.selected, 2);
        assert!(
            text.contains("6 matches of the pattern · 4 buckets of 1s"),
            "{text}"
        );
        assert!(
            text.contains("▶ 2026-10-05T00:00:02Z +1s: 4 matches · line 3 · Enter jumps there"),
            "{text}"
        );
        // Four columns a bucket (three of bar, one gap): the third bucket's bar is full and
        // reversed (selected); the second bucket has none.
        let top = 1;
        assert_eq!(buf[(8, top)].symbol(), "█");
        assert_eq!(buf[(8, top)].fg, Color::White);
        assert_ne!(buf[(0, 4)].fg, Color::White);
        assert_eq!(buf[(4, 4)].symbol(), " ");
        assert!(text.contains("2026-10-05T00:00:00Z"), "{text}");
    }

    #[test]
    fn no_stamps_and_an_empty_input_are_said() {
        let (_, text, _) = pane_text("FAIL here\n", 120, 5);
        assert!(text.contains("no line starts with a timestamp"), "{text}");
        let (_, text, _) = pane_text("", 60, 5);
        assert!(text.contains("the input is empty"), "{text}");
    }
}
