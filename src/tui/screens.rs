//! Named scenes of the real app, rendered headless: the source of the snapshot tests and of
//! the screenshots in `docs/src/screenshots/` (`cargo run --example screenshots`).

use super::action::{Action, Edit};
use super::app::{App, Focus};
use super::tabs::{
    cases, code, debug, explain, groups, jobs, lens, matches, presets, replace, timeline,
};
use super::theme::Palette;
use super::{StartInput, load_presets, render, start_app};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::time::Duration;

/// Width of the scenes.
pub const WIDTH: u16 = 120;
/// Height of the scenes.
pub const HEIGHT: u16 = 34;

/// The demo app at `width` x `height`, fresh (no session), scans finished, its pattern
/// taken for editing (the scenes of the tabs show a workbench in use).
pub fn demo(width: u16, height: u16) -> App {
    demo_in(width, height, Palette::Color)
}

/// The demo app as it opens: its pattern a selected example that typing replaces.
pub fn first_screen(width: u16, height: u16) -> App {
    let mut app = demo(width, height);
    app.pattern_suggested = Some(app.wb.pattern.text().to_string());
    app
}

/// The demo app in `palette` (a light background's, say).
pub fn demo_in(width: u16, height: u16, palette: Palette) -> App {
    let args = super::Options {
        fresh: true,
        ..Default::default()
    };
    let mut app = start_app(
        &args,
        StartInput::Demo,
        None,
        load_presets(),
        Rect::new(0, 0, width, height),
        palette,
    )
    .expect("the demo starts");
    app.pattern_suggested = None;
    settle(&mut app);
    app
}

/// Waits for the scans and pins the timing shown, so frames are reproducible.
pub fn settle(app: &mut App) {
    // A tab's own worker first (a Ctrl-G generation puts a pattern in, to compile and scan).
    let waited = std::time::Instant::now();
    while app.tabs_busy() && waited.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(5));
        app.poll();
    }
    app.wb.wait_compiled(Duration::from_secs(30));
    app.poll();
    app.wb.settle(Duration::from_secs(30));
    app.poll();
    app.wb.settle_views(Duration::from_secs(30));
    app.poll();
    if app.wb.results.elapsed.is_some() {
        app.wb.results.elapsed = Some(Duration::from_micros(420));
    }
}

