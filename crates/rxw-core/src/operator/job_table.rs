//! The jobs table in memory that grows with the jobs, not with their events.
//!
//! [`super::jobs::JobTracker`] keeps every event of every job, which a front end that shows
//! the events needs. A table needs less: per job its id, where it first appears and a summary
//! kept up to date event by event (the last result's status, the last decline or no-action,
//! whether it was claimed or acknowledged, how often resolved, the first claim's time and the
//! first resolution's after it, the tags in order with repeats folded). [`JobTable`] keeps
//! exactly that: a 48-byte row, the id's bytes and a 4-byte slot in a hash table of row
//! numbers (about 70 bytes a job in all); with [`JobTable::with_events`] it also keeps
//! the events, 28 bytes each in one shared list (no list per job), for the JSON rows. Every
//! answer equals the tracker's ([`super::jobs::Job`]'s methods), which the tests check.

use super::jobs::{
    Event, Flag, Job, LineClock, NO_TIME, RESULT_STATUSES, SUMMARY_RUNS, SortKey, Status, Tag,
    longest_first, summary_text,
};
use foldhash::fast::RandomState;
use hashbrown::HashTable;
use std::collections::HashMap;
use std::hash::BuildHasher;

/// No event (the end of a job's list of events).
const NONE: u32 = u32::MAX;
/// Folded runs of tags kept inline in a row; a job with more has them in the table's spill.
const INLINE_RUNS: usize = 5;

/// The tags of a job in order, repeats folded: up to [`INLINE_RUNS`] `(tag, count)` runs in
/// one word: the number of runs (3 bits), whether they moved to the table's spill (1 bit),
/// then each run's tag index (3 bits) and count up to 255 (8 bits).
#[derive(Debug, Clone, Copy, Default)]
struct Runs(u64);

impl Runs {
    const RUN_BITS: u32 = 11;

    fn len(self) -> usize {
        (self.0 & 7) as usize
    }

    fn spilled(self) -> bool {
        self.0 & 8 != 0
    }

    fn set_spilled(&mut self) {
        self.0 |= 8;
    }

    /// Run `i`'s tag index and count.
    fn get(self, i: usize) -> (u8, u8) {
        let v = self.0 >> (4 + Self::RUN_BITS * i as u32);
        ((v & 7) as u8, ((v >> 3) & 0xFF) as u8)
    }

    fn set(&mut self, i: usize, tag: u8, n: u8) {
        let shift = 4 + Self::RUN_BITS * i as u32;
        self.0 &= !(0x7FF << shift);
        self.0 |= (u64::from(tag & 7) | (u64::from(n) << 3)) << shift;
    }

    fn push(&mut self, tag: u8, n: u8) {
        let len = self.len();
        self.set(len, tag, n);
        self.0 = (self.0 & !7) | (len as u64 + 1);
    }

    /// The runs as tags and counts.
    fn list(self) -> Vec<(Tag, u32)> {
        (0..self.len())
            .map(|i| {
                let (t, n) = self.get(i);
                (TAGS[t as usize], u32::from(n))
            })
            .collect()
    }
}

/// Bits of [`Row::id`] that give the id's length: an id lies in one line, and a line is at
/// most [`crate::input::lines::MAX_LINE`] (64 MiB) long.
const ID_LEN_BITS: u32 = 27;
const _: () = assert!(crate::input::lines::MAX_LINE < 1 << ID_LEN_BITS);

/// One job's row (48 bytes).
#[derive(Debug, Clone)]
struct Row {
    /// Where its id is in the table's id bytes (the high bits) and its length (the low
    /// [`ID_LEN_BITS`]).
    id: u64,
    /// Its first event's log and line.
    first_source: u32,
    first_line: u64,
    /// The first claim's time, and the first resolution's after it ([`NO_TIME`] when the
    /// line had none).
    claim_millis: i64,
    resolution_millis: i64,
    /// Resolutions (`RESULT`, `DECLINE`, `NO-ACTION`) seen, up to 255 (the flags ask for
    /// none, one or more).
    resolutions: u8,
    /// The last `RESULT`'s status index, [`NO_STATUS`] for one without, [`NO_RESULT`] for
    /// none.
    last_result: u8,
    /// The last of `DECLINE` (1) / `NO-ACTION` (2), 0 for none.
    last_decline: u8,
    /// [`CLAIMED`], [`ACKED`], [`CLAIM_RESOLVED`] bits.
    bits: u8,
    runs: Runs,
}

