//! Exporting the filtered lines, the matches or the lens hits to a file, off the caller's
//! thread, through [`crate::export`] (JSON Lines or CSV by the file's extension, written
//! atomically: a failed export leaves no file, and an existing file as it was).

use super::matching::SharedWaker;
use super::task::{Reply, Task, reply_channel};
use crate::engine::Regex;
use crate::error::{Error, ErrorKind};
use crate::export::{self, Format, LineRecord};
use crate::presets::model::Catalog;
use crate::presets::parse_all::Scanner;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;

/// What an export writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportWhat {
    /// The lines the filter shows (`{"line","text"}`), or with no filter on, each line in
    /// which a match starts.
    Lines,
    /// Every match with its line and groups (`{"line","index","end","match","groups"}`).
    Matches,
    /// The lens hits of the shown keys, the shape of `rxw parse --json`.
    LensHits,
}

impl ExportWhat {
    /// Cycling order in the prompt.
    pub fn next(self) -> ExportWhat {
        match self {
            ExportWhat::Lines => ExportWhat::Matches,
            ExportWhat::Matches => ExportWhat::LensHits,
            ExportWhat::LensHits => ExportWhat::Lines,
        }
    }

    /// What the records are, in the plural (`lines`, `matches`, `lens hits`).
    pub fn noun(self) -> &'static str {
        match self {
            ExportWhat::Lines => "lines",
            ExportWhat::Matches => "matches",
            ExportWhat::LensHits => "lens hits",
        }
    }

    /// The file name offered for it.
    pub fn default_file(self) -> &'static str {
        match self {
            ExportWhat::Lines => "rxw-lines.jsonl",
            ExportWhat::Matches => "rxw-matches.jsonl",
            ExportWhat::LensHits => "rxw-hits.jsonl",
        }
    }
}

/// Everything an export needs, owned (the text shared), so it runs on a worker.
pub struct ExportRequest {
    /// What to write.
    pub what: ExportWhat,
    /// Where.
    pub path: PathBuf,
    /// The input.
    pub text: Arc<String>,
    /// The pattern (lines and matches).
    pub regex: Option<Arc<Regex>>,
    /// The filter's rows (lines from 0), when a filter is on.
    pub rows: Option<Vec<u32>>,
    /// The registry and the shown keys' indices (lens hits).
    pub presets: Option<(Arc<Catalog>, Vec<usize>)>,
}

/// A finished export.
#[derive(Debug)]
pub struct ExportOutcome {
    /// What was written.
    pub what: ExportWhat,
    /// Where.
    pub path: PathBuf,
    /// Records written, or why nothing was.
    pub result: Result<usize, Error>,
}

impl ExportOutcome {
    /// The status bar's sentence: `exported 44 matches to out.jsonl (JSON Lines)`, or the error.
    pub fn message(&self) -> String {
        match &self.result {
            Ok(n) => format!(
                "exported {n} {} to {} ({})",
                self.what.noun(),
                self.path.display(),
                match Format::from_path(&self.path) {
                    Format::Csv => "CSV",
                    Format::JsonLines => "JSON Lines",
                }
            ),
            Err(e) => format!("export failed, nothing written: {}", e.message),
        }
    }
}

/// Writes `req` to its file (on the calling thread).
///
/// # Errors
/// Nothing to export from (no valid pattern), a matching error, or an I/O error.
pub fn write(req: &ExportRequest) -> Result<usize, Error> {
    let text: &str = &req.text;
    let format = Format::from_path(&req.path);
    let no_pattern = || Error::new(ErrorKind::PatternInvalid, "no valid pattern to export");
    match req.what {
        ExportWhat::Lines => match &req.rows {
            Some(rows) => export::export_to_path(&req.path, format, |w| {
                write_rows(w, text, rows)
                    .map_err(|e| Error::new(ErrorKind::Io, format!("cannot write the export: {e}")))
            }),
            None => {
                let re = req.regex.as_ref().ok_or_else(no_pattern)?;
                export::export_to_path(&req.path, format, |w| export::lines_matching(w, text, re))
            }
        },
        ExportWhat::Matches => {
            let re = req.regex.as_ref().ok_or_else(no_pattern)?;
            export::export_to_path(&req.path, format, |w| export::matches(w, text, re))
        }
        ExportWhat::LensHits => {
            let (catalog, keys) = req
                .presets
                .as_ref()
                .ok_or_else(|| Error::new(ErrorKind::PresetUnknown, "no registry loaded"))?;
            let entries = catalog.entries();
            let scanner = Scanner::new(keys.iter().map(|&k| &entries[k]).collect());
            export::export_to_path(&req.path, format, |w| export::hits(w, text, &scanner))
        }
    }
}

/// Writes lines `rows` (from 0, increasing) of `text` as line records.
fn write_rows<W: std::io::Write>(
    w: &mut export::RecordWriter<W>,
    text: &str,
    rows: &[u32],
) -> std::io::Result<usize> {
    let bytes = text.as_bytes();
    let (mut line, mut start) = (0usize, 0usize);
    for row in rows.iter().map(|&r| r as usize) {
        while line < row {
            match memchr::memchr(b'\n', &bytes[start..]) {
                Some(k) => start += k + 1,
                None => return Ok(w.records()),
            }
            line += 1;
        }
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |k| start + k);
        let s = &text[start..end];
        w.write(&LineRecord {
            line: row as u64 + 1,
            text: s.strip_suffix('\r').unwrap_or(s),
        })?;
    }
    Ok(w.records())
}

