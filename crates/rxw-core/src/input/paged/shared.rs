//! What the handles on a paged text, its indexer and its scans share: the file, the page
//! cache, the line index, the blocks indexed last and what the indexer says.

use super::PagedOptions;
use super::cache::Cache;
use super::marks::{Marks, MarksAdded};
use crate::input::logs::SourceProgress;
use crate::input::records::{Extents, RecordFile, read_at};
use std::collections::HashMap;
use std::fs::File;
use std::path::PathBuf;
#[cfg(test)]
use std::sync::atomic::Ordering;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

/// Tests that compare chunks taken from the recent blocks with chunks read from the file
/// keep the blocks once indexing is done (the blocks are dropped then otherwise, and a short
/// text is indexed before it could be read). Either way, what is read is the same.
#[cfg(test)]
pub(super) static KEEP_RECENT: AtomicBool = AtomicBool::new(false);
/// Blocks the indexer keeps in memory after indexing them: a scan that follows the indexer
/// (the full count of a text still being indexed) takes its chunks from them rather than
/// reading back what was just written or read.
const RECENT_BLOCKS: usize = 3;

/// What the indexer says while it runs.
#[derive(Default)]
pub(super) struct BuildState {
    pub(super) done: bool,
    pub(super) warnings: Vec<String>,
    pub(super) invalid_utf8: usize,
    pub(super) started: Option<Instant>,
    pub(super) elapsed: Option<Duration>,
}

pub(super) struct Shared {
    pub(super) file: File,
    pub(super) page_bytes: usize,
    pub(super) cache: Mutex<Cache>,
    pub(super) index: RwLock<Marks>,
    /// The start of the line found last, `(byte, line)`: lookups of nearby lines (the rows of
    /// a frame, one after the other) walk from it rather than from the mark before them.
    pub(super) cursor: Mutex<(usize, usize)>,
    /// The last long count of characters, `(from, to, chars)`: a column far into a line of
    /// gigabytes, asked for every frame, is counted once (and on from there).
    pub(super) counted: Mutex<(usize, usize, usize)>,
    pub(super) len: AtomicUsize,
    pub(super) state: Mutex<BuildState>,
    pub(super) stop: AtomicBool,
    pub(super) names: Vec<String>,
    pub(super) progress: Vec<SourceProgress>,
    /// For a merged input, the runs file: the source of each run of lines.
    pub(super) sources: Option<RecordFile>,
    /// For a merged input with plain logs read in place, where each stretch of the text is
    /// (`file` is then the spill, holding the rest).
    pub(super) extents: Option<Extents>,
    /// The directory the spill was written in (its files are unlinked once open) and the
    /// bytes written to the spill.
    pub(super) spill: Option<(PathBuf, AtomicU64)>,
    /// The last [`RECENT_BLOCKS`] blocks indexed, by offset: the bytes of the file there.
    pub(super) recent: Mutex<std::collections::VecDeque<(usize, Arc<Vec<u8>>)>>,
}

impl Shared {
    /// A text about to be indexed: an empty cache and index, the build just started.
    pub(super) fn new(
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
    pub(super) fn record_bytes(&self) -> u64 {
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
    pub(super) fn read_text(&self, buf: &mut [u8], at: u64) -> usize {
        match &self.extents {
            Some(extents) => extents.read(&self.file, buf, at),
            None => read_at(&self.file, buf, at).unwrap_or(0),
        }
    }

    /// Keeps `bytes`, the file's at `offset`, as the newest recent block.
    pub(super) fn keep_recent(&self, offset: usize, bytes: Arc<Vec<u8>>) {
        let mut recent = crate::lock(&self.recent);
        if recent.len() >= RECENT_BLOCKS {
            recent.pop_front();
        }
        recent.push_back((offset, bytes));
    }

    /// What the indexer says (a poisoned lock is taken as it is: the state is plain values).
    pub(super) fn build_state(&self) -> std::sync::MutexGuard<'_, BuildState> {
        crate::lock(&self.state)
    }

    /// The indexer is done, saying `warnings`: its time is kept, and no scan follows it any
    /// more.
    pub(super) fn finish_build(&self, warnings: impl IntoIterator<Item = String>) {
        let mut st = self.build_state();
        st.warnings.extend(warnings);
        st.done = true;
        st.elapsed = st.started.map(|s| s.elapsed());
        drop(st);
        self.done_with_recent();
    }

    /// Drops the recent blocks, once the indexer is done ([`KEEP_RECENT`] in tests).
    pub(super) fn done_with_recent(&self) {
        #[cfg(test)]
        if KEEP_RECENT.load(Ordering::Relaxed) {
            return;
        }
        self.forget_recent();
    }

    /// Drops the recent blocks.
    pub(super) fn forget_recent(&self) {
        crate::lock(&self.recent).clear();
    }

    /// The recent block holding byte `at`, with its offset.
    pub(super) fn recent_at(&self, at: usize) -> Option<(usize, Arc<Vec<u8>>)> {
        crate::lock(&self.recent)
            .iter()
            .find(|(off, b)| (*off..off + b.len()).contains(&at))
            .map(|(off, b)| (*off, Arc::clone(b)))
    }
}

/// Adds `bytes` (at byte `base`) to the index of `shared`: scanned outside the lock (the
/// indexer is the only writer, so the end it scans from stays), appended under it.
pub(super) fn index_block(shared: &Shared, base: usize, bytes: &[u8]) {
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
