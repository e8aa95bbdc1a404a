//! The input editor: line numbers, matches in the match colour with each group in its own
//! colour over it, the current match emphasised, whitespace shown on demand. Only the lines
//! on screen are touched, so a 100 MB input draws as fast as a small one.

use super::super::app::{App, Focus};
use super::super::layout::inner;
use super::super::text::thousands;
use super::super::text::{cells, pane_block, styled_line};
use super::super::theme::{Chrome, chrome, current, style};
use crate::engine::Match;
use crate::highlight::Kind;
use crate::workbench::InputSource;
use crate::workbench::filter::FilterMode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::ops::Range;

/// A highlighted range and its kind, in paint order (later wins).
pub type Paint = (Range<usize>, Kind);

/// The paints for the bytes in `range`: whole matches first, then groups in order, so inner
/// (later) groups end up on top. Window matches (with groups) are used where present; spans
/// from the full scan fill in where the window scan has not answered yet.
pub fn paints(app: &App, range: Range<usize>) -> Vec<Paint> {
    let r = &app.wb.results;
    let mut out: Vec<Paint> = Vec::new();
    let overlaps =
        |s: usize, e: usize| s < range.end && (e > range.start || (s == e && s >= range.start));
    let mut groups: Vec<Paint> = Vec::new();
    let mut add = |m: &Match, out: &mut Vec<Paint>| {
        out.push((m.start()..m.end(), Kind::Match));
        for (k, g) in m.groups.iter().enumerate().skip(1) {
            if let Some((s, e)) = g
                && s < e
            {
                groups.push((*s..*e, Kind::Group(k - 1)));
            }
        }
    };
    let first = r.window_matches.partition_point(|m| m.end() < range.start);
    for m in &r.window_matches[first..] {
        if m.start() > range.end {
            break;
        }
        if overlaps(m.start(), m.end()) {
            add(m, &mut out);
        }
    }
    let covered =
        !r.window_matches.is_empty() && r.window.start <= range.start && range.end <= r.window.end;
    if !covered {
        let first = r.spans.partition_point(|&(_, e)| e < range.start);
        for &(s, e) in &r.spans[first..] {
            if s > range.end {
                break;
            }
            if overlaps(s, e) && !out.iter().any(|(x, _)| x.start == s && x.end == e) {
                out.push((s..e, Kind::Match));
            }
        }
    }
    out.extend(groups);
    out
}

fn title(app: &App) -> String {
    let wb = &app.wb;
    let what = match &wb.source {
        InputSource::Demo => "demo: NetVM agent log".to_string(),
        InputSource::File(p) => p.clone(),
        InputSource::Stdin => "standard input".to_string(),
        InputSource::Typed => "typed".to_string(),
    };
    // A final line break ends the last line; it does not start one worth counting.
    let lines = wb.input.line_count() - usize::from(wb.input.ends_with_newline());
    let (l, c) = wb.input.cursor_position();
    let f = &wb.filter;
    let filter = match f.mode() {
        _ if app.filters.active() => {
            // The combined filters: how many lines they show; which they are is in the
            // status bar.
            let c = &app.filters;
            let state = filter_state(c.complete(), f.capped(), "filtering…");
            format!(
                " · filters: {} shown{state}",
                thousands(c.rows().len() as u64)
            )
        }
        FilterMode::Off => String::new(),
        mode => {
            let shown = thousands(f.rows().len() as u64);
            let what = match mode {
                FilterMode::Matching if f.context() > 0 => format!(
                    "{shown} shown: {} with a match ±{}",
                    thousands(f.matching_lines() as u64),
                    f.context()
                ),
                FilterMode::Matching => format!("{shown} with a match"),
                _ => format!("{shown} without a match"),
            };
            let state = filter_state(f.complete(), f.capped(), "scanning…");
            format!(" · filter: {what}{state}")
        }
    };
    let indexing = wb
        .input
        .paged_text()
        .filter(|p| !p.complete())
        .map(|p| p.progress());
    let following = match &app.loading {
        Some(l) => format!(" · indexing… {}%", l.percent()),
        None if indexing.is_some() => {
            let f = indexing.and_then(|p| p.fraction()).unwrap_or(0.0);
            format!(" · indexing… {:.0}%", f * 100.0)
        }
        None if app.following => " · following".to_string(),
        None => String::new(),
    };
    format!(
        "Input · {what}{following} · {lines} lines{filter} · {}:{}",
        l + 1,
        c + 1
    )
}

