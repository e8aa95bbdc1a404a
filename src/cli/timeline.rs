//! `rxw timeline PATTERN|--preset KEY [FILE]`: matches per time bucket as a bar chart.

use super::inputs::{self, TextInput};
use super::preset::{RegistryArgs, load};
use super::{CliError, Outcome, flags_for, parse_flavor};
use crate::Regex;
use crate::flavor::Flavor;
use crate::operator::timeline::{self, Timeline, TimelinePass};
use crate::operator::timestamp;
use crate::workbench::follow::matches_independent_of_other_lines;
use clap::Args;
use std::io::{self, Write};

/// `rxw timeline`.
#[derive(Debug, Args)]
pub struct TimelineArgs {
    /// PATTERN then the logs; with --preset, the logs only (default: standard input; `-`
    /// names it). Several logs (files, directories, globs) are merged by each line's leading
    /// timestamp; gzip, zstd, bzip2 and xz files are decoded.
    #[arg(value_name = "PATTERN|FILE")]
    pub args: Vec<String>,
    /// A log to read, as the positional FILEs (repeatable).
    #[arg(long = "file", value_name = "PATH")]
    pub file: Vec<std::path::PathBuf>,
    /// Count the matches of this preset instead of a pattern.
    #[arg(long, value_name = "KEY")]
    pub preset: Option<String>,
    /// The flavor (help written from the flavor table).
    #[arg(long, default_value = "python", help = super::flavor_help(), value_parser = parse_flavor)]
    pub flavor: Flavor,
    /// Flag letters of the pattern.
    #[arg(long, default_value = "")]
    pub flags: String,
    /// At most about this many buckets (the width is 1s, 10s, 1m, 10m, 1h or 1d; never more
    /// than 10,000, the width growing past a day for a span that would need more).
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub buckets: usize,
    /// Print JSON: `[{"start","end","count","first_line","last_line"}]`.
    #[arg(long)]
    pub json: bool,
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
    #[command(flatten)]
    #[allow(missing_docs)]
    pub registries: RegistryArgs,
}

/// Runs `rxw timeline`: exit 0 when something matched, 1 when nothing did.
pub fn run(a: &TimelineArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let catalog;
    let own;
    let (regex, files, what): (&Regex, _, _) = match &a.preset {
        Some(key) => {
            catalog = load(&a.registries, err)?.catalog;
            let entry = catalog.require(key)?;
            (entry.regex()?, &a.args[..], format!("preset {key}"))
        }
        None => {
            let Some(pattern) = a.args.first() else {
                writeln!(err, "rxw: timeline: give a PATTERN or --preset KEY")?;
                return Ok(2);
            };
            let flags = flags_for(&a.flags, a.flavor)?;
            own = Regex::new(pattern, a.flavor, flags)?;
            (&own, &a.args[1..], format!("`{pattern}`"))
        }
    };
    let paths: Vec<std::path::PathBuf> = files
        .iter()
        .map(std::path::PathBuf::from)
        .chain(a.file.iter().cloned())
        .collect();
    // A pattern that cannot see past its line is counted a chunk at a time.
    let chunk = if matches_independent_of_other_lines(regex) {
        inputs::CHUNK
    } else {
        usize::MAX
    };
    let time = a.time.filter(None)?;
    let mut input = TextInput::open_within(None, &paths, chunk, Some("counting"), time)?;
    let mut pass = TimelinePass::new();
    while let Some(chunk) = input.next_chunk() {
        pass.feed(&chunk.text, chunk.searchable(), &chunk.runs, regex, None)?;
    }
    let names = input.names().to_vec();
    let failures = input.finish(err)?;
    if a.json && !failures.is_empty() {
        return inputs::conclude(failures, 2, true, out, err);
    }
    let t = pass.finish(a.buckets);
    if t.untimed_matches > 0 {
        writeln!(
            err,
            "rxw: note: {} match{} before the first timestamped line, not in any bucket",
            t.untimed_matches,
            if t.untimed_matches == 1 { "" } else { "es" }
        )?;
    }
    let mut out = io::BufWriter::new(out);
    if a.json {
        let buckets: Vec<_> = t.buckets.iter().map(|b| b.wire_in(&names)).collect();
        serde_json::to_writer(&mut out, &buckets).map_err(io::Error::from)?;
        writeln!(out)?;
    } else {
        chart(&t, &what, &names, &mut out)?;
    }
    out.flush()?;
    drop(out);
    let code = if t.matches > 0 { 0 } else { 1 };
    inputs::conclude(failures, code, false, &mut io::sink(), err)
}

/// Columns of the longest bar.
const BAR: usize = 40;

/// A horizontal bar `value / max` of [`BAR`] columns, in eighths of a block.
fn bar(value: usize, max: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    if max == 0 || value == 0 {
        return String::new();
    }
    let eighths = (value * BAR * 8).div_ceil(max);
    let mut s = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        s.push(PARTS[eighths % 8]);
    }
    s
}

/// The chart; with several logs, each bucket's lines are named per log (`a.log:3-9`).
fn chart(t: &Timeline, what: &str, names: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let Some(first) = t.buckets.first() else {
        writeln!(
            out,
            "{} match{} of {what}; no line has a timestamp",
            t.matches,
            if t.matches == 1 { "" } else { "es" }
        )?;
        return Ok(());
    };
    let last = &t.buckets[t.buckets.len() - 1];
    writeln!(
        out,
        "{} match{} of {what}, {} buckets of {}, {} to {}",
        t.matches,
        if t.matches == 1 { "" } else { "es" },
        t.buckets.len(),
        timeline::width_label(t.width_ms),
        timestamp::format_utc(first.start),
        timestamp::format_utc(last.end)
    )?;
    let max = t.buckets.iter().map(|b| b.count).max().unwrap_or(0);
    let count_width = max.to_string().len();
    for b in &t.buckets {
        let lines = match b.lines {
            _ if !b.sources.is_empty() => b
                .sources
                .iter()
                .map(|s| {
                    let name = names.get(s.source).map_or("?", String::as_str);
                    let name = super::style::inert(name, super::style::Layout::OneLine);
                    match s.lines {
                        (f, l) if f == l => format!("{name}:{f}"),
                        (f, l) => format!("{name}:{f}-{l}"),
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
            Some((f, l)) if f == l => format!("line {f}"),
            Some((f, l)) => format!("lines {f}-{l}"),
            None => String::new(),
        };
        let text = format!(
            "{}  {:>count_width$}  {:<width$}  {lines}",
            timestamp::format_utc(b.start),
            b.count,
            bar(b.count, max),
            width = BAR
        );
        writeln!(out, "{}", text.trim_end())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_in_eighths() {
        assert_eq!(bar(0, 10), "");
        assert_eq!(bar(10, 10), "█".repeat(BAR));
        assert_eq!(bar(5, 10), "█".repeat(BAR / 2));
        assert_eq!(bar(1, 320), "▏");
        assert_eq!(bar(3, 320), "▍");
        assert_eq!(bar(1, 1000), "▏");
    }
}
