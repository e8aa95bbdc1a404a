//! `rxw jobs`: one row per job id from the protocol tags of a log.

use super::{Outcome, inputs};
use crate::error::{Error, ErrorKind};
use crate::export::AtomicFile;
use crate::input::logs::MergedLines;
use crate::operator::jobs::{self, Job, JobTracker, SortKey};
use clap::{Args, ValueEnum};
use std::io::{self, Write};
use std::path::PathBuf;

/// `rxw jobs`.
#[derive(Debug, Args)]
pub struct JobsArgs {
    /// The logs (default: standard input; `-` names it): files, directories, globs. Several
    /// are merged by each line's leading timestamp, so a job claimed in one log and resolved
    /// in another is one row. gzip, zstd, bzip2 and xz files are decoded. Read line by line,
    /// so any size works.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// A log to read, as the positional FILEs (repeatable).
    #[arg(long = "file", value_name = "PATH")]
    pub file: Vec<PathBuf>,
    /// Print JSON: `[{"job","status","events":[{"source","tag","line","time"}],"claim_to_result_s","flags"}]`.
    #[arg(long)]
    pub json: bool,
    /// Row order (duration: longest claim-to-resolution first).
    #[arg(long, value_enum, default_value_t)]
    pub sort: JobSort,
    /// Write the output to this file instead (atomically: it appears whole or not at all; a
    /// link's file is replaced, a device or FIFO written in place).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--sort` choices.
#[derive(Debug, Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum JobSort {
    /// By job id.
    Job,
    /// By status.
    Status,
    /// By first appearance.
    #[default]
    First,
    /// Longest claim-to-resolution first.
    Duration,
}

/// Runs `rxw jobs`: exit 0 when the logs name a job, 1 when they name none, 2 when a log
/// broke part way (the table of what was read is printed first).
pub fn run(a: &JobsArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let paths: Vec<PathBuf> = a.files.iter().chain(&a.file).cloned().collect();
    let origins = inputs::origins(&paths)?;
    let mut lines = MergedLines::open(&origins)?;
    let mut tracker = JobTracker::new();
    while let Some(l) = lines.next_line() {
        let bytes = l.bytes.strip_suffix(b"\r").unwrap_or(l.bytes);
        tracker.feed_from(bytes, l.source, l.line);
    }
    let names = lines.names().to_vec();
    let failures = lines.take_failures();
    if a.json && !failures.is_empty() {
        // The document is the error: a partial table would read as the whole answer.
        return inputs::conclude(failures, 2, true, out, err);
    }
    let tagged = names.len() > 1;
    let mut table = tracker.finish();
    jobs::sort(
        &mut table,
        match a.sort {
            JobSort::Job => SortKey::Job,
            JobSort::Status => SortKey::Status,
            JobSort::First => SortKey::First,
            JobSort::Duration => SortKey::Duration,
        },
    );
    match &a.output {
        Some(path) => {
            let mut file = AtomicFile::create(path)?;
            let written = print(&table, a.json, &names, tagged, &mut file);
            written.map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))?;
            file.commit()?;
        }
        None => {
            let mut buffered = io::BufWriter::with_capacity(1 << 16, &mut *out);
            print(&table, a.json, &names, tagged, &mut buffered)?;
            buffered.flush()?;
        }
    }
    let code = if table.is_empty() { 1 } else { 0 };
    inputs::conclude(failures, code, false, out, err)
}

fn print(
    table: &[Job],
    json: bool,
    names: &[String],
    tagged: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    if json {
        print_json(table, names, out)
    } else {
        print_table(table, tagged.then_some(names), out)
    }
}

/// The JSON array, one job a line so that large tables stream out.
fn print_json(table: &[Job], names: &[String], out: &mut dyn Write) -> io::Result<()> {
    if table.is_empty() {
        return writeln!(out, "[]");
    }
    for (k, job) in table.iter().enumerate() {
        out.write_all(if k == 0 { b"[" } else { b",\n" })?;
        serde_json::to_writer(&mut *out, &job.wire_in(names))?;
    }
    writeln!(out, "]")
}

/// The table; with `names` (several logs), the LINE column names the log too (`b.log:12`).
fn print_table(table: &[Job], names: Option<&[String]>, out: &mut dyn Write) -> io::Result<()> {
    let rows: Vec<[String; 6]> = table
        .iter()
        .map(|job| {
            let [id, status, mut line, duration, flags] = job.table_cells();
            if let Some(names) = names {
                let first = &job.events[0];
                let name = names.get(first.source as usize).map_or("?", String::as_str);
                line = format!("{name}:{}", first.line);
            }
            [id, status, line, duration, flags, job.event_summary()]
        })
        .collect();
    let header = ["JOB", "STATUS", "LINE", "CLAIM→END", "FLAGS", "EVENTS"];
    let mut widths = header.map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut line = |cells: [&str; 6]| -> io::Result<()> {
        let mut text = String::new();
        for (k, cell) in cells.iter().enumerate() {
            if k == 5 {
                text.push_str(cell);
                break;
            }
            let pad = widths[k].saturating_sub(cell.chars().count());
            // Numbers right-aligned, words left-aligned.
            if k == 2 || k == 3 {
                text.extend(std::iter::repeat_n(' ', pad));
                text.push_str(cell);
            } else {
                text.push_str(cell);
                text.extend(std::iter::repeat_n(' ', pad));
            }
            text.push_str("  ");
        }
        writeln!(out, "{}", text.trim_end())
    };
    line(header)?;
    for row in &rows {
        line(row.each_ref().map(String::as_str))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operator::jobs::format_seconds;

    #[test]
    fn durations_read_at_a_glance() {
        assert_eq!(format_seconds(0.0), "0s");
        assert_eq!(format_seconds(95.5), "1m36s");
        assert_eq!(format_seconds(12.5), "12.5s");
        assert_eq!(format_seconds(845.0), "14m05s");
        assert_eq!(format_seconds(7380.0), "2h03m");
        assert_eq!(format_seconds(-3.0), "-3s");
    }

    #[test]
    fn the_table() {
        let table = JobTracker::read(
            &b"2026-10-05T00:00:00Z [WO:a1] [ACK a1]\n[CLAIM a1]\n[NUDGE a1]\n[NUDGE a1]\n\
               2026-10-05T00:01:00Z [RESULT a1] OK\n[CLAIM bb]\n"[..],
        )
        .unwrap();
        let mut out = Vec::new();
        print_table(&table, None, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "JOB  STATUS   LINE  CLAIM→END  FLAGS       EVENTS\n\
             a1   OK          1      1m00s              WO ACK CLAIM NUDGE×2 RESULT\n\
             bb   CLAIMED     6          -  unresolved  CLAIM\n"
        );
    }
}