const _: () = assert!(std::mem::size_of::<Row>() == 48);

/// The events a table keeps: one list for all jobs, each event's next in its job, and each
/// job's first and last.
#[derive(Debug, Clone, Default)]
struct Kept {
    list: Vec<Event>,
    next: Vec<u32>,
    ends: Vec<(u32, u32)>,
}

const NO_RESULT: u8 = u8::MAX;
const NO_STATUS: u8 = u8::MAX - 1;
const CLAIMED: u8 = 1;
const ACKED: u8 = 2;
/// A resolution came after the first claim.
const CLAIM_RESOLVED: u8 = 4;

/// The jobs of the lines fed, one compact row per id in order of first appearance.
#[derive(Debug, Clone)]
pub struct JobTable {
    rows: Vec<Row>,
    /// Every id, back to back.
    ids: Vec<u8>,
    /// The rows by their id's hash (the ids are compared in `ids`).
    index: HashTable<u32>,
    hasher: RandomState,
    /// Runs of jobs with more than [`INLINE_RUNS`] of them (or a count over 255).
    /// (at most [`SUMMARY_RUNS`], then the events after them counted).
    spill: HashMap<u32, (Vec<(Tag, u32)>, u64)>,
    /// The events, when kept.
    events: Option<Kept>,
    clock: LineClock,
}

impl Default for JobTable {
    fn default() -> Self {
        JobTable::new()
    }
}

const TAGS: [Tag; 7] = [
    Tag::WorkOrder,
    Tag::Ack,
    Tag::Claim,
    Tag::Result,
    Tag::Decline,
    Tag::NoAction,
    Tag::Nudge,
];

fn tag_index(tag: Tag) -> u8 {
    TAGS.iter().position(|&t| t == tag).unwrap_or(0) as u8
}

/// The bytes of `row`'s id in `ids`.
fn id_bytes<'i>(ids: &'i [u8], row: &Row) -> &'i [u8] {
    let at = (row.id >> ID_LEN_BITS) as usize;
    let len = (row.id & ((1 << ID_LEN_BITS) - 1)) as usize;
    ids.get(at..at + len).unwrap_or_default()
}

/// The tags of a block of lines, read apart from the table ([`JobTable::read_block`]).
#[derive(Debug, Default)]
pub struct BlockTags {
    /// The tags' ids, one after the other.
    ids: Vec<u8>,
    /// Each tag's id (a range of `ids`) and event, in line order.
    events: Vec<(std::ops::Range<usize>, Event)>,
    /// The block's lines.
    lines: u64,
    /// The time of its last stamped line.
    last_time: Option<i64>,
}

impl BlockTags {
    /// The block's lines.
    pub fn lines(&self) -> u64 {
        self.lines
    }
}

impl JobTable {
    /// An empty table that keeps no events (the rows' summaries only).
    pub fn new() -> JobTable {
        JobTable {
            rows: Vec::new(),
            ids: Vec::new(),
            index: HashTable::new(),
            hasher: RandomState::default(),
            spill: HashMap::new(),
            events: None,
            clock: LineClock::default(),
        }
    }

    /// An empty table that keeps every event too ([`JobTable::job`] then lists them).
    pub fn with_events() -> JobTable {
        JobTable {
            events: Some(Kept::default()),
            ..JobTable::new()
        }
    }

    /// Takes line `number` of log `source` (without its newline), as
    /// [`super::jobs::JobTracker::feed_from`].
    pub fn feed_from(&mut self, line: &[u8], source: usize, number: u64) {
        let mut clock = std::mem::take(&mut self.clock);
        clock.tags(line, source, number, |id, event| self.push(id, event));
        self.clock = clock;
    }

