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
        if crate::extension_is(path, "csv") {
            Format::Csv
        } else {
            Format::JsonLines
        }
    }
}

fn io_error(path: &Path, e: io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("{}: {e}", path.display()))
}

/// A file that appears at its path, whole, only when committed.
///
/// What "its path" is depends on what is there:
/// - nothing, or a regular file: a temporary file beside it is renamed over it on commit
///   (a replaced file keeps its permissions);
/// - a symbolic link (or a chain of them) to a regular file, or a dangling one: the file the
///   link names is replaced (or created) that way, and the link stays a link;
/// - anything else (a character device such as `/dev/null` or a terminal, a FIFO, a socket,
///   `/dev/stdout` onto a pipe): it is opened and written in place, as a shell's `>` would;
///   there is no file to replace, so no atomicity either (opening a FIFO waits for its
///   reader);
/// - a directory: an error.
pub struct AtomicFile {
    path: PathBuf,
    /// The temporary file and the file it replaces on commit; `None` when written in place.
    rename: Option<(PathBuf, PathBuf)>,
    file: Option<BufWriter<File>>,
}

/// Where [`AtomicFile`] writes.
enum Destination {
    /// Replace (or create) this regular file by renaming a temporary over it, giving the
    /// temporary these permissions when the file exists.
    Replace(PathBuf, Option<std::fs::Permissions>),
    /// Open the path and write into it.
    InPlace,
}

/// How many symbolic links are followed before giving up (as the kernel's ELOOP).
const MAX_LINKS: usize = 40;

/// Decides where a write to `path` goes (see [`AtomicFile`]).
fn destination(path: &Path) -> Result<Destination, Error> {
    // What the path leads to, as the system resolves it (this also follows links that name
    // no path, such as `/dev/stdout` onto a pipe).
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(Error::new(
            ErrorKind::Io,
            format!("{}: is a directory", path.display()),
        )),
        Ok(meta) if !meta.is_file() => Ok(Destination::InPlace),
        Ok(meta) => {
            let linked = std::fs::symlink_metadata(path)
                .map(|m| m.file_type().is_symlink())
                .unwrap_or(false);
            let file = if linked {
                std::fs::canonicalize(path).map_err(|e| io_error(path, e))?
            } else {
                path.to_path_buf()
            };
            Ok(Destination::Replace(file, Some(meta.permissions())))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => dangling_end(path),
        Err(e) => Err(io_error(path, e)),
    }
}

/// Where a path that leads to nothing would be created: itself, or the end of the chain of
/// symbolic links it starts (a dangling link's file is created, the link kept).
fn dangling_end(path: &Path) -> Result<Destination, Error> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&at).map_err(|e| io_error(path, e))?;
                at = match at.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            _ => return Ok(Destination::Replace(at, None)),
        }
    }
    Err(Error::new(
        ErrorKind::Io,
        format!(
            "{}: more than {MAX_LINKS} symbolic links to follow",
            path.display()
        ),
    ))
}

impl AtomicFile {
    /// Opens the destination for writing: a temporary file beside the file to replace, or
    /// the special file itself (see [`AtomicFile`]).
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming `path` when its directory does not exist or is not writable,
    /// `path` is a directory, or a special file cannot be opened for writing.
    pub fn create(path: &Path) -> Result<AtomicFile, Error> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let (dest, permissions) = match destination(path)? {
            Destination::Replace(dest, permissions) => (dest, permissions),
            Destination::InPlace => {
                let file = File::options()
                    .write(true)
                    .open(path)
                    .map_err(|e| io_error(path, e))?;
                return Ok(AtomicFile {
                    path: path.to_path_buf(),
                    rename: None,
                    file: Some(BufWriter::with_capacity(1 << 16, file)),
                });
            }
        };
        // A file the user could not write is refused, as the shell's `>` refuses it (the
        // rename would replace it all the same: a directory's permission is what it asks).
        if permissions.is_some() {
            File::options()
                .write(true)
                .open(&dest)
                .map_err(|e| io_error(path, e))?;
        }
        let name = dest.file_name().ok_or_else(|| {
            Error::new(
                ErrorKind::Io,
                format!("{}: not a file name", path.display()),
            )
        })?;
        let dir = match dest.parent() {
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
        if let Some(permissions) = permissions
            && let Err(e) = file.set_permissions(permissions)
        {
            let _ = std::fs::remove_file(&temp);
            return Err(io_error(path, e));
        }
        Ok(AtomicFile {
            path: path.to_path_buf(),
            rename: Some((temp, dest)),
            file: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// The destination, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes, syncs and renames the temporary file over the file it replaces; a special
    /// file written in place is flushed.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the destination; the temporary file is removed then.
    pub fn commit(mut self) -> Result<(), Error> {
        let Some(writer) = self.file.take() else {
            return Ok(());
        };
        let file = writer.into_inner().map_err(|e| e.into_error());
        let Some((temp, dest)) = self.rename.take() else {
            return file.map(drop).map_err(|e| io_error(&self.path, e));
        };
        let done = file
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(&temp, &dest));
        match done {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = std::fs::remove_file(&temp);
                Err(io_error(&self.path, e))
            }
        }
    }
}

/// Writes `bytes` to `path` through an [`AtomicFile`]: the file appears whole or not at all,
/// keeps its permissions and links, and a file the user cannot write is refused. The one
/// writer of every output file rxw writes (exports, registries, sessions).
///
/// # Errors
/// As [`AtomicFile::create`] and [`AtomicFile::commit`]; a failed write leaves the old file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes).map_err(|e| io_error(path, e))?;
    file.commit()
}

