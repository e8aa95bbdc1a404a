//! The fleet's engines, run for real: `rxw registry verify`, the Presets tab's check and the
//! agent tools' `export` all run each exported definition here, on the target's own component
//! (chDB, DuckDB, Spark or java.util.regex, Go's regexp, joni, the vrl crate), and compare
//! every hit with rxw's ([`verify_records`], [`verify_targets`]).
//!
//! Each engine is its own process fed on standard input; a [`Stop`] (a deadline or a cancel
//! flag) kills it. The small driver programs the engines run are in `drivers/`.

use crate::codegen;
use crate::fleet::render::{self, RenderOptions};
use crate::fleet::verify::{self, Hit, Row};
use crate::fleet::{self, Definition, PresetExport, Target};
use crate::presets::Entry;
use crate::wire::{Verdict, VerifyRecord};
use crate::{Error, ErrorKind};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The script that runs SQL and LogQL definitions on the engines' Python packages.
const DRIVER: &str = include_str!("drivers/fleet_driver.py");
/// The program that runs Spark's patterns on java.util.regex (`java` runs it from source),
/// with the record fields the Java drivers share.
const JAVA_DRIVER: &str = concat!(
    include_str!("drivers/fleet_verify.java"),
    include_str!("drivers/fleet_fields.java")
);
/// The program that runs LogQL `| regexp` stages on Go's regexp (`go run`).
const GO_DRIVER: &str = include_str!("drivers/fleet_loki.go");
/// The program that runs grok processors on joni (`java` runs it from source), with the
/// record fields the Java drivers share.
const GROK_DRIVER: &str = concat!(
    include_str!("drivers/fleet_grok.java"),
    include_str!("drivers/fleet_fields.java")
);

/// Runs every exported definition on `target`'s engine and compares with rxw.
///
/// # Errors
/// When the engine cannot be run here (no package, no engine for the target), the run was
/// stopped ([`Stop`]), or rxw's own matching fails.
pub fn verify_records(
    entries: &[&Entry],
    exports: &[PresetExport],
    target: Target,
    opts: &VerifyOptions,
) -> Result<Vec<VerifyRecord>, Error> {
    let mut rows = verify::corpus(entries);
    if verify::reads_log_lines(target) {
        rows = verify::log_lines(&rows);
    }
    let EngineRun {
        engine: engine_name,
        answers: engine,
    } = engine_hits(exports, target, &rows, opts)?;
    let mut records = Vec::new();
    for (entry, export) in entries.iter().zip(exports) {
        let (rxw, got) = match &export.outcome {
            Ok(def) => (
                verify::expected(entry, def, target, &rows)?,
                engine.get(&export.key).cloned().unwrap_or(Ok(Vec::new())),
            ),
            Err(_) => (Vec::new(), Ok(Vec::new())),
        };
        let record = match got {
            Ok(got) => verify::record(export, target, &rows, &rxw, &got),
            Err(why) => VerifyRecord {
                verdict: Verdict::Differ,
                first_difference: Some(format!("the engine rejected the definition: {why}")),
                ..verify::record(export, target, &rows, &rxw, &[])
            },
        };
        records.push(VerifyRecord {
            engine: engine_name.clone(),
            ..record
        });
    }
    Ok(records)
}

/// One target's verification, with how long it took.
pub struct TargetRun {
    /// The target.
    pub target: Target,
    /// Its records, or why its engine could not be run.
    pub records: Result<Vec<VerifyRecord>, Error>,
    /// Wall time of the export and the check.
    pub elapsed: std::time::Duration,
}

