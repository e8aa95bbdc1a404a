//! `rxw registry export` and `rxw registry verify`: the preset registry on a fleet's engines.
//!
//! The translation and the checks are the library's ([`crate::fleet`]); this module loads the
//! registries, writes the file, and runs each exported file on the target's own component:
//! ClickHouse (chDB), DuckDB and Spark SQL (pyspark's local session) through their Python
//! packages, driven by an embedded script that runs the script's statements and prints every
//! hit as JSON; the Vector remap program on Vector's language (`rxw-vrl-check`, the `vrl`
//! crate, a tool built apart from rxw); Loki's `| regexp` stages on Go's regexp (an embedded
//! Go program, `go run`); the Elasticsearch pipelines' grok processors on joni, the
//! Oniguruma port Elasticsearch's grok compiles with (an embedded Java program). Where a
//! component is missing, a stand-in for its regex engine runs instead (the regex crate,
//! google-re2, onigurumacffi, java.util.regex) and every record names it as a stand-in.
//! What no check runs: LogQL's own parser and Vector's config loader (their text around the
//! patterns is checked by rxw's tests only).

use super::Outcome;
use super::preset::{Registries, RegistryArgs, load};
use crate::fleet::engines::{Stop, VerifyOptions, verify_records, verify_targets};
use crate::fleet::render::{self, RenderOptions};
use crate::fleet::{self, Target};
use crate::presets::Entry;
use crate::wire::{ExportRecord, Verdict, VerifyRecord};
use crate::{Error, ErrorKind};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// The engines named by `--to`: one, several (comma-separated) or `all`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Targets(pub Vec<Target>);

fn parse_targets(s: &str) -> Result<Targets, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(Targets(Target::ALL.to_vec()));
    }
    let mut out = Vec::new();
    for name in s.split(',') {
        let t: Target = name.trim().parse()?;
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Ok(Targets(out))
}

impl TargetArgs {
    /// The one target an export writes.
    ///
    /// # Errors
    /// When `--to` names several.
    fn single(&self) -> Result<Target, Error> {
        match self.to.0.as_slice() {
            [one] => Ok(*one),
            _ => Err(Error::new(
                ErrorKind::ArgumentsInvalid,
                "rxw registry export writes one engine's file at a time; several targets (or all) are for rxw registry verify",
            )),
        }
    }

    fn verify_options(&self) -> VerifyOptions {
        VerifyOptions {
            spark_session: self.spark_session,
            stop: Stop::default(),
        }
    }
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
    /// The engine: clickhouse, duckdb, vector, loki, elasticsearch, spark; `verify` also
    /// takes several, comma-separated, or `all` (each engine runs at once).
    #[arg(long, value_parser = parse_targets)]
    pub to: Targets,
    /// Only these preset keys (repeatable, or comma-separated; default: all).
    #[arg(long = "preset", value_name = "KEY", value_delimiter = ',')]
    pub presets: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Spark: verify on a local Spark session (pyspark; about half a minute to start the
    /// JVM) instead of the patterns on java.util.regex with the views' semantics.
    #[arg(long)]
    pub spark_session: bool,
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
            target: args,
            output,
            cluster,
            verify,
        } => {
            let target = args.single()?;
            let entries = select(&catalog, &args.presets)?;
            let exports = fleet::export(&entries, target);
            let opts = RenderOptions {
                cluster: cluster.clone(),
            };
            let text = render::render(target, &exports, &opts);
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
                Some(path) => crate::export::write_atomically(path, text.as_bytes())?,
                // On a terminal the file is shown, not handed on: a preset's text (its
                // purpose, a pattern) may hold controls, shown inert.
                None if !args.json && std::io::IsTerminal::is_terminal(&std::io::stdout()) => out
                    .write_all(
                    super::style::inert(&text, super::style::Layout::Lines).as_bytes(),
                )?,
                None if !args.json => out.write_all(text.as_bytes())?,
                None => {}
            }
            if args.json && !verify {
                let records: Vec<ExportRecord> = exports.iter().map(|e| e.record(target)).collect();
                #[derive(Serialize)]
                struct Doc<'a> {
                    target: &'a str,
                    presets: Vec<ExportRecord>,
                    definitions: &'a str,
                }
                let doc = Doc {
                    target: target.name(),
                    presets: records,
                    definitions: &text,
                };
                writeln!(out, "{}", serde_json::to_string(&doc).expect("serializes"))?;
            }
            if *verify {
                let mut sink = Vec::new();
                let w: &mut dyn Write = if args.json || output.is_some() {
                    out
                } else {
                    &mut sink
                };
                let records = verify_records(&entries, &exports, target, &args.verify_options())?;
                let code = print_records(&[(target, records, None)], args.json, w)?;
                if !args.json && output.is_none() {
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
        RegistryCommand::Verify { target: args } => {
            let entries = select(&catalog, &args.presets)?;
            let runs = verify_targets(&entries, &args.to.0, &args.verify_options());
            let mut done = Vec::new();
            let mut failed = false;
            for run in runs {
                match run.records {
                    Ok(records) => done.push((run.target, records, Some(run.elapsed))),
                    // One engine alone: its error is the command's.
                    Err(e) if args.to.0.len() == 1 => return Err(e.into()),
                    Err(e) => {
                        writeln!(
                            err,
                            "rxw: {}: the engine could not be run: {}",
                            run.target, e.message
                        )?;
                        done.push((run.target, Vec::new(), Some(run.elapsed)));
                        failed = true;
                    }
                }
            }
            let code = print_records(&done, args.json, out)?;
            Ok(if failed { 2 } else { code })
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

/// Prints each target's records (JSON: one array of every record); exit 1 when one differs.
fn print_records(
    runs: &[(Target, Vec<VerifyRecord>, Option<std::time::Duration>)],
    json: bool,
    out: &mut dyn Write,
) -> Outcome {
    let all: Vec<&VerifyRecord> = runs.iter().flat_map(|(_, r, _)| r).collect();
    if json {
        writeln!(out, "{}", serde_json::to_string(&all).expect("serializes"))?;
    } else {
        for (target, records, elapsed) in runs {
            let engine = records
                .first()
                .map(|r| r.engine.as_str())
                .unwrap_or("not run");
            match elapsed {
                Some(t) => writeln!(out, "{target}: {engine} ({:.1} s)", t.as_secs_f64())?,
                None => writeln!(out, "engine: {engine}")?,
            }
            for r in records {
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
    }
    Ok(if all.iter().any(|r| r.verdict == Verdict::Differ) {
        1
    } else {
        0
    })
}
