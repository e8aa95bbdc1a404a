//! The audit matrix: N paths x M patterns, each cell "contains / does not / could not read".
//!
//! This answers the grep-audit design's question ("which of these files contain which of
//! these canonical strings?") deterministically. The pieces:
//!
//! - [`AuditPattern`]: a column, a name plus a matcher (a substring, or a regex compiled with
//!   [`crate::Regex`] in its flavor). Presets from the registry become named regexes through
//!   [`AuditPattern::regex`].
//! - [`paths`]: turns the paths given into rows, walking directories with the `ignore` crate
//!   (sorted, `.gitignore` respected) and keeping the order given.
//! - `scan`: reads each file once and evaluates every pattern in that one pass, files in
//!   parallel, rows in a fixed order.
//! - [`render`]: the audit's markdown table, JSON, CSV, with booleans or counts.
//!
//! A row that cannot be read (missing, a directory, unreadable, too large, binary) keeps its
//! place with unknown cells and the reason; the audit never stops at the first bad path.

pub mod paths;
pub mod read;
pub mod render;

use crate::Regex;
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use serde::Serialize;

pub use paths::{PathSource, WalkOptions};
pub use read::{ScanOptions, audit};

/// The default largest file read: 256 MB.
pub const DEFAULT_MAX_FILESIZE: u64 = 256 * 1024 * 1024;

/// What a column looks for.
#[derive(Debug)]
pub enum Matcher {
    /// A plain substring, matched on the file's bytes.
    Substring(String),
    /// A regex in its flavor, matched on the file's text (invalid UTF-8 replaced by U+FFFD,
    /// as Python's `errors="replace"` does).
    Regex(Box<Regex>),
    /// A pattern that failed to compile: its column stays unknown in every row.
    Invalid(Error),
}

/// One column of the matrix: a name and what it looks for.
#[derive(Debug)]
pub struct AuditPattern {
    /// The column header (for an unnamed pattern, the pattern as written).
    pub name: String,
    /// What it looks for.
    pub matcher: Matcher,
}

impl AuditPattern {
    /// A plain substring named after itself.
    ///
    /// # Errors
    /// [`ErrorKind::PatternInvalid`] for the empty string, which would match everywhere.
    pub fn substring(text: &str) -> Result<AuditPattern, Error> {
        AuditPattern::named_substring(text, text)
    }

    /// A plain substring with a column name.
    ///
    /// # Errors
    /// [`ErrorKind::PatternInvalid`] for the empty string, which would match everywhere.
    pub fn named_substring(name: &str, text: &str) -> Result<AuditPattern, Error> {
        if text.is_empty() {
            return Err(Error::new(
                ErrorKind::PatternInvalid,
                format!("pattern {name:?}: an empty substring would match every file"),
            ));
        }
        Ok(AuditPattern {
            name: name.to_string(),
            matcher: Matcher::Substring(text.to_string()),
        })
    }

    /// A named regex compiled for `flavor` with `flags`.
    ///
    /// # Errors
    /// Whatever [`Regex::new`] reports: an invalid pattern or an unsupported construct, with
    /// its span.
    pub fn regex(
        name: &str,
        pattern: &str,
        flavor: Flavor,
        flags: Flags,
    ) -> Result<AuditPattern, Error> {
        let re = Regex::new(pattern, flavor, flags)?;
        Ok(AuditPattern {
            name: name.to_string(),
            matcher: Matcher::Regex(Box::new(re)),
        })
    }

    /// As [`AuditPattern::regex`], with `ignore_case` switching on the flavor's `i` flag (the
    /// `case_sensitive=False` is `re.IGNORECASE`).
    ///
    /// # Errors
    /// As [`AuditPattern::regex`].
    pub fn regex_ci(
        name: &str,
        pattern: &str,
        flavor: Flavor,
        mut flags: Flags,
        ignore_case: bool,
    ) -> Result<AuditPattern, Error> {
        flags.ignore_case |= ignore_case;
        AuditPattern::regex(name, pattern, flavor, flags)
    }

    /// A column for a pattern that could not be compiled: every cell is unknown and the
    /// audit reports the error.
    pub fn invalid(name: &str, error: Error) -> AuditPattern {
        AuditPattern {
            name: name.to_string(),
            matcher: Matcher::Invalid(error),
        }
    }

    /// The compile error, for an invalid column.
    pub fn error(&self) -> Option<&Error> {
        match &self.matcher {
            Matcher::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

/// Checks that column names are unique (they key the JSON object).
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] naming the first duplicate.
pub fn check_names(patterns: &[AuditPattern]) -> Result<(), Error> {
    let mut seen = std::collections::HashSet::new();
    for p in patterns {
        if !seen.insert(p.name.as_str()) {
            return Err(Error::new(
                ErrorKind::PatternInvalid,
                format!(
                    "two patterns are named {:?}; give one a different name with name=…",
                    p.name
                ),
            ));
        }
    }
    Ok(())
}

/// What a cell counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CellMode {
    /// Contains or not (the boolean matrix). Stops at the first occurrence.
    #[default]
    Presence,
    /// The number of non-overlapping occurrences (counts, the matrix's other mode).
    Counts,
}

/// Why a row (or some cells of it) has no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RowErrorKind {
    /// The path does not exist (or is a dangling symbolic link).
    PathMissing,
    /// The path is a directory where a file was expected.
    PathDirectory,
    /// The file exists but could not be opened or read (permissions, I/O).
    FileUnreadable,
    /// The file is larger than the maximum size.
    FileTooLarge,
    /// The file has NUL bytes and binary files were not asked for.
    FileBinary,
    /// Walking a directory failed at this path.
    WalkFailed,
    /// A pattern failed on this file (e.g. the backtracking budget ran out) or did not
    /// compile; only its cells are unknown.
    PatternFailed,
}