/// Exports `entries` to each target and verifies each, every target's engine at once (each
/// is its own process; the slowest sets the time).
pub fn verify_targets(
    entries: &[&Entry],
    targets: &[Target],
    opts: &VerifyOptions,
) -> Vec<TargetRun> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = targets
            .iter()
            .map(|&target| {
                scope.spawn(move || {
                    let started = std::time::Instant::now();
                    let exports = fleet::export(entries, target);
                    let records = verify_records(entries, &exports, target, opts);
                    TargetRun {
                        target,
                        records,
                        elapsed: started.elapsed(),
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .zip(targets)
            .map(|(h, &target)| {
                h.join().unwrap_or_else(|_| TargetRun {
                    target,
                    records: Err(Error::new(
                        ErrorKind::Io,
                        format!("the verification of {target} panicked"),
                    )),
                    elapsed: std::time::Duration::ZERO,
                })
            })
            .collect()
    })
}

/// The engines `rxw registry verify` runs, for the agent tools (`regex_parse`'s `export`).
#[derive(Debug, Default)]
pub struct EngineVerifier;

impl crate::tool::FleetVerifier for EngineVerifier {
    fn verify(
        &self,
        entries: &[&Entry],
        exports: &[PresetExport],
        target: Target,
        deadline: std::time::Instant,
    ) -> Result<Vec<VerifyRecord>, String> {
        let opts = VerifyOptions {
            spark_session: false,
            stop: Stop {
                deadline: Some(deadline),
                cancel: None,
            },
        };
        verify_records(entries, exports, target, &opts).map_err(|e| e.message)
    }
}

/// One definition's hits on the engine (sorted), or why the engine rejected it.
type EngineAnswer = Result<Vec<Hit>, String>;

/// What ran the definitions and each one's answer, by preset key.
struct EngineRun {
    /// The component (or the stand-in, said so).
    engine: String,
    answers: BTreeMap<String, EngineAnswer>,
}

/// How a verification runs: which Spark check, and when to stop.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// Spark: run the exported script on a local Spark session (pyspark; the JVM's start
    /// takes most of half a minute) instead of its patterns on java.util.regex with the
    /// views' semantics.
    pub spark_session: bool,
    /// When to stop the engines.
    pub stop: Stop,
}

/// Every exact or rewritten definition's answer on the target's own component, or on a
/// stand-in for its regex engine when the component cannot be run here (named so in
/// [`EngineRun::engine`]).
fn engine_hits(
    exports: &[PresetExport],
    target: Target,
    rows: &[Row],
    opts: &VerifyOptions,
) -> Result<EngineRun, Error> {
    let stop = &opts.stop;
    let defs: Vec<&Definition> = exports
        .iter()
        .filter_map(|e| e.outcome.as_ref().ok())
        .collect();
    let stand_in = |answers, what: &str, why: String| EngineRun {
        engine: format!("{what} (a STAND-IN: {why})"),
        answers,
    };
    match target {
        Target::Vector => match vrl_engine(exports, &defs, rows, stop)? {
            Ok(run) => Ok(run),
            Err(Missing(why)) => {
                let answers = defs
                    .iter()
                    .map(|d| {
                        (
                            d.key.clone(),
                            verify::run_regex_crate(d, rows).map_err(|e| e.message),
                        )
                    })
                    .collect();
                Ok(stand_in(answers, "the regex crate", why))
            }
        },
        Target::Loki => match go_engine(&defs, rows, stop)? {
            Ok(run) => Ok(run),
            Err(Missing(why)) => {
                let run = python_engine(exports, &defs, target, rows, stop)?;
                Ok(stand_in(run.answers, "google-re2", why))
            }
        },
        Target::Elasticsearch => match grok_engine(exports, rows, stop)? {
            Ok(run) => Ok(run),
            Err(Missing(why)) => {
                let run = python_engine(exports, &defs, target, rows, stop)?;
                Ok(stand_in(run.answers, "onigurumacffi", why))
            }
        },
        Target::Spark if !opts.spark_session => Ok(EngineRun {
            engine: SPARK_ON_JAVA.into(),
            answers: java_engine(&defs, rows, stop)?,
        }),
        Target::Spark => match python_engine(exports, &defs, target, rows, stop) {
            Ok(run) => Ok(run),
            Err(why) => {
                stop.check()?;
                Ok(stand_in(
                    java_engine(&defs, rows, stop)?,
                    SPARK_ON_JAVA,
                    why.message.clone(),
                ))
            }
        },
        Target::ClickHouse | Target::DuckDb => python_engine(exports, &defs, target, rows, stop),
    }
}

/// The engine name of the default Spark check.
const SPARK_ON_JAVA: &str = "java.util.regex with the views' regexp_extract_all semantics (the SQL itself runs with --spark-session)";

/// Why a target's own component cannot be run here.
struct Missing(String);

/// Where the Vector checker is: `RXW_VRL_CHECK`, else `rxw-vrl-check` on the PATH.
fn vrl_checker() -> Result<PathBuf, Missing> {
    if let Some(p) = std::env::var_os("RXW_VRL_CHECK").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(Missing(format!(
                "RXW_VRL_CHECK={} is not a file",
                p.display()
            )))
        };
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join("rxw-vrl-check"))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            Missing(
                "Vector's language checker rxw-vrl-check is not built (cargo build --manifest-path tools/vrl-check/Cargo.toml, then set RXW_VRL_CHECK to the binary)".into(),
            )
        })
}

