//! The operator views in the TUI state machine, without a terminal: the Lens, Jobs and
//! Timeline tabs (keys, jumps, a followed file's growth) and the export prompt.
#![cfg(feature = "app")]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rxw::tui::Options;
use rxw::tui::action::{Action, Edit};
use rxw::tui::app::App;
use rxw::tui::popups::export::ExportPrompt;
use rxw::tui::tabs::{jobs, lens, timeline};
use rxw::tui::{StartInput, screens};
use rxw::workbench::InputSource;
use rxw::workbench::timeline_view::TimelineSource;
use rxw_testkit::{append, temp_file};
use std::time::{Duration, Instant};

fn key(app: &mut App, code: KeyCode, mods: KeyModifiers) {
    app.handle_key(KeyEvent::new(code, mods));
}

fn cursor_line(app: &App) -> usize {
    app.wb.input.cursor_position().0
}

/// The demo (120×34) on the tab Alt-`digit` shows (`id`), its work settled.
fn demo_on_tab(digit: char, id: rxw::tui::action::TabId) -> App {
    let mut app = screens::demo(120, 34);
    key(&mut app, KeyCode::Char(digit), KeyModifiers::ALT);
    assert_eq!(app.active_tab(), id);
    screens::settle(&mut app);
    app
}

/// Polls until the status bar's message satisfies `done` (an export finishing).
fn wait_message(app: &mut App, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        app.poll();
        if let Some(m) = &app.message
            && done(m)
        {
            return m.clone();
        }
        assert!(Instant::now() < deadline, "no message: {:?}", app.message);
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn the_lens_jumps_through_one_keys_hits_and_hides_keys() {
    let mut app = demo_on_tab('9', lens::ID);
    let verb = app.wb.lens.keys().iter().position(|k| k == "verb").unwrap();
    key(&mut app, KeyCode::Home, KeyModifiers::NONE);
    for _ in 0..verb {
        key(&mut app, KeyCode::Char('j'), KeyModifiers::NONE);
    }
    assert_eq!(app.tab_as::<lens::LensTab>().unwrap().selected, verb);
    app.wb.input.set_cursor(0);
    key(&mut app, KeyCode::Char('n'), KeyModifiers::NONE);
    let first = app.wb.lens.hits(verb)[0];
    assert_eq!(app.wb.input.cursor(), first.0);
    assert_eq!(app.message.as_deref(), Some("verb: hit 1 of 44"));
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(app.wb.input.cursor(), app.wb.lens.hits(verb)[1].0);
    key(&mut app, KeyCode::Char('p'), KeyModifiers::NONE);
    assert_eq!(app.wb.input.cursor(), first.0);
    // The fields table follows the cursor's line (parsed on the next turn of the loop).
    app.poll();
    let fields = app.wb.lens.fields().unwrap();
    assert_eq!(fields.line, cursor_line(&app));
    assert!(fields.rows.iter().any(|r| r.key == "verb"));
    // Space hides the key: not painted, not parsed, and n says why it does not move.
    key(&mut app, KeyCode::Char(' '), KeyModifiers::NONE);
    assert!(!app.wb.lens.enabled(verb));
    app.poll();
    assert!(
        app.wb
            .lens
            .fields()
            .unwrap()
            .rows
            .iter()
            .all(|r| r.key != "verb")
    );
    key(&mut app, KeyCode::Char('n'), KeyModifiers::NONE);
    assert_eq!(app.wb.input.cursor(), first.0);
    assert!(app.message.as_deref().unwrap().contains("hidden"));
}

#[test]
fn the_jobs_tab_sorts_and_enter_walks_a_jobs_lines() {
    let mut app = demo_on_tab('0', jobs::ID);
    let job = app.wb.jobs.selected_job().unwrap();
    assert_eq!(job.id, "7fce46e0", "first seen first");
    // The view keeps no events: Enter finds them in the text, where the tracker does.
    let tracked = rxw::operator::jobs::JobTracker::read(app.wb.input.text().as_bytes()).unwrap();
    let job = tracked.iter().find(|j| j.id == job.id).unwrap();
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(cursor_line(&app) + 1, job.events[0].line as usize);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(cursor_line(&app) + 1, job.events[1].line as usize);
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .starts_with("job 7fce46e0: event 2 of")
    );
    key(&mut app, KeyCode::Char('s'), KeyModifiers::NONE);
    assert_eq!(app.wb.jobs.sort_key().name(), "job");
    assert_eq!(
        app.wb.jobs.selected_job().unwrap().id,
        "7fce46e0",
        "the selected job stays selected"
    );
    key(&mut app, KeyCode::Down, KeyModifiers::NONE);
    assert_ne!(app.wb.jobs.selected_job().unwrap().id, "7fce46e0");
}

#[test]
fn the_timeline_jumps_to_a_bucket_and_counts_lens_keys() {
    let mut app = demo_on_tab('l', timeline::ID);
    let t = app.wb.timeline.result().unwrap().as_ref().unwrap().clone();
    assert_eq!(t.matches, 44);
    key(&mut app, KeyCode::Home, KeyModifiers::NONE);
    key(&mut app, KeyCode::Right, KeyModifiers::NONE);
    assert_eq!(app.wb.timeline.selected, 1);
    let (first, _) = t.buckets[1].lines.unwrap();
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(cursor_line(&app) + 1, first as usize);
    // s: the first lens key, then the next.
    key(&mut app, KeyCode::Char('s'), KeyModifiers::NONE);
    let first_key = app.wb.lens.keys()[0].clone();
    assert_eq!(app.wb.timeline.source(), &TimelineSource::Preset(first_key));
    key(&mut app, KeyCode::Char('s'), KeyModifiers::NONE);
    screens::settle(&mut app);
    let ack = app.wb.timeline.result().unwrap().as_ref().unwrap();
    let second_key = &app.wb.lens.keys()[1];
    let preset = app.wb.lens.catalog().get(second_key).unwrap();
    let want = preset.regex().unwrap().count(app.wb.input.text()).unwrap();
    assert_eq!(ack.matches, want);
    assert!(want > 0);
}

