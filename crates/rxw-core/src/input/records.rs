//! The record files beside a spill, and the reads that gather a merged text from them.
//!
//! A merged input keeps, next to its spill, a file of runs (each run of lines from one log:
//! its first merged line, its log and its own line there) and, when plain logs among its
//! sources are read in place, a file of extents (each stretch of the merged text: its first
//! merged byte, the file holding it and the offset there). Both are [`RecordFile`]s: records
//! appended in batches by the spill writer while the views read them, stored as deltas.

use std::fs::File;
use std::io::Write as _;
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// A file of records, each a start (in increasing order: a merged line, a merged byte) and a
/// value (a number in the top 16 bits, the *key*, and one in the low 48), appended in batches
/// by one writer while readers walk it. A record covers from its start to the next record's
/// (the last, to the end covered so far).
///
/// Records are stored in blocks of at most [`RECORD_BLOCK`], each record as deltas in
/// LEB128 varints: its start from the one before, its key, and its low 48 bits from the last
/// record with the same key in the block (zigzag). A run of a log's lines or a stretch of a
/// file takes 3 to 5 bytes, not 16. In memory, each block's first start and place in the
/// file: a lookup decodes at most one block before the record it wants.
pub(super) struct RecordFile {
    file: File,
    index: RwLock<RecordIndex>,
}

/// What a [`RecordFile`] holds so far.
#[derive(Debug, Default)]
pub(super) struct RecordIndex {
    /// Records written.
    pub(super) records: u64,
    /// Where the records' cover ends (the start past the last record's end).
    pub(super) end: u64,
    /// Each block's first start and where the block begins in the file.
    blocks: Vec<(u64, u64)>,
    /// Bytes in the file.
    pub(super) bytes: u64,
}

/// Records a [`RecordFile`] block holds at most.
const RECORD_BLOCK: usize = 512;
/// Blocks of a [`RecordFile`] a walk takes from the index at a time.
const WALK_BLOCKS: usize = 64;

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The varint at `bytes[*at..]`, moving `at` past it; `None` when the bytes end inside it.
fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7F) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

/// The last low value of each key seen in a block (a handful of keys: the logs merged).
#[derive(Default)]
struct LastLow(Vec<(u64, u64)>);

impl LastLow {
    /// The last low value of `key` (0 before its first), now set to `low`.
    fn swap(&mut self, key: u64, low: u64) -> u64 {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, l)) => std::mem::replace(l, low),
            None => {
                self.0.push((key, low));
                0
            }
        }
    }

    /// The last low value of `key`, 0 before its first.
    fn get(&self, key: u64) -> u64 {
        self.0
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0, |(_, l)| *l)
    }
}

pub(super) const LOW: u64 = (1 << 48) - 1;

impl RecordFile {
    pub(super) fn new(file: File) -> RecordFile {
        RecordFile {
            file,
            index: RwLock::new(RecordIndex::default()),
        }
    }

    pub(super) fn index(&self) -> std::sync::RwLockReadGuard<'_, RecordIndex> {
        self.index
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes `records` through `w` (in new blocks) and takes them in, now covering up to
    /// `end`; false when the write failed (nothing is taken in).
    pub(super) fn append(
        &self,
        w: &mut std::io::BufWriter<File>,
        records: &[(u64, u64)],
        end: u64,
    ) -> bool {
        let mut at = self.index().bytes;
        let mut blocks = Vec::new();
        let mut out = Vec::with_capacity(records.len() * 5);
        for block in records.chunks(RECORD_BLOCK) {
            let before = out.len();
            let mut prev = block[0].0;
            let mut last = LastLow::default();
            for &(start, value) in block {
                let (key, low) = (value >> 48, value & LOW);
                put_varint(&mut out, start - prev);
                put_varint(&mut out, key);
                let delta = low.wrapping_sub(last.swap(key, low)) as i64;
                put_varint(&mut out, ((delta << 1) ^ (delta >> 63)) as u64);
                prev = start;
            }
            blocks.push((block[0].0, at));
            at += (out.len() - before) as u64;
        }
        if !(w.write_all(&out).is_ok() && w.flush().is_ok()) {
            return false;
        }
        let mut index = self
            .index
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        index.records += records.len() as u64;
        index.end = end;
        index.blocks.extend(blocks);
        index.bytes = at;
        true
    }

