//! `rxw registry export` and `rxw registry verify`: the preset registry on a fleet's engines.
//!
//! The translation and the checks are the library's ([`crate::fleet`]); this module loads the
//! registries, writes the file, and runs the engines that live outside rxw: ClickHouse
//! (chDB), DuckDB, RE2 (Loki's dialect) and Oniguruma (grok's) through their Python
//! packages, driven by an embedded script that prints every hit as JSON; Spark's patterns on
//! the JVM's java.util.regex. Vector's regex crate runs in-process. What is not run: the
//! LogQL, VRL, grok and Spark SQL text around the patterns (their engines are servers).

use super::preset::{Registries, RegistryArgs, load};
use super::{CliError, Outcome};
use crate::codegen;
use crate::fleet::render::{self, RenderOptions};
use crate::fleet::verify::{self, Hit, Row};
use crate::fleet::{self, Definition, PresetExport, Target};
use crate::presets::Entry;
use crate::wire::{ExportRecord, Verdict, VerifyRecord};
use crate::{Error, ErrorKind};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The script that runs SQL and LogQL definitions on the engines' Python packages.
const DRIVER: &str = include_str!("../../assets/fleet_driver.py");
/// The program that runs Spark's patterns on java.util.regex (`java` runs it from source).
const JAVA_DRIVER: &str = include_str!("fleet_verify.java");

fn parse_target(s: &str) -> Result<Target, String> {
    s.parse()
}

/// `rxw registry`.
#[derive(Debug, Args)]
pub struct RegistryCommandArgs {
    #[command(subcommand)]
    #[allow(missing_docs)]
    pub command: RegistryCommand,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub registries: RegistryArgs,
}

/// Which presets, for which engine.
#[derive(Debug, Args, Clone)]
pub struct TargetArgs {
    /// The engine: clickhouse, duckdb, vector, loki, elasticsearch, spark.
    #[arg(long, value_parser = parse_target)]
    pub to: Target,
    /// Only these preset keys (repeatable, or comma-separated; default: all).
    #[arg(long = "preset", value_name = "KEY", value_delimiter = ',')]
    pub presets: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The registry subcommands.
#[derive(Debug, Subcommand)]
pub enum RegistryCommand {
    /// Write the presets as the engine's own definitions (SQL views, a Vector remap, LogQL
    /// queries, ingest pipelines): each exact, rewritten (said so) or refused with the
    /// construct under a caret.
    Export {
        #[command(flatten)]
        #[allow(missing_docs)]
        target: TargetArgs,
        /// Write the definitions to this file instead of standard output.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// ClickHouse: create `logs` as a Distributed table over `logs_local` on this
        /// cluster.
        #[arg(long, value_name = "NAME")]
        cluster: Option<String>,
        /// Also run the definitions on the real engine (as `rxw registry verify`).
        #[arg(long)]
        verify: bool,
    },
    /// Run the exported definitions on the real engine and compare every hit (text and
    /// named groups) with rxw's on the registry's examples, its counter-examples and a
    /// generated corpus: exit 0 when all agree, 1 when one differs, 2 when the engine
    /// cannot be run.
    Verify {
        #[command(flatten)]
        #[allow(missing_docs)]
        target: TargetArgs,
    },
}

impl RegistryCommandArgs {
    /// Whether the command prints JSON.
    pub fn json(&self) -> bool {
        match &self.command {
            RegistryCommand::Export { target, .. } | RegistryCommand::Verify { target } => {
                target.json
            }
        }
    }
}

/// `rxw registry …`.
pub fn run(a: &RegistryCommandArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let Registries { catalog, .. } = load(&a.registries, err)?;
    match &a.command {
        RegistryCommand::Export {
            target,
            output,
            cluster,
            verify,
        } => {
            let entries = select(&catalog, &target.presets)?;
            let exports = fleet::export(&entries, target.to);
            let opts = RenderOptions {
                cluster: cluster.clone(),
            };
            let text = render::render(target.to, &exports, &opts);
            for e in &exports {
                if let Err(refusal) = &e.outcome {
                    writeln!(err, "rxw: {}: refused: {}", e.key, refusal.message)?;
                    if let Some(c) = refusal.caret() {
                        for l in c.lines() {
                            writeln!(err, "  {l}")?;
                        }
                    }
                }
            }
            match output {
                Some(path) => std::fs::write(path, &text)
                    .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))?,
                None if !target.json => out.write_all(text.as_bytes())?,
                None => {}
            }
            if target.json && !verify {
                let records: Vec<ExportRecord> = exports
                    .iter()
                    .map(|e| export_record(e, target.to))
                    .collect();
                #[derive(Serialize)]
                struct Doc<'a> {
                    target: &'a str,
                    presets: Vec<ExportRecord>,
                    definitions: &'a str,
                }
                let doc = Doc {
                    target: target.to.name(),
                    presets: records,
                    definitions: &text,
                };
                writeln!(out, "{}", serde_json::to_string(&doc).expect("serializes"))?;
            }
            if *verify {
                let mut sink = Vec::new();
                let w: &mut dyn Write = if target.json || output.is_some() {
                    out
                } else {
                    &mut sink
                };
                let code = verify_and_print(&entries, &exports, target, w)?;
                if !target.json && output.is_none() {
                    // The definitions are on standard output: the report goes to stderr.
                    err.write_all(&sink)?;
                }
                return Ok(code);
            }
            Ok(if exports.iter().any(|e| e.outcome.is_ok()) {
                0
            } else {
                1
            })
        }
        RegistryCommand::Verify { target } => {
            let entries = select(&catalog, &target.presets)?;
            let exports = fleet::export(&entries, target.to);
            verify_and_print(&entries, &exports, target, out)
        }
    }
}

