//! Following a growing file (`tail -F`): what was appended since the last look, or that the
//! file was truncated or replaced (rotated).
//!
//! The file is read with plain reads from the last offset, never memory-mapped (a map faults
//! when the file is truncated under it). The caller polls ([`Follower::poll`]) on a timer; a
//! poll costs one `stat` when nothing changed. Truncation is a file shorter than the offset
//! read so far; rotation is a new inode at the path (Unix; elsewhere only truncation is seen).
//! Appended bytes that end inside a UTF-8 character are held back until the rest arrives;
//! invalid sequences become U+FFFD, as when the file was first read.

use crate::input::format::LogFormat;
use crate::syntax::ast::{AnchorKind, Ast, NodeKind};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// What a poll found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FollowEvent {
    /// Nothing new.
    Unchanged,
    /// Text appended at the end.
    Appended(String),
    /// The file must be reloaded whole: it was truncated or replaced.
    Reloaded {
        /// The whole new content.
        text: String,
        /// Why.
        why: Reload,
    },
    /// The path does not exist now (between a rotation's rename and the new file); polling
    /// goes on.
    Missing,
    /// Something other than a regular file is at the path now (a FIFO, a device such as
    /// `/dev/zero` behind a link, a directory): it is never opened nor read (a FIFO would
    /// block, a device never end); polling goes on, and a regular file back at the path is
    /// followed from its start. Said once per kind.
    NotRegular(&'static str),
    /// Reading failed; polling goes on.
    Failed(String),
}

/// Why a followed file was reloaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reload {
    /// The file became shorter than what was read (`copytruncate`, `> file`).
    Truncated,
    /// Another file is at the path now (a new inode: logrotate's rename and create).
    Rotated,
}

/// Follows one file from a byte offset.
#[derive(Debug, Clone)]
pub struct Follower {
    path: PathBuf,
    /// Bytes of the current file consumed (including `pending`).
    offset: u64,
    /// The file's identity when last read, where the platform has one.
    inode: Option<u64>,
    /// The start of a UTF-8 character whose remaining bytes have not been written yet.
    pending: Vec<u8>,
    /// Whether the path was missing at the last poll (said once).
    missing: bool,
    /// What non-regular file was at the path at the last poll (said once).
    not_regular: Option<&'static str>,
}

fn inode_of(meta: &std::fs::Metadata) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some(meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// Decodes `bytes` (after `pending`), keeping an unfinished character at the end back in
/// `pending`.
fn decode(pending: &mut Vec<u8>, bytes: &[u8]) -> String {
    pending.extend_from_slice(bytes);
    let keep = match std::str::from_utf8(pending) {
        Ok(_) => 0,
        // An incomplete sequence at the very end: wait for the rest.
        Err(e) if e.error_len().is_none() => pending.len() - e.valid_up_to(),
        Err(_) => {
            // Invalid bytes somewhere: keep back only an unfinished character at the end.
            let tail_start = pending.len().saturating_sub(3);
            (tail_start..pending.len())
                .find(|&i| {
                    let b = pending[i];
                    (0xC2..=0xF4).contains(&b)
                        && pending[i + 1..].iter().all(|&c| c & 0xC0 == 0x80)
                        && {
                            let need = if b >= 0xF0 {
                                4
                            } else if b >= 0xE0 {
                                3
                            } else {
                                2
                            };
                            pending.len() - i < need
                        }
                })
                .map_or(0, |i| pending.len() - i)
        }
    };
    let rest = pending.split_off(pending.len() - keep);
    let text = String::from_utf8_lossy(pending).into_owned();
    *pending = rest;
    text
}

impl Follower {
    /// Follows `path` from `offset` (the bytes already read).
    pub fn new(path: &Path, offset: u64) -> Follower {
        let inode = std::fs::metadata(path).ok().and_then(|m| inode_of(&m));
        Follower {
            path: path.to_path_buf(),
            offset,
            inode,
            pending: Vec::new(),
            missing: false,
            not_regular: None,
        }
    }

    /// The file followed.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Looks at the file once.
    pub fn poll(&mut self) -> FollowEvent {
        let meta = match std::fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if self.missing {
                    return FollowEvent::Unchanged;
                }
                self.missing = true;
                return FollowEvent::Missing;
            }
            Err(e) => return FollowEvent::Failed(e.to_string()),
        };
        if !meta.is_file() {
            let kind = crate::input::file_kind(&meta);
            if self.not_regular == Some(kind) {
                return FollowEvent::Unchanged;
            }
            self.not_regular = Some(kind);
            return FollowEvent::NotRegular(kind);
        }
        let inode = inode_of(&meta);
        let rotated =
            self.missing || self.not_regular.is_some() || (inode.is_some() && inode != self.inode);
        if rotated || meta.len() < self.offset {
            let why = if rotated {
                Reload::Rotated
            } else {
                Reload::Truncated
            };
            return match self.read_from(0) {
                Ok((bytes, ino)) => {
                    self.missing = false;
                    self.not_regular = None;
                    self.inode = ino.or(inode);
                    self.offset = bytes.len() as u64;
                    self.pending.clear();
                    let text = decode(&mut self.pending, &bytes);
                    FollowEvent::Reloaded { text, why }
                }
                Err(e) => FollowEvent::Failed(e.to_string()),
            };
        }
        if meta.len() == self.offset {
            return FollowEvent::Unchanged;
        }
        match self.read_from(self.offset) {
            Ok((bytes, _)) => {
                self.offset += bytes.len() as u64;
                let text = decode(&mut self.pending, &bytes);
                if text.is_empty() {
                    FollowEvent::Unchanged
                } else {
                    FollowEvent::Appended(text)
                }
            }
            Err(e) => FollowEvent::Failed(e.to_string()),
        }
    }

    /// Reads the file from `offset` to its end; also returns the inode of the file opened.
    /// Only a regular file is opened, without blocking ([`crate::input::open_regular`]).
    fn read_from(&self, offset: u64) -> std::io::Result<(Vec<u8>, Option<u64>)> {
        let (mut f, meta): (File, _) = crate::input::open_regular(&self.path)?;
        let ino = inode_of(&meta);
        f.seek(SeekFrom::Start(offset))?;
        let mut bytes = Vec::new();
        f.read_to_end(&mut bytes)?;
        Ok((bytes, ino))
    }
}