    /// Calls `f` with each record from the one covering `from` on, as its start, its value
    /// and its length, until `f` returns false or the records written so far end.
    pub(super) fn walk(&self, from: u64, mut f: impl FnMut(u64, u64, u64) -> bool) {
        let (end, mut next) = {
            let index = self.index();
            if from >= index.end || index.blocks.is_empty() {
                return;
            }
            let k = index
                .blocks
                .partition_point(|&(first, _)| first <= from)
                .saturating_sub(1);
            (index.end, k)
        };
        // A record is passed on once the next one's start gives its length.
        let mut held: Option<(u64, u64)> = None;
        let mut buf = Vec::new();
        loop {
            // The next blocks' places, and where the last of them ends.
            let (blocks, stop) = {
                let index = self.index();
                let to = (next + WALK_BLOCKS).min(index.blocks.len());
                let stop = index.blocks.get(to).map_or(index.bytes, |b| b.1);
                (index.blocks[next.min(to)..to].to_vec(), stop)
            };
            let Some(&(_, first)) = blocks.first() else {
                break;
            };
            buf.resize(usize::try_from(stop - first).unwrap_or(0), 0);
            if read_at(&self.file, &mut buf, first).unwrap_or(0) < buf.len() {
                return;
            }
            for (j, &(block_start, place)) in blocks.iter().enumerate() {
                let block_end = blocks.get(j + 1).map_or(stop, |b| b.1);
                let bytes = &buf[(place - first) as usize..(block_end - first) as usize];
                let (mut at, mut prev, mut last) = (0, block_start, LastLow::default());
                while at < bytes.len() {
                    let (Some(d), Some(key), Some(z)) = (
                        get_varint(bytes, &mut at),
                        get_varint(bytes, &mut at),
                        get_varint(bytes, &mut at),
                    ) else {
                        return;
                    };
                    let start = prev + d;
                    let delta = ((z >> 1) as i64) ^ -((z & 1) as i64);
                    let low = last.get(key).wrapping_add(delta as u64) & LOW;
                    last.swap(key, low);
                    prev = start;
                    if let Some((s, v)) = held
                        && start > from
                        && !f(s, v, start - s)
                    {
                        return;
                    }
                    held = Some((start, (key << 48) | low));
                }
            }
            next += blocks.len();
        }
        if let Some((s, v)) = held
            && end > s
        {
            f(s, v, end - s);
        }
    }
}

/// A record's value: a number in the top 16 bits, another in the low 48.
pub(super) fn split_value(v: u64) -> (usize, u64) {
    ((v >> 48) as usize, v & ((1 << 48) - 1))
}

pub(super) fn join_value(high: usize, low: u64) -> u64 {
    ((high as u64) << 48) | (low & ((1 << 48) - 1))
}

/// Where a merged input's bytes are when plain logs among its sources are read in place
/// (not copied into the spill): a [`RecordFile`] of extents, each from its first merged
/// byte, valued as the file holding its bytes (0: the spill, `k + 1`: source `k`) and the
/// offset there.
pub(super) struct Extents {
    pub(super) records: RecordFile,
    /// Each source's file, for the sources read in place.
    pub(super) sources: Vec<Option<File>>,
    /// For each source, whether a read found its file shorter than what was indexed (it was
    /// truncated or replaced since).
    pub(super) changed: Vec<AtomicBool>,
}

/// Reads for a gather further apart than this in one file are made apart.
const GATHER_GAP: u64 = 64 * 1024;

