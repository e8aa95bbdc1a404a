//! The help overlay, generated from the keymap.

use super::{Outcome, Popup, PopupCx, PopupDrawCx, centred};
use crate::tui::action::{Action, Context, Edit};
use crate::tui::keymap::{help_rows, tab_help_rows};
use crate::tui::tabs::TabId;
use crate::tui::theme::{Chrome, chrome};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// The help overlay: its scroll position.
#[derive(Debug, Clone, Default)]
pub struct Help {
    /// First line on screen.
    pub scroll: usize,
}

impl Popup for Help {
    fn update(&mut self, action: &Action, _cx: &mut PopupCx) -> Outcome {
        match action {
            Action::ToggleHelp | Action::Back | Action::Edit(Edit::Insert('q' | '?')) => {
                return Outcome::Close;
            }
            Action::Edit(Edit::Up) => self.scroll = self.scroll.saturating_sub(1),
            Action::Edit(Edit::Down) => self.scroll += 1,
            Action::Edit(Edit::PageUp) => self.scroll = self.scroll.saturating_sub(10),
            Action::Edit(Edit::PageDown) => self.scroll += 10,
            Action::Wheel { delta, .. } => {
                self.scroll = (self.scroll as i64 + *delta as i64 * 3).max(0) as usize
            }
            _ => {}
        }
        Outcome::Stay
    }

    /// Drawn centred over `area`.
    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx) {
        let text = lines(cx);
        let h = (text.len() as u16 + 2).min(area.height.saturating_sub(2));
        let r = centred(area, area.width.saturating_sub(4).min(84), h);
        let max_scroll = (text.len() as u16).saturating_sub(h.saturating_sub(2));
        let scroll = (self.scroll as u16).min(max_scroll);
        let block = Block::bordered()
            .title(" Help · ↑↓ PgUp PgDn scroll · F1, ? or Esc closes ")
            .border_style(chrome(Chrome::Focused, cx.palette));
        f.render_widget(Clear, r);
        f.render_widget(Paragraph::new(text).block(block).scroll((scroll, 0)), r);
    }

    fn context(&self) -> Option<Context> {
        None
    }

    fn covers(&self) -> bool {
        true
    }
}

/// The lines of the help text.
pub fn lines(cx: &PopupDrawCx) -> Vec<Line<'static>> {
    let p = cx.palette;
    let rows = help_rows();
    let key_w = rows
        .iter()
        .map(|(_, k, _)| k.chars().count())
        .max()
        .unwrap_or(10)
        .min(26);
    let mut out = Vec::new();
    // The flavor's syntax first, from its rules: what a regex101 user looks up.
    let flavor = cx.flavor;
    out.push(Line::from(Span::styled(
        format!("Syntax of {} ({})", flavor.label(), flavor.rules().engine),
        chrome(Chrome::Focused, p),
    )));
    let reference = flavor.quick_reference();
    let ref_w = reference
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(10)
        .min(30);
    for (construct, meaning) in reference {
        out.push(Line::from(vec![
            Span::raw(format!("  {construct:<ref_w$}  ")),
            Span::styled(meaning, chrome(Chrome::Dim, p)),
        ]));
    }
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
        out.push(Line::from(Span::styled(
            ctx.title(),
            chrome(Chrome::Focused, p),
        )));
        for (c, keys, help) in &rows {
            if *c == ctx {
                out.push(row(keys, help));
            }
        }
    }
    // Each tab's own keys (those that work only while it is shown), the shown tab first.
    let shown = cx.shown;
    let mut tabs: Vec<(TabId, &'static str)> = cx.tabs.clone();
    tabs.sort_by_key(|&(id, _)| id != shown);
    for (id, title) in tabs {
        let own: Vec<_> = tab_help_rows(id);
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
    out
}