/// Follows several logs as one merged input (`--follow` with several logs, directories or
/// globs): each log is followed as one log is ([`Follower`]: appends, truncation, rotation,
/// a log missing for a while), and what the logs append is handed out in time order.
///
/// The lines each poll finds are grouped into records by their log: a line with a time of
/// its own in its log's format ([`LogFormat::line_time`]) begins a record, a line without
/// one stays with the record before it in its log (as the merge of the logs read whole
/// keeps it). The records of one poll are ordered by time (stably: equal times keep the
/// order of the logs named, a log's own order is never changed, a record without a time
/// takes its log's last time). The rule for a record stamped before what is already shown:
/// it is **shown at arrival**, after what is shown, never inserted among the lines above
/// (which would move what the reader is looking at); it is counted
/// ([`FleetFollower::late`]) and said ([`FleetFollower::late_note`]: "3 late records shown
/// at arrival"). A line not yet ended by a line break is held until it is.
///
/// A log that is truncated or rotated is read again from its start and its lines are handed
/// out as new records ([`FleetPoll::reloaded`] names it, so the front end can say so); the
/// lines shown before stay, as `tail -F` leaves them on several files.
#[derive(Debug)]
pub struct FleetFollower {
    sources: Vec<FleetSource>,
    /// The latest time of the records handed out (and of the text read before following).
    shown: Option<i64>,
    late: u64,
}

#[derive(Debug)]
struct FleetSource {
    follower: Follower,
    format: LogFormat,
    /// The start of a line whose line break has not arrived.
    partial: String,
    /// The time of the last line of this log that had one.
    time: Option<i64>,
    /// Lines of this log handed out (and read before following): the next record's first
    /// line is `lines + 1`.
    lines: u64,
}

/// One log a [`FleetFollower`] follows, as it stands when following starts.
#[derive(Debug, Clone)]
pub struct FleetLog {
    /// Its path.
    pub path: PathBuf,
    /// The bytes of it already read.
    pub offset: u64,
    /// The lines of it already read (its next line is `lines + 1`).
    pub lines: u64,
    /// Its format, which says which lines have a time of their own.
    pub format: LogFormat,
    /// The last time its text read so far gave (`None`: none).
    pub time: Option<i64>,
}

/// Bytes read from the head of a log to detect its format, and from the end of what was read
/// to find its last time.
const WINDOW: u64 = 64 << 10;