#[test]
fn ctrl_x_exports_the_matches_and_an_unwritable_path_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = screens::demo(120, 34);
    key(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    let prompt = app.popup::<ExportPrompt>().unwrap();
    assert_eq!(prompt.what.noun(), "matches");
    assert_eq!(prompt.path.text(), "rxw-matches.jsonl");
    // Tab cycles what is written, and the offered name with it.
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(
        app.popup::<ExportPrompt>().unwrap().what.noun(),
        "lens hits"
    );
    assert_eq!(
        app.popup::<ExportPrompt>().unwrap().path.text(),
        "rxw-hits.jsonl"
    );
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.popup::<ExportPrompt>().unwrap().what.noun(), "matches");
    key(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    let path = dir.path().join("m.csv");
    app.update(Action::Edit(Edit::Paste(path.display().to_string())));
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(app.popup::<ExportPrompt>().is_none());
    let msg = wait_message(&mut app, |m| m.starts_with("exported"));
    assert!(msg.starts_with("exported 44 matches to "), "{msg}");
    assert!(msg.ends_with("(CSV)"), "{msg}");
    let csv = std::fs::read_to_string(&path).unwrap();
    assert_eq!(csv.lines().count(), 45, "a header and 44 rows");
    assert!(csv.starts_with("line,index,end,match,groups\r\n"));

    // Into a directory that does not exist: said, and no file.
    let bad = dir.path().join("no-such-dir").join("out.jsonl");
    key(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    app.update(Action::Edit(Edit::Paste(bad.display().to_string())));
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let msg = wait_message(&mut app, |m| m.starts_with("export failed"));
    assert!(msg.contains("out.jsonl"), "{msg}");
    assert!(!bad.exists());
    // Esc cancels; an empty name is refused.
    key(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(app.popup::<ExportPrompt>().is_some());
    assert_eq!(app.message.as_deref(), Some("type the file to export to"));
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(app.popup::<ExportPrompt>().is_none());
}

#[test]
fn the_lens_tab_offers_lens_hits_and_the_filter_offers_its_lines() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = screens::demo(120, 34);
    key(&mut app, KeyCode::Char('l'), KeyModifiers::CONTROL);
    screens::settle(&mut app);
    key(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    assert_eq!(app.popup::<ExportPrompt>().unwrap().what.noun(), "lines");
    key(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    let path = dir.path().join("lines.jsonl");
    app.update(Action::Edit(Edit::Paste(path.display().to_string())));
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    let msg = wait_message(&mut app, |m| m.starts_with("exported"));
    let rows = app.wb.filter.rows().len();
    assert!(msg.starts_with(&format!("exported {rows} lines")), "{msg}");
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut app, KeyCode::Char('9'), KeyModifiers::ALT);
    key(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    assert_eq!(
        app.popup::<ExportPrompt>().unwrap().what.noun(),
        "lens hits"
    );
}

#[test]
fn a_followed_files_growth_reaches_the_lens_jobs_and_timeline() {
    let first = "2026-10-05T00:00:00Z [CLAIM a1]\n2026-10-05T00:00:01Z [RESULT a1] OK\n";
    let (_dir, path) = temp_file("fleet.log", first);
    let args = Options {
        pattern: Some("RESULT".into()),
        fresh: true,
        ..Default::default()
    };
    let mut app = rxw::tui::start_app(
        &args,
        StartInput::Loaded(
            first.to_string(),
            InputSource::File(path.display().to_string()),
            None,
        ),
        None,
        rxw::tui::load_presets(),
        ratatui::layout::Rect::new(0, 0, 120, 34),
        rxw::tui::theme::Palette::Color,
    )
    .unwrap();
    app.set_follower(
        rxw::workbench::follow::Follower::new(&path, first.len() as u64),
        true,
    );
    for tab in ['9', '0', 'l'] {
        key(&mut app, KeyCode::Char(tab), KeyModifiers::ALT);
        screens::settle(&mut app);
    }
    let verb = app.wb.lens.keys().iter().position(|k| k == "verb").unwrap();
    assert_eq!(app.wb.lens.counts()[verb], 2);
    assert_eq!(app.wb.jobs.len(), 1);
    append(
        &path,
        "2026-10-05T00:00:02Z [CLAIM b2]\n2026-10-05T00:00:09Z [RESULT b2] FAIL\n[CLAIM c3",
    );
    assert!(app.tick());
    screens::settle(&mut app);
    assert_eq!(app.wb.lens.counts()[verb], 4);
    assert_eq!(app.wb.jobs.len(), 2);
    let t = app.wb.timeline.result().unwrap().as_ref().unwrap();
    assert_eq!((t.matches, t.buckets.len()), (2, 10));
    // The unfinished line completes.
    append(&path, "]\n");
    assert!(app.tick());
    screens::settle(&mut app);
    assert_eq!(app.wb.lens.counts()[verb], 5);
    assert_eq!(app.wb.jobs.len(), 3);
}
