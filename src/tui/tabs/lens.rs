//! The Lens tab: every preset of the registry over the input at once (the scanner of
//! `rxw parse`, on a worker: [`crate::workbench::lens`]). While the tab is up the input pane
//! paints each shown key's hits in its own colour; the tab lists the keys with their colour
//! and hit count (Space shows or hides one) and, beside them, the parsed fields of the input
//! line under the cursor, exactly as `rxw parse --json` gives them for that line. `n` / `p`
//! (Enter too) jump to the next / previous hit of the selected key from the cursor.

use super::{DrawCx, Handled, Request, Tab, TabCommand, TabCx, TabEvent, TabId};
use crate::tui::action::{Action, Binding, Context::List, Edit, KeySpec::Key, NONE};
use crate::tui::text::clip;
use crate::tui::text::thousands;
use crate::tui::theme::{Chrome, Palette, chrome, lens_key};
use crate::workbench::lens::{Lens, LensState};
use crossterm::event::KeyCode as K;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use std::ops::Range;

/// The tab's identity.
pub const ID: TabId = TabId("lens");

/// Shows or hides the selected key.
pub const TOGGLE: TabCommand = ID.command("toggle");
/// The next hit of the selected key after the cursor.
pub const NEXT_HIT: TabCommand = ID.command("next-hit");
/// The previous hit of the selected key before the cursor.
pub const PREV_HIT: TabCommand = ID.command("prev-hit");

static KEYS: &[Binding] = &[
    List.hint(
        Action::Tab(TOGGLE),
        "Lens: show / hide the selected key",
        &[Key(K::Char(' '), NONE)],
    ),
    List.hint(
        Action::Tab(NEXT_HIT),
        "Lens: next hit of the selected key (Enter too)",
        &[Key(K::Char('n'), NONE)],
    ),
    List.hint(
        Action::Tab(PREV_HIT),
        "Lens: previous hit of the selected key",
        &[Key(K::Char('p'), NONE)],
    ),
];

/// The Lens tab: the key selected in the legend (the lens itself is the workbench's).
#[derive(Debug, Default)]
pub struct LensTab {
    /// The selected key (an index into [`Lens::keys`]).
    pub selected: usize,
}

impl LensTab {
    /// Jumps to the next (`dir` > 0) or previous hit of the selected key from the cursor.
    fn hit(&self, dir: i8, cx: &mut TabCx) {
        let lens = &cx.wb.lens;
        let k = self.selected;
        let Some(key) = lens.keys().get(k).cloned() else {
            cx.message("no presets loaded");
            return;
        };
        if !lens.enabled(k) {
            cx.message(format!("{key} is hidden: Space shows it"));
            return;
        }
        let at = cx.wb.input.cursor();
        let hit = if dir > 0 {
            lens.next_hit(k, at)
        } else {
            lens.prev_hit(k, at)
        };
        match hit {
            Some((s, _)) => {
                let n = lens.hits(k).partition_point(|&(x, _)| x < s) + 1;
                let total = thousands(lens.counts()[k] as u64);
                cx.request(Request::JumpTo(s));
                cx.message(format!("{key}: hit {n} of {total}"));
            }
            None => cx.message(format!(
                "{key}: no {} hit {} the cursor",
                if dir > 0 { "further" } else { "earlier" },
                if dir > 0 { "after" } else { "before" }
            )),
        }
    }
}