/// A unique scratch directory for one engine run.
fn scratch_dir(what: &str) -> Result<PathBuf, Error> {
    let dir = std::env::temp_dir().join(format!(
        "rxw-{what}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir)
        .map_err(|e| Error::new(ErrorKind::Io, format!("temporary directory: {e}")))?;
    Ok(dir)
}

/// When an engine run must stop: a deadline (an agent's time budget) or a cancel flag (the
/// workbench asked for another preset or target). Stopping kills the engine's process.
#[derive(Debug, Clone, Default)]
pub struct Stop {
    /// Kill the engine when this instant passes.
    pub deadline: Option<std::time::Instant>,
    /// Kill the engine when this is set.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Stop {
    /// Why the run must stop now, if it must.
    pub fn reason(&self) -> Option<&'static str> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Some("the verification was cancelled");
        }
        if self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            return Some("the verification ran out of its time budget");
        }
        None
    }

    /// The stop as an error, when it applies.
    fn check(&self) -> Result<(), Error> {
        match self.reason() {
            Some(why) => Err(Error::new(ErrorKind::TimedOut, why)),
            None => Ok(()),
        }
    }
}

/// Runs `cmd` with `input` on its standard input; its output, or why it could not start.
/// The process is killed when `stop` applies (the error is then of kind `TimedOut`).
fn run_with_input(
    mut cmd: Command,
    input: Vec<u8>,
    stop: &Stop,
) -> Result<std::process::Output, std::io::Error> {
    use std::io::Read;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).map(|_| buf)
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stderr.read_to_end(&mut buf).map(|_| buf)
    });
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if let Some(why) = stop.reason() {
            let _ = child.kill();
            let _ = child.wait();
            let _ = writer.join();
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, why));
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let _ = writer.join();
    let joined = |h: std::thread::JoinHandle<std::io::Result<Vec<u8>>>| {
        h.join()
            .unwrap_or_else(|_| Err(std::io::Error::other("reader thread panicked")))
    };
    Ok(std::process::Output {
        status,
        stdout: joined(out_reader)?,
        stderr: joined(err_reader)?,
    })
}

/// A failed run as the command's error: a stop says why it stopped.
fn stopped_or(e: std::io::Error, what: &str) -> Error {
    if e.kind() == std::io::ErrorKind::TimedOut {
        Error::new(ErrorKind::TimedOut, e.to_string())
    } else {
        Error::new(ErrorKind::Io, format!("{what}: {e}"))
    }
}

