//! The Presets tab: a filter line (type to filter), the registry's presets, and the selected
//! preset's pattern, groups (with their descriptions) and examples. Enter loads the preset:
//! pattern, flavor, flags and its examples as tests. Ctrl-R shows the registry exported for
//! the next fleet engine (ClickHouse, DuckDB, Vector, Loki, Elasticsearch, Spark), asks where
//! to write it (nothing is written unless the user accepts a path), and opens the export pane: the selected preset's definition for that engine, highlighted, with its
//! verification verdict (agree, differs on a line with both answers, or refused with the
//! reason under a caret). Ctrl-P copies the definition.
//!
//! The verification runs the engine's own component (`rxw registry verify`'s) on a worker
//! thread; the pane shows how long it has run, a new selection or engine cancels it (its
//! process is killed), and no key ever waits for it.

use super::{DrawCx, Handled, Request, Tab, TabCommand, TabCx, TabEvent, TabId};
use crate::codegen::highlight;
use crate::fleet::engines::{Stop, VerifyOptions, verify_records};
use crate::fleet::render::{self, RenderOptions};
use crate::fleet::{self, Target};
use crate::highlight::Kind;
use crate::tui::action::Effect;
use crate::tui::action::apply_line;
use crate::tui::action::{Action, Binding, CTRL, Context::Editor, Edit, KeySpec::Key};
use crate::tui::presets::PresetBrowser;
use crate::tui::text::clip;
use crate::tui::theme::Palette;
use crate::tui::theme::{Chrome, chrome, style};
use crate::wire::{Verdict, VerifyRecord};
use crossterm::event::KeyCode as K;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// The tab's identity.
pub const ID: TabId = TabId("presets");

/// Export the registry for the next engine.
pub const EXPORT: TabCommand = ID.command("export-registry");

/// Write the shown engine's registry to the path the prompt answered.
pub const WRITE_EXPORT: TabCommand = ID.command("write-export");

/// Copy the export pane's definition.
pub const COPY_EXPORT: TabCommand = ID.command("copy-export");

/// Load the export pane's pattern into the workbench, in the engine's flavor.
pub const LOAD_EXPORT: TabCommand = ID.command("load-export");

static KEYS: &[Binding] = &[
    Editor.bind(Action::Tab(EXPORT), "Presets tab: next engine (clickhouse, duckdb, vector, loki, elasticsearch, spark): show and verify the selected preset there, and ask where to write the registry for it", &[Key(K::Char('r'), CTRL)]),
    Editor.bind(Action::Tab(COPY_EXPORT), "Presets tab: copy the shown export", &[Key(K::Char('p'), CTRL)]),
    Editor.bind(Action::Tab(LOAD_EXPORT), "Presets tab: load the shown export's pattern in the engine's flavor (re2 for ClickHouse and DuckDB, go for Loki, rust for Vector, java@17 for Spark): its matches as that engine finds them", &[Key(K::Char('n'), CTRL)]),
];

/// Where the export pane's verification is.
#[derive(Debug)]
pub enum Verification {
    /// Running on a worker since `started`; setting `cancel` kills the engine.
    Running {
        /// When it started.
        started: Instant,
        /// Set to stop it.
        cancel: Arc<AtomicBool>,
        /// The worker's answer.
        reply: Receiver<Result<VerifyRecord, String>>,
    },
    /// The engine's verdict, or why it could not be run.
    Done(Result<VerifyRecord, String>),
    /// Nothing to run: the preset is refused for the engine.
    Refused,
}

/// The export pane: one preset written for one engine, and its verification.
#[derive(Debug)]
pub struct ExportPane {
    /// The engine.
    pub target: Target,
    /// The preset shown.
    pub key: String,
    /// The definition (the file `rxw registry export --to TARGET --preset KEY` writes).
    pub text: String,
    /// The exported pattern, when the export is one pattern run as it stands (not refused,
    /// not a rewrite).
    pub pattern: Option<String>,
    /// `exact`, `rewrite` or `refused`.
    pub form: &'static str,
    /// The refusal's reason and its caret lines.
    pub refusal: Option<(String, Option<String>)>,
    /// The first line of the definition to show (the preset's own part).
    pub first_line: usize,
    /// The highlighted lines for a palette, and the grammar used (computed on first draw).
    lines: std::cell::RefCell<Option<(Palette, &'static str, Vec<Line<'static>>)>>,
    /// The verification.
    pub verification: Verification,
    /// When the progress was last redrawn.
    ticked: Instant,
}