impl Tab for LensTab {
    super::face!("Lens", KEYS);

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        let n = cx.wb.lens.keys().len() as isize;
        let page = cx.body_rows().saturating_sub(2) as isize;
        let cur = self.selected as isize;
        let to = match action {
            Action::Tab(cmd) if *cmd == TOGGLE => {
                cx.wb.lens.toggle(self.selected);
                return Handled::Consumed;
            }
            Action::Tab(cmd) if *cmd == NEXT_HIT => {
                self.hit(1, cx);
                return Handled::Consumed;
            }
            Action::Tab(cmd) if *cmd == PREV_HIT => {
                self.hit(-1, cx);
                return Handled::Consumed;
            }
            Action::Activate => {
                self.hit(1, cx);
                return Handled::Consumed;
            }
            Action::Edit(Edit::Up) => cur - 1,
            Action::Edit(Edit::Down) => cur + 1,
            Action::Edit(Edit::PageUp) => cur - page,
            Action::Edit(Edit::PageDown) => cur + page,
            Action::Edit(Edit::Home) => 0,
            Action::Edit(Edit::End) => n - 1,
            _ => return Handled::NotConsumed,
        };
        self.selected = to.clamp(0, (n - 1).max(0)) as usize;
        Handled::Consumed
    }

    fn on_event(&mut self, event: TabEvent, cx: &mut TabCx) {
        if event == TabEvent::Shown && !cx.wb.lens.is_active() {
            cx.wb.lens.activate(&cx.wb.input);
        }
    }

    fn poll(&mut self, cx: &mut TabCx) -> bool {
        if !cx.wb.lens.is_active() {
            return false;
        }
        self.selected = self.selected.min(cx.wb.lens.keys().len().saturating_sub(1));
        let (line, _) = cx.wb.input.cursor_position();
        cx.wb.lens.update_fields(&cx.wb.input, line)
    }

    fn click(&mut self, col: u16, row: u16, cx: &mut TabCx) -> Handled {
        let lw = legend_width(cx.body.width);
        if col < lw && row >= 1 {
            let rows = (cx.body.height as usize).saturating_sub(1);
            let k = legend_top(self.selected, rows) + row as usize - 1;
            if k < cx.wb.lens.keys().len() {
                self.selected = k;
            }
        }
        Handled::Consumed
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        f.render_widget(
            LensPane {
                lens: &cx.wb.lens,
                selected: self.selected,
                focused: cx.focused,
                palette: cx.palette,
                input_len: cx.wb.input.len(),
                fields_place: cx.wb.lens.fields().map(|f| cx.line_place(f.line)),
            },
            area,
        );
    }

    fn input_paints(&self, range: Range<usize>, cx: &DrawCx) -> Option<Vec<(Range<usize>, Style)>> {
        Some(
            cx.wb
                .lens
                .hits_in(range)
                .into_iter()
                .map(|((s, e), k)| (s..e, lens_key(k, cx.palette)))
                .collect(),
        )
    }
}

/// The Lens tab as a widget over the lens state.
pub struct LensPane<'a> {
    /// The lens.
    pub lens: &'a Lens,
    /// The key selected in the legend.
    pub selected: usize,
    /// Whether the results pane has the keys.
    pub focused: bool,
    /// Colours.
    pub palette: Palette,
    /// The input's length (an empty input is said).
    pub input_len: usize,
    /// Where the line whose fields are shown is (`line 12`, or `b.log:12` for merged logs).
    pub fields_place: Option<String>,
}

/// The widths of the key name and the count in a legend row `width` wide whose largest count
/// is `widest`: the count is never clipped (a 1 GB log has keys with tens of millions of
/// hits), the key name gives way first.
pub fn legend_columns(width: usize, widest: usize) -> (usize, usize) {
    let count_w = thousands(widest as u64).len().max(7);
    (width.saturating_sub(count_w + 5).max(4), count_w)
}

/// Width of the legend column in a body `width` wide.
pub fn legend_width(width: u16) -> u16 {
    (width / 3).clamp(24.min(width), 34)
}

/// First legend row on screen for `rows` rows of keys.
pub fn legend_top(selected: usize, rows: usize) -> usize {
    (selected + 1).saturating_sub(rows.max(1))
}

