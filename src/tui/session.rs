//! Never lose work: the session (pattern, flags, flavor, replacement, tests, typed input) is
//! saved atomically to rxw's state directory and restored on the next start.
//!
//! Typed input up to [`MAX_INLINE_INPUT`] sits in `session.json` itself; a larger one is
//! written to its own file beside it ([`INPUT_FILE`]), named in `session.json`, so the JSON
//! stays small and the big text is only rewritten when it changed. Both files are written to a
//! temporary file and renamed, the input file first, so a crash leaves a consistent pair. A
//! `session.json` that cannot be parsed is moved aside to `session.json.bad` (not overwritten
//! by the next save) and said once in the status bar.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Typed input up to this size is kept inside `session.json`; larger input goes to
/// [`INPUT_FILE`].
pub const MAX_INLINE_INPUT: usize = 4 << 20;

/// The file beside `session.json` that holds typed input larger than [`MAX_INLINE_INPUT`].
pub const INPUT_FILE: &str = "session.input";

/// What is saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Session {
    /// The pattern.
    pub pattern: String,
    /// Flavor name.
    pub flavor: String,
    /// Flag letters.
    pub flags: String,
    /// The replacement template.
    #[serde(default)]
    pub replacement: String,
    /// The test lines.
    #[serde(default)]
    pub tests: String,
    /// Hand-typed input, when the input was typed or edited (of any size).
    #[serde(default)]
    pub input: Option<String>,
    /// The preset last loaded.
    #[serde(default)]
    pub preset: Option<String>,
    /// Patterns used before, per flavor family, oldest first (Up, Down and Ctrl-R in the
    /// pattern pane).
    #[serde(default)]
    pub histories: BTreeMap<String, Vec<String>>,
    /// The history as sessions before per-family histories kept it (read, never written):
    /// the saved flavor's family takes it.
    #[serde(default, skip_serializing)]
    pub history: Vec<String>,
    /// Bookmarked lines (from 0) per input: `file:PATH`, `demo` or `typed`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bookmarks: BTreeMap<String, Vec<usize>>,
}

impl Session {
    /// Each family's earlier patterns, an older session's single list under its flavor's
    /// family.
    pub fn histories(&self) -> BTreeMap<String, Vec<String>> {
        let mut all = self.histories.clone();
        if !self.history.is_empty() {
            let family = self
                .flavor
                .parse::<crate::Flavor>()
                .map_or("python", |f| f.family_name());
            let list = all.entry(family.to_string()).or_default();
            let newer = std::mem::take(list);
            *list = self.history.clone();
            list.extend(newer);
        }
        all
    }
}

/// `session.json` as stored: the session, with a large input moved to its own file.
#[derive(Serialize, Deserialize)]
struct Stored {
    #[serde(flatten)]
    session: Session,
    /// The file (beside `session.json`) holding the input, when it is too large to inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    input_file: Option<String>,
}

impl Session {
    /// The session of `app`.
    pub fn of(app: &super::app::App) -> Session {
        let wb = &app.wb;
        let typed = wb.source == crate::workbench::InputSource::Typed || wb.input.edited();
        Session {
            pattern: wb.pattern.text().to_string(),
            flavor: wb.flavor.name().to_string(),
            flags: wb.flags.letters(wb.flavor),
            replacement: wb.replacement.text().to_string(),
            tests: wb.tests.text().to_string(),
            input: typed.then(|| wb.input.text().to_string()),
            preset: wb.preset.clone(),
            histories: app.history.families().clone(),
            history: Vec::new(),
            bookmarks: app
                .bookmarks
                .iter()
                .filter(|(_, lines)| !lines.is_empty())
                .map(|(k, lines)| (k.clone(), lines.iter().copied().collect()))
                .collect(),
        }
    }
}

/// `$XDG_STATE_HOME/rxw/session.json`, else `~/.local/state/rxw/session.json`.
pub fn default_path() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_STATE_HOME") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".local/state"),
    };
    Some(base.join("rxw").join("session.json"))
}

/// Where the session is saved, and which input revision its input file already holds.
#[derive(Debug, Clone)]
pub struct SessionStore {
    path: PathBuf,
    /// The input revision written to [`INPUT_FILE`] by this store, so an unchanged large
    /// input is not rewritten every few seconds.
    input_written: Option<u64>,
}

impl SessionStore {
    /// A store saving to `path` (`session.json`).
    pub fn new(path: PathBuf) -> SessionStore {
        SessionStore {
            path,
            input_written: None,
        }
    }

