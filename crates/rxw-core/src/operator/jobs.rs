//! The jobs view: one row per job id, from the protocol tags of an agent log.
//!
//! NetVM agents speak about work in tags: `[WO:id]` hands out a work order, `[ACK:id]` or
//! `[ACK id]` acknowledges it, `[CLAIM id]` takes it, `[RESULT id] STATUS …`, `[DECLINE id]`
//! or `[NO-ACTION id]` resolve it, `[NUDGE id]` chases it. [`JobTracker`] finds these tags
//! anywhere in a line (captured logs put a timestamp and a sender first), one line at a time,
//! and keeps one [`Job`] per id in order of first appearance. Memory is the job table; the
//! log itself streams through ([`JobTracker::read`]).
//!
//! The grammar, exactly: `[`, the tag, then `:` and the id for `WO` and `ACK`, or one or more
//! spaces or tabs and the id for `ACK`, `CLAIM`, `RESULT`, `DECLINE`, `NO-ACTION`, `NUDGE`,
//! then `]`. Tags are upper case. An id is one or more of `A-Z a-z 0-9 _ / -` (the registry's
//! `verb` preset's job ids, swarm slots included). A result's status is the upper-case word
//! right after its tag (spaces or tabs between) when it is one of the registry `result`
//! preset's `OK FAIL DECLINE SUCCESS ERROR` and ends there (`OKAY` is no status).
//!
//! Times come from each line's leading ISO-8601 stamp ([`crate::input::timestamp`]); a line without
//! one takes the time of the last stamped line before it (none before the first stamp).
//! Everything is read as bytes: invalid UTF-8 never hides a tag.

use crate::input::timestamp;
use crate::operator::lines::for_each_line;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, Read};

/// A protocol tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tag {
    /// `[WO:id]`: a work order handed out.
    WorkOrder,
    /// `[ACK:id]` / `[ACK id]`: acknowledged.
    Ack,
    /// `[CLAIM id]`: taken.
    Claim,
    /// `[RESULT id] STATUS …`: resolved with a result.
    Result,
    /// `[DECLINE id]`: resolved by declining.
    Decline,
    /// `[NO-ACTION id]`: resolved without action.
    NoAction,
    /// `[NUDGE id]`: chased.
    Nudge,
}

impl Tag {
    /// The tag as written in the log (`WO`, `ACK`, `CLAIM`, `RESULT`, `DECLINE`, `NO-ACTION`,
    /// `NUDGE`).
    pub fn name(self) -> &'static str {
        match self {
            Tag::WorkOrder => "WO",
            Tag::Ack => "ACK",
            Tag::Claim => "CLAIM",
            Tag::Result => "RESULT",
            Tag::Decline => "DECLINE",
            Tag::NoAction => "NO-ACTION",
            Tag::Nudge => "NUDGE",
        }
    }

    /// Whether the tag resolves the job (`RESULT`, `DECLINE`, `NO-ACTION`).
    pub fn resolves(self) -> bool {
        matches!(self, Tag::Result | Tag::Decline | Tag::NoAction)
    }
}