impl ExportPane {
    /// The verification's verdict for the status of the pane, one line.
    pub fn verdict_line(&self) -> String {
        match &self.verification {
            Verification::Running { started, .. } => format!(
                "verifying on the engine… {:.1} s (keys keep working; another preset or engine cancels it)",
                started.elapsed().as_secs_f64()
            ),
            Verification::Refused => match &self.refusal {
                Some((why, _)) => format!("refused because {why}"),
                None => "refused".into(),
            },
            Verification::Done(Err(why)) => format!("not verified: {why}"),
            Verification::Done(Ok(r)) => match r.verdict {
                Verdict::Agree => format!(
                    "agree: {} hits, the same as rxw, on {}",
                    r.hits_engine, r.engine
                ),
                Verdict::Differ => format!(
                    "differs on {}",
                    r.first_difference.as_deref().unwrap_or("a line")
                ),
                Verdict::Refused => format!(
                    "refused because {}",
                    r.reason.as_deref().unwrap_or("the engine cannot say it")
                ),
            },
        }
    }

    /// Whether the worker is still running.
    pub fn running(&self) -> bool {
        matches!(self.verification, Verification::Running { .. })
    }

    /// The grammar and the highlighted lines for `palette`.
    pub fn lines(&self, palette: Palette) -> (&'static str, Vec<Line<'static>>) {
        let mut cache = self.lines.borrow_mut();
        if let Some((p, g, lines)) = &*cache
            && *p == palette
        {
            return (g, lines.clone());
        }
        let (g, lines) = highlighted(&self.text, self.target, palette);
        *cache = Some((palette, g, lines.clone()));
        (g, lines)
    }

    fn cancel(&self) {
        if let Verification::Running { cancel, .. } = &self.verification {
            cancel.store(true, Ordering::Relaxed);
        }
    }
}

impl Drop for ExportPane {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The definition's lines, highlighted (plain in monochrome).
fn highlighted(text: &str, target: Target, palette: Palette) -> (&'static str, Vec<Line<'static>>) {
    if !palette.is_color() {
        let plain = text.lines().map(|l| Line::from(l.to_string())).collect();
        return ("none (monochrome)", plain);
    }
    // The light theme's syntax colours read as dark inks on a light background.
    let (grammar, runs) = highlight::highlight_as_on(text, target.grammars(), palette.background());
    let lines = crate::tui::text::styled_lines(runs);
    (grammar, lines)
}

/// What a load says of the pattern it replaced: `; replaced \`OLD…\` (Ctrl-Z in the pattern
/// brings it back)`, or nothing when the pattern was empty or is the same.
fn replaced_note(old: &str, new: &str) -> String {
    if old.is_empty() || old == new {
        return String::new();
    }
    let shown: String = old.chars().take(40).collect();
    let more = if old.chars().count() > 40 { "…" } else { "" };
    format!("; replaced `{shown}{more}` (Ctrl-Z in the pattern brings it back)")
}

/// The last export written from the tab.
#[derive(Debug, Clone)]
pub struct LastExport {
    /// The engine.
    pub target: Target,
    /// The file written, once the user accepted a path.
    pub path: Option<PathBuf>,
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
    /// The export pane (after the first Ctrl-R).
    pub pane: Option<ExportPane>,
}

fn detail_height(body: Rect, pane: bool) -> u16 {
    if pane {
        body.height.saturating_sub(1) * 2 / 3
    } else {
        (body.height / 2).min(10)
    }
}

/// Rows of the list inside the tab body `body` (`pane`: the export pane is open).
pub fn list_rows(body: Rect, pane: bool) -> usize {
    body.height.saturating_sub(1 + detail_height(body, pane)) as usize
}

impl PresetsTab {
    /// A tab over `browser`.
    pub fn new(browser: PresetBrowser) -> PresetsTab {
        PresetsTab {
            browser,
            ..PresetsTab::default()
        }
    }

