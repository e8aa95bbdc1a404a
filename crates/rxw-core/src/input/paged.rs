//! A text too large to hold: pages read on demand from a file, a sparse line index built in
//! the background, and scans that stream through the file a chunk at a time.
//!
//! [`PagedText`] is what the workbench holds instead of a `String` when the input is large
//! (a 20 GB log, a merged set of logs, a compressed archive). Memory does not grow with the
//! text: a bounded cache of pages (the lines on screen, line lookups), a sparse line index
//! (one mark every [`INDEX_MARK_LINES`] lines or [`INDEX_MARK_BYTES`] bytes, about 3 MB for
//! 20 GB of short lines), and one chunk per running scan.
//!
//! A plain file is read where it is, with positional reads (never mapped: a map faults when
//! the file is truncated under it; a read sees the short file). A compressed file or several
//! logs merged by time are decoded once, in the background, through the input layer's
//! [`Chunks`] into a *spill file* in a temporary directory, then paged from there; the spill
//! is removed when the last handle on the text is dropped. For a merged input, a second file
//! next to the spill holds, for each run of consecutive lines from one source, its first line,
//! its source and its line in that source (a record a run, not a line: see
//! `super::records`). The plain logs of a merged input are not copied: the spill holds only
//! what is not a plain file's bytes (decoded archives, the line breaks and replaced UTF-8 the
//! merge adds), and a third file, the extents, says where each stretch of the text is; reads
//! gather it from the spill and the logs.
//!
//! The text becomes readable as the indexer reaches it: [`PagedText::len`] is the part
//! indexed so far, always ending at a line start until the end of the input, so a paged text
//! grows like a followed file while it is indexed. Bytes of a plain file that are not valid
//! UTF-8 are read as `?` (one byte for one, so offsets stay the file's) and counted in
//! [`PagedText::warnings`].

use super::chunks::{Chunk, Chunks, ChunksAhead};
use super::logs::{MergedLines, Origin, SourceProgress};
use super::records::{Extents, RecordFile, join_value, read_at, split_value};
use crate::error::{Error, ErrorKind};
use std::collections::HashMap;
use std::fs::File;
use std::io::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

/// Bytes in a cached page.
pub const PAGE_BYTES: usize = 256 * 1024;
/// The page cache's default size.
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;
/// A mark is set at a line start at least this many lines after the previous mark...
pub const INDEX_MARK_LINES: usize = 1024;
/// ...or at the first line start at least this many bytes after it.
pub const INDEX_MARK_BYTES: usize = 64 * 1024;
/// Bytes the indexer reads (and a spill is written) at a time.
const BLOCK_BYTES: usize = 4 << 20;
/// Tests that compare chunks taken from the recent blocks with chunks read from the file
/// keep the blocks once indexing is done (the blocks are dropped then otherwise, and a short
/// text is indexed before it could be read). Either way, what is read is the same.
#[cfg(test)]
static KEEP_RECENT: AtomicBool = AtomicBool::new(false);
/// Blocks the indexer keeps in memory after indexing them: a scan that follows the indexer
/// (the full count of a text still being indexed) takes its chunks from them rather than
/// reading back what was just written or read.
const RECENT_BLOCKS: usize = 3;

/// How a paged text is read.
#[derive(Debug, Clone)]
pub struct PagedOptions {
    /// Bytes in a page.
    pub page_bytes: usize,
    /// Most bytes of pages kept (at least one page is).
    pub cache_bytes: usize,
    /// Where the spill of a compressed or merged input is written (default: the system's
    /// temporary directory).
    pub spill_dir: Option<PathBuf>,
}

impl Default for PagedOptions {
    fn default() -> PagedOptions {
        PagedOptions {
            page_bytes: PAGE_BYTES,
            cache_bytes: DEFAULT_CACHE_BYTES,
            spill_dir: None,
        }
    }
}

/// How far the background indexer is, for a progress indicator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexProgress {
    /// Bytes of text indexed (readable) so far.
    pub indexed: u64,
    /// Per source: its name, its file's bytes consumed (compressed bytes for an archive) and
    /// its size when opened, when known. One entry for a single log.
    pub sources: Vec<(String, u64, Option<u64>)>,
    /// Whether the whole input is indexed.
    pub done: bool,
    /// Time since indexing started (until it ended, once done).
    pub elapsed: Duration,
}

impl IndexProgress {
    /// The fraction of the input's files read, 0 to 1, when every size is known.
    pub fn fraction(&self) -> Option<f64> {
        if self.done {
            return Some(1.0);
        }
        let mut read = 0u64;
        let mut total = 0u64;
        for (_, consumed, size) in &self.sources {
            read += consumed;
            total += (*size)?;
        }
        (total > 0).then(|| (read as f64 / total as f64).min(1.0))
    }
}

/// A page cache: pages by number, the least recently used evicted first.
struct Cache {
    pages: HashMap<usize, (Arc<[u8]>, u64)>,
    clock: u64,
    capacity: usize,
    /// The most pages held at once since the text was opened.
    peak: usize,
}

impl Cache {
    fn get(&mut self, k: usize) -> Option<Arc<[u8]>> {
        self.clock += 1;
        let clock = self.clock;
        self.pages.get_mut(&k).map(|(p, used)| {
            *used = clock;
            Arc::clone(p)
        })
    }

    fn put(&mut self, k: usize, page: Arc<[u8]>) {
        while self.pages.len() >= self.capacity {
            let Some(&old) = self
                .pages
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k)
            else {
                break;
            };
            self.pages.remove(&old);
        }
        self.clock += 1;
        self.pages.insert(k, (page, self.clock));
        self.peak = self.peak.max(self.pages.len());
    }
}

/// The sparse line index of the part indexed so far.
#[derive(Debug, Clone)]
struct Marks {
    /// `(byte, line)` at line starts, the first `(0, 0)`.
    marks: Vec<(usize, usize)>,
    /// Line breaks in the indexed part.
    breaks: usize,
    /// Bytes and line of the last mark, and the bytes indexed.
    last_mark: (usize, usize),
    /// Bytes indexed: `breaks` counts the line breaks before this byte.
    end: usize,
    /// Where the last line indexed starts: no line break lies between it and `end`.
    last_start: usize,
}

impl Marks {
    fn new() -> Marks {
        Marks {
            marks: vec![(0, 0)],
            breaks: 0,
            last_mark: (0, 0),
            end: 0,
            last_start: 0,
        }
    }

    /// Takes in marks scanned by [`MarksAdded::scan`] from this index's end.
    fn extend(&mut self, more: MarksAdded) {
        self.marks.extend(more.marks);
        self.breaks = more.breaks;
        self.last_mark = more.last_mark;
        self.end = more.end;
        self.last_start = more.last_start.unwrap_or(self.last_start);
    }
}

