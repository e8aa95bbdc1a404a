//! Several logs opened with `-f` in the TUI state machine, without a terminal: followed merged
//! (new records in time order, a late one at arrival and counted in the status bar), each
//! log's truncation followed, the source gutter, the combined filters and the Jobs view taking
//! the new lines in as they come.
#![cfg(feature = "app")]

use ratatui::layout::Rect;
use rxw::tui::action::Action;
use rxw::tui::app::App;
use rxw::tui::{Options, open_headless, screens};
use rxw::workbench::filter::FilterMode;
use rxw::workbench::filters::{Filters, SourceRule};
use rxw_testkit::append;
use std::path::{Path, PathBuf};

fn stamp(minute: u32) -> String {
    format!("2026-10-05T00:{minute:02}:00Z")
}

fn followed(dir: &Path) -> (App, PathBuf, PathBuf) {
    let a = dir.join("a.log");
    let b = dir.join("b.log");
    std::fs::write(
        &a,
        format!("{} a: [CLAIM 0a1] took\n{} a: idle\n", stamp(1), stamp(2)),
    )
    .unwrap();
    std::fs::write(&b, format!("{} b: [CLAIM 0b1] took\n", stamp(2))).unwrap();
    let args = Options {
        file: Some(a.clone()),
        more: vec![b.clone()],
        follow: true,
        pattern: Some(r"CLAIM \w+".into()),
        fresh: true,
        ..Default::default()
    };
    let mut app = open_headless(&args, Rect::new(0, 0, 120, 30)).expect("the logs open");
    screens::settle(&mut app);
    (app, a, b)
}

/// The text of the input's last line (before the final line break).
fn last_line(app: &App) -> String {
    let n = app.wb.input.line_count();
    app.wb.input.line(n - 2).to_string()
}

/// The log's tag and own line of the input's last line.
fn last_place(app: &App) -> (String, u64) {
    let n = app.wb.input.line_count();
    let (tag, line) = app
        .source_gutter()
        .expect("the gutter")
        .place(n - 2)
        .unwrap();
    (tag.to_string(), line)
}

fn status(app: &App) -> String {
    app.fleet_label().unwrap_or_default()
}

#[test]
fn merged_logs_opened_with_f_are_followed_with_late_records_truncation_and_the_gutter() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, a, b) = followed(dir.path());
    assert!(app.following, "{:?}", app.message);
    assert_eq!(app.wb.results.count, 2);
    assert_eq!(
        status(&app),
        "following 2 logs merged · late records shown at arrival: 0"
    );
    assert!(app.at_end());

    // b writes 00:05: appended, matched, tagged b line 2.
    append(&b, &format!("{} b: [CLAIM 0b2] took\n", stamp(5)));
    assert!(app.tick());
    screens::settle(&mut app);
    assert_eq!(app.wb.results.count, 3);
    assert_eq!(last_line(&app), format!("{} b: [CLAIM 0b2] took", stamp(5)));
    assert_eq!(last_place(&app), ("b".into(), 2));
    assert!(app.at_end(), "the view sticks to the end");

    // a writes 00:03 after 00:05 was shown: appended at arrival, counted and said.
    append(&a, &format!("{} a: [CLAIM 0a2] late\n", stamp(3)));
    assert!(app.tick());
    screens::settle(&mut app);
    assert_eq!(last_line(&app), format!("{} a: [CLAIM 0a2] late", stamp(3)));
    assert_eq!(last_place(&app), ("a".into(), 3));
    assert_eq!(
        status(&app),
        "following 2 logs merged · late records shown at arrival: 1"
    );
    let said = app.message.clone().unwrap_or_default();
    assert!(said.contains("1 late record shown at arrival"), "{said}");
    assert_eq!(app.wb.results.count, 4);

    // a is truncated and written again: its lines from its start are appended, a line 1.
    std::fs::write(&a, format!("{} a: [CLAIM 0a3] again\n", stamp(6))).unwrap();
    assert!(app.tick());
    screens::settle(&mut app);
    let said = app.message.clone().unwrap_or_default();
    assert!(said.contains("a.log was truncated"), "{said}");
    assert_eq!(last_place(&app), ("a".into(), 1));
    assert_eq!(app.wb.results.count, 5);

    // Nothing new: nothing changes.
    assert!(!app.tick());

    // Ctrl-F stops following: appends wait until it is on again.
    app.update(Action::ToggleFollow);
    assert!(!app.following);
    append(&b, &format!("{} b: [CLAIM 0b3] took\n", stamp(7)));
    assert!(!app.tick());
    app.update(Action::ToggleFollow);
    assert!(app.following);
    screens::settle(&mut app);
    assert_eq!(last_place(&app), ("b".into(), 3));
}

