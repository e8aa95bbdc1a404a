//! From the paths given to the rows of the matrix.
//!
//! A directory given as an argument is walked with the `ignore` crate (the walker ripgrep
//! uses): `.gitignore` / `.ignore` files are respected even outside a git repository, hidden
//! files are skipped unless asked for, `--glob` filters files, entries are sorted by name.
//! A path from a list (`--paths-from`, standard input) is taken literally, as the seed takes
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
}

impl PathSource {
    /// A path given as an argument: directories are walked.
    pub fn argument(path: impl Into<PathBuf>) -> PathSource {
        PathSource {
            path: path.into(),
            walk: true,
        }
    }

    /// A path read from a list: taken literally.
    pub fn listed(path: impl Into<PathBuf>) -> PathSource {
        PathSource {
            path: path.into(),
            walk: false,
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
        shown: String,
        /// The path to open.
        path: PathBuf,
    },
    /// A row that failed before reading.
    Failed {
        /// The path as shown in the matrix.
        shown: String,
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

fn shown(path: &Path) -> String {
    path.to_string_lossy().into_owned()
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
    for source in sources {
        let path = &source.path;
        match std::fs::metadata(path) {
            Err(e) => out.push(failed_io(path, &e)),
            Ok(meta) if meta.is_dir() && source.walk => walk(path, options, &mut out)?,
            Ok(meta) if meta.is_dir() => out.push(Target::Failed {
                shown: shown(path),
                kind: RowErrorKind::PathDirectory,
                message: "is a directory".into(),
            }),
            // Opening a FIFO would wait for a writer forever; devices and sockets are no files
            // to audit either.
            Ok(meta) if !meta.is_file() => out.push(Target::Failed {
                shown: shown(path),
                kind: RowErrorKind::FileUnreadable,
                message: "not a regular file (a FIFO, socket or device)".into(),
            }),
            Ok(_) => out.push(Target::File {
                shown: shown(path),
                path: path.clone(),
            }),
        }
    }
    Ok(out)
}

fn walk(root: &Path, options: &WalkOptions, out: &mut Vec<Target>) -> Result<(), Error> {
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
    let before = out.len();
    for entry in builder.build() {
        match entry {
            Err(e) => {
                let at = walk_error_path(&e).unwrap_or(root).to_path_buf();
                out.push(Target::Failed {
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
                    out.push(Target::File {
                        shown: shown(path),
                        path: path.to_path_buf(),
                    });
                } else if ft.is_symlink() {
                    match std::fs::metadata(path) {
                        Ok(m) if m.is_file() => out.push(Target::File {
                            shown: shown(path),
                            path: path.to_path_buf(),
                        }),
                        Ok(_) => {}
                        Err(e) => out.push(failed_io(path, &e)),
                    }
                }
            }
        }
    }
    if out.len() == before {
        out.push(Target::Failed {
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
                Target::File { shown, .. } => shown.clone(),
                Target::Failed { shown, kind, .. } => format!("{shown} {kind:?}"),
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
}
