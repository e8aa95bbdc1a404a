//! Never lose work: the session (pattern, flags, flavor, replacement, tests, typed input) is
//! saved atomically to rxw's state directory and restored on the next start.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Typed input larger than this is not saved (it came from somewhere the user still has).
const MAX_SAVED_INPUT: usize = 4 << 20;

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
    /// Hand-typed input, when the input was typed or edited.
    #[serde(default)]
    pub input: Option<String>,
    /// The preset last loaded.
    #[serde(default)]
    pub preset: Option<String>,
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
            input: (typed && wb.input.text().len() <= MAX_SAVED_INPUT)
                .then(|| wb.input.text().to_string()),
            preset: wb.preset.clone(),
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

/// Writes `session` to `path` atomically: a temporary file in the same directory, synced,
/// then renamed over the old one, so a crash leaves either the old or the new session.
///
/// # Errors
/// When the directory cannot be created or the file written.
pub fn save(path: &Path, session: &Session) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".session.json.{}.tmp", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(
            serde_json::to_string_pretty(session)
                .map_err(std::io::Error::other)?
                .as_bytes(),
        )?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Reads the session at `path`; `None` when there is none or it is unreadable.
pub fn load(path: &Path) -> Option<Session> {
    let s = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        };
        save(&path, &s).unwrap();
        assert_eq!(load(&path), Some(s.clone()));
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("session.json")]);
        std::fs::write(&path, "{ not json").unwrap();
        assert_eq!(load(&path), None);
    }
}