    /// Reads the tags of `block`, whole lines of one log split at line feeds (a `\r` before
    /// one left out), its first line numbered `first_line`, apart from any table: on another
    /// core, while the table takes the block before ([`JobTable::take_block`]).
    pub fn read_block(block: &[u8], first_line: u64) -> BlockTags {
        let mut clock = LineClock::default();
        let mut tags = BlockTags::default();
        let mut number = first_line;
        // The lines as `split` at line feeds gives them, found with memchr (a byte-by-byte
        // split was a sixth of the pass).
        let mut start = 0;
        let ends = memchr::memchr_iter(b'\n', block).chain(std::iter::once(block.len()));
        for end in ends {
            let line = &block[start..end];
            start = end + 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            clock.tags(line, 0, number, |id, event| {
                let at = tags.ids.len();
                tags.ids.extend_from_slice(id);
                tags.events.push((at..tags.ids.len(), event));
            });
            number += 1;
        }
        tags.lines = number - first_line;
        tags.last_time = clock.last_time();
        tags
    }

    /// Takes the tags [`JobTable::read_block`] read from a block, after the lines taken so
    /// far: as feeding its lines one by one would. Events on the block's lines before its
    /// first stamp take the time of the last stamped line before the block.
    pub fn take_block(&mut self, tags: BlockTags) {
        let before = self.clock.carried_time(0);
        for (id, mut event) in tags.events {
            if event.millis == NO_TIME
                && let Some(t) = before
            {
                event.millis = t;
            }
            self.push(&tags.ids[id], event);
        }
        self.clock.advance(0, tags.lines, tags.last_time);
    }

    /// The number of jobs.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there is no job.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The number of events kept (0 unless [`JobTable::with_events`]).
    pub fn events_kept(&self) -> usize {
        self.events.as_ref().map_or(0, |e| e.list.len())
    }

    /// Bytes the table holds (rows, ids, index, spilled runs, events), by capacity: what a
    /// memory bound is checked against.
    pub fn held_bytes(&self) -> usize {
        use std::mem::size_of;
        let index = self.index.capacity() * (size_of::<u32>() + 1);
        let spill = self
            .spill
            .values()
            .map(|(v, _)| v.capacity() * size_of::<(Tag, u32)>() + 40)
            .sum::<usize>();
        let events = self.events.as_ref().map_or(0, |e| {
            e.list.capacity() * size_of::<Event>()
                + e.next.capacity() * size_of::<u32>()
                + e.ends.capacity() * size_of::<(u32, u32)>()
        });
        self.rows.capacity() * size_of::<Row>() + self.ids.capacity() + index + spill + events
    }

    /// The bytes of row `k`'s id.
    fn id_bytes(&self, k: usize) -> &[u8] {
        id_bytes(&self.ids, &self.rows[k])
    }

    fn push(&mut self, id: &[u8], event: Event) {
        if id.len() >> ID_LEN_BITS != 0 {
            // An id of 128 MiB or more: no reader hands out such a line (the line readers
            // stop at 64 MiB, a paged view's pieces at 16 MiB), so this is not reached.
            return;
        }
        let hash = self.hasher.hash_one(id);
        let (rows, ids) = (&self.rows, &self.ids);
        let found = self
            .index
            .find(hash, |&k| id_bytes(ids, &rows[k as usize]) == id)
            .copied();
        let k = match found {
            Some(k) => k,
            None => {
                let k = u32::try_from(self.rows.len()).unwrap_or(u32::MAX);
                let (rows, ids, hasher) = (&self.rows, &self.ids, &self.hasher);
                self.index.insert_unique(hash, k, |&j| {
                    hasher.hash_one(id_bytes(ids, &rows[j as usize]))
                });
                let at = self.ids.len() as u64;
                // Ids are ASCII by the grammar.
                self.ids.extend_from_slice(id);
                self.rows.push(Row {
                    id: (at << ID_LEN_BITS) | id.len() as u64,
                    first_source: event.source,
                    first_line: event.line,
                    claim_millis: NO_TIME,
                    resolution_millis: NO_TIME,
                    resolutions: 0,
                    last_result: NO_RESULT,
                    last_decline: 0,
                    bits: 0,
                    runs: Runs::default(),
                });
                k
            }
        };
        self.record(k, event);
    }