    /// Shows the registry exported for the engine after the last one (ClickHouse first):
    /// each preset's form, and the selected preset in the export pane, verified there. Then
    /// asks where to write the whole file (a free name offered); nothing is written unless
    /// the user accepts.
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
        let forms: BTreeMap<String, String> = fleet::export(&entries, target)
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
            "{}: {} presets, {refused} refused",
            target.name(),
            forms.len()
        ));
        self.last_export = Some(LastExport {
            target,
            path: None,
            forms,
        });
        self.show_export();
        let default = crate::export::free_name(
            &self.export_dir,
            &format!("rxw-registry.{}", target.name()),
            target.extension(),
        );
        cx.request(Request::AskPath {
            title: format!("Write the registry for {} to", target.name()),
            default: default.display().to_string(),
            hint: "Ctrl-R next engine".into(),
            answer: WRITE_EXPORT,
        });
    }

    /// Writes the whole registry for the shown engine to `path` (atomically: a reader sees
    /// the old file or the new one) and says where.
    fn write_export(&mut self, path: &str, cx: &mut TabCx) {
        let Some(last) = &mut self.last_export else {
            cx.message("Ctrl-R first: it shows the registry exported for an engine");
            return;
        };
        let entries: Vec<_> = self.browser.catalog.entries().iter().collect();
        let exports = fleet::export(&entries, last.target);
        let text = render::render(last.target, &exports, &RenderOptions::default());
        let path = crate::tui::popups::path::expand_home(path);
        match crate::export::write_atomically(&path, text.as_bytes()) {
            Ok(()) => {
                let refused = last
                    .forms
                    .values()
                    .filter(|f| f.starts_with("refused"))
                    .count();
                cx.message(format!(
                    "wrote {} ({} presets, {refused} refused); check it with rxw registry verify --to {}",
                    path.display(),
                    last.forms.len(),
                    last.target.name()
                ));
                last.path = Some(path);
            }
            Err(e) => cx.message(format!("nothing written: {}", e.message)),
        }
    }

    /// Opens (or refreshes) the export pane for the selected preset on the last export's
    /// engine, and starts its verification on a worker (the previous one is cancelled).
    pub fn show_export(&mut self) {
        let Some(target) = self.last_export.as_ref().map(|l| l.target) else {
            return;
        };
        let Some(key) = self.browser.selected_preset().map(|p| p.key.clone()) else {
            self.pane = None;
            return;
        };
        if self
            .pane
            .as_ref()
            .is_some_and(|p| p.key == key && p.target == target)
        {
            return;
        }
        let catalog = self.browser.catalog.clone();
        let Some(entry) = catalog.entries().iter().find(|e| e.preset.key == key) else {
            self.pane = None;
            return;
        };
        let exports = fleet::export(&[entry], target);
        let export = &exports[0];
        let text = render::render(target, &exports, &RenderOptions::default());
        let first_line = text
            .lines()
            .position(|l| l.contains(&format!("preset {key}")))
            .unwrap_or(0);
        let refusal = export
            .outcome
            .as_ref()
            .err()
            .map(|e| (e.message.clone(), e.caret()));
        let verification = if export.outcome.is_err() {
            Verification::Refused
        } else {
            let cancel = Arc::new(AtomicBool::new(false));
            let (tx, reply) = std::sync::mpsc::channel();
            let opts = VerifyOptions {
                spark_session: false,
                stop: Stop {
                    deadline: None,
                    cancel: Some(cancel.clone()),
                },
            };
            let exports = exports.clone();
            let key = key.clone();
            std::thread::spawn(move || {
                let Some(entry) = catalog.entries().iter().find(|e| e.preset.key == key) else {
                    let _ = tx.send(Err(format!("{key} left the registry")));
                    return;
                };
                let answer = verify_records(&[entry], &exports, target, &opts)
                    .map_err(|e| e.message)
                    .and_then(|mut r| r.pop().ok_or_else(|| "no record came back".to_string()));
                let _ = tx.send(answer);
            });
            Verification::Running {
                started: Instant::now(),
                cancel,
                reply,
            }
        };
        let pattern = match &export.outcome {
            Ok(fleet::Definition {
                form: fleet::Form::Exact { pattern },
                ..
            }) => Some(pattern.clone()),
            _ => None,
        };
        self.pane = Some(ExportPane {
            target,
            key,
            form: export.form_name(),
            text,
            pattern,
            refusal,
            first_line,
            lines: std::cell::RefCell::new(None),
            verification,
            ticked: Instant::now(),
        });
    }

    /// Puts the pane's definition on the clipboard.
    fn copy_export(&self, cx: &mut TabCx) {
        match &self.pane {
            Some(p) if p.form != "refused" => cx.request(Request::Effect(Effect::Copy {
                text: p.text.clone(),
                what: format!("{} export of {}", p.target.title(), p.key),
            })),
            Some(p) => cx.message(format!(
                "{} cannot be written for {}: nothing to copy",
                p.key,
                p.target.title()
            )),
            None => cx.message("Ctrl-R first: it shows the selected preset exported for an engine"),
        }
    }

    /// Loads the export pane's pattern into the workbench in the flavor of the engine it was
    /// written for, so that the workbench shows the matches that engine finds (one undo step,
    /// as loading a preset is).
    fn load_export(&self, cx: &mut TabCx) {
        let Some(pane) = &self.pane else {
            cx.message("Ctrl-R first: it shows the selected preset exported for an engine");
            return;
        };
        let title = pane.target.title();
        let Some(flavor) = pane.target.flavor() else {
            cx.message(format!(
                "rxw has no flavor of {title}'s engine yet: the export can be verified on the \
                 engine itself (shown above), not loaded"
            ));
            return;
        };
        let Some(pattern) = &pane.pattern else {
            cx.message(format!(
                "{} is {} for {title}: no single pattern to load",
                pane.key, pane.form
            ));
            return;
        };
        let wb = &mut *cx.wb;
        let replaced = replaced_note(wb.pattern.text(), pattern);
        wb.flavor = flavor;
        wb.flags = crate::Flags::default();
        wb.pattern.set(pattern);
        wb.preset = None;
        cx.message(format!(
            "loaded {} as exported for {title}, in the {flavor} flavor: the matches that engine finds{replaced}",
            pane.key
        ));
        cx.request(Request::PatternChanged);
    }

    /// Loads the selected preset into the workbench: pattern, flavor, flags, tests.
    fn load(&self, cx: &mut TabCx) {
        let Some(p) = self.browser.selected_preset() else {
            return;
        };
        let wb = &mut *cx.wb;
        let replaced = replaced_note(wb.pattern.text(), &p.pattern);
        wb.flavor = p.flavor;
        wb.flags = p.flags;
        wb.pattern.set(&p.pattern);
        let tests = p.test_lines();
        let n = tests.lines().count();
        // One edit each: Ctrl-Z in the pattern and in the Tests tab bring back what was there.
        wb.tests.replace_all_undoably(tests);
        wb.preset = Some(p.key.clone());
        cx.message(format!("loaded preset {} ({n} tests){replaced}", p.key));
        cx.request(Request::PatternChanged);
    }
}

