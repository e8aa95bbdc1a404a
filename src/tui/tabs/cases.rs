//! The Tests tab: test strings, one per line (`+ text` must match, `- text` must not,
//! `+ text => g1, g2` with those groups, `~ in => out` through the replacement), each marked
//! pass / fail live; Ctrl-G builds a pattern from the `+` lines (grex), checks it against the
//! `-` lines and puts it in the pattern editor.

use super::{DrawCx, Handled, Request, Tab, TabCommand, TabCx, TabId};
use crate::generate::{self, Options};
use crate::testcases::Expect;
use crate::tui::action::apply_buffer;
use crate::tui::action::{Action, Binding, CTRL, Context::Global, KeySpec::Key};
use crate::tui::text::{cells, styled_line};
use crate::tui::theme::{Chrome, chrome};
use crossterm::event::KeyCode as K;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The tab's identity.
pub const ID: TabId = TabId("tests");
/// A pattern from the `+` lines (grex), checked against the `-` lines.
pub const GENERATE: TabCommand = ID.command("generate");

static KEYS: &[Binding] = &[Global.bind(
    Action::Tab(GENERATE),
    "pattern from the Tests tab's + lines (checked against the - lines)",
    &[Key(K::Char('g'), CTRL)],
)];

/// The tests editor (its text is the workbench's `tests`).
#[derive(Debug, Default)]
pub struct TestsTab {
    /// The generation running on its worker, if one is.
    generating: Option<Generating>,
}

impl Tab for TestsTab {
    super::face!("Tests", KEYS, Editor);

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        match action {
            Action::Tab(c) if *c == GENERATE => generate_from_tests(&mut self.generating, cx),
            Action::Edit(e) => {
                let page = cx.body_rows();
                if apply_buffer(&mut cx.wb.tests, e, page) {
                    cx.request(Request::SessionDirty);
                }
            }
            _ => return Handled::NotConsumed,
        }
        Handled::Consumed
    }

    fn busy(&self) -> bool {
        self.generating.is_some()
    }

    fn poll(&mut self, cx: &mut TabCx) -> bool {
        let Some(job) = &self.generating else {
            return false;
        };
        let report = match job.reply.try_recv() {
            Ok(report) => report,
            Err(std::sync::mpsc::TryRecvError::Empty) => return false,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Err(crate::Error::new(
                crate::ErrorKind::PatternInvalid,
                "the generator stopped without an answer",
            )),
        };
        if let Some(job) = self.generating.take() {
            finish_generation(&job, report, cx);
        }
        true
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let p = cx.palette;
        let wb = cx.wb;
        let focused = cx.typing();
        let outcomes = wb.test_outcomes();
        let (passed, failed) = outcomes.iter().fold((0, 0), |(a, b), o| match o.passed() {
            Some(true) => (a + 1, b),
            Some(false) => (a, b + 1),
            None => (a, b),
        });
        let mut lines = vec![Line::from(vec![
            Span::styled(format!("{passed} passed"), chrome(Chrome::Pass, p)),
            Span::raw(" · "),
            Span::styled(
                format!("{failed} failed"),
                if failed > 0 {
                    chrome(Chrome::Fail, p)
                } else {
                    chrome(Chrome::Dim, p)
                },
            ),
            Span::styled(
                "   + must match · - must not · + text => g1, g2 | name=v · ~ in => out · Ctrl-G generate",
                chrome(Chrome::Dim, p),
            ),
        ])];
        let rows = (area.height as usize).saturating_sub(1);
        let (cur_line, cur_col) = wb.tests.cursor_position();
        let top = (cur_line + 1).saturating_sub(rows);
        let mark_w = 9;
        let text_w = (area.width as usize).saturating_sub(mark_w);
        for i in top..(top + rows).min(wb.tests.line_count()) {
            let o = outcomes.iter().find(|o| o.line == i);
            let (mark, st) = match o {
                None => ("", Style::new()),
                Some(o) => match (o.passed(), &o.found, &o.expect) {
                    (Some(true), ..) => ("✓ pass", chrome(Chrome::Pass, p)),
                    (Some(false), ..) => ("✗ FAIL", chrome(Chrome::Fail, p)),
                    (None, Some(_), Expect::Nothing) => ("• match", chrome(Chrome::Dim, p)),
                    _ => ("· none", chrome(Chrome::Dim, p)),
                },
            };
            let cs = cells(&wb.tests.line(i), 0, text_w, cx.show_whitespace);
            let mut l = styled_line(&cs, |_| Style::new());
            l.spans
                .insert(0, Span::styled(format!("{mark:<w$} ", w = mark_w - 1), st));
            lines.push(l);
        }
        if wb.tests.text().is_empty() {
            lines.push(Line::from(Span::styled(
                "type test strings here, one per line",
                chrome(Chrome::Dim, p),
            )));
        }
        f.render_widget(Paragraph::new(lines), area);
        if focused && area.height > 1 && cur_line >= top {
            let x = area.x as usize + mark_w + cur_col.min(text_w);
            if x < (area.x + area.width) as usize {
                f.set_cursor_position((x as u16, area.y + 1 + (cur_line - top) as u16));
            }
        }
    }
}

