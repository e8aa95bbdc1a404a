//! Export: filtered lines, matches and preset hits as JSON Lines or CSV, written atomically.
//!
//! [`AtomicFile`] writes into a temporary file beside the destination (same directory, so
//! the final rename stays on one file system) and renames it over the destination only on
//! [`AtomicFile::commit`]: a reader sees the old file or the whole new one, never a part.
//! Dropped without a commit (an error half-way, a panic), it removes the temporary file.
//!
//! [`RecordWriter`] turns typed records ([`LineRecord`], [`MatchRecord`], [`HitRecord`]) into
//! one JSON object a line, or CSV with a header (RFC 4180 quoting; a record's groups are one
//! column holding their JSON object). [`export_to_path`] ties the two together.

use crate::engine::{MatchOptions, Regex};
use crate::error::{Error, ErrorKind};
use crate::presets::Scanner;
pub use crate::wire::{Groups, HitRecord};
use serde::Serialize;
use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON object a line.
    JsonLines,
    /// Comma-separated values with a header line.
    Csv,
}

impl Format {
    /// The format a path's extension suggests: `.csv` is CSV, anything else JSON Lines.
    pub fn from_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("csv") => Format::Csv,
            _ => Format::JsonLines,
        }
    }
}

fn io_error(path: &Path, e: io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("{}: {e}", path.display()))
}

/// A file that appears at its path, whole, only when committed.
pub struct AtomicFile {
    path: PathBuf,
    temp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates the temporary file beside `path`.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming `path` when its directory does not exist or is not writable,
    /// or `path` is a directory.
    pub fn create(path: &Path) -> Result<AtomicFile, Error> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        if path.is_dir() {
            return Err(Error::new(
                ErrorKind::Io,
                format!("{}: is a directory", path.display()),
            ));
        }
        let name = path.file_name().ok_or_else(|| {
            Error::new(
                ErrorKind::Io,
                format!("{}: not a file name", path.display()),
            )
        })?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(
            ".rxw-tmp-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let temp = dir.join(temp_name);
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(|e| io_error(path, e))?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            temp,
            file: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// The destination.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes, syncs and renames the temporary file over the destination.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the destination; the temporary file is removed then.
    pub fn commit(mut self) -> Result<(), Error> {
        let Some(writer) = self.file.take() else {
            return Ok(());
        };
        let done = writer
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(&self.temp, &self.path));
        match done {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = std::fs::remove_file(&self.temp);
                Err(io_error(&self.path, e))
            }
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(io::Error::other("file already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// A record that can be written as a JSON object or a CSV row.
pub trait Record: Serialize {
    /// The CSV header's column names.
    fn csv_header() -> &'static [&'static str];
    /// The row's fields, in header order.
    fn csv_fields(&self) -> Vec<Cow<'_, str>>;
}

/// A line that passed a filter: `{"line","text"}` (line from 1).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LineRecord<'t> {
    /// The line number, from 1.
    pub line: u64,
    /// The line's text, without its newline.
    pub text: &'t str,
}

impl Record for LineRecord<'_> {
    fn csv_header() -> &'static [&'static str] {
        &["line", "text"]
    }
    fn csv_fields(&self) -> Vec<Cow<'_, str>> {
        vec![self.line.to_string().into(), self.text.into()]
    }
}

/// A match: `{"line","index","end","match","groups"}` (byte offsets; groups by name, or by
/// number for unnamed ones, `null` when one did not take part).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MatchRecord<'t> {
    /// The line where the match starts, from 1.
    pub line: u64,
    /// Byte offset of the start.
    pub index: usize,
    /// Byte offset of the end.
    pub end: usize,
    /// The matched text.
    #[serde(rename = "match")]
    pub text: &'t str,
    /// The groups.
    pub groups: Groups<'t>,
}

impl Record for MatchRecord<'_> {
    fn csv_header() -> &'static [&'static str] {
        &["line", "index", "end", "match", "groups"]
    }
    fn csv_fields(&self) -> Vec<Cow<'_, str>> {
        vec![
            self.line.to_string().into(),
            self.index.to_string().into(),
            self.end.to_string().into(),
            self.text.into(),
            self.groups.to_json_text().into(),
        ]
    }
}

impl Record for HitRecord<'_> {
    fn csv_header() -> &'static [&'static str] {
        &["key", "index", "end", "match", "groups"]
    }
    fn csv_fields(&self) -> Vec<Cow<'_, str>> {
        vec![
            self.key.into(),
            self.index.to_string().into(),
            self.end.to_string().into(),
            self.text.into(),
            self.groups.to_json_text().into(),
        ]
    }
}

/// A hit and where it came from: the hit's columns, then `source` and `line` (empty for a
/// text given as an argument).
impl Record for crate::wire::Sourced<'_, HitRecord<'_>> {
    fn csv_header() -> &'static [&'static str] {
        &["key", "index", "end", "match", "groups", "source", "line"]
    }
    fn csv_fields(&self) -> Vec<Cow<'_, str>> {
        let mut fields = self.record.csv_fields();
        match &self.at {
            Some(at) => {
                fields.push(at.source.into());
                fields.push(at.line.to_string().into());
            }
            None => fields.extend([Cow::from(""), Cow::from("")]),
        }
        fields
    }
}

