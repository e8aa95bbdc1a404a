//! The TUI state machine without a terminal: `update(state, action)` and key handling.
#![cfg(feature = "app")]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use rxw::tui::Options;
use rxw::tui::action::{Action, CopyWhat, Edit, Effect};
use rxw::tui::app::{App, Burst, Focus};
use rxw::tui::popups::help::Help;
use rxw::tui::popups::history::HistorySearch;
use rxw::tui::popups::path::PathPrompt;
use rxw::tui::popups::save::SavePrompt;
use rxw::tui::presets::FailingTests::Refuse;
use rxw::tui::session::{Session, SessionStore};
use rxw::tui::tabs::{debug, explain, groups, matches, presets};
use rxw::tui::theme::Palette;
use rxw::tui::{StartInput, autosave, load_presets, screens, start_app};
use rxw::workbench::InputSource;
use rxw_testkit::{append, mkfifo, temp_file};

fn presets_of(app: &App) -> &rxw::tui::presets::PresetBrowser {
    &app.tab_as::<presets::PresetsTab>().unwrap().browser
}

fn presets_mut(app: &mut App) -> &mut rxw::tui::presets::PresetBrowser {
    &mut app.tab_as_mut::<presets::PresetsTab>().unwrap().browser
}

/// The Presets tab's export pane, which the test opened.
fn export_pane(app: &App) -> &presets::ExportPane {
    app.tab_as::<presets::PresetsTab>()
        .unwrap()
        .pane
        .as_ref()
        .expect("the export pane is open")
}

/// The status bar's message ("" when there is none).
fn said(app: &App) -> &str {
    app.message.as_deref().unwrap_or("")
}

/// Checks that the status bar's message holds `part` (showing the message when not).
#[track_caller]
fn assert_says(app: &App, part: &str) {
    assert!(said(app).contains(part), "{:?}", app.message);
}

/// Checks that the screen as drawn now shows each of `parts` (showing the screen when not).
#[track_caller]
fn assert_shows(app: &App, parts: &[&str]) {
    let screen = screen_of(app);
    for part in parts {
        assert!(screen.contains(part), "{part}: {screen}");
    }
}

/// The screen as drawn now, as text to search.
fn screen_of(app: &App) -> String {
    format!("{:?}", screens::render_buffer(app))
}

fn debug_of(app: &App) -> &debug::DebugView {
    &app.tab_as::<debug::DebugTab>().unwrap().view
}

fn explain_of(app: &App) -> &explain::ExplainTab {
    app.tab_as::<explain::ExplainTab>().unwrap()
}

fn key(app: &mut App, code: KeyCode, mods: KeyModifiers) {
    app.handle_key(KeyEvent::new(code, mods));
}

fn type_str(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

/// Ctrl-U (delete to the start of the line), then `s` typed.
fn retype(app: &mut App, s: &str) {
    key(app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    type_str(app, s);
}

fn start(args: Options, input: StartInput, saved: Option<Session>) -> App {
    let mut app = start_app(
        &args,
        input,
        saved,
        load_presets(),
        Rect::new(0, 0, 100, 30),
        Palette::Color,
    )
    .unwrap();
    screens::settle(&mut app);
    app
}

/// The options of `rxw --flavor python -e PATTERN`.
fn python(pattern: &str) -> Options {
    Options {
        pattern: Some(pattern.into()),
        flavor: Some(rxw::Flavor::PYTHON),
        ..Default::default()
    }
}

/// The options of `rxw --fresh` (no saved session), with `-e PATTERN` when given.
fn fresh(pattern: Option<&str>) -> Options {
    Options {
        pattern: pattern.map(Into::into),
        fresh: true,
        ..Default::default()
    }
}

/// `text` read from standard input.
fn from_stdin(text: impl Into<String>) -> StartInput {
    StartInput::Loaded(text.into(), InputSource::Stdin, None)
}

/// As [`start`], without waiting for the scans (a pattern that keeps them busy).
fn start_unsettled(args: Options, input: StartInput) -> App {
    start_app(
        &args,
        input,
        None,
        load_presets(),
        Rect::new(0, 0, 100, 30),
        Palette::Color,
    )
    .unwrap()
}

#[test]
fn focus_starts_in_the_pattern_with_the_cursor_at_the_end_and_tab_cycles() {
    let mut app = screens::demo(100, 30);
    assert_eq!(app.focus, Focus::Pattern);
    assert_eq!(app.wb.pattern.cursor(), app.wb.pattern.text().len());
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Input);
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Results);
    key(&mut app, KeyCode::BackTab, KeyModifiers::SHIFT);
    assert_eq!(app.focus, Focus::Input);
}

#[test]
fn typing_in_the_pattern_rescans_and_undo_restores() {
    let mut app = screens::demo(100, 30);
    retype(&mut app, "CLAIM");
    screens::settle(&mut app);
    let n = app.wb.results.count;
    assert_eq!(n, rxw::workbench::DEMO_LOG.matches("CLAIM").count());
    // Undo takes back the word typed, not its last letter.
    key(&mut app, KeyCode::Char('z'), KeyModifiers::CONTROL);
    screens::settle(&mut app);
    assert_eq!(app.wb.pattern.text(), "");
    key(&mut app, KeyCode::Char('y'), KeyModifiers::CONTROL);
    assert_eq!(app.wb.pattern.text(), "CLAIM");
}

#[test]
fn alt_i_toggles_ignore_case_and_f2_cycles_the_flavor() {
    let mut app = screens::demo(100, 30);
    let before = app.wb.results.count;
    key(&mut app, KeyCode::Char('i'), KeyModifiers::ALT);
    screens::settle(&mut app);
    assert!(app.wb.flags.ignore_case);
    assert!(
        app.wb.results.count > before,
        "the lower-case [ack …] near miss now matches"
    );
    key(&mut app, KeyCode::F(2), KeyModifiers::NONE);
    assert_eq!(app.wb.flavor, rxw::Flavor::JS);
    assert!(app.wb.flags.ignore_case);
    // JS has no (?P<name>…) syntax: the pattern is now invalid, the old matches stay.
    assert!(app.wb.stale());
    assert!(app.wb.results.count > 0);
}

#[test]
fn next_match_scrolls_the_input_to_it() {
    let mut app = screens::demo(100, 30);
    let last = app.wb.results.spans.len() - 1;
    app.select_match(last);
    let (line, _) = app.wb.input.position_of(app.wb.results.spans[last].0);
    assert!(app.input_top <= line && line < app.input_top + app.input_rows());
    key(&mut app, KeyCode::Char('n'), KeyModifiers::ALT);
    assert_eq!(app.selected, last, "stays on the last match");
    key(&mut app, KeyCode::Char('p'), KeyModifiers::ALT);
    assert_eq!(app.selected, last - 1);
}

#[test]
fn editing_the_input_rescans_and_marks_it_typed() {
    let mut app = screens::demo(100, 30);
    app.update(Action::FocusNext);
    app.update(Action::Edit(Edit::Paste("[CLAIM abc123]\n".into())));
    screens::settle(&mut app);
    assert_eq!(app.wb.results.count, 45);
    assert_eq!(app.wb.source, InputSource::Typed);
    assert_eq!(app.wb.results.spans[0], (0, 14));
}

#[test]
fn mouse_click_focuses_and_selects_tabs() {
    let mut app = screens::demo(100, 30);
    let a = app.areas();
    app.update(Action::Click {
        col: a.input.x + 10,
        row: a.input.y + 3,
    });
    assert_eq!(app.focus, Focus::Input);
    assert_eq!(app.wb.input.cursor_position().0, 2);
    // The second tab's label, wherever the bar puts it (full or short titles by width).
    let titles: Vec<&str> = app.tabs().map(|t| t.title()).collect();
    let col = (a.tabs.x..a.tabs.x + a.tabs.width)
        .find(|&c| rxw::tui::layout::tab_at(a.tabs, c, &titles) == Some(1))
        .expect("the Groups tab is in the bar");
    app.update(Action::Click {
        col: col + 1,
        row: a.tabs.y,
    });
    assert_eq!((app.focus, app.active_tab()), (Focus::Results, groups::ID));
    app.update(Action::ShowTab(matches::ID));
    app.update(Action::Click {
        col: a.body.x + 2,
        row: a.body.y + 3,
    });
    assert_eq!(app.selected, 2);
}

#[test]
fn clicking_a_tab_label_shows_it_as_its_key_does() {
    // A click on the Debug label showed "no trace yet" where Alt-8 records the trace: the
    // click did not tell the tab it was shown (the operator views did not start either).
    let mut app = screens::demo(200, 40);
    let a = app.areas();
    let titles: Vec<&str> = app.tabs().map(|t| t.title()).collect();
    let at = app.tabs().position(|t| t.id() == debug::ID).unwrap();
    let col = (a.tabs.x..a.tabs.x + a.tabs.width)
        .find(|&c| rxw::tui::layout::tab_at(a.tabs, c, &titles) == Some(at))
        .expect("the Debug tab is in the bar");
    assert!(debug_of(&app).is_empty());
    app.update(Action::Click {
        col: col + 1,
        row: a.tabs.y,
    });
    assert_eq!(app.active_tab(), debug::ID);
    screens::settle(&mut app);
    assert!(!debug_of(&app).is_empty(), "the click recorded a trace");
}

#[test]
fn help_opens_with_f1_and_question_mark_in_lists_and_closes_with_esc() {
    let mut app = screens::demo(100, 30);
    key(&mut app, KeyCode::F(1), KeyModifiers::NONE);
    assert!(app.help_open());
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(!app.help_open());
    key(&mut app, KeyCode::Char('?'), KeyModifiers::SHIFT);
    assert!(!app.help_open(), "in the pattern editor ? is a character");
    assert!(app.wb.pattern.text().ends_with('?'));
    app.update(Action::ShowTab(matches::ID));
    key(&mut app, KeyCode::Char('?'), KeyModifiers::SHIFT);
    assert!(app.help_open());
}