impl Tab for PresetsTab {
    super::face!("Presets", KEYS, Editor);

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        let page = cx.body_rows() as isize;
        match action {
            Action::Tab(c) if *c == EXPORT => self.export_next(cx),
            Action::Answer(c, path) if *c == WRITE_EXPORT => self.write_export(path, cx),
            Action::Tab(c) if *c == COPY_EXPORT => self.copy_export(cx),
            Action::Tab(c) if *c == LOAD_EXPORT => self.load_export(cx),
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
        if self.pane.is_some() {
            self.show_export();
        }
        Handled::Consumed
    }

    fn poll(&mut self, _cx: &mut TabCx) -> bool {
        let Some(pane) = &mut self.pane else {
            return false;
        };
        let Verification::Running { reply, .. } = &pane.verification else {
            return false;
        };
        match reply.try_recv() {
            Ok(answer) => {
                pane.verification = Verification::Done(answer);
                true
            }
            Err(TryRecvError::Disconnected) => {
                pane.verification =
                    Verification::Done(Err("the verification worker stopped".into()));
                true
            }
            // The elapsed time on screen moves on.
            Err(TryRecvError::Empty) if pane.ticked.elapsed() >= Duration::from_millis(200) => {
                pane.ticked = Instant::now();
                true
            }
            Err(TryRecvError::Empty) => false,
        }
    }

    fn busy(&self) -> bool {
        self.pane.as_ref().is_some_and(ExportPane::running)
    }

