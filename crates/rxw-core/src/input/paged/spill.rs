//! A compressed or merged input: [`PagedText::open_merged`] decodes it into a private spill
//! file (with the runs and extents files beside it), written a chunk at a time by the
//! spiller on a background thread.

use super::shared::Shared;
use super::shared::index_block;
use super::{BLOCK_BYTES, PagedOptions, PagedText, io_error};
use crate::error::Error;
use crate::input::chunks::{Chunk, Chunks, ChunksAhead};
use crate::input::logs::{MergedLines, Origin};
use crate::input::records::{Extents, RecordFile, join_value};
use std::fs::File;
use std::io::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A new spill directory (in `parent`, else the system's temporary directory) that only its
/// owner can enter (0700 on Unix, whatever the umask).
fn private_spill_dir(parent: Option<&Path>) -> std::io::Result<tempfile::TempDir> {
    let mut builder = tempfile::Builder::new();
    builder.prefix("rxw-spill-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    match parent {
        Some(d) => builder.tempdir_in(d),
        None => builder.tempdir(),
    }
}

/// Creates a new spill file that only its owner can read or write (0600 on Unix, whatever
/// the umask); an existing file at `path` is an error, never reused.
fn create_private(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// Opens a file with no name in `dir` (Linux's `O_TMPFILE`), readable and writable by its
/// owner alone: no other user can ever open it, not even in the moment a named file would
/// exist before it is unlinked. It is gone when its last handle closes.
#[cfg(target_os = "linux")]
fn anonymous_file(dir: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_TMPFILE)
        .open(dir)
}

/// Where a spill's files are made: files without a name where the file system makes them
/// (`O_TMPFILE`: ext4, xfs, btrfs, tmpfs), else files in a private directory (0700, files
/// 0600) unlinked as soon as they are open.
enum SpillPlace {
    /// Anonymous files in this directory.
    Anonymous(std::path::PathBuf),
    /// Named files in a private directory, until [`SpillPlace::unlink`].
    Private(tempfile::TempDir),
}

impl SpillPlace {
    fn new(parent: Option<&Path>) -> std::io::Result<SpillPlace> {
        #[cfg(target_os = "linux")]
        {
            let dir = parent.map_or_else(std::env::temp_dir, Path::to_path_buf);
            if anonymous_file(&dir).is_ok() {
                return Ok(SpillPlace::Anonymous(dir));
            }
        }
        private_spill_dir(parent).map(SpillPlace::Private)
    }

    /// A new spill file: a handle to read it at positions, and one to write it.
    fn file(&self, name: &str) -> std::io::Result<(File, File)> {
        match self {
            #[cfg(target_os = "linux")]
            SpillPlace::Anonymous(dir) => {
                let writer = anonymous_file(dir)?;
                // The reader reads at positions only, so sharing the writer's offset is fine.
                let reader = writer.try_clone()?;
                Ok((reader, writer))
            }
            #[cfg(not(target_os = "linux"))]
            SpillPlace::Anonymous(_) => unreachable!("anonymous spill files are Linux's"),
            SpillPlace::Private(dir) => {
                let path = dir.path().join(name);
                let writer = create_private(&path)?;
                Ok((File::open(&path)?, writer))
            }
        }
    }

    /// The directory the spill's disk room is measured in.
    fn parent(&self) -> std::path::PathBuf {
        match self {
            SpillPlace::Anonymous(dir) => dir.clone(),
            SpillPlace::Private(dir) => dir
                .path()
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
        }
    }

    /// Takes every name away once the files are open (nothing to do for anonymous ones).
    fn unlink(self) -> std::io::Result<()> {
        match self {
            SpillPlace::Anonymous(_) => Ok(()),
            SpillPlace::Private(dir) => dir.close(),
        }
    }
}

impl PagedText {
    /// Decodes and merges `origins` (compressed logs, several logs merged by time) through
    /// [`Chunks`] into a spill file in a new temporary directory, on a background thread;
    /// the first chunk is written before this returns. The spill is removed when the last
    /// handle is dropped.
    ///
    /// # Errors
    /// [`ErrorKind::Io`](crate::error::ErrorKind::Io) when a source cannot be opened or the spill
    /// cannot be created.
    pub fn open_merged(origins: &[Origin], options: &PagedOptions) -> Result<PagedText, Error> {
        let merged = MergedLines::open(origins)?;
        let names = merged.names().to_vec();
        let progress = merged.progress();
        // The spill holds the decoded text of logs the user may have kept private: only the
        // user ever reads it (files without a name, or 0600 files in a 0700 directory for the
        // few milliseconds before they are unlinked, whatever the umask).
        let place = SpillPlace::new(options.spill_dir.as_deref())
            .map_err(|e| io_error(format!("cannot create the spill directory: {e}")))?;
        let spill_parent = place.parent();
        let spill_err = |e: std::io::Error| {
            io_error(format!(
                "cannot create a spill file in {}: {e}",
                spill_parent.display()
            ))
        };
        let (file, writer) = place.file("text").map_err(spill_err)?;
        let record_file = |name: &str| -> Result<_, Error> {
            let (r, w) = place.file(name).map_err(spill_err)?;
            Ok((
                RecordFile::new(r),
                std::io::BufWriter::with_capacity(1 << 16, w),
            ))
        };
        let (sources, source_writer) = if names.len() > 1 {
            let (file, writer) = record_file("sources")?;
            (Some(file), Some(writer))
        } else {
            (None, None)
        };
        // Plain logs are read where they are: the spill holds only the rest (decoded
        // archives, the line breaks added after a log's unended last line, text whose
        // invalid UTF-8 was replaced), and the extents say where each stretch is.
        let in_place = merged.in_place();
        let (extents, extent_writer) = if in_place.iter().any(Option::is_some) {
            let (records, writer) = record_file("extents")?;
            (
                Some(Extents {
                    records,
                    changed: in_place.iter().map(|_| AtomicBool::new(false)).collect(),
                    sources: in_place,
                }),
                Some(writer),
            )
        } else {
            (None, None)
        };
        let chunks = match extents {
            Some(_) => Chunks::new(merged, BLOCK_BYTES).keeping_in_place(),
            None => Chunks::new(merged, BLOCK_BYTES),
        };
        // Every spill file is open: unlink them now, so the disk space is given back when the
        // process ends however it ends (a closed terminal's SIGHUP, SIGKILL), not only when
        // the last handle is dropped.
        let room = crate::input::room::spill_room(&spill_parent, options.spill_room);
        place
            .unlink()
            .map_err(|e| io_error(format!("cannot unlink the spill directory: {e}")))?;
        let text = PagedText::start(Shared::new(
            file,
            options,
            names,
            progress,
            sources,
            extents,
            Some((spill_parent, AtomicU64::new(0))),
        ));
        let mut spiller = Spiller {
            shared: Arc::clone(&text.shared),
            // The merge runs on a thread of its own, a chunk ahead of the writing and
            // indexing here: on two cores, the two take turns no more.
            chunks: ChunksAhead::start(chunks, 2, true),
            writer,
            source_writer,
            extent_writer,
            spilled: 0,
            continues: None,
            room,
        };
        super::step_in_background("rxw-spiller", "the spill writer", move || spiller.step())?;
        Ok(text)
    }
}

/// Writes the merged, decoded input into the spill a chunk at a time.
struct Spiller {
    shared: Arc<Shared>,
    chunks: ChunksAhead,
    writer: File,
    source_writer: Option<std::io::BufWriter<File>>,
    extent_writer: Option<std::io::BufWriter<File>>,
    /// Bytes written to the spill.
    spilled: u64,
    /// Where the last extent's bytes go on, as a record's value: a next stretch there
    /// extends it (no record).
    continues: Option<u64>,
    /// The most the spill may write and leave room on its disk
    /// ([`crate::input::room::spill_room`]).
    room: Option<u64>,
}

impl Spiller {
    /// Writes the next chunk; false once done (or stopped).
    fn step(&mut self) -> bool {
        if self.shared.stop.load(Ordering::Relaxed) {
            return false;
        }
        let Some(chunk) = self.chunks.next_chunk() else {
            self.finish(None);
            return false;
        };
        let failures = self.failures_said();
        if !failures.is_empty() {
            self.shared.build_state().warnings.extend(failures);
        }
        if let Some(room) = self.room
            && self.spilled + chunk.text.len() as u64 > room
        {
            // Said before the disk is full, not after: a decompression bomb would fill it.
            self.finish(Some(format!(
                "the spill stopped at {} MB to leave room on its disk (RXW_SPILL_ROOM=SIZE lets it write more); showing what was written",
                self.spilled / 1_000_000
            )));
            return false;
        }
        if let Err(e) = self.write_text(&chunk) {
            let path = self
                .shared
                .spill
                .as_ref()
                .map(|(p, _)| p.display().to_string());
            self.finish(Some(format!(
                "cannot write the spill {}: {e}; showing what was written",
                path.unwrap_or_default()
            )));
            return false;
        }
        if let Some(w) = &mut self.source_writer
            && let Some(src) = &self.shared.sources
        {
            // One record per run of lines from one source.
            let records: Vec<(u64, u64)> = chunk
                .runs
                .iter()
                .map(|run| (run.merged_line - 1, join_value(run.source, run.line)))
                .collect();
            if !src.append(w, &records, self.chunks.lines_read()) {
                // The runs written so far stay readable; later lines have no source shown.
                self.source_writer = None;
            }
        }
        let base = chunk.offset;
        index_block(&self.shared, base, chunk.text.as_bytes());
        let len = base + chunk.text.len();
        self.shared
            .keep_recent(base, Arc::new(chunk.text.into_bytes()));
        if let Some((_, n)) = &self.shared.spill {
            // What the spill's files take on disk: the text copied, the runs and extents.
            n.store(self.spilled + self.shared.record_bytes(), Ordering::Relaxed);
        }
        self.shared.len.store(len, Ordering::Release);
        if chunk.last {
            self.finish(None);
            return false;
        }
        true
    }

    /// Writes the chunk's text: all of it to the spill, or, with plain logs read in place,
    /// the stretches that are not a file's bytes, and the extents of both.
    fn write_text(&mut self, chunk: &Chunk) -> std::io::Result<()> {
        let text = chunk.text.as_bytes();
        let (Some(w), Some(extents)) = (&mut self.extent_writer, &self.shared.extents) else {
            self.writer.write_all(text)?;
            self.spilled += text.len() as u64;
            return Ok(());
        };
        // The stretches in order, each as where its bytes are (a record's value).
        let mut copied = Vec::new();
        let mut records = Vec::new();
        let mut continues = self.continues;
        let mut add = |start: usize, value: u64, len: usize| {
            if continues != Some(value) {
                records.push(((chunk.offset + start) as u64, value));
            }
            continues = Some(value + len as u64);
        };
        let mut pos = 0;
        for v in &chunk.verbatim {
            if v.offset > pos {
                add(
                    pos,
                    join_value(0, self.spilled + copied.len() as u64),
                    v.offset - pos,
                );
                copied.extend_from_slice(&text[pos..v.offset]);
            }
            add(v.offset, join_value(v.source + 1, v.at), v.len);
            pos = v.offset + v.len;
        }
        if pos < text.len() {
            add(
                pos,
                join_value(0, self.spilled + copied.len() as u64),
                text.len() - pos,
            );
            copied.extend_from_slice(&text[pos..]);
        }
        self.writer.write_all(&copied)?;
        self.spilled += copied.len() as u64;
        let end = (chunk.offset + text.len()) as u64;
        if !extents.records.append(w, &records, end) {
            return Err(std::io::Error::other("cannot write the extents"));
        }
        self.continues = continues;
        Ok(())
    }

    /// The sources' failures met since the last call, as the status bar says them.
    fn failures_said(&mut self) -> Vec<String> {
        self.chunks
            .take_failures()
            .into_iter()
            .map(|e| format!("{}; showing what was read", e.message))
            .collect()
    }

    fn finish(&mut self, warning: Option<String>) {
        let failures = self.failures_said();
        let utf8 = self.chunks.finish().and_then(|c| c.warning());
        self.shared
            .finish_build(failures.into_iter().chain(warning).chain(utf8));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::assert_same;
    use super::*;
    use crate::input::chunks::tests::stamped;
    use crate::testing::small;
    use proptest::prelude::*;
    use std::time::Duration;

    #[cfg(unix)]
    #[test]
    fn spill_files_are_readable_by_their_owner_alone() {
        use std::os::unix::fs::PermissionsExt;
        let parent = tempfile::tempdir().unwrap();
        let dir = private_spill_dir(Some(parent.path())).unwrap();
        let mode = std::fs::metadata(dir.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700, "spill directory mode {mode:o}");
        let path = dir.path().join("text");
        drop(create_private(&path).unwrap());
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "spill file mode {mode:o}");
        // A file planted at the spill's path is never opened as the spill.
        assert!(create_private(&path).is_err());
    }

    /// Regression: another user's inotify watcher read a spill file in the moments before it
    /// was unlinked. Where the file system makes files without a name (Linux's `O_TMPFILE`),
    /// a spill file never has one; elsewhere it is 0600 in a 0700 directory until unlinked.
    #[cfg(unix)]
    #[test]
    fn a_spill_file_never_has_a_name_where_the_file_system_allows() {
        use std::io::Write as _;
        use std::os::unix::fs::{FileExt, PermissionsExt};
        let parent = tempfile::tempdir().unwrap();
        let place = SpillPlace::new(Some(parent.path())).unwrap();
        let anonymous = matches!(place, SpillPlace::Anonymous(_));
        let (reader, mut writer) = place.file("text").unwrap();
        writer.write_all(b"decoded text").unwrap();
        let mut buf = [0u8; 7];
        reader.read_exact_at(&mut buf, 5).unwrap();
        assert_eq!(&buf, b"ed text", "the reader reads what the writer wrote");
        let mode = writer.metadata().unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "spill file mode {mode:o}");
        let names = || std::fs::read_dir(parent.path()).unwrap().count();
        if anonymous {
            assert_eq!(names(), 0, "an anonymous spill file has no name");
        } else {
            eprintln!(
                "note: this file system makes no anonymous files; the private directory is used"
            );
            assert_eq!(names(), 1, "the private directory");
        }
        place.unlink().unwrap();
        assert_eq!(names(), 0);
        #[cfg(target_os = "linux")]
        if std::fs::metadata("/tmp").is_ok() && anonymous_file(Path::new("/tmp")).is_ok() {
            assert!(
                SpillPlace::new(Some(Path::new("/tmp")))
                    .is_ok_and(|p| matches!(p, SpillPlace::Anonymous(_)))
            );
        }
    }

    #[test]
    fn merged_logs_spill_with_each_lines_source_and_leave_no_spill_on_disk() {
        use std::io::Write as _;
        let plain_a = stamped(3000, |k| format!("a{k}"));
        let plain_b = stamped(3000, |k| format!("b{k} é"));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(plain_b.as_bytes()).unwrap();
        let (_dir, origins) = crate::testing::plain_and_gz(&plain_a, &gz.finish().unwrap());
        // The same merged text as the whole-input reader gives.
        let mut whole = Chunks::new(MergedLines::open(&origins).unwrap(), usize::MAX);
        let want = whole.next_chunk().unwrap();
        let spills = tempfile::tempdir().unwrap();
        let options = PagedOptions {
            spill_dir: Some(spills.path().to_path_buf()),
            ..small(1000, 4)
        };
        let paged = PagedText::open_merged(&origins, &options).unwrap();
        assert_same(&want.text, &paged);
        // The spill's files were unlinked once open: nothing is left on disk to leak.
        let spill = paged.spill().unwrap().0.to_path_buf();
        let left = std::fs::read_dir(&spill)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.file_name().to_string_lossy().starts_with("rxw-spill-"))
            })
            .count();
        assert_eq!(left, 0, "no spill directory left in {}", spill.display());
        // The plain log is read in place: only the archive's text is in the spill.
        assert_eq!(
            paged.spill().unwrap().1 - paged.shared.record_bytes(),
            plain_b.len() as u64
        );
        // Every line names its source and its own line, as the chunk's runs do.
        let gutter: Vec<(usize, u64)> = (0..6000)
            .map(|l| paged.source_of_line(l).unwrap())
            .collect();
        assert_eq!(gutter[0], (0, 1));
        assert_eq!(gutter[1], (1, 1));
        assert_eq!(gutter[5999], (1, 3000));
        for (l, &(src, own)) in gutter.iter().enumerate() {
            let line = paged.line(l);
            let tag = if src == 0 { 'a' } else { 'b' };
            assert!(
                line.contains(&format!(" {tag}{} ", own - 1))
                    || line.ends_with(&format!(" {tag}{}", own - 1)),
                "{line} {src} {own}"
            );
        }
        assert_eq!(paged.source_of_line(6000), None);
        let bulk = paged.line_sources(5990..6002);
        assert_eq!(bulk.len(), 12);
        assert!(
            bulk[..10]
                .iter()
                .zip(&gutter[5990..])
                .all(|(b, g)| *b == Some(g.0))
        );
        assert_eq!(bulk[10..], [None, None]);
        let p = paged.progress();
        assert!(p.done && p.fraction() == Some(1.0));
        assert_eq!(p.sources.len(), 2);
        // A clone reads the unlinked spill through the open file after the first is dropped.
        let clone = paged.clone();
        drop(paged);
        assert_eq!(clone.line(5999), want.text.lines().nth(5999).unwrap());
    }

    /// A log of `lines` lines for the merge: stamped or not, CRLF, invalid UTF-8, empty
    /// lines, and with or without a last line break.
    pub(super) fn hostile_log(seed: u64, lines: usize, unended: bool) -> Vec<u8> {
        let mut x = seed.wrapping_mul(6_364_136_223_846_793_005) | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut out = Vec::new();
        let mut t = 0u64;
        for k in 0..lines {
            let r = next();
            t += r % 3;
            match r % 7 {
                0 => out.extend_from_slice(b"continued \xff\xc3 line"),
                1 => {}
                2 => out.extend_from_slice(format!("plain {k} \u{e9}\r").as_bytes()),
                _ => out.extend_from_slice(
                    format!(
                        "2026-10-05T00:{:02}:{:02}Z s{seed} k{k}",
                        t / 60 % 60,
                        t % 60
                    )
                    .as_bytes(),
                ),
            }
            if k + 1 < lines || !unended {
                out.push(b'\n');
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// Plain logs read in place and archives spilled, merged: the paged text is the
        /// merge's text byte for byte (added line breaks, replaced invalid UTF-8, CRLF), read
        /// through the page cache and in chunks from the file, and the spill holds none of
        /// the plain logs that are text ending with a line break.
        #[test]
        #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
        fn merged_text_read_in_place_equals_the_merge(
            logs in proptest::collection::vec((any::<u64>(), 0usize..900, any::<bool>(), any::<bool>()), 2..5),
            page in 64usize..3000,
            target in 1usize..20_000,
        ) {
            let dir = tempfile::tempdir().unwrap();
            let mut origins = Vec::new();
            // The bytes of the plain logs that are text and end with a line break: all of
            // them are read in place.
            let mut in_place = 0;
            for (k, &(seed, lines, unended, gz)) in logs.iter().enumerate() {
                let data = hostile_log(seed, lines, unended);
                if !gz && std::str::from_utf8(&data).is_ok() && data.last().is_none_or(|&b| b == b'\n') {
                    in_place += data.len();
                }
                let (name, bytes) = if gz {
                    (format!("{k}.log.gz"), crate::input::codec::tests::gzip(&data))
                } else {
                    (format!("{k}.log"), data)
                };
                let p = dir.path().join(name);
                std::fs::write(&p, bytes).unwrap();
                origins.push(Origin::Path(p));
            }
            let want = Chunks::new(MergedLines::open(&origins).unwrap(), usize::MAX)
                .next_chunk()
                .unwrap()
                .text;
            prop_assume!(!want.is_empty());
            let paged = PagedText::open_merged(&origins, &small(page, 3)).unwrap();
            assert_same(&want, &paged);
            paged.forget_recent();
            let chunked: String = paged.chunks(0..usize::MAX, target).map(|c| c.text).collect();
            prop_assert_eq!(&chunked, &want);
            let spilled = paged.spill().unwrap().1 - paged.shared.record_bytes();
            prop_assert!(spilled as usize <= want.len() - in_place, "{} of {}", spilled, want.len());
        }
    }

    /// A plain log read in place and truncated after it was indexed: its missing bytes read
    /// as `?` (the lines keep their places, nothing panics) and the warnings say which log.
    #[test]
    fn a_log_read_in_place_then_truncated_reads_as_marks_and_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.log");
        let b = dir.path().join("b.log");
        let lines = |tag: &str| stamped(2000, |k| format!("{tag}{k}"));
        std::fs::write(&a, lines("a")).unwrap();
        std::fs::write(&b, lines("b")).unwrap();
        let paged =
            PagedText::open_merged(&[Origin::Path(a), Origin::Path(b.clone())], &small(512, 4))
                .unwrap();
        assert!(paged.wait_complete(Duration::from_secs(20)));
        assert!(paged.warnings().is_empty(), "{:?}", paged.warnings());
        let len = paged.len();
        std::fs::write(&b, "").unwrap();
        paged.forget_recent();
        let text = paged.read(0..len);
        assert_eq!(text.len(), len);
        assert!(text.contains("Z a1999\n"));
        assert!(!text.contains(" b1"));
        assert!(text.contains("????"));
        assert_eq!(paged.line_count(), 4001);
        let said = paged.warnings();
        assert!(
            said.iter()
                .any(|w| w.contains("b.log") && w.contains("shorter")),
            "{said:?}"
        );
    }

    #[test]
    fn sources_stored_a_record_per_run_name_every_line_as_the_merge_does() {
        // Runs of 1 to 4 lines from three logs: thousands of runs, so lookups cross the
        // sparse marks and the reads of the runs file.
        let dir = tempfile::tempdir().unwrap();
        let mut logs = [String::new(), String::new(), String::new()];
        for k in 0..9000usize {
            let log = &mut logs[k * 7 % 3];
            log.push_str(&format!(
                "2026-10-05T{:02}:{:02}:{:02}Z l{k}\n",
                k / 3600,
                k / 60 % 60,
                k % 60
            ));
            for _ in 0..k % 4 {
                log.push_str("  trace\n");
            }
        }
        let origins: Vec<Origin> = logs
            .iter()
            .enumerate()
            .map(|(k, log)| {
                let p = dir.path().join(format!("{k}.log"));
                std::fs::write(&p, log).unwrap();
                Origin::Path(p)
            })
            .collect();
        let mut want = Vec::new();
        let mut lines = MergedLines::open(&origins).unwrap();
        while let Some(l) = lines.next_line() {
            want.push((l.source, l.line));
        }
        let paged = PagedText::open_merged(&origins, &small(4096, 4)).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(20)));
        for (i, w) in want.iter().enumerate() {
            assert_eq!(paged.source_of_line(i), Some(*w), "line {i}");
        }
        assert_eq!(paged.source_of_line(want.len()), None);
        let n = want.len();
        for (from, to) in [(0, n + 3), (5, 6), (n - 1, n + 1), (1234, 9876), (n, n + 2)] {
            let got = paged.line_sources(from..to);
            let expect: Vec<Option<usize>> = (from..to).map(|i| want.get(i).map(|w| w.0)).collect();
            assert_eq!(got, expect, "lines {from}..{to}");
        }
        // A record per run, not per line.
        let index = paged.shared.sources.as_ref().unwrap().index();
        assert!(
            index.records >= 9000 && index.records < n as u64 / 2,
            "{} records",
            index.records
        );
        assert_eq!(index.end, n as u64);
    }

    #[test]
    fn a_truncated_archive_shows_what_was_read_and_says_where_it_broke() {
        use std::io::Write as _;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.log.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        for k in 0..20_000 {
            writeln!(gz, "line {k} {}", k * 7919 % 10007).unwrap();
        }
        let bytes = gz.finish().unwrap();
        std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
        let paged = PagedText::open_merged(&[Origin::Path(p)], &small(4096, 4)).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(10)));
        assert!(!paged.is_empty());
        assert!(paged.line(0).starts_with("line 0"));
        let w = paged.warnings().join(" ");
        crate::testing::assert_has(&w, "a.log.gz");
    }
}
