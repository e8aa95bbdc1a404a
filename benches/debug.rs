//! The debugger's costs: per-key time to step through a 10,000-step trace in the Debug tab
//! (update and render of the real app at 200x60), and what an observer costs the matcher
//! (a search with the no-op observer, as ordinary matching runs, against a counting one).
//!
//! `cargo bench --bench debug`

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use rxw::engine::vm::{Observer, Step};
use rxw::tui::action::Action;
use rxw::tui::tabs::debug;
use rxw::tui::{render, screens};
use rxw::{Flags, Flavor, MatchOptions, Regex};
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    // A nested quantifier over words, ending in `!` so that `$` never holds: the search
    // backtracks until the step budget stops it, and the trace keeps its first 10,000 steps.
    let mut app = screens::demo(200, 60);
    let text = format!("{}!\n", "word ".repeat(24));
    app.wb.input.replace_all(text);
    app.wb.pattern.set(r"(\w+\s?)+$");
    app.wb.set_flavor(Flavor::PYTHON);
    app.wb.flags = Flags::default();
    app.pattern_changed();
    screens::settle(&mut app);
    let t0 = Instant::now();
    app.update(Action::ShowTab(debug::ID));
    let record = t0.elapsed();
    let steps = app.tab_as::<debug::DebugTab>().unwrap().view.len();
    let mut term = Terminal::new(TestBackend::new(200, 60)).unwrap();
    let mut per_key = Vec::new();
    let moves = [
        debug::STEP,
        debug::NEXT_BACKTRACK,
        debug::STEP_100,
        debug::LAST,
        debug::FIRST,
        debug::BACK,
    ];
    for i in 0..600 {
        let m = moves[i % moves.len()];
        let t = Instant::now();
        app.update(Action::Tab(m));
        term.draw(|f| render::draw(f, &app)).unwrap();
        per_key.push(t.elapsed());
    }
    let worst = *per_key.iter().max().unwrap();
    println!(
        "debug tab: trace of {steps} recorded steps in {:.1} ms; per key (update + render 200x60): median {:.2} ms, worst {:.2} ms",
        record.as_secs_f64() * 1000.0,
        median(per_key).as_secs_f64() * 1000.0,
        worst.as_secs_f64() * 1000.0
    );

    // Observer cost: the same searches with the no-op observer (ordinary matching) and with
    // one that counts every step.
    struct Count(u64);
    impl Observer for Count {
        const ACTIVE: bool = true;
        fn step(&mut self, _s: &Step<'_>) {
            self.0 += 1;
        }
    }
    let re = Regex::new(r"(\w+)\s\1", Flavor::PYTHON, Flags::default()).unwrap();
    let hay = "alpha beta beta gamma delta delta epsilon ".repeat(20_000);
    let mut plain = Vec::new();
    let mut observed = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let n = re.matches(&hay, MatchOptions::bounds_only()).count();
        plain.push(t.elapsed());
        let t = Instant::now();
        let mut c = Count(0);
        let mut pos = 0;
        let mut m = 0;
        while let Ok((Some(found), _)) = re.search_observed(&hay, pos, None, &mut c) {
            m += 1;
            pos = found.end().max(pos + 1);
        }
        observed.push(t.elapsed());
        assert_eq!(n, m);
    }
    println!(
        "matcher on {:.1} MB, (\\w+)\\s\\1: no observer {:.1} ms, counting observer {:.1} ms",
        hay.len() as f64 / 1e6,
        median(plain).as_secs_f64() * 1000.0,
        median(observed).as_secs_f64() * 1000.0
    );
}