/// Marks a block adds to an index, found without holding the index's lock (a reader, the
/// frame being drawn, never waits for the indexer's scan of a block, only for the append).
struct MarksAdded {
    marks: Vec<(usize, usize)>,
    breaks: usize,
    last_mark: (usize, usize),
    end: usize,
    /// The start of the block's last line, when the block holds a line break.
    last_start: Option<usize>,
}

impl MarksAdded {
    /// The marks of `bytes` (at byte `base`) after an index with `breaks` line breaks and its
    /// last mark at `last_mark`.
    fn scan(mut breaks: usize, mut last_mark: (usize, usize), base: usize, bytes: &[u8]) -> Self {
        let mut marks = Vec::new();
        let mut last_start = None;
        for nl in memchr::memchr_iter(b'\n', bytes) {
            let start = base + nl + 1;
            last_start = Some(start);
            breaks += 1;
            let (mb, ml) = last_mark;
            if breaks - ml >= INDEX_MARK_LINES || start - mb >= INDEX_MARK_BYTES {
                marks.push((start, breaks));
                last_mark = (start, breaks);
            }
        }
        MarksAdded {
            marks,
            breaks,
            last_mark,
            end: base + bytes.len(),
            last_start,
        }
    }
}

/// Adds `bytes` (at byte `base`) to the index of `shared`: scanned outside the lock (the
/// indexer is the only writer, so the end it scans from stays), appended under it.
fn index_block(shared: &Shared, base: usize, bytes: &[u8]) {
    let (breaks, last_mark) = {
        let m = shared
            .index
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (m.breaks, m.last_mark)
    };
    let more = MarksAdded::scan(breaks, last_mark, base, bytes);
    shared
        .index
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .extend(more);
}

/// What the indexer says while it runs.
#[derive(Default)]
struct BuildState {
    done: bool,
    warnings: Vec<String>,
    invalid_utf8: usize,
    started: Option<Instant>,
    elapsed: Option<Duration>,
}

struct Shared {
    file: File,
    page_bytes: usize,
    cache: Mutex<Cache>,
    index: RwLock<Marks>,
    /// The start of the line found last, `(byte, line)`: lookups of nearby lines (the rows of
    /// a frame, one after the other) walk from it rather than from the mark before them.
    cursor: Mutex<(usize, usize)>,
    /// The last long count of characters, `(from, to, chars)`: a column far into a line of
    /// gigabytes, asked for every frame, is counted once (and on from there).
    counted: Mutex<(usize, usize, usize)>,
    len: AtomicUsize,
    state: Mutex<BuildState>,
    stop: AtomicBool,
    names: Vec<String>,
    progress: Vec<SourceProgress>,
    /// For a merged input, the runs file: the source of each run of lines.
    sources: Option<RecordFile>,
    /// For a merged input with plain logs read in place, where each stretch of the text is
    /// (`file` is then the spill, holding the rest).
    extents: Option<Extents>,
    /// The directory the spill was written in (its files are unlinked once open) and the
    /// bytes written to the spill.
    spill: Option<(PathBuf, AtomicU64)>,
    /// The last [`RECENT_BLOCKS`] blocks indexed, by offset: the bytes of the file there.
    recent: Mutex<std::collections::VecDeque<(usize, Arc<Vec<u8>>)>>,
}

impl Shared {
    /// A text about to be indexed: an empty cache and index, the build just started.
    fn new(
        file: File,
        options: &PagedOptions,
        names: Vec<String>,
        progress: Vec<SourceProgress>,
        sources: Option<RecordFile>,
        extents: Option<Extents>,
        spill: Option<(PathBuf, AtomicU64)>,
    ) -> Shared {
        Shared {
            file,
            page_bytes: options.page_bytes.max(1),
            cache: Mutex::new(Cache {
                pages: HashMap::new(),
                clock: 0,
                capacity: (options.cache_bytes / options.page_bytes.max(1)).max(1),
                peak: 0,
            }),
            index: RwLock::new(Marks::new()),
            cursor: Mutex::new((0, 0)),
            counted: Mutex::new((0, 0, 0)),
            len: AtomicUsize::new(0),
            state: Mutex::new(BuildState {
                started: Some(Instant::now()),
                ..BuildState::default()
            }),
            stop: AtomicBool::new(false),
            names,
            progress,
            sources,
            extents,
            spill,
            recent: Mutex::new(std::collections::VecDeque::with_capacity(RECENT_BLOCKS)),
        }
    }

    /// Bytes in the runs and extents files.
    fn record_bytes(&self) -> u64 {
        [
            self.sources.as_ref(),
            self.extents.as_ref().map(|e| &e.records),
        ]
        .into_iter()
        .flatten()
        .map(|f| f.index().bytes)
        .sum()
    }

    /// Reads the text's bytes at `at` into `buf`: from the file, or gathered from the
    /// extents; fewer at the end of what is written.
    fn read_text(&self, buf: &mut [u8], at: u64) -> usize {
        match &self.extents {
            Some(extents) => extents.read(&self.file, buf, at),
            None => read_at(&self.file, buf, at).unwrap_or(0),
        }
    }

    /// Keeps `bytes`, the file's at `offset`, as the newest recent block.
    fn keep_recent(&self, offset: usize, bytes: Arc<Vec<u8>>) {
        let mut recent = self
            .recent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if recent.len() >= RECENT_BLOCKS {
            recent.pop_front();
        }
        recent.push_back((offset, bytes));
    }

    /// Drops the recent blocks, once the indexer is done ([`KEEP_RECENT`] in tests).
    fn done_with_recent(&self) {
        #[cfg(test)]
        if KEEP_RECENT.load(Ordering::Relaxed) {
            return;
        }
        self.forget_recent();
    }

    /// Drops the recent blocks.
    fn forget_recent(&self) {
        self.recent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }

    /// The recent block holding byte `at`, with its offset.
    fn recent_at(&self, at: usize) -> Option<(usize, Arc<Vec<u8>>)> {
        self.recent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .find(|(off, b)| (*off..off + b.len()).contains(&at))
            .map(|(off, b)| (*off, Arc::clone(b)))
    }
}

/// What [`PagedText::grow`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Growth {
    /// The file is as long as the text.
    Unchanged,
    /// Bytes were appended and are now readable.
    Appended,
    /// The file is shorter than the text (truncated): reopen it.
    Shrunk,
    /// The text is not one plain file read in place (a spill of merged or compressed
    /// logs), or its indexing is still running: nothing was read.
    NotFollowable,
}

/// A large text read in pages (see the module documentation). Clones share the file, the
/// cache and the index; the background indexer stops when the last handle is dropped.
pub struct PagedText {
    shared: Arc<Shared>,
    /// Handles alive; the indexer stops when it falls to zero.
    handles: Arc<AtomicUsize>,
}