#[test]
fn ctrl_c_quits_and_q_quits_in_lists_only() {
    let mut app = screens::demo(100, 30);
    key(&mut app, KeyCode::Char('q'), KeyModifiers::NONE);
    assert!(!app.quit);
    app.update(Action::ShowTab(matches::ID));
    key(&mut app, KeyCode::Char('q'), KeyModifiers::NONE);
    assert!(app.quit);
    let mut app = screens::demo(100, 30);
    key(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(app.quit);
}

/// Regression: the workbench opened on a log (or the demo) with the demo's pattern in the
/// editor, and what a new user typed went after it (`…\]CLAIM`, 0 matches). The pattern rxw
/// put there is a selected example: the first key typed or pasted replaces it, a delete key
/// deletes it whole, a cursor key makes it the user's to edit; a pattern from the command line
/// is the user's from the start.
#[test]
fn the_example_pattern_is_replaced_by_what_is_typed() {
    let demo = || start(fresh(None), StartInput::Demo, None);
    let mut app = demo();
    assert!(app.suggestion_shown());
    let shown = screen_of(&app);
    assert!(shown.contains("type to replace it"), "{shown}");
    type_str(&mut app, "CLAIM");
    assert_eq!(app.wb.pattern.text(), "CLAIM");
    assert!(!app.suggestion_shown());
    screens::settle(&mut app);
    assert!(app.wb.results.count > 0);
    // Once replaced, typing appends.
    type_str(&mut app, " ");
    assert_eq!(app.wb.pattern.text(), "CLAIM ");
    // A delete key deletes the example whole.
    let mut app = demo();
    key(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(app.wb.pattern.text(), "");
    // A cursor key takes it for editing.
    let mut app = demo();
    let example = app.wb.pattern.text().to_string();
    key(&mut app, KeyCode::Left, KeyModifiers::NONE);
    assert!(!app.suggestion_shown());
    type_str(&mut app, "x");
    assert_eq!(app.wb.pattern.text().len(), example.len() + 1);
    assert!(!screen_of(&app).contains("type to replace it"));
    let mut app = start(fresh(Some("CLAIM")), StartInput::Demo, None);
    assert!(!app.suggestion_shown());
    type_str(&mut app, "x");
    assert_eq!(app.wb.pattern.text(), "CLAIMx");
}

/// Regression: at 80 columns the filters' names took the status bar's room and the answer
/// to the last action was cut ("job 7fce46e0: event 3 of 7 (CLAIM on"). When both do not
/// fit, the answer is shown whole and the filters are counted; where both fit, the names stay.
#[test]
fn a_narrow_status_bar_keeps_the_answer_and_counts_the_filters() {
    let message = "job 7fce46e0: event 3 of 7 (CLAIM on line 42)";
    for (width, named) in [(80, false), (160, true)] {
        let mut app = screens::demo(width, 24);
        key(&mut app, KeyCode::Char('l'), KeyModifiers::CONTROL);
        screens::settle(&mut app);
        app.message = Some(message.into());
        let screen = screen_of(&app);
        assert!(screen.contains(message), "{width}: {screen}");
        assert_eq!(
            screen.contains("filters: with a match"),
            named,
            "{width}: {screen}"
        );
        assert_eq!(
            screen.contains(" 1 filter (Alt-k)"),
            !named,
            "{width}: {screen}"
        );
    }
}

#[test]
fn esc_leaves_the_pattern_and_digits_then_pick_tabs() {
    let mut app = screens::demo(100, 30);
    let before = app.wb.pattern.text().to_string();
    // In the pattern a digit types (End first: the demo's pattern is the user's to edit).
    key(&mut app, KeyCode::End, KeyModifiers::NONE);
    key(&mut app, KeyCode::Char('3'), KeyModifiers::NONE);
    assert_eq!(app.wb.pattern.text(), format!("{before}3"));
    key(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    screens::settle(&mut app);
    // Esc leaves the text field for the results, where digits show tabs.
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Results);
    key(&mut app, KeyCode::Char('3'), KeyModifiers::NONE);
    assert_eq!(app.shown_tab().title(), "Explain");
    key(&mut app, KeyCode::Char('0'), KeyModifiers::NONE);
    assert_eq!(app.shown_tab().title(), "Jobs");
    key(&mut app, KeyCode::Char('1'), KeyModifiers::NONE);
    assert_eq!(app.shown_tab().title(), "Matches");
    assert_eq!(
        app.wb.pattern.text(),
        before,
        "nothing typed into the pattern"
    );
    // Esc from the results goes back to the pattern (once no scan runs: Esc stops one first).
    screens::settle(&mut app);
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Pattern);
}

#[test]
fn copy_actions_queue_effects() {
    let mut app = screens::demo(100, 30);
    app.update(Action::Copy(CopyWhat::Match));
    assert_eq!(
        app.effects.pop(),
        Some(Effect::Copy {
            text: "[CLAIM 7fce46e0]".into(),
            what: "current match".into()
        })
    );
    app.update(Action::Copy(CopyWhat::Literal));
    match app.effects.pop() {
        Some(Effect::Copy { text, .. }) => {
            assert!(text.starts_with("let re = regex::Regex::new(r\""))
        }
        other => panic!("{other:?}"),
    }
    app.update(Action::Copy(CopyWhat::Literal));
    match app.effects.pop() {
        Some(Effect::Copy { text, .. }) => assert!(text.starts_with("pattern = re.compile(r\"")),
        other => panic!("{other:?}"),
    }
    app.update(Action::Copy(CopyWhat::GroupsJson));
    match app.effects.pop() {
        Some(Effect::Copy { text, .. }) => assert!(text.contains(r#""verb": "CLAIM""#), "{text}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_session_is_restored_and_fresh_skips_it() {
    let saved = Session {
        pattern: r"\d+".into(),
        flavor: "js".into(),
        flags: "gi".into(),
        replacement: "<$&>".into(),
        tests: "+ 12".into(),
        input: Some("a1 b22".into()),
        preset: None,
        ..Default::default()
    };
    let app = start(Options::default(), StartInput::Demo, Some(saved.clone()));
    assert_eq!(app.wb.pattern.text(), r"\d+");
    assert_eq!(app.wb.flavor, rxw::Flavor::JS);
    assert_eq!(app.wb.flags.letters(rxw::Flavor::JS), "gi");
    assert_eq!(app.wb.input.text(), "a1 b22");
    assert_eq!(app.wb.results.count, 2);
    assert_eq!(Session::of(&app), saved);
    let fresh = start(fresh(None), StartInput::Demo, Some(saved));
    assert_eq!(fresh.wb.source, InputSource::Demo);
    assert!(fresh.wb.pattern.text().contains("(?P<verb>"));
}

#[test]
fn command_line_pattern_flavor_and_flags_win() {
    let args = Options {
        pattern: Some("b+".into()),
        flavor: Some(rxw::Flavor::Rust),
        flags: Some("i".into()),
        ..Default::default()
    };
    let app = start(args, from_stdin("aBbB b"), None);
    assert_eq!(app.wb.results.count, 2);
    assert_eq!(app.wb.source, InputSource::Stdin);
    let bad = Options {
        flags: Some("q".into()),
        ..Default::default()
    };
    assert!(
        start_app(
            &bad,
            StartInput::Demo,
            None,
            load_presets(),
            Rect::new(0, 0, 80, 24),
            Palette::Color
        )
        .is_err()
    );
}

#[test]
fn a_runaway_pattern_reports_its_limit_and_the_app_keeps_responding() {
    let args = python(r"(?:(a)|a)+\1b");
    let mut app = start(args, from_stdin(format!("{}!", "a".repeat(40))), None);
    let err = app
        .wb
        .results
        .error
        .as_ref()
        .expect("the backtrack limit is reported");
    assert!(err.message.contains("backtrack"), "{}", err.message);
    retype(&mut app, "a");
    screens::settle(&mut app);
    assert_eq!(app.wb.results.count, 40);
    assert!(app.wb.results.error.is_none());
}

#[test]
fn presets_filter_by_typing_and_enter_loads_pattern_flags_flavor_and_tests() {
    let mut app = screens::demo(100, 30);
    app.update(Action::ShowTab(presets::ID));
    assert!(
        presets_of(&app).all.len() >= 12,
        "the NetVM registry is loaded"
    );
    type_str(&mut app, "uuid");
    assert_eq!(presets_of(&app).selected_preset().unwrap().key, "uuid");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    screens::settle(&mut app);
    let p = presets_of(&app).find("uuid").unwrap().clone();
    assert_eq!(app.wb.pattern.text(), p.pattern);
    assert_eq!((app.wb.flavor, app.wb.flags), (p.flavor, p.flags));
    assert_eq!(app.wb.preset.as_deref(), Some("uuid"));
    let outcomes = app.wb.test_outcomes();
    assert!(outcomes.len() >= 3);
    assert!(
        outcomes.iter().all(|o| o.passed() == Some(true)),
        "{outcomes:?}"
    );
    assert!(app.wb.results.count > 0, "the demo log has UUIDs");
}

/// Regression: loading a preset replaced the pattern and the tests for good, without a word
/// of what was there. The status bar names the pattern it replaced, and Ctrl-Z in the
/// pattern and in the Tests tab each bring theirs back.
#[test]
fn loading_a_preset_says_what_it_replaced_and_ctrl_z_brings_it_back() {
    let mut app = screens::demo(100, 30);
    retype(&mut app, "my (own) pattern");
    app.wb.tests.replace_all("+ my test line\n".into());
    app.update(Action::ShowTab(presets::ID));
    type_str(&mut app, "uuid");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let said = app.message.clone().unwrap_or_default();
    assert!(
        said.contains("replaced `my (own) pattern` (Ctrl-Z in the pattern brings it back)"),
        "{said}"
    );
    assert_ne!(app.wb.tests.text(), "+ my test line\n");
    app.focus = Focus::Pattern;
    key(&mut app, KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_eq!(app.wb.pattern.text(), "my (own) pattern");
    assert!(app.wb.tests.undo(), "the tests' load is one edit");
    assert_eq!(app.wb.tests.text(), "+ my test line\n");
}

#[test]
fn every_registry_preset_loads_with_passing_tests() {
    let mut app = screens::demo(100, 30);
    app.update(Action::ShowTab(presets::ID));
    for i in 0..presets_of(&app).visible.len() {
        presets_mut(&mut app).selected = i;
        app.update(Action::Activate);
        let key = app.wb.preset.clone().unwrap();
        assert!(app.wb.compiled().is_ok(), "{key}");
        for o in app.wb.test_outcomes() {
            assert_eq!(o.passed(), Some(true), "{key}: {o:?}");
        }
    }
}

#[test]
fn start_with_a_preset_key_and_an_unknown_key_is_an_error() {
    let args = Options {
        preset: Some("ack".into()),
        fresh: true,
        ..Default::default()
    };
    let app = start(args, StartInput::Demo, None);
    assert_eq!(app.wb.preset.as_deref(), Some("ack"));
    assert!(app.wb.results.count > 0);
    let bad = Options {
        preset: Some("nope".into()),
        ..Default::default()
    };
    let err = start_app(
        &bad,
        StartInput::Demo,
        None,
        load_presets(),
        Rect::new(0, 0, 80, 24),
        Palette::Color,
    )
    .err()
    .unwrap();
    assert!(err.to_string().contains("no preset named 'nope'"), "{err}");
}

#[test]
fn the_top_popup_sees_keys_first_and_closes_alone() {
    let mut app = screens::demo(100, 30);
    let pattern = app.wb.pattern.text().to_string();
    key(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    // Typed keys go to the prompt, not to the pattern beneath.
    type_str(&mut app, "zz");
    assert_eq!(app.wb.pattern.text(), pattern);
    assert!(
        app.popup::<SavePrompt>()
            .unwrap()
            .key
            .text()
            .ends_with("zz")
    );
    // An invalid key keeps the prompt open and says why.
    retype(&mut app, "a b");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(app.popup::<SavePrompt>().is_some());
    assert!(said(&app).contains("preset key"));
    // The app still resizes under it; Esc closes the prompt only.
    app.update(Action::Resize(120, 40));
    assert_eq!((app.size.width, app.size.height), (120, 40));
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(app.popup::<SavePrompt>().is_none());
    assert!(!app.quit);
    assert!(app.effects.is_empty());
}

/// The demo at 100×30 with `tests` in its Tests tab.
fn demo_with_tests(tests: &str) -> App {
    let mut app = screens::demo(100, 30);
    app.wb.tests.replace_all(tests.into());
    app
}

#[test]
fn saving_a_preset_writes_the_user_registry_and_it_appears_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = demo_with_tests("+ [CLAIM ab12] => CLAIM, ab12\n- [ack x]\n");
    key(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(app.popup::<SavePrompt>().is_some());
    retype(&mut app, "my_verb");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(
        app.effects.pop(),
        Some(Effect::SavePreset {
            key: "my_verb".into(),
            leave_out_failing: false
        })
    );
    assert!(app.popup::<SavePrompt>().is_none());
    let (path, left_out) =
        rxw::tui::presets::save_to_user_registry(dir.path(), "my_verb", &app.wb, Refuse).unwrap();
    assert_eq!(left_out, 0);
    assert!(path.ends_with("user.toml"));
    let options = rxw::presets::load::LoadOptions {
        files: vec![],
        config_dir: Some(dir.path().to_path_buf()),
    };
    let browser = rxw::tui::load_presets_from(&options);
    let saved = browser
        .find("my_verb")
        .expect("the saved preset is in the browser");
    assert_eq!(saved.pattern, app.wb.pattern.text());
    assert_eq!(saved.counterexamples, vec!["[ack x]".to_string()]);
    assert_eq!(
        saved.example_groups[0],
        vec!["CLAIM".to_string(), "ab12".to_string()]
    );
    assert!(
        saved
            .groups
            .iter()
            .any(|(n, d)| n == "verb" && !d.is_empty()),
        "group notes carried over: {:?}",
        saved.groups
    );
    // Saving again under the same key replaces it.
    rxw::tui::presets::save_to_user_registry(dir.path(), "my_verb", &app.wb, Refuse).unwrap();
    assert_eq!(
        rxw::tui::load_presets_from(&options)
            .all
            .iter()
            .filter(|p| p.key == "my_verb")
            .count(),
        1
    );
    // The reloaded registry reaches the Presets tab (selected) and the lens, without the
    // event loop reaching into the tab.
    assert!(app.wb.lens.catalog().get("my_verb").is_none());
    app.reload_presets(rxw::tui::load_presets_from(&options), "my_verb");
    assert_eq!(
        presets_of(&app).selected_preset().map(|p| p.key.as_str()),
        Some("my_verb")
    );
    assert!(app.wb.lens.catalog().get("my_verb").is_some());
}

#[test]
fn moving_through_the_explain_tree_highlights_the_node_span() {
    let mut app = screens::demo(100, 30);
    app.update(Action::ShowTab(explain::ID));
    assert_eq!(
        app.pattern_mark().map(|s| (s.start, s.end)),
        Some((0, app.wb.pattern.text().len()))
    );
    key(&mut app, KeyCode::Down, KeyModifiers::NONE);
    let s = app.pattern_mark().unwrap();
    assert_eq!(&app.wb.pattern.text()[s.start..s.end], r"\[");
    app.wb.pattern.set(r"(a+)+b");
    app.pattern_changed();
    let rows = app.wb.analysis().rows().clone().unwrap();
    assert!(
        rows.iter().any(|r| r.lint),
        "nested quantifier lint listed: {rows:?}"
    );
}

/// Regression ("SIGBUS on truncation"): a file truncated while the workbench reads it at start
/// opens on the data read so far, and the status bar says the file changed.
#[test]
fn sigbus_on_truncation_the_workbench_opens_on_the_data_read_and_says_why() {
    let read = rxw::input::FileRead {
        text: rxw::input::Text::from_bytes(b"[CLAIM 7fce46e0] one\n[CLAIM 0a".to_vec()),
        incomplete: Some(rxw::Error::new(
            rxw::ErrorKind::Io,
            "t.log: the file changed while it was read (8520000 bytes at open, 30 read); it was truncated or rotated",
        )),
    };
    let input = rxw::tui::loaded_file(read, std::path::Path::new("t.log"));
    let app = start(Options::default(), input, None);
    assert_eq!(app.wb.input.text(), "[CLAIM 7fce46e0] one\n[CLAIM 0a");
    assert_eq!(app.wb.source, InputSource::File("t.log".into()));
    let warning = app.input_warning.clone().expect("the truncation is said");
    assert!(
        warning.contains("the file changed while it was read")
            && warning.contains("showing the 30 bytes read"),
        "{warning}"
    );
    assert_shows(&app, &["the file changed"]);
}

/// About 200 KB of log text as the key events a terminal without bracketed paste sends: one
/// per character, Enter for each line break (terminals send CR), Tab for each tab.
fn paste_keys(text: &str) -> Vec<KeyEvent> {
    text.chars()
        .map(|c| match c {
            '\n' => KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE),
            '\t' => KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE),
            c if c.is_uppercase() => KeyEvent::new(KeyCode::Char(c), KeyModifiers::SHIFT),
            c => KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
        })
        .collect()
}

fn pasted_log() -> String {
    let line = "2026-11-30T10:00:00Z\t[CLAIM 7fce46e0]\tworker took the job\n";
    line.repeat(200_000 / line.len() + 1)
}

/// A workbench on an empty file, with the focus moved (Tab) to the input pane.
fn empty_input_focused() -> App {
    let mut app = start(
        Options::default(),
        StartInput::Loaded(String::new(), InputSource::File("empty.log".into()), None),
        None,
    );
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Input);
    app
}

/// Regression ("paste burst without bracketed paste"): 200 KB pasted as key events used to be
/// handled key by key (tabs moved the focus, the pattern was recompiled after every key).
/// The burst is now one edit in the focused pane and at most one compile.
#[test]
fn paste_burst_without_bracketed_paste_is_one_edit_in_the_input_and_no_compile() {
    let mut app = empty_input_focused();
    let text = pasted_log();
    let keys = paste_keys(&text);
    assert!(keys.len() >= 200_000);
    let compiles = app.wb.compile_count();
    app.handle_burst(&keys, Burst::of_len(keys.len()));
    assert_eq!(
        app.focus,
        Focus::Input,
        "a pasted tab does not move the focus"
    );
    assert_eq!(app.wb.input.text(), text);
    assert_eq!(
        app.wb.compile_count(),
        compiles,
        "the pattern did not change"
    );
    screens::settle(&mut app);
    assert_eq!(
        app.wb.results.count,
        text.matches("[CLAIM 7fce46e0]").count()
    );
    assert_eq!(Session::of(&app).input.as_deref(), Some(text.as_str()));
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn paste_burst_without_bracketed_paste_into_the_pattern_compiles_once() {
    let mut app = screens::demo(100, 30);
    key(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    let text = "job\t".repeat(50_000);
    let keys = paste_keys(&text);
    let compiles = app.wb.compile_count();
    app.handle_burst(&keys, Burst::of_len(keys.len()));
    assert_eq!(app.focus, Focus::Pattern);
    assert_eq!(app.wb.pattern.text(), text);
    assert!(
        app.wb.compiling(),
        "a 200 KB pattern compiles off the UI thread"
    );
    assert_eq!(app.wb.compile_count(), compiles);
    screens::settle(&mut app);
    assert!(!app.wb.compiling());
    assert_eq!(
        app.wb.compile_count(),
        compiles + 1,
        "one compile per burst"
    );
    assert!(app.wb.compiled().is_ok());
    assert!(!app.quit);
}

#[test]
fn paste_burst_ctrl_c_in_the_middle_quits_without_compiling() {
    let mut app = screens::demo(100, 30);
    key(&mut app, KeyCode::End, KeyModifiers::NONE);
    let before = app.wb.pattern.text().to_string();
    let mut keys = paste_keys(&"ab\tcd\n".repeat(20_000));
    keys.insert(
        50_000,
        KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
    );
    let compiles = app.wb.compile_count();
    app.handle_burst(&keys, Burst::Pasted);
    assert!(app.quit, "Ctrl-C inside a burst quits");
    assert_eq!(
        app.wb.compile_count(),
        compiles,
        "nothing compiled on the way out"
    );
    assert!(!app.wb.compiling(), "nor asked for");
    // The pattern editor keeps the line breaks of what is pasted.
    let typed = "ab\tcd\n".repeat(20_000)[..50_000].to_string();
    assert_eq!(
        app.wb.pattern.text(),
        format!("{before}{typed}"),
        "the text before Ctrl-C went in, nothing after it"
    );
}

#[test]
fn a_short_burst_is_typing_and_tab_still_moves_the_focus() {
    let mut app = screens::demo(100, 30);
    let keys = paste_keys("ab\tc");
    assert_eq!(Burst::of_len(keys.len()), Burst::Typed);
    app.handle_burst(&keys, Burst::Typed);
    assert_eq!(app.focus, Focus::Input);
    assert!(app.wb.pattern.text().ends_with("ab"));
}

/// Regression: a bracketed paste from a real terminal ends its lines with CR; it used to stay
/// one line with `␍` marks. CR and CRLF are line breaks in pasted text.
#[test]
fn a_paste_with_cr_line_ends_becomes_lines() {
    let mut app = empty_input_focused();
    app.update(Action::Edit(Edit::Paste("one\rtwo\r\nthree\r".into())));
    assert_eq!(app.wb.input.text(), "one\ntwo\nthree\n");
    assert_eq!(app.wb.input.line_count(), 4);
    assert_eq!(app.wb.input.line(1), "two");
}

/// Regression: typed input above 4 MiB used to be saved as `"input": null`, so the next start
/// showed the demo instead of the text.
#[test]
fn typed_input_above_4_mib_is_saved_and_restored_on_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rxw/session.json");
    let big = "[CLAIM 7fce46e0] typed by hand\n".repeat((5 << 20) / 31);
    assert!(big.len() > rxw::tui::session::MAX_INLINE_INPUT);
    let mut app = empty_input_focused();
    app.update(Action::Edit(Edit::Paste(big.clone())));
    assert!(app.session_dirty);
    let mut store = SessionStore::new(path.clone());
    autosave(&mut app, &mut store);
    assert_eq!(app.save_error, None);
    assert!(!app.session_dirty);
    let restored = rxw::tui::session::load(&path);
    assert_eq!(restored.notice, None);
    let again = start(Options::default(), StartInput::Demo, restored.session);
    assert_eq!(again.wb.source, InputSource::Typed);
    assert!(
        again.wb.input.text() == big,
        "the large input came back whole"
    );
}

/// Regression: when the state directory was not writable, autosave failed without a word.
#[test]
fn autosave_failure_is_shown_in_the_status_bar_until_a_save_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the state directory should be: creating the directory fails, even as root.
    let blocker = dir.path().join("state");
    std::fs::write(&blocker, "not a directory").unwrap();
    let mut store = SessionStore::new(blocker.join("rxw/session.json"));
    let mut app = screens::demo(120, 34);
    type_str(&mut app, "x");
    assert!(app.session_dirty);
    autosave(&mut app, &mut store);
    assert!(app.session_dirty, "still unsaved, so it is retried");
    let err = app
        .save_error
        .clone()
        .expect("the failure is kept for the status bar");
    assert!(err.starts_with("session not saved to "), "{err}");
    type_str(&mut app, "y");
    let screen = screen_of(&app);
    assert!(
        screen.contains("⚠ session not saved to"),
        "shown, and still shown after more keys: {screen}"
    );
    let mut good = SessionStore::new(dir.path().join("ok/rxw/session.json"));
    autosave(&mut app, &mut good);
    assert_eq!(app.save_error, None);
    assert!(!app.session_dirty);
}

/// Regression: a corrupt `session.json` was reset silently and overwritten; it is now moved
/// aside, and the start says so in the status bar.
#[test]
fn a_corrupt_session_is_moved_aside_and_the_start_says_so_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.json");
    std::fs::write(&path, "{\"pattern\": 12").unwrap();
    let restored = rxw::tui::session::load(&path);
    assert!(restored.session.is_none());
    assert!(dir.path().join("session.json.bad").exists());
    let mut app = start(Options::default(), StartInput::Demo, restored.session);
    app.message = restored.notice;
    assert_shows(&app, &["the saved session was corrupt"]);
    type_str(&mut app, "x");
    let screen = screen_of(&app);
    assert!(
        !screen.contains("the saved session was corrupt"),
        "said once"
    );
}

#[test]
fn debug_tab_steps_through_the_selected_match_with_keys() {
    let mut app = screens::demo(120, 34);
    app.select_match(0);
    key(&mut app, KeyCode::Char('8'), KeyModifiers::ALT);
    assert_eq!(app.active_tab(), debug::ID);
    screens::settle(&mut app);
    let n = debug_of(&app).len();
    assert!(n > 5, "a trace is recorded when the tab shows");
    assert_eq!(debug_of(&app).cursor, 0);
    key(&mut app, KeyCode::Right, KeyModifiers::NONE);
    key(&mut app, KeyCode::Char('n'), KeyModifiers::NONE);
    assert_eq!(debug_of(&app).cursor, 2);
    key(&mut app, KeyCode::Left, KeyModifiers::NONE);
    assert_eq!(debug_of(&app).cursor, 1);
    key(&mut app, KeyCode::End, KeyModifiers::NONE);
    let last = debug_of(&app).current().unwrap();
    assert_eq!(last.op, "match");
    // The pattern pane marks the step's instruction; the match the trace ends on is the
    // selected one.
    let (s, e) = app.wb.results.spans[0];
    assert_eq!(debug_of(&app).trace.as_ref().unwrap().matches[0].start(), s);
    assert_eq!(last.pos, e);
    assert_eq!(app.pattern_mark(), Some(last.span));
    // A new pattern records a new trace.
    app.focus = Focus::Pattern;
    type_str(&mut app, "x");
    screens::settle(&mut app);
    app.update(Action::ShowTab(debug::ID));
    assert_eq!(debug_of(&app).cursor, 0);
}

/// The Debug tab says the verdict `rxw debug` gives: no match, after what, where the last
/// attempt gave up, in the flavor's units.
#[test]
fn the_debug_tab_says_the_verdict() {
    let mut app = start(fresh(Some("é+b")), from_stdin("ééc"), None);
    app.update(Action::ShowTab(debug::ID));
    screens::settle(&mut app);
    for _ in 0..200 {
        app.poll();
        if screen_of(&app).contains("verdict:") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let screen: String = {
        let buf = screens::render_buffer(&app);
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        screen.contains("verdict: no match (code points)"),
        "{screen}"
    );
    // The sentence wraps in the pane: read it as one.
    let flat = screen
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    // Two attempts, at code points 0 and 1 (bytes 0 and 2), as `rxw debug` says; the last
    // failing step is the `b` after `é+`, at code point 2 (each give-back is a step).
    assert!(
        flat.contains(
            "after 7 steps and 2 attempts (at 0, 1); the last failing step was step 6, try `b` at 2 (found `c`)"
        ),
        "{screen}"
    );
}

/// Regression: the Debug tab recorded its trace on the UI thread, so on a pathological pattern
/// (about 290 ms for `(a|a)*c(?<=c)` on 32 KB of `a`) no key was answered meanwhile. The trace
/// is recorded on a worker: the tab says so, keys are answered at once, and the trace comes in
/// with a poll.
#[test]
fn the_debug_tab_records_on_a_worker_and_answers_keys_meanwhile() {
    let args = python(r"(a|a)*c(?<=c)");
    let mut app = start_unsettled(args, from_stdin("a".repeat(32 * 1024)));
    key(&mut app, KeyCode::Char('8'), KeyModifiers::ALT);
    assert_eq!(app.active_tab(), debug::ID);
    assert!(
        debug_of(&app).recording(),
        "the trace is recorded off the UI thread"
    );
    assert!(debug_of(&app).is_empty());
    let text = screen_rows(&app).join("\n");
    assert!(text.contains("recording the trace…"), "{text}");
    // A move while recording is answered (with a note), not queued behind the trace.
    key(&mut app, KeyCode::Right, KeyModifiers::NONE);
    assert_eq!(debug_of(&app).cursor, 0);
    screens::settle(&mut app);
    assert!(!debug_of(&app).recording());
    assert!(debug_of(&app).len() > 5, "the trace came in");
    key(&mut app, KeyCode::Right, KeyModifiers::NONE);
    assert_eq!(debug_of(&app).cursor, 1);
}

/// Esc stops the Lens and Jobs passes as it stops the count: the status bar shows their
/// progress and the key that stops them while they run, Esc says where each stopped, and the
/// views stay stopped.
#[test]
fn esc_stops_the_lens_and_jobs_passes() {
    let args = python("CLAIM");
    let mut app = start(
        args,
        from_stdin(rxw::workbench::DEMO_LOG.repeat(2000)),
        None,
    );
    let input = &app.wb.input;
    app.wb.lens.activate(input);
    app.wb.jobs.activate(input);
    let views = rxw::tui::panes::status::views_text(&app).unwrap_or_default();
    assert!(
        views.starts_with("lens ") && views.contains(" · jobs ") && views.ends_with("Esc stops"),
        "{views}"
    );
    app.focus = Focus::Results;
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Results, "the first Esc stops the passes");
    let message = app.message.clone().unwrap_or_default();
    assert!(
        message.contains("lens stopped at ") && message.contains("jobs stopped at "),
        "{message}"
    );
    assert!(matches!(
        app.wb.lens.state(),
        rxw::workbench::lens::LensState::Stopped(_)
    ));
    assert!(matches!(
        app.wb.jobs.state(),
        rxw::workbench::jobs_view::JobsState::Stopped(_)
    ));
    app.poll();
    assert_eq!(rxw::tui::panes::status::views_text(&app), None);
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(
        app.focus,
        Focus::Pattern,
        "then Esc goes back to the pattern"
    );
}

/// Regression: the TUI's full count showed no progress on a pattern that finds no match for a
/// long time, and nothing but a new pattern stopped it. The status shows how far it is and the
/// key the keymap binds to stop it; Esc stops it with a message; a new pattern counts again.
#[test]
fn esc_stops_a_long_count_that_shows_its_progress() {
    let args = python(r"(?:a|b)*c(?<=c)");
    let mut app = start_unsettled(args, from_stdin(format!("{}\n", "a".repeat(32 * 1024))));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while app.wb.results.scanned < 64 && std::time::Instant::now() < deadline {
        app.poll();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!app.wb.results.done);
    let status = rxw::tui::panes::status::count_text(&app);
    assert!(
        status.starts_with("0+ matches · counting… ") && status.ends_with("% · Esc stops"),
        "{status}"
    );
    let text = screen_rows(&app).join("\n");
    assert!(text.contains("Esc stops"), "{text}");
    app.focus = Focus::Results;
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Results, "the first Esc stops the count");
    assert!(app.wb.results.stopped);
    let message = app.message.clone().unwrap_or_default();
    assert!(message.starts_with("count stopped at "), "{message}");
    assert!(rxw::tui::panes::status::count_text(&app).contains("stopped at"));
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(
        app.focus,
        Focus::Pattern,
        "then Esc goes back to the pattern"
    );
    // Typing a new pattern counts again.
    retype(&mut app, "a");
    screens::settle(&mut app);
    assert!(!app.wb.results.stopped);
    assert_eq!(app.wb.results.count, 32 * 1024);
}

#[test]
fn explain_breakpoint_stops_the_debug_run_and_railroad_toggles() {
    let mut app = screens::demo(120, 34);
    app.select_match(0);
    app.update(Action::ShowTab(explain::ID));
    // Down to a node inside the pattern, then set a breakpoint on it.
    key(&mut app, KeyCode::Down, KeyModifiers::NONE);
    key(&mut app, KeyCode::Char('b'), KeyModifiers::NONE);
    let bp = explain_of(&app).row_span(&app.wb).unwrap();
    app.update(Action::ShowTab(debug::ID));
    screens::settle(&mut app);
    key(&mut app, KeyCode::Char('c'), KeyModifiers::NONE);
    let s = debug_of(&app).current().unwrap().span;
    assert!(bp.start <= s.start && s.end <= bp.end, "{bp:?} {s:?}");
    app.update(Action::ShowTab(explain::ID));
    key(&mut app, KeyCode::Char('r'), KeyModifiers::NONE);
    assert!(explain_of(&app).railroad);
    let lines = app.wb.analysis().railroad().clone().unwrap();
    assert!(lines.iter().any(|l| l.starts_with('●')));
}

fn ctrl(app: &mut App, c: char) {
    key(app, KeyCode::Char(c), KeyModifiers::CONTROL);
}

#[test]
fn the_filter_shows_matching_lines_with_context_then_the_others_and_keeps_line_numbers() {
    let mut app = screens::demo(100, 30);
    ctrl(&mut app, 'u');
    type_str(&mut app, "CLAIM");
    screens::settle(&mut app);
    let log: Vec<&str> = rxw::workbench::DEMO_LOG.lines().collect();
    let with: Vec<usize> = (0..log.len())
        .filter(|&i| log[i].contains("CLAIM"))
        .collect();
    let without: Vec<usize> = (0..log.len())
        .filter(|&i| !log[i].contains("CLAIM"))
        .collect();
    assert!(!with.is_empty() && !without.is_empty());

    ctrl(&mut app, 'l');
    screens::settle(&mut app);
    assert_eq!(filter_rows(&app), with);
    assert_eq!(
        app.line_on_row(0),
        Some(with[0]),
        "line numbers stay the file's"
    );
    let screen = screen_of(&app);
    let title = format!("filter: {} with a match", with.len());
    assert!(screen.contains(&title), "{screen}");

    // Two context lines: every line within two of a matching line, each once, in order.
    key(&mut app, KeyCode::Char('+'), KeyModifiers::ALT);
    key(&mut app, KeyCode::Char('+'), KeyModifiers::ALT);
    screens::settle(&mut app);
    let near: Vec<usize> = (0..log.len())
        .filter(|&i| with.iter().any(|&m| m.abs_diff(i) <= 2))
        .collect();
    assert_eq!(app.wb.filter.context(), 2);
    assert_eq!(filter_rows(&app), near);
    key(&mut app, KeyCode::Char('-'), KeyModifiers::ALT);
    assert_eq!(app.wb.filter.context(), 1);

    // The filtered view scrolls but does not take edits.
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Input);
    let before = app.wb.input.text().len();
    type_str(&mut app, "x");
    assert_eq!(app.wb.input.text().len(), before);
    assert!(said(&app).contains("read-only"));
    key(&mut app, KeyCode::Down, KeyModifiers::NONE);
    assert_eq!(app.input_top, 1);

    ctrl(&mut app, 'l');
    screens::settle(&mut app);
    assert_eq!(filter_rows(&app), without);
    ctrl(&mut app, 'l');
    assert!(!app.wb.filter.active());
    assert_eq!(app.line_on_row(0), Some(app.input_top));
    type_str(&mut app, "x");
    assert_eq!(app.wb.input.text().len(), before + 1, "edits again");
}