impl FleetLog {
    /// Where log `path` stands after its first `offset` bytes were read: its lines, its
    /// format (`forced`, else detected from its head) and the last time those bytes give.
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn standing(
        path: &Path,
        offset: u64,
        forced: Option<LogFormat>,
    ) -> std::io::Result<FleetLog> {
        let mut file = File::open(path)?;
        let mut head = Vec::new();
        (&mut file)
            .take(WINDOW.min(offset))
            .read_to_end(&mut head)?;
        let format = forced.unwrap_or_else(|| {
            let whole = head.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            LogFormat::detect(&String::from_utf8_lossy(&head[..whole]))
        });
        file.seek(SeekFrom::Start(0))?;
        let mut lines = 0u64;
        let mut buf = vec![0u8; 1 << 16];
        let mut left = offset;
        while left > 0 {
            let want = usize::try_from(left.min(buf.len() as u64)).unwrap_or(buf.len());
            let got = file.read(&mut buf[..want])?;
            if got == 0 {
                break;
            }
            lines += memchr::memchr_iter(b'\n', &buf[..got]).count() as u64;
            left -= got as u64;
        }
        let from = offset.saturating_sub(WINDOW);
        file.seek(SeekFrom::Start(from))?;
        let mut tail = Vec::new();
        (&mut file).take(offset - from).read_to_end(&mut tail)?;
        let tail = String::from_utf8_lossy(&tail);
        // The window's first line may be cut: it is looked at only when the window is the
        // whole of what was read.
        let whole = if from == 0 {
            &tail[..]
        } else {
            tail.split_once('\n').map_or("", |(_, rest)| rest)
        };
        let time = whole
            .lines()
            .rev()
            .find_map(|l| format.line_time(l.strip_suffix('\r').unwrap_or(l)));
        Ok(FleetLog {
            path: path.to_path_buf(),
            offset,
            lines,
            format,
            time,
        })
    }
}

/// The files of `origins` when every one can be followed: a plain regular file (standard
/// input is read once, a compressed log is read whole and never appended to, a FIFO or a
/// device would block or never end).
///
/// # Errors
/// [`crate::ErrorKind::ArgumentsInvalid`] naming the first that cannot be followed and why;
/// [`crate::ErrorKind::Io`] for a file that cannot be looked at.
pub fn followable(origins: &[crate::input::logs::Origin]) -> Result<Vec<PathBuf>, crate::Error> {
    use crate::input::logs::Origin;
    let invalid = |m: String| crate::Error::new(crate::ErrorKind::ArgumentsInvalid, m);
    let io = |p: &Path, e: std::io::Error| {
        crate::Error::new(crate::ErrorKind::Io, format!("{}: {e}", p.display()))
    };
    let mut paths = Vec::new();
    for origin in origins {
        let path = match origin {
            Origin::Stdin => {
                return Err(invalid(
                    "--follow follows files: name the logs (standard input cannot be followed)"
                        .into(),
                ));
            }
            Origin::Path(p) => p,
        };
        let meta = std::fs::metadata(path).map_err(|e| io(path, e))?;
        if !meta.is_file() {
            return Err(invalid(format!(
                "cannot follow {}: it is {}, not a regular file",
                path.display(),
                crate::input::file_kind(&meta)
            )));
        }
        let mut head = [0u8; 8];
        let n = File::open(path)
            .and_then(|mut f| f.read(&mut head))
            .map_err(|e| io(path, e))?;
        let codec = crate::input::codec::Codec::sniff(&head[..n]);
        if codec != crate::input::codec::Codec::Plain {
            return Err(invalid(format!(
                "cannot follow {}: it is {} compressed, read whole and never appended to \
                 (follow the plain log it is rotated from)",
                path.display(),
                codec.name()
            )));
        }
        paths.push(path.clone());
    }
    Ok(paths)
}

/// One record handed out by [`FleetFollower::poll`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrival {
    /// The log, an index into the paths the follower was made with.
    pub source: usize,
    /// Its lines, each with its `\n`.
    pub text: String,
    /// Its first line's number in its log, from 1 (a log read again from its start after a
    /// truncation or rotation counts from 1 again).
    pub line: u64,
    /// Its time: its first line's own, or the last time of its log (`None`: its log has
    /// given none yet).
    pub time: Option<i64>,
    /// Whether it is stamped before a record already shown (it is placed at arrival).
    pub late: bool,
}

