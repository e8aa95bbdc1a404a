//! `rxw-vrl-check CONFIG.toml`: runs the `remap` transforms of a Vector config on each event,
//! with Vector's own language (the `vrl` crate: its parser, compiler, type checker and
//! standard library), and prints each event as Vector would pass it on.
//!
//! Standard input: one JSON string a line, an event's `.message`. Standard output: one JSON
//! object a line, `{"row": N, "event": {...}}` (N 1-based), or `{"row": N, "error": "..."}`
//! when the program aborts on that event. A program that does not compile is an error
//! (exit 1) with VRL's own diagnostic on standard error; bad usage or input exits 2.

#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use vrl::compiler::runtime::Runtime;
use vrl::compiler::state::RuntimeState;
use vrl::compiler::{Program, TargetValue, TimeZone};
use vrl::diagnostic::Formatter;
use vrl::value::{Secrets, Value};

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(why) => {
            eprintln!("rxw-vrl-check: {why}");
            ExitCode::from(2)
        }
    }
}

/// The `source` of every `remap` transform in the config, by transform name.
fn remap_sources(config: &str) -> Result<Vec<(String, String)>, String> {
    let doc: toml::Table = config
        .parse()
        .map_err(|e| format!("the config is not TOML: {e}"))?;
    let transforms = doc
        .get("transforms")
        .and_then(|t| t.as_table())
        .ok_or("the config has no [transforms] table")?;
    let mut out = Vec::new();
    for (name, t) in transforms {
        if t.get("type").and_then(|k| k.as_str()) != Some("remap") {
            continue;
        }
        let source = t
            .get("source")
            .and_then(|s| s.as_str())
            .ok_or_else(|| format!("transform {name} has no `source`"))?;
        out.push((name.clone(), source.to_string()));
    }
    if out.is_empty() {
        return Err("the config has no remap transform".into());
    }
    Ok(out)
}

fn run() -> Result<ExitCode, String> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: rxw-vrl-check CONFIG.toml < messages.jsonl")?;
    let config = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let functions = vrl::stdlib::all();
    let mut programs: Vec<(String, Program)> = Vec::new();
    for (name, source) in remap_sources(&config)? {
        match vrl::compiler::compile(&source, &functions) {
            Ok(result) => programs.push((name, result.program)),
            Err(diagnostics) => {
                eprintln!(
                    "transform {name} does not compile:\n{}",
                    Formatter::new(&source, diagnostics)
                );
                return Ok(ExitCode::from(1));
            }
        }
    }
    let timezone = TimeZone::default();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.map_err(|e| format!("standard input: {e}"))?;
        let message: String = serde_json::from_str(&line)
            .map_err(|e| format!("input line {} is not a JSON string: {e}", i + 1))?;
        let mut event = BTreeMap::new();
        event.insert("message".into(), Value::from(message));
        let mut target = TargetValue {
            value: Value::Object(event),
            metadata: Value::Object(BTreeMap::new()),
            secrets: Secrets::default(),
        };
        let mut failed = None;
        for (name, program) in &programs {
            let mut runtime = Runtime::new(RuntimeState::default());
            if let Err(e) = runtime.resolve(&mut target, program, &timezone) {
                failed = Some(format!("transform {name}: {e}"));
                break;
            }
        }
        let record = match failed {
            Some(error) => serde_json::json!({ "row": i + 1, "error": error }),
            None => {
                let event: serde_json::Value = target
                    .value
                    .try_into()
                    .map_err(|e| format!("row {}: the event is not JSON: {e:?}", i + 1))?;
                serde_json::json!({ "row": i + 1, "event": event })
            }
        };
        writeln!(out, "{record}").map_err(|e| format!("standard output: {e}"))?;
    }
    out.flush().map_err(|e| format!("standard output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