impl Serialize for Tag {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The status words a `[RESULT id]` may carry (the registry `result` preset's).
pub const RESULT_STATUSES: [&str; 5] = ["OK", "FAIL", "DECLINE", "SUCCESS", "ERROR"];

/// One tag on one line.
///
/// Packed into 24 bytes (a gigabyte log holds millions of events): the time is kept as
/// milliseconds with a sentinel for "none", read through [`Event::time`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// The line, counted from 1 in its source.
    pub line: u64,
    /// The log the line came from, an index into the caller's list of sources (0 for one
    /// log).
    pub source: u32,
    /// Milliseconds since the epoch, or [`NO_TIME`].
    pub(super) millis: i64,
    /// Which tag.
    pub tag: Tag,
    /// For a `RESULT`: its status word, an index into [`RESULT_STATUSES`], or `u8::MAX`.
    pub(super) status: u8,
}

/// The stored time of an event on a line before the first stamp.
pub(super) const NO_TIME: i64 = i64::MIN;

/// Runs of tags a job's summary lists (`WO ACK CLAIM NUDGE×2 RESULT`); the events after
/// them are counted (`… +N more`), so that a job whose id comes back in every rotation of a
/// log keeps a summary of bounded size.
pub const SUMMARY_RUNS: usize = 16;

/// A summary's text: the runs, `TAG×n` for a repeat, then how many events came after them.
pub(super) fn summary_text(runs: &[(Tag, u32)], more: u64) -> String {
    let mut out = runs
        .iter()
        .map(|(tag, n)| {
            if *n == 1 {
                tag.name().to_string()
            } else {
                format!("{}×{n}", tag.name())
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    if more > 0 {
        out.push_str(&format!(" … +{more} more"));
    }
    out
}

impl Event {
    /// The line's time (its own stamp, else the last stamped line's), in milliseconds since
    /// the epoch; `None` before the first stamped line.
    pub fn time(&self) -> Option<i64> {
        (self.millis != NO_TIME).then_some(self.millis)
    }

    /// For a `RESULT`: its status word, when it has one.
    pub fn status(&self) -> Option<&'static str> {
        RESULT_STATUSES.get(self.status as usize).copied()
    }
}

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// The last `RESULT`'s status word (`OK`, `FAIL`, …).
    Result(&'static str),
    /// The last `RESULT` had no status word.
    ResultWithoutStatus,
    /// No `RESULT`; the last of `DECLINE` / `NO-ACTION` was `DECLINE`.
    Declined,
    /// No `RESULT`; the last of `DECLINE` / `NO-ACTION` was `NO-ACTION`.
    NoAction,
    /// Claimed, not resolved.
    Claimed,
    /// Acknowledged, neither claimed nor resolved.
    Acked,
    /// Only handed out or nudged.
    Open,
}

impl Status {
    /// The status as shown: the result's word, `RESULT` (a result without a word),
    /// `DECLINE`, `NO-ACTION`, `CLAIMED`, `ACKED` or `OPEN`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Result(word) => word,
            Status::ResultWithoutStatus => "RESULT",
            Status::Declined => "DECLINE",
            Status::NoAction => "NO-ACTION",
            Status::Claimed => "CLAIMED",
            Status::Acked => "ACKED",
            Status::Open => "OPEN",
        }
    }
}

/// A flag on a job that needs an operator's eye.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// Claimed, never resolved.
    Unresolved,
    /// Resolved (`RESULT`, `DECLINE`, `NO-ACTION`) more than once.
    ResolvedTwice,
}

impl Flag {
    /// `unresolved` or `resolved-twice`.
    pub fn name(self) -> &'static str {
        match self {
            Flag::Unresolved => "unresolved",
            Flag::ResolvedTwice => "resolved-twice",
        }
    }
}

impl Serialize for Flag {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One job: its id and every tag that named it, in log order.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// The job id.
    pub id: String,
    /// Its place in order of first appearance, from 0.
    pub order: usize,
    /// Its events in log order (never empty).
    pub events: Vec<Event>,
}

impl Job {
    /// The line where the job first appears.
    pub fn first_line(&self) -> u64 {
        self.events[0].line
    }

    /// Where the job stands: the last `RESULT`'s status, else the last of `DECLINE` /
    /// `NO-ACTION`, else claimed, acknowledged, open.
    pub fn status(&self) -> Status {
        if let Some(r) = self.events.iter().rev().find(|e| e.tag == Tag::Result) {
            return r
                .status()
                .map_or(Status::ResultWithoutStatus, Status::Result);
        }
        if let Some(e) = self
            .events
            .iter()
            .rev()
            .find(|e| matches!(e.tag, Tag::Decline | Tag::NoAction))
        {
            return if e.tag == Tag::Decline {
                Status::Declined
            } else {
                Status::NoAction
            };
        }
        let has = |tag: Tag| self.events.iter().any(|e| e.tag == tag);
        if has(Tag::Claim) {
            Status::Claimed
        } else if has(Tag::Ack) {
            Status::Acked
        } else {
            Status::Open
        }
    }

    /// Seconds from the first `CLAIM` to the first resolution after it; `None` when there is
    /// no such pair or one of the two lines has no time. Negative when the log's clock went
    /// backwards in between.
    pub fn claim_to_result_s(&self) -> Option<f64> {
        let claim = self.events.iter().position(|e| e.tag == Tag::Claim)?;
        let resolution = self.events[claim..].iter().find(|e| e.tag.resolves())?;
        let millis = resolution.time()? - self.events[claim].time()?;
        Some(millis as f64 / 1000.0)
    }

