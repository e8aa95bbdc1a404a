//! `rxw find --follow`: after the logs' text is matched, what they append is matched as it
//! arrives, several logs merged ([`FleetFollower`]): new records in time order, each match
//! named by its log, each log followed through truncation and rotation as one log is.
//!
//! A record stamped before one already printed is printed at arrival (never among the lines
//! above) and counted: "3 late records shown at arrival" on standard error. New records are
//! matched one at a time, so a pattern whose matches depend on other lines is refused up
//! front rather than answered differently than on the whole text.

use super::inputs::{self, TextInput};
use super::match_line::{LineIndex, MatchLine, write_match_line};
use super::{CliError, FindArgs, Outcome, use_color};
use crate::error::Error;
use crate::input::chunks::Place;
use crate::input::format::{self, LogFormat, Message};
use crate::workbench::follow::{
    FleetFollower, FleetLog, FleetPoll, FollowEvent, Reload, looks_at_text_start,
    matches_stay_in_lines,
};
use crate::{ErrorKind, MatchOptions, Regex};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// How often the logs are looked at when no file event comes first (the platform's file
/// watch wakes the loop at once for a write, a rename or a create in a log's directory; the
/// timer is for the platforms and file systems without one): one `stat` each when nothing
/// changed.
const POLL: Duration = Duration::from_millis(50);

/// Watches the directories of `paths` and sends on `tx` for each event that names a file
/// called as one of them. `None` when the platform's watch cannot be set up (the timer then
/// does the work alone).
fn watch(paths: &[PathBuf], tx: std::sync::mpsc::Sender<()>) -> Option<notify::RecommendedWatcher> {
    use notify::Watcher as _;
    let names: std::collections::HashSet<std::ffi::OsString> = paths
        .iter()
        .filter_map(|p| p.file_name().map(std::ffi::OsStr::to_owned))
        .collect();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(ev) = res
            && ev
                .paths
                .iter()
                .any(|p| p.file_name().is_some_and(|n| names.contains(n)))
        {
            let _ = tx.send(());
        }
    })
    .ok()?;
    let mut dirs: Vec<&std::path::Path> = paths
        .iter()
        .map(|p| {
            p.parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."))
        })
        .collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        watcher
            .watch(dir, notify::RecursiveMode::NonRecursive)
            .ok()?;
    }
    Some(watcher)
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::ArgumentsInvalid, message)
}

/// The logs `--follow` follows, checked before anything is read: plain regular files only,
/// and a pattern that finds in each new record what it finds there in the whole text.
///
/// # Errors
/// [`ErrorKind::ArgumentsInvalid`] for standard input, a compressed log, something other
/// than a regular file, or a pattern whose matches depend on other lines;
/// [`ErrorKind::Io`] for a path that does not exist, a directory without logs, a glob that
/// matches nothing.
pub(super) fn check(a: &FindArgs, re: &Regex) -> Result<Vec<PathBuf>, Error> {
    let records = a.format.is_some_and(LogFormat::has_records);
    // With a record format the pattern runs on each record's message, new or not.
    if !records && (looks_at_text_start(re) || !matches_stay_in_lines(re.ast())) {
        return Err(invalid(format!(
            "--follow matches each new record as it arrives, and {:?} can find other matches \
             there than in the whole text (it can match across a line break, or anchors at the \
             start or end of the whole text): keep its matches inside one line (e.g. [ \\t] \
             for \\s, (?m) for ^ and $), or give --format to match each record's message",
            re.pattern()
        )));
    }
    crate::workbench::follow::followable(&inputs::origins(&a.common.file)?)
}

