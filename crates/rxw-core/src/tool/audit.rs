//! The `grep_audit` tool: the audit matrix of N paths × M patterns, as a table or JSON.

use super::{Tool, ToolError};
use crate::audit::Usage;
use crate::flavor::{Flags, Flavor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Component, Path, PathBuf};

/// The directories the `grep_audit` tool may read (`rxw mcp --root DIR`, by default the
/// server's working directory). A path is read only when it lies under one of them both as
/// written (made absolute, `.` and `..` taken away) and as the system resolves it (links
/// followed): neither `..` nor a symbolic link leads out. Anything else is a ⚠️ row that says
/// so, and is never opened, so the matrix is no oracle for files outside the roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roots {
    /// Each root as given (absolute, normalised) and as the system resolves it.
    dirs: Vec<(PathBuf, PathBuf)>,
}

impl Roots {
    /// The roots, each resolved once now.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Io`] naming a root that does not exist or is not a directory.
    pub fn new(dirs: &[PathBuf]) -> Result<Roots, crate::Error> {
        let io = |d: &Path, why: String| {
            crate::Error::new(crate::ErrorKind::Io, format!("root {}: {why}", d.display()))
        };
        let mut out = Vec::with_capacity(dirs.len());
        for d in dirs {
            let real = std::fs::canonicalize(d).map_err(|e| io(d, e.to_string()))?;
            if !real.is_dir() {
                return Err(io(d, "not a directory".into()));
            }
            out.push((normalize(&absolute(d)), real));
        }
        Ok(Roots { dirs: out })
    }

    /// The roots as the system resolves them.
    pub fn dirs(&self) -> impl Iterator<Item = &Path> {
        self.dirs.iter().map(|(_, real)| real.as_path())
    }

    /// Whether `path` may be read; the reason when not.
    ///
    /// # Errors
    /// The path is outside every root, as written or through a link.
    pub fn check(&self, path: &Path) -> Result<(), String> {
        let under = |p: &Path| {
            self.dirs
                .iter()
                .any(|(given, real)| p.starts_with(given) || p.starts_with(real))
        };
        let shown = || {
            self.dirs()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !under(&normalize(&absolute(path))) {
            return Err(format!(
                "outside the server's roots ({}): not read",
                shown()
            ));
        }
        let outside = |real: &Path| !self.dirs.iter().any(|(_, root)| real.starts_with(root));
        let leads_outside = || {
            Err(format!(
                "a symbolic link leads outside the server's roots ({}): not read",
                shown()
            ))
        };
        match std::fs::canonicalize(path) {
            Ok(real) if outside(&real) => leads_outside(),
            Ok(_) => Ok(()),
            // Missing: a link whose target is outside says so whether the target exists or
            // not, so the answer tells a caller nothing about what is outside the roots.
            Err(_) if links_to(&normalize(&absolute(path))).is_some_and(|t| outside(&t)) => {
                leads_outside()
            }
            // Missing inside (the matrix says so as for any path).
            Err(_) => Ok(()),
        }
    }
}

/// Where `path` leads through its symbolic links, resolved by reading the links alone (as
/// the kernel would, but without needing the end to exist); `None` when no link is on the
/// way or the chain is too long.
fn links_to(path: &Path) -> Option<PathBuf> {
    let mut at = path.to_path_buf();
    let mut linked = false;
    'resolve: for _ in 0..40 {
        let mut prefix = PathBuf::new();
        let parts: Vec<Component<'_>> = at.components().collect();
        for (i, c) in parts.iter().enumerate() {
            prefix.push(c);
            let is_link =
                std::fs::symlink_metadata(&prefix).is_ok_and(|m| m.file_type().is_symlink());
            if is_link {
                let target = std::fs::read_link(&prefix).ok()?;
                let mut next = prefix.parent().map(Path::to_path_buf).unwrap_or_default();
                next.push(target);
                for rest in &parts[i + 1..] {
                    next.push(rest);
                }
                at = normalize(&next);
                linked = true;
                continue 'resolve;
            }
        }
        return linked.then_some(at);
    }
    None
}