    /// `unresolved` (claimed, never resolved) and `resolved-twice`.
    pub fn flags(&self) -> Vec<Flag> {
        let resolutions = self.events.iter().filter(|e| e.tag.resolves()).count();
        let claimed = self.events.iter().any(|e| e.tag == Tag::Claim);
        let mut flags = Vec::new();
        if claimed && resolutions == 0 {
            flags.push(Flag::Unresolved);
        }
        if resolutions >= 2 {
            flags.push(Flag::ResolvedTwice);
        }
        flags
    }

    /// The jobs table's cells for this job, as `rxw jobs` and the Jobs tab show them: id,
    /// status, first line, claim to resolution ([`format_seconds`], `-` for none), flags.
    pub fn table_cells(&self) -> [String; 5] {
        [
            self.id.clone(),
            self.status().name().to_string(),
            self.first_line().to_string(),
            self.claim_to_result_s()
                .map_or_else(|| "-".to_string(), format_seconds),
            self.flags()
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(","),
        ]
    }

    /// The tags in log order, repeats folded: `WO ACK CLAIM RESULT×2`.
    pub fn event_summary(&self) -> String {
        let mut parts: Vec<(Tag, u32)> = Vec::new();
        let mut more = 0u64;
        for e in &self.events {
            let room = parts.len() < SUMMARY_RUNS;
            match parts.last_mut() {
                Some((tag, n)) if more == 0 && *tag == e.tag => *n += 1,
                _ if room => parts.push((e.tag, 1)),
                _ => more += 1,
            }
        }
        summary_text(&parts, more)
    }

    /// The row as `rxw jobs --json` prints it.
    pub fn wire(&self) -> JobJson<'_> {
        self.wire_in(&[])
    }

    /// The row as `rxw jobs --json` prints it, each event naming its log from `sources` (the
    /// names of the logs by index; an event whose index has no name has no `source`).
    pub fn wire_in<'a>(&'a self, sources: &'a [String]) -> JobJson<'a> {
        JobJson {
            job: &self.id,
            status: self.status().name(),
            events: self
                .events
                .iter()
                .map(|e| EventJson {
                    source: sources.get(e.source as usize).map(String::as_str),
                    tag: e.tag,
                    line: e.line,
                    time: e.time().map(timestamp::format_utc),
                })
                .collect(),
            claim_to_result_s: self.claim_to_result_s(),
            flags: self.flags(),
        }
    }
}

/// A job as JSON: `{"job","status","events":[…],"claim_to_result_s","flags":[…]}`.
#[derive(Debug, Serialize)]
pub struct JobJson<'a> {
    /// The id.
    pub job: &'a str,
    /// [`Status::name`].
    pub status: &'static str,
    /// The events in log order.
    pub events: Vec<EventJson<'a>>,
    /// [`Job::claim_to_result_s`].
    pub claim_to_result_s: Option<f64>,
    /// [`Job::flags`].
    pub flags: Vec<Flag>,
}

/// An event as JSON: `{"source","tag","line","time"}`, the time as RFC 3339 UTC text or
/// `null`; `source` (the log's name) is there when the logs were named.
#[derive(Debug, Serialize)]
pub struct EventJson<'a> {
    /// The log the event's line is in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<&'a str>,
    /// The tag as written.
    pub tag: Tag,
    /// The line, from 1, in its log.
    pub line: u64,
    /// The line's time ([`timestamp::format_utc`]).
    pub time: Option<String>,
}

/// Builds the job table from lines fed in order.
#[derive(Debug, Default, Clone)]
pub struct JobTracker {
    jobs: Vec<Job>,
    by_id: HashMap<Box<[u8]>, usize>,
    clock: LineClock,
}

/// Where the lines fed so far stand: the line, its log, and the time a line without a stamp
/// takes.
#[derive(Debug, Default, Clone)]
pub(super) struct LineClock {
    line: u64,
    source: u32,
    last_time: Option<i64>,
    /// Reads each line's stamp, its date's calendar work done once a day.
    stamps: timestamp::StampReader,
}

impl LineClock {
    /// The line after the last one, in the same log.
    pub(super) fn next_line(&self) -> (usize, u64) {
        (self.source as usize, self.line + 1)
    }

    /// The time of the last stamped line, if any.
    pub(super) fn last_time(&self) -> Option<i64> {
        self.last_time
    }