impl LensPane<'_> {
    fn header(&self) -> Line<'static> {
        let p = self.palette;
        let total: usize = self.lens.counts().iter().sum();
        let state = match self.lens.state() {
            LensState::Idle => "not scanned".to_string(),
            LensState::Scanning(at) => {
                format!(
                    "scanning… {}%",
                    crate::progress::percent_running(at as u64, self.input_len as u64)
                )
            }
            LensState::Done => "Space: on / off".to_string(),
            LensState::Stopped(at) => format!(
                "stopped at {}% · Space: on / off",
                crate::progress::percent(at as u64, self.input_len as u64)
            ),
        };
        let of = if self.lens.counts_filtered() {
            " on the lines the filters show"
        } else {
            ""
        };
        let mut spans = vec![Span::styled(
            format!("{} hits{of} · {state}", thousands(total as u64)),
            chrome(Chrome::Dim, p),
        )];
        if self.lens.capped() {
            spans.push(Span::styled(
                " · only the first 4,000,000 kept",
                chrome(Chrome::Dim, p),
            ));
        }
        Line::from(spans)
    }

    fn legend(&self, rows: usize, width: usize) -> Vec<Line<'static>> {
        let p = self.palette;
        let keys = self.lens.keys();
        let mut lines = vec![self.header()];
        if keys.is_empty() {
            lines.push(Line::from(Span::styled(
                "no presets loaded",
                chrome(Chrome::Dim, p),
            )));
            return lines;
        }
        let shown = rows.saturating_sub(1);
        let top = legend_top(self.selected, shown);
        let widest = self.lens.counts().iter().copied().max().unwrap_or(0);
        let (key_w, count_w) = legend_columns(width, widest);
        for (k, key) in keys.iter().enumerate().skip(top).take(shown) {
            let on = self.lens.enabled(k);
            let marker = if k == self.selected && self.focused {
                "▶"
            } else {
                " "
            };
            let swatch = if on {
                Span::styled("  ", lens_key(k, p))
            } else {
                Span::styled("··", chrome(Chrome::Dim, p))
            };
            let name = format!(" {:<key_w$}", clip(key, key_w));
            let count = format!("{:>count_w$}", thousands(self.lens.counts()[k] as u64));
            let text_style = if on {
                ratatui::style::Style::new()
            } else {
                chrome(Chrome::Dim, p)
            };
            let mut line = Line::from(vec![
                Span::raw(marker),
                swatch,
                Span::styled(name, text_style),
                Span::styled(count, text_style),
            ]);
            if k == self.selected {
                line = line.style(chrome(Chrome::Selected, p));
            }
            lines.push(line);
        }
        lines
    }

    fn fields(&self, width: usize) -> Vec<Line<'static>> {
        let p = self.palette;
        let Some(f) = self.lens.fields() else {
            return vec![Line::from(Span::styled(
                "move the input cursor to a line to see its fields",
                chrome(Chrome::Dim, p),
            ))];
        };
        let mut lines = vec![Line::from(Span::styled(
            format!(
                "{} · {} hit{} of the shown keys{} (as rxw parse --json){}",
                self.fields_place
                    .clone()
                    .unwrap_or_else(|| format!("line {}", f.line + 1)),
                f.rows.len(),
                if f.rows.len() == 1 { "" } else { "s" },
                match self.lens.records() {
                    Some(fmt) => format!(" in its {fmt} record's message"),
                    None => String::new(),
                },
                if f.cut { " · its first 64 KiB" } else { "" }
            ),
            chrome(Chrome::Dim, p),
        ))];
        if let Some(e) = &f.error {
            lines.push(Line::from(Span::styled(
                format!("⚠ {e}"),
                chrome(Chrome::Error, p),
            )));
        }
        if f.rows.is_empty() {
            let why = if self.input_len == 0 {
                "(the input is empty)"
            } else {
                "(no hit on this line)"
            };
            lines.push(Line::from(Span::styled(why, chrome(Chrome::Dim, p))));
        }
        let key_w = f
            .rows
            .iter()
            .map(|r| r.key.len())
            .max()
            .unwrap_or(0)
            .min(16);
        for r in &f.rows {
            let key = format!("{:<key_w$} ", clip(&r.key, key_w));
            let matched = clip(&r.text, 24);
            let groups: Vec<String> = r
                .groups
                .iter()
                .map(|(name, v)| match v {
                    Some(v) => format!("{name}={v}"),
                    None => format!("{name}=null"),
                })
                .collect();
            let room = width.saturating_sub(key_w + 1 + matched.chars().count() + 2);
            lines.push(Line::from(vec![
                Span::styled(key, lens_key(r.key_index, p)),
                Span::raw(" "),
                Span::raw(matched),
                Span::raw(" "),
                Span::styled(clip(&groups.join("  "), room), chrome(Chrome::Dim, p)),
            ]));
        }
        lines
    }
}