/// `path` made absolute against the working directory (unchanged when that is unknown).
fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    std::env::current_dir().map_or_else(|_| path.to_path_buf(), |d| d.join(path))
}

/// `path` with `.` left out and each `..` taking away the name before it, as written (links
/// are not looked at; [`Roots::check`] resolves them separately).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The tool's result: `{"text": table or JSON matrix, "usage": {…}}`.
#[derive(Serialize)]
struct Output<'a> {
    text: &'a str,
    usage: &'a Usage,
}

/// Parameters of the `grep_audit` tool (the audit tool's signature).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditParams {
    /// File paths (directories are walked).
    pub paths: Vec<String>,
    /// A string is a substring; an object is `{pattern, name?, regex?}`.
    pub patterns: Vec<AuditPatternParam>,
    /// `table` (default) or `json`.
    #[serde(default)]
    pub output: Option<String>,
    /// Case-sensitive matching (default true).
    #[serde(default)]
    pub case_sensitive: Option<bool>,
}

/// One pattern of the `grep_audit` tool.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum AuditPatternParam {
    /// A substring, named after itself.
    Substring(String),
    /// A named substring or regex (Python `re` syntax, as the reference implementation).
    Spec {
        /// The substring or regex.
        pattern: String,
        /// The column name (default: the pattern).
        #[serde(default)]
        name: Option<String>,
        /// Whether `pattern` is a regex.
        #[serde(default)]
        regex: Option<bool>,
    },
}

/// Runs the `grep_audit` tool on any path: `{"text": table or JSON, "usage": {…}}`.
/// Unreadable paths are warning cells (`null`), never a failed call.
///
/// # Errors
/// Malformed arguments, an empty substring, or duplicate column names.
pub fn audit_tool(args: Value) -> Result<Value, ToolError> {
    audit_tool_in(args, None)
}