impl Clone for PagedText {
    fn clone(&self) -> PagedText {
        self.handles.fetch_add(1, Ordering::Relaxed);
        PagedText {
            shared: Arc::clone(&self.shared),
            handles: Arc::clone(&self.handles),
        }
    }
}

impl Drop for PagedText {
    fn drop(&mut self) {
        if self.handles.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl std::fmt::Debug for PagedText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PagedText")
            .field("len", &self.len())
            .field("names", &self.shared.names)
            .finish_non_exhaustive()
    }
}
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

fn io_error(message: String) -> Error {
    Error::new(ErrorKind::Io, message)
}

/// Decodes `bytes` as UTF-8 keeping its length: each byte of an invalid sequence becomes `?`.
fn decode_same_len(bytes: Vec<u8>) -> String {
    // The usual case, checked fast (a copy costs less than std's check).
    if let Some(text) = super::as_text(&bytes) {
        return text.to_owned();
    }
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let mut bytes = e.into_bytes();
            let mut at = 0;
            while let Err(e) = std::str::from_utf8(&bytes[at..]) {
                let bad = at + e.valid_up_to();
                let n = e.error_len().unwrap_or(bytes.len() - bad);
                bytes[bad..bad + n].fill(b'?');
                at = bad + n;
            }
            String::from_utf8(bytes).unwrap_or_default()
        }
    }
}

/// The most of one line a chunk holds ([`PagedText::chunks`]): a longer line is handed out
/// in pieces of this size, ending inside it.
pub const LONG_LINE_PIECE: usize = 16 << 20;

/// Bytes at the end of `bytes` that start a character the end cuts (0 when none is cut).
fn split_char_tail(bytes: &[u8]) -> usize {
    bytes.len() - split_char_start(bytes)
}