impl Widget for LensPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let lw = legend_width(area.width);
        let legend = Rect::new(area.x, area.y, lw, area.height);
        let right = Rect::new(
            area.x + lw + 1,
            area.y,
            area.width.saturating_sub(lw + 1),
            area.height,
        );
        Paragraph::new(self.legend(area.height as usize, lw as usize)).render(legend, buf);
        for y in area.y..area.y + area.height {
            if let Some(cell) = buf.cell_mut((area.x + lw, y)) {
                cell.set_symbol("│")
                    .set_style(chrome(Chrome::Dim, self.palette));
            }
        }
        Paragraph::new(self.fields(right.width as usize)).render(right, buf);
        let errors = self.lens.errors();
        if let Some(e) = errors.first()
            && area.height > 2
        {
            let y = area.y + area.height - 1;
            Paragraph::new(Line::from(Span::styled(
                clip(&format!("⚠ {}", e.message), area.width as usize),
                chrome(Chrome::Error, self.palette),
            )))
            .render(Rect::new(area.x, y, area.width, 1), buf);
        }
    }
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::workbench::TextBuffer;
    use crate::workbench::matching::SharedWaker;
    use std::sync::Arc;
    use std::time::Duration;

    use crate::tui::tabs::text_of;

    #[test]
    fn the_legend_counts_keys_and_the_fields_show_the_cursor_line() {
        let catalog = Arc::new(
            crate::presets::load::load(&crate::presets::load::LoadOptions::default()).catalog,
        );
        let input = TextBuffer::new("[CLAIM 7fce46e0] took it\n".to_string());
        let mut lens = Lens::new(catalog, SharedWaker::default());
        lens.activate(&input);
        assert!(lens.settle(&input, Duration::from_secs(10)));
        lens.update_fields(&input, 0);
        let verb = lens.keys().iter().position(|k| k == "verb").unwrap();
        let area = Rect::new(0, 0, 90, 8);
        let mut buf = Buffer::empty(area);
        LensPane {
            lens: &lens,
            selected: verb,
            focused: true,
            palette: Palette::Color,
            input_len: input.len(),
            fields_place: None,
        }
        .render(area, &mut buf);
        let text = text_of(&buf);
        assert!(text.contains("▶   verb"), "{text}");
        assert!(text.contains("line 1 · 2 hits"), "{text}");
        assert!(text.contains("verb=CLAIM  job_id=7fce46e0"), "{text}");
        // The selected key's swatch carries its colour.
        let row = text.lines().position(|l| l.contains("▶   verb")).unwrap() as u16;
        assert_eq!(buf[(1, row)].bg, lens_key(verb, Palette::Color).bg.unwrap());
        // A key switched off is drawn dimmed, without a swatch.
        lens.toggle(verb);
        let mut buf = Buffer::empty(area);
        LensPane {
            lens: &lens,
            selected: verb,
            focused: false,
            palette: Palette::Color,
            input_len: input.len(),
            fields_place: None,
        }
        .render(area, &mut buf);
        assert!(text_of(&buf).contains(" ·· verb"), "{}", text_of(&buf));
    }

    #[test]
    fn legend_counts_are_never_clipped() {
        // The legend is 30 wide in a 90-column results pane; "12,801,456" hits of short_hex
        // on a 1 GB log were drawn as "12,801,4".
        let (key_w, count_w) = legend_columns(30, 12_801_456);
        assert_eq!(count_w, "12,801,456".len());
        assert_eq!(key_w + count_w + 5, 30);
        assert!(key_w >= "subagent_update".len());
        assert_eq!(legend_columns(30, 17), (18, 7));
    }

    #[test]
    fn an_empty_input_says_so() {
        let input = TextBuffer::new(String::new());
        let mut lens = Lens::new(Arc::default(), SharedWaker::default());
        lens.activate(&input);
        lens.update_fields(&input, 0);
        let area = Rect::new(0, 0, 60, 4);
        let mut buf = Buffer::empty(area);
        LensPane {
            lens: &lens,
            selected: 0,
            focused: false,
            palette: Palette::Mono,
            input_len: 0,
            fields_place: None,
        }
        .render(area, &mut buf);
        let text = text_of(&buf);
        assert!(text.contains("no presets loaded"), "{text}");
        assert!(text.contains("(the input is empty)"), "{text}");
    }
}
