//! `rxw audit PATH… -p PATTERN…`: the N paths x M patterns matrix as a CI gate.
//!
//! A pattern on the command line (or a line of a `--patterns` file) is one of:
//! - `text`: a substring, named after itself;
//! - `name=text`: a named substring (`=a=b` is the unnamed substring `a=b`);
//! - `name=/regex/` or `/regex/`: a regex in `--flavor` with `--flags` (a substring that
//!   starts and ends with `/` must be written as a regex, e.g. `/\/usr\//`).
//!
//! A `--patterns` file ending in `.toml` holds `[[patterns]]` tables with `pattern`, and
//! optionally `name`, `regex = true`, `flavor`, `flags` (`{pattern, name, regex?}`, as the agent audit tool takes them).
//!
//! Output: `--format table` (default), `json`, `csv`, or `counts` (the table with occurrence
//! counts). `--counts` switches any format to counts, so `--format json --counts` is the JSON
//! matrix with numbers. Exit codes: 2 when a row could not be read or a pattern is invalid
//! (always after the whole matrix is printed), else 1 when `--require-all` finds a ❌ or
//! `--forbid-any` a ✅, else 0.

use super::style::{Layout, inert};
use super::{Outcome, parse_flavor};
use crate::audit::{self, AuditPattern, CellMode, PathSource, Report, ScanOptions, WalkOptions};
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use clap::{Args, ValueEnum};
use serde::Deserialize;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

/// `rxw audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Files or directories to audit (directories are walked, sorted); `-` reads a list of
    /// paths from standard input, one a line.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// A pattern: `text`, `name=text`, or `name=/regex/` (repeatable; one column each).
    #[arg(short = 'p', long = "pattern", value_name = "PATTERN")]
    pub patterns: Vec<String>,
    /// A preset from the registry as a regex column named after its key (repeatable, or
    /// comma-separated: `--preset verb,uuid`).
    #[arg(long = "preset", value_name = "KEY", value_delimiter = ',')]
    pub presets: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub registries: super::preset::RegistryArgs,
    /// Read patterns from FILE: one a line in the `-p` syntax (`#` comments), or TOML
    /// `[[patterns]]` tables when it ends in `.toml`.
    #[arg(long = "patterns", value_name = "FILE")]
    pub pattern_files: Vec<PathBuf>,
    /// Read the paths to audit from FILE (`-`: standard input), one a line, taken literally.
    #[arg(long, value_name = "FILE")]
    pub paths_from: Option<PathBuf>,
    /// The flavor (help written from the flavor table).
    #[arg(long, default_value = "python", help = super::flavor_help(), value_parser = parse_flavor)]
    pub flavor: Flavor,
    /// Flag letters for regex patterns (as in `rxw find`).
    #[arg(long, default_value = "")]
    pub flags: String,
    /// Case-insensitive: substrings fold case (Unicode for non-ASCII), regexes get `i`.
    #[arg(short = 'i', long)]
    pub ignore_case: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: AuditFormat,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub time: super::TimeArgs,
    /// Cells count occurrences instead of yes / no (with any format).
    #[arg(long)]
    pub counts: bool,
    /// Walk hidden files and directories too.
    #[arg(long)]
    pub hidden: bool,
    /// Only files matching this glob (gitignore syntax; `!glob` excludes); repeatable. As in
    /// ripgrep, a file a glob selects is audited even when an ignore file lists it.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,
    /// Do not descend more than N levels into a directory (1: its own files).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,
    /// Do not read `.gitignore` / `.ignore` files.
    #[arg(long)]
    pub no_ignore: bool,
    /// Files larger than this are reported, not read (bytes, or with K, M, G suffix).
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size)]
    pub max_filesize: u64,
    /// Audit files with NUL bytes too (they are reported as binary otherwise).
    #[arg(long)]
    pub binary: bool,
    /// Exit 1, naming them, when any cell is ❌.
    #[arg(long)]
    pub require_all: bool,
    /// Exit 1, naming them, when any cell is ✅.
    #[arg(long)]
    pub forbid_any: bool,
    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
}