/// Growth of merged logs keeps the views incremental: the Jobs table goes on from where it
/// stopped, and a hidden log's new lines stay hidden while the other log's are shown.
#[test]
fn a_followed_merged_set_feeds_the_jobs_view_and_the_log_filter() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, a, b) = followed(dir.path());
    app.wb.jobs.activate(&app.wb.input);
    assert!(
        app.wb
            .jobs
            .settle(&app.wb.input, std::time::Duration::from_secs(30))
    );
    assert_eq!(app.wb.jobs.len(), 2);
    let filters = Filters {
        sources: Some(SourceRule::Hide(vec![1])),
        ..Default::default()
    };
    app.update(Action::SetFilters(Box::new(filters), FilterMode::Off));
    screens::settle(&mut app);

    let before = app.wb.input.len();
    append(&b, &format!("{} b: [CLAIM 0b2] took\n", stamp(5)));
    append(&a, &format!("{} a: [CLAIM 0a2] took\n", stamp(6)));
    assert!(app.tick());
    // Both appends may take two ticks (the logs are looked at one after the other).
    app.tick();
    screens::settle(&mut app);
    assert!(
        app.wb
            .jobs
            .settle(&app.wb.input, std::time::Duration::from_secs(30))
    );
    // The Jobs tab follows the filters: log a's jobs, the new one included.
    let ids = |app: &App| -> Vec<String> {
        let table = app.wb.jobs.table();
        let jobs = table.jobs();
        (0..jobs.len())
            .map(|k| jobs.row(k).id().to_string())
            .collect()
    };
    assert_eq!(ids(&app), ["0a1", "0a2"]);
    assert!(
        app.wb.jobs.read_from() >= before,
        "the table went on from the end it had read ({} < {before})",
        app.wb.jobs.read_from()
    );
    // The filter: a's lines are shown, b's hidden, the new ones too.
    for _ in 0..200 {
        app.poll();
        if app.filters.complete() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let rows: Vec<usize> = app
        .view_rows()
        .map(|r| r.iter().map(|&l| l as usize).collect())
        .unwrap_or_default();
    let g = app.source_gutter().unwrap();
    let tags: Vec<&str> = rows.iter().map(|&l| g.place(l).unwrap().0).collect();
    assert_eq!(tags, ["a", "a", "a"], "rows {rows:?}");
    // Fed as the rows grew, the filtered views equal those of the same logs opened afresh
    // under the same filter (log a's lines are in a's own order either way).
    let timeline = |app: &App| {
        app.wb
            .timeline
            .result()
            .and_then(|r| r.as_ref().ok())
            .map(|t| t.matches)
    };
    app.wb.timeline.activate();
    screens::settle(&mut app);
    app.poll();
    let args = Options {
        file: Some(a.clone()),
        more: vec![b.clone()],
        pattern: Some(r"CLAIM \w+".into()),
        fresh: true,
        ..Default::default()
    };
    let mut fresh = open_headless(&args, Rect::new(0, 0, 120, 30)).expect("the logs open");
    fresh.wb.jobs.activate(&fresh.wb.input);
    fresh.wb.timeline.activate();
    fresh.update(Action::SetFilters(
        Box::new(Filters {
            sources: Some(SourceRule::Hide(vec![1])),
            ..Default::default()
        }),
        FilterMode::Off,
    ));
    screens::settle(&mut fresh);
    for _ in 0..200 {
        fresh.poll();
        if fresh.filters.complete() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(ids(&fresh), ids(&app));
    assert_eq!(timeline(&fresh), Some(2));
    assert_eq!(timeline(&app), timeline(&fresh));
    // The filter off: every log's jobs, grown from the end the whole input's table had read.
    app.update(Action::SetFilters(Box::default(), FilterMode::Off));
    screens::settle(&mut app);
    assert_eq!(ids(&app), ["0a1", "0b1", "0b2", "0a2"]);
}

/// A directory opened with `-f` is followed as its logs merged; what cannot be followed is
/// refused before the workbench opens, saying why.
#[test]
fn a_directory_is_followed_and_what_cannot_be_followed_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    std::fs::write(logs.join("x.log"), format!("{} x: [CLAIM 0x1]\n", stamp(1))).unwrap();
    std::fs::write(logs.join("y.log"), format!("{} y: [CLAIM 0y1]\n", stamp(2))).unwrap();
    let open = |file: PathBuf, more: Vec<PathBuf>| {
        let args = Options {
            file: Some(file),
            more,
            follow: true,
            pattern: Some(r"CLAIM \w+".into()),
            fresh: true,
            ..Default::default()
        };
        open_headless(&args, Rect::new(0, 0, 100, 30))
    };
    let mut app = open(logs.clone(), Vec::new()).expect("the directory opens");
    screens::settle(&mut app);
    assert!(app.following);
    append(
        &logs.join("y.log"),
        &format!("{} y: [CLAIM 0y2]\n", stamp(3)),
    );
    assert!(app.tick());
    screens::settle(&mut app);
    assert_eq!(app.wb.results.count, 3);
    assert_eq!(last_place(&app), ("y".into(), 2));

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let err = open(empty, Vec::new()).err().expect("refused").to_string();
    assert!(err.contains("no file in the directory"), "{err}");
    let err = open(dir.path().join("none-*.log"), Vec::new())
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("no file matches"), "{err}");
    let old = dir.path().join("old.log.gz");
    std::fs::write(&old, rxw_testkit::gzip("CLAIM\n")).unwrap();
    let err = open(logs.join("x.log"), vec![old])
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("compressed"), "{err}");
}

/// Regression: the empty line after the merged text's last line break was drawn as the next
/// line of the last log (`a 3` for a log of two lines). It names no log now.
#[test]
fn the_empty_last_line_of_merged_logs_names_no_log() {
    let dir = tempfile::tempdir().unwrap();
    let (app, _, _) = followed(dir.path());
    let screen = format!("{:?}", screens::render_buffer(&app));
    let gutters: Vec<(String, String)> = screen
        .lines()
        .filter_map(|l| {
            let row = l.trim().trim_start_matches('"').strip_prefix('│')?;
            let mut words = row.split_whitespace();
            Some((words.next()?.to_string(), words.next()?.to_string()))
        })
        .collect();
    let has = |tag: &str, line: &str| gutters.iter().any(|(t, n)| t == tag && n == line);
    assert!(has("a", "1") && has("a", "2") && has("b", "1"), "{screen}");
    assert!(!has("a", "3") && !has("b", "2"), "{screen}");
}
