//! `rxw code`, `rxw generate` and `rxw tests`: authoring from the command line.

use super::style::{Layout, inert, quoted};
use super::{ColorChoice, Outcome, use_color};
use crate::codegen::{self, Lang, highlight};
use crate::error::{Error, ErrorKind};
use crate::generate::{self, Options};
use crate::testcases::{Expect, Suite};
use clap::Args;
use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;

fn parse_lang(s: &str) -> Result<Lang, String> {
    s.parse()
}

/// `rxw code`.
#[derive(Debug, Args)]
pub struct CodeArgs {
    /// The pattern.
    #[arg(allow_hyphen_values = true)]
    pub pattern: String,
    /// The language: rust, python, js, go, java, csharp, ruby (default: the flavor's own).
    #[arg(long, value_parser = parse_lang)]
    pub lang: Option<Lang>,
    /// The pattern's flavor and flag letters.
    #[command(flatten)]
    pub syntax: super::FlavorArgs,
    /// Print one JSON document: the program, its language and file name, the pattern and
    /// flags it compiles, and (with `--nearest`) what it answers differently; an error is
    /// `{"error": …}`.
    #[arg(long)]
    pub json: bool,
    /// When to colour the program.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
    /// Where no exact program exists, write the closest one: a comment block at its top lists
    /// each construct written approximately and the inputs it answers differently (a warning
    /// on standard error; exit 0).
    #[arg(long)]
    pub nearest: bool,
}

/// `rxw generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Example lines (default: one per line on standard input).
    pub examples: Vec<String>,
    /// Generalise digits to `\d`.
    #[arg(long)]
    pub digits: bool,
    /// Generalise repeated substrings to counted quantifiers (`abab` → `(?:ab){2}`).
    #[arg(long)]
    pub repetitions: bool,
    /// Match case-insensitively.
    #[arg(long)]
    pub ignore_case: bool,
    /// Anchor the pattern with `^` and `$` (the default).
    #[arg(long, overrides_with = "no_anchors")]
    pub anchors: bool,
    /// Do not anchor the pattern.
    #[arg(long)]
    pub no_anchors: bool,
}

/// `rxw tests`.
#[derive(Debug, Args)]
pub struct TestsArgs {
    /// The tests file (`pattern:`, `flavor:`, `flags:`, `replace:` lines, then cases).
    pub file: PathBuf,
    /// Instead of running the cases, print them as a test file in this language (python:
    /// pytest, js: node:test, rust: #[test]).
    #[arg(long, value_name = "LANG", value_parser = parse_lang)]
    pub export: Option<Lang>,
}

/// Prints the program, highlighted when colour is on. With `--nearest`, a pattern that cannot
/// be carried over exactly gives the closest program, with its differences listed at its top
/// and as a warning on `err`.
///
/// # Errors
/// The pattern is invalid or cannot be carried over (exit 2, with the caret); with
/// `--nearest`, only what cannot be written even approximately.
pub fn code(args: &CodeArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let (flavor, flags) = (args.syntax.flavor, args.syntax.flags()?);
    let lang = args
        .lang
        .unwrap_or_else(|| flavor.rules().language.parse().unwrap_or_default());
    let (program, differences) = if args.nearest {
        codegen::generate_nearest(&args.pattern, flavor, flags, lang)?
    } else {
        (
            codegen::generate(&args.pattern, flavor, flags, lang)?,
            Vec::new(),
        )
    };
    if args.json {
        let doc = CodeDoc {
            language: lang.name(),
            file_name: program.file_name(),
            flavor: flavor.to_string(),
            pattern: &program.translation.pattern,
            flags: &program.translation.flags,
            verbatim: program.translation.verbatim,
            code: &program.code,
            nearest: args.nearest,
            differences: differences
                .iter()
                .map(|d| DifferenceDoc {
                    construct: &d.construct,
                    inputs: &d.inputs,
                })
                .collect(),
        };
        writeln!(out, "{}", super::to_json(&doc))?;
        return Ok(0);
    }
    if !differences.is_empty() {
        writeln!(
            err,
            "rxw: warning: no exact {} program for this pattern; this is the nearest, and it answers differently on:",
            lang.title()
        )?;
        for d in &differences {
            writeln!(
                err,
                "  {}: {}",
                inert(&d.construct, Layout::OneLine),
                inert(&d.inputs, Layout::OneLine)
            )?;
        }
    }
    if use_color(args.color) {
        let lines = highlight::highlight(&program.code, lang);
        // 24-bit colour only when COLORTERM says the terminal draws it.
        let depth = codegen::xterm::Depth::from_env();
        out.write_all(highlight::to_ansi_at(&lines, depth).as_bytes())?;
    } else {
        out.write_all(program.code.as_bytes())?;
    }
    Ok(0)
}