/// The exported Vector config, run by `rxw-vrl-check` on every row as an event's `.message`:
/// each preset's field `rxw_<key>` is the array of hits VRL's `parse_regex_all!` gave.
fn vrl_engine(
    exports: &[PresetExport],
    defs: &[&Definition],
    rows: &[Row],
    stop: &Stop,
) -> Result<Result<EngineRun, Missing>, Error> {
    let checker = match vrl_checker() {
        Ok(c) => c,
        Err(m) => return Ok(Err(m)),
    };
    let failed = |why: String| Missing(format!("rxw-vrl-check could not be run: {why}"));
    let dir = scratch_dir("vrl")?;
    let config = dir.join("vector.toml");
    let written = std::fs::write(
        &config,
        render::render(Target::Vector, exports, &RenderOptions::default()),
    );
    let mut input = Vec::new();
    for r in rows {
        input.extend(serde_json::to_vec(&r.text).expect("a string serializes"));
        input.push(b'\n');
    }
    let output = written.and_then(|()| {
        let mut cmd = Command::new(&checker);
        cmd.arg(&config);
        run_with_input(cmd, input, stop)
    });
    let _ = std::fs::remove_dir_all(&dir);
    let output = match output {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return Err(stopped_or(e, "")),
        Err(e) => return Ok(Err(failed(format!("{}: {e}", checker.display())))),
    };
    let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
    let mut answers: BTreeMap<String, EngineAnswer> = BTreeMap::new();
    if output.status.code() == Some(1) {
        // The program does not compile: every definition is rejected with VRL's diagnostic.
        for d in defs {
            answers.insert(d.key.clone(), Err(format!("VRL: {stderr}")));
        }
        return Ok(Ok(EngineRun {
            engine: vrl_name(),
            answers,
        }));
    }
    if !output.status.success() {
        return Ok(Err(failed(stderr)));
    }
    for d in defs {
        answers.insert(d.key.clone(), Ok(Vec::new()));
    }
    #[derive(serde::Deserialize)]
    struct Event {
        row: usize,
        event: Option<serde_json::Map<String, serde_json::Value>>,
        error: Option<String>,
    }
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let ev: Event = match serde_json::from_str(line) {
            Ok(ev) => ev,
            Err(e) => return Ok(Err(failed(format!("its output is not JSON ({e}): {line}")))),
        };
        if let Some(why) = ev.error {
            for a in answers.values_mut() {
                *a = Err(format!("VRL aborted on row {}: {why}", ev.row));
            }
            continue;
        }
        let event = ev.event.unwrap_or_default();
        for d in defs {
            let Some(Ok(hits)) = answers.get_mut(&d.key) else {
                continue;
            };
            let Some(serde_json::Value::Array(found)) = event.get(&d.view_name()) else {
                continue;
            };
            for h in found {
                let field = |name: &str| h.get(name).and_then(|v| v.as_str()).map(str::to_string);
                hits.push(Hit {
                    line_no: ev.row,
                    text: field(fleet::MATCH_COLUMN),
                    fields: d
                        .fields
                        .iter()
                        .map(|f| (f.name.clone(), field(&f.name)))
                        .collect(),
                });
            }
        }
    }
    sort_hits(&mut answers);
    Ok(Ok(EngineRun {
        engine: vrl_name(),
        answers,
    }))
}

fn vrl_name() -> String {
    "Vector's language (the vrl crate, through rxw-vrl-check)".into()
}