/// `--format` choices.
#[derive(Debug, Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum AuditFormat {
    /// The markdown table with ✅ ❌ ⚠️ and the usage line.
    #[default]
    Table,
    /// `{"rows":[…],"usage":{…}}`.
    Json,
    /// The markdown table with occurrence counts (same as `--format table --counts`).
    Counts,
    /// Comma-separated values.
    Csv,
}

/// Parses `123`, `10K`, `256M`, `1G` (powers of 1024).
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m: u64 = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => return Err(format!("unknown size suffix {c:?} (use K, M or G)")),
            };
            (&t[..i], m)
        }
        _ => (t, 1),
    };
    let n: u64 = digits.parse().map_err(|_| format!("invalid size {s:?}"))?;
    n.checked_mul(mult)
        .ok_or_else(|| format!("size {s:?} is too large"))
}

/// A pattern as written, before compiling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternSpec {
    /// The column name.
    pub name: String,
    /// The substring or the regex source.
    pub body: String,
    /// Whether `body` is a regex.
    pub regex: bool,
    /// A per-pattern flavor (TOML), else `--flavor`.
    pub flavor: Option<Flavor>,
    /// Per-pattern flag letters (TOML), else `--flags`.
    pub flags: Option<String>,
}

/// Parses the `-p` syntax: `text`, `name=text`, `name=/regex/`, `/regex/`.
pub fn parse_spec(s: &str) -> PatternSpec {
    let (name, value) = match s.split_once('=') {
        Some((n, v)) if !v.is_empty() => (Some(n), v),
        _ => (None, s),
    };
    let is_regex = value.len() >= 2 && value.starts_with('/') && value.ends_with('/');
    let body = if is_regex {
        &value[1..value.len() - 1]
    } else {
        value
    };
    let name = match name {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => value.to_string(),
    };
    PatternSpec {
        name,
        body: body.to_string(),
        regex: is_regex,
        flavor: None,
        flags: None,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPatterns {
    patterns: Vec<TomlPattern>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPattern {
    pattern: String,
    name: Option<String>,
    #[serde(default)]
    regex: bool,
    flavor: Option<String>,
    flags: Option<String>,
}

/// Reads a `--patterns` file.
///
/// # Errors
/// [`ErrorKind::Io`] when it cannot be read, [`ErrorKind::PatternInvalid`] for bad TOML.
pub fn read_pattern_file(path: &Path) -> Result<Vec<PatternSpec>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
    {
        let doc: TomlPatterns = toml::from_str(&text).map_err(|e| {
            Error::new(
                ErrorKind::PatternInvalid,
                format!("{}: {e}", path.display()),
            )
        })?;
        return doc
            .patterns
            .into_iter()
            .map(|p| {
                let flavor = match p.flavor {
                    Some(f) => Some(f.parse::<Flavor>().map_err(|e| {
                        Error::new(
                            ErrorKind::PatternInvalid,
                            format!("{}: {e}", path.display()),
                        )
                    })?),
                    None => None,
                };
                Ok(PatternSpec {
                    name: p.name.unwrap_or_else(|| p.pattern.clone()),
                    body: p.pattern,
                    regex: p.regex,
                    flavor,
                    flags: p.flags,
                })
            })
            .collect();
    }
    Ok(text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(parse_spec)
        .collect())
}

/// Compiles a spec; a failure becomes an invalid column plus the error to report.
fn compile(spec: &PatternSpec, args: &AuditArgs) -> (AuditPattern, Option<Error>) {
    let built = if spec.regex {
        let flavor = spec.flavor.unwrap_or(args.flavor);
        let letters = spec.flags.as_deref().unwrap_or(&args.flags);
        Flags::parse(letters, flavor)
            .map_err(Error::from)
            .and_then(|f| {
                AuditPattern::regex_ci(&spec.name, &spec.body, flavor, f, args.ignore_case)
            })
    } else {
        AuditPattern::named_substring(&spec.name, &spec.body)
    };
    match built {
        Ok(p) => (p, None),
        Err(e) => (AuditPattern::invalid(&spec.name, e.clone()), Some(e)),
    }
}

/// Reads a list of paths, one a line, as raw bytes: a name that is not UTF-8 is still a path
/// (shown escaped), and a list that fails part-way keeps what it gave plus a ⚠️ row naming
/// the list. `list` is what that row calls it.
fn read_list(r: impl Read, list: &str, out: &mut Vec<PathSource>) {
    let mut reader = std::io::BufReader::new(r);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => {
                out.push(PathSource::unusable(
                    list,
                    format!("could not read the rest of the path list: {e}"),
                ));
                return;
            }
        }
        let entry = line.strip_suffix(b"\n").unwrap_or(&line);
        let entry = entry.strip_suffix(b"\r").unwrap_or(entry);
        if !entry.is_empty() {
            out.push(PathSource::listed_bytes(entry));
        }
    }
}

