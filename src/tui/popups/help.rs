//! The help overlay: the flavor's quick reference (the constructs its parser and matcher
//! accept, see [`crate::engine::reference`]), searchable, a construct inserted at the pattern's
//! cursor with Enter; then every key, generated from the keymap.

use super::{Outcome, Popup, PopupCx, PopupDrawCx, centred, draw_box};
use crate::Flavor;
use crate::engine::reference::{Row, quick_reference};
use crate::tui::action::{Action, Context, Edit, apply_line};
use crate::tui::history::contains_smart;
use crate::tui::keymap::{help_rows, tab_help_rows};
use crate::tui::tabs::TabId;
use crate::tui::theme::{Chrome, chrome};
use crate::workbench::LineEditor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The help overlay: the search, the chosen construct and the scroll position.
#[derive(Debug, Clone, Default)]
pub struct Help {
    /// First line on screen.
    pub scroll: usize,
    /// What is typed: it narrows the reference and the keys.
    pub search: LineEditor,
    /// The chosen construct among those the search leaves.
    pub chosen: usize,
    /// The flavor's reference (computed when the overlay opens).
    rows: Vec<Row>,
}

impl Help {
    /// The overlay for `flavor`.
    pub fn new(flavor: Flavor) -> Help {
        Help {
            rows: quick_reference(flavor),
            ..Help::default()
        }
    }

    /// The reference rows the search leaves (those that insert something first).
    pub fn found(&self) -> Vec<&Row> {
        found(&self.rows, self.search.text())
    }
}

/// The rows of `rows` whose construct, meaning or section contains `search` (smart case), in
/// the reference's order.
fn found<'a>(rows: &'a [Row], search: &str) -> Vec<&'a Row> {
    rows.iter()
        .filter(|r| contains_smart(&format!("{} {} {}", r.syntax, r.meaning, r.section), search))
        .collect()
}

impl Popup for Help {
    fn update(&mut self, action: &Action, cx: &mut PopupCx) -> Outcome {
        let insertable = self.found().iter().filter(|r| r.insert.is_some()).count();
        match action {
            Action::ToggleHelp | Action::Back => return Outcome::Close,
            Action::Edit(Edit::Up) => self.chosen = self.chosen.saturating_sub(1),
            Action::Edit(Edit::Down) => {
                self.chosen = (self.chosen + 1).min(insertable.saturating_sub(1))
            }
            Action::Edit(Edit::PageUp) => self.scroll = self.scroll.saturating_sub(10),
            Action::Edit(Edit::PageDown) => self.scroll += 10,
            Action::Edit(Edit::Newline) | Action::Activate => {
                let chosen = self
                    .found()
                    .into_iter()
                    .filter(|r| r.insert.is_some())
                    .nth(self.chosen)
                    .and_then(|r| r.insert.map(|(b, a)| (b.to_string(), a.to_string())));
                return match chosen {
                    Some((before, after)) => {
                        *cx.then = Some(Action::InsertInPattern { before, after });
                        Outcome::Close
                    }
                    None => {
                        *cx.message = Some("no construct matches the search".into());
                        Outcome::Stay
                    }
                };
            }
            Action::Edit(e) if apply_line(&mut self.search, e) => {
                self.chosen = 0;
                self.scroll = 0;
            }
            Action::Wheel { delta, .. } => {
                self.scroll = (self.scroll as i64 + *delta as i64 * 3).max(0) as usize
            }
            _ => {}
        }
        Outcome::Stay
    }

    /// Drawn centred over `area`.
    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx) {
        // A help made without a flavor (`Help::default()`) asks for the reference here.
        let computed;
        let rows: &[Row] = if self.rows.is_empty() {
            computed = quick_reference(cx.flavor);
            &computed
        } else {
            &self.rows
        };
        let (text, chosen_line) = lines_for(cx, rows, self.search.text(), Some(self.chosen));
        let h = (text.len() as u16 + 2).min(area.height.saturating_sub(2));
        let r = centred(area, area.width.saturating_sub(4).min(96), h);
        let inner = usize::from(h.saturating_sub(2));
        let max_scroll = text.len().saturating_sub(inner);
        // The chosen construct stays on screen.
        let mut scroll = self.scroll.min(max_scroll);
        if let Some(at) = chosen_line {
            if at < scroll {
                scroll = at;
            } else if at >= scroll + inner {
                scroll = at + 1 - inner;
            }
        }
        draw_box(
            f,
            r,
            " Help · type to search · ↑↓ choose · Enter inserts it in the pattern · F1 or Esc closes ",
            Paragraph::new(text).scroll((scroll as u16, 0)),
            cx.palette,
        );
    }

    /// An editor: typed characters search.
    fn context(&self) -> Option<Context> {
        Some(Context::Editor)
    }

    fn covers(&self) -> bool {
        true
    }
}