    fn on_event(&mut self, event: TabEvent, cx: &mut TabCx) {
        if event == TabEvent::PresetsReloaded
            && let Some((browser, key)) = cx.shared.reloaded_presets.take()
        {
            self.browser = browser;
            self.browser.select_key(&key);
        }
        // Each preset's hits on the input (on its records' messages, as `rxw parse`) are the
        // lens's: it runs while the list is up.
        if event == TabEvent::Shown && !cx.wb.lens.is_active() {
            cx.wb.lens.activate(&cx.wb.input);
        }
    }

    fn click(&mut self, _col: u16, row: u16, cx: &mut TabCx) -> Handled {
        if row >= 1 {
            self.browser
                .click_row(row as usize - 1, list_rows(cx.body, self.pane.is_some()));
            if self.pane.is_some() {
                self.show_export();
            }
        }
        Handled::Consumed
    }

    fn wheel(&mut self, delta: i32, _cx: &mut TabCx) -> Handled {
        self.browser.move_by(delta as isize);
        if self.pane.is_some() {
            self.show_export();
        }
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
                    "   {} of {}{} · Enter loads · Ctrl-R exports for the next engine · Ctrl-P copies it",
                    b.visible.len(),
                    b.all.len(),
                    match cx.wb.lens.records() {
                        Some(fmt) if cx.wb.lens.is_active() => format!(" · hits on {fmt} records"),
                        _ if cx.wb.lens.is_active() => " · hits".to_string(),
                        _ => String::new(),
                    }
                ),
                chrome(Chrome::Dim, p),
            ),
        ])];
        let rows = list_rows(area, self.pane.is_some());
        let top = b.top(rows);
        let key_w = b
            .all
            .iter()
            .map(|p| p.key.chars().count())
            .max()
            .unwrap_or(4)
            .min(20);
        let lens = &cx.wb.lens;
        let hits_of = |key: &str| -> Option<usize> {
            if !lens.is_active() {
                return None;
            }
            let k = lens.keys().iter().position(|k| k == key)?;
            Some(lens.counts()[k])
        };
        let count_w = 8;
        for (row, &i) in b.visible.iter().enumerate().skip(top).take(rows) {
            let pv = &b.all[i];
            let count =
                hits_of(&pv.key).map_or(String::new(), |n| crate::tui::text::thousands(n as u64));
            let mut line = Line::from(vec![
                Span::styled(
                    format!(" {:<key_w$} ", clip(&pv.key, key_w)),
                    style(Kind::Name, p),
                ),
                Span::styled(format!("{count:>count_w$} "), chrome(Chrome::Dim, p)),
                Span::raw(clip(&pv.description, w.saturating_sub(key_w + count_w + 4))),
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
        if let Some(pane) = &self.pane {
            lines.push(Line::from(Span::styled(
                "─".repeat(w),
                chrome(Chrome::Dim, p),
            )));
            let (grammar, code) = pane.lines(p);
            lines.push(Line::from(Span::styled(
                clip(
                    &format!(
                        " {} · {} · {} · highlighted as {grammar} · Ctrl-R next engine · Ctrl-P copies{}",
                        pane.key,
                        pane.target.title(),
                        pane.form,
                        match pane.target.flavor() {
                            Some(f) if pane.pattern.is_some() => format!(" · Ctrl-N loads it as {f}"),
                            _ => String::new(),
                        }
                    ),
                    w,
                ),
                chrome(Chrome::Dim, p),
            )));
            let kind = match &pane.verification {
                Verification::Done(Ok(r)) if r.verdict == Verdict::Agree => Chrome::Pass,
                Verification::Running { .. } => Chrome::Dim,
                _ => Chrome::Fail,
            };
            lines.push(Line::from(Span::styled(
                clip(&format!(" {}", pane.verdict_line()), w),
                chrome(kind, p),
            )));
            if let Some((_, Some(caret))) = &pane.refusal {
                for l in caret.lines() {
                    lines.push(Line::from(Span::styled(
                        clip(&format!("   {l}"), w),
                        chrome(Chrome::Error, p),
                    )));
                }
            }
            let room = (area.height as usize).saturating_sub(lines.len());
            lines.extend(code.into_iter().skip(pane.first_line).take(room));
        } else if let Some(pv) = b.selected_preset() {
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