/// Writes records one a line in a [`Format`].
pub struct RecordWriter<W: Write> {
    out: W,
    format: Format,
    header_written: bool,
    records: usize,
}

impl<W: Write> RecordWriter<W> {
    /// A writer of `format` onto `out`.
    pub fn new(out: W, format: Format) -> RecordWriter<W> {
        RecordWriter {
            out,
            format,
            header_written: false,
            records: 0,
        }
    }

    /// Writes one record (for CSV, the header first, once).
    ///
    /// # Errors
    /// When writing fails.
    pub fn write<R: Record>(&mut self, record: &R) -> io::Result<()> {
        match self.format {
            Format::JsonLines => {
                serde_json::to_writer(&mut self.out, record).map_err(io::Error::from)?;
                self.out.write_all(b"\n")?;
            }
            Format::Csv => {
                if !self.header_written {
                    write_csv_row(&mut self.out, R::csv_header().iter().map(|s| Cow::from(*s)))?;
                    self.header_written = true;
                }
                write_csv_row(&mut self.out, record.csv_fields().into_iter())?;
            }
        }
        self.records += 1;
        Ok(())
    }

    /// How many records were written.
    pub fn records(&self) -> usize {
        self.records
    }

    /// The underlying writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Gives the underlying writer back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

fn write_csv_row<'a>(
    out: &mut impl Write,
    fields: impl Iterator<Item = Cow<'a, str>>,
) -> io::Result<()> {
    for (k, field) in fields.enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        if field.contains([',', '"', '\n', '\r']) {
            out.write_all(b"\"")?;
            out.write_all(field.replace('"', "\"\"").as_bytes())?;
            out.write_all(b"\"")?;
        } else {
            out.write_all(field.as_bytes())?;
        }
    }
    out.write_all(b"\r\n")
}

/// Finds the line of increasing byte offsets in one forward walk.
struct LineCursor<'t> {
    text: &'t str,
    line: u64,
    line_start: usize,
}

impl<'t> LineCursor<'t> {
    fn new(text: &'t str) -> Self {
        LineCursor {
            text,
            line: 1,
            line_start: 0,
        }
    }

    /// The line holding `offset` (offsets must not decrease between calls).
    fn line_of(&mut self, offset: usize) -> u64 {
        let bytes = self.text.as_bytes();
        while let Some(k) = memchr::memchr(b'\n', &bytes[self.line_start..offset.min(bytes.len())])
        {
            self.line += 1;
            self.line_start += k + 1;
        }
        self.line
    }

    /// The text of the current line, without its newline.
    fn current_line(&self) -> &'t str {
        let rest = &self.text[self.line_start..];
        let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
        rest[..end].strip_suffix('\r').unwrap_or(&rest[..end])
    }
}

/// Writes every line of `text` in which a match of `re` starts, once each.
///
/// # Errors
/// A matching error (a backtrack budget) or a write error ([`ErrorKind::Io`]).
pub fn lines_matching<W: Write>(
    out: &mut RecordWriter<W>,
    text: &str,
    re: &Regex,
) -> Result<usize, Error> {
    let mut cursor = LineCursor::new(text);
    let mut last_line = 0;
    let mut n = 0;
    for m in re.matches(text, MatchOptions::bounds_only()) {
        let line = cursor.line_of(m?.start());
        if line == last_line {
            continue;
        }
        last_line = line;
        out.write(&LineRecord {
            line,
            text: cursor.current_line(),
        })
        .map_err(write_error)?;
        n += 1;
    }
    Ok(n)
}

/// Writes every match of `re` in `text`, with its line and groups.
///
/// # Errors
/// A matching error (a backtrack budget) or a write error ([`ErrorKind::Io`]).
pub fn matches<W: Write>(
    out: &mut RecordWriter<W>,
    text: &str,
    re: &Regex,
) -> Result<usize, Error> {
    let mut cursor = LineCursor::new(text);
    let mut n = 0;
    for m in re.matches(text, MatchOptions::default()) {
        let m = m?;
        out.write(&MatchRecord {
            line: cursor.line_of(m.start()),
            index: m.start(),
            end: m.end(),
            text: m.as_str(text),
            groups: Groups::of(re, text, &m),
        })
        .map_err(write_error)?;
        n += 1;
    }
    Ok(n)
}

/// Writes every preset hit in `text`, in text order (the hits of `rxw parse`).
///
/// # Errors
/// A matching error (a backtrack budget) or a write error ([`ErrorKind::Io`]).
pub fn hits<W: Write>(
    out: &mut RecordWriter<W>,
    text: &str,
    scanner: &Scanner<'_>,
) -> Result<usize, Error> {
    let mut n = 0;
    for hit in scanner.hits(text, true) {
        let hit = hit?;
        out.write(&HitRecord::new(hit.entry, text, &hit.m))
            .map_err(write_error)?;
        n += 1;
    }
    Ok(n)
}

fn write_error(e: io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("cannot write the export: {e}"))
}