#[test]
fn next_match_with_the_filter_on_scrolls_to_its_row() {
    let mut app = screens::demo(100, 30);
    ctrl(&mut app, 'l');
    screens::settle(&mut app);
    let last = app.wb.results.spans.len() - 1;
    app.select_match(last);
    let (line, _) = app.wb.input.position_of(app.wb.results.spans[last].0);
    let rows = app.input_rows();
    let shown: Vec<Option<usize>> = (0..rows).map(|r| app.line_on_row(r)).collect();
    assert!(shown.contains(&Some(line)), "{line} in {shown:?}");
}

fn followed(path: &std::path::Path, pattern: &str) -> App {
    let text = std::fs::read_to_string(path).unwrap();
    let len = text.len() as u64;
    let mut app = start(
        fresh(Some(pattern)),
        StartInput::Loaded(text, InputSource::File(path.display().to_string()), None),
        None,
    );
    app.set_follower(rxw::workbench::follow::Follower::new(path, len), true);
    screens::settle(&mut app);
    app
}

#[test]
fn a_followed_file_is_matched_as_it_grows_and_the_view_sticks_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.log");
    let first: String = (1..=50).map(|i| format!("line {i} ok\n")).collect();
    std::fs::write(&path, &first).unwrap();
    let mut app = followed(&path, "ERR");
    assert!(app.following);
    assert_eq!(app.wb.results.count, 0);
    assert!(app.at_end());

    append(&path, "line 51 ERR one\nline 52 ok\nline 53 ER");
    assert!(app.tick());
    screens::settle(&mut app);
    assert_eq!(app.wb.results.count, 1);
    assert!(app.at_end(), "stuck to the end");
    assert_eq!(app.wb.input.line(52), "line 53 ER");
    // The last line completes.
    append(&path, "R two\n");
    app.tick();
    screens::settle(&mut app);
    assert_eq!(app.wb.results.count, 2);
    assert_eq!(
        app.wb.results.spans,
        vec![
            (first.len() + 8, first.len() + 11),
            (first.len() + 35, first.len() + 38)
        ]
    );

    // The filter follows too.
    key(&mut app, KeyCode::Char('l'), KeyModifiers::CONTROL);
    screens::settle(&mut app);
    assert_eq!(app.wb.filter.rows(), &[50, 52]);
    append(&path, "line 54 ERR three\n");
    app.tick();
    screens::settle(&mut app);
    assert_eq!(app.wb.filter.rows(), &[50, 52, 53]);
    key(&mut app, KeyCode::Char('l'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Char('l'), KeyModifiers::CONTROL);

    // Scrolled up, the view stays where it is.
    app.focus = Focus::Input;
    key(&mut app, KeyCode::PageUp, KeyModifiers::NONE);
    key(&mut app, KeyCode::PageUp, KeyModifiers::NONE);
    let top = app.input_top;
    append(&path, "line 55 ok\n");
    app.tick();
    screens::settle(&mut app);
    assert_eq!(app.input_top, top);
    assert!(!app.at_end());

    // Typed edits are refused while following; Ctrl-F stops following.
    let len = app.wb.input.text().len();
    type_str(&mut app, "x");
    assert_eq!(app.wb.input.text().len(), len);
    assert!(said(&app).contains("Ctrl-F stops following"));
    key(&mut app, KeyCode::Char('f'), KeyModifiers::CONTROL);
    assert!(!app.following);
    append(&path, "line 56 ERR\n");
    assert!(!app.tick(), "not following");
    type_str(&mut app, "x");
    assert_eq!(app.wb.input.text().len(), len + 1);
    key(&mut app, KeyCode::Char('f'), KeyModifiers::CONTROL);
    assert!(!app.following, "an edited input cannot be followed");
    assert!(said(&app).contains("edited"));
}

