//! `rxw jobs`: one row per job id from the protocol tags of a log.

use super::Outcome;
use crate::error::{Error, ErrorKind};
use crate::export::AtomicFile;
use crate::operator::jobs::{self, Job, JobTracker, SortKey};
use clap::{Args, ValueEnum};
use std::io::{self, Write};
use std::path::PathBuf;

/// `rxw jobs`.
#[derive(Debug, Args)]
pub struct JobsArgs {
    /// The log (default: standard input). Read line by line, so any size works.
    pub file: Option<PathBuf>,
    /// Print JSON: `[{"job","status","events":[{"tag","line","time"}],"claim_to_result_s","flags"}]`.
    #[arg(long)]
    pub json: bool,
    /// Row order (duration: longest claim-to-resolution first).
    #[arg(long, value_enum, default_value_t)]
    pub sort: JobSort,
    /// Write the output to this file instead (atomically: it appears whole or not at all).
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

/// Runs `rxw jobs`: exit 0 when the log names a job, 1 when it names none.
pub fn run(a: &JobsArgs, out: &mut dyn Write) -> Outcome {
    let read = |e: io::Error| {
        let what = a
            .file
            .as_ref()
            .map_or_else(|| "standard input".to_string(), |p| p.display().to_string());
        Error::new(ErrorKind::Io, format!("cannot read {what}: {e}"))
    };
    let mut table = match &a.file {
        Some(path) => {
            if path.is_dir() {
                return Err(Error::new(
                    ErrorKind::Io,
                    format!("{}: is a directory", path.display()),
                )
                .into());
            }
            let file = std::fs::File::open(path).map_err(read)?;
            JobTracker::read(file).map_err(read)?
        }
        None => JobTracker::read(io::stdin().lock()).map_err(read)?,
    };
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
            let written = print(&table, a.json, &mut file);
            written.map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))?;
            file.commit()?;
        }
        None => {
            let mut buffered = io::BufWriter::with_capacity(1 << 16, out);
            print(&table, a.json, &mut buffered)?;
            buffered.flush()?;
        }
    }
    Ok(if table.is_empty() { 1 } else { 0 })
}

fn print(table: &[Job], json: bool, out: &mut dyn Write) -> io::Result<()> {
    if json {
        print_json(table, out)
    } else {
        print_table(table, out)
    }
}

/// The JSON array, one job a line so that large tables stream out.
fn print_json(table: &[Job], out: &mut dyn Write) -> io::Result<()> {
    if table.is_empty() {
        return writeln!(out, "[]");
    }
    for (k, job) in table.iter().enumerate() {
        out.write_all(if k == 0 { b"[" } else { b",\n" })?;
        serde_json::to_writer(&mut *out, &job.wire())?;
    }
    writeln!(out, "]")
}

fn print_table(table: &[Job], out: &mut dyn Write) -> io::Result<()> {
    let rows: Vec<[String; 6]> = table
        .iter()
        .map(|job| {
            let [id, status, line, duration, flags] = job.table_cells();
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
        print_table(&table, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "JOB  STATUS   LINE  CLAIM→END  FLAGS       EVENTS\n\
             a1   OK          1      1m00s              WO ACK CLAIM NUDGE×2 RESULT\n\
             bb   CLAIMED     6          -  unresolved  CLAIM\n"
        );
    }
}