/// The LogQL stages' patterns, read back from the exported queries (`| regexp \`…\``), run
/// on Go's regexp by an embedded Go program: the first hit of each row, a label per named
/// group with a non-empty value.
fn go_engine(
    defs: &[&Definition],
    rows: &[Row],
    stop: &Stop,
) -> Result<Result<EngineRun, Missing>, Error> {
    let version = Command::new("go").arg("version").output();
    let version = match version {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => {
            return Ok(Err(Missing(
                "the Go toolchain (`go`) is not installed; Loki's regexp stage is Go's regexp"
                    .into(),
            )));
        }
    };
    let dir = scratch_dir("loki")?;
    let source = dir.join("loki_regexp.go");
    std::fs::write(&source, GO_DRIVER)
        .map_err(|e| Error::new(ErrorKind::Io, format!("temporary directory: {e}")))?;
    let mut input = String::new();
    for d in defs {
        if let fleet::Form::Exact { pattern } = &d.form {
            input.push_str(&format!(
                "P\t{}\t{}\n",
                codegen::escape_field(&d.key),
                codegen::escape_field(pattern)
            ));
        }
    }
    push_rows(&mut input, rows);
    let mut cmd = Command::new("go");
    cmd.arg("run")
        .arg(&source)
        .current_dir(&dir)
        .env("GO111MODULE", "off");
    let output = run_with_input(cmd, input.into_bytes(), stop);
    let _ = std::fs::remove_dir_all(&dir);
    let output = output.map_err(|e| stopped_or(e, "go run"))?;
    exited_well(&output, "the Go regexp driver failed")?;
    #[derive(serde::Deserialize)]
    struct GoHit {
        key: String,
        line_no: Option<usize>,
        #[serde(rename = "match")]
        text: Option<String>,
        labels: Option<BTreeMap<String, String>>,
        error: Option<String>,
    }
    let mut answers: BTreeMap<String, EngineAnswer> = defs
        .iter()
        .map(|d| (d.key.clone(), Ok(Vec::new())))
        .collect();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let h: GoHit = serde_json::from_str(line).map_err(|e| {
            Error::new(
                ErrorKind::Io,
                format!("the Go regexp driver's output ({e}): {line}"),
            )
        })?;
        if let Some(why) = h.error {
            answers.insert(h.key, Err(format!("Go regexp: {why}")));
            continue;
        }
        if let Some(Ok(hits)) = answers.get_mut(&h.key) {
            let mut labels = h.labels.unwrap_or_default();
            labels.remove(fleet::MATCH_COLUMN);
            hits.push(Hit {
                line_no: h.line_no.unwrap_or(0),
                text: h.text,
                fields: labels.into_iter().map(|(k, v)| (k, Some(v))).collect(),
            });
        }
    }
    sort_hits(&mut answers);
    Ok(Ok(EngineRun {
        engine: format!("Go's regexp ({version}); LogQL's own parser is not run"),
        answers,
    }))
}

/// The class path of joni and jcodings: `RXW_JONI_CLASSPATH`, else Debian's packages
/// (libjruby-joni-java, libjcodings-java).
fn joni_classpath() -> Result<String, Missing> {
    if let Ok(cp) = std::env::var("RXW_JONI_CLASSPATH")
        && !cp.is_empty()
    {
        return Ok(cp);
    }
    let jars = ["/usr/share/java/joni.jar", "/usr/share/java/jcodings.jar"];
    if jars.iter().all(|j| std::path::Path::new(j).is_file()) {
        Ok(jars.join(":"))
    } else {
        Err(Missing(
            "joni, the Oniguruma port Elasticsearch's grok compiles with, is not installed (apt-get install libjruby-joni-java libjcodings-java, or set RXW_JONI_CLASSPATH)".into(),
        ))
    }
}