fn select<'c>(
    catalog: &'c crate::presets::Catalog,
    keys: &[String],
) -> Result<Vec<&'c Entry>, Error> {
    if keys.is_empty() {
        return Ok(catalog.entries().iter().collect());
    }
    keys.iter().map(|k| catalog.require(k.trim())).collect()
}

fn export_record(e: &PresetExport, target: Target) -> ExportRecord {
    let (note, reason, caret) = match &e.outcome {
        Ok(Definition {
            form: fleet::Form::Split { note, .. },
            ..
        }) => (Some(note.clone()), None, None),
        Ok(_) => (None, None, None),
        Err(err) => (None, Some(err.message.clone()), err.caret()),
    };
    ExportRecord {
        preset: e.key.clone(),
        target: target.name().to_string(),
        form: e.form_name().to_string(),
        note,
        reason,
        caret,
    }
}

fn verify_and_print(
    entries: &[&Entry],
    exports: &[PresetExport],
    target: &TargetArgs,
    out: &mut dyn Write,
) -> Outcome {
    let records = verify_records(entries, exports, target.to)?;
    if target.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&records).expect("serializes")
        )?;
    } else {
        for r in &records {
            let verdict = match r.verdict {
                Verdict::Agree => "agree",
                Verdict::Differ => "DIFFER",
                Verdict::Refused => "refused",
            };
            write!(
                out,
                "{:<18} {:<8} {:<8} rxw {:>4} engine {:>4}",
                r.preset, r.form, verdict, r.hits_rxw, r.hits_engine
            )?;
            if let Some(d) = &r.first_difference {
                write!(out, "  {d}")?;
            }
            if let Some(why) = &r.reason {
                write!(out, "  {why}")?;
            }
            writeln!(out)?;
        }
    }
    Ok(if records.iter().any(|r| r.verdict == Verdict::Differ) {
        1
    } else {
        0
    })
}

/// Runs every exported definition on `target`'s engine and compares with rxw.
///
/// # Errors
/// When the engine cannot be run here (no package, no engine for the target), or rxw's own
/// matching fails.
pub fn verify_records(
    entries: &[&Entry],
    exports: &[PresetExport],
    target: Target,
) -> Result<Vec<VerifyRecord>, CliError> {
    let mut rows = verify::corpus(entries);
    if verify::reads_log_lines(target) {
        rows = verify::log_lines(&rows);
    }
    let engine = engine_hits(exports, target, &rows)?;
    let mut records = Vec::new();
    for (entry, export) in entries.iter().zip(exports) {
        let (rxw, got) = match &export.outcome {
            Ok(def) => (
                verify::expected(entry, def, target, &rows)?,
                engine.get(&export.key).cloned().unwrap_or(Ok(Vec::new())),
            ),
            Err(_) => (Vec::new(), Ok(Vec::new())),
        };
        records.push(match got {
            Ok(got) => verify::record(export, target, &rows, &rxw, &got),
            Err(why) => VerifyRecord {
                verdict: Verdict::Differ,
                first_difference: Some(format!("the engine rejected the definition: {why}")),
                ..verify::record(export, target, &rows, &rxw, &[])
            },
        });
    }
    Ok(records)
}

/// One definition's hits on the engine (sorted), or why the engine rejected it.
type EngineAnswer = Result<Vec<Hit>, String>;