/// The reason a row has unknown cells.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowError {
    /// What kind of failure.
    pub kind: RowErrorKind,
    /// A message for people.
    pub message: String,
}

/// One row of the matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The path as given, or as found under a directory given; for a name that is not UTF-8,
    /// the lossless escaped form (`path_escaped`).
    pub path: String,
    /// True when `path` is escaped: `\\` is a backslash, `\xHH` a byte that is not UTF-8
    /// ([`paths::unescape_bytes`] gives the name's bytes back).
    pub path_escaped: bool,
    /// One cell per pattern, in column order: `None` when unknown; in presence mode 1 / 0.
    pub cells: Vec<Option<u64>>,
    /// Why some or all cells are unknown.
    pub error: Option<RowError>,
}

impl Row {
    /// A file's row: its cells, and why some are unknown if they are.
    pub fn new(
        path: impl Into<paths::Shown>,
        cells: Vec<Option<u64>>,
        error: Option<RowError>,
    ) -> Row {
        let path = path.into();
        Row {
            path: path.text,
            path_escaped: path.escaped,
            cells,
            error,
        }
    }

    /// A row whose file could not be read: every cell unknown.
    pub fn failed(
        path: impl Into<paths::Shown>,
        columns: usize,
        kind: RowErrorKind,
        message: String,
    ) -> Row {
        Row::new(path, vec![None; columns], Some(RowError { kind, message }))
    }
}

/// The usage line.
///
/// `files_scanned` is the number of paths asked for: every row, read or not (a directory given
/// counts as the files its walk lists). `matches_total` is, the number of ✅
/// cells; in counts mode it is the sum of all occurrences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct Usage {
    /// Paths in the matrix (rows), read or not.
    pub files_scanned: u64,
    /// Number of columns.
    pub patterns_evaluated: u64,
    /// ✅ cells (presence) or occurrences (counts).
    pub matches_total: u64,
}

/// A column whose pattern did not compile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PatternError {
    /// The column name.
    pub name: String,
    /// What is wrong with it.
    pub message: String,
}

/// The whole matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Columns whose pattern did not compile (their cells are all unknown).
    pub pattern_errors: Vec<PatternError>,
    /// Column names.
    pub names: Vec<String>,
    /// Rows in the order given (directories expanded in sorted order).
    pub rows: Vec<Row>,
    /// What the cells count.
    pub mode: CellMode,
    /// Totals.
    pub usage: Usage,
    /// Things the caller should know that are not about a row or a column (a user
    /// registry that was skipped); in JSON as `warnings` when there are any.
    pub warnings: Vec<String>,
}

impl Report {
    /// Builds the report and its usage totals.
    pub fn new(names: Vec<String>, rows: Vec<Row>, mode: CellMode) -> Report {
        // The number of paths asked for: every row, read or not (a walked directory counts as the
        // files it lists).
        let files_scanned = rows.len() as u64;
        let cells = rows.iter().flat_map(|r| r.cells.iter()).flatten();
        let matches_total = match mode {
            CellMode::Presence => cells.filter(|n| **n > 0).count() as u64,
            CellMode::Counts => cells.sum(),
        };
        let usage = Usage {
            files_scanned,
            patterns_evaluated: names.len() as u64,
            matches_total,
        };
        Report {
            pattern_errors: Vec::new(),
            names,
            rows,
            mode,
            usage,
            warnings: Vec::new(),
        }
    }

    /// Whether any row or pattern has an error (the CLI exits 2).
    pub fn has_errors(&self) -> bool {
        !self.pattern_errors.is_empty() || self.rows.iter().any(|r| r.error.is_some())
    }

    /// The (path, column name) of every ❌ cell.
    pub fn missing_cells(&self) -> Vec<(&str, &str)> {
        self.cells_where(|c| c == Some(0))
    }

    /// The (path, column name) of every ✅ cell.
    pub fn present_cells(&self) -> Vec<(&str, &str)> {
        self.cells_where(|c| c.is_some_and(|n| n > 0))
    }

    fn cells_where(&self, keep: impl Fn(Option<u64>) -> bool) -> Vec<(&str, &str)> {
        let mut out = Vec::new();
        for r in &self.rows {
            for (c, name) in r.cells.iter().zip(&self.names) {
                if keep(*c) {
                    out.push((r.path.as_str(), name.as_str()));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_substring_is_rejected() {
        assert_eq!(
            AuditPattern::substring("").unwrap_err().kind,
            ErrorKind::PatternInvalid
        );
    }

    #[test]
    fn duplicate_names_are_rejected() {
        let ps = vec![
            AuditPattern::substring("a").unwrap(),
            AuditPattern::named_substring("a", "b").unwrap(),
        ];
        assert!(check_names(&ps).unwrap_err().message.contains("\"a\""));
    }

    #[test]
    fn usage_files_scanned_is_every_path_given_not_the_files_read() {
        let rows = vec![
            Row::new("a", vec![Some(1), Some(0)], None),
            Row::failed("b", 2, RowErrorKind::PathMissing, "missing".into()),
            Row::new("c", vec![Some(1), Some(1)], None),
        ];
        let r = Report::new(vec!["x".into(), "y".into()], rows, CellMode::Presence);
        assert_eq!(
            r.usage,
            Usage {
                files_scanned: 3,
                patterns_evaluated: 2,
                matches_total: 3
            }
        );
        assert_eq!(r.missing_cells(), vec![("a", "y")]);
        assert_eq!(r.present_cells().len(), 3);
        assert!(r.has_errors());
    }
}
