//! From the paths given to the rows of the matrix.
//!
//! A directory given as an argument is walked with the `ignore` crate (the walker ripgrep
//! uses): `.gitignore` / `.ignore` files are respected even outside a git repository, hidden
//! files are skipped unless asked for, `--glob` filters files, entries are sorted by name.
//! A path from a list (`--paths-from`, standard input) is taken literally, as the audit tool takes
//! its `paths`: a directory there is a row that says so. Symbolic links met in a walk are
//! followed to files only; a dangling one becomes an error row rather than vanishing.

use super::{Row, RowErrorKind};
use crate::error::{Error, ErrorKind};
use std::path::{Path, PathBuf};

/// A path and whether a directory there should be walked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathSource {
    /// The path as given.
    pub path: PathBuf,
    /// Walk it when it is a directory (arguments); else a directory is an error row (lists).
    pub walk: bool,
    /// Why this entry cannot be used at all (a list entry that is not a path on this
    /// system, a list that could not be read to the end): it becomes a ⚠️ row saying so.
    pub unusable: Option<String>,
}

impl PathSource {
    /// A path given as an argument: directories are walked.
    pub fn argument(path: impl Into<PathBuf>) -> PathSource {
        PathSource {
            path: path.into(),
            walk: true,
            unusable: None,
        }
    }

    /// A path read from a list: taken literally.
    pub fn listed(path: impl Into<PathBuf>) -> PathSource {
        PathSource {
            path: path.into(),
            walk: false,
            unusable: None,
        }
    }

    /// A list entry that cannot be audited, shown as `path` with the reason.
    pub fn unusable(path: impl Into<PathBuf>, reason: impl Into<String>) -> PathSource {
        PathSource {
            path: path.into(),
            walk: false,
            unusable: Some(reason.into()),
        }
    }

    /// A list entry from its raw bytes: on Unix every byte string is a path (one that is not
    /// UTF-8 is shown escaped); elsewhere an entry that is not UTF-8 is unusable.
    pub fn listed_bytes(bytes: &[u8]) -> PathSource {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            PathSource::listed(std::ffi::OsStr::from_bytes(bytes))
        }
        #[cfg(not(unix))]
        {
            match std::str::from_utf8(bytes) {
                Ok(s) => PathSource::listed(s),
                Err(_) => PathSource::unusable(
                    escape_bytes(bytes),
                    "the path list entry is not UTF-8, which is no path on this system",
                ),
            }
        }
    }
}

/// How directories are walked.
#[derive(Debug, Clone, Default)]
pub struct WalkOptions {
    /// Include hidden files and directories.
    pub hidden: bool,
    /// Globs in gitignore syntax; files must match one (a `!glob` excludes). A glob match
    /// outranks ignore files, as in ripgrep.
    pub globs: Vec<String>,
    /// Descend at most this many levels below a directory given (1 = its files only).
    pub max_depth: Option<usize>,
    /// Ignore `.gitignore` and `.ignore` files.
    pub no_ignore: bool,
}

/// A row to fill: a file to read, or a row already decided (it could not be read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A file to read: the path shown and the path opened.
    File {
        /// The path as shown in the matrix.
        shown: Shown,
        /// The path to open.
        path: PathBuf,
    },
    /// A row that failed before reading.
    Failed {
        /// The path as shown in the matrix.
        shown: Shown,
        /// Why.
        kind: RowErrorKind,
        /// A message for people.
        message: String,
    },
}

impl Target {
    /// The row for a failed target with `columns` unknown cells; `None` for a file.
    pub fn failed_row(&self, columns: usize) -> Option<Row> {
        match self {
            Target::Failed {
                shown,
                kind,
                message,
            } => Some(Row::failed(shown.clone(), columns, *kind, message.clone())),
            Target::File { .. } => None,
        }
    }
}

/// A path as the matrix shows it: the path itself when it is UTF-8, else a lossless escaped
/// form (see [`shown`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shown {
    /// The text.
    pub text: String,
    /// True when `text` is the escaped form: `\\` stands for a backslash and `\xHH` for a
    /// byte that is not UTF-8; unescaping it gives the path's exact bytes.
    pub escaped: bool,
}

impl From<&str> for Shown {
    fn from(text: &str) -> Shown {
        Shown {
            text: text.to_string(),
            escaped: false,
        }
    }
}

