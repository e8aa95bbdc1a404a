//! The Lens pass on records, headless: every preset of the registry on each record's message
//! of a NetVM log (job lifecycles interleaved, `benches/gen_log.py --lifecycles`), as the
//! Lens tab runs it when the workbench opens the log, timed from `activate` to the last hit
//! taken in; the same log through `rxw parse --count` (release binary, when built) beside it.
//!
//! `cargo bench --bench lens` (`RXW_BENCH_MB=200` picks the log's size; the log is generated
//! into `target/bench/` and reused).

use rxw::workbench::TextBuffer;
use rxw::workbench::lens::Lens;
use rxw::workbench::matching::SharedWaker;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// This process's user and system CPU seconds so far (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis: utime and stime are the 12th and
    // 13th of them, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

fn main() {
    let mb: u64 = std::env::var("RXW_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let bytes = mb * 1_000_000;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let log = root.join(format!("target/bench/lifecycles-{bytes}-1.log"));
    if !log.exists() {
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        let out = std::process::Command::new("python3")
            .arg(root.join("benches/gen_log.py"))
            .args(["--bytes", &bytes.to_string(), "--seed", "1", "--lifecycles"])
            .output()
            .expect("python3 runs benches/gen_log.py");
        assert!(out.status.success(), "gen_log.py failed");
        std::fs::write(&log, out.stdout).unwrap();
    }
    let text = std::fs::read_to_string(&log).unwrap();
    let len = text.len();
    let catalog =
        Arc::new(rxw::presets::load::load(&rxw::presets::load::LoadOptions::default()).catalog);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "log {} ({len} bytes), {threads} cores, load average {}",
        log.display(),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    for round in 1..=3 {
        let input = TextBuffer::new(text.clone());
        let mut lens = Lens::new(Arc::clone(&catalog), SharedWaker::default());
        let cpu_before = cpu_seconds();
        let started = Instant::now();
        lens.activate(&input);
        assert!(
            lens.settle(&input, Duration::from_secs(600)),
            "the lens settles"
        );
        let took = started.elapsed();
        let cpu = cpu_seconds() - cpu_before;
        let hits: usize = lens.counts().iter().sum();
        println!(
            "round {round}: lens on records ({:?}) {:.2} s, {:.0} MB/s ({cpu:.2} s CPU, {:.0} MB per CPU second), {hits} hits",
            lens.records().map(|f| f.name()),
            took.as_secs_f64(),
            len as f64 / 1e6 / took.as_secs_f64(),
            len as f64 / 1e6 / cpu
        );
    }
    let rxw = root.join("target/release/rxw");
    if rxw.exists() {
        let started = Instant::now();
        let out = std::process::Command::new(&rxw)
            .args(["parse", "--count"])
            .arg(&log)
            .output()
            .unwrap();
        let took = started.elapsed();
        println!(
            "rxw parse --count (whole process): {:.2} s, {:.0} MB/s, {} hits",
            took.as_secs_f64(),
            len as f64 / 1e6 / took.as_secs_f64(),
            String::from_utf8_lossy(&out.stdout).trim()
        );
    }
}
