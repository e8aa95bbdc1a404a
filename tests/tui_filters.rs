//! Operator mode in the TUI state machine, without a terminal: filters that combine (and
//! the Matches list that follows them), the time-range and go-to prompts, bookmarks kept
//! across a restart, the zoomed Timeline.
#![cfg(feature = "app")]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rxw::tui::action::{Action, Edit, GoTarget};
use rxw::tui::app::App;
use rxw::tui::popups::filters::FilterPanel;
use rxw::tui::popups::prompt::Prompt;
use rxw::tui::session::{Session, SessionStore};
use rxw::tui::tabs::timeline;
use rxw::tui::{Options, StartInput, autosave, screens, start_app};
use rxw::workbench::filter::FilterMode;
use rxw::workbench::filters::{Filters, Level, SourceRule};

const ALT: KeyModifiers = KeyModifiers::ALT;
const NONE: KeyModifiers = KeyModifiers::NONE;

fn key(app: &mut App, code: KeyCode, mods: KeyModifiers) {
    app.handle_key(KeyEvent::new(code, mods));
}

fn type_str(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c), NONE);
    }
}

/// Polls until the filters have classified every line.
fn settle_filters(app: &mut App) {
    screens::settle(app);
    for _ in 0..100 {
        app.poll();
        if app.filters.complete() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!(
        "the filters did not finish: {} of {} lines, pattern filter decided {} complete {} capped {}",
        app.filters.classified(),
        app.wb.input.line_count(),
        app.wb.filter.decided(),
        app.wb.filter.complete(),
        app.wb.filter.capped(),
    );
}

/// Polls until the pattern's line filter (with or without a match, no other filter on) has
/// classified every line.
fn settle_line_filter(app: &mut App) {
    screens::settle(app);
    for _ in 0..1000 {
        app.poll();
        if app.wb.filter.complete() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!(
        "the line filter did not finish: {} decided",
        app.wb.filter.decided()
    );
}

fn shown_lines(app: &App) -> Vec<usize> {
    app.view_rows()
        .map(|r| r.iter().map(|&l| l as usize).collect())
        .unwrap_or_default()
}

#[test]
fn merged_logs_combine_a_hidden_log_a_time_range_and_the_match_filter() {
    let mut app = screens::merged_logs(120, 34);
    screens::settle(&mut app);
    let all = app.wb.results.spans.len();
    assert!(all > 10);
    assert!(
        app.wb.results.done,
        "scanned {} of {}",
        app.wb.results.scanned,
        app.wb.input.len()
    );
    let tags = app.source_gutter().unwrap().tags.clone();
    let range =
        rxw::tui::popups::prompt::read_range("2026-11-30T18:00..2026-11-30T18:20", 0).unwrap();
    let filters = Filters {
        sources: Some(SourceRule::Hide(vec![1])),
        time: range,
        ..Default::default()
    };
    app.update(Action::SetFilters(Box::new(filters), FilterMode::Matching));
    settle_filters(&mut app);
    let rows = shown_lines(&app);
    assert!(!rows.is_empty());
    let g = app.source_gutter().unwrap();
    for &l in &rows {
        let line = app.wb.input.line(l);
        assert!(
            line.as_ref() >= "2026-11-30T18:00" && line.as_ref() < "2026-11-30T18:20",
            "{line}"
        );
        assert_ne!(g.sources_of(l..l + 1)[0], Some(1), "{}", tags[1]);
    }
    // The Matches list and the count follow: the matches on those lines only.
    let shown = app.shown_matches().unwrap().to_vec();
    assert!(!shown.is_empty() && shown.len() < all);
    for &i in &shown {
        let (line, _) = app.wb.results.span_lines[i as usize];
        assert!(rows.contains(&(line as usize)));
    }
    let count = rxw::tui::panes::status::count_text(&app);
    assert!(
        count.starts_with(&format!("{} shown of {all} matches", shown.len())),
        "{count}"
    );
    // n steps through the shown matches only.
    app.update(Action::NextMatch);
    assert!(shown.contains(&(app.selected as u32)));
    // Each filter is named in the status bar; one removed leaves the others.
    let labels = app.filter_labels();
    assert_eq!(labels.len(), 3, "{labels:?}");
    assert!(labels[0].starts_with("hiding "), "{labels:?}");
    assert_eq!(labels[2], "with a match");
    key(&mut app, KeyCode::Char('k'), ALT);
    assert!(app.popup::<FilterPanel>().is_some());
    // Row 0 is the pattern's filter: Delete turns it off alone.
    key(&mut app, KeyCode::Delete, NONE);
    key(&mut app, KeyCode::Esc, NONE);
    assert!(app.popup::<FilterPanel>().is_none());
    settle_filters(&mut app);
    assert_eq!(app.wb.filter.mode(), FilterMode::Off);
    assert_eq!(app.filter_labels().len(), 2);
    assert!(shown_lines(&app).len() > rows.len());
}

#[test]
fn the_level_filter_keeps_a_records_continuation_lines() {
    let log = "2026-10-05T00:00:01Z a: ERROR disk full\n  at write()\n2026-10-05T00:00:02Z a: INFO ok\n  detail\n2026-10-05T00:00:03Z a: WARN slow\n";
    let mut app = start_app(
        &Options::default(),
        StartInput::Loaded(log.into(), rxw::workbench::InputSource::Typed, None),
        None,
        rxw::tui::load_presets(),
        ratatui::layout::Rect::new(0, 0, 100, 30),
        rxw::tui::theme::Palette::Color,
    )
    .unwrap();
    app.update(Action::SetFilters(
        Box::new(Filters {
            level: Some(Level::Warn),
            ..Default::default()
        }),
        FilterMode::Off,
    ));
    settle_filters(&mut app);
    assert_eq!(shown_lines(&app), vec![0, 1, 4]);
}

#[test]
fn the_time_prompt_reads_relative_times_from_the_logs_end_and_refuses_bad_ones() {
    let mut app = screens::demo(120, 34);
    key(&mut app, KeyCode::Char('r'), ALT);
    assert!(app.popup::<Prompt>().is_some());
    type_str(&mut app, "yesterday");
    key(&mut app, KeyCode::Enter, NONE);
    let p = app
        .popup::<Prompt>()
        .expect("a bad time keeps the prompt open");
    assert!(
        p.error.as_deref().unwrap().contains("yesterday"),
        "{:?}",
        p.error
    );
    key(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    // The demo ends at 18:54:53: the last ten minutes.
    type_str(&mut app, "-10m");
    key(&mut app, KeyCode::Enter, NONE);
    assert!(app.popup::<Prompt>().is_none());
    settle_filters(&mut app);
    let rows = shown_lines(&app);
    assert!(!rows.is_empty());
    for &l in &rows {
        // A stamped line is in the range; one without a stamp goes with the record before.
        let line = app.wb.input.line(l);
        if line.starts_with("2026") {
            assert!(line.as_ref() >= "2026-11-30T18:44:53", "{line}");
        }
    }
    assert!(rows.len() < app.wb.input.line_count() / 2);
    assert!(app.message.as_deref().unwrap().starts_with("time range "));
}

#[test]
fn go_to_a_line_or_a_time_and_a_line_past_the_end_is_said() {
    let mut app = screens::demo(120, 34);
    let lines = app.wb.input.line_count();
    key(&mut app, KeyCode::Char('o'), ALT);
    type_str(&mut app, &format!("{}", lines + 5));
    key(&mut app, KeyCode::Enter, NONE);
    let p = app.popup::<Prompt>().expect("still open");
    assert!(p.error.as_deref().unwrap().contains("is not in the input"));
    key(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    type_str(&mut app, "40");
    key(&mut app, KeyCode::Enter, NONE);
    assert_eq!(app.wb.input.cursor_position().0, 39);
    app.update(Action::GoTo(GoTarget::Time(
        rxw::input::timestamp::leading(b"2026-11-30T18:30:00Z")
            .unwrap()
            .millis,
    )));
    let (line, _) = app.wb.input.cursor_position();
    let text = app.wb.input.line(line);
    assert!(text.as_ref() >= "2026-11-30T18:30:00", "{text}");
    let before = app.wb.input.line(line - 1);
    assert!(before.as_ref() < "2026-11-30T18:30:00", "{before}");
}

#[test]
fn bookmarks_survive_a_restart_and_are_listed_in_go_to() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SessionStore::new(dir.path().join("session.json"));
    let mut app = screens::demo(120, 34);
    for line in [5, 20] {
        app.update(Action::GoTo(GoTarget::Line(line)));
        key(&mut app, KeyCode::Char('h'), ALT);
    }
    assert!(app.message.as_deref().unwrap().contains("2 in all"));
    assert!(app.session_dirty);
    autosave(&mut app, &mut store);
    // A new start reads the session back: the same input's bookmarks are there.
    let saved = rxw::tui::session::load(store.path()).session.unwrap();
    assert_eq!(saved.bookmarks.get("demo"), Some(&vec![5, 20]));
    let mut again = start_app(
        &Options::default(),
        StartInput::Demo,
        Some(saved),
        rxw::tui::load_presets(),
        ratatui::layout::Rect::new(0, 0, 120, 34),
        rxw::tui::theme::Palette::Color,
    )
    .unwrap();
    assert_eq!(again.current_bookmarks(), vec![5, 20]);
    again.update(Action::GoTo(GoTarget::Line(0)));
    key(&mut again, KeyCode::Char('.'), ALT);
    assert_eq!(again.wb.input.cursor_position().0, 5);
    key(&mut again, KeyCode::Char('.'), ALT);
    assert_eq!(again.wb.input.cursor_position().0, 20);
    key(&mut again, KeyCode::Char(','), ALT);
    assert_eq!(again.wb.input.cursor_position().0, 5);
    // Go to lists them: ↓ picks the first, Enter goes there.
    again.update(Action::GoTo(GoTarget::Line(0)));
    key(&mut again, KeyCode::Char('o'), ALT);
    key(&mut again, KeyCode::Down, NONE);
    key(&mut again, KeyCode::Down, NONE);
    key(&mut again, KeyCode::Enter, NONE);
    assert_eq!(again.wb.input.cursor_position().0, 20);
    // Taken off again, and a session without bookmarks says none.
    key(&mut again, KeyCode::Char('h'), ALT);
    assert_eq!(again.current_bookmarks(), vec![5]);
    assert_eq!(Session::of(&again).bookmarks.get("demo"), Some(&vec![5]));
}

#[test]
fn the_timeline_zooms_to_one_second_and_out_to_a_day_and_enter_sets_the_time_range() {
    let mut app = screens::demo(120, 34);
    app.update(Action::ShowTab(timeline::ID));
    screens::settle(&mut app);
    let width = |app: &App| app.wb.timeline.result().unwrap().as_ref().unwrap().width_ms;
    let whole = width(&app);
    assert_eq!(whole, 60_000, "the demo's hour fits minutes");
    key(&mut app, KeyCode::Char('+'), NONE);
    screens::settle(&mut app);
    assert_eq!(width(&app), 10_000);
    key(&mut app, KeyCode::Char('+'), NONE);
    screens::settle(&mut app);
    assert_eq!(width(&app), 1_000);
    key(&mut app, KeyCode::Char('+'), NONE);
    assert!(app.message.as_deref().unwrap().contains("narrowest"));
    // The matches counted stay the whole log's; the buckets are the zoom's.
    let t = app.wb.timeline.result().unwrap().as_ref().unwrap().clone();
    assert_eq!(t.matches, app.wb.results.count);
    // The wheel zooms out; at a day it stops.
    for _ in 0..6 {
        app.update(Action::Wheel {
            col: 60,
            row: 25,
            delta: 1,
        });
        screens::settle(&mut app);
    }
    assert_eq!(width(&app), 86_400_000);
    key(&mut app, KeyCode::Char('f'), NONE);
    screens::settle(&mut app);
    assert_eq!(width(&app), whole);
    // Enter: the bucket's time becomes the time range; the lines shown are in it.
    key(&mut app, KeyCode::Home, NONE);
    let b = app.wb.timeline.result().unwrap().as_ref().unwrap().buckets[0].clone();
    key(&mut app, KeyCode::Enter, NONE);
    let range = app.filters.filters().time.expect("a time range");
    assert_eq!((range.since(), range.until()), (Some(b.start), Some(b.end)));
    settle_filters(&mut app);
    let (first, last) = b.lines.unwrap();
    assert_eq!(
        shown_lines(&app),
        (first as usize - 1..last as usize).collect::<Vec<_>>()
    );
    assert_eq!(app.wb.input.cursor_position().0, first as usize - 1);
    let _ = Edit::Home;
}

/// Regression: zooming in on the first minute selected the last bucket of the zoomed chart
/// (the minute's start had no line, so no bucket held it).
#[test]
fn zooming_keeps_the_selected_time() {
    let mut app = screens::demo(120, 34);
    app.update(Action::ShowTab(timeline::ID));
    screens::settle(&mut app);
    let selected = |app: &App| {
        let t = app.wb.timeline.result().unwrap().as_ref().unwrap();
        t.buckets[app.wb.timeline.selected].start
    };
    let minute = selected(&app);
    for _ in 0..2 {
        app.update(Action::Tab(timeline::ZOOM_IN));
        screens::settle(&mut app);
    }
    let second = selected(&app);
    assert!(
        (minute..minute + 60_000).contains(&second),
        "{minute} {second}"
    );
}

/// The Lens counts, the Jobs table and the Timeline of merged logs with the combined filters
/// on: the lines they show only (a hidden log, a time range, a level), as the Matches list;
/// every view back to the whole input when the filters are removed.
#[test]
fn every_tab_follows_the_combined_filter() {
    let mut app = screens::merged_logs(120, 34);
    app.wb.jobs.activate(&app.wb.input);
    app.wb.timeline.activate();
    app.wb.lens.activate(&app.wb.input);
    screens::settle(&mut app);
    assert!(
        app.wb
            .jobs
            .settle(&app.wb.input, std::time::Duration::from_secs(30))
    );
    screens::settle(&mut app);
    let all_jobs = app.wb.jobs.len();
    let all_matches = app.wb.timeline.result().unwrap().as_ref().unwrap().matches;
    let all_counts = app.wb.lens.counts().to_vec();
    assert!(all_jobs > 3 && all_matches > 10, "{all_jobs} {all_matches}");
    assert!(all_counts.iter().sum::<usize>() > 10, "{all_counts:?}");
    assert!(!app.wb.lens.counts_filtered());

    let range =
        rxw::tui::popups::prompt::read_range("2026-11-30T18:00..2026-11-30T18:40", 0).unwrap();
    let combos = [
        Filters {
            sources: Some(SourceRule::Hide(vec![1])),
            ..Default::default()
        },
        Filters {
            sources: Some(SourceRule::Only(vec![2])),
            time: range,
            ..Default::default()
        },
        Filters {
            level: Some(Level::Warn),
            ..Default::default()
        },
    ];
    for filters in combos {
        let hidden = filters.sources.clone();
        app.update(Action::SetFilters(
            Box::new(filters.clone()),
            FilterMode::Off,
        ));
        settle_filters(&mut app);
        let rows = shown_lines(&app);
        let on_rows = |at: usize| {
            let line = app.wb.input.line_of(at) as usize;
            rows.binary_search(&line).is_ok()
        };
        // The Timeline counts the matches the Matches list shows.
        let timeline = app.wb.timeline.result().unwrap().as_ref().unwrap();
        let shown = app.shown_matches().unwrap().len();
        assert_eq!(timeline.matches, shown, "{filters:?}");
        assert!(app.wb.timeline.filtered());
        assert!(shown < all_matches, "{filters:?}");
        // The Lens counts the hits that start on a line shown.
        assert!(app.wb.lens.counts_filtered());
        for (k, &n) in app.wb.lens.counts().iter().enumerate() {
            let expected = app.wb.lens.hits(k).iter().filter(|h| on_rows(h.0)).count();
            assert_eq!(
                n,
                expected,
                "key {} under {filters:?}",
                app.wb.lens.keys()[k]
            );
        }
        assert!(app.wb.lens.counts().iter().sum::<usize>() < all_counts.iter().sum::<usize>());
        // The Jobs table is of the lines shown: each job first appears on one.
        let g = app.source_gutter().unwrap();
        let table = app.wb.jobs.table();
        assert!(table.filtered());
        let jobs = table.jobs();
        assert!(
            jobs.len() < all_jobs,
            "{filters:?}: {} of {all_jobs}",
            jobs.len()
        );
        for k in 0..jobs.len() {
            let (source, line) = jobs.row(k).first();
            let merged = rows
                .iter()
                .copied()
                .find(|&l| g.source_place(l) == Some((source, line)));
            assert!(
                merged.is_some(),
                "job {} at {source}:{line}",
                jobs.row(k).id()
            );
            if let Some(rule) = &hidden {
                assert!(
                    rule.keeps(Some(source)),
                    "job {} of a hidden log",
                    jobs.row(k).id()
                );
            }
        }
        drop(table);
    }
    // Removed: every view is the whole input's again.
    app.update(Action::SetFilters(Box::default(), FilterMode::Off));
    screens::settle(&mut app);
    app.poll();
    assert!(!app.wb.jobs.table().filtered());
    assert_eq!(app.wb.jobs.len(), all_jobs);
    assert_eq!(
        app.wb.timeline.result().unwrap().as_ref().unwrap().matches,
        all_matches
    );
    assert_eq!(app.wb.lens.counts(), all_counts.as_slice());
}

/// Ctrl-X with the combined filters on offers the lines they show and writes exactly those
/// (a hidden log's lines left out); the matches are exported whole, and the message says so.
#[test]
fn ctrl_x_exports_the_lines_the_combined_filters_show() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = screens::merged_logs(120, 34);
    app.update(Action::SetFilters(
        Box::new(Filters {
            sources: Some(SourceRule::Hide(vec![1])),
            ..Default::default()
        }),
        FilterMode::Off,
    ));
    settle_filters(&mut app);
    let rows = shown_lines(&app);
    assert!(!rows.is_empty() && rows.len() < app.wb.input.line_count() - 1);
    let export = |app: &mut App, path: &std::path::Path| {
        key(app, KeyCode::Char('u'), KeyModifiers::CONTROL);
        app.update(Action::Edit(Edit::Paste(path.display().to_string())));
        key(app, KeyCode::Enter, NONE);
        let said = app.message.clone().unwrap_or_default();
        let done = app
            .wb
            .wait_export(std::time::Duration::from_secs(30))
            .expect("the export ends");
        assert!(done.result.is_ok(), "{said}");
        said
    };
    key(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    let prompt = app
        .popup::<rxw::tui::popups::export::ExportPrompt>()
        .unwrap();
    assert_eq!(prompt.what.noun(), "lines");
    let path = dir.path().join("lines.jsonl");
    let said = export(&mut app, &path);
    assert!(said.contains("the lines the filters show"), "{said}");
    let written: Vec<serde_json::Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let lines: Vec<usize> = written
        .iter()
        .map(|r| r["line"].as_u64().unwrap() as usize - 1)
        .collect();
    assert_eq!(lines, rows);
    for r in &written {
        let line = r["line"].as_u64().unwrap() as usize - 1;
        assert_eq!(r["text"].as_str().unwrap(), app.wb.input.line(line));
    }
    // The matches: every one, said.
    key(&mut app, KeyCode::Char('x'), KeyModifiers::CONTROL);
    key(&mut app, KeyCode::Tab, NONE);
    assert_eq!(
        app.popup::<rxw::tui::popups::export::ExportPrompt>()
            .unwrap()
            .what
            .noun(),
        "matches"
    );
    let said = export(&mut app, &dir.path().join("m.jsonl"));
    assert!(said.contains("of the whole input"), "{said}");
}

/// A job's Enter in the Jobs tab walks the job's events on the lines the filters show: an
/// event on a hidden line is passed over (the cursor never lands on it) and the message
/// counts it; without filters every event is reached in turn.
#[test]
fn a_jobs_enter_passes_over_events_on_hidden_lines() {
    let mut app = screens::demo(120, 34);
    key(&mut app, KeyCode::Char('0'), ALT);
    assert_eq!(app.active_tab(), rxw::tui::tabs::jobs::ID);
    screens::settle(&mut app);
    let id = app.wb.jobs.selected_job().unwrap().id;
    let tracked = rxw::operator::jobs::JobTracker::read(app.wb.input.text().as_bytes()).unwrap();
    let events: Vec<usize> = tracked
        .iter()
        .find(|j| j.id == id)
        .unwrap()
        .events
        .iter()
        .map(|e| e.line as usize - 1)
        .collect();
    assert!(events.len() >= 3, "{id}: {events:?}");
    // The pattern matches the second event's line alone (its leading time stamp, which no
    // other line has); the filter shows the lines without a match.
    let hidden = events[1];
    let line = app.wb.input.line(hidden).to_string();
    let stamp = line.split(' ').next().unwrap().replace('.', "\\.");
    assert!(stamp.starts_with("20"), "{line}");
    app.wb.pattern.set(&stamp);
    app.pattern_changed();
    app.update(Action::SetFilters(Box::default(), FilterMode::NonMatching));
    settle_line_filter(&mut app);
    let rows = shown_lines(&app);
    assert!(!rows.contains(&hidden), "line {hidden} is hidden");
    assert!(
        rows.contains(&events[0]) && rows.contains(&events[2]),
        "{rows:?}"
    );
    let cursor = |app: &App| app.wb.input.cursor_position().0;
    key(&mut app, KeyCode::Enter, NONE);
    assert_eq!(cursor(&app), events[0]);
    key(&mut app, KeyCode::Enter, NONE);
    assert_eq!(
        cursor(&app),
        events[2],
        "event 2's hidden line is passed over"
    );
    // A table of the lines shown counts their events only (this is its second); a table of
    // the whole input counts the event passed over too (its third).
    let (k, n) = if app.wb.jobs.table().filtered() {
        (2, events.len() - 1)
    } else {
        (3, events.len())
    };
    let message = app.message.clone().unwrap();
    assert!(
        message.starts_with(&format!("job {id}: event {k} of {n}"))
            && message.contains("1 event on a line the filters hide passed"),
        "{message}"
    );
    // A whole round: never the hidden line, back to the first after the last, and no
    // search said to have given up.
    for _ in 0..events.len() {
        key(&mut app, KeyCode::Enter, NONE);
        assert_ne!(cursor(&app), hidden);
        let message = app.message.clone().unwrap();
        assert!(!message.contains("MiB on"), "{message}");
        if cursor(&app) == events[0] {
            assert!(
                message.starts_with(&format!("job {id}: event 1 of")),
                "{message}"
            );
        }
    }
    // Without filters, Enter reaches the second event's line again within one round.
    app.update(Action::SetFilters(Box::default(), FilterMode::Off));
    screens::settle(&mut app);
    let mut reached = Vec::new();
    for _ in 0..=events.len() {
        key(&mut app, KeyCode::Enter, NONE);
        reached.push(cursor(&app));
        assert!(!app.message.clone().unwrap().contains("passed"));
    }
    assert!(reached.contains(&hidden), "{reached:?}");
}