/// The lines of the whole help text (no search).
pub fn lines(cx: &PopupDrawCx) -> Vec<Line<'static>> {
    lines_for(cx, &quick_reference(cx.flavor), "", None).0
}

/// The help text for `search`, with the `chosen` insertable construct marked, and the line
/// it is on.
fn lines_for(
    cx: &PopupDrawCx,
    reference: &[Row],
    search: &str,
    chosen: Option<usize>,
) -> (Vec<Line<'static>>, Option<usize>) {
    let p = cx.palette;
    let rows = help_rows();
    let key_w = rows
        .iter()
        .map(|(_, k, _)| k.chars().count())
        .max()
        .unwrap_or(10)
        .min(26);
    let mut out = Vec::new();
    // The flavor's syntax first: what a regex101 user looks up.
    let flavor = cx.flavor;
    out.push(Line::from(Span::styled(
        format!("Syntax of {} ({})", flavor.label(), flavor.rules().engine),
        chrome(Chrome::Focused, p),
    )));
    if chosen.is_some() {
        out.push(Line::from(vec![
            Span::styled("  search: ", chrome(Chrome::Dim, p)),
            Span::raw(search.to_string()),
            Span::styled("▏", chrome(Chrome::Dim, p)),
        ]));
    }
    let shown = found(reference, search);
    let ref_w = shown
        .iter()
        .map(|r| r.syntax.chars().count())
        .max()
        .unwrap_or(10)
        .min(30);
    let mut chosen_line = None;
    let mut insertable = 0;
    for r in &shown {
        let is_chosen = r.insert.is_some() && chosen == Some(insertable);
        if r.insert.is_some() {
            insertable += 1;
        }
        let mark = if is_chosen { "> " } else { "  " };
        if is_chosen {
            chosen_line = Some(out.len());
        }
        let syntax = format!("{mark}{:<ref_w$}  ", r.syntax);
        out.push(Line::from(vec![
            if is_chosen {
                Span::styled(syntax, chrome(Chrome::Selected, p))
            } else {
                Span::raw(syntax)
            },
            Span::styled(r.meaning.clone(), chrome(Chrome::Dim, p)),
        ]));
    }
    if shown.is_empty() {
        out.push(Line::from(Span::styled(
            "  (no construct of this flavor matches the search)",
            chrome(Chrome::Dim, p),
        )));
    }
    let wanted = |keys: &str, help: &str| contains_smart(&format!("{keys} {help}"), search);
    let row = |keys: &str, help: &'static str| {
        Line::from(vec![
            Span::raw(format!("  {keys:<key_w$}  ")),
            Span::styled(help, chrome(Chrome::Dim, p)),
        ])
    };
    for ctx in [
        Context::Global,
        Context::Editor,
        Context::Pattern,
        Context::List,
    ] {
        let these: Vec<_> = rows
            .iter()
            .filter(|(c, k, h)| *c == ctx && wanted(k, h))
            .collect();
        if these.is_empty() {
            continue;
        }
        out.push(Line::from(Span::styled(
            ctx.title(),
            chrome(Chrome::Focused, p),
        )));
        for (_, keys, help) in these {
            out.push(row(keys, help));
        }
    }
    // Each tab's own keys (those that work only while it is shown), the shown tab first.
    let shown_tab = cx.shown;
    let mut tabs: Vec<(TabId, &'static str)> = cx.tabs.clone();
    tabs.sort_by_key(|&(id, _)| id != shown_tab);
    for (id, title) in tabs {
        let own: Vec<_> = tab_help_rows(id)
            .into_iter()
            .filter(|(k, h)| wanted(k, h))
            .collect();
        if own.is_empty() {
            continue;
        }
        out.push(Line::from(Span::styled(
            format!("In the {title} tab"),
            chrome(Chrome::Focused, p),
        )));
        for (keys, help) in own {
            // "Lens: next hit" reads "next hit" under "In the Lens tab".
            let help = help
                .strip_prefix(title)
                .and_then(|h| h.strip_prefix(": "))
                .unwrap_or(help);
            out.push(row(&keys, help));
        }
    }
    (out, chosen_line)
}
