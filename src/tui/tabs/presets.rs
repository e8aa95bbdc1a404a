//! The Presets tab: a filter line (type to filter), the registry's presets, and the selected
//! preset's pattern, groups (with their descriptions) and examples. Enter loads the preset:
//! pattern, flavor, flags and its examples as tests. Ctrl-R writes the registry exported for
//! the next fleet engine (ClickHouse, DuckDB, Vector, Loki, Elasticsearch, Spark) and shows
//! the selected preset's form there (exact, rewrite, or why it is refused).

use super::{DrawCx, Handled, Request, Tab, TabCommand, TabCx, TabEvent, TabId};
use crate::fleet::render::{self, RenderOptions};
use crate::fleet::{self, Target};
use crate::highlight::Kind;
use crate::tui::action::apply_line;
use crate::tui::action::{Action, Binding, Context, Edit, KeySpec, bind};
use crate::tui::presets::PresetBrowser;
use crate::tui::text::clip;
use crate::tui::theme::{Chrome, chrome, style};
use crossterm::event::{KeyCode as K, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The tab's identity.
pub const ID: TabId = TabId("presets");

/// Export the registry for the next engine.
pub const EXPORT: TabCommand = TabCommand {
    tab: ID,
    name: "export-registry",
};

static KEYS: &[Binding] = &[bind!(
    Editor,
    Action::Tab(EXPORT),
    "Presets tab: write the registry for the next engine (clickhouse, duckdb, vector, loki, elasticsearch, spark)",
    false,
    [KeySpec::Key(K::Char('r'), KeyModifiers::CONTROL)]
)];

/// The last export written from the tab.
#[derive(Debug, Clone)]
pub struct LastExport {
    /// The engine.
    pub target: Target,
    /// The file written.
    pub path: PathBuf,
    /// Each preset's form there: `exact`, `rewrite`, or `refused: why`.
    pub forms: BTreeMap<String, String>,
}

/// The preset browser.
#[derive(Debug, Default)]
pub struct PresetsTab {
    /// The presets, the filter and the selection.
    pub browser: PresetBrowser,
    /// Where exports are written (the working directory when empty).
    pub export_dir: PathBuf,
    /// The last export, whose forms the detail shows.
    pub last_export: Option<LastExport>,
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
        PresetsTab {
            browser,
            ..PresetsTab::default()
        }
    }

    /// Writes the whole registry for the engine after the last one exported (ClickHouse
    /// first) to `rxw-registry.<target>.<ext>`, and remembers each preset's form.
    fn export_next(&mut self, cx: &mut TabCx) {
        let target = match &self.last_export {
            None => Target::ALL[0],
            Some(last) => {
                let i = Target::ALL
                    .iter()
                    .position(|t| *t == last.target)
                    .unwrap_or(0);
                Target::ALL[(i + 1) % Target::ALL.len()]
            }
        };
        let entries: Vec<_> = self.browser.catalog.entries().iter().collect();
        if entries.is_empty() {
            cx.message("no presets to export");
            return;
        }
        let exports = fleet::export(&entries, target);
        let text = render::render(target, &exports, &RenderOptions::default());
        let path = self.export_dir.join(format!(
            "rxw-registry.{}.{}",
            target.name(),
            target.extension()
        ));
        if let Err(e) = std::fs::write(&path, text) {
            cx.message(format!("cannot write {}: {e}", path.display()));
            return;
        }
        let forms: BTreeMap<String, String> = exports
            .iter()
            .map(|e| {
                let form = match &e.outcome {
                    Err(why) => format!("refused: {}", why.message),
                    Ok(_) => e.form_name().to_string(),
                };
                (e.key.clone(), form)
            })
            .collect();
        let refused = forms.values().filter(|f| f.starts_with("refused")).count();
        cx.message(format!(
            "wrote {} ({} presets, {refused} refused); check it with rxw registry verify --to {}",
            path.display(),
            forms.len(),
            target.name()
        ));
        self.last_export = Some(LastExport {
            target,
            path,
            forms,
        });
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

    fn keymap(&self) -> &'static [Binding] {
        KEYS
    }

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        let page = cx.body_rows() as isize;
        match action {
            Action::Tab(c) if *c == EXPORT => self.export_next(cx),
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
                format!(
                    "   {} of {} · Enter loads · Ctrl-R exports for an engine",
                    b.visible.len(),
                    b.all.len()
                ),
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
            if let Some(last) = &self.last_export
                && let Some(form) = last.forms.get(&pv.key)
            {
                let kind = if form.starts_with("refused") {
                    Chrome::Error
                } else {
                    Chrome::Dim
                };
                lines.push(Line::from(Span::styled(
                    clip(&format!(" {}: {form}", last.target.title()), w),
                    chrome(kind, p),
                )));
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