/// Where a character cut by the end of `bytes` starts (`bytes.len()` when none is cut): the
/// last lead byte among the final three whose sequence runs past the end.
fn split_char_start(bytes: &[u8]) -> usize {
    let n = bytes.len();
    for back in 1..=3.min(n) {
        let b = bytes[n - back];
        let want = match b {
            0x00..=0x7F => return n,
            0x80..=0xBF => continue,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        return if want > back { n - back } else { n };
    }
    n
}

impl PagedText {
    fn start(shared: Shared) -> PagedText {
        PagedText {
            shared: Arc::new(shared),
            handles: Arc::new(AtomicUsize::new(1)),
        }
    }

    /// Opens a plain file to read in place; its first `BLOCK_BYTES` are indexed before this
    /// returns (the first screen is there at once), the rest on a background thread.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the file when it cannot be opened or read.
    pub fn open(path: &Path, options: &PagedOptions) -> Result<PagedText, Error> {
        let named = |e: std::io::Error| io_error(format!("{}: {e}", path.display()));
        let (file, meta) = super::open_regular(path).map_err(named)?;
        if !meta.is_file() {
            return Err(io_error(format!(
                "{}: is {}, not a regular file",
                path.display(),
                super::file_kind(&meta)
            )));
        }
        let consumed = Arc::new(AtomicU64::new(0));
        let progress = SourceProgress::new(Arc::clone(&consumed), Some(meta.len()));
        let reader = file.try_clone().map_err(named)?;
        let text = PagedText::start(Shared::new(
            file,
            options,
            vec![path.display().to_string()],
            vec![progress],
            None,
            None,
            None,
        ));
        let size = meta.len();
        let mut indexer = PlainIndexer {
            shared: Arc::clone(&text.shared),
            file: reader,
            pos: 0,
            size,
            consumed,
            carry: Vec::new(),
            path: path.to_path_buf(),
        };
        // The head, here: the first frame needs no wait.
        if indexer.step() {
            std::thread::Builder::new()
                .name("rxw-indexer".into())
                .spawn(move || {
                    crate::priority::lower_this_thread();
                    while indexer.step() {}
                })
                .map_err(|e| io_error(format!("cannot start the indexer: {e}")))?;
        }
        Ok(text)
    }

    /// Decodes and merges `origins` (compressed logs, several logs merged by time) through
    /// [`Chunks`] into a spill file in a new temporary directory, on a background thread;
    /// the first chunk is written before this returns. The spill is removed when the last
    /// handle is dropped.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] when a source cannot be opened or the spill cannot be created.
    pub fn open_merged(origins: &[Origin], options: &PagedOptions) -> Result<PagedText, Error> {
        let merged = MergedLines::open(origins)?;
        let names = merged.names().to_vec();
        let progress = merged.progress();
        // The spill holds the decoded text of logs the user may have kept private: only the
        // user reads it (a directory 0700, files 0600, whatever the umask), for the few
        // milliseconds before it is unlinked.
        let dir = private_spill_dir(options.spill_dir.as_deref())
            .map_err(|e| io_error(format!("cannot create the spill directory: {e}")))?;
        let spill_path = dir.path().join("text");
        let spill_err = |e: std::io::Error| io_error(format!("{}: {e}", spill_path.display()));
        let writer = create_private(&spill_path).map_err(spill_err)?;
        let file = File::open(&spill_path).map_err(spill_err)?;
        let record_file = |name: &str| -> Result<_, Error> {
            let p = dir.path().join(name);
            let w = create_private(&p).map_err(spill_err)?;
            let r = File::open(&p).map_err(spill_err)?;
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
        let spill_parent = dir
            .path()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let spill_dir_parent = spill_parent.clone();
        dir.close()
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
            room: super::room::spill_room(&spill_dir_parent),
        };
        if spiller.step() {
            std::thread::Builder::new()
                .name("rxw-spiller".into())
                .spawn(move || {
                    crate::priority::lower_this_thread();
                    while spiller.step() {}
                })
                .map_err(|e| io_error(format!("cannot start the spill writer: {e}")))?;
        }
        Ok(text)
    }

    /// Drops the recent blocks: what follows reads from the file.
    #[cfg(test)]
    fn forget_recent(&self) {
        self.shared.forget_recent();
    }

    /// Bytes of text readable now (the part indexed; all of it once [`PagedText::complete`]).
    pub fn len(&self) -> usize {
        self.shared.len.load(Ordering::Acquire)
    }

    /// Whether no text is readable yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the whole input is indexed.
    pub fn complete(&self) -> bool {
        self.state().done
    }

    fn state(&self) -> std::sync::MutexGuard<'_, BuildState> {
        self.shared
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits up to `timeout` for the index to be complete; returns whether it is.
    pub fn wait_complete(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while !self.complete() {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }

    /// The inputs' names (one for a single file).
    pub fn names(&self) -> &[String] {
        &self.shared.names
    }

    /// The spill's directory and the bytes its files hold so far (the text copied there, and
    /// for a merged input the records of where each line and stretch of text is), for a
    /// compressed or merged input.
    pub fn spill(&self) -> Option<(&Path, u64)> {
        self.shared
            .spill
            .as_ref()
            .map(|(p, n)| (p.as_path(), n.load(Ordering::Relaxed)))
    }

    /// Failures met while indexing (a truncated archive, a file cut under the read) and
    /// invalid UTF-8, each a line for the status bar.
    pub fn warnings(&self) -> Vec<String> {
        let st = self.state();
        let mut out = st.warnings.clone();
        if let Some(extents) = &self.shared.extents {
            for (name, changed) in self.shared.names.iter().zip(&extents.changed) {
                if changed.load(Ordering::Relaxed) {
                    out.push(format!(
                        "{name}: the file is shorter than when it was read (truncated or \
                         replaced since); its missing bytes show as '?'"
                    ));
                }
            }
        }
        if st.invalid_utf8 > 0 {
            out.push(format!(
                "input is not valid UTF-8: {} invalid byte{} shown as '?'",
                st.invalid_utf8,
                if st.invalid_utf8 == 1 { "" } else { "s" }
            ));
        }
        out
    }

    /// How far the indexer is.
    pub fn progress(&self) -> IndexProgress {
        let st = self.state();
        let elapsed = st
            .elapsed
            .or_else(|| st.started.map(|s| s.elapsed()))
            .unwrap_or_default();
        IndexProgress {
            indexed: self.len() as u64,
            sources: self
                .shared
                .names
                .iter()
                .zip(&self.shared.progress)
                .map(|(n, p)| (n.clone(), p.consumed(), p.size()))
                .collect(),
            done: st.done,
            elapsed,
        }
    }

    /// Pages held in the cache now.
    pub fn pages_held(&self) -> usize {
        self.cache().pages.len()
    }

    /// The most pages held at once so far.
    pub fn peak_pages_held(&self) -> usize {
        self.cache().peak
    }

    /// The most pages the cache holds.
    pub fn page_capacity(&self) -> usize {
        self.cache().capacity
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.shared
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn marks(&self) -> std::sync::RwLockReadGuard<'_, Marks> {
        self.shared
            .index
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Follows a plain file: once its indexing is done, indexes what was appended to the
    /// file since (the line index and the length grow; cached pages stay valid, as a page
    /// past the readable length is never cached). An unfinished UTF-8 character at the end
    /// waits for the rest of its bytes.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] when the file cannot be read.
    pub fn grow(&self) -> Result<Growth, Error> {
        if self.shared.spill.is_some() || !self.complete() {
            return Ok(Growth::NotFollowable);
        }
        let failed =
            |e: std::io::Error| io_error(format!("{}: {e}", self.shared.names.join(" + ")));
        let size = usize::try_from(self.shared.file.metadata().map_err(failed)?.len())
            .unwrap_or(usize::MAX);
        let len = self.len();
        if size < len {
            return Ok(Growth::Shrunk);
        }
        let mut pos = len;
        while pos < size {
            let mut buf = vec![0u8; (size - pos).min(BLOCK_BYTES)];
            let n = read_at(&self.shared.file, &mut buf, pos as u64).map_err(failed)?;
            if n == 0 {
                break;
            }
            buf.truncate(n);
            // Hold back a character whose bytes are not all there yet.
            let lead = buf.iter().rposition(|b| b & 0xC0 != 0x80).unwrap_or(0);
            let want = match buf.get(lead) {
                Some(b) if *b >= 0xF0 => 4,
                Some(b) if *b >= 0xE0 => 3,
                Some(b) if *b >= 0xC0 => 2,
                _ => 1,
            };
            if buf.len() - lead < want && buf.len() - lead < 4 && pos + n >= size {
                buf.truncate(lead);
            }
            if buf.is_empty() {
                break;
            }
            index_block(&self.shared, pos, &buf);
            pos += buf.len();
            self.shared.len.store(pos, Ordering::Release);
        }
        Ok(if pos > len {
            Growth::Appended
        } else {
            Growth::Unchanged
        })
    }

    /// Page `k`, from the cache or the file. A page past the readable length is read short
    /// and not cached (the text may still grow into it).
    fn page(&self, k: usize) -> Arc<[u8]> {
        let p = self.shared.page_bytes;
        let len = self.len();
        let start = k * p;
        let end = (start + p).min(len);
        if end <= start {
            return Arc::from(Vec::new());
        }
        let whole = end - start == p;
        if whole && let Some(page) = self.cache().get(k) {
            return page;
        }
        let mut buf = vec![0u8; end - start];
        let n = self.shared.read_text(&mut buf, start as u64);
        buf.truncate(n);
        let page: Arc<[u8]> = Arc::from(buf);
        if whole && n == p {
            self.cache().put(k, Arc::clone(&page));
        }
        page
    }

    /// The bytes of `range` (clamped to the readable text), through the page cache.
    pub fn read_bytes(&self, range: Range<usize>) -> Vec<u8> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        let p = self.shared.page_bytes;
        let mut out = Vec::with_capacity(end - start);
        let mut at = start;
        while at < end {
            let k = at / p;
            let page = self.page(k);
            let from = at - k * p;
            let to = (end - k * p).min(page.len());
            if from >= to {
                break;
            }
            out.extend_from_slice(&page[from..to]);
            at = k * p + to;
        }
        out
    }

    /// The text of `range` (clamped to the readable text; invalid UTF-8 read as `?`).
    pub fn read(&self, range: Range<usize>) -> String {
        decode_same_len(self.read_bytes(range))
    }

    /// The characters of `range` as [`PagedText::read`] decodes them (a `?` per invalid
    /// byte), counted a piece at a time: memory stays bounded whatever the range's length.
    pub fn count_chars(&self, range: Range<usize>) -> usize {
        const PIECE: usize = 1 << 20;
        let end = range.end.min(self.len());
        let from = range.start.min(end);
        let (mut at, mut n) = (from, 0);
        // Only a long count is kept, so a short one (a row's column) takes no lock.
        let long = end - from > PIECE;
        if long {
            let counted = *self
                .shared
                .counted
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if counted.0 == from && counted.1 > from && counted.1 <= end {
                (at, n) = (counted.1, counted.2);
            }
        }
        while at < end {
            let bytes = self.read_bytes(at..end.min(at + PIECE));
            // Cut before a character the piece splits, so that it is decoded whole next time.
            let cut = if at + bytes.len() < end {
                split_char_start(&bytes)
            } else {
                bytes.len()
            };
            let cut = if cut == 0 { bytes.len() } else { cut };
            if cut == 0 {
                break;
            }
            n += decode_same_len(bytes[..cut].to_vec()).chars().count();
            at += cut;
        }
        // Kept when long and ending on a character's start (so that counting on from it
        // decodes as counting the whole would).
        let boundary = || {
            self.read_bytes(end..end + 1)
                .first()
                .is_none_or(|b| !(0x80..0xC0).contains(b))
        };
        if long && boundary() {
            *self
                .shared
                .counted
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = (from, end, n);
        }
        n
    }

    /// Calls `f` with the bytes from `from` on, a page at a time, until it returns false.
    fn walk(&self, from: usize, mut f: impl FnMut(usize, &[u8]) -> bool) {
        let p = self.shared.page_bytes;
        let len = self.len();
        let mut at = from;
        while at < len {
            let k = at / p;
            let page = self.page(k);
            let off = at - k * p;
            if off >= page.len() {
                break;
            }
            let end = page.len().min(len - k * p);
            if !f(at, &page[off..end]) {
                return;
            }
            at = k * p + end;
        }
    }

    /// Lines in the readable text (one more than its line breaks).
    pub fn line_count(&self) -> usize {
        self.marks().breaks + 1
    }

    fn cursor(&self) -> std::sync::MutexGuard<'_, (usize, usize)> {
        self.shared
            .cursor
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Byte offset of the start of line `i` (the readable length past the last line).
    pub fn line_start(&self, i: usize) -> usize {
        let (b, l) = {
            let m = self.marks();
            if i > m.breaks {
                return self.len();
            }
            let k = m.marks.partition_point(|&(_, l)| l <= i) - 1;
            m.marks[k]
        };
        if i == l {
            return b;
        }
        // The nearer known line start before line `i`: its mark or the last line found.
        let (b, l) = match *self.cursor() {
            (cb, cl) if cl > l && cl <= i => (cb, cl),
            _ => (b, l),
        };
        if i == l {
            return b;
        }
        let mut left = i - l;
        let mut found = None;
        self.walk(b, |at, bytes| {
            for nl in memchr::memchr_iter(b'\n', bytes) {
                left -= 1;
                if left == 0 {
                    found = Some(at + nl + 1);
                    return false;
                }
            }
            true
        });
        match found {
            Some(start) => {
                *self.cursor() = (start, i);
                start
            }
            None => self.len(),
        }
    }

    /// The line holding byte `at` (a line break belongs to the line it ends).
    pub fn line_of(&self, at: usize) -> usize {
        let at = at.min(self.len());
        let (b, l, last) = {
            let m = self.marks();
            // The last line (where the usual question falls: how many lines are there) is
            // known without a walk, however long it is.
            if (m.last_start..=m.end).contains(&at) {
                return m.breaks;
            }
            let k = m.marks.partition_point(|&(b, _)| b <= at) - 1;
            // The line before the next mark ends just before it: once the walk has seen
            // every break but that one, the rest of the way (a line of gigabytes) holds none.
            let last_before_next = m.marks.get(k + 1).map(|&(_, nl)| nl - 1);
            let (b, l) = m.marks[k];
            (b, l, last_before_next.unwrap_or(usize::MAX))
        };
        let (b, l, last) = match *self.cursor() {
            (cb, cl) if cb > b && cb <= at => (cb, cl, last),
            _ => (b, l, last),
        };
        let mut line = l;
        if line >= last {
            return last;
        }
        self.walk(b, |pos, bytes| {
            let end = (at - pos).min(bytes.len());
            line += memchr::memchr_iter(b'\n', &bytes[..end]).count();
            line < last && pos + bytes.len() < at
        });
        line
    }

    /// Byte range of line `i` without its line break (and a `\r` before it).
    pub fn line_range(&self, i: usize) -> Range<usize> {
        self.line_range_within(i, usize::MAX)
    }

    /// Line `i` without its line break as [`PagedText::line_range`], read no further than
    /// `max` bytes from its start: a longer line ends there (what a view of a line of
    /// gigabytes needs, without reading it all).
    pub fn line_range_within(&self, i: usize, max: usize) -> Range<usize> {
        let start = self.line_start(i);
        let limit = start.saturating_add(max).min(self.len());
        let mut end = limit;
        let mut found = false;
        self.walk(start, |at, bytes| {
            let n = bytes.len().min(limit.saturating_sub(at));
            match memchr::memchr(b'\n', &bytes[..n]) {
                Some(nl) => {
                    end = at + nl;
                    found = true;
                    false
                }
                None => at + n < limit,
            }
        });
        // A `\r` before the end of the text goes too, as the text held whole drops it
        // (but not at the limit: that line goes on).
        if (found || end == self.len()) && end > start && self.read_bytes(end - 1..end) == b"\r" {
            end -= 1;
        }
        start..end
    }

    /// Line `i` without its line break.
    pub fn line(&self, i: usize) -> String {
        self.read(self.line_range(i))
    }

    /// Whether the readable text ends with a line break.
    pub fn ends_with_newline(&self) -> bool {
        let len = self.len();
        len > 0 && self.read_bytes(len - 1..len) == b"\n"
    }

    /// The source of merged line `line` (from 0) and its line there (from 1), for a merged
    /// input; `None` for one log or a line not indexed yet.
    pub fn source_of_line(&self, line: usize) -> Option<(usize, u64)> {
        let src = self.shared.sources.as_ref()?;
        let line = line as u64;
        let mut found = None;
        src.walk(line, |start, value, _| {
            let (source, own) = split_value(value);
            found = (start <= line).then(|| (source, own + (line - start)));
            false
        });
        found
    }

    /// The source of each merged line of `lines` (`None` past the lines indexed, or for one
    /// log), read from the runs file in one go.
    pub fn line_sources(&self, lines: Range<usize>) -> Vec<Option<usize>> {
        let mut out = vec![None; lines.len()];
        let Some(src) = self.shared.sources.as_ref() else {
            return out;
        };
        let (from, to) = (lines.start as u64, lines.end as u64);
        src.walk(from, |start, value, n| {
            let (source, _) = split_value(value);
            for i in start.max(from)..(start + n).min(to) {
                out[(i - from) as usize] = Some(source);
            }
            start + n < to
        });
        out
    }

    /// Whole lines of `range` (clamped to the readable text) in chunks of about `target`
    /// bytes (the first of about [`FIRST_CHUNK_BYTES`], each after twice the one before up to
    /// `target`), read straight from the file (a scan does not evict the pages on screen). Each
    /// chunk but the last ends with a line break; [`Chunk::searchable`] leaves it out, so a
    /// pattern whose matches stay inside one line finds, chunk by chunk, what it finds in
    /// the whole text. `range.start` should be a line start. The exception: a line longer
    /// than [`LONG_LINE_PIECE`] comes in pieces of that size (a chunk that ends without a
    /// line break and is not the last), so that memory stays bounded.
    pub fn chunks(&self, range: Range<usize>, target: usize) -> PageChunks {
        let end = range.end.min(self.len());
        let full = target.max(1);
        PageChunks {
            text: self.clone(),
            pos: range.start.min(end),
            end,
            target: full.min(FIRST_CHUNK_BYTES),
            full,
        }
    }
}

/// Bytes of a pass's first chunk: small, so that the first matches of a full scan (the
/// match list's first rows, on the keystroke path) are found after reading a few pages, not
/// a whole chunk; each chunk after is twice the one before, up to the chunk size asked for.
pub const FIRST_CHUNK_BYTES: usize = 64 * 1024;

/// The chunks of [`PagedText::chunks`].
pub struct PageChunks {
    text: PagedText,
    pos: usize,
    end: usize,
    /// This chunk's size.
    target: usize,
    /// The size chunks grow to.
    full: usize,
}

impl Iterator for PageChunks {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        if self.pos >= self.end {
            return None;
        }
        if let Some(chunk) = self.next_held() {
            return Some(chunk);
        }
        let shared = &self.text.shared;
        let mut buf = Vec::new();
        let mut want = self.target.min(self.end - self.pos);
        loop {
            let have = buf.len();
            buf.resize(have + want, 0);
            let n = shared.read_text(&mut buf[have..], (self.pos + have) as u64);
            buf.truncate(have + n);
            let at_end = self.pos + buf.len() >= self.end || n == 0;
            if at_end {
                break;
            }
            if let Some(nl) = memchr::memrchr(b'\n', &buf[have..]) {
                buf.truncate(have + nl + 1);
                break;
            }
            if buf.len() >= LONG_LINE_PIECE {
                // A line too long to hold: the chunk ends inside it, on a character boundary
                // (the pass that reads it says it is inexact where that matters).
                let lead = buf.len() - split_char_tail(&buf);
                buf.truncate(lead.max(1));
                break;
            }
            // One line longer than the chunk: read on to its end, or to LONG_LINE_PIECE.
            want = self.target.min(self.end - self.pos - buf.len());
        }
        if buf.is_empty() {
            self.pos = self.end;
            return None;
        }
        let offset = self.pos;
        self.pos += buf.len();
        self.target = self.target.saturating_mul(2).min(self.full);
        Some(Chunk {
            text: decode_same_len(buf),
            offset,
            last: self.pos >= self.end,
            runs: Vec::new(),
            verbatim: Vec::new(),
        })
    }
}

impl PageChunks {
    /// The next chunk taken from a block the indexer still holds, as the file would give it;
    /// `None` when no recent block holds the whole of the read the file would take, or when
    /// that read holds no line break (a line longer than the chunk, read on from the file).
    fn next_held(&mut self) -> Option<Chunk> {
        let (off, block) = self.text.shared.recent_at(self.pos)?;
        let held = &block[self.pos - off..];
        // The whole read the file would give must be held (it may end past the block).
        let want = self.target.min(self.end - self.pos);
        if held.len() < want {
            return None;
        }
        let n = if self.pos + want >= self.end {
            want
        } else {
            memchr::memrchr(b'\n', &held[..want])? + 1
        };
        let bytes = &held[..n];
        let text = match super::as_text(bytes) {
            Some(text) => text.to_owned(),
            None => decode_same_len(bytes.to_vec()),
        };
        let offset = self.pos;
        self.pos += n;
        self.target = self.target.saturating_mul(2).min(self.full);
        Some(Chunk {
            text,
            offset,
            last: self.pos >= self.end,
            runs: Vec::new(),
            verbatim: Vec::new(),
        })
    }
}

/// Indexes a plain file a block at a time.
struct PlainIndexer {
    shared: Arc<Shared>,
    file: File,
    pos: usize,
    size: u64,
    consumed: Arc<AtomicU64>,
    /// The indexed bytes after the last line break (published once their line ends).
    carry: Vec<u8>,
    path: PathBuf,
}

impl PlainIndexer {
    /// Indexes the next block; false once done (or stopped).
    fn step(&mut self) -> bool {
        if self.shared.stop.load(Ordering::Relaxed) {
            return false;
        }
        let mut buf = vec![0u8; BLOCK_BYTES];
        let n = match read_at(&self.file, &mut buf, self.pos as u64) {
            Ok(n) => n,
            Err(e) => {
                self.finish(Some(format!(
                    "{}: read failed at byte {}: {e}; showing what was read",
                    self.path.display(),
                    self.pos
                )));
                return false;
            }
        };
        buf.truncate(n);
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        let base = self.pos;
        self.pos += n;
        index_block(&self.shared, base, &buf);
        let buf = Arc::new(buf);
        self.shared.keep_recent(base, Arc::clone(&buf));
        // Invalid UTF-8, checked across the block boundary with the carried line.
        let cut = memchr::memrchr(b'\n', &buf).map_or(0, |nl| nl + 1);
        let at_end = n == 0 || self.pos as u64 >= self.size;
        let (complete, rest) = if at_end {
            (&buf[..], &buf[buf.len()..])
        } else {
            buf.split_at(cut)
        };
        let mut checked = std::mem::take(&mut self.carry);
        checked.extend_from_slice(complete);
        let invalid = if super::as_text(&checked).is_some() {
            0
        } else {
            super::count_invalid(&checked)
        };
        self.carry = rest.to_vec();
        let published = self.pos - self.carry.len();
        if invalid > 0 {
            self.lock_state().invalid_utf8 += invalid;
        }
        self.shared.len.store(published, Ordering::Release);
        if at_end {
            let short = (self.pos as u64) < self.size;
            self.finish(short.then(|| {
                format!(
                    "{}: the file changed while it was read ({} bytes at open, {} read); it was truncated or rotated",
                    self.path.display(),
                    self.size,
                    self.pos
                )
            }));
            return false;
        }
        true
    }

    fn lock_state(&self) -> std::sync::MutexGuard<'_, BuildState> {
        self.shared
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn finish(&mut self, warning: Option<String>) {
        let mut st = self.lock_state();
        st.warnings.extend(warning);
        st.done = true;
        st.elapsed = st.started.map(|s| s.elapsed());
        drop(st);
        // The indexer is done: no scan follows it any more.
        self.shared.done_with_recent();
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
    /// The most the spill may write and leave room on its disk ([`super::room::spill_room`]).
    room: Option<u64>,
}

impl Spiller {
    fn lock_state(&self) -> std::sync::MutexGuard<'_, BuildState> {
        self.shared
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

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
            self.lock_state().warnings.extend(failures);
        }
        if let Some(room) = self.room
            && self.spilled + chunk.text.len() as u64 > room
        {
            // Said before the disk is full, not after: a decompression bomb would fill it.
            self.finish(Some(format!(
                "the spill stopped at {} MB to leave room on its disk; showing what was written",
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
        let mut st = self.lock_state();
        st.warnings.extend(failures);
        st.warnings.extend(warning);
        st.warnings.extend(utf8);
        st.done = true;
        st.elapsed = st.started.map(|s| s.elapsed());
        drop(st);
        // The indexer is done: no scan follows it any more.
        self.shared.done_with_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    use proptest::prelude::*;

    pub(super) fn small(page: usize, cache_pages: usize) -> PagedOptions {
        PagedOptions {
            page_bytes: page,
            cache_bytes: page * cache_pages,
            spill_dir: None,
        }
    }

    pub(super) fn starts(text: &str) -> Vec<usize> {
        std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect()
    }

    /// The paged text reads, numbers and scans exactly as the text held whole.
    pub(super) fn assert_same(text: &str, paged: &PagedText) {
        assert!(paged.wait_complete(Duration::from_secs(20)));
        assert_eq!(paged.len(), text.len());
        assert_eq!(paged.read(0..text.len()), text);
        let st = starts(text);
        assert_eq!(paged.line_count(), st.len());
        let buffer = crate::workbench::TextBuffer::new(text.to_string());
        // Every line of a short text, a sample of a long one (each lookup walks pages).
        let stride = (st.len() / 150).max(1);
        for i in (0..=st.len()).step_by(stride).chain([st.len()]) {
            assert_eq!(
                paged.line_start(i),
                buffer.line_start(i),
                "start of line {i}"
            );
        }
        for i in (0..st.len()).step_by(stride) {
            assert_eq!(
                paged.line_range(i),
                buffer.line_range(i),
                "range of line {i}"
            );
            assert_eq!(paged.line(i), buffer.line(i), "line {i}");
        }
        for at in (0..=text.len() + 1).step_by((text.len() / 300).max(1)) {
            assert_eq!(paged.line_of(at), buffer.line_of(at), "line of byte {at}");
        }
        assert_eq!(paged.ends_with_newline(), text.ends_with('\n'));
    }

    fn text_of(lines: &[(u8, u16)]) -> String {
        let mut text = String::new();
        for &(kind, n) in lines {
            match kind % 5 {
                0 => text.push_str(&format!("2026-10-05T00:00:00Z [CLAIM j{n}] é\n")),
                1 => text.push('\n'),
                2 => text.push_str(&"long line ".repeat(usize::from(n % 500))),
                3 => text.push_str(&format!("x{n}\r\n")),
                _ => text.push_str(&format!("[RESULT j{n}] OK\n")),
            }
        }
        text
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]

        /// The paged text equals the in-memory text on content, line numbers and matches,
        /// whatever the page size and chunk size.
        #[test]
        fn paged_equals_in_memory(
            lines in proptest::collection::vec((any::<u8>(), any::<u16>()), 0..1500),
            page in 64usize..5000,
            target in 1usize..20_000,
        ) {
            KEEP_RECENT.store(true, Ordering::Relaxed);
            let text = text_of(&lines);
            // No chunk holds an empty text (an empty match at its start is the caller's).
            prop_assume!(!text.is_empty());
            let dir = tempfile::tempdir().unwrap();
            let p = dir.path().join("a.log");
            std::fs::write(&p, &text).unwrap();
            let paged = PagedText::open(&p, &small(page, 3)).unwrap();
            assert_same(&text, &paged);
            prop_assert!(paged.peak_pages_held() <= 3);
            let re = crate::Regex::new(r"(?m)\[CLAIM (\w+)\]|x\d+$|^$", crate::Flavor::PYTHON, crate::Flags::default()).unwrap();
            let whole: Vec<(usize, usize)> = re
                .matches(&text, crate::MatchOptions::default())
                .map(|m| m.map(|m| (m.start(), m.end())).unwrap())
                .collect();
            // From the blocks the indexer still holds (the whole of a short text), then
            // from the file.
            for recent in [true, false] {
                if !recent {
                    paged.forget_recent();
                }
                let mut chunked = Vec::new();
                for chunk in paged.chunks(0..usize::MAX, target) {
                    for m in re.matches(chunk.searchable(), crate::MatchOptions::default()) {
                        let m = m.unwrap();
                        chunked.push((chunk.offset + m.start(), chunk.offset + m.end()));
                    }
                }
                prop_assert_eq!(&chunked, &whole);
            }
        }
    }

    /// The chunks a scan takes from the blocks the indexer still holds are the chunks it
    /// reads from the file: the same text, offsets and ends, for a plain file (invalid UTF-8
    /// and a line longer than a chunk included) and for a merged spill, at several sizes and
    /// from several starts.
    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn chunks_from_recent_blocks_are_the_chunks_read_from_the_file() {
        KEEP_RECENT.store(true, Ordering::Relaxed);
        let dir = tempfile::tempdir().unwrap();
        let mut text = Vec::new();
        for k in 0..350_000 {
            match k % 7 {
                0 => text.extend_from_slice(b"bad \xff\xfe byte\n"),
                3 if k % 50_000 == 3 => text.extend(std::iter::repeat_n(b'x', 300_000)),
                _ => text.extend_from_slice(
                    format!("2026-10-05T00:00:{:02}Z [CLAIM j{k}] \u{e9}\n", k % 60).as_bytes(),
                ),
            }
        }
        let plain = dir.path().join("a.log");
        std::fs::write(&plain, &text).unwrap();
        let other = dir.path().join("b.log");
        std::fs::write(&other, &text[..text.len() / 3]).unwrap();
        let chunks = |paged: &PagedText, from: usize, target: usize| {
            paged
                .chunks(from..usize::MAX, target)
                .map(|c| (c.offset, c.text, c.last))
                .collect::<Vec<_>>()
        };
        let texts = [
            PagedText::open(&plain, &PagedOptions::default()).unwrap(),
            PagedText::open_merged(
                &[Origin::Path(plain.clone()), Origin::Path(other.clone())],
                &PagedOptions::default(),
            )
            .unwrap(),
        ];
        for paged in &texts {
            assert!(paged.wait_complete(Duration::from_secs(30)));
            assert!(paged.len() > 2 * BLOCK_BYTES);
            let starts = [
                0,
                paged.line_start(1),
                paged.line_start(paged.line_count() - 5000),
            ];
            for target in [1000, 100_000, 1 << 20, 4 << 20] {
                for &from in &starts {
                    let held = chunks(paged, from, target);
                    paged.forget_recent();
                    let read = chunks(paged, from, target);
                    assert_eq!(held.len(), read.len(), "target {target} from {from}");
                    assert!(held == read, "target {target} from {from}");
                    assert_eq!(read.last().map(|c| c.0 + c.1.len()), Some(paged.len()));
                }
            }
        }
    }

    /// Regression: a full scan's first chunk was a whole 4 MiB read before its first match
    /// could be found, on the path from a key to the match list's first row. The first chunk
    /// is small and the chunks grow to the size asked for, covering the text exactly.
    #[test]
    fn chunks_start_small_and_grow_to_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.log");
        let text: String = (0..40_000)
            .map(|k| format!("line {k} [CLAIM j{k}]\n"))
            .collect();
        std::fs::write(&p, &text).unwrap();
        let paged = PagedText::open(&p, &PagedOptions::default()).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(20)));
        let target = 256 * 1024;
        let sizes: Vec<usize> = paged
            .chunks(0..usize::MAX, target)
            .map(|c| c.text.len())
            .collect();
        assert!(sizes[0] <= FIRST_CHUNK_BYTES, "{sizes:?}");
        assert!(
            sizes[1] > FIRST_CHUNK_BYTES && sizes[1] <= 2 * FIRST_CHUNK_BYTES,
            "{sizes:?}"
        );
        assert!(sizes[3] > target / 2 && sizes[3] <= target, "{sizes:?}");
        assert_eq!(sizes.iter().sum::<usize>(), text.len());
    }

    #[test]
    fn a_scan_over_a_large_text_holds_at_most_the_cache_of_pages() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.log");
        let mut text = String::new();
        for k in 0..200_000 {
            text.push_str(&format!("2026-10-05T00:00:00Z line {k} [CLAIM j{k}]\n"));
        }
        std::fs::write(&p, &text).unwrap();
        let paged = PagedText::open(&p, &small(4096, 8)).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(20)));
        assert_eq!(paged.page_capacity(), 8);
        // Reading every line, then every chunk: the cache never holds more than 8 pages.
        let mut bytes = 0;
        for i in (0..paged.line_count()).step_by(97) {
            bytes += paged.line(i).len();
        }
        assert!(bytes > 0);
        let mut scanned = 0;
        for chunk in paged.chunks(0..usize::MAX, 64 * 1024) {
            scanned += chunk.text.len();
        }
        assert_eq!(scanned, text.len());
        assert!(paged.pages_held() <= 8);
        assert!(paged.peak_pages_held() <= 8, "{}", paged.peak_pages_held());
        // The index stays sparse: one mark per 1024 lines or 64 KiB.
        assert!(paged.marks().marks.len() <= text.len() / INDEX_MARK_BYTES + 200_000 / 1024 + 2);
    }

    #[test]
    fn merged_logs_spill_with_each_lines_source_and_leave_no_spill_on_disk() {
        use std::io::Write as _;
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.log");
        let b = dir.path().join("b.log.gz");
        let mut plain_a = String::new();
        let mut plain_b = String::new();
        for k in 0..3000 {
            plain_a.push_str(&format!(
                "2026-10-05T00:{:02}:{:02}Z a{k}\n",
                k / 60 % 60,
                k % 60
            ));
            plain_b.push_str(&format!(
                "2026-10-05T00:{:02}:{:02}Z b{k} é\n",
                k / 60 % 60,
                k % 60
            ));
        }
        std::fs::write(&a, &plain_a).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(plain_b.as_bytes()).unwrap();
        std::fs::write(&b, gz.finish().unwrap()).unwrap();
        let origins = [Origin::Path(a), Origin::Path(b)];
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
        let lines = |tag: &str| -> String {
            (0..2000)
                .map(|k| format!("2026-10-05T00:{:02}:{:02}Z {tag}{k}\n", k / 60 % 60, k % 60))
                .collect()
        };
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
    fn line_lookups_in_any_order_agree_with_the_text_held_whole() {
        // Short lines: a mark every 1024 lines, so most lookups walk from the last line found.
        let mut text = String::new();
        for k in 0..30_000u64 {
            text.push_str(&format!("l{}\n", k * 7919 % 1000));
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.log");
        std::fs::write(&p, &text).unwrap();
        let paged = PagedText::open(&p, &small(4096, 8)).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(20)));
        let buffer = crate::workbench::TextBuffer::new(text.clone());
        let n = paged.line_count();
        // Forwards row by row (a frame), backwards, and jumping about.
        let order: Vec<usize> = (0..n)
            .step_by(3)
            .chain((0..n).rev().step_by(5))
            .chain((0..4000).map(|k| k * 104_729 % n))
            .collect();
        for i in order {
            assert_eq!(
                paged.line_start(i),
                buffer.line_start(i),
                "start of line {i}"
            );
            let at = buffer.line_start(i) + (i % 3);
            assert_eq!(paged.line_of(at), buffer.line_of(at), "line of byte {at}");
        }
    }

    #[test]
    fn a_line_of_megabytes_is_measured_and_counted_without_reading_it_whole() {
        // A line of 3 MB of multi-byte characters (and invalid bytes) between short lines:
        // pieces of 1 MiB split its characters, pages of 4096 bytes split it more.
        let mut bytes = b"short\r\n".to_vec();
        for k in 0..400_000u32 {
            bytes.extend_from_slice(if k % 1000 == 7 {
                b"\xff"
            } else {
                "é€😀".as_bytes()
            });
        }
        bytes.extend_from_slice(b"\r\nlast");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.log");
        std::fs::write(&p, &bytes).unwrap();
        let paged = PagedText::open(&p, &small(4096, 8)).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(20)));
        let whole = paged.line_range(1);
        assert_eq!(
            whole,
            7..bytes.len() - 6,
            "the \\r before the break is left out"
        );
        // Read no further than asked: the line ends at the limit.
        assert_eq!(paged.line_range_within(1, 1000), 7..1007);
        assert_eq!(paged.line_range_within(1, usize::MAX), whole);
        assert_eq!(paged.line_range_within(0, 3), 0..3);
        assert_eq!(paged.line_range_within(0, 100), 0..5);
        // A position inside the long line, which is not the last: its line, found without
        // walking the long line (the next mark bounds the walk).
        for at in [7, 100_000, 2_000_000, whole.end, whole.end + 2] {
            let want = bytes[..at].iter().filter(|&&b| b == b'\n').count();
            assert_eq!(paged.line_of(at), want, "line of byte {at}");
        }
        for (a, b) in [
            (7, 9),
            (7, whole.end),
            (8, whole.end - 1),
            (0, bytes.len()),
            (1_048_000, 2_200_001),
            // Longer counts from one start go on from the last (a column asked each frame).
            (7, 1_500_000),
            (7, 2_500_001),
            (7, 2_900_000),
            (7, 1_200_000),
        ] {
            assert_eq!(
                paged.count_chars(a..b),
                paged.read(a..b).chars().count(),
                "{a}..{b}"
            );
        }
    }

    #[test]
    fn invalid_utf8_keeps_offsets_and_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.log");
        std::fs::write(&p, b"ok\n\xff\xfe bad\nok\n").unwrap();
        let paged = PagedText::open(&p, &small(3, 2)).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(5)));
        assert_eq!(paged.line(1), "?? bad");
        assert_eq!(paged.line_start(2), 10);
        assert!(
            paged
                .warnings()
                .iter()
                .any(|w| w.contains("2 invalid bytes"))
        );
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
        assert!(w.contains("a.log.gz"), "{w}");
    }
}
