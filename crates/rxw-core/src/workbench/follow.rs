//! Following a growing file (`tail -F`): what was appended since the last look, or that the
//! file was truncated or replaced (rotated).
//!
//! The file is read with plain reads from the last offset, never memory-mapped (a map faults
//! when the file is truncated under it). The caller polls ([`Follower::poll`]) on a timer; a
//! poll costs one `stat` when nothing changed. Truncation is a file shorter than the offset
//! read so far; rotation is a new inode at the path (Unix; elsewhere only truncation is seen).
//! Appended bytes that end inside a UTF-8 character are held back until the rest arrives;
//! invalid sequences become U+FFFD, as when the file was first read.

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
    let mut local = !re.flags().sticky && matches_stay_in_lines(re.ast());
    re.ast().root.walk(|n, _| {
        if let NodeKind::Anchor { kind, multiline } = &n.kind {
            local &= match kind {
                AnchorKind::LineStart => *multiline,
                AnchorKind::TextStart => false,
                _ => true,
            };
        }
    });
    local
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

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
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.log");
        std::fs::write(&path, "one\n").unwrap();
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
        for (p, f, flags) in [
            (r"\[CLAIM \w+\]", Rust, ""),
            (r"^\d+", PYTHON, "m"),
            (r"(?m)^x$", Rust, ""),
            (r"x*", JAVA_SCRIPT, ""),
            (r"(?<!a)b\b", PYTHON, ""),
        ] {
            assert!(local(p, f, flags), "{p}");
        }
        for (p, f, flags) in [
            (r"^\d+", PYTHON, ""),
            (r"\Ax", Rust, ""),
            (r"x", JAVA_SCRIPT, "y"),
            (r"a\nb", Rust, ""),
            (r"x$", PYTHON, ""),
        ] {
            assert!(!local(p, f, flags), "{p}");
        }
    }

    #[test]
    fn appends_truncation_and_rotation_are_seen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.log");
        std::fs::write(&path, "one\n").unwrap();
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
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.log");
        std::fs::write(&path, "a\n").unwrap();
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