/// `rxw code --json`.
#[derive(serde::Serialize)]
struct CodeDoc<'a> {
    /// The program's language (`rust`, `python`, …).
    language: &'static str,
    /// The file name the program expects to be saved as.
    file_name: &'static str,
    /// The flavor the pattern was read in.
    flavor: String,
    /// The pattern as the program compiles it (not yet a string literal).
    pattern: &'a str,
    /// The target engine's flag letters (empty after a rewrite).
    flags: &'a str,
    /// Whether the pattern was carried over as written.
    verbatim: bool,
    /// The program's source.
    code: &'a str,
    /// Whether `--nearest` was asked for.
    nearest: bool,
    /// With `--nearest`: each construct written approximately and the inputs it answers
    /// differently.
    differences: Vec<DifferenceDoc<'a>>,
}

#[derive(serde::Serialize)]
struct DifferenceDoc<'a> {
    construct: &'a str,
    inputs: &'a str,
}

/// Prints a pattern generated from the examples.
///
/// # Errors
/// No examples, or standard input cannot be read.
pub fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Outcome {
    let bounds = generate::Bounds::default();
    let examples: Vec<String> = if args.examples.is_empty() {
        // Read no more than the bounds allow: a huge input is refused, not loaded.
        let limit = bounds.max_total_bytes + bounds.max_examples + 1;
        let lines = io::stdin()
            .lock()
            .take(limit as u64)
            .lines()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Error::new(ErrorKind::Io, format!("standard input: {e}")))?;
        let read: usize = lines.iter().map(|l| l.len() + 1).sum();
        if read >= limit {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "standard input is over the limit of {} bytes of examples ({} lines of at most {} bytes)",
                    bounds.max_total_bytes, bounds.max_examples, bounds.max_example_bytes
                ),
            )
            .into());
        }
        lines
    } else {
        args.examples.clone()
    };
    let options = Options {
        digits: args.digits,
        repetitions: args.repetitions,
        ignore_case: args.ignore_case,
        anchors: !args.no_anchors,
    };
    let pattern = generate::from_examples_within(&examples, options, &bounds)?;
    writeln!(out, "{pattern}")?;
    Ok(0)
}

/// Runs a tests file: exit 0 when every case passes, 1 when one fails (each listed), 2 on
/// an error. With `--export`, prints the cases as a test file instead.
///
/// # Errors
/// The file cannot be read, or its pattern, flags or template is invalid.
pub fn tests(args: &TestsArgs, out: &mut dyn Write) -> Outcome {
    let text = std::fs::read_to_string(&args.file).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!("cannot read {}: {e}", args.file.display()),
        )
    })?;
    let suite = Suite::parse(&text)?;
    if let Some(lang) = args.export {
        let export = codegen::export_tests(
            &suite.pattern,
            suite.flavor,
            suite.flags()?,
            &suite.replacement,
            &suite.cases,
            lang,
        )?;
        out.write_all(export.code.as_bytes())?;
        return Ok(0);
    }
    let results = suite.run()?;
    let mut failed = 0;
    let mut passed = 0;
    for (case, verdict) in &results {
        match verdict.passed {
            Some(true) => passed += 1,
            Some(false) => {
                failed += 1;
                let found = if let Some(e) = &verdict.error {
                    format!("error: {}", inert(&e.to_string(), Layout::OneLine))
                } else if let Expect::Replace(_) = case.expect {
                    format!("got {}", quoted(verdict.replaced.as_deref().unwrap_or("")))
                } else {
                    match &verdict.found {
                        None => "no match".to_string(),
                        Some(g) => format!(
                            "matched {} with groups [{}]",
                            quoted(g[0].as_deref().unwrap_or("")),
                            g[1..]
                                .iter()
                                .map(|x| x.as_deref().map_or("∅".to_string(), quoted))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    }
                };
                // The file and its lines come from outside: shown inert.
                writeln!(
                    out,
                    "FAIL {}:{}: {}\n     {found}",
                    inert(&args.file.display().to_string(), Layout::OneLine),
                    case.line,
                    inert(
                        text.lines().nth(case.line - 1).unwrap_or(""),
                        Layout::OneLine
                    )
                )?;
            }
            None => {}
        }
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    Ok(if failed > 0 { 1 } else { 0 })
}