/// The first name `stem.extension`, `stem.1.extension`, … in `dir` that names nothing yet
/// (not even a dangling link): the path a prompt offers, so accepting it overwrites nothing.
pub fn free_name(dir: &Path, stem: &str, extension: &str) -> PathBuf {
    (0..1000u32)
        .map(|k| match k {
            0 => dir.join(format!("{stem}.{extension}")),
            k => dir.join(format!("{stem}.{k}.{extension}")),
        })
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .unwrap_or_else(|| dir.join(format!("{stem}.{extension}")))
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
        if self.file.take().is_some()
            && let Some((temp, _)) = &self.rename
        {
            let _ = std::fs::remove_file(temp);
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
    let lines = re
        .matches(text, MatchOptions::bounds_only())
        .filter_map(|m| {
            let line = match m {
                Ok(m) => cursor.line_of(m.start()),
                Err(e) => return Some(Err(e.into())),
            };
            (line != last_line).then(|| {
                last_line = line;
                Ok(LineRecord {
                    line,
                    text: cursor.current_line(),
                })
            })
        });
    write_each(out, lines)
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
    let records = re.matches(text, MatchOptions::default()).map(|m| {
        let m = m?;
        Ok(MatchRecord {
            line: cursor.line_of(m.start()),
            index: m.start(),
            end: m.end(),
            text: m.as_str(text),
            groups: Groups::of(re, text, &m),
        })
    });
    write_each(out, records)
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
    let records = scanner.hits(text, true).map(|hit| {
        let hit = hit?;
        Ok(HitRecord::new(hit.entry, text, &hit.m))
    });
    write_each(out, records)
}

/// Writes the records in order until the first error (a matching error, or a write error
/// as [`ErrorKind::Io`]): how many it wrote.
fn write_each<W: Write, R: Record>(
    out: &mut RecordWriter<W>,
    records: impl Iterator<Item = Result<R, Error>>,
) -> Result<usize, Error> {
    let mut n = 0;
    for record in records {
        out.write(&record?).map_err(write_error)?;
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

    /// Regression: `parse -o` and `jobs -o` replaced a read-only (0444) file that the shell's
    /// `>` refuses. The writer refuses exactly what the shell refuses (as root, both write).
    #[cfg(unix)]
    #[test]
    fn a_file_the_shell_would_not_write_is_refused_and_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let ours = dir.path().join("ours.jsonl");
        let shells = dir.path().join("shells.jsonl");
        for p in [&ours, &shells] {
            std::fs::write(p, "old\n").unwrap();
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o444)).unwrap();
        }
        let shell_wrote = std::process::Command::new("sh")
            .arg("-c")
            .arg("echo new > \"$0\"")
            .arg(&shells)
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
            .success();
        let ours_wrote = write_atomically(&ours, b"new\n").is_ok();
        assert_eq!(ours_wrote, shell_wrote);
        let kept = std::fs::read_to_string(&ours).unwrap();
        assert_eq!(kept, if shell_wrote { "new\n" } else { "old\n" });
        // A replaced file keeps its mode.
        let mode = std::fs::metadata(&ours).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o444);
    }

    /// Regression: the Presets tab's export wrote a fixed name in the working directory and
    /// followed a link planted there onto another file. The name it offers is one that names
    /// nothing yet: not a file, not a link (even a dangling one).
    #[cfg(unix)]
    #[test]
    fn the_offered_export_name_is_never_a_file_or_a_planted_link() {
        let (dir, victim) = crate::testing::temp_file("victim", "precious");
        std::os::unix::fs::symlink(&victim, dir.path().join("rxw-registry.duckdb.sql")).unwrap();
        std::os::unix::fs::symlink(
            dir.path().join("none"),
            dir.path().join("rxw-registry.duckdb.1.sql"),
        )
        .unwrap();
        let offered = free_name(dir.path(), "rxw-registry.duckdb", "sql");
        assert_eq!(offered, dir.path().join("rxw-registry.duckdb.2.sql"));
        write_atomically(&offered, b"CREATE").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(
            free_name(dir.path(), "rxw-registry.duckdb", "sql"),
            dir.path().join("rxw-registry.duckdb.3.sql")
        );
    }
    use crate::flavor::{Flags, Flavor};

    /// Writes `bytes` to `path` as an export does, committed.
    #[cfg(unix)]
    fn export_to(path: &Path, bytes: &[u8]) {
        let mut f = AtomicFile::create(path).unwrap();
        f.write_all(bytes).unwrap();
        f.commit().unwrap();
    }

    #[cfg(unix)]
    fn is_link(path: &Path) -> bool {
        std::fs::symlink_metadata(path)
            .unwrap()
            .file_type()
            .is_symlink()
    }

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
            Flavor::PYTHON,
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
        let (dir, path) = crate::testing::temp_file("out.jsonl", "old\n");
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
        crate::testing::assert_message_has(&err, "out.jsonl");
        assert!(AtomicFile::create(dir.path()).is_err());
    }

    /// Regression: `-o` replaced special files and links: as root `-o /dev/null` turned the
    /// device into a regular file, `-o fifo` replaced the FIFO, `-o link` the link itself.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("out.fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let mut reader = std::process::Command::new("cat")
            .arg(&fifo)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let written = AtomicFile::create(&fifo).and_then(|mut f| {
            f.write_all(b"through the pipe\n").unwrap();
            f.commit()
        });
        let still_fifo = std::fs::symlink_metadata(&fifo)
            .map(|m| m.file_type().is_fifo())
            .unwrap_or(false);
        if !still_fifo {
            let _ = reader.kill();
        }
        let out = reader.wait_with_output().unwrap();
        written.unwrap();
        assert!(still_fifo, "the FIFO was replaced");
        assert_eq!(out.stdout, b"through the pipe\n");
        assert_eq!(dir_entries(dir.path()), ["out.fifo"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_character_device_is_written_in_place() {
        // A null device of the test's own (as /dev/null is: major 1, minor 3), so that a
        // regression replaces a file in a temporary directory, not the system's /dev/null.
        // Making a device needs privileges; without them the test has nothing to check.
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let null = dir.path().join("null");
        let made = std::process::Command::new("mknod")
            .arg(&null)
            .args(["c", "1", "3"])
            .stderr(std::process::Stdio::null())
            .status();
        if !made.is_ok_and(|s| s.success()) {
            return;
        }
        export_to(&null, b"gone");
        let meta = std::fs::symlink_metadata(&null).unwrap();
        assert!(meta.file_type().is_char_device(), "the device was replaced");
        assert_eq!(dir_entries(dir.path()), ["null"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_file_replaces_the_file_and_stays_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real_dir = dir.path().join("real");
        std::fs::create_dir(&real_dir).unwrap();
        let target = real_dir.join("data.jsonl");
        std::fs::write(&target, "old\n").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink("real/data.jsonl", &link).unwrap();
        // A link to that link: the chain is followed to the file.
        let link2 = dir.path().join("link2.jsonl");
        std::os::unix::fs::symlink("link.jsonl", &link2).unwrap();
        export_to(&link2, b"new\n");
        for l in [&link, &link2] {
            assert!(is_link(l));
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(dir_entries(&real_dir), ["data.jsonl"]);
        // A dangling link: the file it names is created.
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("real/created.csv", &dangling).unwrap();
        export_to(&dangling, b"x");
        assert!(is_link(&dangling));
        assert_eq!(
            std::fs::read_to_string(real_dir.join("created.csv")).unwrap(),
            "x"
        );
        // A link to a directory is a directory.
        let to_dir = dir.path().join("to_dir");
        std::os::unix::fs::symlink("real", &to_dir).unwrap();
        assert!(AtomicFile::create(&to_dir).is_err());
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