fn sources(args: &AuditArgs) -> Result<Vec<PathSource>, Error> {
    let mut out = Vec::new();
    let mut stdin_used = false;
    for p in &args.paths {
        if p.as_os_str() == "-" {
            if !stdin_used {
                read_list(std::io::stdin().lock(), "(standard input)", &mut out);
                stdin_used = true;
            }
        } else {
            out.push(PathSource::argument(p));
        }
    }
    if let Some(f) = &args.paths_from {
        if f.as_os_str() == "-" {
            if !stdin_used {
                read_list(std::io::stdin().lock(), "(standard input)", &mut out);
            }
        } else {
            let file = std::fs::File::open(f)
                .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", f.display())))?;
            read_list(file, &f.display().to_string(), &mut out);
        }
    }
    Ok(out)
}

/// Says on `err` the cells check `option` refuses (each shown as `mark` in the matrix), when
/// there are any; whether there were.
fn refuse_cells(option: &str, mark: &str, cells: &[(&str, &str)], err: &mut dyn Write) -> bool {
    if cells.is_empty() {
        return false;
    }
    let _ = writeln!(
        err,
        "rxw: {option}: {} cell(s) are {mark}:\n  {}",
        cells.len(),
        list_cells(cells)
    );
    true
}

fn list_cells(cells: &[(&str, &str)]) -> String {
    const SHOWN: usize = 20;
    let mut s: Vec<String> = cells
        .iter()
        .take(SHOWN)
        .map(|(p, n)| {
            format!(
                "{} × {}",
                inert(p, Layout::OneLine),
                inert(n, Layout::OneLine)
            )
        })
        .collect();
    if cells.len() > SHOWN {
        s.push(format!("… and {} more", cells.len() - SHOWN));
    }
    s.join("\n  ")
}