/// How `path` is shown: as itself when it is UTF-8; otherwise every backslash is doubled and
/// every byte that is not part of valid UTF-8 is written `\xHH`, so the bytes can be
/// recovered (replacing them with U+FFFD could not be undone).
pub fn shown(path: &Path) -> Shown {
    if let Some(text) = path.to_str() {
        return Shown::from(text);
    }
    Shown {
        text: escape_bytes(&path_bytes(path)),
        escaped: true,
    }
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Vec<u8> {
    path.as_os_str().as_encoded_bytes().to_vec()
}

/// The escaped form of bytes that are not all UTF-8 (see [`shown`]).
pub fn escape_bytes(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    while !bytes.is_empty() {
        let (valid, rest) = match std::str::from_utf8(bytes) {
            Ok(s) => (s, &[][..]),
            Err(e) => {
                let (ok, bad) = bytes.split_at(e.valid_up_to());
                let bad_len = e.error_len().unwrap_or(bad.len());
                let valid = std::str::from_utf8(ok).unwrap_or_default();
                out.push_str(&valid.replace('\\', "\\\\"));
                for b in &bad[..bad_len] {
                    out.push_str(&format!("\\x{b:02X}"));
                }
                bytes = &bad[bad_len..];
                continue;
            }
        };
        out.push_str(&valid.replace('\\', "\\\\"));
        bytes = rest;
    }
    out
}

/// The bytes of an escaped path ([`shown`]); `None` when `text` is not a valid escaped form.
pub fn unescape_bytes(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next()? {
            (_, '\\') => out.push(b'\\'),
            (_, 'x') => {
                let hex = text.get(i + 2..i + 4)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                chars.next();
                chars.next();
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Classifies an I/O error on `path` into a row error.
pub fn io_failure(path: &Path, e: &std::io::Error) -> (RowErrorKind, String) {
    let kind = match e.kind() {
        std::io::ErrorKind::NotFound => {
            if std::fs::symlink_metadata(path).is_ok() {
                return (
                    RowErrorKind::PathMissing,
                    "dangling symbolic link (its target does not exist)".into(),
                );
            }
            RowErrorKind::PathMissing
        }
        std::io::ErrorKind::IsADirectory => RowErrorKind::PathDirectory,
        _ => RowErrorKind::FileUnreadable,
    };
    (kind, e.to_string())
}

/// Expands the sources into targets, in the order given, directories in sorted order.
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] for a `--glob` that is not a valid glob.
pub fn expand(sources: &[PathSource], options: &WalkOptions) -> Result<Vec<Target>, Error> {
    let mut out = Vec::new();
    expand_each(sources, options, &mut |t| out.push(t))?;
    Ok(out)
}

/// As [`expand`], handing each target to `emit` as soon as it is found (the audit reads files
/// while the walk goes on).
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] for a `--glob` that is not a valid glob (some targets may
/// have been emitted before).
pub fn expand_each(
    sources: &[PathSource],
    options: &WalkOptions,
    emit: &mut dyn FnMut(Target),
) -> Result<(), Error> {
    for source in sources {
        let path = &source.path;
        if let Some(reason) = &source.unusable {
            emit(Target::Failed {
                shown: shown(path),
                kind: RowErrorKind::FileUnreadable,
                message: reason.clone(),
            });
            continue;
        }
        match std::fs::metadata(path) {
            Err(e) => emit(failed_io(path, &e)),
            Ok(meta) if meta.is_dir() && source.walk => walk(path, options, emit)?,
            Ok(meta) if meta.is_dir() => emit(Target::Failed {
                shown: shown(path),
                kind: RowErrorKind::PathDirectory,
                message: "is a directory".into(),
            }),
            // Opening a FIFO would wait for a writer forever; devices and sockets are no files
            // to audit either.
            Ok(meta) if !meta.is_file() => emit(Target::Failed {
                shown: shown(path),
                kind: RowErrorKind::FileUnreadable,
                message: "not a regular file (a FIFO, socket or device)".into(),
            }),
            Ok(_) => emit(Target::File {
                shown: shown(path),
                path: path.clone(),
            }),
        }
    }
    Ok(())
}

fn walk(root: &Path, options: &WalkOptions, sink: &mut dyn FnMut(Target)) -> Result<(), Error> {
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(!options.hidden)
        .max_depth(options.max_depth)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b));
    if options.no_ignore {
        builder
            .ignore(false)
            .git_ignore(false)
            .git_exclude(false)
            .git_global(false)
            .parents(false);
    }
    if !options.globs.is_empty() {
        let mut ob = ignore::overrides::OverrideBuilder::new(root);
        for g in &options.globs {
            ob.add(g).map_err(|e| {
                Error::new(
                    ErrorKind::PatternInvalid,
                    format!("invalid --glob {g:?}: {e}"),
                )
            })?;
        }
        let ov = ob
            .build()
            .map_err(|e| Error::new(ErrorKind::PatternInvalid, format!("invalid --glob: {e}")))?;
        builder.overrides(ov);
    }
    let mut emitted = 0usize;
    let mut emit = |t: Target| {
        emitted += 1;
        sink(t);
    };
    for entry in builder.build() {
        match entry {
            Err(e) => {
                let at = walk_error_path(&e).unwrap_or(root).to_path_buf();
                emit(Target::Failed {
                    shown: shown(&at),
                    kind: RowErrorKind::WalkFailed,
                    message: walk_error_message(&e),
                });
            }
            Ok(entry) => {
                let Some(ft) = entry.file_type() else {
                    continue;
                };
                let path = entry.path();
                if ft.is_file() {
                    emit(Target::File {
                        shown: shown(path),
                        path: path.to_path_buf(),
                    });
                } else if ft.is_symlink() {
                    match std::fs::metadata(path) {
                        Ok(m) if m.is_file() => emit(Target::File {
                            shown: shown(path),
                            path: path.to_path_buf(),
                        }),
                        Ok(_) => {}
                        Err(e) => emit(failed_io(path, &e)),
                    }
                }
            }
        }
    }
    if emitted == 0 {
        sink(Target::Failed {
            shown: shown(root),
            kind: RowErrorKind::PathDirectory,
            message: "directory has no file to audit (after ignore rules, --glob, --max-depth)"
                .into(),
        });
    }
    Ok(())
}

fn walk_error_path(e: &ignore::Error) -> Option<&Path> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error_path(err)
        }
        _ => None,
    }
}

