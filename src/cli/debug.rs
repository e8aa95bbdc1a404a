//! `rxw debug`: how the matcher runs a pattern, step by step, or as a summary.

use super::find::CharIndex;
use super::style::{Layout, inert, quoted};
use super::{ColorChoice, Outcome, load_text, style, use_color};
use crate::Regex;
use crate::engine::trace::{self, StepOutcome, TraceOptions};
use crate::highlight::Kind;
use crate::wire::{DebugSummaryDoc, HotPosition, PatternPart};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// `rxw debug`.
#[derive(Debug, Args)]
pub struct DebugArgs {
    /// The pattern (it may start with `-`).
    #[arg(allow_hyphen_values = true)]
    pub pattern: String,
    /// The text (default: --file, or standard input).
    pub text: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub syntax: super::FlavorArgs,
    /// Read the text from this file instead of the argument or standard input.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// Steps recorded at most (the run goes on counting past them); at most 250,000 are
    /// recorded whatever N is, and the output says when that cut the trace.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub max_steps: usize,
    /// Print steps per match, the hottest nodes and positions, and how steps grow.
    #[arg(long)]
    pub summary: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// When to colour the output.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
}

/// The most steps `rxw debug` records, whatever `--max-steps` asks: each recorded step is
/// about a hundred bytes in memory (more with many groups), so the cap keeps a run within
/// a few tens of megabytes; the run itself goes on counting.
pub const RECORDED_STEPS_CAP: usize = 250_000;