/// Runs `rxw audit`.
///
/// # Errors
/// No patterns or paths, an unreadable pattern or path list, a bad `--glob`; write failures.
pub fn run(args: &AuditArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let mut specs: Vec<PatternSpec> = args.patterns.iter().map(|p| parse_spec(p)).collect();
    for f in &args.pattern_files {
        specs.extend(read_pattern_file(f)?);
    }
    // A `--registry` given is checked even without `--preset`: a broken one is an error.
    let mut warnings = Vec::new();
    if !args.presets.is_empty() || !args.registries.registry.is_empty() {
        let registries = super::preset::load(&args.registries, err)?;
        warnings = registries.warnings;
        let catalog = registries.catalog;
        for key in &args.presets {
            let entry = catalog.require(key.trim())?;
            specs.push(PatternSpec {
                name: entry.preset.key.clone(),
                body: entry.preset.pattern.clone(),
                regex: true,
                flavor: Some(entry.preset.flavor),
                flags: Some(entry.preset.flags.clone()),
            });
        }
    }
    if specs.is_empty() {
        return Err(Error::new(
            ErrorKind::PatternInvalid,
            "no patterns: give -p PATTERN, --preset KEY or --patterns FILE",
        )
        .into());
    }
    let sources = sources(args)?;
    if sources.is_empty() {
        return Err(Error::new(
            ErrorKind::Io,
            "no paths: give PATH…, `-` or --paths-from FILE",
        )
        .into());
    }
    let mut patterns = Vec::with_capacity(specs.len());
    let mut pattern_errors = Vec::new();
    for spec in &specs {
        let (p, e) = compile(spec, args);
        if let Some(e) = e {
            pattern_errors.push((spec.name.clone(), e));
        }
        patterns.push(p);
    }
    audit::check_names(&patterns)?;
    let mode = if args.counts || args.format == AuditFormat::Counts {
        CellMode::Counts
    } else {
        CellMode::Presence
    };
    let walk = WalkOptions {
        hidden: args.hidden,
        globs: args.globs.clone(),
        max_depth: args.max_depth,
        no_ignore: args.no_ignore,
    };
    let scan = ScanOptions {
        ignore_case: args.ignore_case,
        mode,
        max_filesize: args.max_filesize,
        binary: args.binary,
        threads: args.threads.unwrap_or(0),
        within: Vec::new(),
        read: Some(std::sync::Arc::default()),
        time: args.time.range()?,
    };
    // The files are found as they are read: the line says the bytes read, not a share.
    let mut progress = super::progress::Progress::start(
        "auditing",
        scan.read
            .iter()
            .map(|read| crate::input::logs::SourceProgress::new(std::sync::Arc::clone(read), None))
            .collect(),
    );
    let report = audit::audit(&sources, &patterns, &walk, &scan);
    progress.finish();
    let mut report = report?;
    report.warnings = warnings;
    let mut buf = std::io::BufWriter::new(&mut *out);
    match args.format {
        AuditFormat::Table | AuditFormat::Counts => audit::render::table(&report, &mut buf)?,
        AuditFormat::Json => audit::render::json(&report, &mut buf)?,
        AuditFormat::Csv => audit::render::csv(&report, &mut buf)?,
    }
    buf.flush()?;
    drop(buf);
    Ok(verdict(args, &report, &pattern_errors, err))
}

fn verdict(
    args: &AuditArgs,
    report: &Report,
    pattern_errors: &[(String, Error)],
    err: &mut dyn Write,
) -> i32 {
    let mut code = 0;
    if args.require_all && refuse_cells("--require-all", "❌", &report.missing_cells(), err) {
        code = 1;
    }
    if args.forbid_any && refuse_cells("--forbid-any", "✅", &report.present_cells(), err) {
        code = 1;
    }
    for (name, e) in pattern_errors {
        super::write_error_text(err, &format!("pattern {}", super::style::quoted(name)), e);
    }
    let unreadable = report.rows.iter().filter(|r| r.error.is_some()).count();
    if report.has_errors() {
        if unreadable > 0 {
            let _ = writeln!(
                err,
                "rxw: {unreadable} row(s) have unknown (⚠️) cells; see the matrix"
            );
        }
        code = 2;
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_syntax() {
        // (spec, name, body, regex)
        let cases = [
            ("ACK:", "ACK:", "ACK:", false),
            (
                "ids=/\\[WO:[0-9a-f]+\\]/",
                "ids",
                "\\[WO:[0-9a-f]+\\]",
                true,
            ),
            ("=a=b", "a=b", "a=b", false),
            ("/x+/", "/x+/", "x+", true),
            ("k=", "k=", "k=", false),
        ];
        for (spec, name, body, regex) in cases {
            let s = parse_spec(spec);
            assert_eq!(
                (s.name.as_str(), s.body.as_str(), s.regex),
                (name, body, regex),
                "{spec}"
            );
        }
        let s = parse_spec("/usr/lib");
        assert!(!s.regex);
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("256M"), Ok(256 << 20));
        assert_eq!(parse_size("10k"), Ok(10 << 10));
        assert_eq!(parse_size("17"), Ok(17));
        assert!(parse_size("1T").is_err());
        assert!(parse_size("x").is_err());
    }
}