#[test]
fn a_followed_file_that_is_truncated_or_rotated_is_reloaded_and_said() {
    let (dir, path) = temp_file("app.log", "ERR a\nERR b\nok\n");
    let mut app = followed(&path, "ERR");
    assert_eq!(app.wb.results.count, 2);

    std::fs::write(&path, "ERR\n").unwrap();
    assert!(app.tick());
    screens::settle(&mut app);
    assert_says(&app, "truncated");
    assert_eq!(app.wb.input.text(), "ERR\n");
    assert_eq!(app.wb.results.count, 1);
    append(&path, "ERR again\n");
    app.tick();
    screens::settle(&mut app);
    assert_eq!(app.wb.results.count, 2);

    std::fs::rename(&path, dir.path().join("app.log.1")).unwrap();
    app.tick();
    assert_says(&app, "gone");
    std::fs::write(&path, "fresh ERR ERR ERR\n").unwrap();
    app.tick();
    screens::settle(&mut app);
    assert_says(&app, "rotated");
    assert_eq!(app.wb.results.count, 3);
    assert!(app.following);
}

/// Regression: a followed file replaced by a FIFO blocked the workbench in `open()` (no key
/// answered); the status bar now says what is at the path, and the file that comes back is
/// followed. (The follower's own test guards the blocking with a thread.)
#[cfg(unix)]
#[test]
fn a_followed_path_turned_fifo_is_said_and_a_file_back_is_followed() {
    let (_dir, path) = temp_file("app.log", "ERR a\n");
    let mut app = followed(&path, "ERR");
    std::fs::remove_file(&path).unwrap();
    assert!(mkfifo(&path));
    assert!(app.tick());
    assert_says(&app, "is a FIFO now, not a regular file: not read");
    assert!(app.following);
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, "ERR b ERR c\n").unwrap();
    assert!(app.tick());
    screens::settle(&mut app);
    assert_says(&app, "rotated");
    assert_eq!(app.wb.results.count, 2);
}

