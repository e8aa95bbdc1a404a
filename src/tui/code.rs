//! The Code tab's state and its actions: the program (or the exported tests) for the current
//! pattern in a chosen language, and "generate a pattern from the Tests tab's `+` lines".
//!
//! The text is produced by [`crate::codegen`]; the highlighting (syntect) is computed once per
//! distinct content and kept, so drawing a frame costs a clone of ready lines. Nothing here
//! runs before the Code tab is first shown: the grammars stay unloaded for the first frame.

use super::app::App;
use super::theme::Palette;
use crate::codegen::{self, Lang, highlight};
use crate::error::Error;
use crate::generate::{self, Options};
use crate::testcases::{Case, Expect};
use crate::workbench::parse_test_line;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use std::cell::RefCell;

/// What the Code tab shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CodeView {
    /// A program that prints every match.
    #[default]
    Program,
    /// The Tests tab's cases as a test file.
    Tests,
}

/// The Code tab's state.
#[derive(Debug, Default)]
pub struct CodeTab {
    /// The language shown.
    pub lang: Lang,
    /// Program or tests.
    pub view: CodeView,
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
}

impl CodeTab {
    /// The next language.
    pub fn cycle_lang(&mut self) {
        self.lang = self.lang.next();
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

    /// A short title: "Python program", "JavaScript tests".
    pub fn title(&self) -> String {
        format!(
            "{} {}",
            self.lang.title(),
            match self.view {
                CodeView::Program => "program",
                CodeView::Tests => "tests",
            }
        )
    }
}

/// The cases of the Tests tab.
pub fn cases(app: &App) -> Vec<Case> {
    (0..app.wb.tests.line_count())
        .filter_map(|i| {
            let (expect, subject) = parse_test_line(app.wb.tests.line(i))?;
            Some(Case {
                line: i + 1,
                subject,
                expect,
            })
        })
        .collect()
}

fn produce(app: &App) -> Result<String, Error> {
    let wb = &app.wb;
    let pattern = wb.pattern.text();
    match app.code.view {
        CodeView::Program => {
            codegen::generate(pattern, wb.flavor, wb.flags, app.code.lang).map(|p| p.code)
        }
        CodeView::Tests => codegen::export_tests(
            pattern,
            wb.flavor,
            wb.flags,
            wb.replacement.text(),
            &cases(app),
            app.code.lang,
        )
        .map(|e| e.code),
    }
}

/// The content for the current state (computed once per distinct state).
pub fn rendered(app: &App) -> Rendered {
    let wb = &app.wb;
    let key = format!(
        "{:?}\u{0}{:?}\u{0}{}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{0}{}\u{0}{}",
        app.code.lang,
        app.code.view,
        wb.pattern.text(),
        wb.flavor,
        wb.flags,
        app.palette,
        wb.replacement.text(),
        if app.code.view == CodeView::Tests {
            wb.tests.text()
        } else {
            ""
        },
    );
    if let Some((k, r)) = &*app.code.cache.borrow()
        && *k == key
    {
        return r.clone();
    }
    let result = produce(app);
    let lines = match &result {
        Ok(code) if app.palette == Palette::Color => highlight::highlight(code, app.code.lang)
            .into_iter()
            .map(|runs| {
                Line::from(
                    runs.into_iter()
                        .map(|r| {
                            let mut st = Style::new().fg(Color::Rgb(r.rgb.0, r.rgb.1, r.rgb.2));
                            if r.bold {
                                st = st.add_modifier(Modifier::BOLD);
                            }
                            if r.italic {
                                st = st.add_modifier(Modifier::ITALIC);
                            }
                            Span::styled(r.text, st)
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .collect(),
        Ok(code) => code.lines().map(|l| Line::from(l.to_string())).collect(),
        Err(_) => Vec::new(),
    };
    let r = Rendered { result, lines };
    *app.code.cache.borrow_mut() = Some((key, r.clone()));
    r
}

/// The text to copy: the program or the tests, or why there is none.
pub fn copy_text(app: &App) -> Result<(String, String), String> {
    match produce(app) {
        Ok(code) => Ok((code, app.code.title())),
        Err(e) => Err(format!("no {}: {}", app.code.title(), e.message)),
    }
}

/// Builds a pattern from the Tests tab's `+` lines with grex, checks it against the `-`
/// lines, and puts it in the pattern editor (undo with Ctrl-Z there). The pattern is in the
/// Rust flavor's syntax, so the flavor becomes rust and the flags are cleared.
pub fn generate_from_tests(app: &mut App) {
    let cases = cases(app);
    let positives: Vec<String> = cases
        .iter()
        .filter(|c| {
            matches!(
                c.expect,
                Expect::Match | Expect::Groups(_) | Expect::Named(_)
            )
        })
        .map(|c| c.subject.clone())
        .collect();
    let negatives: Vec<String> = cases
        .iter()
        .filter(|c| c.expect == Expect::NoMatch)
        .map(|c| c.subject.clone())
        .collect();
    if positives.is_empty() {
        app.message = Some("no `+ text` lines in the Tests tab to generate from".into());
        return;
    }
    let options = Options {
        digits: true,
        repetitions: true,
        ignore_case: false,
        anchors: false,
    };
    let report = generate::from_examples(&positives, options)
        .and_then(|p| generate::check(&p, &positives, &negatives));
    match report {
        Ok(r) => {
            app.wb.flavor = crate::flavor::Flavor::Rust;
            app.wb.flags = crate::flavor::Flags::default();
            app.wb.pattern.set(&r.pattern);
            let verdict = if r.wrongly_matched.is_empty() {
                format!("matches none of the {} `-` lines", negatives.len())
            } else {
                format!(
                    "also matches {} `-` line(s): {}",
                    r.wrongly_matched.len(),
                    r.wrongly_matched
                        .iter()
                        .map(|s| format!("{s:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            app.message = Some(format!(
                "generated from {} `+` lines (rust flavor; Ctrl-Z in the pattern undoes): {verdict}",
                positives.len()
            ));
            app.pattern_changed();
        }
        Err(e) => app.message = Some(format!("cannot generate: {}", e.message)),
    }
}
