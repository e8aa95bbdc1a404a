//! The Code tab: the current pattern as a program (or the Tests tab's cases as a test file)
//! in a chosen language, highlighted, or the reason it cannot be written there with a caret
//! under the construct. F4 cycles the language, Alt-t switches program and tests, Alt-c copies,
//! Alt-e switches between the exact program and the nearest one (where no exact program exists,
//! the closest, its differences listed at its top and a warning above it).
//!
//! The text is produced by [`crate::codegen`]; the highlighting (syntect) is computed once per
//! distinct content and kept, so drawing a frame costs a clone of ready lines. Nothing here
//! runs before the tab is first drawn: the grammars stay unloaded for the first frame.

use super::{DrawCx, Handled, Request, Tab, TabCommand, TabCx, TabId};
use crate::codegen::{self, Lang, highlight};
use crate::error::Error;
use crate::tui::action::Effect;
use crate::tui::action::{ALT, Action, Binding, Context::Global, Edit, KeySpec::Key, NONE};
use crate::tui::theme::{Chrome, Palette, chrome};
use crate::workbench::Workbench;
use crossterm::event::KeyCode as K;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::cell::RefCell;

/// The tab's identity.
pub const ID: TabId = TabId("code");
/// The next language.
pub const NEXT_LANG: TabCommand = ID.command("next-language");
/// Program or tests.
pub const TOGGLE_VIEW: TabCommand = ID.command("program-or-tests");
/// Exact program only, or the nearest where there is no exact one.
pub const TOGGLE_NEAREST: TabCommand = ID.command("exact-or-nearest");
/// Copy the program or the tests.
pub const COPY: TabCommand = ID.command("copy");

static KEYS: &[Binding] = &[
    Global.bind(
        Action::Tab(NEXT_LANG),
        "Code tab: next language (Rust, Python, JS, Go, Java, C#)",
        &[Key(K::F(4), NONE)],
    ),
    Global.bind(
        Action::Tab(TOGGLE_VIEW),
        "Code tab: program or the tests as a test file",
        &[Key(K::Char('t'), ALT)],
    ),
    Global.bind(
        Action::Tab(TOGGLE_NEAREST),
        "Code tab: exact program only, or the nearest where none is exact",
        &[Key(K::Char('e'), ALT)],
    ),
    Global.bind(
        Action::Tab(COPY),
        "copy the Code tab's program or tests",
        &[Key(K::Char('c'), ALT)],
    ),
];

/// What the Code tab shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CodeView {
    /// A program that prints every match.
    #[default]
    Program,
    /// The Tests tab's cases as a test file.
    Tests,
}

/// The Code tab.
#[derive(Debug, Default)]
pub struct CodeTab {
    /// The language shown once the user picked one (F4); until then the flavor's own.
    pub lang: Lang,
    /// Whether the user picked [`CodeTab::lang`]; until then the tab follows the flavor.
    pub chosen: bool,
    /// Program or tests.
    pub view: CodeView,
    /// Where no exact program exists, write the nearest (with its differences).
    pub nearest: bool,
    /// First line on screen.
    pub top: usize,
    cache: RefCell<Option<(String, Rendered)>>,
}

/// The tab's content, ready to draw.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The code, or the refusal.
    pub result: Result<String, Error>,
    /// The highlighted lines (empty on a refusal).
    pub lines: Vec<Line<'static>>,
    /// How many constructs a nearest program writes approximately (0: exact).
    pub differences: usize,
}

impl CodeTab {
    /// The language shown for a pattern of `flavor`: the one picked, else the flavor's own
    /// (a Python pattern opens as a Python program).
    pub fn shown_lang(&self, flavor: crate::Flavor) -> Lang {
        if self.chosen {
            return self.lang;
        }
        flavor.rules().language.parse().unwrap_or_default()
    }

    /// The next language after the one shown for `flavor`.
    pub fn cycle_lang(&mut self, flavor: crate::Flavor) {
        self.lang = self.shown_lang(flavor).next();
        self.chosen = true;
        self.top = 0;
    }

    /// Program ↔ tests.
    pub fn toggle_view(&mut self) {
        self.view = match self.view {
            CodeView::Program => CodeView::Tests,
            CodeView::Tests => CodeView::Program,
        };
        self.top = 0;
    }

    /// A short heading: "Python program", "JavaScript tests".
    pub fn heading(&self, flavor: crate::Flavor) -> String {
        format!(
            "{} {}",
            self.shown_lang(flavor).title(),
            match self.view {
                CodeView::Program => "program",
                CodeView::Tests => "tests",
            }
        )
    }

    /// The program or the tests for the workbench now, or why they cannot be written; with
    /// the number of constructs a nearest program writes approximately.
    fn produce_counted(&self, wb: &Workbench) -> Result<(String, usize), Error> {
        let lang = self.shown_lang(wb.flavor);
        let pattern = wb.pattern.text();
        match self.view {
            CodeView::Program if self.nearest => {
                codegen::generate_nearest(pattern, wb.flavor, wb.flags, lang)
                    .map(|(p, d)| (p.code, d.len()))
            }
            _ => self.produce(wb).map(|c| (c, 0)),
        }
    }