/// `rxw --fresh -e ERR` on `input`.
fn fresh_err(input: StartInput) -> App {
    start(fresh(Some("ERR")), input, None)
}

/// The reader thread's count of `bytes` more read.
fn count_read(app: &App, bytes: usize) {
    app.loading
        .as_ref()
        .unwrap()
        .read
        .fetch_add(bytes as u64, std::sync::atomic::Ordering::Relaxed);
}

/// What the file reader thread sends for `whole`.
fn rest_read(whole: String, error: Option<std::io::Error>) -> rxw::workbench::RestRead {
    rxw::workbench::RestRead {
        whole: rxw::workbench::IndexedText::new(whole),
        warning: None,
        error,
        shrank_from: None,
    }
}

#[test]
fn a_large_file_opens_on_its_head_and_the_rest_is_appended_when_read() {
    let head: String = (1..=100).map(|i| format!("line {i} ERR\n")).collect();
    let rest: String = (101..=300).map(|i| format!("line {i} ERR\n")).collect();
    let total = (head.len() + rest.len()) as u64;
    let mut app = fresh_err(StartInput::Loaded(
        head.clone(),
        InputSource::File("big.log".into()),
        None,
    ));
    app.loading = Some(rxw::tui::app::Loading::new(head.len() as u64, total));
    let screen = screen_of(&app);
    let percent = head.len() as u64 * 100 / total;
    assert!(
        screen.contains(&format!("indexing… {percent}%")),
        "{screen}"
    );
    assert!(
        screen.contains("100+ matches · reading the file…"),
        "{screen}"
    );
    app.focus = Focus::Input;
    type_str(&mut app, "x");
    assert_eq!(app.wb.input.text(), head, "no edits while reading");

    // The reader thread's count, then its bytes.
    count_read(&app, rest.len());
    let consumed = app.finish_loading(
        rest_read(format!("{head}{rest}"), None),
        std::path::Path::new("big.log"),
    );
    assert_eq!(consumed, Some(total));
    screens::settle(&mut app);
    assert!(app.loading.is_none());
    assert_eq!(app.wb.results.count, 300);
    assert_eq!(app.wb.input.line(299), "line 300 ERR");
    let screen = screen_of(&app);
    assert!(screen.contains("300 matches"), "{screen}");
    assert!(!screen.contains("indexing"), "{screen}");
}

