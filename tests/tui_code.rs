//! The Code tab (program or tests in a chosen language, highlighted, or the refusal; copy),
//! generating a pattern from the Tests tab, and the richer test lines.
#![cfg(feature = "app")]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rxw::codegen::{self, Lang};
use rxw::tui::action::{Action, Edit, Effect};
use rxw::tui::app::{App, Focus};
use rxw::tui::screens;
use rxw::tui::tabs::{cases, code};

fn key(app: &mut App, code: KeyCode, mods: KeyModifiers) {
    app.handle_key(KeyEvent::new(code, mods));
}

fn screen_text(app: &App) -> String {
    let buf = screens::render_buffer(app);
    let mut text = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            text.push_str(buf[(x, y)].symbol());
        }
        text.push('\n');
    }
    text
}

fn code_of(app: &App) -> &code::CodeTab {
    app.tab_as::<code::CodeTab>().unwrap()
}

/// The demo with `pattern` (in `flavor`, when one is given) on the Code tab, `next`
/// languages past the one it opens on.
fn code_tab_for(pattern: &str, flavor: Option<rxw::Flavor>, next: usize) -> App {
    let mut app = screens::demo(120, 40);
    if let Some(flavor) = flavor {
        app.wb.set_flavor(flavor);
    }
    app.wb.pattern.set(pattern);
    app.pattern_changed();
    app.update(Action::ShowTab(code::ID));
    for _ in 0..next {
        app.update(Action::Tab(code::NEXT_LANG));
    }
    app
}

fn set_tests(app: &mut App, lines: &[&str]) {
    app.wb.tests.replace_all(lines.join("\n"));
}

#[test]
fn code_tab_shows_the_program_cycles_languages_and_copies_it() {
    let mut app = screens::demo(120, 40);
    key(&mut app, KeyCode::Char('7'), KeyModifiers::ALT);
    assert_eq!(app.active_tab(), code::ID);
    // The tab opens on the flavor's own language (the demo's pattern is Python's).
    assert_eq!(code_of(&app).shown_lang(app.wb.flavor), Lang::Python);
    let screen = screen_text(&app);
    assert!(screen.contains("Python program"), "{screen}");
    assert!(screen.contains("import re"), "{screen}");
    key(&mut app, KeyCode::F(4), KeyModifiers::NONE);
    assert_eq!(code_of(&app).shown_lang(app.wb.flavor), Lang::Js);
    assert!(screen_text(&app).contains("JavaScript program"));
    // The code is highlighted: more than one colour on the code lines.
    let buf = screens::render_buffer(&app);
    let colours: std::collections::HashSet<_> = (0..buf.area.height)
        .flat_map(|y| (0..buf.area.width).map(move |x| (x, y)))
        .map(|(x, y)| buf[(x, y)].fg)
        .filter(|c| matches!(c, ratatui::style::Color::Rgb(..)))
        .collect();
    assert!(colours.len() >= 3, "{colours:?}");
    key(&mut app, KeyCode::Char('c'), KeyModifiers::ALT);
    let want = codegen::generate(app.wb.pattern.text(), app.wb.flavor, app.wb.flags, Lang::Js)
        .unwrap()
        .code;
    match app.effects.pop() {
        Some(Effect::Copy { text, what }) => {
            assert_eq!(text, want);
            assert_eq!(what, "JavaScript program");
        }
        other => panic!("{other:?}"),
    }
    // Scrolling moves the view down the program.
    app.update(Action::Edit(Edit::Down));
    assert_eq!(code_of(&app).top, 1);
}

#[test]
fn code_tab_shows_the_refusal_with_its_caret_and_copies_nothing() {
    // Python (the flavor's own), then JavaScript, then Go.
    let mut app = code_tab_for(r"(?<=\[)\w+", None, 2);
    assert_eq!(code_of(&app).shown_lang(app.wb.flavor), Lang::Go);
    let screen = screen_text(&app);
    assert!(
        screen.contains("cannot write this pattern for Go"),
        "{screen}"
    );
    assert!(screen.contains("^^^^^^"), "{screen}");
    key(&mut app, KeyCode::Char('c'), KeyModifiers::ALT);
    assert!(app.effects.is_empty());
    assert!(
        app.message
            .as_deref()
            .unwrap_or("")
            .contains("no Go program")
    );
}

#[test]
fn code_tab_offers_the_nearest_program_with_a_visible_warning() {
    let mut app = code_tab_for(r"(?>ab|a)c", Some(rxw::Flavor::PYTHON), 1);
    assert_eq!(code_of(&app).shown_lang(app.wb.flavor), Lang::Js);
    let screen = screen_text(&app);
    assert!(
        screen.contains("JavaScript has no atomic groups"),
        "{screen}"
    );
    assert!(
        screen.contains("Alt-e: write the nearest program"),
        "{screen}"
    );
    key(&mut app, KeyCode::Char('e'), KeyModifiers::ALT);
    assert!(code_of(&app).nearest);
    let screen = screen_text(&app);
    assert!(screen.contains("NEAREST PROGRAM, NOT EXACT"), "{screen}");
    assert!(screen.contains("new RegExp("), "{screen}");
    // What is copied is the program with its list of differences.
    key(&mut app, KeyCode::Char('c'), KeyModifiers::ALT);
    match app.effects.pop() {
        Some(Effect::Copy { text, .. }) => {
            assert!(text.contains("It answers differently from the pattern on these inputs"))
        }
        other => panic!("{other:?}"),
    }
    // An exact program shows no warning even in nearest mode.
    app.wb.pattern.set("abc");
    app.pattern_changed();
    assert!(!screen_text(&app).contains("NEAREST PROGRAM"));
}