/// Every exact or rewritten definition's answer on the engine, by preset key.
fn engine_hits(
    exports: &[PresetExport],
    target: Target,
    rows: &[Row],
) -> Result<BTreeMap<String, EngineAnswer>, CliError> {
    let defs: Vec<&Definition> = exports
        .iter()
        .filter_map(|e| e.outcome.as_ref().ok())
        .collect();
    match target {
        Target::Vector => Ok(defs
            .iter()
            .map(|d| {
                (
                    d.key.clone(),
                    verify::run_regex_crate(d, rows).map_err(|e| e.message),
                )
            })
            .collect()),
        Target::ClickHouse | Target::DuckDb | Target::Loki | Target::Elasticsearch => {
            python_engine(exports, &defs, target, rows)
        }
        Target::Spark => java_engine(&defs, rows),
    }
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
}

fn python_engine(
    exports: &[PresetExport],
    defs: &[&Definition],
    target: Target,
    rows: &[Row],
) -> Result<BTreeMap<String, EngineAnswer>, CliError> {
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
    let reply = run_driver(&req)?;
    if let Some(why) = reply.unavailable {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "{} cannot be run here: {why}; install it with `python3 -m pip install chdb duckdb google-re2 onigurumacffi`",
                target.title()
            ),
        )
        .into());
    }
    if let Some(why) = reply.error {
        return Err(Error::new(
            ErrorKind::Io,
            format!("{} rejected the exported tables: {why}", target.title()),
        )
        .into());
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
    Ok(out)
}

fn run_driver(req: &DriverRequest<'_>) -> Result<DriverReply, CliError> {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(DRIVER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::new(ErrorKind::Io, format!("python3 cannot be started: {e}")))?;
    let input = serde_json::to_vec(req).expect("a driver request serializes");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child
        .wait_with_output()
        .map_err(|e| Error::new(ErrorKind::Io, format!("python3: {e}")))?;
    let _ = writer.join();
    serde_json::from_slice(&output.stdout).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!(
                "the engine driver's answer is not JSON ({e}): {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ),
        )
        .into()
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

/// Runs the Spark definitions' patterns on java.util.regex, every hit of every row.
fn java_engine(
    defs: &[&Definition],
    rows: &[Row],
) -> Result<BTreeMap<String, EngineAnswer>, CliError> {
    let io =
        |what: &str, e: &dyn std::fmt::Display| Error::new(ErrorKind::Io, format!("{what}: {e}"));
    let dir = std::env::temp_dir().join(format!(
        "rxw-spark-verify-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| io("temporary directory", &e))?;
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
    for r in rows {
        input.push_str(&format!("R\t{}\n", codegen::escape_field(&r.text)));
    }
    let child = Command::new("java")
        .arg(&source)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let result = child
        .map_err(|e| {
            io(
                "java cannot be started (Spark's patterns run on the JVM)",
                &e,
            )
        })
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().expect("stdin is piped");
            let bytes = input.into_bytes();
            let writer = std::thread::spawn(move || stdin.write_all(&bytes));
            let out = child.wait_with_output().map_err(|e| io("java", &e));
            let _ = writer.join();
            out
        });
    let _ = std::fs::remove_dir_all(&dir);
    let output = result?;
    if !output.status.success() {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "java.util.regex rejected the exported patterns: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ),
        )
        .into());
    }
    let mut out: BTreeMap<String, EngineAnswer> = defs
        .iter()
        .map(|d| (d.key.clone(), Ok(Vec::new())))
        .collect();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        if let Some(rejected) = line.strip_prefix("E\t") {
            let (key, why) = rejected.split_once('\t').unwrap_or((rejected, ""));
            if let Some(key) = unescape_field(key) {
                out.insert(key, Err(unescape_field(why).unwrap_or_default()));
            }
            continue;
        }
        let Some(line) = line.strip_prefix("H\t") else {
            continue;
        };
        let fields: Vec<&str> = line.split('\t').collect();
        let (Some(key), Some(line_no), Some(text)) = (
            fields.first().and_then(|k| unescape_field(k)),
            fields.get(1).and_then(|n| n.parse::<usize>().ok()),
            fields.get(2),
        ) else {
            continue;
        };
        let Some(d) = defs.iter().find(|d| d.key == key) else {
            continue;
        };
        let hit = Hit {
            line_no,
            // Spark's views read the whole hit as group 0.
            text: unescape_field(text),
            fields: d
                .fields
                .iter()
                .zip(fields.iter().skip(3))
                .map(|(f, v)| (f.name.clone(), unescape_field(v)))
                .collect(),
        };
        if let Some(Ok(hits)) = out.get_mut(&key) {
            hits.push(hit);
        }
    }
    for hits in out.values_mut().flatten() {
        hits.sort();
    }
    Ok(out)
}
