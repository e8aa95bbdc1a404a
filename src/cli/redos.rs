//! `rxw redos`: does the pattern backtrack catastrophically? A verdict proved by the matcher's
//! steps on an attack string, with the culprit under a caret.

use super::{ColorChoice, Outcome, style, use_color};
use crate::Regex;
use crate::engine::redos::{RedosOptions, RedosReport};
use crate::error::{caret_line, display_width};
use crate::highlight::Kind;
use clap::Args;
use std::io::Write;

/// `rxw redos`.
#[derive(Debug, Args)]
pub struct RedosArgs {
    /// The pattern (it may start with `-`; put it after `--`).
    #[arg(allow_hyphen_values = true)]
    pub pattern: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub syntax: super::FlavorArgs,
    /// Print JSON: {"verdict","degree","attack","steps","span","reason","hot_nodes","fix","no_fix"}.
    #[arg(long)]
    pub json: bool,
    /// Wall-clock budget of the check in milliseconds (the step caps decide the verdict when
    /// the budget does not run out first).
    #[arg(long, default_value_t = 900, value_name = "MS")]
    pub time_ms: u64,
    /// When to colour the output.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
}

/// Runs `rxw redos`. Exit 0 linear, 1 polynomial, exponential or not proved (the budget ran
/// out before the check could tell: never passed as linear), 2 an error.
pub fn run(a: &RedosArgs, out: &mut dyn Write, _err: &mut dyn Write) -> Outcome {
    let flags = a.syntax.flags()?;
    let re = Regex::new(&a.pattern, a.syntax.flavor, flags)?;
    let report = re.redos(RedosOptions {
        time: std::time::Duration::from_millis(a.time_ms),
        cancel: None,
    })?;
    if a.json {
        writeln!(out, "{}", super::to_json(&report))?;
    } else {
        write_report(&a.pattern, &report, use_color(a.color), out)?;
    }
    Ok(if report.verdict == crate::engine::redos::Verdict::Linear {
        0
    } else {
        1
    })
}

/// The report for people: verdict and reason, the pattern with a caret under the culprit, the
/// attack (escaped), the steps per n, the hot nodes and the fix hint.
pub fn write_report(
    pattern: &str,
    r: &RedosReport,
    color: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let verdict = match (r.verdict.is_vulnerable(), r.degree) {
        (true, Some(d)) => format!("{} (degree {d})", r.verdict.name()),
        _ => r.verdict.name().to_string(),
    };
    let kind = if r.verdict != crate::engine::redos::Verdict::Linear {
        Kind::Error
    } else {
        Kind::Match
    };
    writeln!(out, "{}: {}", style::paint(&verdict, kind, color), r.reason)?;
    if let Some(s) = r.span {
        let (start, end) = (s.start.min(pattern.len()), s.end.min(pattern.len()));
        writeln!(out, "  {}", caret_line(pattern))?;
        writeln!(
            out,
            "  {}{}",
            " ".repeat(display_width(&pattern[..start])),
            style::paint(
                &"^".repeat(display_width(&pattern[start..end]).max(1)),
                Kind::Error,
                color
            )
        )?;
    }
    if let Some(a) = &r.attack {
        writeln!(
            out,
            "attack: \"{}\" + \"{}\" × n + \"{}\"",
            a.prefix.escape_debug(),
            a.pump.escape_debug(),
            a.suffix.escape_debug()
        )?;
        if let Some(p) = r.steps.last() {
            let shown = a.at(p.n.min(24)).escape_debug().to_string();
            writeln!(out, "  at n = {}: \"{shown}\"", p.n.min(24))?;
        }
    }
    if !r.steps.is_empty() {
        let steps: Vec<String> = r
            .steps
            .iter()
            .map(|p| format!("n={} {}", p.n, p.steps))
            .collect();
        writeln!(out, "steps: {}", steps.join(", "))?;
    }
    if !r.hot_nodes.is_empty() {
        writeln!(out, "hottest nodes:")?;
        for h in &r.hot_nodes {
            writeln!(
                out,
                "  {:>10} steps  {}",
                h.steps,
                style::paint(&h.text, Kind::Literal, color)
            )?;
        }
    }
    if let Some(f) = &r.fix {
        let last = f.steps.last().map(|p| p.steps).unwrap_or(0);
        writeln!(
            out,
            "fix: {}  ({} on the same attack, {last} steps at the largest n; {})",
            style::paint(&f.pattern, Kind::Match, color),
            f.verdict.name(),
            f.note
        )?;
    } else if let Some(why) = &r.no_fix {
        writeln!(out, "{why}")?;
    }
    Ok(())
}