    /// The time a next line of log `source` without a stamp takes.
    pub(super) fn carried_time(&self, source: usize) -> Option<i64> {
        self.last_time.filter(|_| self.source as usize == source)
    }

    /// Moves on by `lines` lines of log `source`, the last stamped one (if any) at
    /// `last_time`: as if they had been fed one by one.
    pub(super) fn advance(&mut self, source: usize, lines: u64, last_time: Option<i64>) {
        let source = u32::try_from(source).unwrap_or(u32::MAX);
        if source != self.source {
            self.last_time = None;
            self.source = source;
        }
        self.line += lines;
        if last_time.is_some() {
            self.last_time = last_time;
        }
    }

    /// Takes line `number` of log `source` (without its newline) and calls `f` with each
    /// tag's id and event, in line order. A line without a stamp takes the time of the last
    /// stamped line of its own log: the merge keeps a log's unstamped lines right after its
    /// stamped line, so the time carries over until another log's line comes, and a log's
    /// lines before its first stamp (or a log without stamps) have none.
    pub(super) fn tags(
        &mut self,
        line: &[u8],
        source: usize,
        number: u64,
        mut f: impl FnMut(&[u8], Event),
    ) {
        let source = u32::try_from(source).unwrap_or(u32::MAX);
        if source != self.source {
            self.last_time = None;
            self.source = source;
        }
        self.line = number;
        if let Some(stamp) = self.stamps.leading(line) {
            self.last_time = Some(stamp.millis);
        }
        let mut at = 0;
        while let Some(k) = memchr::memchr(b'[', &line[at..]) {
            let open = at + k;
            match parse_tag(line, open) {
                Some(found) => {
                    let event = Event {
                        tag: found.tag,
                        line: self.line,
                        source: self.source,
                        millis: self.last_time.unwrap_or(NO_TIME),
                        status: found.status.unwrap_or(u8::MAX),
                    };
                    f(&line[found.id.clone()], event);
                    at = found.id.end + 1;
                }
                None => at = open + 1,
            }
        }
    }
}

impl JobTracker {
    /// An empty table.
    pub fn new() -> JobTracker {
        JobTracker::default()
    }

    /// Reads every line of `reader` into a table.
    ///
    /// # Errors
    /// When reading fails.
    pub fn read(reader: impl Read) -> io::Result<Vec<Job>> {
        let mut tracker = JobTracker::new();
        for_each_line(reader, |line| {
            tracker.feed(line);
            Ok::<(), io::Error>(())
        })?;
        Ok(tracker.finish())
    }

    /// Takes the next line (without its newline).
    pub fn feed(&mut self, line: &[u8]) {
        let (source, next) = self.clock.next_line();
        self.feed_from(line, source, next);
    }

    /// Takes the next line of merged logs (without its newline): the line `number` of source
    /// `source`. A line without a stamp takes the time of the last stamped line of its own
    /// log: the merge keeps a log's unstamped lines right after its stamped line, so the
    /// time carries over until another log's line comes, and a log's lines before its first
    /// stamp (or a log without stamps) have none.
    pub fn feed_from(&mut self, line: &[u8], source: usize, number: u64) {
        let mut clock = std::mem::take(&mut self.clock);
        clock.tags(line, source, number, |id, event| self.push(id, event));
        self.clock = clock;
    }

    fn push(&mut self, id: &[u8], event: Event) {
        if let Some(&k) = self.by_id.get(id) {
            self.jobs[k].events.push(event);
            return;
        }
        let order = self.jobs.len();
        self.by_id.insert(id.into(), order);
        self.jobs.push(Job {
            // Ids are ASCII by the grammar.
            id: String::from_utf8_lossy(id).into_owned(),
            order,
            events: vec![event],
        });
    }

    /// The jobs so far, in order of first appearance.
    pub fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    /// The table, in order of first appearance.
    pub fn finish(self) -> Vec<Job> {
        self.jobs
    }
}

struct FoundTag {
    tag: Tag,
    id: std::ops::Range<usize>,
    status: Option<u8>,
}