    /// The path of `session.json`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Saves the session of `app`.
    ///
    /// # Errors
    /// When the directory cannot be created or a file written.
    pub fn save_app(&mut self, app: &super::app::App) -> std::io::Result<()> {
        self.save(&Session::of(app), Some(app.wb.input.revision()))
    }

    /// Saves `session`. `input_revision` identifies the input's text: a large input already
    /// written at that revision is not written again (`None` always writes it).
    ///
    /// # Errors
    /// When the directory cannot be created or a file written.
    pub fn save(&mut self, session: &Session, input_revision: Option<u64>) -> std::io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new(".")).to_path_buf();
        std::fs::create_dir_all(&dir)?;
        let input_path = dir.join(INPUT_FILE);
        let large = session
            .input
            .as_ref()
            .filter(|i| i.len() > MAX_INLINE_INPUT);
        let stored = match large {
            Some(input) => {
                let unchanged = input_revision.is_some()
                    && self.input_written == input_revision
                    && input_path.exists();
                if !unchanged {
                    self.input_written = None;
                    write_atomically(&input_path, input.as_bytes())?;
                    self.input_written = input_revision;
                }
                Stored {
                    session: Session {
                        input: None,
                        ..session.clone()
                    },
                    input_file: Some(INPUT_FILE.to_string()),
                }
            }
            None => Stored {
                session: session.clone(),
                input_file: None,
            },
        };
        let json = serde_json::to_string_pretty(&stored).map_err(std::io::Error::other)?;
        write_atomically(&self.path, json.as_bytes())?;
        if large.is_none() && input_path.exists() {
            // The input shrank (or is no longer typed): the old large copy is not wanted.
            std::fs::remove_file(&input_path)?;
            self.input_written = None;
        }
        Ok(())
    }
}

/// Writes `session` to `path` atomically (see [`SessionStore::save`]).
///
/// # Errors
/// When the directory cannot be created or a file written.
pub fn save(path: &Path, session: &Session) -> std::io::Result<()> {
    SessionStore::new(path.to_path_buf()).save(session, None)
}

/// Writes `bytes` to `path` with the one atomic writer: a crash leaves either the old or
/// the new contents.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::export::write_atomically(path, bytes).map_err(|e| std::io::Error::other(e.message))
}

/// What loading the saved session found.
#[derive(Debug, Default)]
pub struct Restored {
    /// The session, when there was a readable one.
    pub session: Option<Session>,
    /// Something to say once in the status bar: a corrupt session moved aside, an input file
    /// that could not be read.
    pub notice: Option<String>,
}

