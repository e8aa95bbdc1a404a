//! The Timeline tab: matches per time bucket (from the lines' leading stamps, as `rxw
//! timeline`) of the pattern or of one lens key, computed on a worker
//! ([`crate::workbench::timeline_view`]), drawn as vertical bars, one column or a few per
//! bucket, so a spike stands out, over a count axis (left) and a time axis (below). ←/→
//! select a bucket; Enter narrows the lines shown to its time (the time range filter) and
//! jumps to its first line; `+` / `-` (and the mouse wheel) zoom from 1 s to 1 day a bucket
//! around the selection, `f` fits the whole log again; `s` counts the pattern, then each
//! lens key in turn.

use super::{DrawCx, Handled, Request, Tab, TabCommand, TabCx, TabEvent, TabId};
use crate::highlight::Kind;
use crate::input::time_range::TimeRange;
use crate::operator::timeline::{Timeline, width_label};
use crate::operator::timestamp::format_utc;
use crate::tui::action::{
    ALT, Action, Binding,
    Context::{Global, List},
    Edit,
    KeySpec::Key,
    NONE,
};
use crate::tui::text::clip;
use crate::tui::text::thousands;
use crate::tui::theme::{Chrome, Palette, chrome, lens_key, style};
use crate::workbench::timeline_view::{TimelineSource, TimelineState, TimelineView};
use crossterm::event::KeyCode as K;
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
/// Narrower buckets.
pub const ZOOM_IN: TabCommand = ID.command("zoom-in");
/// Wider buckets.
pub const ZOOM_OUT: TabCommand = ID.command("zoom-out");
/// The whole log again.
pub const FIT: TabCommand = ID.command("fit");

/// Columns the count axis takes at the chart's left.
pub const AXIS_W: usize = 7;

static KEYS: &[Binding] = &[
    Global.bind(
        Action::ShowTab(ID),
        "Timeline tab",
        &[Key(K::Char('l'), ALT)],
    ),
    List.hint(
        Action::Tab(SOURCE),
        "Timeline: count the pattern, then each lens key",
        &[Key(K::Char('s'), NONE)],
    ),
    List.hint(
        Action::Tab(NEXT),
        "Timeline: next bucket (→ too; Enter jumps to its first line)",
        &[Key(K::Char('l'), NONE)],
    ),
    List.bind(
        Action::Tab(PREV),
        "Timeline: previous bucket (← too)",
        &[Key(K::Char('h'), NONE)],
    ),
    List.hint(
        Action::Tab(ZOOM_IN),
        "Timeline: zoom in, down to 1 s a bucket (wheel up too)",
        &[Key(K::Char('+'), NONE), Key(K::Char('='), NONE)],
    ),
    List.hint(
        Action::Tab(ZOOM_OUT),
        "Timeline: zoom out, up to 1 day a bucket (wheel down too)",
        &[Key(K::Char('-'), NONE)],
    ),
    List.bind(
        Action::Tab(FIT),
        "Timeline: fit the whole log",
        &[Key(K::Char('f'), NONE)],
    ),
];

/// Zooms the view and says so.
fn zoom(cx: &mut TabCx, narrower: bool) {
    let t = &mut cx.wb.timeline;
    match t.zoom_by(narrower) {
        Some(w) => {
            cx.wb.sync_views();
            cx.message(format!(
                "timeline: {} buckets around the selection (f fits the whole log)",
                width_label(w)
            ));
        }
        None if t.result().is_some_and(|r| r.is_ok()) => cx.message(if narrower {
            "timeline: 1 s a bucket is the narrowest"
        } else {
            "timeline: 1 day a bucket is the widest"
        }),
        None => cx.message("timeline: no chart to zoom yet"),
    }
}

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
            Action::Tab(cmd) if *cmd == ZOOM_IN => zoom(cx, true),
            Action::Tab(cmd) if *cmd == ZOOM_OUT => zoom(cx, false),
            Action::Tab(cmd) if *cmd == FIT => {
                if t.unzoom() {
                    cx.wb.sync_views();
                }
                cx.message("timeline: the whole log");
            }
            Action::Activate => {
                // The bucket's time becomes the time range of the lines shown.
                let range = match t.result() {
                    Some(Ok(tl)) => tl
                        .buckets
                        .get(t.selected)
                        .and_then(|b| TimeRange::new(Some(b.start), Some(b.end)).ok()),
                    _ => None,
                };
                let line = t.selected_line();
                if let Some(r) = range {
                    cx.request(Request::TimeRange(r));
                }
                match line {
                    Some(line) => {
                        let at = cx.wb.input.line_start(line.min(cx.wb.input.line_count()));
                        cx.request(Request::JumpTo(at));
                    }
                    None => cx.message("no line falls in this bucket"),
                }
            }
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
        let view = &mut cx.wb.timeline;
        let target = match view.result() {
            Some(Ok(t)) => {
                let w = Window::of(cx.body.width as usize, t.buckets.len(), view.selected);
                (col as usize)
                    .checked_sub(AXIS_W)
                    .map(|x| w.first + x / w.slot)
                    .filter(|&i| i < (w.first + w.count).min(t.buckets.len()))
            }
            _ => None,
        };
        if let Some(i) = target {
            view.select(i);
        }
        Handled::Consumed
    }

    fn wheel(&mut self, delta: i32, cx: &mut TabCx) -> Handled {
        zoom(cx, delta < 0);
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

/// How many buckets fit a chart `width` columns wide beside its count axis (what the view
/// asks the timeline for).
pub fn buckets_for_width(width: u16) -> usize {
    (width as usize).saturating_sub(1 + AXIS_W).max(1)
}

/// The buckets on screen: the first, how many, and the columns each takes. A zoomed chart
/// has more buckets than columns: the window follows the selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The first bucket shown.
    pub first: usize,
    /// Buckets shown.
    pub count: usize,
    /// Columns a bucket takes (bar and gap).
    pub slot: usize,
}