/// The tags of job `id` in `line`, in order (as the tracker reads the line).
pub fn tags_of(line: &[u8], id: &[u8]) -> Vec<Tag> {
    let mut out = Vec::new();
    if id.is_empty() || memchr::memmem::find(line, id).is_none() {
        return out;
    }
    let mut at = 0;
    while let Some(k) = memchr::memchr(b'[', &line[at..]) {
        let open = at + k;
        match parse_tag(line, open) {
            Some(found) => {
                if &line[found.id.clone()] == id {
                    out.push(found.tag);
                }
                at = found.id.end + 1;
            }
            None => at = open + 1,
        }
    }
    out
}

/// `text.starts_with(word)` for a short word, compared in line (no call to `memcmp`, which
/// was most of the cost of reading a tag's name).
fn starts_with(text: &[u8], word: &[u8]) -> bool {
    text.len() >= word.len() && text.iter().zip(word).all(|(a, b)| a == b)
}

fn is_id_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'/' | b'-')
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The tag that starts with the `[` at `open`, if one does.
fn parse_tag(line: &[u8], open: usize) -> Option<FoundTag> {
    const TAGS: [(&[u8], Tag); 7] = [
        (b"WO", Tag::WorkOrder),
        (b"ACK", Tag::Ack),
        (b"CLAIM", Tag::Claim),
        (b"RESULT", Tag::Result),
        (b"DECLINE", Tag::Decline),
        (b"NO-ACTION", Tag::NoAction),
        (b"NUDGE", Tag::Nudge),
    ];
    let rest = &line[open + 1..];
    // Most brackets open no tag (`[from super]`): compared in line, each word is ruled out
    // at its first letter.
    let (word, tag) = TAGS.iter().find(|(w, _)| starts_with(rest, w))?;
    let mut pos = open + 1 + word.len();
    let colon = line.get(pos) == Some(&b':') && matches!(tag, Tag::WorkOrder | Tag::Ack);
    if colon {
        pos += 1;
    } else {
        if *tag == Tag::WorkOrder {
            return None;
        }
        let blanks = line[pos..].iter().take_while(|&&b| is_blank(b)).count();
        if blanks == 0 {
            return None;
        }
        pos += blanks;
    }
    let id_len = line[pos..].iter().take_while(|&&b| is_id_byte(b)).count();
    if id_len == 0 || line.get(pos + id_len) != Some(&b']') {
        return None;
    }
    let id = pos..pos + id_len;
    let status = if *tag == Tag::Result {
        result_status(&line[id.end + 1..])
    } else {
        None
    };
    Some(FoundTag {
        tag: *tag,
        id,
        status,
    })
}

/// The status word at the start of what follows `[RESULT id]`.
fn result_status(after: &[u8]) -> Option<u8> {
    let skip = after.iter().take_while(|&&b| is_blank(b)).count();
    let word_len = after[skip..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let word = &after[skip..skip + word_len];
    RESULT_STATUSES
        .iter()
        .position(|s| s.len() == word.len() && starts_with(word, s.as_bytes()))
        .map(|k| k as u8)
}

/// Orders for the jobs table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortKey {
    /// By id (byte order).
    Job,
    /// By status name, then first appearance.
    Status,
    /// By first appearance (the table's own order; ties on one line in line order).
    #[default]
    First,
    /// Longest claim-to-resolution first; jobs without one last, in first-appearance order.
    Duration,
}

/// The [`SortKey::Duration`] order of two claim-to-resolution times: the longer first, a
/// missing one after any.
pub(crate) fn longest_first(a: Option<f64>, b: Option<f64>) -> std::cmp::Ordering {
    match (a, b) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    }
}

/// Sorts jobs in place; ties go in order of first appearance.
pub fn sort(jobs: &mut [Job], key: SortKey) {
    let order = order(jobs, key);
    let mut slots: Vec<Option<Job>> = jobs
        .iter_mut()
        .map(|j| {
            Some(Job {
                id: std::mem::take(&mut j.id),
                order: j.order,
                events: std::mem::take(&mut j.events),
            })
        })
        .collect();
    for (dst, &src) in jobs.iter_mut().zip(&order) {
        if let Some(job) = slots[src].take() {
            *dst = job;
        }
    }
}