/// What one poll of a [`FleetFollower`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FleetPoll {
    /// The new records, in the order to show them.
    pub arrivals: Vec<Arrival>,
    /// The logs read again from their start, and why.
    pub reloaded: Vec<(usize, Reload)>,
    /// What else a log's poll said (missing, not a regular file, a failed read), by log.
    pub notices: Vec<(usize, FollowEvent)>,
}

impl FleetFollower {
    /// Follows the logs `sources` from where each stands. `shown` is the latest time shown
    /// so far.
    pub fn new(sources: &[FleetLog], shown: Option<i64>) -> Self {
        FleetFollower {
            sources: sources
                .iter()
                .map(|log| FleetSource {
                    follower: Follower::new(&log.path, log.offset),
                    format: log.format,
                    partial: String::new(),
                    time: log.time,
                    lines: log.lines,
                })
                .collect(),
            shown,
            late: 0,
        }
    }

    /// The paths followed, by log.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.sources.iter().map(|s| s.follower.path())
    }

    /// Records stamped before what was shown, shown at arrival, so far.
    pub fn late(&self) -> u64 {
        self.late
    }

    /// The rule, when it was applied: "3 late records shown at arrival".
    pub fn late_note(&self) -> Option<String> {
        (self.late > 0).then(|| {
            format!(
                "{} late record{} shown at arrival",
                self.late,
                if self.late == 1 { "" } else { "s" }
            )
        })
    }

    /// The latest time handed out so far.
    pub fn shown(&self) -> Option<i64> {
        self.shown
    }

    /// Looks at every log once; the records they appended, in the order to show them.
    pub fn poll(&mut self) -> FleetPoll {
        let mut out = FleetPoll::default();
        let mut records: Vec<Arrival> = Vec::new();
        for (k, source) in self.sources.iter_mut().enumerate() {
            let text = match source.follower.poll() {
                FollowEvent::Unchanged => continue,
                FollowEvent::Appended(text) => text,
                FollowEvent::Reloaded { text, why } => {
                    out.reloaded.push((k, why));
                    source.partial.clear();
                    source.lines = 0;
                    text
                }
                other => {
                    out.notices.push((k, other));
                    continue;
                }
            };
            source.partial.push_str(&text);
            let Some(end) = source.partial.rfind('\n') else {
                continue;
            };
            let rest = source.partial.split_off(end + 1);
            let whole = std::mem::replace(&mut source.partial, rest);
            for line in whole.split_inclusive('\n') {
                let bare = line.strip_suffix('\n').unwrap_or(line);
                let bare = bare.strip_suffix('\r').unwrap_or(bare);
                let own = source.format.line_time(bare);
                source.lines += 1;
                match records.last_mut() {
                    Some(r) if own.is_none() && r.source == k => r.text.push_str(line),
                    _ => {
                        if own.is_some() {
                            source.time = own;
                        }
                        records.push(Arrival {
                            source: k,
                            text: line.to_string(),
                            line: source.lines,
                            time: source.time,
                            late: false,
                        });
                    }
                }
            }
        }
        // Stable: equal times keep the logs' order, each log's records keep theirs.
        records.sort_by_key(|r| (r.time.is_none(), r.time));
        let before = self.shown;
        for r in &mut records {
            r.late = matches!((r.time, before), (Some(t), Some(b)) if t < b);
            if r.late {
                self.late += 1;
            }
            if let Some(t) = r.time {
                self.shown = Some(self.shown.map_or(t, |s| s.max(t)));
            }
        }
        out.arrivals = records;
        out
    }
}

/// Whether every match of the pattern lies inside one line, whatever follows the line: the
/// engine's [`crate::engine::growth::stays_in_lines`] (conservative: `false` when unsure).
///
/// When it holds, text appended to the input cannot change the matches in lines that were
/// complete before it, so a followed file is matched from the start of its last line on.
pub fn matches_stay_in_lines(ast: &Ast) -> bool {
    crate::engine::growth::stays_in_lines(ast)
}

/// Whether the pattern finds, in any run of whole lines of a text, exactly the matches it
/// finds there in the whole text: [`matches_stay_in_lines`] (nothing after the run can
/// change them), no anchor looks for the start of the text (`^` without MULTILINE, `\A`,
/// which a run's first line would otherwise satisfy), and the search is not sticky (JS `y`,
/// whose chain of matches runs from the start of the text).
///
/// When it holds, a log can be matched a chunk of lines at a time, with the final line break
/// of every chunk but the last left out (a match starts at most at a line's end, never past
/// its line feed), and the matches are the whole text's.
pub fn matches_independent_of_other_lines(re: &crate::Regex) -> bool {
    !looks_at_text_start(re) && matches_stay_in_lines(re.ast())
}

