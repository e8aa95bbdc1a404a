//! The workbench following merged logs in a real terminal (tmux): `rxw -f a.log b.log`, lines
//! appended to both while it runs, a late record counted in the status bar, a log truncated.
//! Each wait ends as soon as the screen shows what it waits for (bounded, never timed).
#![cfg(feature = "app")]

use rxw_testkit::tmux::Terminal;
use rxw_testkit::{append, stamp, write_file};

#[test]
fn rxw_f_follows_merged_logs_in_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_file(
        dir.path(),
        "a.log",
        format!("{} a: [CLAIM 0a1] took\n", stamp(60)),
    );
    let b = write_file(
        dir.path(),
        "b.log",
        format!("{} b: [CLAIM 0b1] took\n", stamp(2 * 60)),
    );
    let bin = env!("CARGO_BIN_EXE_rxw");
    let cmd = format!(
        "cd '{d}' && exec env XDG_STATE_HOME='{d}' XDG_CONFIG_HOME='{d}' '{bin}' --fresh -f a.log b.log -e 'CLAIM \\w+'",
        d = dir.path().display()
    );
    let Some(t) = Terminal::start("follow", 140, 30, &cmd) else {
        return;
    };
    t.expect("following 2 logs merged · late records shown at arrival: 0");
    t.expect("2 matches");

    append(&b, &format!("{} b: [CLAIM 0b2] new\n", stamp(5 * 60)));
    t.expect("[CLAIM 0b2] new");
    t.expect("3 matches");
    // Stamped before 00:05, which is shown: appended at arrival, counted.
    append(&a, &format!("{} a: [CLAIM 0a2] late\n", stamp(3 * 60)));
    t.expect("late records shown at arrival: 1");
    let screen = t.expect("[CLAIM 0a2] late");
    // The late record is below the one stamped after it.
    let at = |s: &str| screen.find(s).unwrap();
    assert!(at("[CLAIM 0b2] new") < at("[CLAIM 0a2] late"), "{screen}");
    // a truncated: its lines from its start are appended, said.
    std::fs::write(&a, format!("{} a: [CLAIM 0a3] again\n", stamp(6 * 60))).unwrap();
    t.expect("[CLAIM 0a3] again");
    t.expect("a.log was truncated");
}
