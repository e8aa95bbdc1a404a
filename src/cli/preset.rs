//! `rxw preset list|show|test|get|check` and `rxw parse`.
//!
//! Registries: the built-ins, then `*.toml` / `*.json` in rxw's config directory, then every
//! `--registry FILE`. A `--registry` file that fails to load (the user asked for it) is an
//! error: the command does not run, exit 2, a JSON error object under `--json`. A
//! config-directory file that fails is a warning (stderr, and `warnings` in JSON objects):
//! it is skipped and the other presets keep working. See `load`.

use super::inputs::{self, CHUNK, TextInput};
use super::match_line::LineIndex;
use super::style::{Layout, inert, quoted};
use super::to_json;
use super::{CliError, ColorChoice, Outcome, load_text, style, use_color};
use crate::highlight::Kind;
use crate::presets::parse_all::Windows;
use crate::presets::per_record::{Found, Pass, detects_records};
use crate::presets::{self, CaseKind, Catalog, Entry, LoadOptions, Scanner};
use crate::wire;
use crate::wire::{HitRecord, SourceLine, Sourced};
use crate::workbench::follow::matches_independent_of_other_lines;
use crate::{Error, ErrorKind, Match};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;

/// Where presets come from, shared by every preset-using command.
#[derive(Debug, Args, Clone, Default)]
pub struct RegistryArgs {
    /// Also load this registry file (TOML, or JSON by extension); repeatable. Its keys win
    /// over the built-in ones.
    #[arg(long = "registry", value_name = "FILE", global = true)]
    pub registry: Vec<PathBuf>,
}

/// `rxw preset`.
#[derive(Debug, Args)]
pub struct PresetArgs {
    #[command(subcommand)]
    #[allow(missing_docs)]
    pub command: PresetCommand,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub registries: RegistryArgs,
}