/// Draws the input pane.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let focused = app.focus == Focus::Input && !app.help_open();
    let block = pane_block(&title(app), focused, p);
    let body = inner(area);
    let input = &app.wb.input;
    let gw = app.gutter_width();
    let text_w = (body.width as usize).saturating_sub(gw + 1);
    let selected = app.wb.results.spans.get(app.selected).copied();
    let stale = app.wb.stale();
    // What the shown tab marks: the Debug tab's matcher position and steps per position.
    let marks = app.shown_tab().input_marks();
    let (debug_pos, heat) = (marks.position, marks.heat);
    let draw_cx = app.draw_cx();
    let marks = app.current_bookmarks();
    let mut lines = Vec::with_capacity(body.height as usize);
    for row in 0..body.height as usize {
        let Some(i) = app.line_on_row(row) else {
            break;
        };
        let range = input.shown_line_range(i);
        let line = input.slice(range.clone());
        let line: &str = &line;
        // A tab that paints the input itself (the Lens tab) replaces the pattern's matches.
        let tab_paints = app
            .shown_tab()
            .input_paints(range.start..range.end, &draw_cx);
        let painted = tab_paints.is_some();
        let tab_paints = tab_paints.unwrap_or_default();
        let paints = if painted {
            Vec::new()
        } else {
            paints(app, range.start..range.end)
        };
        let cs = cells(line, app.input_left, text_w, app.show_whitespace);
        // The record's level colours its text; matches and hits paint over it.
        let base = record_level(input, i, line)
            .map_or_else(Style::new, |l| super::super::theme::level_style(l, p));
        let bookmarked = marks.binary_search(&i).is_ok();
        let mut l = styled_line(&cs, |at| {
            let at = at + range.start;
            let mut st = base;
            for (r, k) in &paints {
                if r.start <= at && at < r.end {
                    st = st.patch(style(*k, p));
                }
            }
            for (r, paint) in &tab_paints {
                if r.start <= at && at < r.end {
                    st = st.patch(*paint);
                }
            }
            if let Some((s, e)) = selected
                && !painted
                && s <= at
                && at < e
            {
                st = st.add_modifier(current(p));
            }
            if let Some((per_pos, max)) = heat
                && let Some(&n) = per_pos.get(&at)
                && n > 0
            {
                st = st.patch(super::super::theme::heat(n, max, p));
            }
            if debug_pos == Some(at) {
                st = st.add_modifier(Modifier::REVERSED | Modifier::BOLD);
            }
            if stale && st != Style::new() {
                st = st.add_modifier(Modifier::DIM);
            }
            st
        });
        // An empty match at the end of the line, or a line break inside a match.
        let end_paint = paints
            .iter()
            .map(|(r, _)| r)
            .chain(tab_paints.iter().map(|(r, _)| r))
            .any(|r| {
                (r.start == r.end && r.start == range.end)
                    || (r.start <= range.end && range.end < r.end)
            });
        let gutter = match app.source_gutter().and_then(|g| Some((g, g.place(i)?))) {
            // The empty line after a merged input's last line break is no log's line.
            Some(_) if app.wb.input.ends_with_newline() && i + 1 >= app.wb.input.line_count() => {
                " ".repeat(gw + 1)
            }
            // A merged input: the log's tag and the line's number in that log.
            Some((g, (tag, own))) => format!(
                "{tag:<tw$} {own:>nw$} ",
                tw = g.tag_width,
                nw = gw - g.tag_width - 1
            ),
            None => format!("{:>w$} ", i + 1, w = gw),
        };
        let mut spans = if bookmarked {
            // A bookmark: the gutter's last cell carries the mark.
            let mut g = gutter;
            g.pop();
            vec![
                Span::styled(g, chrome(Chrome::Dim, p)),
                Span::styled("▌", chrome(Chrome::Focused, p)),
            ]
        } else {
            vec![Span::styled(gutter, chrome(Chrome::Dim, p))]
        };
        spans.append(&mut l.spans);
        let used: usize = cs.iter().map(|c| c.width).sum();
        if used < text_w && (app.show_whitespace || end_paint) {
            let glyph = if app.show_whitespace { "¶" } else { " " };
            let st = if end_paint {
                style(Kind::Match, p)
            } else {
                chrome(Chrome::Dim, p)
            };
            spans.push(Span::styled(glyph, st));
        }
        l.spans = spans;
        lines.push(l);
    }
    if lines.is_empty() {
        let note = match app.wb.filter.mode() {
            _ if app.filters.active() && !app.filters.complete() => "(filtering…)",
            _ if app.filters.active() => {
                "(no line passes every filter: Alt-k shows them, each removable)"
            }
            FilterMode::Off => "(empty: type or paste text here)",
            _ if !app.wb.filter.complete() && !app.wb.filter.capped() => "(filtering…)",
            FilterMode::Matching => "(no line has a match: Ctrl-L shows the others)",
            FilterMode::NonMatching => "(every line has a match: Ctrl-L shows them all)",
        };
        lines.push(Line::from(Span::styled(note, chrome(Chrome::Dim, p))));
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
    if focused && body.width > 0 && body.height > 0 {
        let (line, col) = input.cursor_position();
        if !app.filtered()
            && line >= app.input_top
            && line < app.input_top + body.height as usize
            && col >= app.input_left
        {
            let row_text = input.slice(input.shown_line_range(line));
            let row_text: &str = &row_text;
            let before: usize = cells(
                row_text,
                app.input_left,
                (col - app.input_left) * 2 + 2,
                app.show_whitespace,
            )
            .iter()
            .take(col - app.input_left)
            .map(|c| c.width)
            .sum();
            let x = body.x as usize + gw + 1 + before;
            if x < (body.x + body.width) as usize {
                f.set_cursor_position((x as u16, body.y + (line - app.input_top) as u16));
            }
        }
    }
}