/// What follows the matches of the text already read: polls the logs and prints the matches
/// of each new record as it arrives, until `--limit` matches in all (`printed` so far) or
/// the process is stopped.
///
/// # Errors
/// Writing fails, or a log cannot be read where following starts.
pub(super) fn run(
    a: &FindArgs,
    re: &Regex,
    paths: &[PathBuf],
    input: &TextInput,
    printed: usize,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let limits = a.common.budget.limits();
    let limit = limits.clamp_matches(a.limit);
    if limit.is_some_and(|l| printed >= l) {
        return Ok(0);
    }
    let read = input.bytes_read();
    let names = input.names();
    if read.len() != paths.len() || names.len() != paths.len() {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "the logs changed while they were listed: {} named, {} read",
                paths.len(),
                read.len()
            ),
        )
        .into());
    }
    let forced = a.format;
    let logs = paths
        .iter()
        .zip(&read)
        .map(|(p, &offset)| {
            FleetLog::standing(p, offset, forced)
                .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", p.display())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let shown = logs.iter().filter_map(|l| l.time).max();
    let mut fleet = FleetFollower::new(&logs, shown);
    let range = a.time.range()?;
    let tagged = paths.len() > 1;
    let color = use_color(a.common.color);
    writeln!(
        err,
        "rxw: following {} (Ctrl-C stops): new records in time order; a record stamped before \
         one already shown is shown at arrival and counted",
        if tagged {
            format!("{} logs", paths.len())
        } else {
            names[0].clone()
        }
    )?;
    err.flush()?;
    let mut printer = Printer {
        re,
        names,
        tagged,
        color,
        formats: logs.iter().map(|l| l.format).collect(),
        options: MatchOptions::within(&limits),
        budget: &a.common.budget,
        printed,
        limit,
        skipped: 0,
    };
    let mut late = 0;
    let (tx, woken) = std::sync::mpsc::channel();
    let _watcher = watch(paths, tx);
    loop {
        let poll = fleet.poll();
        say(&poll, names, err)?;
        for arrival in &poll.arrivals {
            if !range.admits(arrival.time) {
                continue;
            }
            if printer.record(arrival, out)? == Done::Limit {
                out.flush()?;
                return Ok(0);
            }
        }
        out.flush()?;
        if fleet.late() > late {
            late = fleet.late();
            if let Some(note) = fleet.late_note() {
                writeln!(err, "rxw: {note}")?;
            }
        }
        if printer.skipped > 0 {
            writeln!(
                err,
                "rxw: warning: {} new line(s) were no record of their log's format and were \
                 skipped",
                printer.skipped
            )?;
            printer.skipped = 0;
        }
        // A file event, or the timer; the events of one burst of writes wake it once.
        let _ = woken.recv_timeout(POLL);
        while woken.try_recv().is_ok() {}
    }
}

/// Says on `err` what a poll found besides records: a log read again, gone, or unreadable.
fn say(poll: &FleetPoll, names: &[String], err: &mut dyn Write) -> Result<(), CliError> {
    for (k, why) in &poll.reloaded {
        let name = &names[*k];
        let what = match why {
            Reload::Truncated => "was truncated: following it from its start",
            Reload::Rotated => "was replaced (rotated): following the new file from its start",
        };
        writeln!(err, "rxw: {name} {what}")?;
    }
    for (k, event) in &poll.notices {
        let name = &names[*k];
        let said = match event {
            FollowEvent::Missing => {
                format!("{name} is gone (rotated?): waiting for a file at that path")
            }
            FollowEvent::NotRegular(kind) => format!(
                "{name} is {kind} now, not a regular file: not read; waiting for a regular file at that path"
            ),
            FollowEvent::Failed(e) => format!("cannot read {name}: {e}"),
            FollowEvent::Unchanged | FollowEvent::Appended(_) | FollowEvent::Reloaded { .. } => {
                continue;
            }
        };
        writeln!(err, "rxw: {said}")?;
    }
    err.flush()?;
    Ok(())
}

#[derive(PartialEq, Eq)]
enum Done {
    More,
    Limit,
}

/// Prints the matches of new records as `find` prints them.
struct Printer<'a> {
    re: &'a Regex,
    names: &'a [String],
    tagged: bool,
    color: bool,
    formats: Vec<LogFormat>,
    options: MatchOptions<'a>,
    budget: &'a super::BudgetArgs,
    printed: usize,
    limit: Option<usize>,
    /// Lines that are no record of their log's format (a JSON log's non-JSON line).
    skipped: u64,
}

impl Printer<'_> {
    /// Prints the matches of one record that arrived (its log's format cuts it into the
    /// records the pattern runs on: the whole text for `lines`).
    fn record(
        &mut self,
        arrival: &crate::workbench::follow::Arrival,
        out: &mut dyn Write,
    ) -> Result<Done, CliError> {
        let text = arrival.text.as_str();
        let format = match self.formats[arrival.source] {
            f if f.has_records() => f,
            _ => LogFormat::Lines,
        };
        let mut extents = Vec::new();
        format::split(text, format, &[], &mut |s, e| extents.push((s, e)));
        let mut lines = LineIndex::new(text);
        for (start, end) in extents {
            let record = format::record(text, start, end, format);
            let (matched, at): (&str, Option<usize>) = match &record.message {
                Message::Stretch { at, .. } => (text, Some(*at)),
                Message::Decoded(m) => (m.as_str(), None),
                Message::Invalid(_) => {
                    self.skipped += 1;
                    continue;
                }
            };
            let record_place = lines.locate(start);
            for m in self
                .re
                .matches(record.message.as_str(), self.options.clone())
            {
                if self.limit.is_some_and(|l| self.printed >= l) {
                    return Ok(Done::Limit);
                }
                let mut m = m.map_err(|e| self.budget.explain(e))?;
                if let Some(at) = at {
                    for (s, e) in m.groups.iter_mut().flatten() {
                        *s += at;
                        *e += at;
                    }
                }
                let (line, column) = match at {
                    Some(_) => lines.locate(m.start()),
                    None => record_place,
                };
                let place = Place {
                    source: arrival.source,
                    line: arrival.line + line as u64 - 1,
                    merged_line: 0,
                    column,
                    source_offset: 0,
                };
                let shown = MatchLine {
                    re: self.re,
                    text: matched,
                    m: &m,
                    source: self.tagged.then(|| self.names[arrival.source].as_str()),
                    place,
                    color: self.color,
                };
                write_match_line(out, shown)?;
                self.printed += 1;
            }
        }
        Ok(if self.limit.is_some_and(|l| self.printed >= l) {
            Done::Limit
        } else {
            Done::More
        })
    }
}
