//! `rxw jobs`: one row per job id from the protocol tags of a log.

use super::{Outcome, inputs};
use crate::error::{Error, ErrorKind};
use crate::export::AtomicFile;
use crate::input::logs::MergedLines;
use crate::input::time_filter::TimeFilter;
use crate::operator::job_table::JobTable;
use crate::operator::jobs::SortKey;
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
    #[command(flatten)]
    #[allow(missing_docs)]
    pub time: super::TimeArgs,
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
    let mut time = a.time.filter(None)?;
    let mut lines = MergedLines::open(&origins)?;
    let mut progress = super::progress::Progress::start("pairing jobs", lines.progress());
    // The table keeps a compact row per job; the events only for JSON, which lists them.
    let mut table = if a.json {
        JobTable::with_events()
    } else {
        JobTable::new()
    };
    while let Some(l) = lines.next_line() {
        if let Some(t) = &mut time
            && !t.keep(l.source, l.bytes)
        {
            continue;
        }
        let bytes = l.bytes.strip_suffix(b"\r").unwrap_or(l.bytes);
        table.feed_from(bytes, l.source, l.line);
    }
    progress.finish();
    if let Some(note) = time.as_ref().and_then(TimeFilter::note) {
        writeln!(err, "rxw: note: {note}")?;
    }
    let names = lines.names().to_vec();
    let failures = lines.take_failures();
    if a.json && !failures.is_empty() {
        // The document is the error: a partial table would read as the whole answer.
        return inputs::conclude(failures, 2, true, out, err);
    }
    let tagged = names.len() > 1;
    let order = table.order(match a.sort {
        JobSort::Job => SortKey::Job,
        JobSort::Status => SortKey::Status,
        JobSort::First => SortKey::First,
        JobSort::Duration => SortKey::Duration,
    });
    let shown = Shown {
        table: &table,
        order: &order,
        names: &names,
    };
    match &a.output {
        Some(path) => {
            let mut file = AtomicFile::create(path)?;
            let written = shown.print(a.json, tagged, &mut file);
            written.map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))?;
            file.commit()?;
        }
        None => {
            let mut buffered = io::BufWriter::with_capacity(1 << 16, &mut *out);
            shown.print(a.json, tagged, &mut buffered)?;
            buffered.flush()?;
        }
    }
    let code = if table.is_empty() { 1 } else { 0 };
    inputs::conclude(failures, code, false, out, err)
}

/// The table in the order asked for.
struct Shown<'a> {
    table: &'a JobTable,
    order: &'a [usize],
    names: &'a [String],
}

impl Shown<'_> {
    fn print(&self, json: bool, tagged: bool, out: &mut dyn Write) -> io::Result<()> {
        if json {
            self.print_json(out)
        } else {
            let rows = self.order.iter().map(|&k| {
                let row = self.table.row(k);
                let [id, status, mut line, duration, flags] = row.table_cells();
                if tagged {
                    let (source, first) = row.first();
                    let name = self.names.get(source).map_or("?", String::as_str);
                    line = format!("{name}:{first}");
                }
                [id, status, line, duration, flags, row.event_summary()]
            });
            print_rows(rows, out)
        }
    }

    /// The JSON array, one job a line so that large tables stream out.
    fn print_json(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.order.is_empty() {
            return writeln!(out, "[]");
        }
        for (n, &k) in self.order.iter().enumerate() {
            out.write_all(if n == 0 { b"[" } else { b",\n" })?;
            let job = self.table.job(k);
            serde_json::to_writer(&mut *out, &job.wire_in(self.names))?;
        }
        writeln!(out, "]")
    }
}

/// The table of cells (the LINE column names the log too with several: `b.log:12`). Column
/// widths are measured in a first pass over the rows and the rows made again to print, so
/// no row's text is held.
fn print_rows(
    rows: impl Iterator<Item = [String; 6]> + Clone,
    out: &mut dyn Write,
) -> io::Result<()> {
    let header = ["JOB", "STATUS", "LINE", "CLAIM→END", "FLAGS", "EVENTS"];
    let mut widths = header.map(|h| h.chars().count());
    for row in rows.clone() {
        for (w, cell) in widths.iter_mut().zip(&row) {
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
    for row in rows {
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
        let log = "2026-10-05T00:00:00Z [WO:a1] [ACK a1]\n[CLAIM a1]\n[NUDGE a1]\n[NUDGE a1]\n\
                   2026-10-05T00:01:00Z [RESULT a1] OK\n[CLAIM bb]\n";
        let mut table = JobTable::new();
        for (n, line) in log.lines().enumerate() {
            table.feed_from(line.as_bytes(), 0, n as u64 + 1);
        }
        let order = table.order(SortKey::First);
        let shown = Shown {
            table: &table,
            order: &order,
            names: &[],
        };
        let mut out = Vec::new();
        shown.print(false, false, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "JOB  STATUS   LINE  CLAIM→END  FLAGS       EVENTS\n\
             a1   OK          1      1m00s              WO ACK CLAIM NUDGE×2 RESULT\n\
             bb   CLAIMED     6          -  unresolved  CLAIM\n"
        );
    }
}