/// The positions of `jobs` in `key` order (what [`sort`] would put first, second, …); ties
/// go in order of first appearance. Each job's sort key is computed once, so a front end can
/// order a large table without moving it.
pub fn order(jobs: &[Job], key: SortKey) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..jobs.len()).collect();
    match key {
        SortKey::Job => idx.sort_by(|&a, &b| jobs[a].id.cmp(&jobs[b].id)),
        SortKey::Status => {
            let keys: Vec<(&str, usize)> =
                jobs.iter().map(|j| (j.status().name(), j.order)).collect();
            idx.sort_by_key(|&i| keys[i]);
        }
        SortKey::First => idx.sort_by_key(|&i| jobs[i].order),
        SortKey::Duration => {
            let keys: Vec<Option<f64>> = jobs.iter().map(Job::claim_to_result_s).collect();
            idx.sort_by(|&a, &b| {
                longest_first(keys[a], keys[b]).then(jobs[a].order.cmp(&jobs[b].order))
            });
        }
    }
    idx
}

impl SortKey {
    /// The next key, for cycling in a front end: first, job, status, duration.
    pub fn next(self) -> SortKey {
        match self {
            SortKey::First => SortKey::Job,
            SortKey::Job => SortKey::Status,
            SortKey::Status => SortKey::Duration,
            SortKey::Duration => SortKey::First,
        }
    }

    /// The key as `--sort` spells it.
    pub fn name(self) -> &'static str {
        match self {
            SortKey::First => "first",
            SortKey::Job => "job",
            SortKey::Status => "status",
            SortKey::Duration => "duration",
        }
    }
}