fn walk_error_message(e: &ignore::Error) -> String {
    match e {
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => {
            walk_error_message(err)
        }
        other => other.to_string(),
    }
}

/// The row for a path whose metadata could not be read.
fn failed_io(path: &Path, e: &std::io::Error) -> Target {
    let (kind, message) = io_failure(path, e);
    Target::Failed {
        shown: shown(path),
        kind,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(targets: &[Target]) -> Vec<String> {
        targets
            .iter()
            .map(|t| match t {
                Target::File { shown, .. } => shown.text.clone(),
                Target::Failed { shown, kind, .. } => format!("{} {kind:?}", shown.text),
            })
            .collect()
    }

    #[test]
    fn walks_sorted_respecting_gitignore_hidden_glob_and_depth() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join("sub/deep")).unwrap();
        for f in [
            "b.md",
            "a.md",
            "c.txt",
            ".hidden.md",
            "skip.md",
            "sub/x.md",
            "sub/deep/y.md",
        ] {
            std::fs::write(root.join(f), "x").unwrap();
        }
        std::fs::write(root.join(".gitignore"), "skip.md\n").unwrap();
        let rel = |v: Vec<String>| -> Vec<String> {
            v.into_iter()
                .map(|s| s.replace(&root.to_string_lossy().into_owned(), "R"))
                .collect()
        };
        let all = expand(&[PathSource::argument(root)], &WalkOptions::default()).unwrap();
        assert_eq!(
            rel(names(&all)),
            [
                "R/a.md",
                "R/b.md",
                "R/c.txt",
                "R/sub/deep/y.md",
                "R/sub/x.md"
            ]
        );
        let opts = WalkOptions {
            hidden: true,
            globs: vec!["*.md".into()],
            max_depth: Some(1),
            no_ignore: false,
        };
        let some = expand(&[PathSource::argument(root)], &opts).unwrap();
        // A glob match outranks .gitignore (as in ripgrep): skip.md is back.
        assert_eq!(
            rel(names(&some)),
            ["R/.hidden.md", "R/a.md", "R/b.md", "R/skip.md"]
        );
    }

    #[test]
    fn order_given_is_kept_and_lists_do_not_walk() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::write(root.join("z"), "").unwrap();
        let srcs = [
            PathSource::argument(root.join("z")),
            PathSource::listed(root),
            PathSource::argument(root.join("nope")),
        ];
        let t = expand(&srcs, &WalkOptions::default()).unwrap();
        assert!(matches!(&t[0], Target::File { .. }));
        assert!(matches!(
            &t[1],
            Target::Failed {
                kind: RowErrorKind::PathDirectory,
                ..
            }
        ));
        assert!(matches!(
            &t[2],
            Target::Failed {
                kind: RowErrorKind::PathMissing,
                ..
            }
        ));
    }

    #[test]
    fn bad_glob_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("a"), "").unwrap();
        let opts = WalkOptions {
            globs: vec!["a[".into()],
            ..Default::default()
        };
        assert!(expand(&[PathSource::argument(d.path())], &opts).is_err());
    }

    #[test]
    fn escaped_names_round_trip_to_their_bytes() {
        for bytes in [
            &b"caf\xe9.md"[..],
            b"a\\xE9\\\\b\xff\xfe",
            b"\xc3(",
            "ünï\\".as_bytes(),
        ] {
            let text = escape_bytes(bytes);
            assert_eq!(unescape_bytes(&text).as_deref(), Some(bytes), "{text}");
        }
        assert_eq!(escape_bytes(b"caf\xe9\\x.md"), "caf\\xE9\\\\x.md");
        assert_eq!(unescape_bytes("bad\\q"), None);
    }
}