    /// Updates row `k`'s summary with its next event.
    fn record(&mut self, k: u32, e: Event) {
        let row = &mut self.rows[k as usize];
        match e.tag {
            Tag::Result => {
                row.last_result = if (e.status as usize) < RESULT_STATUSES.len() {
                    e.status
                } else {
                    NO_STATUS
                }
            }
            Tag::Decline => row.last_decline = 1,
            Tag::NoAction => row.last_decline = 2,
            Tag::Ack => row.bits |= ACKED,
            _ => {}
        }
        if e.tag == Tag::Claim && row.bits & CLAIMED == 0 {
            row.bits |= CLAIMED;
            row.claim_millis = e.millis;
        } else if e.tag.resolves() && row.bits & CLAIMED != 0 && row.bits & CLAIM_RESOLVED == 0 {
            row.bits |= CLAIM_RESOLVED;
            row.resolution_millis = e.millis;
        }
        if e.tag.resolves() {
            row.resolutions = row.resolutions.saturating_add(1);
        }
        // The folded tags.
        let tag = tag_index(e.tag);
        let runs = &mut row.runs;
        if runs.spilled() {
            let (list, more) = self.spill.entry(k).or_default();
            let room = list.len() < SUMMARY_RUNS;
            match list.last_mut() {
                Some((t, n)) if *more == 0 && *t == e.tag => *n += 1,
                _ if room => list.push((e.tag, 1)),
                _ => *more += 1,
            }
        } else {
            let len = runs.len();
            match len.checked_sub(1).map(|i| runs.get(i)) {
                Some((t, n)) if t == tag && n < u8::MAX => runs.set(len - 1, t, n + 1),
                Some((t, _)) if t == tag || len == INLINE_RUNS => {
                    // A count past 255 or a sixth run: the runs move to the spill.
                    let mut list = runs.list();
                    match list.last_mut() {
                        Some((t, n)) if *t == e.tag => *n += 1,
                        _ => list.push((e.tag, 1)),
                    }
                    self.spill.insert(k, (list, 0));
                    runs.set_spilled();
                }
                _ => runs.push(tag, 1),
            }
        }
        if let Some(kept) = &mut self.events {
            let k = k as usize;
            if kept.ends.len() <= k {
                kept.ends.resize(k + 1, (NONE, NONE));
            }
            let at = u32::try_from(kept.list.len()).unwrap_or(NONE);
            kept.list.push(e);
            kept.next.push(NONE);
            let ends = &mut kept.ends[k];
            match ends.1 {
                NONE => ends.0 = at,
                last => kept.next[last as usize] = at,
            }
            ends.1 = at;
        }
    }

    fn id(&self, k: usize) -> &str {
        std::str::from_utf8(self.id_bytes(k)).unwrap_or("")
    }

