//! The TUI's real update-and-render path at 200x60 on generated NetVM agent logs of 1, 10 and
//! 100 MB: first frame of `rxw FILE`, per-keystroke time to visible highlights (median and
//! worst) while typing a pattern, and the time to the full count, next to
//! `rg --count-matches` when ripgrep is installed.
//!
//! `cargo bench --bench tui` (set `RXW_BENCH_SIZES=1,10` to pick sizes in MB, and
//! `RXW_BENCH_TMUX=1` to also run the release binary in tmux and time the real terminal).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use rxw::input::Text;
use rxw::tui::Options;
use rxw::tui::theme::Palette;
use rxw::tui::{StartInput, load_presets, render, start_app};
use rxw::workbench::InputSource;
use std::io::Write;
use std::time::{Duration, Instant};

/// A deterministic NetVM-style agent log of about `bytes` bytes.
fn agent_log(bytes: usize) -> String {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out = String::with_capacity(bytes + 200);
    let verbs = ["ACK", "CLAIM", "RESULT", "DECLINE", "NO-ACTION"];
    let mut n = 0u64;
    while out.len() < bytes {
        n += 1;
        let r = next();
        let id = format!("{:08x}", r as u32);
        let t = format!(
            "2026-11-30T{:02}:{:02}:{:02}Z",
            (n / 3600) % 24,
            (n / 60) % 60,
            n % 60
        );
        let line = match r % 10 {
            0 => format!(
                "{t} [WO:{id}] [from super] Audit — check stats on nv-{}",
                r % 900
            ),
            1 => format!("{t} [ACK:{id}] [from 646]"),
            2 | 3 => format!(
                "{t} agent-646: [{} {id}] status {}",
                verbs[(r >> 8) as usize % 5],
                r % 97
            ),
            4 => format!(
                "{t} agent-12: [TOOL followup.create {{\"in_m\": {}}}]",
                r % 60
            ),
            5 => format!(
                "{t} scheduler: [JOB swarm-{:03x}/{}] state=running",
                r % 4096,
                r % 8
            ),
            6 => format!(
                "{t} followup: [NUDGE {id}] [nudge {}/3] Deadline 19:45: please post",
                r % 3 + 1
            ),
            7 => format!("{t} [fleet-alert] CRITICAL: VM unreachable x{}", r % 5),
            8 => format!(
                "{t} trace {:08x}-{:04x}-4{:03x}-a{:03x}-{:012x} closed",
                r as u32,
                r % 65536,
                r % 4096,
                (r >> 12) % 4096,
                r >> 16
            ),
            _ => format!(
                "{t} agent-7: reading logs from Zürich — naïve retry {} ✓",
                r % 1000
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The real terminal: `rxw FILE` inside tmux. Times until the screen shows the first frame,
/// until a typed key shows in the pattern line (the redraw after a keystroke), and until the
/// new full count is on screen. Polling `capture-pane` adds a few milliseconds to each figure.
fn tmux_run(
    path: &std::path::Path,
    state: &std::path::Path,
) -> Option<(Duration, Duration, Duration, Duration)> {
    let tmux = |args: &[&str]| std::process::Command::new("tmux").args(args).output().ok();
    tmux(&["-V"])?;
    let session = format!("rxw-bench-{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_rxw");
    let cmd = format!(
        "env XDG_STATE_HOME='{}' '{bin}' --fresh -e 'CLAIM' '{}'",
        state.display(),
        path.display()
    );
    let screen = |session: &str| {
        tmux(&["capture-pane", "-p", "-t", session])
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    };
    let wait = |what: &dyn Fn(&str) -> bool| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if what(&screen(&session)) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    };
    let t0 = Instant::now();
    tmux(&[
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "200",
        "-y",
        "60",
        &cmd,
    ])?;
    let ok = wait(&|s| s.contains(" matches "));
    let first = t0.elapsed();
    let _ = wait(&|s| {
        s.contains(" matches ") && !s.contains("counting") && !s.contains("reading the file")
    });
    let t1 = Instant::now();
    tmux(&["send-keys", "-t", &session, "-l", "Z"])?;
    let echoed = wait(&|s| s.contains("CLAIMZ"));
    let key = t1.elapsed();
    let counted = wait(&|s| s.contains(" 0 matches "));
    let full = t1.elapsed();
    // Back to a pattern that matches: time until the Matches list shows its first row.
    let t2 = Instant::now();
    tmux(&["send-keys", "-t", &session, "BSpace"])?;
    let row = regex::Regex::new(r"│\s*1  \d+:\d+\s+CLAIM").expect("a valid pattern");
    let listed = wait(&|s| row.is_match(s));
    let first_row = t2.elapsed();
    let _ = tmux(&["kill-session", "-t", &session]);
    (ok && echoed && counted && listed).then_some((first, key, full, first_row))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let sizes: Vec<usize> = std::env::var("RXW_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 10, 100]);
    let pattern = r"\[(?P<verb>ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+(?P<job_id>[A-Za-z0-9_/-]+)\]";
    let dir = tempfile::tempdir().expect("a temp dir");
    println!(
        "size    first frame   key median   key worst   full count   rg --count-matches   matches"
    );
    for mb in sizes {
        let path = dir.path().join(format!("agent-{mb}mb.log"));
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(agent_log(mb << 20).as_bytes()))
            .expect("write the log");

        // First frame of `rxw FILE`: load, build, wait for the window, draw.
        let t0 = Instant::now();
        let text = Text::from_path(&path).expect("read the log").into_string();
        let args = Options {
            pattern: Some(pattern.to_string()),
            flavor: Some(rxw::Flavor::PYTHON),
            fresh: true,
            ..Default::default()
        };
        let size = Rect::new(0, 0, 200, 60);
        let mut app = start_app(
            &args,
            StartInput::Loaded(text, InputSource::File(path.display().to_string()), None),
            None,
            load_presets(),
            size,
            Palette::Color,
        )
        .expect("start");
        let mut term = Terminal::new(TestBackend::new(200, 60)).expect("a test terminal");
        app.wb.wait_window(Duration::from_secs(5));
        term.draw(|f| render::draw(f, &app)).expect("draw");
        let first = t0.elapsed();

        // Type patterns key by key: each key's time until its highlights are drawn. The verb
        // pattern has many invalid prefixes (an open group); the second is valid at every
        // prefix, including the trailing `|` that matches the empty string everywhere.
        let mut keys = Vec::new();
        let mut last_key = Instant::now();
        let typed: Vec<Option<char>> = std::iter::once(None)
            .chain(r"nv-646|Zürich|x4|audit".chars().map(Some))
            .chain(std::iter::once(None))
            .chain(pattern.chars().map(Some))
            .collect();
        for c in typed {
            let Some(c) = c else {
                app.update(rxw::tui::action::Action::Edit(
                    rxw::tui::action::Edit::KillToStart,
                ));
                continue;
            };
            let t = Instant::now();
            last_key = t;
            app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
            app.wb.wait_window(Duration::from_secs(5));
            app.poll();
            term.draw(|f| render::draw(f, &app)).expect("draw");
            keys.push(t.elapsed());
            if std::env::var_os("RXW_BENCH_VERBOSE").is_some() {
                eprintln!("key {c:?}: {:.2} ms", ms(t.elapsed()));
            }
        }
        app.wb.settle(Duration::from_secs(600));
        let full = last_key.elapsed();
        let count = app.wb.results.count;
        keys.sort();
        let median = keys[keys.len() / 2];
        let worst = *keys.last().unwrap();

        let rg = std::process::Command::new("rg")
            .arg("--version")
            .output()
            .is_ok()
            .then(|| {
                let t = Instant::now();
                let out = std::process::Command::new("rg")
                    .args(["--count-matches", pattern])
                    .arg(&path)
                    .output()
                    .expect("run rg");
                (
                    t.elapsed(),
                    String::from_utf8_lossy(&out.stdout).trim().to_string(),
                )
            });
        let rg_text = match &rg {
            Some((t, n)) => format!("{:>8.1} ms ({n})", ms(*t)),
            None => "not installed".to_string(),
        };
        println!(
            "{mb:>3} MB  {:>8.1} ms  {:>8.2} ms  {:>8.2} ms  {:>8.1} ms   {rg_text:<20} {count}",
            ms(first),
            ms(median),
            ms(worst),
            ms(full)
        );
        if std::env::var_os("RXW_BENCH_TMUX").is_some() {
            match tmux_run(&path, dir.path()) {
                Some((first, key, full, row)) => println!(
                    "        tmux, real terminal: first frame {:.0} ms, key to screen {:.0} ms, key to full count {:.0} ms, key to the first match row {:.0} ms",
                    ms(first),
                    ms(key),
                    ms(full),
                    ms(row)
                ),
                None => println!(
                    "        tmux run skipped (tmux missing or the screen never showed the count)"
                ),
            }
        }
    }
}