    /// The program or the tests for the workbench now, or why they cannot be written.
    fn produce(&self, wb: &Workbench) -> Result<String, Error> {
        let lang = self.shown_lang(wb.flavor);
        let pattern = wb.pattern.text();
        match self.view {
            CodeView::Program if self.nearest => {
                codegen::generate_nearest(pattern, wb.flavor, wb.flags, lang).map(|(p, _)| p.code)
            }
            CodeView::Program => {
                codegen::generate(pattern, wb.flavor, wb.flags, lang).map(|p| p.code)
            }
            CodeView::Tests => codegen::export_tests(
                pattern,
                wb.flavor,
                wb.flags,
                wb.replacement.text(),
                &wb.test_cases(),
                lang,
            )
            .map(|e| e.code),
        }
    }

    /// The content for the current state (computed once per distinct state).
    pub fn rendered(&self, wb: &Workbench, palette: Palette) -> Rendered {
        let lang = self.shown_lang(wb.flavor);
        let key = format!(
            "{}\u{0}{:?}\u{0}{:?}\u{0}{}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{0}{}\u{0}{}",
            self.nearest,
            lang,
            self.view,
            wb.pattern.text(),
            wb.flavor,
            wb.flags,
            palette,
            wb.replacement.text(),
            if self.view == CodeView::Tests {
                wb.tests.text()
            } else {
                ""
            },
        );
        if let Some((k, r)) = &*self.cache.borrow()
            && *k == key
        {
            return r.clone();
        }
        let (result, differences) = match self.produce_counted(wb) {
            Ok((code, d)) => (Ok(code), d),
            Err(e) => (Err(e), 0),
        };
        let lines = match &result {
            Ok(code) if palette.is_color() => crate::tui::text::styled_lines(
                highlight::highlight_on(code, lang, palette.background()),
            ),
            Ok(code) => code.lines().map(|l| Line::from(l.to_string())).collect(),
            Err(_) => Vec::new(),
        };
        let r = Rendered {
            result,
            lines,
            differences,
        };
        *self.cache.borrow_mut() = Some((key, r.clone()));
        r
    }

    /// The text to copy: the program or the tests, or why there is none.
    pub fn copy_text(&self, wb: &Workbench) -> Result<(String, String), String> {
        match self.produce(wb) {
            Ok(code) => Ok((code, self.heading(wb.flavor))),
            Err(e) => Err(format!("no {}: {}", self.heading(wb.flavor), e.message)),
        }
    }
}

/// Lines of the tab's body below its header.
fn body_rows(area: Rect) -> usize {
    (area.height as usize).saturating_sub(1)
}

impl Tab for CodeTab {
    super::face!("Code", KEYS);

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        match action {
            Action::Tab(c) if *c == NEXT_LANG => self.cycle_lang(cx.wb.flavor),
            Action::Tab(c) if *c == TOGGLE_VIEW => self.toggle_view(),
            Action::Tab(c) if *c == TOGGLE_NEAREST => {
                self.nearest = !self.nearest;
                self.top = 0;
            }
            Action::Tab(c) if *c == COPY => match self.copy_text(cx.wb) {
                Ok((text, what)) => cx.request(Request::Effect(Effect::Copy { text, what })),
                Err(why) => cx.message(why),
            },
            Action::Edit(e) => {
                let page = cx.body_rows().saturating_sub(1);
                let top = &mut self.top;
                match e {
                    Edit::Up => *top = top.saturating_sub(1),
                    Edit::Down => *top += 1,
                    Edit::PageUp => *top = top.saturating_sub(page),
                    Edit::PageDown => *top += page,
                    Edit::Home => *top = 0,
                    _ => {}
                }
            }
            _ => return Handled::NotConsumed,
        }
        Handled::Consumed
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let p = cx.palette;
        let r = self.rendered(cx.wb, cx.palette);
        let mut lines = vec![Line::from(vec![
            Span::styled(self.heading(cx.wb.flavor), chrome(Chrome::Selected, p)),
            Span::styled(
                if self.nearest {
                    "   F4 language · Alt-t program/tests · Alt-e exact only · Alt-c copy · ↑↓ scroll"
                } else {
                    "   F4 language · Alt-t program/tests · Alt-e nearest · Alt-c copy · ↑↓ scroll"
                },
                chrome(Chrome::Dim, p),
            ),
        ])];
        match &r.result {
            Ok(_) if r.differences > 0 => {
                lines.push(Line::from(Span::styled(
                    format!(
                        "⚠ NEAREST PROGRAM, NOT EXACT: {} construct(s) answer differently, listed at its top",
                        r.differences
                    ),
                    chrome(Chrome::Error, p),
                )));
                let top = self.top.min(r.lines.len().saturating_sub(1));
                let rows = body_rows(area).saturating_sub(1);
                lines.extend(r.lines.iter().skip(top).take(rows).cloned());
            }
            Ok(_) => {
                let top = self.top.min(r.lines.len().saturating_sub(1));
                lines.extend(r.lines.iter().skip(top).take(body_rows(area)).cloned());
            }
            Err(e) => {
                lines.push(Line::from(Span::styled(
                    format!("✗ {}", e.message),
                    chrome(Chrome::Error, p),
                )));
                if let Some(caret) = e.caret() {
                    for l in caret.lines() {
                        lines.push(Line::from(format!("  {l}")));
                    }
                }
                if !self.nearest && self.view == CodeView::Program {
                    lines.push(Line::from(Span::styled(
                        "Alt-e: write the nearest program, with the inputs it answers differently",
                        chrome(Chrome::Dim, p),
                    )));
                }
            }
        }
        f.render_widget(Paragraph::new(lines), area);
    }
}