/// The preset subcommands.
#[derive(Debug, Subcommand)]
pub enum PresetCommand {
    /// A table of every preset: key, flavor, flags, purpose.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// A preset's pattern, flags, flavor and groups with their descriptions.
    Show {
        /// The preset key.
        key: String,
        /// When to colour the output.
        #[arg(long, value_enum, default_value_t)]
        color: ColorChoice,
    },
    /// Does the preset match the text? Shows the first match's groups; exit 0 / 1.
    Test {
        /// The preset key.
        key: String,
        /// The text (default: --file, or standard input).
        text: Option<String>,
        /// Read the text from this file (`-`: standard input).
        #[arg(long, value_name = "PATH")]
        file: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// When to colour the output.
        #[arg(long, value_enum, default_value_t)]
        color: ColorChoice,
    },
    /// The raw definition (TOML; JSON with --json), for programs.
    Get {
        /// The preset key.
        key: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Runs every example and counter-example and checks each pattern for ReDoS (a verdict per
    /// preset, proved on an attack string); exit 1 if any fails or is vulnerable (2 if a
    /// registry is bad).
    Check {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `rxw parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// Files, directories or globs to read, as grep and ripgrep take them (`-`: standard
    /// input; gzip, zstd, bzip2 and xz are decoded; several are merged by each line's
    /// leading timestamp). None: standard input when it is not a terminal. A path that does
    /// not exist is an error, never parsed as text.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Parse this text instead of reading files or standard input.
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["paths", "file"])]
    pub text: Option<String>,
    /// A file to read, as a PATH is (kept for scripts written before paths were positional;
    /// `-`: standard input).
    #[arg(long, value_name = "PATH")]
    pub file: Vec<PathBuf>,
    /// Only these preset keys (comma-separated).
    #[arg(long, value_name = "KEY,…", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Print JSON: `[{"key","index","end","match","groups"}]`.
    #[arg(long, conflicts_with_all = ["jsonl", "csv"])]
    pub json: bool,
    /// Stream JSON Lines: one hit a line, in the shape of `--json`'s elements, flushed as
    /// hits are found.
    #[arg(long, conflicts_with_all = ["count", "csv"])]
    pub jsonl: bool,
    /// With --jsonl or --csv: flush after every hit (default: at least every 100 ms while hits
    /// come, and at the end).
    #[arg(long)]
    pub line_buffered: bool,
    /// Stream CSV: `key,index,end,match,groups` (groups as a JSON object), with a header.
    #[arg(long, conflicts_with = "count")]
    pub csv: bool,
    /// Write the hits to this file instead of standard output, atomically (it appears whole
    /// or not at all; a link's file is replaced, a device or FIFO written in place): JSON
    /// Lines, or CSV with --csv or a `.csv` name.
    #[arg(long, short = 'o', value_name = "FILE", conflicts_with_all = ["count", "json"])]
    pub output: Option<PathBuf>,
    /// Print the number of hits only (JSON: with a count per key).
    #[arg(long)]
    pub count: bool,
    /// Print, as JSON, what the hit records hold and each preset's groups with their types,
    /// with the statements that load `--jsonl` output into ClickHouse and DuckDB; reads no
    /// text.
    #[arg(long, conflicts_with_all = ["text", "paths", "file", "json", "jsonl", "csv", "output", "count"])]
    pub schema: bool,
    /// Most decoded bytes a text read whole may hold in memory (`512M`, `2G`; 0: no cap;
    /// default: a quarter of the memory available). A decompression bomb stops there, said.
    #[arg(long, value_name = "SIZE", value_parser = crate::input::room::parse_size)]
    pub max_decoded: Option<u64>,
    /// Threads for --count (presets are counted in parallel; default: the CPUs).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// How a log's lines make records, whose messages the presets run on as NetVM runs them:
    /// `netvm` (`TIME SENDER: message`, indented lines continue it), `jsonl` (the `msg` or
    /// `message` field of each JSON line), `logfmt` (the `msg` value of each `key=value`
    /// line), `syslog` (RFC 3164 or 5424: the text after the header), `lines` (the text as
    /// is), a format of the config directory's `formats/` by name, or a format file
    /// `FILE.toml`. Default: detected from each log's first lines, the built-in formats
    /// first, then the user's.
    #[arg(long, value_name = "FORMAT", value_parser = super::log_format)]
    pub format: Option<crate::input::format::LogFormat>,
    /// JSON Lines and logfmt records' fields under other keys than their common names:
    /// `--field time=ts2,message=body` (NAME=KEY, NAME one of time, message, sender, level;
    /// a NAME given twice lists its keys in order of preference). The keys given replace
    /// that field's common names (`msg`/`message`, `ts`/`time`/`timestamp`/`@timestamp`,
    /// `agent`/`source`/`logger`, `level`/`severity`); the other fields keep theirs.
    #[arg(long = "field", value_name = "NAME=KEY,…", value_delimiter = ',')]
    pub fields: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub time: super::TimeArgs,
    /// When to colour the output.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub registries: RegistryArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub budget: super::BudgetArgs,
}

impl PresetArgs {
    /// Whether errors should be printed as JSON.
    pub fn json(&self) -> bool {
        match &self.command {
            PresetCommand::List { json }
            | PresetCommand::Test { json, .. }
            | PresetCommand::Get { json, .. }
            | PresetCommand::Check { json } => *json,
            PresetCommand::Show { .. } => false,
        }
    }
}

/// The presets in force for one command, and what was skipped on the way.
pub(crate) struct Registries {
    /// Built-ins overlaid with every user registry that loaded.
    pub catalog: Catalog,
    /// One message per auto-loaded (config directory) registry that was skipped; JSON
    /// outputs that are objects carry them as `warnings`.
    pub warnings: Vec<String>,
}

/// Loads the registries with one rule for broken files:
/// - a file named with `--registry` that cannot be loaded is an error: the command does not
///   run, exit 2 (`{"error":{"kind":"registry_invalid"…}}` under `--json`);
/// - a file found in the config directory that cannot be loaded is a warning (stderr, and
///   `warnings` in JSON objects): it is skipped and the built-ins keep working.
///
/// Notices about shadowed keys go to stderr.
///
/// # Errors
/// The first `--registry` file that failed (any others are said on stderr).
pub(crate) fn load(reg: &RegistryArgs, err: &mut dyn Write) -> Result<Registries, Error> {
    let loaded = presets::load(&LoadOptions::with_user_config(reg.registry.clone()));
    let mut first_explicit = None;
    let mut warnings = Vec::new();
    for f in loaded.failures {
        if f.explicit {
            if first_explicit.is_none() {
                first_explicit = Some(f.error);
            } else {
                write_error(err, "error", &f.error);
            }
        } else {
            write_error(err, "warning: skipped registry", &f.error);
            warnings.push(format!("skipped registry: {}", f.error.message));
        }
    }
    if let Some(e) = first_explicit {
        return Err(e);
    }
    for n in &loaded.notices {
        let _ = writeln!(err, "rxw: note: {}", inert(n, Layout::Lines));
    }
    Ok(Registries {
        catalog: loaded.catalog,
        warnings,
    })
}

fn write_error(err: &mut dyn Write, what: &str, e: &Error) {
    super::write_error_text(err, what, e);
}

/// `doc` as one line of JSON with `warnings` beside its fields when there are any.
pub(crate) fn with_warnings<T: serde::Serialize>(doc: T, warnings: &[String]) -> String {
    to_json(&wire::WithWarnings { doc, warnings })
}

/// `rxw preset …`.
pub fn preset(a: &PresetArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let Registries { catalog, warnings } = load(&a.registries, err)?;
    let warnings = &warnings;
    Ok(match &a.command {
        PresetCommand::List { json } => list(&catalog, *json, out)?,
        PresetCommand::Show { key, color } => show(catalog.require(key)?, use_color(*color), out)?,
        PresetCommand::Test {
            key,
            text,
            file,
            json,
            color,
        } => {
            let entry = catalog.require(key)?;
            let text = load_text(text.as_deref(), file.as_ref())?;
            if let Some(w) = text.warning() {
                writeln!(err, "rxw: warning: {w}")?;
            }
            test(
                entry,
                text.as_str(),
                *json,
                warnings,
                use_color(*color),
                out,
            )?
        }
        PresetCommand::Get { key, json } => get(catalog.require(key)?, *json, out)?,
        PresetCommand::Check { json } => check(&catalog, *json, warnings, out)?,
    })
}

fn list(catalog: &Catalog, json: bool, out: &mut dyn Write) -> Result<i32, CliError> {
    if json {
        let rows: Vec<wire::PresetRow> =
            catalog.entries().iter().map(wire::PresetRow::new).collect();
        writeln!(out, "{}", to_json(&rows))?;
        return Ok(0);
    }
    let width = catalog
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    // The flavor column as wide as its longest name (`python@3.11`, as the registry names it).
    let flavors = catalog
        .entries()
        .iter()
        .map(|e| e.preset.flavor.name().len())
        .max()
        .unwrap_or(6)
        .max(6);
    writeln!(
        out,
        "{:width$}  {:flavors$}  {:5}  PURPOSE",
        "KEY", "FLAVOR", "FLAGS"
    )?;
    for e in catalog.entries() {
        let origin = match &e.origin {
            presets::Origin::BuiltIn => String::new(),
            o => format!("  [{o}]"),
        };
        writeln!(
            out,
            "{:width$}  {:flavors$}  {:5}  {}{}",
            inert(&e.preset.key, Layout::OneLine),
            e.preset.flavor.name(),
            inert(&e.preset.flags, Layout::OneLine),
            inert(&e.preset.purpose, Layout::OneLine),
            inert(&origin, Layout::OneLine)
        )?;
    }
    Ok(0)
}

fn show(entry: &Entry, color: bool, out: &mut dyn Write) -> Result<i32, CliError> {
    let p = &entry.preset;
    // A user registry is text from outside: every piece of it is shown inert.
    let one_line = |s: &str| inert(s, Layout::OneLine).into_owned();
    writeln!(
        out,
        "{}  {}",
        style::paint(&one_line(&p.key), Kind::Name, color),
        one_line(&p.purpose)
    )?;
    writeln!(out, "flavor   {}", p.flavor)?;
    writeln!(
        out,
        "flags    {}",
        if p.flags.is_empty() {
            "(none)".to_string()
        } else {
            one_line(&p.flags)
        }
    )?;
    writeln!(out, "origin   {}", one_line(&entry.origin.to_string()))?;
    writeln!(
        out,
        "engine   {}",
        entry.regex()?.engine_kind_typical().name()
    )?;
    writeln!(out, "pattern  {}", one_line(&p.pattern))?;
    let names = entry.group_names();
    if names.is_empty() {
        writeln!(out, "groups   (none)")?;
    } else {
        writeln!(out, "groups")?;
        let labels: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                name.as_deref()
                    .map_or_else(|| (i + 1).to_string(), one_line)
            })
            .collect();
        let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
        for (i, (name, label)) in names.iter().zip(&labels).enumerate() {
            let desc = name
                .as_deref()
                .and_then(|n| entry.group_description(n))
                .map_or_else(|| "(no description)".to_string(), one_line);
            writeln!(
                out,
                "  {:>2}  {:width$}  {desc}",
                i + 1,
                style::paint(&format!("{label:width$}"), Kind::Group(i), color)
            )?;
        }
    }
    if let Some(notes) = &p.notes {
        writeln!(out, "notes    {}", inert(notes, Layout::Lines))?;
    }
    writeln!(
        out,
        "tests    {} examples, {} counter-examples (rxw preset check)",
        p.examples.len(),
        p.counter_examples.len()
    )?;
    // The explain tree and the lints, from the same parse the engine compiled.
    let explanation = crate::syntax::explain::explain(
        entry.ast()?,
        &p.pattern,
        entry.preset.flavor,
        crate::Limits::human().max_explain_nodes,
    )?;
    writeln!(out, "\nexplain")?;
    let paint = |s: &str, k| style::paint(&inert(s, Layout::OneLine), k, color);
    let rendered = explanation.render_text(&p.pattern, &paint);
    if color {
        // The painted pieces are inert already; the rest is rxw's own wording.
        out.write_all(rendered.as_bytes())?;
    } else {
        out.write_all(inert(&rendered, Layout::Lines).as_bytes())?;
    }
    Ok(0)
}

fn test(
    entry: &Entry,
    text: &str,
    json: bool,
    warnings: &[String],
    color: bool,
    out: &mut dyn Write,
) -> Result<i32, CliError> {
    let first = entry.regex()?.find_all(text, Some(1))?.into_iter().next();
    if json {
        let hit = match &first {
            Some(m) => Some(wire::PresetHit {
                index: m.start(),
                end: m.end(),
                text: m.as_str(text),
                groups: wire::Groups::of(entry.regex()?, text, m),
            }),
            None => None,
        };
        let v = wire::PresetTest {
            matched: hit.is_some(),
            key: &entry.preset.key,
            hit,
        };
        writeln!(out, "{}", with_warnings(v, warnings))?;
    } else {
        match &first {
            Some(m) => {
                let (line, col) = LineIndex::new(text).locate(m.start());
                writeln!(
                    out,
                    "match at {line}:{col}: {}",
                    style::paint(&inert(m.as_str(text), Layout::OneLine), Kind::Match, color)
                )?;
                write_groups(entry, text, m, color, out)?;
            }
            None => writeln!(out, "no match")?,
        }
    }
    Ok(if first.is_some() { 0 } else { 1 })
}

fn write_groups(
    entry: &Entry,
    text: &str,
    m: &Match,
    color: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let names = entry.group_names();
    let width = names
        .iter()
        .map(|n| n.as_deref().map_or(1, |s| s.chars().count()))
        .max()
        .unwrap_or(0);
    for (i, name) in names.iter().enumerate() {
        let label = name.clone().unwrap_or_else(|| (i + 1).to_string());
        let value = m
            .group(text, i + 1)
            .map_or_else(|| "∅ (did not take part)".to_string(), quoted);
        writeln!(
            out,
            "  {}  {}",
            style::paint(&format!("{label:width$}"), Kind::Name, color),
            style::paint(&value, Kind::Group(i), color)
        )?;
    }
    Ok(())
}

fn get(entry: &Entry, json: bool, out: &mut dyn Write) -> Result<i32, CliError> {
    if json {
        let v = serde_json::to_string_pretty(&entry.preset)
            .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
        writeln!(out, "{v}")?;
    } else {
        #[derive(serde::Serialize)]
        struct One<'a> {
            preset: [&'a presets::Preset; 1],
        }
        let v = toml::to_string(&One {
            preset: [&entry.preset],
        })
        .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
        write!(out, "{v}")?;
    }
    Ok(0)
}

fn check(
    catalog: &Catalog,
    json: bool,
    warnings: &[String],
    out: &mut dyn Write,
) -> Result<i32, CliError> {
    let results = presets::check(catalog);
    let failed = results.iter().filter(|r| !r.passed()).count();
    if json {
        let v = wire::CheckDoc {
            passed: results.len() - failed,
            failed,
            cases: &results,
        };
        writeln!(out, "{}", with_warnings(v, warnings))?;
    } else {
        for r in &results {
            let what = match r.kind {
                CaseKind::Example => format!("example {}", r.number),
                CaseKind::CounterExample => format!("counter-example {}", r.number),
                CaseKind::GroupsDocumented => "groups documented".to_string(),
                CaseKind::Redos => format!(
                    "redos {}",
                    r.redos.as_ref().map_or("not checked", |v| v.verdict.name())
                ),
            };
            let shown = if r.text.is_empty() {
                String::new()
            } else {
                format!(": {}", inert(&r.text, Layout::OneLine))
            };
            match &r.failure {
                None => writeln!(
                    out,
                    "ok    {} {what}{shown}",
                    inert(&r.key, Layout::OneLine)
                )?,
                Some(why) => writeln!(
                    out,
                    "FAIL  {} {what}{shown}\n      {}",
                    inert(&r.key, Layout::OneLine),
                    inert(why, Layout::Lines)
                )?,
            }
        }
        writeln!(out, "{} passed, {failed} failed", results.len() - failed)?;
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// `rxw parse`: a scan's budget error names the option that raises it.
pub fn parse(a: &ParseArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    parse_within(a, out, err).map_err(|e| match e {
        CliError::Rx(e) => CliError::Rx(a.budget.explain(e)),
        e => e,
    })
}

fn parse_within(a: &ParseArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let Registries { catalog, warnings } = load(&a.registries, err)?;
    let entries: Vec<&Entry> = if a.only.is_empty() {
        catalog.entries().iter().collect()
    } else {
        a.only
            .iter()
            .map(|k| catalog.require(k.trim()))
            .collect::<Result<_, _>>()?
    };
    if a.schema {
        let doc = crate::fleet::schema::parse_schema(&entries)?;
        writeln!(out, "{}", to_json(&doc))?;
        return Ok(0);
    }
    let limits = a.budget.limits();
    // The deadline is the whole scan's; the step budget each preset's over a chunk of lines.
    let mut scanner = Scanner::new(entries).with_budget(
        limits.time_budget.map(|d| std::time::Instant::now() + d),
        limits.max_total_steps,
    );
    if let Some(t) = a.threads {
        scanner = scanner.with_threads(t);
    }
    // Presets that cannot see past their line are counted a chunk of lines at a time; hits
    // are listed a chunk at a time when every preset settles before the end of the text
    // (`Windows`), so memory does not grow with the logs. Otherwise the text is read whole.
    // A log of records (detected, or `--format`) runs the presets on each message instead, a
    // chunk of whole records at a time.
    let local = scanner
        .entries()
        .iter()
        .all(|e| e.regex().is_ok_and(matches_independent_of_other_lines));
    let unsettling = if local {
        Vec::new()
    } else {
        Windows::unsettling(&scanner)
    };
    let text_chunk = if local || unsettling.is_empty() {
        CHUNK
    } else {
        usize::MAX
    };
    let forced = a.format;
    if forced.is_none()
        && let Some(e) = crate::input::user_format::configured().errors.first()
    {
        // Detection would try the user's formats: one that did not load is never passed
        // over silently.
        return Err(e.clone().into());
    }
    let chunk = match forced {
        Some(f) if !f.has_records() => text_chunk,
        _ => CHUNK,
    };
    let label = super::find::progress_label(a.count, "counting", "parsing");
    let time = a.time.filter(forced)?;
    if time.is_some() && a.text.is_some() {
        return Err(inputs::time_with_text().into());
    }
    let mut input = TextInput::open_within(a.text.as_deref(), &a.file, chunk, label, time)?;
    let mut first = input.next_chunk();
    let on_records = match forced {
        Some(f) => f.has_records(),
        None => first.as_ref().is_some_and(detects_records),
    };
    if !on_records && chunk != text_chunk {
        first = first.map(|c| input.rest_whole(c));
    }
    let unsettling = if on_records { Vec::new() } else { unsettling };
    let mut chunks = std::iter::from_fn(move || first.take());
    if a.count {
        let mut counts = vec![0usize; scanner.entries().len()];
        let mut pass = Pass::new(&scanner, on_records, forced);
        let mut read = 0usize;
        while let Some(chunk) = chunks.next().or_else(|| input.next_chunk()) {
            read += chunk.text.len();
            if !on_records && (local || !unsettling.is_empty()) {
                // Whole lines (or the whole text): the scanner's fastest counts.
                for (total, n) in counts.iter_mut().zip(scanner.count(chunk.searchable())?) {
                    *total += n;
                }
                continue;
            }
            if let Pass::Records(records) = &mut pass {
                for (total, n) in counts.iter_mut().zip(records.count(chunk)?) {
                    *total += n;
                }
                continue;
            }
            let entries = scanner.entries();
            pass.feed(chunk, false, |hit, _| -> Result<(), CliError> {
                if let Some(i) = entries.iter().position(|e| std::ptr::eq(*e, hit.entry)) {
                    counts[i] += 1;
                }
                Ok(())
            })?;
        }
        note_read_whole(&unsettling, read, a.text.is_some(), err)?;
        note_skipped(&pass, &input, err)?;
        let failures = input.finish(err)?;
        let total = counts.iter().sum::<usize>();
        if a.json && !failures.is_empty() {
            return inputs::conclude(failures, 2, true, out, err);
        }
        let mut out = std::io::BufWriter::new(&mut *out);
        if a.json {
            let by_key = scanner
                .entries()
                .iter()
                .zip(&counts)
                .map(|(e, n)| (e.preset.key.as_str(), *n))
                .collect();
            let v = wire::CountByKey {
                count: total,
                by_key,
                format: formats_read(&pass),
            };
            writeln!(out, "{}", with_warnings(v, &warnings))?;
        } else {
            writeln!(out, "{total}")?;
        }
        out.flush()?;
        drop(out);
        let code = if total > 0 { 0 } else { 1 };
        return inputs::conclude(failures, code, false, &mut std::io::sink(), err);
    }
    let mut next_chunk = move |input: &mut TextInput| chunks.next().or_else(|| input.next_chunk());
    if a.jsonl || a.csv || a.output.is_some() {
        // (Skipped auto-loaded registries were said on stderr: records have no place for them.)
        let mut pass = Pass::new(&scanner, on_records, forced);
        return export_hits(
            a,
            &mut pass,
            &unsettling,
            &mut input,
            &mut next_chunk,
            out,
            err,
        );
    }
    let color = use_color(a.color);
    let mut n = 0usize;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut *out);
    // JSON is one document: the records are kept until the input is read to its end, so a
    // log that broke part way gives the error alone, never half an answer.
    let mut records: Vec<u8> = Vec::new();
    let mut pass = Pass::new(&scanner, on_records, forced);
    let mut read = 0usize;
    while let Some(chunk) = next_chunk(&mut input) {
        read += chunk.text.len();
        pass.feed(chunk, true, |hit, found| -> Result<(), CliError> {
            let text = found.text;
            let place = found.place;
            let m = &hit.m;
            let source = input.source(place.source);
            if a.json {
                records.push(if n == 0 { b'[' } else { b',' });
                let record = sourced_hit(hit, found, source);
                serde_json::to_writer(&mut records, &record).map_err(std::io::Error::from)?;
            } else {
                let at = match source {
                    Some(name) if input.tagged() => {
                        let name = inert(name, Layout::OneLine);
                        format!("{name}:{}:{}:", place.line, place.column)
                    }
                    _ => format!("{}:{}:", place.line, place.column),
                };
                let loc = style::paint(&at, Kind::Location, color);
                write!(
                    out,
                    "{loc} {} {}",
                    style::paint(
                        &inert(&hit.entry.preset.key, Layout::OneLine),
                        Kind::Name,
                        color
                    ),
                    style::paint(&inert(m.as_str(text), Layout::OneLine), Kind::Match, color)
                )?;
                for (i, name) in hit.entry.group_names().iter().enumerate() {
                    let label = name.clone().unwrap_or_else(|| (i + 1).to_string());
                    let value = m.group(text, i + 1).map_or_else(|| "∅".to_string(), quoted);
                    write!(
                        out,
                        "  {}={}",
                        style::paint(&label, Kind::Name, color),
                        style::paint(&value, Kind::Group(i), color)
                    )?;
                }
                writeln!(out)?;
            }
            n += 1;
            Ok(())
        })?;
    }
    note_read_whole(&unsettling, read, a.text.is_some(), err)?;
    note_skipped(&pass, &input, err)?;
    let failures = input.finish(err)?;
    if a.json {
        if !failures.is_empty() {
            let code = inputs::conclude(failures, 2, true, &mut out, err)?;
            out.flush()?;
            return Ok(code);
        }
        if n == 0 {
            records.push(b'[');
        }
        out.write_all(&records)?;
        writeln!(out, "]")?;
    }
    out.flush()?;
    drop(out);
    let code = if n > 0 { 0 } else { 1 };
    inputs::conclude(failures, code, false, &mut std::io::sink(), err)
}

/// A hit's record: offsets in the text of the log it was read from (the text argument's
/// when there is none), or in its record's decoded message; and where it starts in that log.
fn sourced_hit<'a>(
    hit: &crate::presets::Hit<'a>,
    found: Found<'a>,
    source: Option<&'a str>,
) -> Sourced<'a, HitRecord<'a>> {
    let mut record = HitRecord::new(hit.entry, found.text, &hit.m);
    if !found.in_message {
        let at = usize::try_from(found.place.source_offset).unwrap_or(usize::MAX);
        record.index = at;
        record.end = at + hit.m.end() - hit.m.start();
    }
    Sourced {
        record,
        at: source.map(|source| SourceLine {
            source,
            line: found.place.line,
        }),
        offsets: found.in_message.then_some("message"),
    }
}

/// The formats the logs were read as, for `--json`: `None` for a text argument or logs read
/// as is.
fn formats_read(pass: &Pass<'_, '_>) -> Option<String> {
    let records = pass.records()?;
    let mut names: Vec<&str> = Vec::new();
    for f in records.formats().iter().flatten() {
        if !names.contains(&f.name()) {
            names.push(f.name());
        }
    }
    (!names.is_empty()).then(|| names.join(","))
}

/// Says on `err` which lines of a record log were no record (JSON lines that are not JSON,
/// or have no message): counted, the first named, none lost silently.
fn note_skipped(
    pass: &Pass<'_, '_>,
    input: &TextInput,
    err: &mut dyn Write,
) -> Result<(), CliError> {
    let Some(records) = pass.records() else {
        return Ok(());
    };
    inputs::warn_cut_records(records.cut_records(), err)?;
    for (k, s) in records.skipped().iter().enumerate() {
        let Some((line, why)) = s.first else { continue };
        let name = input.source(k).map_or_else(
            || "the text".to_string(),
            |n| inert(n, Layout::OneLine).into_owned(),
        );
        let (lines, are, were) = if s.lines == 1 {
            ("line", "is", "was")
        } else {
            ("lines", "are", "were")
        };
        writeln!(
            err,
            "rxw: warning: {name}: {} {lines} {are} no record and {were} skipped (the first, line {line}: {why})",
            s.lines
        )?;
    }
    Ok(())
}

/// Says on `err` that the logs were read whole (when they were larger than a chunk), for the
/// presets that can match to the end of the text.
fn note_read_whole(
    unsettling: &[&str],
    read: usize,
    argument: bool,
    err: &mut dyn Write,
) -> Result<(), CliError> {
    if unsettling.is_empty() || argument || read <= CHUNK {
        return Ok(());
    }
    let keys = unsettling
        .iter()
        .map(|k| inert(k, Layout::OneLine))
        .collect::<Vec<_>>()
        .join(", ");
    let (s, its) = if unsettling.len() == 1 {
        ("", "its match")
    } else {
        ("s", "their matches")
    };
    writeln!(
        err,
        "rxw: note: the logs were read whole ({} MB) for preset{s} {keys}: {its} can run to the end of the text; without {} (--only) they are read in bounded memory",
        read >> 20,
        if unsettling.len() == 1 { "it" } else { "them" }
    )?;
    Ok(())
}

/// `rxw parse --jsonl | --csv | --output FILE`: hits as records, streamed to standard output
/// (flushed after every hit with `--line-buffered`, else at least every 100 ms while hits
/// come, so a pipeline sees them as they are found without a write per hit) or written
/// atomically to the file. A log that broke part way is said after the records of what was
/// read (exit 2).
fn export_hits(
    a: &ParseArgs,
    pass: &mut Pass<'_, '_>,
    unsettling: &[&str],
    input: &mut TextInput,
    next_chunk: &mut dyn FnMut(&mut TextInput) -> Option<crate::input::chunks::Chunk>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    use crate::export::{self, Format, RecordWriter};
    let format = match (&a.output, a.csv) {
        (_, true) => Format::Csv,
        (Some(path), false) if !a.jsonl => Format::from_path(path),
        _ => Format::JsonLines,
    };
    let mut read = 0usize;
    let read = &mut read;
    let mut write_all = |w: &mut RecordWriter<&mut dyn Write>,
                         input: &mut TextInput|
     -> Result<usize, CliError> {
        let mut last_flush = std::time::Instant::now();
        let mut n = 0;
        while let Some(chunk) = next_chunk(input) {
            *read += chunk.text.len();
            pass.feed(chunk, true, |hit, found| -> Result<(), CliError> {
                let source = input.source(found.place.source);
                w.write(&sourced_hit(hit, found, source))?;
                n += 1;
                if a.line_buffered || last_flush.elapsed() >= std::time::Duration::from_millis(100)
                {
                    w.get_mut().flush()?;
                    last_flush = std::time::Instant::now();
                }
                Ok(())
            })?;
        }
        w.get_mut().flush()?;
        Ok(n)
    };
    let total = match &a.output {
        Some(path) => export::export_to_path(path, format, |w| {
            let mut file: &mut dyn Write = w.get_mut();
            let mut inner = RecordWriter::new(&mut file as &mut dyn Write, format);
            write_all(&mut inner, input).map_err(|e| match e {
                CliError::Rx(e) => e,
                CliError::Io(e) => Error::new(ErrorKind::Io, format!("{}: {e}", path.display())),
            })
        })?,
        None => {
            let mut buffered: &mut dyn Write =
                &mut std::io::BufWriter::with_capacity(1 << 16, &mut *out);
            let mut w = RecordWriter::new(&mut buffered as &mut dyn Write, format);
            write_all(&mut w, input)?
        }
    };
    note_read_whole(unsettling, *read, a.text.is_some(), err)?;
    note_skipped(pass, input, err)?;
    let failures = input.finish(err)?;
    let code = if total > 0 { 0 } else { 1 };
    inputs::conclude(failures, code, false, &mut std::io::sink(), err)
}
