//! Times `explain` (parse + tree + lints) on the NetVM registry patterns and on generated
//! 16 KB patterns. Plain `harness = false` main: `cargo bench --bench explain`.

use rxw::syntax::explain::explain;
use rxw::syntax::parse::parse;
use rxw::{Flags, Flavor};
use std::hint::black_box;
use std::time::{Duration, Instant};

const WORK_ORDER: &str = r"^\[WO:(?P<wo_id>[a-f0-9-]+)\]\s+\[from\s+(?P<sender>[a-zA-Z0-9_-]+)\]\s+(?P<title>[^—\n]+?)\s*—\s*(?P<body>.+)$";
const VERB: &str =
    r"\[(?P<verb>ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+(?P<job_id>[A-Za-z0-9_/-]+)\]";
const RESULT: &str = r"\[RESULT\s+(?P<job_id>[A-Za-z0-9_/-]+)\]\s*(?P<status>OK|FAIL|DECLINE|SUCCESS|ERROR)?\s*(?P<summary>.*?)(?=\[RESULT\s|\Z)";
const TOOL_CALL: &str = r"\[(?P<engine>TOOL|EXEC)\s+(?P<op>[a-zA-Z0-9_.-]+)\s+(?P<args>\{.*?\})\]";

/// CPU time this thread has run, in nanoseconds (Linux `schedstat`), so that figures taken on
/// a busy machine can be told apart from time spent waiting for a core.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Runs `f` repeatedly for about `budget`; returns (iterations, median, max) per call.
/// "median" is the wall time of parse + explain (tree and lints), "cpu/iter" the CPU time per
/// call (mean), "parse only" the parser alone.
fn time(budget: Duration, mut f: impl FnMut()) -> (usize, Duration, Duration) {
    let mut samples = Vec::new();
    let start = Instant::now();
    while start.elapsed() < budget || samples.len() < 5 {
        let t = Instant::now();
        f();
        samples.push(t.elapsed());
    }
    samples.sort();
    (
        samples.len(),
        samples[samples.len() / 2],
        samples[samples.len() - 1],
    )
}

fn main() {
    let nested_run = "(abcdefghijklmn".repeat(1024) + &")".repeat(1024);
    let nested_empty = "(".repeat(8192) + &")".repeat(8192);
    let classes = "[a-z0-9_]+\\d{2,4}(?:x|y)".repeat(16 * 1024 / 24);
    let cases: Vec<(&str, &str, &str, usize)> = vec![
        ("work_order", WORK_ORDER, "ms", 4096),
        ("verb", VERB, "", 4096),
        ("result", RESULT, "s", 4096),
        ("tool_call", TOOL_CALL, "", 4096),
        ("16 KB nested groups + runs", &nested_run, "", 4096),
        ("16 KB (((…))) unlimited", &nested_empty, "", usize::MAX),
        ("16 KB (((…))) refused", &nested_empty, "", 4096),
        ("16 KB classes unlimited", &classes, "", usize::MAX),
    ];
    println!(
        "{:<28} {:>7} {:>7} {:>9} {:>11} {:>11} {:>11} {:>11}",
        "pattern", "bytes", "nodes", "iters", "median", "cpu/iter", "parse only", "max"
    );
    // `cargo bench --bench explain -- WORD` runs only the cases whose name contains WORD.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    for (name, pat, flags, max_nodes) in cases {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let flags = Flags::parse(flags, Flavor::PYTHON).unwrap();
        let nodes = parse(pat, Flavor::PYTHON, flags)
            .ok()
            .and_then(|ast| explain(&ast, pat, Flavor::PYTHON, max_nodes).ok())
            .map_or("refused".to_string(), |e| e.nodes().len().to_string());
        let cpu_before = thread_cpu_ns();
        let (n, median, max) = time(Duration::from_millis(500), || {
            let ast = parse(black_box(pat), Flavor::PYTHON, flags).unwrap();
            let _ = black_box(explain(&ast, pat, Flavor::PYTHON, max_nodes));
        });
        let cpu = match (cpu_before, thread_cpu_ns()) {
            (Some(a), Some(b)) => format!("{:.1?}", Duration::from_nanos((b - a) / n as u64)),
            _ => "-".to_string(),
        };
        let (_, parse_median, _) = time(Duration::from_millis(200), || {
            let _ = black_box(parse(black_box(pat), Flavor::PYTHON, flags));
        });
        println!(
            "{name:<28} {:>7} {nodes:>7} {n:>9} {:>11.1?} {cpu:>11} {:>11.1?} {:>11.1?}",
            pat.len(),
            median,
            parse_median,
            max
        );
    }
}