/// The exported pipelines document, read back as JSON: each pipeline's grok processor
/// (its patterns and pattern_definitions) run on joni as Elasticsearch's grok runs it, on
/// the processor's field of one event per row.
fn grok_engine(
    exports: &[PresetExport],
    rows: &[Row],
    stop: &Stop,
) -> Result<Result<EngineRun, Missing>, Error> {
    let classpath = match joni_classpath() {
        Ok(cp) => cp,
        Err(m) => return Ok(Err(m)),
    };
    let doc: serde_json::Value = serde_json::from_str(&render::render(
        Target::Elasticsearch,
        exports,
        &RenderOptions::default(),
    ))
    .map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!("the exported pipelines are not JSON: {e}"),
        )
    })?;
    let mut input = String::new();
    let mut keys = BTreeMap::new();
    let empty = serde_json::Map::new();
    for (name, pipeline) in doc["pipelines"].as_object().unwrap_or(&empty) {
        let key = exports
            .iter()
            .find(|e| format!("rxw_{}", e.key) == *name)
            .map(|e| e.key.clone())
            .unwrap_or_else(|| name.clone());
        keys.insert(key.clone(), ());
        for processor in pipeline["processors"].as_array().into_iter().flatten() {
            let grok = &processor["grok"];
            for (n, d) in grok["pattern_definitions"].as_object().unwrap_or(&empty) {
                input.push_str(&format!(
                    "D\t{}\t{}\t{}\n",
                    codegen::escape_field(&key),
                    codegen::escape_field(n),
                    codegen::escape_field(d.as_str().unwrap_or_default())
                ));
            }
            for p in grok["patterns"].as_array().into_iter().flatten() {
                input.push_str(&format!(
                    "P\t{}\t{}\n",
                    codegen::escape_field(&key),
                    codegen::escape_field(p.as_str().unwrap_or_default())
                ));
            }
        }
    }
    push_rows(&mut input, rows);
    let dir = scratch_dir("grok")?;
    let source = dir.join("Grok.java");
    std::fs::write(&source, GROK_DRIVER)
        .map_err(|e| Error::new(ErrorKind::Io, format!("temporary directory: {e}")))?;
    let mut cmd = Command::new("java");
    cmd.arg("-cp").arg(&classpath).arg(&source);
    let output = run_with_input(cmd, input.into_bytes(), stop);
    let _ = std::fs::remove_dir_all(&dir);
    let output = match output {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return Err(stopped_or(e, "")),
        Err(e) => return Ok(Err(Missing(format!("java cannot be started: {e}")))),
    };
    exited_well(&output, "the grok driver failed on joni")?;
    let mut answers: BTreeMap<String, EngineAnswer> =
        keys.into_keys().map(|k| (k, Ok(Vec::new()))).collect();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        match driver_line(line) {
            Some(DriverLine::Rejected { key, why }) => {
                answers.insert(key, Err(format!("grok: {why}")));
            }
            Some(DriverLine::Hit {
                key,
                line_no,
                text,
                rest,
            }) => {
                let fields = rest
                    .chunks(2)
                    .filter_map(|kv| {
                        Some((unescape_field(kv.first()?)?, unescape_field(kv.get(1)?)))
                    })
                    .collect();
                if let Some(Ok(hits)) = answers.get_mut(&key) {
                    hits.push(Hit {
                        line_no,
                        text,
                        fields,
                    });
                }
            }
            None => {}
        }
    }
    sort_hits(&mut answers);
    Ok(Ok(EngineRun {
        engine: "Elasticsearch's grok expansion on joni (the Oniguruma port it compiles with)"
            .into(),
        answers,
    }))
}

#[derive(Serialize)]
struct DriverView {
    key: String,
    from: String,
    columns: Vec<(String, String)>,
}

#[derive(Serialize)]
struct DriverPattern {
    key: String,
    pattern: String,
    fields: Vec<String>,
}

#[derive(Serialize)]
struct DriverRequest<'a> {
    target: &'a str,
    rows: Vec<&'a str>,
    statements: Vec<(Option<String>, String)>,
    split: usize,
    views: Vec<DriverView>,
    patterns: Vec<DriverPattern>,
}

/// One hit from the driver: its line number and its columns (labels for Loki).
type DriverHit = (usize, BTreeMap<String, Option<String>>);

#[derive(serde::Deserialize)]
struct DriverReply {
    hits: Option<BTreeMap<String, Vec<DriverHit>>>,
    #[serde(default)]
    rejected: BTreeMap<String, String>,
    unavailable: Option<String>,
    error: Option<String>,
    /// The engine and its version, as the package reports it.
    engine: Option<String>,
}