impl Window {
    /// The window of `n` buckets with `selected` selected in a chart `width` wide.
    pub fn of(width: usize, n: usize, selected: usize) -> Window {
        let chart = width.saturating_sub(AXIS_W).max(1);
        let slot = slot_width(chart, n);
        let count = (chart / slot).max(1);
        let first = if n <= count {
            0
        } else {
            selected.saturating_sub(count / 2).min(n - count)
        };
        Window { first, count, slot }
    }
}

/// A count in at most six characters: `999`, `12,345`, `123k`, `12.3M`.
pub fn compact(n: usize) -> String {
    match n {
        0..100_000 => thousands(n as u64),
        100_000..10_000_000 => format!("{}k", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A bucket's start as the time axis labels it at width `width_ms`: `00:01:48` under a
/// minute, `00:01` under a day, `10-05` (month and day) at a day.
pub fn tick_label(start: i64, width_ms: i64) -> String {
    let t = format_utc(start);
    let part = if width_ms < 60_000 {
        t.get(11..19)
    } else if width_ms < 86_400_000 {
        t.get(11..16)
    } else {
        t.get(5..10)
    };
    part.unwrap_or(&t).to_string()
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
            "{} matches of {}{} · {} buckets of {}{}{}",
            thousands(t.matches as u64),
            self.source_label(),
            match self.view.filter_note() {
                _ if self.view.filtered() => " on the lines the filters show".to_string(),
                Some(why) => format!(" ({why})"),
                None => String::new(),
            },
            t.buckets.len(),
            width_label(t.width_ms),
            if self.view.zoom().is_some() {
                " (zoomed; f: the whole log)"
            } else {
                ""
            },
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
        // Title, bars, the time axis's rule, its labels, the selected bucket's line.
        let height = (area.height as usize).saturating_sub(4).max(1);
        let win = Window::of(area.width as usize, t.buckets.len(), self.view.selected);
        let shown = win.first..(win.first + win.count).min(t.buckets.len());
        let slot = win.slot;
        let bar_w = if slot >= 2 { slot - 1 } else { 1 };
        // The count axis is the fullest bucket on screen (a zoomed chart's spike elsewhere
        // would flatten the rest).
        let max = t.buckets[shown.clone()]
            .iter()
            .map(|b| b.count)
            .max()
            .unwrap_or(0);
        let bar_style = match self.key_index {
            Some(k) => Style::new().fg(lens_key(k, p).bg.unwrap_or_default()),
            None => Style::new().fg(style(Kind::Match, p).bg.unwrap_or_default()),
        };
        let bar_style = if p == Palette::Mono {
            Style::new()
        } else {
            bar_style
        };
        let dim = chrome(Chrome::Dim, p);
        // The count axis: the top's count, half way, and 0, right-aligned before the rule.
        for row in 0..height {
            let value = if row == 0 {
                Some(max)
            } else if row == height - 1 {
                Some(0)
            } else if height >= 5 && max >= 4 && row == (height - 1) / 2 {
                Some(max / 2)
            } else {
                None
            };
            let text = match value {
                Some(v) => format!("{:>w$}┤", compact(v), w = AXIS_W - 1),
                None => format!("{:>w$}│", "", w = AXIS_W - 1),
            };
            buf.set_string(area.x, area.y + 1 + row as u16, &text, dim);
        }
        let chart_x = area.x as usize + AXIS_W;
        let right = (area.x + area.width) as usize;
        for (k, i) in shown.clone().enumerate() {
            let b = &t.buckets[i];
            let x0 = chart_x + k * slot;
            if x0 + bar_w > right {
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
        // The time axis: a rule with a tick every few buckets, as many labels as fit apart.
        let axis_y = area.y + 1 + height as u16;
        let label_w = tick_label(t.buckets[0].start, t.width_ms).chars().count();
        let every = (label_w + 2).div_ceil(slot).max(1);
        buf.set_string(area.x, axis_y, format!("{:>w$}└", "", w = AXIS_W - 1), dim);
        for (k, i) in shown.clone().enumerate() {
            let x = chart_x + k * slot;
            for dx in 0..slot {
                if x + dx < right {
                    let mark = if dx == 0 && i % every == 0 {
                        "┬"
                    } else {
                        "─"
                    };
                    buf.set_string((x + dx) as u16, axis_y, mark, dim);
                }
            }
        }
        let ticks_y = axis_y + 1;
        let mut free_from = area.x as usize;
        for (k, i) in shown.enumerate() {
            let x = chart_x + k * slot;
            if i % every != 0 || x < free_from || x + label_w > right {
                continue;
            }
            if ticks_y < area.y + area.height {
                let label = tick_label(t.buckets[i].start, t.width_ms);
                buf.set_string(x as u16, ticks_y, &label, dim);
            }
            free_from = x + label_w + 1;
        }
        let detail_y = ticks_y + 1;
        if let Some(b) = t.buckets.get(self.view.selected) {
            let lines = match b.lines {
                Some((a, z)) if a == z => format!("line {a} · Enter: only this time"),
                Some((a, z)) => format!("lines {a}–{z} · Enter: only this time"),
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
            if detail_y < area.y + area.height {
                Paragraph::new(Line::from(Span::styled(
                    clip(&detail, area.width as usize),
                    chrome(Chrome::Selected, p),
                )))
                .render(Rect::new(area.x, detail_y, area.width, 1), buf);
            }
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
            text.contains("▶ 2026-10-05T00:00:02Z +1s: 4 matches · line 3 · Enter: only this time"),
            "{text}"
        );
        // Four columns a bucket (three of bar, one gap) after the count axis: the third
        // bucket's bar is full and reversed (selected); the second bucket has none.
        let (top, x) = (1, AXIS_W as u16);
        assert_eq!(buf[(x + 8, top)].symbol(), "█");
        assert_eq!(buf[(x + 8, top)].fg, Color::White);
        assert_ne!(buf[(x, 3)].fg, Color::White);
        assert_eq!(buf[(x + 4, 3)].symbol(), " ");
        // The count axis says the top's count and 0; the time axis labels the seconds.
        let rows: Vec<&str> = text.lines().collect();
        assert!(rows[1].starts_with("     4┤"), "{text}");
        assert!(rows[4].starts_with("     0┤"), "{text}");
        assert!(rows[5].starts_with("      └┬"), "{text}");
        assert!(
            rows[6].contains("00:00:00") && rows[6].contains("00:00:03"),
            "{text}"
        );
    }

    #[test]
    fn the_window_follows_the_selection_when_buckets_outnumber_columns() {
        let w = Window::of(AXIS_W + 10, 100, 0);
        assert_eq!(
            w,
            Window {
                first: 0,
                count: 10,
                slot: 1
            }
        );
        assert_eq!(Window::of(AXIS_W + 10, 100, 50).first, 45);
        assert_eq!(Window::of(AXIS_W + 10, 100, 99).first, 90);
        assert_eq!(
            Window::of(AXIS_W + 40, 10, 9),
            Window {
                first: 0,
                count: 10,
                slot: 4
            }
        );
        assert_eq!(compact(12_345), "12,345");
        assert_eq!(compact(123_456), "123k");
        assert_eq!(compact(12_345_678), "12.3M");
        assert_eq!(tick_label(0, 1_000), "00:00:00");
        assert_eq!(tick_label(0, 600_000), "00:00");
        assert_eq!(tick_label(0, 86_400_000), "01-01");
    }

    #[test]
    fn no_stamps_and_an_empty_input_are_said() {
        let (_, text, _) = pane_text("FAIL here\n", 120, 5);
        assert!(text.contains("no line starts with a timestamp"), "{text}");
        let (_, text, _) = pane_text("", 60, 5);
        assert!(text.contains("the input is empty"), "{text}");
    }
}