/// Runs exports on a worker, one at a time.
pub struct Exporter {
    task: Task<ExportRequest>,
    results: Receiver<ExportOutcome>,
    running: Option<PathBuf>,
}

fn run_export(req: ExportRequest, _cancel: &AtomicBool, reply: &Reply<ExportOutcome>) {
    let result = write(&req);
    reply.send(ExportOutcome {
        what: req.what,
        path: req.path,
        result,
    });
}

impl Exporter {
    /// An exporter whose worker calls `waker` when an export ends.
    pub fn new(waker: SharedWaker) -> Exporter {
        let (reply, results) = reply_channel(waker);
        Exporter {
            task: Task::spawn("rxw-export", move |req, cancel| {
                run_export(req, cancel, &reply)
            }),
            results,
            running: None,
        }
    }

    /// The file being written, while an export runs.
    pub fn running(&self) -> Option<&Path> {
        self.running.as_deref()
    }

    /// Starts `req`; an error when an export is still running (it is not cancelled: a file
    /// the user asked for is finished or not written at all).
    ///
    /// # Errors
    /// Another export is under way.
    pub fn start(&mut self, req: ExportRequest) -> Result<(), String> {
        if let Some(p) = &self.running {
            return Err(format!("still exporting to {}: wait for it", p.display()));
        }
        self.running = Some(req.path.clone());
        self.task.submit(req);
        Ok(())
    }

    /// The export that ended, if one did.
    pub fn poll(&mut self) -> Option<ExportOutcome> {
        let done = self.results.try_recv().ok()?;
        self.running = None;
        Some(done)
    }

    /// Waits up to `timeout` for the running export (tests).
    pub fn wait(&mut self, timeout: std::time::Duration) -> Option<ExportOutcome> {
        let done = self.results.recv_timeout(timeout).ok()?;
        self.running = None;
        Some(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::{Flags, Flavor};
    use std::time::Duration;

    fn request(what: ExportWhat, path: &Path, text: &str) -> ExportRequest {
        let catalog = Arc::new(
            crate::presets::load::load(&crate::presets::load::LoadOptions::default()).catalog,
        );
        let keys = (0..catalog.len()).collect();
        ExportRequest {
            what,
            path: path.to_path_buf(),
            text: Arc::new(text.to_string()),
            regex: Some(Arc::new(
                Regex::new(r"\[CLAIM (\w+)\]", Flavor::PYTHON, Flags::default()).unwrap(),
            )),
            rows: None,
            presets: Some((catalog, keys)),
        }
    }

    #[test]
    fn exports_run_on_the_worker_and_say_how_many_records() {
        let dir = tempfile::tempdir().unwrap();
        let text = "a\n[CLAIM x1] [CLAIM x2]\nb\r\n[CLAIM y]\n";
        let mut ex = Exporter::new(SharedWaker::default());
        let path = dir.path().join("m.jsonl");
        ex.start(request(ExportWhat::Matches, &path, text)).unwrap();
        assert!(ex.start(request(ExportWhat::Matches, &path, text)).is_err());
        let done = ex.wait(Duration::from_secs(10)).unwrap();
        assert_eq!(done.result.as_ref().unwrap(), &3);
        assert!(
            done.message().starts_with("exported 3 matches to "),
            "{}",
            done.message()
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 3);

        // The filter's rows, context lines included, as CSV.
        let path = dir.path().join("l.csv");
        let mut req = request(ExportWhat::Lines, &path, text);
        req.rows = Some(vec![1, 2, 3]);
        ex.start(req).unwrap();
        let done = ex.wait(Duration::from_secs(10)).unwrap();
        assert_eq!(done.result.unwrap(), 3);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "line,text\r\n2,[CLAIM x1] [CLAIM x2]\r\n3,b\r\n4,[CLAIM y]\r\n"
        );

        // Lens hits are parse --jsonl's lines.
        let path = dir.path().join("h.jsonl");
        ex.start(request(ExportWhat::LensHits, &path, text))
            .unwrap();
        let n = ex.wait(Duration::from_secs(10)).unwrap().result.unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(written.lines().count(), n);
        crate::testing::assert_starts(&written, "{\"key\":\"verb\",\"index\":2,");
    }

    #[test]
    fn an_unwritable_path_is_an_error_and_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-dir").join("out.jsonl");
        let mut ex = Exporter::new(SharedWaker::default());
        ex.start(request(ExportWhat::Matches, &path, "[CLAIM a]"))
            .unwrap();
        let done = ex.wait(Duration::from_secs(10)).unwrap();
        assert!(done.result.is_err());
        assert!(
            done.message()
                .starts_with("export failed, nothing written:")
        );
        assert!(!path.exists());
        assert!(ex.running().is_none());
        // No pattern: said, nothing written.
        let path = dir.path().join("out.jsonl");
        let mut req = request(ExportWhat::Matches, &path, "x");
        req.regex = None;
        assert!(write(&req).is_err());
        assert!(!path.exists());
    }
}