/// Runs `write` on a [`RecordWriter`] over an [`AtomicFile`] at `path`, and commits the file
/// only when it succeeds: on an error no file appears (an existing one is left as it was).
///
/// # Errors
/// The error of `write`, or [`ErrorKind::Io`] when the file cannot be created or committed.
pub fn export_to_path<T>(
    path: &Path,
    format: Format,
    write: impl FnOnce(&mut RecordWriter<AtomicFile>) -> Result<T, Error>,
) -> Result<T, Error> {
    let mut writer = RecordWriter::new(AtomicFile::create(path)?, format);
    let value = write(&mut writer)?;
    writer.into_inner().commit()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::{Flags, Flavor};

    fn dir_entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn matches_as_json_lines_and_csv() {
        let re = Regex::new(
            r"(?P<verb>CLAIM|RESULT) (\w+)",
            Flavor::Python,
            Flags::default(),
        )
        .unwrap();
        let text = "x\n[CLAIM a1] \"q\", ok\n[RESULT a1] OK\r\n";
        let mut w = RecordWriter::new(Vec::new(), Format::JsonLines);
        assert_eq!(matches(&mut w, text, &re).unwrap(), 2);
        assert_eq!(
            String::from_utf8(w.into_inner()).unwrap(),
            "{\"line\":2,\"index\":3,\"end\":11,\"match\":\"CLAIM a1\",\"groups\":{\"verb\":\"CLAIM\",\"2\":\"a1\"}}\n\
             {\"line\":3,\"index\":22,\"end\":31,\"match\":\"RESULT a1\",\"groups\":{\"verb\":\"RESULT\",\"2\":\"a1\"}}\n"
        );
        let mut w = RecordWriter::new(Vec::new(), Format::Csv);
        assert_eq!(lines_matching(&mut w, text, &re).unwrap(), 2);
        assert_eq!(
            String::from_utf8(w.into_inner()).unwrap(),
            "line,text\r\n2,\"[CLAIM a1] \"\"q\"\", ok\"\r\n3,[RESULT a1] OK\r\n"
        );
    }

    #[test]
    fn a_line_with_two_matches_is_written_once() {
        let re = Regex::new("a", Flavor::Rust, Flags::default()).unwrap();
        let mut w = RecordWriter::new(Vec::new(), Format::JsonLines);
        assert_eq!(lines_matching(&mut w, "aa\nb\nba", &re).unwrap(), 2);
        assert_eq!(
            String::from_utf8(w.into_inner()).unwrap(),
            "{\"line\":1,\"text\":\"aa\"}\n{\"line\":3,\"text\":\"ba\"}\n"
        );
    }

    #[test]
    fn a_committed_export_replaces_the_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, "old\n").unwrap();
        let re = Regex::new("b+", Flavor::Rust, Flags::default()).unwrap();
        let n = export_to_path(&path, Format::JsonLines, |w| matches(w, "abbc b", &re)).unwrap();
        assert_eq!(n, 2);
        assert_eq!(dir_entries(dir.path()), ["out.jsonl"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 2);
    }

    #[test]
    fn a_failed_export_leaves_no_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let re = Regex::new("b", Flavor::Rust, Flags::default()).unwrap();
        let err = export_to_path(&path, Format::Csv, |w| {
            matches(w, "b b b", &re)?;
            Err::<(), _>(Error::new(ErrorKind::BacktrackLimit, "budget exhausted"))
        })
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::BacktrackLimit);
        assert!(
            dir_entries(dir.path()).is_empty(),
            "{:?}",
            dir_entries(dir.path())
        );
        // An existing destination is left as it was.
        std::fs::write(&path, "keep").unwrap();
        let _ = export_to_path(&path, Format::Csv, |w| {
            matches(w, "b", &re)?;
            Err::<(), _>(Error::new(ErrorKind::Io, "disk full"))
        });
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep");
        assert_eq!(dir_entries(dir.path()), ["out.csv"]);
    }

    #[test]
    fn an_export_into_a_missing_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope").join("out.jsonl");
        let err = export_to_path(&path, Format::JsonLines, |_| Ok(())).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Io);
        assert!(err.message.contains("out.jsonl"), "{}", err.message);
        assert!(AtomicFile::create(dir.path()).is_err());
    }

    #[test]
    fn hit_records_have_the_parse_json_shape() {
        let catalog = crate::presets::builtin();
        let scanner = Scanner::new(catalog.iter().collect());
        let text = include_str!("../../../assets/demo.log");
        let mut n = 0;
        for hit in scanner.hits(text, true) {
            let hit = hit.unwrap();
            let record = serde_json::to_value(HitRecord::new(hit.entry, text, &hit.m)).unwrap();
            assert_eq!(record["key"], hit.entry.preset.key.as_str());
            assert_eq!(record["index"], hit.m.start());
            assert_eq!(record["match"], hit.m.as_str(text));
            let names = hit.entry.group_names();
            assert_eq!(record["groups"].as_object().unwrap().len(), names.len());
            n += 1;
        }
        assert!(n > 50, "{n}");
    }
}