/// Runs `rxw debug`. Exit 0 when the pattern matched, 1 when not, 2 on an error (an invalid
/// pattern; a run stopped by the step budget is reported in the output, not as an error).
pub fn run(a: &DebugArgs, out: &mut dyn Write, _err: &mut dyn Write) -> Outcome {
    let flags = a.syntax.flags()?;
    let re = Regex::new(&a.pattern, a.syntax.flavor, flags)?;
    let text = load_text(a.text.as_deref(), a.file.as_ref())?;
    let text = text.as_str();
    let recorded_limit = a.max_steps.min(RECORDED_STEPS_CAP);
    let t = re.trace(
        text,
        TraceOptions {
            max_steps: recorded_limit,
            max_matches: 1_000,
        },
    )?;
    // Whether the cap, not --max-steps, is what cut the trace short.
    let cap_cut = (a.max_steps > RECORDED_STEPS_CAP && t.total_steps > recorded_limit as u64)
        .then_some(a.max_steps);
    let code = if t.matches.is_empty() { 1 } else { 0 };
    let color = use_color(a.color);
    if a.summary {
        let growth = if t.stopped.is_some() || t.total_steps > 2_000 {
            Some(re.growth(text, Duration::from_millis(1500)))
        } else {
            None
        };
        let hot_nodes: Vec<PatternPart> = trace::hot_spans(&re, &t)
            .into_iter()
            .take(8)
            .map(|(span, n)| PatternPart {
                span,
                text: &a.pattern[span.start..span.end],
                steps: Some(n),
            })
            .collect();
        let hot_positions: Vec<HotPosition> = trace::hot_positions(&t, 8)
            .into_iter()
            .map(|(pos, steps)| HotPosition { pos, steps })
            .collect();
        // The quantifiers to blame: those the nested-quantifier lint names.
        let culprits: Vec<PatternPart> =
            crate::syntax::lint::lint(re.ast(), &a.pattern, a.syntax.flavor)
                .into_iter()
                .filter(|l| l.code == "nested-quantifier")
                .filter_map(|l| l.span)
                .map(|span| PatternPart {
                    span,
                    text: &a.pattern[span.start..span.end],
                    steps: None,
                })
                .collect();
        let class = growth.as_ref().and_then(|g| g.class);
        let degree = growth.as_ref().and_then(|g| g.degree);
        if a.json {
            let doc = DebugSummaryDoc {
                steps: t.total_steps,
                per_match: &t.per_match,
                hot_nodes: &hot_nodes,
                hot_positions: &hot_positions,
                growth: class.map(|c| c.name()),
                degree,
                culprits: &culprits,
                stopped: t.stopped.as_ref().map(|e| e.message.as_str()),
                positions_capped: t.positions_capped,
            };
            writeln!(out, "{}", super::to_json(&doc))?;
        } else {
            writeln!(
                out,
                "{} matches, {} steps{}",
                t.matches.len(),
                t.total_steps,
                t.stopped
                    .as_ref()
                    .map(|e| format!(" (stopped: {})", e.message))
                    .unwrap_or_default()
            )?;
            for (i, n) in t.per_match.iter().enumerate() {
                writeln!(
                    out,
                    "  match {} at {}: {n} steps",
                    i + 1,
                    t.matches[i].start()
                )?;
            }
            writeln!(out, "hottest nodes:")?;
            for h in &hot_nodes {
                writeln!(
                    out,
                    "  {:>10} steps  {}",
                    h.steps.unwrap_or(0),
                    style::paint(&inert(h.text, Layout::OneLine), Kind::Literal, color)
                )?;
            }
            if t.positions_capped {
                writeln!(
                    out,
                    "hottest positions (among the first {} positions visited):",
                    crate::engine::trace::MAX_TRACKED_POSITIONS
                )?;
            } else {
                writeln!(out, "hottest positions:")?;
            }
            for h in &hot_positions {
                let pos = h.pos;
                writeln!(
                    out,
                    "  {:>10} steps  byte {pos}: {}",
                    h.steps,
                    context(text, pos)
                )?;
            }
            match (class, degree) {
                (Some(c), Some(d)) if d > 1 => writeln!(out, "growth: {} (degree {d})", c.name())?,
                (Some(c), _) => writeln!(out, "growth: {}", c.name())?,
                (None, _) => writeln!(out, "growth: not measured (too few steps to tell)")?,
            }
            for c in &culprits {
                writeln!(
                    out,
                    "  caused by the nested quantifier {} (bytes {}..{})",
                    style::paint(&inert(c.text, Layout::OneLine), Kind::Error, color),
                    c.span.start,
                    c.span.end
                )?;
            }
        }
        return Ok(code);
    }
    let verdict = crate::wire::DebugVerdict::of(&re, &a.pattern, text, &t);
    if a.json {
        let mut chars = CharIndex::new(text);
        let doc = crate::wire::DebugTraceDoc {
            matches: t
                .matches
                .iter()
                .map(|m| crate::wire::MatchDoc::new(&re, text, m, chars.at(m.start())))
                .collect(),
            steps: t.total_steps,
            trace: &t.steps,
            truncated: t.truncated,
            recorded_limit,
            cap_cut,
            stopped: t.stopped.as_ref().map(|e| e.message.as_str()),
            verdict,
        };
        // Streamed: a million steps never become a JSON tree in memory.
        let mut w = std::io::BufWriter::with_capacity(1 << 16, out);
        serde_json::to_writer(&mut w, &doc).map_err(std::io::Error::from)?;
        writeln!(w)?;
        w.flush()?;
        return Ok(code);
    }
    let mut out = std::io::BufWriter::new(out);
    // Each row: where the matcher is, the piece of the pattern it runs, whether the step
    // succeeded (a failing step is marked `✗` and coloured), and what it tried and what came
    // of it, positions in the flavor's unit.
    writeln!(
        out,
        "{:>6}  {:>6}  {:>5}  {:<26}  {:<14}    what it tried: what happened  (pos in {})",
        "step",
        "pos",
        "depth",
        "text at position",
        "pattern",
        t.unit.name()
    )?;
    for s in &t.steps {
        let piece = inert(&a.pattern[s.span.start..s.span.end], Layout::OneLine);
        let (mark, kind) = match s.outcome {
            Some(StepOutcome::Failed) => ("✗", Kind::Error),
            Some(StepOutcome::Succeeded) => ("✓", Kind::Literal),
            None => ("·", Kind::Warning),
        };
        let said = match (&s.result, s.outcome) {
            (Some(r), Some(StepOutcome::Failed)) => format!("{}: failed, {r}", s.action),
            (Some(r), _) => format!("{}: {r}", s.action),
            (None, Some(StepOutcome::Failed)) => format!("{}: failed", s.action),
            (None, Some(StepOutcome::Succeeded)) => s.action.clone(),
            (None, None) => format!("{}: the run stopped here", s.action),
        };
        let at = context(text, s.pos);
        let pad = 26usize.saturating_sub(at.chars().count());
        writeln!(
            out,
            "{:>6}  {:>6}  {:>5}  {at}{:pad$}  {:<14}  {} {}",
            s.step,
            s.unit_pos,
            s.depth,
            "",
            piece,
            style::paint(mark, kind, color),
            style::paint(&inert(&said, Layout::OneLine), kind, color),
        )?;
    }
    if t.truncated && t.stopped.is_none() {
        writeln!(
            out,
            "… {} more steps not shown (--max-steps {})",
            t.total_steps - t.steps.len() as u64,
            a.max_steps
        )?;
    }
    if let Some(asked) = cap_cut {
        writeln!(
            out,
            "the recording stopped at its cap of {RECORDED_STEPS_CAP} steps (--max-steps {asked} asked for more)"
        )?;
    }
    if let Some(e) = &t.stopped {
        writeln!(out, "stopped: {}", e.message)?;
    }
    for (i, m) in t.matches.iter().enumerate() {
        writeln!(
            out,
            "match {}: {}..{} {}  ({} steps)",
            i + 1,
            m.start(),
            m.end(),
            style::paint(&quoted(m.as_str(text)), Kind::Match, color),
            t.per_match[i]
        )?;
    }
    writeln!(out, "{} steps in all", t.total_steps)?;
    let kind = if verdict.matched {
        Kind::Match
    } else {
        Kind::Error
    };
    // The sentence quotes a piece of the pattern: said inertly on a terminal.
    let said = inert(&verdict.text, Layout::OneLine);
    writeln!(out, "{}", style::paint(&said, kind, color))?;
    out.flush()?;
    Ok(code)
}

/// The text around a position, with a marker at the position: `ab▸cd`.
fn context(text: &str, pos: usize) -> String {
    let mut start = pos.saturating_sub(12);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (pos + 12).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let pos = pos.min(text.len());
    let mut p = pos;
    while !text.is_char_boundary(p) {
        p -= 1;
    }
    format!(
        "{}▸{}",
        inert(&text[start..p], Layout::OneLine),
        inert(&text[p..end], Layout::OneLine)
    )
}