impl Extents {
    /// Reads the merged bytes at `at` into `buf`: each file's pieces in as few reads as
    /// they allow, then put in place. Returns the bytes filled (short at the end of the
    /// extents written so far). A piece its file no longer holds (the log was truncated or
    /// replaced since) reads as `?`.
    pub(super) fn read(&self, spill: &File, buf: &mut [u8], at: u64) -> usize {
        let to = at + buf.len() as u64;
        // (file, offset there, offset in buf, length), in merged order.
        let mut pieces: Vec<(usize, u64, usize, usize)> = Vec::new();
        let mut filled = 0;
        self.records.walk(at, |start, value, len| {
            let (from, end) = (start.max(at), (start + len).min(to));
            if from < end {
                let (file, offset) = split_value(value);
                pieces.push((
                    file,
                    offset + (from - start),
                    (from - at) as usize,
                    (end - from) as usize,
                ));
                filled = (end - at) as usize;
            }
            start + len < to
        });
        let mut order: Vec<usize> = (0..pieces.len()).collect();
        // Each file's pieces, in the file's order (a plain log's are in its order already).
        order.sort_by_key(|&k| (pieces[k].0, pieces[k].1));
        let mut scratch = Vec::new();
        let mut k = 0;
        while k < order.len() {
            let (file, first, _, _) = pieces[order[k]];
            // The pieces one read covers: the same file, each near the one before.
            let mut j = k + 1;
            let mut span_end = first + pieces[order[k]].3 as u64;
            while j < order.len() {
                let (f, off, _, n) = pieces[order[j]];
                if f != file || off > span_end + GATHER_GAP {
                    break;
                }
                span_end = span_end.max(off + n as u64);
                j += 1;
            }
            let handle = match file {
                0 => Some(spill),
                s => self.sources.get(s - 1).and_then(Option::as_ref),
            };
            scratch.clear();
            scratch.resize((span_end - first) as usize, b'?');
            if let Some(h) = handle {
                let n = read_at(h, &mut scratch, first).unwrap_or(0);
                if n < scratch.len() {
                    scratch[n..].fill(b'?');
                    if let Some(flag) = file.checked_sub(1).and_then(|s| self.changed.get(s)) {
                        flag.store(true, Ordering::Relaxed);
                    }
                }
            }
            for &p in &order[k..j] {
                let (_, off, dst, n) = pieces[p];
                let from = (off - first) as usize;
                buf[dst..dst + n].copy_from_slice(&scratch[from..from + n]);
            }
            k = j;
        }
        filled
    }
}

/// Reads up to `buf.len()` bytes at `at`; fewer at the end of the file.
pub(super) fn read_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<usize> {
    let mut done = 0;
    while done < buf.len() {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(file, &mut buf[done..], at + done as u64);
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_read(file, &mut buf[done..], at + done as u64);
        match n {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// A record file walks back the records appended, in batches of any size, from any
        /// start: each record's start, value and length, whatever the keys and the jumps of
        /// their values (up and down, up to 48 bits).
        #[test]
        fn record_files_give_back_every_record_from_any_start(
            steps in proptest::collection::vec((1u64..300, 0u64..9, any::<u64>(), 0u8..4), 1..3000),
            batches in proptest::collection::vec(1usize..1500, 1..8),
            froms in proptest::collection::vec(any::<u64>(), 1..12),
        ) {
            let mut records = Vec::new();
            let mut start = 0;
            let mut lows = [0u64; 9];
            for &(gap, key, jump, kind) in &steps {
                let low = &mut lows[key as usize];
                *low = match kind {
                    0 => jump & LOW,
                    1 => low.wrapping_sub(jump % 100) & LOW,
                    _ => (*low + jump % 1000) & LOW,
                };
                records.push((start, (key << 48) | *low));
                start += gap;
            }
            let end = start;
            let dir = tempfile::tempdir().unwrap();
            let p = dir.path().join("records");
            let file = RecordFile::new(File::create(&p).and_then(|_| File::open(&p)).unwrap());
            let mut w = std::io::BufWriter::new(
                std::fs::OpenOptions::new().append(true).open(&p).unwrap(),
            );
            let mut at = 0;
            let mut k = 0;
            while at < records.len() {
                let n = batches[k % batches.len()].min(records.len() - at);
                let covered = records.get(at + n).map_or(end, |r| r.0);
                prop_assert!(file.append(&mut w, &records[at..at + n], covered));
                at += n;
                k += 1;
            }
            prop_assert!(file.index().bytes < 16 * records.len() as u64);
            for &from in &froms {
                let from = from % (end + 10);
                let mut got = Vec::new();
                file.walk(from, |s, v, n| {
                    got.push((s, v, n));
                    true
                });
                let want: Vec<(u64, u64, u64)> = records
                    .iter()
                    .enumerate()
                    .map(|(i, &(s, v))| (s, v, records.get(i + 1).map_or(end, |r| r.0) - s))
                    .filter(|&(s, _, n)| s + n > from)
                    .collect();
                prop_assert_eq!(got, want);
            }
        }
    }
}