#[test]
fn a_large_file_whose_read_stops_keeps_what_was_read_and_one_that_changed_is_reloaded() {
    let head: String = (1..=100).map(|i| format!("line {i} ERR\n")).collect();
    let open = |head: &str| {
        let mut app = fresh_err(StartInput::Loaded(
            head.to_string(),
            InputSource::File("big.log".into()),
            None,
        ));
        app.loading = Some(rxw::tui::app::Loading::new(head.len() as u64, 10_000));
        screens::settle(&mut app);
        app
    };
    // Reading failed after 50 more lines: they are kept, and the message says reading stopped.
    let mut app = open(&head);
    let more: String = (101..=150).map(|i| format!("line {i} ERR\n")).collect();
    let consumed = app.finish_loading(
        rest_read(
            format!("{head}{more}"),
            Some(std::io::Error::other("device gone")),
        ),
        std::path::Path::new("big.log"),
    );
    assert_eq!(consumed, None, "no follower on a failed read");
    screens::settle(&mut app);
    assert_eq!(app.wb.results.count, 150);
    let msg = app.message.clone().unwrap();
    assert!(msg.contains("reading stopped (device gone)"), "{msg}");
    assert!(
        msg.contains(&format!("first {} bytes", head.len() + more.len())),
        "{msg}"
    );

    // The file was rewritten under the reader: the whole text replaces the head.
    let mut app = open(&head);
    let other: String = (1..=40).map(|i| format!("other {i} ERR ERR\n")).collect();
    app.finish_loading(
        rest_read(other.clone(), None),
        std::path::Path::new("big.log"),
    );
    screens::settle(&mut app);
    assert_eq!(app.wb.input.text(), other);
    assert_eq!(app.wb.results.count, 80);

    // Truncated under the reader (10,000 bytes at open, fewer read): said, what was read
    // shown, and following goes on from there.
    let mut app = open(&head);
    let read = head.len() + more.len();
    count_read(&app, more.len());
    let mut shrank = rest_read(format!("{head}{more}"), None);
    shrank.shrank_from = Some(10_000);
    let consumed = app.finish_loading(shrank, std::path::Path::new("big.log"));
    assert_eq!(consumed, Some(read as u64));
    screens::settle(&mut app);
    assert_eq!(app.wb.results.count, 150);
    let msg = app.message.clone().unwrap();
    assert!(
        msg.contains("shrank while it was read (10000 bytes when opened)")
            && msg.contains(&format!("showing the {read} bytes read")),
        "{msg}"
    );
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn a_file_over_the_edit_limit_is_read_only_and_says_why() {
    let big = "line ERR\n".repeat(rxw::tui::app::EDITABLE_FILE_BYTES / 9 + 1);
    let mut app = fresh_err(StartInput::Loaded(
        big.clone(),
        InputSource::File("huge.log".into()),
        None,
    ));
    app.focus = Focus::Input;
    type_str(&mut app, "x");
    assert_eq!(app.wb.input.text().len(), big.len(), "no edit");
    let msg = app.message.clone().unwrap();
    assert!(
        msg.contains("huge.log is 67 MB") && msg.contains("read-only"),
        "{msg}"
    );
    // Moving still works.
    app.update(Action::Edit(rxw::tui::action::Edit::Down));
    assert_eq!(app.wb.input.cursor_position().0, 1);
    // The same text typed or piped in stays editable.
    let mut app = fresh_err(from_stdin(big.clone()));
    app.focus = Focus::Input;
    type_str(&mut app, "x");
    assert_eq!(app.wb.input.text().len(), big.len() + 1);
}

#[test]
fn explain_rows_follow_the_pattern_after_an_edit() {
    // The rows are cached per pattern, flavor and flags: an edit must show the new tree.
    let mut app = screens::demo(120, 34);
    app.update(Action::ShowTab(explain::ID));
    let before = app.wb.analysis().rows().clone().unwrap();
    app.focus = Focus::Pattern;
    key(&mut app, KeyCode::End, KeyModifiers::NONE);
    type_str(&mut app, "x");
    let after = app.wb.analysis().rows().clone().unwrap();
    assert_ne!(before, after);
    assert!(after[0].text.ends_with('x'), "{:?}", after[0].text);
    app.update(Action::CycleFlavor);
    let other = app.wb.analysis().rows().clone();
    assert_ne!(other.as_ref().ok(), Some(&after));
}

#[test]
fn a_frame_reads_the_workbench_parse_and_only_an_edit_parses_again() {
    // the pattern pane, the Explain tab (tree, lints, railroad) and the Debug tab
    // used to parse the pattern on every frame; now the workbench parses once per edit.
    let mut app = screens::demo(120, 34);
    app.select_match(0);
    app.update(Action::ShowTab(explain::ID));
    screens::render_buffer(&app);
    let parses = app.wb.parse_count();
    let first = app.wb.analysis();
    for _ in 0..3 {
        screens::render_buffer(&app);
    }
    key(&mut app, KeyCode::Down, KeyModifiers::NONE);
    app.update(Action::Tab(explain::RAILROAD));
    screens::render_buffer(&app);
    app.update(Action::ShowTab(debug::ID));
    screens::render_buffer(&app);
    assert_eq!(app.wb.parse_count(), parses, "frames and keys do not parse");
    assert!(std::sync::Arc::ptr_eq(&first, &app.wb.analysis()));
    // An edit: one new parse, shared by the frames after it.
    app.focus = Focus::Pattern;
    type_str(&mut app, "x");
    screens::render_buffer(&app);
    screens::render_buffer(&app);
    assert_eq!(app.wb.parse_count(), parses + 1);
    let second = app.wb.analysis();
    assert!(!std::sync::Arc::ptr_eq(&first, &second));
    assert!(second.key().pattern.ends_with('x'));
    // A flavor change is an edit too.
    app.update(Action::CycleFlavor);
    screens::render_buffer(&app);
    assert_eq!(app.wb.parse_count(), parses + 2);
}

#[test]
fn help_lists_every_tabs_own_keys_the_shown_tab_first() {
    // The Debug and Lens tabs' keys work only while they are shown; help used to list only
    // the Anywhere, editor and list sections, so they were nowhere but the footer.
    let mut app = screens::demo(120, 34);
    app.update(Action::ShowTab(debug::ID));
    let text: Vec<String> = rxw::tui::popups::help::lines(&app.popup_draw_cx())
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    let sections: Vec<&String> = text.iter().filter(|l| l.starts_with("In the ")).collect();
    let first_tab = sections
        .iter()
        .position(|l| l.ends_with(" tab"))
        .expect("a tab section");
    assert_eq!(sections[first_tab], "In the Debug tab", "{sections:?}");
    assert!(
        sections.iter().any(|l| *l == "In the Lens tab"),
        "{sections:?}"
    );
    let debug_at = text.iter().position(|l| l == "In the Debug tab").unwrap();
    let debug_rows = &text[debug_at + 1..];
    assert!(
        debug_rows
            .iter()
            .take_while(|l| l.starts_with("  "))
            .any(|l| l.contains("backtrack")),
        "{debug_rows:?}"
    );
}

/// The filter's rows as line numbers.
fn filter_rows(app: &App) -> Vec<usize> {
    app.wb.filter.rows().iter().map(|&r| r as usize).collect()
}

/// The screen's text, row by row.
fn screen_rows(app: &App) -> Vec<String> {
    let buf = screens::render_buffer(app);
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

#[test]
fn the_explain_tab_proves_a_redos_verdict_and_loads_its_attack_into_the_debugger() {
    let mut app = screens::demo(140, 40);
    app.wb.pattern.set(r"^(\w+\s?)*$");
    app.pattern_changed();
    screens::settle(&mut app);
    app.update(Action::ShowTab(explain::ID));
    screens::settle_redos(&mut app);
    let rows = screen_rows(&app);
    let text = rows.join("\n");
    assert!(text.contains("redos: exponential"), "{text}");
    assert!(text.contains("attack:"), "{text}");
    // The verdict's row marks the culprit in the pattern.
    app.update(Action::Edit(Edit::End));
    let culprit = app.pattern_mark().expect("the culprit is marked");
    assert!(culprit.start >= 1 && culprit.end <= app.wb.pattern.text().len());
    // `a` loads the attack and opens the Debug tab on it.
    key(&mut app, KeyCode::Char('a'), KeyModifiers::NONE);
    assert_eq!(app.active_tab(), debug::ID);
    let report = app
        .tab_as::<explain::ExplainTab>()
        .unwrap()
        .redos
        .result
        .clone();
    let attack = report.unwrap().unwrap().attack.unwrap();
    assert_eq!(app.wb.input.text(), attack.at(16));
    assert!(said(&app).contains("ReDoS attack"));
}

#[test]
fn shift_f2_steps_through_the_flavors_releases_and_the_pattern_title_names_the_release() {
    let mut app = screens::demo(120, 34);
    app.wb.set_flavor(rxw::Flavor::PYTHON);
    assert!(
        app.flavor_label().starts_with("python 3.14"),
        "{}",
        app.flavor_label()
    );
    key(&mut app, KeyCode::F(2), KeyModifiers::SHIFT);
    assert_eq!(app.wb.flavor, "python@3.15".parse().unwrap());
    assert_shows(&app, &["python 3.15"]);
    assert!(
        !said(&app).contains("end of life"),
        "3.15 is supported: nothing to say"
    );
    // From the newest to the oldest: 3.8, past its end of life, is said so.
    key(&mut app, KeyCode::F(2), KeyModifiers::SHIFT);
    assert_eq!(app.wb.flavor, "python@3.8".parse().unwrap());
    let said = app.message.clone().unwrap_or_default();
    assert!(said.contains("python@3.8: past its end of life"), "{said}");
    for _ in 0..6 {
        key(&mut app, KeyCode::F(2), KeyModifiers::SHIFT);
    }
    assert_eq!(
        app.wb.flavor,
        rxw::Flavor::PYTHON,
        "eight releases wrap around"
    );
    // F2 still steps the family, to its default release.
    key(&mut app, KeyCode::F(2), KeyModifiers::NONE);
    assert_eq!(app.wb.flavor, rxw::Flavor::JS);
    assert!(app.flavor_label().starts_with("js node26"));
    let help: Vec<String> = rxw::tui::popups::help::lines(&app.popup_draw_cx())
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    assert!(
        help.iter()
            .any(|l| l.contains("Shift-F2") && l.contains("release")),
        "{help:?}"
    );
}

/// Polls the app until the Presets tab's verification worker has answered.
fn wait_for_export_verdict(app: &mut App) -> String {
    let waited = std::time::Instant::now();
    loop {
        app.poll();
        let pane = export_pane(app);
        if !pane.running() {
            return pane.verdict_line();
        }
        assert!(waited.elapsed() < std::time::Duration::from_secs(120));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The demo at `width`×`height` on the Presets tab, whose registry exports go to a new
/// temporary folder: that folder and the app.
fn presets_tab_exporting(width: u16, height: u16) -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let mut app = screens::demo(width, height);
    app.update(Action::ShowTab(presets::ID));
    app.tab_as_mut::<presets::PresetsTab>().unwrap().export_dir = dir.path().to_path_buf();
    (dir, app)
}

#[test]
fn the_presets_export_pane_shows_the_definition_and_its_verdict_without_blocking() {
    let (dir, mut app) = presets_tab_exporting(120, 40);
    type_str(&mut app, "ack");
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    // It asks where to write the registry; Esc writes nothing.
    assert!(app.popup::<PathPrompt>().is_some());
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(app.popup::<PathPrompt>().is_none());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // The key came back at once: the verification is on a worker.
    {
        let pane = export_pane(&app);
        assert_eq!(
            (pane.key.as_str(), pane.target.name()),
            ("ack", "clickhouse")
        );
        assert!(pane.running(), "{}", pane.verdict_line());
        assert!(pane.verdict_line().starts_with("verifying on the engine…"));
    }
    // Typing goes on while it runs (the filter takes the key).
    key(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    type_str(&mut app, "k");
    let verdict = wait_for_export_verdict(&mut app);
    let chdb = std::process::Command::new("python3")
        .args(["-c", "import chdb"])
        .status()
        .is_ok_and(|s| s.success());
    if chdb {
        assert!(
            verdict.starts_with("agree: ") && verdict.contains("chDB"),
            "{verdict}"
        );
    } else {
        rxw_testkit::missing(
            "chDB (the Python package chdb)",
            "the pane's verdict on ClickHouse is not checked",
        );
        assert!(verdict.starts_with("not verified: "), "{verdict}");
    }
    assert_shows(
        &app,
        &["CREATE OR REPLACE VIEW `rxw_ack`", "highlighted as SQL"],
    );
    // Copy: the whole file for that preset and engine.
    key(&mut app, KeyCode::Char('p'), KeyModifiers::CONTROL);
    match app.effects.pop() {
        Some(Effect::Copy { text, what }) => {
            assert!(text.contains("CREATE TABLE IF NOT EXISTS logs"), "{text}");
            assert!(what.contains("ack"), "{what}");
        }
        other => panic!("{other:?}"),
    }
    // Another preset and engine: `result` on Vector is refused, the caret under its
    // look-ahead; nothing runs.
    for _ in 0..3 {
        key(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    }
    presets_mut(&mut app).select_key("result");
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let pane = export_pane(&app);
    assert_eq!(
        (pane.key.as_str(), pane.target.name()),
        ("result", "vector")
    );
    assert!(!pane.running());
    assert!(
        pane.verdict_line()
            .starts_with("refused because cannot write this pattern for Vector"),
        "{}",
        pane.verdict_line()
    );
    assert_shows(&app, &["^^^^"]);
    key(&mut app, KeyCode::Char('p'), KeyModifiers::CONTROL);
    assert!(app.effects.pop().is_none(), "a refusal has nothing to copy");
}

/// Ctrl-N on the export pane (its pattern there as `exported`, else panics with that word):
/// checks that the workbench now holds that pattern in `flavor`, says `says`, and, settled,
/// shows the flavor's name. The pattern loaded.
fn load_export(app: &mut App, exported: &str, flavor: rxw::Flavor, says: &str) -> String {
    let pattern = export_pane(app).pattern.clone().expect(exported);
    key(app, KeyCode::Char('n'), KeyModifiers::CONTROL);
    assert_eq!(app.wb.flavor, flavor);
    assert_eq!(app.wb.pattern.text(), pattern);
    assert_says(app, says);
    screens::settle(app);
    let screen = screen_of(app);
    assert!(screen.contains(&flavor.to_string()), "{screen}");
    pattern
}

/// Ctrl-N loads the shown export's pattern in the engine's own flavor (ClickHouse: re2), so
/// the workbench shows what that engine finds; a rewrite or a refusal has no pattern to load,
/// and an engine without a flavor says so.
#[test]
fn ctrl_n_loads_the_export_in_the_engines_flavor() {
    let (_dir, mut app) = presets_tab_exporting(120, 40);
    presets_mut(&mut app).select_key("ack");
    key(&mut app, KeyCode::Char('n'), KeyModifiers::CONTROL);
    assert!(said(&app).starts_with("Ctrl-R first"), "{:?}", app.message);
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    let exported = load_export(
        &mut app,
        "ack is exported as it stands",
        rxw::Flavor::Re2,
        "in the re2 flavor",
    );
    // `result` is a rewrite for ClickHouse (split on its look-ahead): nothing to load.
    app.update(Action::ShowTab(presets::ID));
    presets_mut(&mut app).select_key("result");
    app.tab_as_mut::<presets::PresetsTab>()
        .unwrap()
        .show_export();
    key(&mut app, KeyCode::Char('n'), KeyModifiers::CONTROL);
    assert_says(&app, "no single pattern");
    assert_eq!(
        app.wb.pattern.text(),
        exported,
        "the workbench kept its pattern"
    );
}

/// Grok's export is Oniguruma's: Ctrl-N loads a preset exported for Elasticsearch in the
/// `oniguruma` flavor, and the workbench shows the matches Oniguruma finds (the same as rxw's
/// engine gives for that flavor on the demo log).
#[test]
fn ctrl_n_loads_a_grok_export_as_oniguruma() {
    let mut app = screens::demo(120, 40);
    app.update(Action::ShowTab(presets::ID));
    presets_mut(&mut app).select_key("ack");
    let tab = app.tab_as_mut::<presets::PresetsTab>().unwrap();
    tab.last_export = Some(presets::LastExport {
        target: rxw::fleet::Target::Elasticsearch,
        path: None,
        forms: Default::default(),
    });
    tab.show_export();
    let pane = export_pane(&app);
    assert_eq!(pane.target.flavor(), Some(rxw::Flavor::Oniguruma));
    let exported = load_export(
        &mut app,
        "ack is exported to grok as it stands",
        rxw::Flavor::Oniguruma,
        "as exported for Elasticsearch grok (Oniguruma), in the oniguruma flavor",
    );
    let re = rxw::Regex::new(&exported, rxw::Flavor::Oniguruma, rxw::Flags::default()).unwrap();
    let want = re.find_all(rxw::workbench::DEMO_LOG, None).unwrap().len();
    assert!(want > 0);
    assert_eq!(app.wb.results.count, want);
}

/// Regression: Ctrl-R wrote `rxw-registry.clickhouse.sql` into the working directory without
/// asking. It now shows the engine's export, asks where (a free name offered), writes only on
/// Enter and says where; Esc writes nothing, and Ctrl-R in the prompt goes on to the next
/// engine.
#[test]
fn ctrl_r_in_the_presets_tab_asks_where_before_writing_the_registry_for_each_engine() {
    let (dir, mut app) = presets_tab_exporting(100, 30);
    type_str(&mut app, "result");
    // A file already at the default name is not offered.
    std::fs::write(dir.path().join("rxw-registry.clickhouse.sql"), "mine").unwrap();
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let offered = app
        .popup::<PathPrompt>()
        .expect("a path prompt")
        .path
        .text()
        .to_string();
    assert!(
        offered.ends_with("rxw-registry.clickhouse.1.sql"),
        "{offered}"
    );
    assert_shows(&app, &["Write the registry for clickhouse to"]);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let tab = app.tab_as::<presets::PresetsTab>().unwrap();
    let last = tab.last_export.as_ref().expect("an export was shown");
    assert_eq!(last.target.name(), "clickhouse");
    assert_eq!(last.path.as_deref(), Some(std::path::Path::new(&offered)));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("rxw-registry.clickhouse.sql")).unwrap(),
        "mine",
        "the file already there is untouched"
    );
    let sql = std::fs::read_to_string(&offered).unwrap();
    assert!(sql.contains("CREATE OR REPLACE VIEW `rxw_result`"), "{sql}");
    assert_eq!(last.forms["result"], "rewrite");
    let said = app.message.clone().unwrap_or_default();
    assert!(said.starts_with(&format!("wrote {offered} (")), "{said}");
    // The filter did not take the key as text.
    assert_eq!(presets_of(&app).filter.text(), "result");
    // Next: DuckDB (Ctrl-R in the prompt moves on, writing nothing), then Vector, written
    // under a name typed by hand (the look-ahead refused, said with the reason).
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert!(!dir.path().join("rxw-registry.duckdb.sql").exists());
    for _ in 0..offered.len() + 40 {
        key(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    }
    let typed = dir.path().join("fleet.toml");
    type_str(&mut app, &typed.display().to_string());
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let last = app
        .tab_as::<presets::PresetsTab>()
        .unwrap()
        .last_export
        .clone()
        .unwrap();
    assert_eq!(last.target.name(), "vector");
    assert!(typed.is_file());
    assert!(!dir.path().join("rxw-registry.vector.toml").exists());
    // Esc writes nothing and says so.
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.message.as_deref(), Some("nothing written"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
    assert!(
        last.forms["result"].starts_with("refused: cannot write this pattern for Vector"),
        "{:?}",
        last.forms
    );
}

/// Regression: a JavaScript match without `u` that cut a surrogate pair was refused; the
/// Groups tab now shows node's UTF-16 spans (`(.)(.)` on `x😀`: group 2 is the high half at
/// 1..2), a lone half as U+FFFD, and which character is cut at which bytes.
#[test]
fn the_groups_tab_shows_a_match_cutting_a_surrogate_pair_in_utf16_units() {
    let args = Options {
        pattern: Some("(.)(?<hi>.)".into()),
        flavor: Some(rxw::Flavor::JS),
        ..Default::default()
    };
    let mut app = start(args, from_stdin("x😀"), None);
    app.update(Action::ShowTab(groups::ID));
    let screen = screen_of(&app);
    assert!(screen.contains("(spans in UTF-16 units)"), "{screen}");
    assert!(screen.contains("hi           1..2"), "{screen}");
    assert!(screen.contains('\u{FFFD}'), "{screen}");
    assert!(
        screen.contains("the match cuts U+1F600 (bytes 1..5, UTF-16 1..3)"),
        "{screen}"
    );
}

/// Regression: the Groups tab showed byte spans (`body 37..96`) where CPython's
/// `m.span('body')` is `(35, 94)`. Spans are in the flavor's units, labelled: code points for
/// Python, UTF-16 units for JavaScript, bytes for Rust; each checked against the real engine.
#[test]
fn the_groups_tab_shows_spans_in_the_flavors_units() {
    let text = "2026-10-05T00:00:01Z — [WO:7fce46e0] [from super] Audit — 😀 done";
    let cases = [
        (
            rxw::Flavor::PYTHON,
            r"\[WO:(?P<id>[0-9a-f]+)\].*?(?P<body>Audit.*)",
            "code points",
        ),
        (
            rxw::Flavor::JS,
            r"\[WO:(?<id>[0-9a-f]+)\].*?(?<body>Audit.*)",
            "UTF-16 units",
        ),
        (
            rxw::Flavor::Rust,
            r"\[WO:(?P<id>[0-9a-f]+)\].*?(?P<body>Audit.*)",
            "bytes",
        ),
    ];
    for (flavor, pattern, unit) in cases {
        let args = Options {
            pattern: Some(pattern.into()),
            flavor: Some(flavor),
            ..Default::default()
        };
        let mut app = start(args, from_stdin(text), None);
        app.update(Action::ShowTab(groups::ID));
        let screen = screen_of(&app);
        assert!(screen.contains(&format!("(spans in {unit})")), "{screen}");
        // What the engine itself reports for `body`.
        let body = text.find("Audit").unwrap();
        let (start, end) = match unit {
            "code points" => (text[..body].chars().count(), text.chars().count()),
            "UTF-16 units" => (
                text[..body].encode_utf16().count(),
                text.encode_utf16().count(),
            ),
            _ => (body, text.len()),
        };
        assert!(
            screen.contains(&format!("body         {start}..{end}")),
            "{unit}: {start}..{end}\n{screen}"
        );
    }
    // CPython's own answer for the Python case: the CPython of the release plain `python`
    // names.
    let release = rxw::Flavor::PYTHON.py_version().expect("a Python flavor");
    let python =
        rxw_testkit::python_release(release.number(), "CPython's own span is not compared");
    let said = python.and_then(|python| {
        std::process::Command::new(python)
            .args([
                "-c",
                "import re,sys; m=re.search(sys.argv[1], sys.argv[2]); print(m.span('body'))",
                r"\[WO:(?P<id>[0-9a-f]+)\].*?(?P<body>Audit.*)",
                text,
            ])
            .output()
            .ok()
    });
    if let Some(out) = said {
        let said = String::from_utf8_lossy(&out.stdout);
        let body = text.find("Audit").unwrap();
        let want = format!(
            "({}, {})",
            text[..body].chars().count(),
            text.chars().count()
        );
        assert_eq!(said.trim(), want);
    }
}

/// Regression: there was no pattern history (Up did nothing to the pattern). A pattern run
/// with Enter or left with Tab is remembered; Up brings the earlier ones back, Down returns to
/// what was being typed; the history is kept in the session.
#[test]
fn up_and_down_in_the_pattern_walk_its_history() {
    let mut app = screens::demo(100, 30);
    retype(&mut app, "CLAIM");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    retype(&mut app, "RESULT");
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    key(&mut app, KeyCode::BackTab, KeyModifiers::SHIFT);
    assert_eq!(app.focus, Focus::Pattern);
    retype(&mut app, "ACK");
    key(&mut app, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(app.wb.pattern.text(), "RESULT");
    key(&mut app, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(app.wb.pattern.text(), "CLAIM");
    key(&mut app, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(app.wb.pattern.text(), "CLAIM", "the oldest stays");
    key(&mut app, KeyCode::Down, KeyModifiers::NONE);
    assert_eq!(app.wb.pattern.text(), "RESULT");
    key(&mut app, KeyCode::Down, KeyModifiers::NONE);
    assert_eq!(app.wb.pattern.text(), "ACK", "back to what was typed");
    screens::settle(&mut app);
    assert_eq!(
        app.wb.results.count,
        rxw::workbench::DEMO_LOG.matches("ACK").count()
    );
    let saved = rxw::tui::session::Session::of(&app);
    assert!(saved.histories["python"].ends_with(&["CLAIM".to_string(), "RESULT".to_string()]));
}

/// Regression: the history was one list for every flavor, lost with `--fresh`, and could not
/// be searched. Each flavor family has its own; Ctrl-R in the pattern pane lists the family's
/// earlier patterns containing what is typed, newest first, Ctrl-R again goes older, Enter
/// puts the chosen one in the pattern (one undo step), Esc keeps the pattern; the history
/// comes back in the next session, even a fresh one.
#[test]
fn ctrl_r_searches_the_flavors_history_which_outlives_a_fresh_start() {
    let mut app = screens::demo(100, 30);
    let run = |app: &mut App, p: &str| {
        key(app, KeyCode::Char('u'), KeyModifiers::CONTROL);
        type_str(app, p);
        key(app, KeyCode::Enter, KeyModifiers::NONE);
    };
    for p in ["CLAIM (\\w+)", "RESULT", "claim"] {
        run(&mut app, p);
    }
    app.update(Action::CycleFlavor);
    assert_ne!(app.wb.flavor.family_name(), "python");
    run(&mut app, "CLAIMED");
    let other = app.wb.flavor.family_name();
    // In the other family Ctrl-R sees only its own pattern.
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let search = app.popup::<HistorySearch>().expect("the history search");
    assert_eq!(search.found, ["CLAIMED"]);
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.wb.pattern.text(), "CLAIMED");
    while app.wb.flavor.family_name() != "python" {
        app.update(Action::CycleFlavor);
    }
    retype(&mut app, "mine");
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    type_str(&mut app, "cla");
    assert_eq!(
        app.popup::<HistorySearch>().unwrap().found,
        ["claim", "CLAIM (\\w+)"],
        "newest first, smart case"
    );
    key(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let screen = screen_of(&app);
    assert!(screen.contains("Earlier python patterns"), "{screen}");
    assert!(screen.contains(r"> CLAIM (\w+)"), "{screen}");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(app.popup::<HistorySearch>().is_none());
    assert_eq!(app.wb.pattern.text(), "CLAIM (\\w+)");
    assert_says(&app, "python history");
    key(&mut app, KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_eq!(app.wb.pattern.text(), "mine", "one undo step");
    // The next session, even a fresh one, has both families' histories.
    let saved = rxw::tui::session::Session::of(&app);
    let fresh = start(fresh(None), StartInput::Demo, Some(saved));
    assert_eq!(fresh.history.entries(other), ["CLAIMED"]);
    // The pattern the search replaced was remembered too (Up brings it back as well).
    assert!(fresh.history.entries("python").ends_with(&[
        "RESULT".into(),
        "claim".into(),
        "mine".into()
    ]));
}

/// Regression: Ctrl-S saved a preset whose own tests failed, without a word. The save prompt
/// now says which lines fail before anything is saved; Enter then saves with only the passing
/// lines as its examples (so the preset passes its own check) and says so; a save without the
/// prompt's word refuses.
#[test]
fn a_preset_whose_tests_fail_is_saved_only_when_asked_and_without_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = demo_with_tests("+ [CLAIM ab12]\n+ no tag at all\n");
    screens::settle(&mut app);
    let err = rxw::tui::presets::save_to_user_registry(dir.path(), "broken", &app.wb, Refuse)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("not saved: 1 of the Tests tab's 2 lines fails"),
        "{err}"
    );
    assert!(err.contains("no tag at all"), "{err}");
    assert!(!dir.path().join("user.toml").exists(), "nothing written");
    // The prompt asks first, naming the failing line.
    key(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    let prompt = app.popup::<SavePrompt>().expect("the save prompt");
    let failing = prompt.failing.clone().expect("the failing lines said");
    assert!(failing.contains("line 2: \"no tag at all\""), "{failing}");
    assert_shows(&app, &["Enter saves without them"]);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let Some(Effect::SavePreset {
        key: saved_key,
        leave_out_failing: true,
    }) = app.effects.pop()
    else {
        panic!("the save leaves the failing lines out")
    };
    let (path, left_out) = rxw::tui::presets::save_to_user_registry(
        dir.path(),
        &saved_key,
        &app.wb,
        rxw::tui::presets::FailingTests::LeaveOut,
    )
    .unwrap();
    assert_eq!(left_out, 1);
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("[CLAIM ab12]"), "{text}");
    assert!(!text.contains("no tag at all"), "{text}");
    let options = rxw::presets::load::LoadOptions {
        files: vec![],
        config_dir: Some(dir.path().to_path_buf()),
    };
    assert!(
        rxw::tui::load_presets_from(&options)
            .find(&saved_key)
            .is_some()
    );
}

/// Regression: the quick reference could not be searched nor used, and was written by hand
/// (it drifted from what the parser accepts). F1 now lists the flavor's constructs as the
/// parser and matcher decide; typing searches them, Up/Down choose, Enter inserts the chosen
/// one at the pattern's cursor (the cursor inside it) as one undo step.
#[test]
fn the_quick_reference_is_searched_and_inserts_a_construct_at_the_cursor() {
    let mut app = screens::demo(120, 40);
    retype(&mut app, "ab");
    key(&mut app, KeyCode::Left, KeyModifiers::NONE);
    key(&mut app, KeyCode::F(1), KeyModifiers::NONE);
    assert!(app.help_open());
    type_str(&mut app, "look-ahead");
    let found: Vec<String> = app
        .popup::<Help>()
        .unwrap()
        .found()
        .iter()
        .map(|r| r.syntax.clone())
        .collect();
    assert_eq!(found, ["(?=…)", "(?!…)"], "typing searches");
    let screen = screen_of(&app);
    assert!(screen.contains("> (?=…)"), "{screen}");
    assert!(!screen.contains("(?<=…)"), "{screen}");
    key(&mut app, KeyCode::Down, KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(!app.help_open());
    assert_eq!(app.wb.pattern.text(), "a(?!)b");
    type_str(&mut app, "c");
    assert_eq!(
        app.wb.pattern.text(),
        "a(?!c)b",
        "the cursor is inside the construct"
    );
    key(&mut app, KeyCode::Char('z'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_eq!(
        app.wb.pattern.text(),
        "ab",
        "two undo steps: the c, the insertion"
    );
    // The rust flavor (the regex crate) offers no look-around: searching finds none.
    app.update(Action::ShowTab(matches::ID));
    while app.wb.flavor != rxw::Flavor::Rust {
        app.update(Action::CycleFlavor);
    }
    key(&mut app, KeyCode::F(1), KeyModifiers::NONE);
    type_str(&mut app, "look-ahead");
    assert!(app.popup::<Help>().unwrap().found().is_empty());
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(!app.help_open());
}

/// F1's quick reference in the flavors with readers of their own: titled with the engine,
/// listing what that engine runs (`\h` a hex digit in Ruby and Oniguruma, a horizontal space
/// in PCRE2; PCRE2's `\K`, which rxw refuses, nowhere).
#[test]
fn the_quick_reference_of_pcre2_ruby_and_oniguruma_is_their_engines() {
    let mut app = screens::demo(120, 40);
    for (flavor, h) in [
        (rxw::Flavor::Pcre2, "a horizontal space"),
        (rxw::Flavor::RUBY, "a hexadecimal digit"),
        (rxw::Flavor::Oniguruma, "a hexadecimal digit"),
    ] {
        while app.wb.flavor != flavor {
            app.update(Action::CycleFlavor);
        }
        key(&mut app, KeyCode::F(1), KeyModifiers::NONE);
        assert!(app.help_open(), "{flavor}");
        let screen = screen_of(&app);
        let title = format!("Syntax of {} ({})", flavor.label(), flavor.rules().engine);
        assert!(screen.contains(&title), "{title}: {screen}");
        let help = app.popup::<Help>().unwrap();
        let rows: Vec<(String, String)> = help
            .found()
            .iter()
            .map(|r| (r.syntax.clone(), r.meaning.clone()))
            .collect();
        let hs: Vec<&(String, String)> = rows.iter().filter(|r| r.0 == "\\h").collect();
        assert!(hs.len() == 1 && hs[0].1.starts_with(h), "{flavor}: {hs:?}");
        assert!(!rows.iter().any(|r| r.0 == "\\K"), "{flavor}: {rows:?}");
        assert!(
            rows.iter().any(|r| r.0 == "(?<name>…)"),
            "{flavor}: {rows:?}"
        );
        key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
        assert!(!app.help_open());
    }
}

/// With `--print` (or the output redirected), Enter in the pattern pane accepts the pattern
/// and leaves, as fzf's Enter; elsewhere Enter keeps its meaning, and without `--print` Enter
/// in the pattern goes to the next match as before.
#[test]
fn under_print_enter_in_the_pattern_accepts_it() {
    let mut app = screens::demo(100, 30);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(
        !app.quit && !app.accepted,
        "no --print: Enter is the next match"
    );
    app.printing = true;
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(!app.quit, "Enter in the results is not an answer");
    app.focus = Focus::Pattern;
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(app.quit && app.accepted);
    assert_eq!(
        rxw::tui::pipeline::printed(
            rxw::tui::pipeline::PrintFormat::Json,
            "a\"b\nc",
            "js@node22",
            "gi"
        ),
        "{\"pattern\":\"a\\\"b\\nc\",\"flavor\":\"js@node22\",\"flags\":\"gi\"}\n"
    );
}

/// Regression: the Matches list's columns counted code points whatever the flavor. They count
/// in the flavor's unit, as its engine reports positions, and the header says which.
#[test]
fn the_matches_list_counts_columns_in_the_flavors_unit() {
    let text = "é😀 CLAIM\n";
    let col = |flavor: rxw::Flavor| {
        let mut app = screens::demo(100, 30);
        app.wb.set_flavor(flavor);
        app.wb.input.replace_all(text.into());
        retype(&mut app, "CLAIM");
        app.update(Action::ShowTab(matches::ID));
        screens::settle(&mut app);
        let screen = screen_of(&app);
        let unit = flavor.offset_unit().name();
        assert!(
            screen.contains(&format!("text (columns in {unit})")),
            "{screen}"
        );
        let row = screen
            .lines()
            .find(|l| l.contains(" 1  1:"))
            .unwrap_or_else(|| panic!("{screen}"))
            .to_string();
        row.split(" 1  1:")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    // `é😀 ` is 3 code points, 4 UTF-16 units, 7 bytes.
    assert_eq!(col(rxw::Flavor::PYTHON), "4");
    assert_eq!(col(rxw::Flavor::JS), "5");
    assert_eq!(col(rxw::Flavor::Rust), "8");
}

#[test]
fn f2_reaches_pcre2_and_the_pattern_title_names_it() {
    let mut app = screens::demo(120, 34);
    app.wb.set_flavor(rxw::Flavor::Rust);
    let mut seen_pcre2 = false;
    for _ in 0..rxw::Family::ALL.len() {
        key(&mut app, KeyCode::F(2), KeyModifiers::NONE);
        seen_pcre2 |= app.wb.flavor == rxw::Flavor::Pcre2;
    }
    assert!(seen_pcre2, "F2 never reached pcre2");
    app.wb.set_flavor(rxw::Flavor::Pcre2);
    assert!(
        app.flavor_label().starts_with("pcre2"),
        "{}",
        app.flavor_label()
    );
    assert_shows(&app, &["pcre2"]);
    // PCRE2 has one release: Shift-F2 stays on it.
    key(&mut app, KeyCode::F(2), KeyModifiers::SHIFT);
    assert_eq!(app.wb.flavor, rxw::Flavor::Pcre2);
}