/// Whether the pattern's matches depend on where the text starts: an anchor for the start of
/// the text (`^` without MULTILINE, `\A`) or a sticky search (JS `y`). Such a pattern finds
/// other matches in a piece of a text than in the whole.
pub fn looks_at_text_start(re: &crate::Regex) -> bool {
    let mut looks = re.flags().sticky;
    re.ast().root.walk(|n, _| {
        if let NodeKind::Anchor { kind, multiline } = &n.kind {
            looks |= match kind {
                AnchorKind::LineStart => !*multiline,
                AnchorKind::TextStart => true,
                _ => false,
            };
        }
    });
    looks
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn append(path: &Path, text: &str) {
        let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
        f.write_all(text.as_bytes()).unwrap();
    }

    fn stamp(minute: u32) -> String {
        format!("2026-10-05T00:{minute:02}:00Z")
    }

    /// A merged set of `a.log` and `b.log` in `dir`, one record each (00:01, 00:02).
    fn two_logs(dir: &Path) -> (FleetFollower, Vec<PathBuf>) {
        fleet(
            dir,
            &[
                ("a.log", &format!("{} a: one\n", stamp(1))),
                ("b.log", &format!("{} b: two\n", stamp(2))),
            ],
        )
    }

    fn fleet(dir: &Path, logs: &[(&str, &str)]) -> (FleetFollower, Vec<PathBuf>) {
        let mut paths = Vec::new();
        let mut sources = Vec::new();
        let mut shown = None;
        for (name, text) in logs {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            let last = text
                .lines()
                .filter_map(|l| LogFormat::NetVm.line_time(l))
                .max();
            shown = shown.max(last);
            sources.push(FleetLog {
                path: p.clone(),
                offset: text.len() as u64,
                lines: text.lines().count() as u64,
                format: LogFormat::NetVm,
                time: last,
            });
            paths.push(p);
        }
        (FleetFollower::new(&sources, shown), paths)
    }

    fn texts(poll: &FleetPoll) -> Vec<(usize, &str, bool)> {
        poll.arrivals
            .iter()
            .map(|a| (a.source, a.text.as_str(), a.late))
            .collect()
    }

    #[test]
    fn a_merged_set_s_new_records_come_in_time_order_and_late_ones_at_arrival() {
        let dir = tempfile::tempdir().unwrap();
        let (mut f, paths) = two_logs(dir.path());
        assert_eq!(f.poll(), FleetPoll::default());
        // b writes 00:05 and 00:03; a writes 00:04 with a continuation line, and half a line.
        append(
            &paths[1],
            &format!("{} b: five\n{} b: three\n", stamp(5), stamp(3)),
        );
        append(
            &paths[0],
            &format!("{} a: four\n  more of four\n{} a: six", stamp(4), stamp(6)),
        );
        let poll = f.poll();
        let four = format!("{} a: four\n  more of four\n", stamp(4));
        let three = format!("{} b: three\n", stamp(3));
        let five = format!("{} b: five\n", stamp(5));
        // Sorted across logs; b's own order (five before three) is a clock that went back:
        // the sort is by time, so three goes first, and neither is late (both after 00:02).
        assert_eq!(
            texts(&poll),
            vec![
                (1, three.as_str(), false),
                (0, four.as_str(), false),
                (1, five.as_str(), false)
            ]
        );
        assert_eq!(f.late(), 0);
        // Each record's first line numbered in its own log, whatever the order shown.
        let lines: Vec<(usize, u64)> = poll.arrivals.iter().map(|a| (a.source, a.line)).collect();
        assert_eq!(lines, vec![(1, 3), (0, 2), (1, 2)]);
        // The rest of a's half line, and a record of b stamped before what is shown.
        append(&paths[0], "\n");
        append(&paths[1], &format!("{} b: late\n", stamp(0)));
        let poll = f.poll();
        let six = format!("{} a: six\n", stamp(6));
        let late = format!("{} b: late\n", stamp(0));
        assert_eq!(
            texts(&poll),
            vec![(1, late.as_str(), true), (0, six.as_str(), false)]
        );
        let lines: Vec<u64> = poll.arrivals.iter().map(|a| a.line).collect();
        assert_eq!(lines, vec![4, 4]);
        assert_eq!(f.late(), 1);
        assert_eq!(f.late_note().unwrap(), "1 late record shown at arrival");
        assert_eq!(f.shown(), LogFormat::NetVm.line_time(&six));
    }

    #[test]
    fn each_log_of_a_merged_set_is_followed_through_rotation_truncation_and_deletion() {
        let dir = tempfile::tempdir().unwrap();
        let (mut f, paths) = two_logs(dir.path());
        // a is rotated (renamed, a new file created); b grows meanwhile.
        std::fs::rename(&paths[0], dir.path().join("a.log.1")).unwrap();
        std::fs::write(&paths[0], format!("{} a: after rotation\n", stamp(7))).unwrap();
        append(&paths[1], &format!("{} b: three\n", stamp(3)));
        let poll = f.poll();
        assert_eq!(poll.reloaded, vec![(0, Reload::Rotated)]);
        let got: Vec<&str> = poll.arrivals.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(
            got,
            vec![
                format!("{} b: three\n", stamp(3)),
                format!("{} a: after rotation\n", stamp(7))
            ]
        );
        // b is truncated (copytruncate) and written again from its start.
        std::fs::write(&paths[1], format!("{} b: x\n", stamp(8))).unwrap();
        let poll = f.poll();
        assert_eq!(poll.reloaded, vec![(1, Reload::Truncated)]);
        assert_eq!(poll.arrivals.len(), 1);
        assert_eq!(poll.arrivals[0].line, 1, "counted from the new start");
        // a is deleted: said once, b goes on; a back at its path is followed from its start.
        std::fs::remove_file(&paths[0]).unwrap();
        append(&paths[1], &format!("{} b: y\n", stamp(9)));
        let poll = f.poll();
        assert_eq!(poll.notices, vec![(0, FollowEvent::Missing)]);
        assert_eq!(poll.arrivals.len(), 1);
        assert!(f.poll().notices.is_empty());
        std::fs::write(&paths[0], format!("{} a: back\n", stamp(10))).unwrap();
        let poll = f.poll();
        assert_eq!(poll.reloaded, vec![(0, Reload::Rotated)]);
        assert_eq!(poll.arrivals[0].text, format!("{} a: back\n", stamp(10)));
        assert_eq!(f.late(), 0);
    }

    /// Polls on a thread: a poll that blocks (in `open()` on a FIFO) fails the test instead of
    /// hanging it; the FIFO is then opened for writing so that the blocked open returns.
    #[cfg(unix)]
    fn poll_within(follower: &mut Follower, fifo: &Path) -> FollowEvent {
        let mut moved = follower.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let event = moved.poll();
            let _ = tx.send((event, moved));
        });
        match rx.recv_timeout(std::time::Duration::from_secs(10)) {
            Ok((event, moved)) => {
                *follower = moved;
                event
            }
            Err(_) => {
                use std::os::unix::fs::OpenOptionsExt;
                let _ = std::fs::OpenOptions::new()
                    .write(true)
                    .custom_flags(libc::O_NONBLOCK)
                    .open(fifo);
                panic!("the poll blocked on the FIFO at {}", fifo.display());
            }
        }
    }

    /// Regression: a followed file replaced by a FIFO blocked the workbench in `open()` (no
    /// key answered), stayed on "Illegal seek" after a regular file came back, and a link to
    /// `/dev/zero` was read without end. A non-regular file is never opened: it is said, and a
    /// regular file back at the path is followed from its start.
    #[cfg(unix)]
    #[test]
    fn a_fifo_or_device_at_the_path_is_said_not_read_and_a_file_back_is_followed() {
        let (_dir, path) = crate::testing::temp_file("f.log", "one\n");
        let mut f = Follower::new(&path, 4);
        std::fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(
            poll_within(&mut f, &path),
            FollowEvent::NotRegular("a FIFO")
        );
        // Said once.
        assert_eq!(poll_within(&mut f, &path), FollowEvent::Unchanged);
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "two\n").unwrap();
        assert_eq!(
            poll_within(&mut f, &path),
            FollowEvent::Reloaded {
                text: "two\n".into(),
                why: Reload::Rotated
            }
        );
        // A link to an endless device.
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        assert_eq!(
            poll_within(&mut f, &path),
            FollowEvent::NotRegular("a character device")
        );
        // And the opener itself refuses what is not a regular file, without blocking.
        std::fs::remove_file(&path).unwrap();
        std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        let err = crate::input::open_regular(&path).unwrap_err();
        assert_eq!(err.to_string(), "a FIFO, not a regular file");
    }

    #[test]
    fn patterns_that_can_cross_a_line_break_are_told_apart() {
        let stays = |p: &str| {
            let re = crate::Regex::new(p, crate::Flavor::PYTHON, crate::Flags::default()).unwrap();
            matches_stay_in_lines(re.ast())
        };
        for p in [
            r"\d+",
            r"\[CLAIM \w+\]",
            r"(?m)^\w+$",
            r"a.*b",
            r"[^\n]+",
            r"\S+",
            r"(?=x)x\b",
        ] {
            assert!(stays(p), "{p}");
        }
        for p in [
            r"a\nb",
            r"(?s)a.*b",
            r"\s+",
            r"[^x]",
            r"\W",
            r"\d+$",
            r"x\Z",
            r"[\x00-\x7f]",
        ] {
            assert!(!stays(p), "{p}");
        }
    }

    #[test]
    fn patterns_that_look_at_other_lines_are_told_apart() {
        let local = |p: &str, flavor: crate::Flavor, flags: &str| {
            let flags = crate::Flags::parse(flags, flavor).unwrap();
            matches_independent_of_other_lines(&crate::Regex::new(p, flavor, flags).unwrap())
        };
        use crate::Flavor::Rust;
        const PYTHON: crate::Flavor = crate::Flavor::PYTHON;
        const JAVA_SCRIPT: crate::Flavor = crate::Flavor::JS;
        // Pattern, flavor, flags, and whether a line's matches depend on that line alone.
        for (p, f, flags, independent) in [
            (r"\[CLAIM \w+\]", Rust, "", true),
            (r"^\d+", PYTHON, "m", true),
            (r"(?m)^x$", Rust, "", true),
            (r"x*", JAVA_SCRIPT, "", true),
            (r"(?<!a)b\b", PYTHON, "", true),
            (r"^\d+", PYTHON, "", false),
            (r"\Ax", Rust, "", false),
            (r"x", JAVA_SCRIPT, "y", false),
            (r"a\nb", Rust, "", false),
            (r"x$", PYTHON, "", false),
        ] {
            assert_eq!(local(p, f, flags), independent, "{p}");
        }
    }

    #[test]
    fn appends_truncation_and_rotation_are_seen() {
        let (dir, path) = crate::testing::temp_file("app.log", "one\n");
        let mut f = Follower::new(&path, 4);
        assert_eq!(f.poll(), FollowEvent::Unchanged);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"two\n")
            .unwrap();
        assert_eq!(f.poll(), FollowEvent::Appended("two\n".into()));
        std::fs::write(&path, "x\n").unwrap();
        assert_eq!(
            f.poll(),
            FollowEvent::Reloaded {
                text: "x\n".into(),
                why: Reload::Truncated
            }
        );
        std::fs::rename(&path, dir.path().join("app.log.1")).unwrap();
        assert_eq!(f.poll(), FollowEvent::Missing);
        assert_eq!(f.poll(), FollowEvent::Unchanged, "said once");
        std::fs::write(&path, "new file\n").unwrap();
        assert_eq!(
            f.poll(),
            FollowEvent::Reloaded {
                text: "new file\n".into(),
                why: Reload::Rotated
            }
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_new_inode_is_a_rotation_even_when_the_new_file_is_longer() {
        let (dir, path) = crate::testing::temp_file("app.log", "a\n");
        let mut f = Follower::new(&path, 2);
        let tmp = dir.path().join("next");
        std::fs::write(&tmp, "a much longer new file\n").unwrap();
        std::fs::rename(&tmp, &path).unwrap();
        assert_eq!(
            f.poll(),
            FollowEvent::Reloaded {
                text: "a much longer new file\n".into(),
                why: Reload::Rotated
            }
        );
    }

    #[test]
    fn a_character_split_across_writes_is_held_back() {
        let mut pending = Vec::new();
        let e = "é".as_bytes();
        assert_eq!(decode(&mut pending, &[b'a', e[0]]), "a");
        assert_eq!(decode(&mut pending, &[e[1], b'\n']), "é\n");
        assert_eq!(decode(&mut pending, &[0xFF, b'b']), "\u{FFFD}b");
        assert!(pending.is_empty());
    }
}