    /// Job `k`'s row, in order of first appearance.
    pub fn row(&self, k: usize) -> JobRow<'_> {
        JobRow { table: self, k }
    }

    /// Job `k` with its events (none unless the table keeps them).
    pub fn job(&self, k: usize) -> Job {
        let mut events = Vec::new();
        if let Some(kept) = &self.events {
            let mut at = kept.ends.get(k).map_or(NONE, |e| e.0);
            while at != NONE {
                events.push(kept.list[at as usize]);
                at = kept.next[at as usize];
            }
        }
        Job {
            id: self.id(k).to_string(),
            order: k,
            events,
        }
    }

    /// Each row as the table prints it (id, the five cells, the events' summary) and the
    /// number of its events: what two tables are compared by in tests.
    #[cfg(test)]
    pub(crate) fn printed(&self) -> Vec<(String, [String; 5], String, u64)> {
        (0..self.rows.len())
            .map(|k| {
                let r = self.row(k);
                (
                    r.id().to_string(),
                    r.table_cells(),
                    r.event_summary(),
                    r.event_count(),
                )
            })
            .collect()
    }

    /// The rows' positions in `key` order, as [`super::jobs::order`] orders jobs.
    pub fn order(&self, key: SortKey) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.rows.len()).collect();
        match key {
            SortKey::Job => idx.sort_by(|&a, &b| self.id(a).cmp(self.id(b))),
            SortKey::Status => idx.sort_by_key(|&i| (self.row(i).status().name(), i)),
            SortKey::First => {}
            SortKey::Duration => {
                let keys: Vec<Option<f64>> = (0..self.rows.len())
                    .map(|i| self.row(i).claim_to_result_s())
                    .collect();
                idx.sort_by(|&a, &b| longest_first(keys[a], keys[b]).then(a.cmp(&b)));
            }
        }
        idx
    }
}

/// One row of a [`JobTable`]: the answers of [`Job`]'s methods from the summary.
#[derive(Clone, Copy)]
pub struct JobRow<'t> {
    table: &'t JobTable,
    k: usize,
}