fn python_engine(
    exports: &[PresetExport],
    defs: &[&Definition],
    target: Target,
    rows: &[Row],
    stop: &Stop,
) -> Result<EngineRun, Error> {
    let mut req = DriverRequest {
        target: target.name(),
        rows: rows.iter().map(|r| r.text.as_str()).collect(),
        statements: Vec::new(),
        split: verify::source_split(rows.len()),
        views: Vec::new(),
        patterns: Vec::new(),
    };
    if matches!(target, Target::Loki | Target::Elasticsearch) {
        for d in defs {
            if let fleet::Form::Exact { pattern } = &d.form {
                req.patterns.push(DriverPattern {
                    key: d.key.clone(),
                    pattern: pattern.clone(),
                    fields: d.fields.iter().map(|f| f.name.clone()).collect(),
                });
            }
        }
    } else {
        req.statements = render::sql_statements(target, exports, &RenderOptions::default());
        for d in defs {
            let mut columns = vec![(
                fleet::MATCH_COLUMN.to_string(),
                fleet::MATCH_COLUMN.to_string(),
            )];
            columns.extend(
                d.fields
                    .iter()
                    .map(|f| (f.name.clone(), render::sql_ident(target, &f.name))),
            );
            req.views.push(DriverView {
                key: d.key.clone(),
                from: render::sql_ident(target, &d.view_name()),
                columns,
            });
        }
    }
    let reply = run_driver(&req, stop)?;
    if let Some(why) = reply.unavailable {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "{} cannot be run here: {why}; install it with `python3 -m pip install chdb duckdb pyspark google-re2 onigurumacffi`",
                target.title()
            ),
        ));
    }
    if let Some(why) = reply.error {
        return Err(Error::new(
            ErrorKind::Io,
            format!("{} rejected the exported tables: {why}", target.title()),
        ));
    }
    let hits = reply.hits.unwrap_or_default();
    let mut out = BTreeMap::new();
    for d in defs {
        let mut list: Vec<Hit> = hits
            .get(&d.key)
            .map(|v| {
                v.iter()
                    .map(|(line_no, cols)| {
                        let mut cols = cols.clone();
                        let text = cols.remove(fleet::MATCH_COLUMN).flatten();
                        Hit {
                            line_no: *line_no,
                            text,
                            fields: cols
                                .into_iter()
                                .filter(|(k, _)| d.fields.iter().any(|f| &f.name == k))
                                .collect(),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        list.sort();
        let answer = match reply.rejected.get(&d.key) {
            Some(why) => Err(why.clone()),
            None => Ok(list),
        };
        out.insert(d.key.clone(), answer);
    }
    Ok(EngineRun {
        engine: reply.engine.unwrap_or_else(|| target.title().to_string()),
        answers: out,
    })
}

fn run_driver(req: &DriverRequest<'_>, stop: &Stop) -> Result<DriverReply, Error> {
    let mut cmd = Command::new("python3");
    cmd.arg("-c").arg(DRIVER);
    let input = serde_json::to_vec(req).expect("a driver request serializes");
    let output = run_with_input(cmd, input, stop).map_err(|e| stopped_or(e, "python3"))?;
    serde_json::from_slice(&output.stdout).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!(
                "the engine driver's answer is not JSON ({e}): {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ),
        )
    })
}

/// The rows as a driver program reads them: one `R text` record each, escaped.
fn push_rows(input: &mut String, rows: &[Row]) {
    for r in rows {
        input.push_str(&format!("R\t{}\n", codegen::escape_field(&r.text)));
    }
}

/// An error when the driver program failed: `what`, then what it printed on standard error.
fn exited_well(output: &std::process::Output, what: &str) -> Result<(), Error> {
    if output.status.success() {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::Io,
        format!("{what}: {}", String::from_utf8_lossy(&output.stderr).trim()),
    ))
}

/// Each definition's hits in order (an engine may answer in any).
fn sort_hits(answers: &mut BTreeMap<String, EngineAnswer>) {
    for hits in answers.values_mut().flatten() {
        hits.sort();
    }
}

/// One line of a Java driver's output, its fields unescaped but for a hit's last ones.
enum DriverLine<'a> {
    /// `E key why`: the engine rejected the definition.
    Rejected { key: String, why: String },
    /// `H key line_no match field...`: a hit, with the fields after its match as printed.
    Hit {
        key: String,
        line_no: usize,
        text: Option<String>,
        rest: Vec<&'a str>,
    },
}