/// A generation running on its worker: the pattern and its check against the `-` lines come
/// back on `reply`; dropping it (Ctrl-G again) cancels (the worker's answer is thrown away,
/// and grex, which cannot be interrupted, ends on its own within its deadline).
#[derive(Debug)]
pub struct Generating {
    /// The report in the Rust flavor grex writes for, and in the user's flavor when the
    /// pattern compiles there.
    reply: std::sync::mpsc::Receiver<
        Result<(generate::Report, Option<generate::Report>), crate::Error>,
    >,
    /// The flavor the user works in.
    flavor: crate::flavor::Flavor,
    positives: usize,
    negatives: usize,
}

/// Ctrl-G: starts building a pattern from the Tests tab's `+` lines with grex on a worker, or
/// cancels the one running. The screen never waits for grex.
fn generate_from_tests(generating: &mut Option<Generating>, cx: &mut TabCx) {
    if generating.take().is_some() {
        cx.message("generation cancelled");
        return;
    }
    let cases = cx.wb.test_cases();
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
        cx.message("no `+ text` lines in the Tests tab to generate from");
        return;
    }
    let options = Options {
        digits: true,
        repetitions: true,
        ignore_case: false,
        anchors: false,
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let (n_pos, n_neg) = (positives.len(), negatives.len());
    let flavor = cx.wb.flavor;
    let spawned = std::thread::Builder::new()
        .name("rxw-generate".into())
        .spawn(move || {
            let report = generate::from_examples(&positives, options).and_then(|p| {
                let rust = generate::check(&p, &positives, &negatives)?;
                let own = generate::check_in(&p, flavor, &positives, &negatives).ok();
                Ok((rust, own))
            });
            let _ = tx.send(report);
        });
    if let Err(e) = spawned {
        cx.message(format!("cannot generate: {e}"));
        return;
    }
    *generating = Some(Generating {
        flavor,
        reply: rx,
        positives: n_pos,
        negatives: n_neg,
    });
    cx.message(format!(
        "generating a pattern from {n_pos} `+` lines… (Ctrl-G again cancels)"
    ));
}

/// Takes in a finished generation: the pattern goes into the editor (undo with Ctrl-Z there).
/// grex writes the Rust flavor's syntax: the user's flavor stays when the pattern answers the
/// same there on every `+` and `-` line, and otherwise the flavor becomes rust, said in the
/// message. The flags are cleared (the pattern is written for none).
fn finish_generation(
    job: &Generating,
    report: Result<(generate::Report, Option<generate::Report>), crate::Error>,
    cx: &mut TabCx,
) {
    match report {
        Ok((r, own)) => {
            let same = own
                .as_ref()
                .is_some_and(|o| o.missed == r.missed && o.wrongly_matched == r.wrongly_matched);
            let flavor_note = if same {
                format!(
                    "{} flavor kept: it answers the same there",
                    job.flavor.label()
                )
            } else {
                format!(
                    "switched to rust: the pattern is the regex crate's syntax and answers \
                     differently in {}",
                    job.flavor.label()
                )
            };
            if !same {
                cx.wb.flavor = crate::flavor::Flavor::Rust;
            }
            cx.wb.flags = crate::flavor::Flags::default();
            cx.wb.pattern.set(&r.pattern);
            let verdict = if r.wrongly_matched.is_empty() {
                format!("matches none of the {} `-` lines", job.negatives)
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
            cx.message(format!(
                "generated from {} `+` lines ({flavor_note}; Ctrl-Z in the pattern undoes): {verdict}",
                job.positives
            ));
            cx.request(Request::PatternChanged);
        }
        Err(e) => cx.message(format!("cannot generate: {}", e.message)),
    }
}