impl<'t> JobRow<'t> {
    fn r(&self) -> &'t Row {
        &self.table.rows[self.k]
    }

    /// The job id.
    pub fn id(&self) -> &'t str {
        self.table.id(self.k)
    }

    /// The log and line where the job first appears.
    pub fn first(&self) -> (usize, u64) {
        (self.r().first_source as usize, self.r().first_line)
    }

    /// As [`Job::status`].
    pub fn status(&self) -> Status {
        let r = self.r();
        match r.last_result {
            NO_RESULT => {}
            NO_STATUS => return Status::ResultWithoutStatus,
            k => return Status::Result(RESULT_STATUSES[k as usize]),
        }
        match r.last_decline {
            1 => Status::Declined,
            2 => Status::NoAction,
            _ if r.bits & CLAIMED != 0 => Status::Claimed,
            _ if r.bits & ACKED != 0 => Status::Acked,
            _ => Status::Open,
        }
    }

    /// As [`Job::claim_to_result_s`].
    pub fn claim_to_result_s(&self) -> Option<f64> {
        let r = self.r();
        if r.bits & CLAIM_RESOLVED == 0
            || r.claim_millis == NO_TIME
            || r.resolution_millis == NO_TIME
        {
            return None;
        }
        Some((r.resolution_millis - r.claim_millis) as f64 / 1000.0)
    }

    /// Whether [`JobRow::flags`] names any (without building the list).
    pub fn is_flagged(&self) -> bool {
        let (unresolved, twice) = self.flag_states();
        unresolved || twice
    }

    /// Whether the job is claimed and never resolved, and whether it was resolved twice.
    fn flag_states(&self) -> (bool, bool) {
        let r = self.r();
        (
            r.bits & CLAIMED != 0 && r.resolutions == 0,
            r.resolutions >= 2,
        )
    }

    /// As [`Job::flags`].
    pub fn flags(&self) -> Vec<Flag> {
        let (unresolved, twice) = self.flag_states();
        let mut flags = Vec::new();
        if unresolved {
            flags.push(Flag::Unresolved);
        }
        if twice {
            flags.push(Flag::ResolvedTwice);
        }
        flags
    }

    /// Its runs of tags, and the events counted after them.
    fn runs(&self) -> (Vec<(Tag, u32)>, u64) {
        let r = self.r();
        if r.runs.spilled() {
            self.table
                .spill
                .get(&(self.k as u32))
                .cloned()
                .unwrap_or_default()
        } else {
            (r.runs.list(), 0)
        }
    }

    /// The number of its events.
    pub fn event_count(&self) -> u64 {
        let (runs, more) = self.runs();
        runs.iter().map(|&(_, n)| u64::from(n)).sum::<u64>() + more
    }

    /// The tag of its first event.
    pub fn first_tag(&self) -> Tag {
        self.runs().0.first().map_or(Tag::WorkOrder, |&(t, _)| t)
    }

    /// As [`Job::event_summary`].
    pub fn event_summary(&self) -> String {
        let (runs, more) = self.runs();
        summary_text(&runs, more)
    }

    /// As [`Job::table_cells`].
    pub fn table_cells(&self) -> [String; 5] {
        [
            self.id().to_string(),
            self.status().name().to_string(),
            self.first().1.to_string(),
            self.claim_to_result_s()
                .map_or_else(|| "-".to_string(), super::jobs::format_seconds),
            self.flags()
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(","),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operator::jobs::{JobTracker, order};

    fn log(jobs: usize, events: usize) -> String {
        let mut s = String::new();
        for k in 0..events {
            let j = (k * 7919) % jobs;
            let tag = match (k / jobs + j) % 9 {
                0 => format!("[WO:{j:x}] [from a]"),
                1 => format!("[ACK j{j}]"),
                2 => format!("[CLAIM j{j}]"),
                3 => format!("[RESULT j{j}] OK"),
                4 => format!("[RESULT j{j}] maybe"),
                5 => format!("[DECLINE j{j}]"),
                6 => format!("[NO-ACTION j{j}]"),
                7 => format!("[NUDGE j{j}] [NUDGE j{j}]"),
                _ => format!("[CLAIM j{j}] [RESULT j{j}] FAIL"),
            };
            if k % 3 == 0 {
                s.push_str(&format!("2026-10-05T00:{:02}:{:02}Z ", k / 60 % 60, k % 60));
            }
            s.push_str(&tag);
            s.push('\n');
        }
        s
    }

    fn feed(text: &str, events: bool) -> (JobTable, Vec<Job>) {
        let mut table = if events {
            JobTable::with_events()
        } else {
            JobTable::new()
        };
        let mut tracker = JobTracker::new();
        for (n, line) in text.lines().enumerate() {
            table.feed_from(line.as_bytes(), n % 2, n as u64 / 2 + 1);
            tracker.feed_from(line.as_bytes(), n % 2, n as u64 / 2 + 1);
        }
        (table, tracker.finish())
    }

    /// Blocks read apart and taken in order give the table line-by-line feeding gives,
    /// wherever the blocks are cut: events before a block's first stamp take the time of the
    /// stamp before the block, CRLF line ends and an unstamped head of the log included.
    #[test]
    fn blocks_read_apart_give_the_table_fed_line_by_line() {
        let mut text = String::from("[CLAIM early] no stamp yet\r\n[ACK:early]\n");
        text.push_str(&log(37, 900).replace("FAIL\n", "FAIL\r\n"));
        let lines: Vec<&str> = text.split('\n').collect();
        let mut fed = JobTable::with_events();
        for (n, line) in lines.iter().enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            fed.feed_from(line.as_bytes(), 0, n as u64 + 1);
        }
        for cut_every in [1, 2, 3, 7, 50, 1000, 5000] {
            let mut taken = JobTable::with_events();
            let mut first = 1;
            for block in lines.chunks(cut_every) {
                let block = block.join("\n");
                let tags = JobTable::read_block(block.as_bytes(), first);
                first += tags.lines();
                taken.take_block(tags);
            }
            assert_eq!(first, lines.len() as u64 + 1);
            assert_eq!(
                taken.printed(),
                fed.printed(),
                "blocks of {cut_every} lines"
            );
            let jobs = |t: &JobTable| (0..t.len()).map(|k| t.job(k)).collect::<Vec<_>>();
            assert_eq!(jobs(&taken), jobs(&fed), "blocks of {cut_every} lines");
        }
        assert!(fed.len() > 30);
    }

    #[test]
    fn rows_answer_as_the_jobs_do() {
        for (jobs, events) in [(1, 40), (3, 700), (50, 2000), (997, 5000)] {
            let text = log(jobs, events);
            let (table, tracked) = feed(&text, true);
            assert_eq!(table.len(), tracked.len());
            for (k, job) in tracked.iter().enumerate() {
                let row = table.row(k);
                assert_eq!(row.table_cells(), job.table_cells(), "{}", job.id);
                assert_eq!(row.event_summary(), job.event_summary(), "{}", job.id);
                assert_eq!(
                    row.first(),
                    (job.events[0].source as usize, job.first_line())
                );
                assert_eq!(&table.job(k), job);
                assert_eq!(row.event_count(), job.events.len() as u64, "{}", job.id);
                assert_eq!(row.first_tag(), job.events[0].tag, "{}", job.id);
                assert_eq!(row.is_flagged(), !job.flags().is_empty(), "{}", job.id);
            }
            for key in [
                SortKey::Job,
                SortKey::Status,
                SortKey::First,
                SortKey::Duration,
            ] {
                assert_eq!(table.order(key), order(&tracked, key), "{key:?}");
            }
        }
    }

    /// Jobs each handed out, acknowledged, claimed, nudged `nudges` times and resolved,
    /// interleaved.
    fn lifecycles(jobs: usize, nudges: usize) -> String {
        let mut s = String::new();
        for step in 0..nudges + 4 {
            for j in 0..jobs {
                let tag = match step {
                    0 => format!("[WO:{j:x}] [from a]"),
                    1 => format!("[ACK:{j:x}]"),
                    2 => format!("[CLAIM {j:x}]"),
                    k if k == nudges + 3 => format!("[RESULT {j:x}] OK"),
                    _ => format!("[NUDGE {j:x}]"),
                };
                s.push_str(&format!(
                    "2026-10-05T00:{:02}:{:02}Z {tag}\n",
                    step / 60 % 60,
                    step % 60
                ));
            }
        }
        s
    }

    /// Regression: a job whose id came back in every rotation of a log (the same lifecycle
    /// 100 times over) grew its summary with every event: 20 GB of such a log took 2.5 GB
    /// in the Jobs view. The summary lists its first runs and counts the rest.
    #[test]
    fn a_job_that_comes_back_keeps_a_summary_of_bounded_size() {
        let once = lifecycles(50, 1);
        let (table, tracked) = feed(&once.repeat(100), false);
        let (single, _) = feed(&once.repeat(2), false);
        assert_eq!(table.len(), 50);
        let summary = table.row(3).event_summary();
        assert_eq!(summary, tracked[3].event_summary());
        crate::testing::assert_starts(
            &summary,
            "WO ACK CLAIM NUDGE RESULT WO ACK CLAIM NUDGE RESULT",
        );
        // 16 runs listed, the other 500 - 16 events counted.
        assert!(summary.ends_with(" RESULT WO … +484 more"), "{summary}");
        assert!(
            table.held_bytes() <= single.held_bytes() + 50 * 256,
            "{} then {}",
            single.held_bytes(),
            table.held_bytes()
        );
    }

    /// Regression: the jobs table held every event of every job (1.4 GB for a 1 GB log);
    /// without events a table's memory grows with its jobs, not with their events.
    #[test]
    fn a_table_without_events_holds_rows_only() {
        let (few, _) = feed(&lifecycles(500, 2), false);
        let (many, tracked) = feed(&lifecycles(500, 600), false);
        assert_eq!(many.events_kept(), 0);
        assert_eq!(few.len(), many.len());
        assert_eq!(many.row(7).event_summary(), tracked[7].event_summary());
        // 300 times the events, the same rows (a count past 255 moves one job's runs out of
        // line once: about a hundred bytes each, then no more).
        assert!(
            many.held_bytes() <= few.held_bytes() + 500 * 128,
            "{} then {}",
            few.held_bytes(),
            many.held_bytes()
        );
        let (rows, _) = feed(&lifecycles(20_000, 2), false);
        let per_job = rows.held_bytes() / rows.len();
        assert!(per_job <= 160, "{per_job} bytes per job");
        let (kept, _) = feed(&lifecycles(500, 600), true);
        assert_eq!(kept.events_kept(), 500 * 604);
        assert!(kept.held_bytes() <= 500 * 604 * 28 * 2 + many.held_bytes());
    }
}