/// A duration as the jobs table shows it: `12.5s`, `14m05s`, `2h03m`.
pub fn format_seconds(s: f64) -> String {
    let sign = if s < 0.0 { "-" } else { "" };
    let a = s.abs();
    if a < 60.0 {
        let text = format!("{a:.1}");
        format!("{sign}{}s", text.strip_suffix(".0").unwrap_or(&text))
    } else if a < 3600.0 {
        let whole = a.round() as u64;
        format!("{sign}{}m{:02}s", whole / 60, whole % 60)
    } else {
        let minutes = (a / 60.0).round() as u64;
        format!("{sign}{}h{:02}m", minutes / 60, minutes % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(log: &str) -> Vec<Job> {
        JobTracker::read(log.as_bytes()).unwrap()
    }

    fn tags(job: &Job) -> Vec<(&'static str, u64)> {
        job.events.iter().map(|e| (e.tag.name(), e.line)).collect()
    }

    #[test]
    fn every_tag_form_anywhere_in_a_line() {
        let jobs = table(
            "[WO:7fce46e0] [from super] Audit — check\n\
             2026-10-05T00:00:05Z 646: [ACK:7fce46e0] [from 646]\n\
             [ACK 7fce46e0] again\n\
             note [CLAIM 7fce46e0] taking it\n\
             [NUDGE 7fce46e0] [nudge 1/3]\n\
             [RESULT 7fce46e0] OK 14 endpoints\n\
             [DECLINE swarm-99a/1] [NO-ACTION etl_2]\n",
        );
        assert_eq!(jobs.len(), 3);
        assert_eq!(
            tags(&jobs[0]),
            [
                ("WO", 1),
                ("ACK", 2),
                ("ACK", 3),
                ("CLAIM", 4),
                ("NUDGE", 5),
                ("RESULT", 6)
            ]
        );
        assert_eq!(jobs[0].status(), Status::Result("OK"));
        assert_eq!(jobs[1].id, "swarm-99a/1");
        assert_eq!(jobs[1].status(), Status::Declined);
        assert_eq!(jobs[2].status(), Status::NoAction);
    }

    #[test]
    fn near_misses_are_not_tags() {
        let jobs = table(
            "[ack 7fce46e0] [result 7fce46e0] [RESULT] [WO 7fce46e0] [WO: 7fce46e0]\n\
             WO-7fce46e0 [CLAIM7fce46e0] [CLAIM 7fce46e0 ] [CLAIM a.b] [JOB 1] [CLAIM ]\n",
        );
        assert!(jobs.is_empty(), "{jobs:?}");
    }

    #[test]
    fn statuses_in_precedence_order() {
        let status = |log: &str| table(log)[0].status().name();
        assert_eq!(status("[WO:a1]"), "OPEN");
        assert_eq!(status("[NUDGE a1]"), "OPEN");
        assert_eq!(status("[WO:a1]\n[ACK a1]"), "ACKED");
        assert_eq!(status("[ACK:a1]\n[CLAIM a1]"), "CLAIMED");
        assert_eq!(
            status("[CLAIM a1]\n[DECLINE a1]\n[NO-ACTION a1]"),
            "NO-ACTION"
        );
        assert_eq!(status("[RESULT a1] FAIL x\n[DECLINE a1]"), "FAIL");
        assert_eq!(status("[RESULT a1] FAIL\n[RESULT a1]\tSUCCESS"), "SUCCESS");
        assert_eq!(status("[RESULT a1] OKAY then"), "RESULT");
        assert_eq!(status("[RESULT a1] 14 endpoints"), "RESULT");
    }

    #[test]
    fn times_are_inherited_and_durations_measured_from_the_first_claim() {
        let jobs = table(
            "[CLAIM early] before any stamp\n\
             2026-10-05T00:00:00Z a: [WO:j1]\n\
             [CLAIM j1] no stamp: takes 00:00:00\n\
             2026-10-05T00:00:30Z a: [CLAIM j1] second claim\n\
             2026-10-05T00:01:30.5Z a: [RESULT j1] OK\n\
             2026-10-05T00:02:00Z a: [RESULT j1] FAIL again\n",
        );
        assert_eq!(jobs[0].id, "early");
        assert_eq!(jobs[0].events[0].time(), None);
        assert_eq!(jobs[0].flags(), [Flag::Unresolved]);
        assert_eq!(jobs[0].claim_to_result_s(), None);
        let j1 = &jobs[1];
        assert_eq!(j1.events[1].time(), j1.events[0].time());
        assert_eq!(std::mem::size_of::<Event>(), 24);
        assert_eq!(j1.claim_to_result_s(), Some(90.5));
        assert_eq!(j1.flags(), [Flag::ResolvedTwice]);
        assert_eq!(j1.status().name(), "FAIL");
        let wire = serde_json::to_value(j1.wire()).unwrap();
        assert_eq!(
            wire["events"][3],
            serde_json::json!({"tag":"RESULT","line":5,"time":"2026-10-05T00:01:30.500Z"})
        );
    }

    #[test]
    fn resolution_before_the_claim_is_not_a_duration() {
        let jobs = table("2026-10-05T00:00:00Z [RESULT r] OK\n2026-10-05T00:00:09Z [CLAIM r]\n");
        assert_eq!(jobs[0].claim_to_result_s(), None);
        assert!(jobs[0].flags().is_empty());
    }

    #[test]
    fn invalid_utf8_does_not_hide_tags() {
        let log = b"2026-10-05T00:00:00Z \xff\xfe [CLAIM x1] \xc3\n\xe2\x82 [RESULT x1] OK\n";
        let jobs = JobTracker::read(&log[..]).unwrap();
        assert_eq!(tags(&jobs[0]), [("CLAIM", 1), ("RESULT", 2)]);
        assert_eq!(jobs[0].claim_to_result_s(), Some(0.0));
    }

    #[test]
    fn sorting() {
        let mut jobs = table(
            "2026-10-05T00:00:00Z [CLAIM b] [CLAIM a] [CLAIM c] [WO:d]\n\
             2026-10-05T00:00:10Z [RESULT a] OK\n\
             2026-10-05T00:00:20Z [RESULT c] FAIL\n",
        );
        let ids = |jobs: &[Job]| jobs.iter().map(|j| j.id.clone()).collect::<Vec<_>>();
        sort(&mut jobs, SortKey::Job);
        assert_eq!(ids(&jobs), ["a", "b", "c", "d"]);
        sort(&mut jobs, SortKey::Duration);
        assert_eq!(ids(&jobs), ["c", "a", "b", "d"]);
        sort(&mut jobs, SortKey::Status);
        assert_eq!(ids(&jobs), ["b", "c", "a", "d"]);
        sort(&mut jobs, SortKey::First);
        assert_eq!(ids(&jobs), ["b", "a", "c", "d"]);
        for key in [
            SortKey::Job,
            SortKey::Status,
            SortKey::First,
            SortKey::Duration,
        ] {
            let mut sorted = jobs.clone();
            sort(&mut sorted, key);
            let by_order: Vec<String> = order(&jobs, key)
                .into_iter()
                .map(|i| jobs[i].id.clone())
                .collect();
            assert_eq!(by_order, ids(&sorted), "{key:?}");
            assert_eq!(key.next().next().next().next(), key);
        }
        assert_eq!(jobs[0].event_summary(), "CLAIM");
    }
}
