//! `rxw explain`: the static explain tree and lints of a pattern, as text or JSON.

use super::{ColorChoice, Outcome, style, use_color};
use crate::engine::redos::RedosOptions;
use crate::syntax::explain::explain;
use crate::syntax::lint::{Lint, Severity};
use crate::syntax::parse::parse;
use crate::{Limits, Regex};
use clap::Args;
use std::io::Write;

/// `rxw explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The pattern (it may start with `-`).
    #[arg(allow_hyphen_values = true)]
    pub pattern: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub syntax: super::FlavorArgs,
    /// Print JSON: {"tree":…,"nodes":[…],"lints":[…]}.
    #[arg(long)]
    pub json: bool,
    /// Draw the railroad diagram (box-drawing text) instead of the tree; with `--json`,
    /// `{"railroad": [lines…]}`.
    #[arg(long)]
    pub railroad: bool,
    /// When to colour the output (`--color` alone means always).
    #[arg(long, value_enum, default_value_t, num_args = 0..=1, default_missing_value = "always")]
    pub color: ColorChoice,
}

/// The ReDoS verdict as a lint (code `redos`), when an attack string makes the matcher's steps
/// grow polynomially or exponentially: the culprit span, the verdict and the attack.
fn redos_lint(
    pattern: &str,
    flavor: crate::Flavor,
    flags: crate::Flags,
    ast: crate::syntax::ast::Ast,
) -> Option<Lint> {
    let re = Regex::from_parsed(
        pattern,
        flavor,
        flags,
        std::sync::Arc::new(ast),
        &Limits::human(),
    )
    .ok()?;
    let r = re.redos(RedosOptions::default()).ok()?;
    let attack = r.attack.as_ref()?;
    Some(Lint {
        code: "redos",
        severity: Severity::Warning,
        message: format!(
            "{} backtracking{}: {}; attack \"{}\" + \"{}\" × n + \"{}\" (rxw redos shows the proof)",
            r.verdict.name(),
            r.degree
                .map(|d| format!(" (degree {d})"))
                .unwrap_or_default(),
            r.reason,
            attack.prefix.escape_debug(),
            attack.pump.escape_debug(),
            attack.suffix.escape_debug()
        ),
        span: r.span,
    })
}

/// Explains the pattern without running it on any text of yours (the ReDoS lint runs the
/// matcher on its own attack strings). Exit 0, or 2 when the pattern or the flags are invalid
/// or the pattern is too complex to explain.
pub fn run(a: &ExplainArgs, out: &mut dyn Write, _err: &mut dyn Write) -> Outcome {
    let flags = a.syntax.flags()?;
    let ast = parse(&a.pattern, a.syntax.flavor, flags)?;
    if a.railroad {
        let lines = crate::syntax::railroad::railroad(&ast, &a.pattern, a.syntax.flavor)?;
        if a.json {
            writeln!(
                out,
                "{}",
                super::to_json(&crate::wire::Railroad { railroad: lines })
            )?;
        } else {
            for l in lines {
                writeln!(out, "{l}")?;
            }
        }
        return Ok(0);
    }
    let mut explanation = explain(
        &ast,
        &a.pattern,
        a.syntax.flavor,
        Limits::human().max_explain_nodes,
    )?;
    if let Some(l) = redos_lint(&a.pattern, a.syntax.flavor, flags, ast) {
        explanation.lints.push(l);
    }
    if a.json {
        writeln!(out, "{}", explanation.to_json())?;
    } else {
        let color = use_color(a.color);
        let paint = |s: &str, k| style::paint(s, k, color);
        out.write_all(explanation.render_text(&a.pattern, &paint).as_bytes())?;
    }
    Ok(0)
}