#[test]
fn code_tab_exports_the_tests() {
    let mut app = screens::demo(120, 40);
    set_tests(
        &mut app,
        &[
            "+ [CLAIM 7fce46e0] => verb=CLAIM, job_id=7fce46e0",
            "- [claim 7fce46e0]",
        ],
    );
    // The flavor's own language, Python, without a key.
    app.update(Action::ShowTab(code::ID));
    key(&mut app, KeyCode::Char('t'), KeyModifiers::ALT);
    let screen = screen_text(&app);
    assert!(screen.contains("Python tests"), "{screen}");
    assert!(screen.contains("def test_line_1():"), "{screen}");
    assert!(screen.contains("def test_line_2():"), "{screen}");
}

#[test]
fn ctrl_g_builds_a_pattern_from_the_tests_reports_counter_examples_and_undoes() {
    let mut app = screens::demo(120, 40);
    let before = app.wb.pattern.text().to_string();
    let flavor = app.wb.flavor;
    set_tests(
        &mut app,
        &[
            "+ [ACK 12]",
            "+ [ACK 345]",
            "- [ACK 7]",
            "- log: [ACK 99] seen",
        ],
    );
    app.update(Action::ShowTab(cases::ID));
    key(&mut app, KeyCode::Char('g'), KeyModifiers::CONTROL);
    screens::settle(&mut app);
    let pattern = app.wb.pattern.text().to_string();
    assert_ne!(pattern, before);
    // Regression: the flavor was switched to rust silently. grex writes the regex crate's
    // syntax, and where the pattern answers the same in the user's flavor (here Python) on
    // every `+` and `-` line, that flavor stays, and the message says so.
    assert_eq!(app.wb.flavor, flavor);
    assert!(flavor.is_python());
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("python 3.11 flavor kept")),
        "{:?}",
        app.message
    );
    let outcomes = app.wb.test_outcomes();
    // grex's pattern matches every `+` line.
    for o in outcomes
        .iter()
        .filter(|o| o.subject.contains("ACK 12") || o.subject.contains("ACK 345"))
    {
        if o.subject.starts_with('[') {
            assert_eq!(o.passed(), Some(true), "{pattern}: {o:?}");
        }
    }
    // The unanchored pattern also finds "[ACK 99]" inside the last `-` line: reported.
    let message = app.message.clone().unwrap_or_default();
    assert!(message.contains("also matches 1"), "{pattern}: {message}");
    assert!(message.contains("log: [ACK 99] seen"), "{message}");
    // Ctrl-Z in the pattern editor restores the previous pattern.
    app.focus = Focus::Pattern;
    key(&mut app, KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_eq!(app.wb.pattern.text(), before);
    // Regression: Ctrl-G ran grex on the screen's thread (10,000 lines froze it for
    // minutes). It runs on a worker, the status bar says so, and Ctrl-G again cancels.
    let lines: Vec<String> = (0..300)
        .map(|i| format!("+ id-{i:04}-{}", i * 7919))
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    set_tests(&mut app, &lines);
    let before = app.wb.pattern.text().to_string();
    app.update(Action::Tab(cases::GENERATE));
    assert!(app.tabs_busy());
    assert!(
        app.message
            .as_deref()
            .unwrap_or("")
            .contains("Ctrl-G again cancels"),
        "{:?}",
        app.message
    );
    app.update(Action::Tab(cases::GENERATE));
    assert!(!app.tabs_busy());
    assert_eq!(app.message.as_deref(), Some("generation cancelled"));
    screens::settle(&mut app);
    assert_eq!(app.wb.pattern.text(), before);
    // Without `+` lines there is nothing to generate from.
    set_tests(&mut app, &["- x"]);
    app.update(Action::Tab(cases::GENERATE));
    assert!(
        app.message
            .as_deref()
            .unwrap_or("")
            .contains("no `+ text` lines")
    );
}

#[test]
fn tests_tab_checks_named_groups_and_replacements() {
    let mut app = screens::demo(120, 40);
    app.wb.replacement.set(r"\g<job_id>/\g<verb>");
    set_tests(
        &mut app,
        &[
            "+ [CLAIM 7fce46e0] => verb=CLAIM, job_id=7fce46e0",
            "+ [CLAIM 7fce46e0] => verb=ACK",
            "~ a [ACK 12] b => a 12/ACK b",
            "~ a [ACK 12] b => a ACK/12 b",
        ],
    );
    let verdicts: Vec<_> = app.wb.test_outcomes().iter().map(|o| o.passed()).collect();
    assert_eq!(verdicts, [Some(true), Some(false), Some(true), Some(false)]);
    app.update(Action::ShowTab(cases::ID));
    let screen = screen_text(&app);
    assert!(screen.contains("2 passed"), "{screen}");
    assert!(screen.contains("2 failed"), "{screen}");
}