/// Draws and polls until the Explain tab's ReDoS check has answered (a generous budget, so the
/// verdict does not depend on the machine's speed).
pub fn settle_redos(app: &mut App) {
    if let Some(tab) = app.tab_as_mut::<explain::ExplainTab>() {
        tab.redos.budget = Duration::from_secs(60);
    }
    for _ in 0..1200 {
        render_buffer(app);
        app.poll();
        let done = app
            .tab_as::<explain::ExplainTab>()
            .is_some_and(|t| t.redos.result.is_some());
        if done {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `app` with the status bar's message cleared: the scene shows the screen, not the last
/// action's note.
fn quiet(mut app: App) -> App {
    app.message = None;
    app
}

/// `action` done, and the scans it starts run.
fn update_settled(app: &mut App, action: Action) {
    app.update(action);
    settle(app);
}

/// `pattern` typed into the pattern pane at once (one edit), and its scans run.
fn with_pattern(app: &mut App, pattern: &str) {
    app.wb.pattern.set(pattern);
    app.pattern_changed();
    settle(app);
}

fn typed(app: &mut App, s: &str) {
    for c in s.chars() {
        app.update(Action::Edit(Edit::Insert(c)));
    }
}

/// Every scene by name.
pub fn scenes() -> Vec<(&'static str, App)> {
    scenes_at(WIDTH, HEIGHT)
}

/// The scenes on a screen of `width` x `height` (the committed screenshots are at
/// [`WIDTH`] x [`HEIGHT`]).
pub fn scenes_at(width: u16, height: u16) -> Vec<(&'static str, App)> {
    let mut out = Vec::new();
    out.push(("start", first_screen(width, height)));

    let mut a = demo(width, height);
    a.update(Action::ShowTab(matches::ID));
    a.select_match(3);
    settle(&mut a);
    out.push(("matches", a));

    let mut a = demo(width, height);
    a.update(Action::ShowTab(groups::ID));
    a.select_match(1);
    settle(&mut a);
    out.push(("groups", a));

    let mut a = demo(width, height);
    a.update(Action::ShowTab(explain::ID));
    for _ in 0..3 {
        a.update(Action::Edit(Edit::Down));
    }
    out.push(("explain", a));

    // A pattern whose matcher blows up: the Explain tab's ReDoS verdict, proved by steps, its
    // row selected so the culprit is marked in the pattern.
    let mut a = demo(width, height);
    with_pattern(&mut a, r"^(\w+\s?)*$");
    a.update(Action::ShowTab(explain::ID));
    settle_redos(&mut a);
    a.update(Action::Edit(Edit::End));
    out.push(("redos", quiet(a)));

    let mut a = demo(width, height);
    a.update(Action::ShowTab(replace::ID));
    typed(&mut a, r"<\g<verb> job=\g<job_id>>");
    settle(&mut a);
    out.push(("replace", a));

    let mut a = demo(width, height);
    a.update(Action::ShowTab(presets::ID));
    typed(&mut a, "job");
    settle(&mut a);
    out.push(("presets", a));

    // The export pane: `result` for Vector, refused with the caret under its look-ahead (a
    // refusal runs no engine, so the frame is the same on every machine).
    let mut a = demo(width, height);
    a.update(Action::ShowTab(presets::ID));
    typed(&mut a, "result");
    if let Some(tab) = a.tab_as_mut::<presets::PresetsTab>() {
        tab.browser.select_key("result");
        tab.last_export = Some(presets::LastExport {
            target: crate::fleet::Target::Vector,
            path: None,
            forms: Default::default(),
        });
        tab.show_export();
    }
    a.wb.settle_views(Duration::from_secs(30));
    a.poll();
    out.push(("presets-export", a));

    let mut a = demo(width, height);
    a.update(Action::ShowTab(cases::ID));
    a.wb.tests.replace_all(String::new());
    for line in [
        "+ [ACK 7fce46e0]",
        "- [ack 7fce46e0]",
        "+ [CLAIM swarm-99a/1] => CLAIM, swarm-99a/1",
        "+ [RESULTS 7fce46e0]",
        "[NO-ACTION x]",
    ] {
        typed(&mut a, line);
        a.update(Action::Edit(Edit::Newline));
    }
    out.push(("tests", a));

    let mut a = demo(width, height);
    a.update(Action::ShowTab(code::ID));
    // Rust, then Python, then JavaScript: the Python pattern rewritten for node.
    a.update(Action::Tab(code::NEXT_LANG));
    a.update(Action::Tab(code::NEXT_LANG));
    out.push(("code", a));

    let mut a = demo(width, height);
    // The verb group is left unclosed: the error points at it, the old matches stay, dimmed.
    a.wb.pattern
        .set(r"\[(?P<verb>ACK|CLAIM|RESULT\s+(?P<job_id>[\w/-]+)\]");
    a.pattern_changed();
    a.focus = Focus::Pattern;
    settle(&mut a);
    out.push(("error", a));

    // The `result` preset (look-ahead, lazy summary) traced on the demo log: a backtracking
    // step, the step's node in the pattern, the matcher's position and the heatmap.
    let mut a = demo(width, height);
    a.wb.pattern.set(
        r"\[RESULT\s+(?P<job_id>[A-Za-z0-9_/-]+)\]\s*(?P<status>OK|FAIL|DECLINE|SUCCESS|ERROR)?\s*(?P<summary>.*?)(?=\[RESULT\s|\Z)",
    );
    a.wb.set_flavor(crate::Flavor::PYTHON);
    a.wb.flags = crate::Flags::parse("s", crate::Flavor::PYTHON).expect("flags");
    a.pattern_changed();
    settle(&mut a);
    a.select_match(0);
    a.update(Action::ShowTab(debug::ID));
    // The trace is recorded on a worker.
    settle(&mut a);
    for _ in 0..3 {
        a.update(Action::Tab(debug::NEXT_BACKTRACK));
    }
    out.push(("debug", a));

    let mut a = demo(width, height);
    a.update(Action::ShowTab(explain::ID));
    a.update(Action::Tab(explain::RAILROAD));
    out.push(("railroad", a));

    // The line filter: the lines with a CLAIM, one context line around each.
    let mut a = demo(width, height);
    with_pattern(&mut a, r"\[CLAIM\s+(?P<job_id>[\w/-]+)\]");
    a.update(Action::CycleFilter);
    update_settled(&mut a, Action::FilterContext(1));
    settle(&mut a);
    out.push(("filter", quiet(a)));

    // The registry lens: every preset at once; the `result` key selected and its first hit
    // under the cursor, whose line's fields are listed. Then the same in the light theme.
    for (name, palette) in [("lens", Palette::Color), ("lens-light", Palette::Light)] {
        let mut a = demo_in(width, height, palette);
        update_settled(&mut a, Action::ShowTab(lens::ID));
        for _ in 0..3 {
            a.update(Action::Edit(Edit::Down));
        }
        update_settled(&mut a, Action::Tab(lens::NEXT_HIT));
        out.push((name, a));
    }

    // The jobs table, longest claim-to-resolution first.
    let mut a = demo(width, height);
    update_settled(&mut a, Action::ShowTab(jobs::ID));
    for _ in 0..3 {
        a.update(Action::Tab(jobs::SORT));
    }
    update_settled(&mut a, Action::Edit(Edit::Down));
    out.push(("jobs", a));

    // The demo pattern's matches per minute: the fullest minute is selected.
    let mut a = demo(width, height);
    update_settled(&mut a, Action::ShowTab(timeline::ID));
    out.push(("timeline", quiet(a)));

    out.push(("merged", merged(width, height)));

    // Filters that combine over the merged logs: every log but worker.log, twenty minutes,
    // the lines with a match of the pattern; the status bar names each. Then the filter
    // panel over them, where each is changed or removed alone.
    let mut a = merged_logs(width, height);
    let range = crate::input::time_range::TimeRange::new(
        Some(1_796_061_600_000), // 2026-11-30T18:00:00Z
        Some(1_796_062_800_000), // 2026-11-30T18:20:00Z
    )
    .expect("a range");
    let filters = crate::workbench::filters::Filters {
        sources: Some(crate::workbench::filters::SourceRule::Hide(vec![1])),
        time: Some(range),
        ..Default::default()
    };
    let set_filters = Action::SetFilters(
        Box::new(filters),
        crate::workbench::filter::FilterMode::Matching,
    );
    update_settled(&mut a, set_filters.clone());
    settle(&mut a);
    out.push(("filters", quiet(a)));
    let mut a = merged_logs(width, height);
    update_settled(&mut a, set_filters);
    a.update(Action::Filters);
    a.update(Action::Edit(Edit::Down));
    out.push(("filter-panel", quiet(a)));

    // The Timeline zoomed in twice around the fullest bucket: a count axis, a time axis.
    let mut a = demo(width, height);
    update_settled(&mut a, Action::ShowTab(timeline::ID));
    update_settled(&mut a, Action::Tab(timeline::ZOOM_IN));
    update_settled(&mut a, Action::Tab(timeline::ZOOM_IN));
    out.push(("timeline-zoom", quiet(a)));

    // The workbench in two flavors with readers of their own. Ruby 3.1: `^` is always a line
    // anchor and `\h` a hex digit; the Groups tab gives spans in characters, Ruby's unit.
    let mut a = demo(width, height);
    a.wb.set_flavor(crate::Flavor::RUBY);
    with_pattern(
        &mut a,
        r"^\S+ (?<who>[\w-]+): \[(?<verb>ACK|CLAIM)[ :](?<job>\h+)\]",
    );
    a.update(Action::ShowTab(groups::ID));
    a.select_match(2);
    settle(&mut a);
    out.push(("flavor-ruby", quiet(a)));

    // PCRE2: `\h` a horizontal space, POSIX classes; the step debugger counts bytes.
    let mut a = demo(width, height);
    a.wb.set_flavor(crate::Flavor::Pcre2);
    with_pattern(
        &mut a,
        r"\[(?<verb>CLAIM|RESULT)\h+(?<job_id>[[:xdigit:]]+)\]\h*(?<status>OK|FAIL)?",
    );
    a.select_match(1);
    update_settled(&mut a, Action::ShowTab(debug::ID));
    a.update(Action::Tab(debug::NEXT_BACKTRACK));
    out.push(("flavor-pcre2", quiet(a)));

    let mut a = demo(width, height);
    a.update(Action::ToggleHelp);
    out.push(("help", a));

    out.push(("too-small", demo(30, 8)));
    out
}

/// The demo's lines dealt to three agents' logs, opened together: the
/// logs merged by time, each line's log in the gutter, and the full count caught part way
/// (pinned at 37%, so the frame is reproducible) with its progress in the status bar.
pub fn merged(width: u16, height: u16) -> App {
    let mut app = merged_logs(width, height);
    // The count part way, as it shows on a long input while it runs.
    let r = &mut app.wb.results;
    r.done = false;
    r.elapsed = None;
    r.scanned = app.wb.input.len() * 37 / 100;
    app.message = None;
    app
}

/// The demo's lines dealt to three agents' logs (`api.log`, `worker.log`, `db.log`), opened
/// together and merged by time, every scan finished.
pub fn merged_logs(width: u16, height: u16) -> App {
    let dir = std::env::temp_dir().join(format!(
        "rxw-scene-merged-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let names = ["api.log", "worker.log", "db.log"];
    let mut logs = [String::new(), String::new(), String::new()];
    for (k, line) in crate::workbench::DEMO_LOG.lines().enumerate() {
        let log = &mut logs[k % 3];
        log.push_str(line);
        log.push('\n');
    }
    let mut paths = Vec::new();
    for (name, text) in names.iter().zip(&logs) {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write a log");
        paths.push(path);
    }
    let read = super::read_logs(&paths[0], &paths[1..]);
    let _ = std::fs::remove_dir_all(&dir);
    let (input, gutter) = read.expect("the logs merge");
    // The logs' names as typed in the directory, not the temporary one's path.
    let input = match input {
        StartInput::Loaded(text, _, warning) => StartInput::Loaded(
            text,
            crate::workbench::InputSource::File(names.join(" + ")),
            warning,
        ),
        other => other,
    };
    let args = super::Options {
        fresh: true,
        ..Default::default()
    };
    let mut app = start_app(
        &args,
        input,
        None,
        load_presets(),
        Rect::new(0, 0, width, height),
        Palette::Color,
    )
    .expect("the merged logs start");
    if let Some((_, runs)) = gutter {
        let shown: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        app.sources = Some(super::gutter::SourceGutter::new(
            app.wb.input.revision(),
            &shown,
            &runs,
        ));
    }
    with_pattern(&mut app, r"\[(CLAIM|RESULT) (?P<job>[0-9a-f]+)\]");
    app
}

/// Draws `app` as the event loop does for a terminal of `depth` colours.
pub fn render_buffer_at(app: &App, depth: super::theme::Depth) -> Buffer {
    let mut t =
        Terminal::new(TestBackend::new(app.size.width, app.size.height)).expect("a test terminal");
    t.draw(|f| render::draw_at(f, app, depth))
        .expect("drawing to a test terminal");
    t.backend().buffer().clone()
}

/// Draws `app` on a headless terminal of its size and returns the buffer (colours as the
/// styles give them, 24-bit ones included: the screenshots).
pub fn render_buffer(app: &App) -> Buffer {
    let mut t =
        Terminal::new(TestBackend::new(app.size.width, app.size.height)).expect("a test terminal");
    t.draw(|f| render::draw(f, app))
        .expect("drawing to a test terminal");
    t.backend().buffer().clone()
}