/// Reads the session at `path`. A file that is not a session is moved aside to
/// `session.json.bad` (so the next save does not destroy it) and said in the notice.
pub fn load(path: &Path) -> Restored {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Restored::default(),
        Err(e) => {
            return Restored {
                session: None,
                notice: Some(format!(
                    "could not read the saved session {}: {e}",
                    path.display()
                )),
            };
        }
    };
    let stored: Stored = match serde_json::from_slice(&bytes) {
        Ok(s) => s,
        Err(e) => {
            let bad = path.with_file_name(format!(
                "{}.bad",
                path.file_name()
                    .map_or_else(|| "session.json".into(), |n| n.to_string_lossy())
            ));
            let notice = match std::fs::rename(path, &bad) {
                Ok(()) => format!(
                    "the saved session was corrupt ({e}); moved it to {} and started without it",
                    bad.display()
                ),
                Err(mv) => format!(
                    "the saved session {} is corrupt ({e}) and could not be moved aside ({mv}); the next save replaces it",
                    path.display()
                ),
            };
            return Restored {
                session: None,
                notice: Some(notice),
            };
        }
    };
    let mut session = stored.session;
    let mut notice = None;
    if let Some(name) = stored.input_file {
        // Only a file name beside session.json, never a path elsewhere.
        let input_path = Path::new(&name).file_name().map(|n| path.with_file_name(n));
        match input_path.map(|p| (std::fs::read(&p), p)) {
            Some((Ok(bytes), _)) => {
                session.input = Some(String::from_utf8_lossy(&bytes).into_owned());
            }
            Some((Err(e), p)) => {
                notice = Some(format!(
                    "the saved input {} could not be read ({e}); started without it",
                    p.display()
                ));
            }
            None => notice = Some(format!("the saved session names no input file: {name:?}")),
        }
    }
    Restored {
        session: Some(session),
        notice,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn save_then_load_round_trips_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/rxw/session.json");
        let s = Session {
            pattern: r"\d+".into(),
            flavor: "js".into(),
            flags: "gi".into(),
            replacement: "$1".into(),
            tests: "+ 12\n- x".into(),
            input: Some("typed".into()),
            preset: None,
            histories: [("js".to_string(), vec!["CLAIM".to_string()])].into(),
            history: Vec::new(),
            bookmarks: [("demo".to_string(), vec![3, 17])].into(),
        };
        save(&path, &s).unwrap();
        let restored = load(&path);
        assert_eq!(restored.session, Some(s.clone()));
        assert_eq!(restored.notice, None);
        assert_eq!(names(path.parent().unwrap()), vec!["session.json"]);
    }

    /// A session saved before histories were kept per flavor family gives its one list to
    /// its flavor's family, older than what that family already has.
    #[test]
    fn an_older_sessions_single_history_goes_to_its_flavors_family() {
        let old: Session = serde_json::from_str(
            r#"{"pattern":"x","flavor":"js@node22","flags":"","history":["a","b"]}"#,
        )
        .unwrap();
        assert_eq!(
            old.histories(),
            [("js".to_string(), vec!["a".to_string(), "b".to_string()])].into()
        );
        let json = serde_json::to_string(&old).unwrap();
        assert!(!json.contains(r#""history""#), "never written: {json}");
    }

    /// Regression: typed input above 4 MiB used to be saved as `"input": null`, and the next
    /// start showed the demo instead.
    #[test]
    fn typed_input_above_4_mib_is_saved_beside_the_session_and_restored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session.json");
        let big = "[CLAIM 7fce46e0] typed by hand\n".repeat((MAX_INLINE_INPUT / 31) + 10);
        assert!(big.len() > MAX_INLINE_INPUT);
        let s = Session {
            pattern: "CLAIM".into(),
            flavor: "python".into(),
            input: Some(big.clone()),
            ..Default::default()
        };
        let mut store = SessionStore::new(path.clone());
        store.save(&s, Some(7)).unwrap();
        assert_eq!(names(dir.path()), vec!["session.input", "session.json"]);
        let json = std::fs::read_to_string(&path).unwrap();
        assert!(
            json.len() < 4096,
            "the JSON stays small: {} bytes",
            json.len()
        );
        assert!(json.contains(r#""input_file": "session.input""#), "{json}");
        let restored = load(&path);
        assert_eq!(restored.notice, None);
        assert_eq!(
            restored.session.as_ref().unwrap().input.as_deref(),
            Some(big.as_str())
        );
        assert_eq!(restored.session, Some(s.clone()));

        // The same revision is not written again; a new one is.
        std::fs::write(dir.path().join(INPUT_FILE), "marker").unwrap();
        store.save(&s, Some(7)).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join(INPUT_FILE)).unwrap(),
            "marker"
        );
        store.save(&s, Some(8)).unwrap();
        assert_eq!(load(&path).session, Some(s.clone()));

        // Small again: inline, and the large copy is removed.
        let small = Session {
            input: Some("short".into()),
            ..s
        };
        store.save(&small, Some(9)).unwrap();
        assert_eq!(names(dir.path()), vec!["session.json"]);
        assert_eq!(load(&path).session, Some(small));
    }

    #[test]
    fn a_missing_input_file_restores_the_rest_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session.json");
        let s = Session {
            pattern: "x".into(),
            input: Some("y".repeat(MAX_INLINE_INPUT + 1)),
            ..Default::default()
        };
        save(&path, &s).unwrap();
        std::fs::remove_file(dir.path().join(INPUT_FILE)).unwrap();
        let restored = load(&path);
        assert_eq!(restored.session.as_ref().unwrap().pattern, "x");
        assert_eq!(restored.session.unwrap().input, None);
        assert!(restored.notice.unwrap().contains("could not be read"));
    }

    /// Regression: a corrupt `session.json` used to be ignored silently and overwritten by
    /// the next save.
    #[test]
    fn a_corrupt_session_is_moved_aside_to_bad_and_said_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session.json");
        std::fs::write(&path, "{ not json").unwrap();
        let restored = load(&path);
        assert_eq!(restored.session, None);
        let notice = restored.notice.expect("the corruption is said");
        assert!(
            notice.contains("corrupt") && notice.contains("session.json.bad"),
            "{notice}"
        );
        assert_eq!(names(dir.path()), vec!["session.json.bad"]);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("session.json.bad")).unwrap(),
            "{ not json"
        );
        let again = load(&path);
        assert!(
            again.session.is_none() && again.notice.is_none(),
            "said once"
        );
    }
}