/// Reads one line of a Java driver's output; `None` for any other line.
fn driver_line(line: &str) -> Option<DriverLine<'_>> {
    if let Some(rejected) = line.strip_prefix("E\t") {
        let (key, why) = rejected.split_once('\t').unwrap_or((rejected, ""));
        return Some(DriverLine::Rejected {
            key: unescape_field(key)?,
            why: unescape_field(why).unwrap_or_default(),
        });
    }
    let parts: Vec<&str> = line.strip_prefix("H\t")?.split('\t').collect();
    let (Some(key), Some(line_no), Some(text)) = (
        parts.first().and_then(|k| unescape_field(k)),
        parts.get(1).and_then(|n| n.parse::<usize>().ok()),
        parts.get(2),
    ) else {
        return None;
    };
    Some(DriverLine::Hit {
        key,
        line_no,
        text: unescape_field(text),
        rest: parts[3..].to_vec(),
    })
}

/// Splits an escaped field (`\\` `\t` `\n` `\r`; `\N` is unset) back into its text.
fn unescape_field(s: &str) -> Option<String> {
    if s == codegen::UNSET_FIELD {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Runs the Spark definitions on java.util.regex with the semantics of the exported view:
/// `regexp_extract_all(line, p, 0)` exploded gives every hit (`Matcher.find` from the start
/// of the row), each field `regexp_extract_all(line, p, k)[i]`, where an unset group reads as
/// `''` and an optional field's `nullif(…, '')` turns `''` back into null. Java is what
/// Spark's regex functions run; the SQL around the patterns is run only by the Spark session
/// check (`--spark-session`).
fn java_engine(
    defs: &[&Definition],
    rows: &[Row],
    stop: &Stop,
) -> Result<BTreeMap<String, EngineAnswer>, Error> {
    let io =
        |what: &str, e: &dyn std::fmt::Display| Error::new(ErrorKind::Io, format!("{what}: {e}"));
    let dir = scratch_dir("spark-verify")?;
    let source = dir.join("Verify.java");
    std::fs::write(&source, JAVA_DRIVER).map_err(|e| io("temporary directory", &e))?;
    let mut input = String::new();
    for d in defs {
        if let fleet::Form::Exact { pattern } = &d.form {
            let groups: Vec<String> = d.fields.iter().map(|f| f.index.to_string()).collect();
            input.push_str(&format!(
                "P\t{}\t{}\t{}\n",
                codegen::escape_field(&d.key),
                codegen::escape_field(pattern),
                groups.join(",")
            ));
        }
    }
    push_rows(&mut input, rows);
    let mut cmd = Command::new("java");
    cmd.arg(&source);
    let result = run_with_input(cmd, input.into_bytes(), stop);
    let _ = std::fs::remove_dir_all(&dir);
    let output = result.map_err(|e| {
        stopped_or(
            e,
            "java cannot be started (Spark's patterns run on the JVM)",
        )
    })?;
    exited_well(&output, "java.util.regex rejected the exported patterns")?;
    let mut out: BTreeMap<String, EngineAnswer> = defs
        .iter()
        .map(|d| (d.key.clone(), Ok(Vec::new())))
        .collect();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let (key, line_no, text, groups) = match driver_line(line) {
            Some(DriverLine::Rejected { key, why }) => {
                out.insert(key, Err(why));
                continue;
            }
            Some(DriverLine::Hit {
                key,
                line_no,
                text,
                rest,
            }) => (key, line_no, text, rest),
            None => continue,
        };
        let Some(d) = defs.iter().find(|d| d.key == key) else {
            continue;
        };
        let hit = Hit {
            line_no,
            // Spark's views read the whole hit as group 0.
            text,
            fields: d
                .fields
                .iter()
                .zip(groups)
                .map(|(f, v)| {
                    // regexp_extract_all gives '' for an unset group; nullif reads '' as null.
                    let value = unescape_field(v).unwrap_or_default();
                    let value = (!(f.optional && value.is_empty())).then_some(value);
                    (f.name.clone(), value)
                })
                .collect(),
        };
        if let Some(Ok(hits)) = out.get_mut(&key) {
            hits.push(hit);
        }
    }
    sort_hits(&mut out);
    Ok(out)
}
