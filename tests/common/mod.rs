//! Helpers shared by the integration tests that generate cases: the engine's own test
//! helpers (one deterministic generator, one oracle runner for every crate's tests).

#[path = "../../crates/rxw-engine/tests/common/mod.rs"]
mod engine;

#[allow(unused_imports)]
pub use engine::*;

use assert_cmd::Command;
use std::path::Path;

/// The `rxw` binary with a scrubbed environment: its config and home in `config`, no colour.
#[allow(dead_code)]
pub fn rxw(config: &Path) -> Command {
    let mut c = Command::cargo_bin("rxw").unwrap();
    c.env_clear()
        .env("XDG_CONFIG_HOME", config)
        .env("HOME", config)
        .env("NO_COLOR", "1");
    c
}

/// Runs `cmd`: its exit code, standard output and standard error.
#[allow(dead_code)]
pub fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
