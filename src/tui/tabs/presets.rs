//! The Presets tab: a filter line (type to filter), the registry's presets, and the selected
//! preset's pattern, groups (with their descriptions) and examples. Enter loads the preset:
//! pattern, flavor, flags and its examples as tests.

use super::{DrawCx, Handled, Request, Tab, TabCx, TabEvent, TabId};
use crate::highlight::Kind;
use crate::tui::action::apply_line;
use crate::tui::action::{Action, Context, Edit};
use crate::tui::presets::PresetBrowser;
use crate::tui::text::clip;
use crate::tui::theme::{Chrome, chrome, style};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The tab's identity.
pub const ID: TabId = TabId("presets");

/// The preset browser.
#[derive(Debug, Default)]
pub struct PresetsTab {
    /// The presets, the filter and the selection.
    pub browser: PresetBrowser,
}

fn detail_height(body: Rect) -> u16 {
    (body.height / 2).min(10)
}

/// Rows of the list inside the tab body `body`.
pub fn list_rows(body: Rect) -> usize {
    body.height.saturating_sub(1 + detail_height(body)) as usize
}

impl PresetsTab {
    /// A tab over `browser`.
    pub fn new(browser: PresetBrowser) -> PresetsTab {
        PresetsTab { browser }
    }

    /// Loads the selected preset into the workbench: pattern, flavor, flags, tests.
    fn load(&self, cx: &mut TabCx) {
        let Some(p) = self.browser.selected_preset() else {
            return;
        };
        let wb = &mut *cx.wb;
        wb.flavor = p.flavor;
        wb.flags = p.flags;
        wb.pattern.set(&p.pattern);
        let tests = p.test_lines();
        let n = tests.lines().count();
        wb.tests.replace_all(tests);
        wb.preset = Some(p.key.clone());
        cx.message(format!("loaded preset {} ({n} tests)", p.key));
        cx.request(Request::PatternChanged);
    }
}

impl Tab for PresetsTab {
    fn id(&self) -> TabId {
        ID
    }

    fn title(&self) -> &'static str {
        "Presets"
    }

    fn context(&self) -> Context {
        Context::Editor
    }

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        let page = cx.body_rows() as isize;
        match action {
            Action::Activate | Action::Edit(Edit::Newline) => self.load(cx),
            Action::Edit(Edit::Up) => self.browser.move_by(-1),
            Action::Edit(Edit::Down) => self.browser.move_by(1),
            Action::Edit(Edit::PageUp) => self.browser.move_by(-page),
            Action::Edit(Edit::PageDown) => self.browser.move_by(page),
            Action::Edit(other) => {
                if apply_line(&mut self.browser.filter, other) {
                    self.browser.refilter();
                }
            }
            _ => return Handled::NotConsumed,
        }
        Handled::Consumed
    }

    fn on_event(&mut self, event: TabEvent, cx: &mut TabCx) {
        if event == TabEvent::PresetsReloaded
            && let Some((browser, key)) = cx.shared.reloaded_presets.take()
        {
            self.browser = browser;
            self.browser.select_key(&key);
        }
    }

    fn click(&mut self, _col: u16, row: u16, cx: &mut TabCx) -> Handled {
        if row >= 1 {
            self.browser.click_row(row as usize - 1, list_rows(cx.body));
        }
        Handled::Consumed
    }

    fn wheel(&mut self, delta: i32, _cx: &mut TabCx) -> Handled {
        self.browser.move_by(delta as isize);
        Handled::Consumed
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let p = cx.palette;
        let b = &self.browser;
        let focused = cx.typing();
        let w = area.width as usize;
        let mut lines = vec![Line::from(vec![
            Span::styled("filter: ", chrome(Chrome::Dim, p)),
            Span::raw(b.filter.text().to_string()),
            Span::styled(
                format!("   {} of {} · Enter loads", b.visible.len(), b.all.len()),
                chrome(Chrome::Dim, p),
            ),
        ])];
        let rows = list_rows(area);
        let top = b.top(rows);
        let key_w = b
            .all
            .iter()
            .map(|p| p.key.chars().count())
            .max()
            .unwrap_or(4)
            .min(20);
        for (row, &i) in b.visible.iter().enumerate().skip(top).take(rows) {
            let pv = &b.all[i];
            let mut line = Line::from(vec![
                Span::styled(
                    format!(" {:<key_w$} ", clip(&pv.key, key_w)),
                    style(Kind::Name, p),
                ),
                Span::raw(clip(&pv.description, w.saturating_sub(key_w + 3))),
            ]);
            if row == b.selected {
                line = line.style(chrome(Chrome::Selected, p));
            }
            lines.push(line);
        }
        if let Some(e) = &b.load_error {
            lines.push(Line::from(Span::styled(
                clip(e, w),
                chrome(Chrome::Error, p),
            )));
        } else if b.visible.is_empty() {
            lines.push(Line::from(Span::styled(
                "no preset matches the filter",
                chrome(Chrome::Dim, p),
            )));
        }
        while lines.len() < 1 + rows {
            lines.push(Line::from(""));
        }
        if let Some(pv) = b.selected_preset() {
            lines.push(Line::from(Span::styled(
                "─".repeat(w),
                chrome(Chrome::Dim, p),
            )));
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{} · {} ", pv.flavor, pv.origin),
                    chrome(Chrome::Dim, p),
                ),
                Span::raw(clip(&pv.pattern, w.saturating_sub(16))),
            ]));
            for (k, (name, desc)) in pv.groups.iter().enumerate() {
                lines.push(Line::from(vec![
                    Span::styled(format!(" {name} "), style(Kind::Group(k), p)),
                    Span::raw(format!(
                        " {}",
                        clip(desc, w.saturating_sub(name.chars().count() + 4))
                    )),
                ]));
            }
            for e in pv.examples.iter().take(2) {
                lines.push(Line::from(vec![
                    Span::styled("  e.g. ", chrome(Chrome::Dim, p)),
                    Span::raw(clip(e, w.saturating_sub(8))),
                ]));
            }
        }
        f.render_widget(Paragraph::new(lines), area);
        if focused && area.height > 0 {
            let x = area.x as usize + 8 + b.filter.cursor_chars();
            if x < (area.x + area.width) as usize {
                f.set_cursor_position((x as u16, area.y));
            }
        }
    }
}