/// As [`audit_tool`], reading only under `roots` when given: a path outside them is a warning
/// row (`null` cells, the reason beside it), never opened.
///
/// # Errors
/// As [`audit_tool`].
pub fn audit_tool_in(args: Value, roots: Option<&Roots>) -> Result<Value, ToolError> {
    use crate::audit::{
        self, AuditPattern, paths::PathSource, paths::WalkOptions, read::ScanOptions,
    };
    let tool = Tool::Audit;
    let p: AuditParams =
        serde_json::from_value(args).map_err(|e| ToolError::invalid_arguments(tool, &e))?;
    if p.patterns.is_empty() {
        return Err(ToolError::new(
            "grep_audit: no patterns: give at least one substring or {pattern, name, regex}",
        ));
    }
    let ignore_case = !p.case_sensitive.unwrap_or(true);
    let json_output = match p.output.as_deref() {
        None | Some("table") => false,
        Some("json") => true,
        Some(other) => {
            return Err(ToolError::new(format!(
                "grep_audit: unknown output {other:?} (expected table or json)"
            )));
        }
    };
    let mut patterns = Vec::new();
    for spec in &p.patterns {
        let column = match spec {
            AuditPatternParam::Substring(s) => AuditPattern::substring(s),
            AuditPatternParam::Spec {
                pattern,
                name,
                regex,
            } => {
                let name = name.as_deref().unwrap_or(pattern);
                if regex.unwrap_or(false) {
                    Ok(AuditPattern::regex_ci(
                        name,
                        pattern,
                        Flavor::PYTHON,
                        Flags::default(),
                        ignore_case,
                    )
                    .unwrap_or_else(|e| AuditPattern::invalid(name, e)))
                } else {
                    AuditPattern::named_substring(name, pattern)
                }
            }
        };
        patterns.push(column.map_err(|e| ToolError::of(tool, &e))?);
    }
    audit::check_names(&patterns).map_err(|e| ToolError::of(tool, &e))?;
    let sources: Vec<PathSource> = p
        .paths
        .iter()
        .map(|path| match roots.map(|r| r.check(Path::new(path))) {
            Some(Err(why)) => PathSource::unusable(path, why),
            // Directories are walked, as the tool's schema says (each file found is checked
            // against the roots again when it is opened).
            _ => PathSource::argument(path),
        })
        .collect();
    let scan = ScanOptions {
        ignore_case,
        // Checked again on each file as opened: a path swapped for a link after the check
        // above, or a link met in a walked directory, is not read.
        within: roots
            .map(|r| r.dirs().map(Path::to_path_buf).collect())
            .unwrap_or_default(),
        ..Default::default()
    };
    let report = audit::audit(&sources, &patterns, &WalkOptions::default(), &scan)
        .map_err(|e| ToolError::of(tool, &e))?;
    let mut text = Vec::new();
    let written = if json_output {
        audit::render::json(&report, &mut text)
    } else {
        audit::render::table(&report, &mut text)
    };
    written
        .map_err(|e| ToolError::new(format!("grep_audit: {e}")).with_kind(crate::ErrorKind::Io))?;
    let text = String::from_utf8_lossy(&text);
    let output = Output {
        text: text.trim_end(),
        usage: &report.usage,
    };
    Ok(serde_json::to_value(output).expect("the usage counters serialize"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A folder holding the file `name` (with `text`) and another holding an empty `root`
    /// folder: the first folder, the file, the second folder and the root.
    #[cfg(unix)]
    fn outside_file_and_root(
        name: &str,
        text: &str,
    ) -> (
        tempfile::TempDir,
        std::path::PathBuf,
        tempfile::TempDir,
        std::path::PathBuf,
    ) {
        let outside = tempfile::tempdir().unwrap();
        let file = outside.path().join(name);
        std::fs::write(&file, text).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        (outside, file, dir, root)
    }

    /// Regression: a link inside the roots answered "dangling symbolic link" when its target
    /// outside was missing and "leads outside" when it existed, telling a caller whether an
    /// outside path exists. Both say the same.
    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_roots_says_the_same_whether_its_target_exists() {
        let (outside, there, _dir, root) = outside_file_and_root("there.txt", "x");
        let to_there = root.join("to-there");
        let to_nothing = root.join("to-nothing");
        std::os::unix::fs::symlink(&there, &to_there).unwrap();
        std::os::unix::fs::symlink(outside.path().join("absent.txt"), &to_nothing).unwrap();
        // Through a linked directory too.
        let linked_dir = root.join("out");
        std::os::unix::fs::symlink(outside.path(), &linked_dir).unwrap();
        let roots = Roots::new(std::slice::from_ref(&root)).unwrap();
        let says = |p: &Path| roots.check(p).unwrap_err();
        assert_eq!(says(&to_there), says(&to_nothing));
        assert_eq!(
            says(&linked_dir.join("there.txt")),
            says(&linked_dir.join("absent.txt"))
        );
        // A dangling link inside the roots that points inside is checked as any missing path.
        let inside_dangling = root.join("to-inside");
        std::os::unix::fs::symlink(root.join("gone.md"), &inside_dangling).unwrap();
        assert_eq!(roots.check(&inside_dangling), Ok(()));
    }

    /// Regression: a directory argument gave a ⚠️ "is a directory" row although the tool's
    /// schema says directories are walked.
    #[test]
    fn a_directory_argument_is_walked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("notes")).unwrap();
        std::fs::write(dir.path().join("notes").join("a.md"), "ACK: yes").unwrap();
        std::fs::write(dir.path().join("notes").join("b.md"), "nothing").unwrap();
        let roots = Roots::new(&[dir.path().to_path_buf()]).unwrap();
        let v = audit_tool_in(
            json!({"paths": [dir.path().join("notes")], "patterns": ["ACK:"], "output": "json"}),
            Some(&roots),
        )
        .unwrap();
        let matrix: Value = serde_json::from_str(v["text"].as_str().unwrap()).unwrap();
        let rows = matrix["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 2, "{matrix}");
        assert!(rows.iter().all(|r| r["error"].is_null()), "{matrix}");
        assert_eq!(v["usage"]["matches_total"], 1);
    }

    #[test]
    fn unreadable_paths_are_null_cells_not_failures() {
        let (dir, a) = crate::testing::temp_file("a.md", "ACK: [WO:7fce46e0]");
        let missing = dir.path().join("missing.md");
        let v = audit_tool(json!({
            "paths": [a, missing],
            "patterns": ["ACK:", {"pattern": "\\[WO:[0-9a-f]+\\]", "name": "wo", "regex": true}, "nope"],
            "output": "json",
        }))
        .unwrap();
        let matrix: Value = serde_json::from_str(v["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            matrix["rows"][0]["matches"],
            json!({"ACK:": true, "wo": true, "nope": false})
        );
        assert_eq!(
            matrix["rows"][1]["matches"],
            json!({"ACK:": null, "wo": null, "nope": null})
        );
        assert_eq!(v["usage"]["matches_total"], 2);
        assert_eq!(v["usage"]["files_scanned"], 2);
        let v = audit_tool(json!({"paths": [a], "patterns": ["ack:"], "case_sensitive": false}))
            .unwrap();
        assert!(v["text"].as_str().unwrap().starts_with("| Path | ack: |"));
        assert!(v["text"].as_str().unwrap().contains("✅"));
    }

    /// Regression: `grep_audit` read any file the server could (`/etc/shadow` × `root` gave
    /// ✅, and with regex columns it was a content oracle). Under roots, a path outside them,
    /// by `..` or through a link, is a warning row and is never read.
    #[cfg(unix)]
    #[test]
    fn paths_outside_the_roots_are_warning_rows_never_read() {
        let (outside, secret, dir, root) = outside_file_and_root("secret.txt", "root:x:0:0");
        let inside = root.join("a.md");
        std::fs::write(&inside, "root here").unwrap();
        let link = root.join("link.txt");
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        let dotdot = root
            .join("..")
            .join("..")
            .join(outside.path().file_name().unwrap())
            .join("secret.txt");
        let roots = Roots::new(std::slice::from_ref(&root)).unwrap();
        let v = audit_tool_in(
            json!({
                "paths": [inside, secret, link, dotdot, root.join("missing.md")],
                "patterns": ["root", {"pattern": "^root:x", "name": "re", "regex": true}],
                "output": "json",
            }),
            Some(&roots),
        )
        .unwrap();
        let matrix: Value = serde_json::from_str(v["text"].as_str().unwrap()).unwrap();
        let rows = matrix["rows"].as_array().unwrap();
        assert_eq!(rows[0]["matches"], json!({"root": true, "re": false}));
        for row in &rows[1..4] {
            assert_eq!(row["matches"], json!({"root": null, "re": null}), "{row}");
            let why = row["error"].to_string();
            crate::testing::assert_has(&why, "outside the server's roots");
        }
        assert!(rows[2]["error"].to_string().contains("symbolic link"));
        // A missing path inside the roots is the usual missing row.
        assert!(
            !rows[4]["error"].to_string().contains("roots"),
            "{}",
            rows[4]
        );
        assert_eq!(v["usage"]["matches_total"], 1);
        // The table shows them as warning cells.
        let v = audit_tool_in(
            json!({"paths": [secret], "patterns": ["root"]}),
            Some(&roots),
        )
        .unwrap();
        let table = v["text"].as_str().unwrap();
        crate::testing::assert_has(table, "⚠️");
        crate::testing::assert_has(table, "outside the server's roots");
        // Without roots (the library's own use) any path is read.
        let v = audit_tool(json!({"paths": [secret], "patterns": ["root"]})).unwrap();
        assert!(v["text"].as_str().unwrap().contains("✅"));
        assert!(Roots::new(&[dir.path().join("nope")]).is_err());
    }

    /// Regression: the roots were checked on the path and the file opened afterwards, so a
    /// path swapped for a link to a file outside the roots between the two was read. The file
    /// is now checked as opened: here the path becomes a link after the check (the audit is
    /// handed the path as if the check had passed), and a walked directory holds a link out.
    #[cfg(unix)]
    #[test]
    fn a_path_that_leads_out_when_opened_is_not_read() {
        use crate::audit::{
            self, AuditPattern, paths::PathSource, paths::WalkOptions, read::ScanOptions,
        };
        let (_outside, secret, _dir, root) = outside_file_and_root("secret.txt", "root:x:0:0");
        let swapped = root.join("a.md");
        std::fs::write(&swapped, "root here").unwrap();
        let roots = Roots::new(std::slice::from_ref(&root)).unwrap();
        assert_eq!(roots.check(&swapped), Ok(()));
        // The swap: the checked file becomes a link out.
        std::fs::remove_file(&swapped).unwrap();
        std::os::unix::fs::symlink(&secret, &swapped).unwrap();
        let inside = root.join("b.md");
        std::fs::write(&inside, "root too").unwrap();
        let scan = ScanOptions {
            within: roots.dirs().map(Path::to_path_buf).collect(),
            threads: 1,
            ..Default::default()
        };
        let patterns = [AuditPattern::substring("root").unwrap()];
        let sources = [
            PathSource::listed(&swapped),
            PathSource::listed(&inside),
            PathSource::argument(&root),
        ];
        let report = audit::audit(&sources, &patterns, &WalkOptions::default(), &scan).unwrap();
        let rows: Vec<(&str, Option<u64>, String)> = report
            .rows
            .iter()
            .map(|r| {
                let why = r
                    .error
                    .as_ref()
                    .map_or(String::new(), |e| e.message.clone());
                (r.path.as_str(), r.cells[0], why)
            })
            .collect();
        assert_eq!(rows[0].1, None, "{rows:?}");
        assert!(rows[0].2.contains("outside the server's roots"), "{rows:?}");
        assert_eq!(rows[1].1, Some(1), "{rows:?}");
        // In the walk: the link (if listed at all) is not read, the plain file is.
        for (path, cell, why) in &rows[2..] {
            if path.ends_with("a.md") {
                assert_eq!(*cell, None, "{rows:?}");
                assert!(why.contains("outside"), "{rows:?}");
            } else {
                assert_eq!(*cell, Some(1), "{rows:?}");
            }
        }
        // Through the tool as well, with the path listed after the swap.
        let v = audit_tool_in(
            json!({"paths": [swapped], "patterns": ["root"], "output": "json"}),
            Some(&roots),
        )
        .unwrap();
        assert!(
            v["text"]
                .as_str()
                .unwrap()
                .contains("outside the server's roots")
        );
        assert_eq!(v["usage"]["matches_total"], 0);
    }

    #[test]
    fn no_patterns_is_a_clear_error_not_a_broken_table() {
        let e = audit_tool(json!({"paths": ["x"], "patterns": []})).unwrap_err();
        assert!(e.text.starts_with("grep_audit: no patterns"), "{e}");
    }

    #[test]
    fn files_scanned_is_len_paths_with_unreadable_ones() {
        let (dir, a) = crate::testing::temp_file("a.md", "x");
        let v = audit_tool(json!({
            "paths": [a, dir.path().join("missing"), dir.path().join("gone")],
            "patterns": ["x"],
        }))
        .unwrap();
        assert_eq!(v["usage"]["files_scanned"], 3);
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(
            audit_tool(json!({"paths": [], "patterns": [""]}))
                .unwrap_err()
                .text
                .contains("empty substring")
        );
        assert!(
            audit_tool(json!({"paths": []}))
                .unwrap_err()
                .text
                .starts_with("grep_audit: invalid arguments")
        );
    }
}