/// Lines looked back over for the stamped line a continuation belongs to.
const LEVEL_LOOKBACK: usize = 32;

/// The level of the record line `i` (whose text is `line`) belongs to: its own level word,
/// else for a line without a stamp (a record's continuation) the level of the stamped line
/// it follows, within [`LEVEL_LOOKBACK`] lines.
fn record_level(
    input: &crate::workbench::TextBuffer,
    i: usize,
    line: &str,
) -> Option<crate::workbench::filters::Level> {
    use crate::input::timestamp::leading;
    use crate::workbench::filters::level_of;
    if let Some(l) = level_of(line) {
        return Some(l);
    }
    if leading(line.as_bytes()).is_some() || line.trim_start().starts_with('{') {
        return None;
    }
    (i.saturating_sub(LEVEL_LOOKBACK)..i).rev().find_map(|k| {
        let text = input.slice(input.shown_line_range(k));
        let text: &str = &text;
        let head = &text[..floor(text, 512)];
        match leading(head.as_bytes()) {
            Some(_) => Some(level_of(head)),
            None => level_of(head).map(Some),
        }
    })?
}

/// The largest char boundary of `s` at or before `n`.
fn floor(s: &str, n: usize) -> usize {
    let mut end = s.len().min(n);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// How far a filter has got, after its count in the title: nothing once it is complete, the
/// cap when the pattern's matches were capped, else `working`.
fn filter_state(complete: bool, capped: bool, working: &str) -> String {
    if complete {
        String::new()
    } else if capped {
        format!(
            " (the first {} matches' lines only)",
            thousands(crate::workbench::matching::SPAN_CAP as u64)
        )
    } else {
        format!(" ({working})")
    }
}
