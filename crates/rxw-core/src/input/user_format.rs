//! Log formats as data: the user's own, one TOML file each (like lnav's format files, minimal).
//!
//! ```toml
//! name = "web"                       # what `--format` and `--json` call it
//! description = "our web tier"       # optional
//! line = '(?P<time>\S+ \S+) \[(?P<level>\w+)\] (?P<sender>[\w.-]+): (?P<message>.*)'
//! continuation = '\s'                # optional: a line that continues the record before it
//! ```
//!
//! Both patterns are in rxw's `python` flavor and are matched at the start of a line (as
//! Python's `re.match`), without its line break. A line that matches `line` begins a record;
//! one that matches `continuation` (when there is one, and a record is open) continues it;
//! any other line is no record, counted and said. The named groups `time`, `sender`, `level`
//! and `message` are the record's fields; the message runs from the start of the `message`
//! group (the line's start without one) to the group's end, or to the record's end when
//! continuation lines follow. It is a stretch of the file, so hits have the file's offsets.
//!
//! The user's formats are every `*.toml` in `formats/` under the config directory
//! ([`crate::presets::load::config_dir`]); `--format FILE.toml` loads one more. A format is
//! registered once and named by a [`UserFormatId`], so that [`super::format::LogFormat`]
//! stays `Copy`. A file that does not load is an error naming the file, line and column,
//! never skipped: a format decides what every record is, and reading a log by another one
//! would give other answers without a word.

use crate::engine::{Match, MatchOptions, Regex};
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use crate::presets::load::SourceFile;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::{OnceLock, RwLock};

/// A user format's place in the process's registry of formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UserFormatId(u32);

/// A log format read from a TOML file.
#[derive(Debug)]
pub struct UserFormat {
    /// Its name.
    pub name: &'static str,
    /// Its description, if the file gives one.
    pub description: Option<String>,
    /// The file it was read from.
    pub path: PathBuf,
    /// Whether it was found in the config directory (detection tries those).
    pub from_config: bool,
    line: Regex,
    continuation: Option<Regex>,
    /// The indices of the `time`, `sender`, `level` and `message` groups of `line`.
    groups: [Option<usize>; 4],
}

/// The fields of a record of a user format: byte ranges of its first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UserFields {
    /// The `time` group.
    pub time: Option<(usize, usize)>,
    /// The `sender` group.
    pub sender: Option<(usize, usize)>,
    /// The `level` group.
    pub level: Option<(usize, usize)>,
    /// The `message` group.
    pub message: Option<(usize, usize)>,
}

/// The field group names, in the order of [`UserFormat`]'s `groups`.
pub const FIELD_GROUPS: [&str; 4] = ["time", "sender", "level", "message"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFormat {
    name: toml::Spanned<String>,
    #[serde(default)]
    description: Option<String>,
    line: toml::Spanned<String>,
    #[serde(default)]
    continuation: Option<toml::Spanned<String>>,
}

impl UserFormat {
    /// The match of `line` at the start of `text` (one line without its break).
    pub fn line_match(&self, text: &str) -> Option<Match> {
        anchored(&self.line, text)
    }

    /// Whether `text` (one line without its break) continues the record before it.
    pub fn continues(&self, text: &str) -> bool {
        self.continuation
            .as_ref()
            .is_some_and(|c| anchored(c, text).is_some())
    }

    /// The fields of `text` (a record's first line without its break), when it matches.
    pub fn fields(&self, text: &str) -> Option<UserFields> {
        let m = self.line_match(text)?;
        let span = |k: Option<usize>| k.and_then(|k| m.groups.get(k).copied().flatten());
        let [time, sender, level, message] = self.groups;
        Some(UserFields {
            time: span(time),
            sender: span(sender),
            level: span(level),
            message: span(message),
        })
    }

    /// Whether it has a continuation pattern.
    pub fn has_continuation(&self) -> bool {
        self.continuation.is_some()
    }
}

/// The first match of `re` on `text` when it starts at byte 0.
fn anchored(re: &Regex, text: &str) -> Option<Match> {
    match re.matches(text, MatchOptions::default()).next()? {
        Ok(m) if m.start() == 0 => Some(m),
        _ => None,
    }
}

/// Reads a format from `text`; `name` is what errors call the file.
///
/// # Errors
/// [`ErrorKind::RegistryInvalid`], `file:line:column: what is wrong` with a caret under the
/// place: a TOML syntax error, a missing or unknown key, an empty name or one that is a
/// built-in format's, a pattern that does not compile.
pub fn load_str(text: &str, name: &str, path: &Path) -> Result<UserFormat, Error> {
    let src = SourceFile { name, text };
    let raw: RawFormat =
        toml::from_str(text).map_err(|e| src.error(e.span(), e.message().trim()))?;
    let format_name = raw.name.get_ref().trim();
    if format_name.is_empty()
        || !format_name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
    {
        return Err(src.error(
            Some(raw.name.span()),
            "a format's name is letters, digits, `_`, `-` and `.`, and not empty",
        ));
    }
    if RESERVED_NAMES.contains(&format_name.to_ascii_lowercase().as_str()) {
        return Err(src.error(
            Some(raw.name.span()),
            format!("`{format_name}` is a built-in format's name: choose another"),
        ));
    }
    let compile = |field: &str, p: &toml::Spanned<String>| {
        Regex::new(p.get_ref(), Flavor::PYTHON, Flags::default()).map_err(|e| {
            let at = match e.span {
                Some(span) => pattern_span(text, p, span.start..span.end),
                None => p.span(),
            };
            src.error(
                Some(at),
                format!(
                    "`{field}` is not a pattern rxw's python flavor compiles: {}",
                    e.message
                ),
            )
        })
    };
    let line = compile("line", &raw.line)?;
    let continuation = raw
        .continuation
        .as_ref()
        .map(|c| compile("continuation", c))
        .transpose()?;
    let groups = FIELD_GROUPS.map(|g| {
        line.group_names()
            .iter()
            .position(|n| n.as_deref() == Some(g))
            .map(|k| k + 1)
    });
    Ok(UserFormat {
        name: Box::leak(format_name.to_string().into_boxed_str()),
        description: raw.description,
        path: path.to_path_buf(),
        from_config: false,
        line,
        continuation,
        groups,
    })
}

/// Where `within` (a span of the pattern `p`) stands in the file: inside the string when it
/// is written as is (no escapes), else the whole value.
fn pattern_span(
    text: &str,
    p: &toml::Spanned<String>,
    within: std::ops::Range<usize>,
) -> std::ops::Range<usize> {
    let whole = p.span();
    let written = text.get(whole.clone()).unwrap_or("");
    let quote = if written.starts_with("'''") || written.starts_with("\"\"\"") {
        3
    } else {
        1
    };
    let inner = written.get(quote..written.len().saturating_sub(quote));
    if inner == Some(p.get_ref().as_str()) && within.end <= p.get_ref().len() {
        let at = whole.start + quote;
        at + within.start..at + within.end.max(within.start + 1)
    } else {
        whole
    }
}

/// The names the built-in formats answer to (`--format` reads them first), which a user
/// format cannot take. `format.rs` holds the formats; a test there keeps this list equal to
/// what `LogFormat::built_in_named` accepts.
pub const RESERVED_NAMES: &[&str] = &[
    "netvm",
    "jsonl",
    "lines",
    "logfmt",
    "syslog",
    "json",
    "jsonlines",
    "json-lines",
    "ndjson",
    "text",
    "raw",
    "agent",
    "rfc3164",
    "rfc5424",
];

/// Every format loaded so far; a format is never removed, so an id stays valid.
static REGISTRY: RwLock<Vec<&'static UserFormat>> = RwLock::new(Vec::new());

fn register(format: UserFormat) -> UserFormatId {
    let mut all = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    all.push(Box::leak(Box::new(format)));
    UserFormatId(u32::try_from(all.len() - 1).expect("fewer than 2^32 formats"))
}

/// The format registered as `id`.
pub fn get(id: UserFormatId) -> &'static UserFormat {
    let all = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    all[id.0 as usize]
}

/// Reads a format file and registers it (a file already registered is not read again).
///
/// # Errors
/// [`ErrorKind::Io`] when it cannot be read; what [`load_str`] says.
pub fn load_file(path: &Path) -> Result<UserFormatId, Error> {
    {
        let all = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = all.iter().position(|f| f.path == path) {
            return Ok(UserFormatId(k as u32));
        }
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))?;
    let format = load_str(&text, &path.display().to_string(), path)?;
    Ok(register(format))
}

/// A format file `name` holding `toml`, written in a new temporary folder and registered: the
/// folder (removed when dropped), the file's path and the format.
#[cfg(test)]
pub(crate) fn written_for_tests(
    name: &str,
    toml: &str,
) -> (tempfile::TempDir, std::path::PathBuf, UserFormatId) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, toml).unwrap();
    let id = load_file(&path).unwrap();
    (dir, path, id)
}

/// The formats of the config directory, and the files there that did not load.
#[derive(Debug, Default)]
pub struct Configured {
    /// The formats, in the order of their files' names.
    pub formats: Vec<UserFormatId>,
    /// Why each file that did not load did not.
    pub errors: Vec<Error>,
    /// The directory they were read from.
    pub dir: Option<PathBuf>,
}

impl Configured {
    /// The format called `name` (ASCII case ignored).
    pub fn find(&self, name: &str) -> Option<UserFormatId> {
        self.formats
            .iter()
            .copied()
            .find(|&id| get(id).name.eq_ignore_ascii_case(name))
    }

    /// Reads every `*.toml` in `dir`, sorted by name, and registers the formats that load.
    pub fn read(dir: &Path) -> Configured {
        let mut out = Configured {
            dir: Some(dir.to_path_buf()),
            ..Configured::default()
        };
        let Ok(rd) = std::fs::read_dir(dir) else {
            return out;
        };
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().and_then(|e| e.to_str()) == Some("toml"))
            .collect();
        files.sort();
        for path in files {
            let loaded = std::fs::read_to_string(&path)
                .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))
                .and_then(|text| load_str(&text, &path.display().to_string(), &path));
            match loaded {
                Ok(mut f) => {
                    if let Some(other) = out.find(f.name) {
                        out.errors.push(Error::new(
                            ErrorKind::RegistryInvalid,
                            format!(
                                "{}: the format `{}` is defined twice, here and in {}",
                                path.display(),
                                f.name,
                                get(other).path.display()
                            ),
                        ));
                        continue;
                    }
                    f.from_config = true;
                    out.formats.push(register(f));
                }
                Err(e) => out.errors.push(e),
            }
        }
        out
    }
}

/// The user's formats: `formats/*.toml` in the config directory, read once per process.
pub fn configured() -> &'static Configured {
    static CONFIGURED: OnceLock<Configured> = OnceLock::new();
    CONFIGURED.get_or_init(|| match crate::presets::load::config_dir() {
        Some(dir) => Configured::read(&dir.join("formats")),
        None => Configured::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEB: &str = "name = \"web\"\nline = '(?P<time>\\d\\d:\\d\\d) \\[(?P<level>\\w+)\\] (?P<sender>\\w+): (?P<message>.*)'\ncontinuation = '\\s'\n";

    #[test]
    fn a_format_file_gives_fields_and_continuations() {
        let f = load_str(WEB, "web.toml", Path::new("web.toml")).unwrap();
        assert_eq!(f.name, "web");
        let line = "12:00 [warn] api: disk at 91%";
        let fields = f.fields(line).unwrap();
        let at = |r: Option<(usize, usize)>| r.map(|(s, e)| &line[s..e]);
        assert_eq!(at(fields.time), Some("12:00"));
        assert_eq!(at(fields.level), Some("warn"));
        assert_eq!(at(fields.sender), Some("api"));
        assert_eq!(at(fields.message), Some("disk at 91%"));
        // Matched at the line's start only.
        assert_eq!(f.line_match(&format!("x {line}")), None);
        assert!(f.continues("  more"));
        assert!(!f.continues(line));
    }

    #[test]
    fn a_broken_format_file_is_said_with_its_line_and_column() {
        let e = load_str(
            "name = \"x\"\nline = '(unclosed'\n",
            "bad.toml",
            Path::new("bad.toml"),
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::RegistryInvalid);
        crate::testing::assert_message_starts(&e, "bad.toml:2:9: `line` is not a pattern");
        let e = load_str(
            "name = \"x\"\nline = 'a'\ncolour = 1\n",
            "bad.toml",
            Path::new("b"),
        )
        .unwrap_err();
        crate::testing::assert_message_starts(&e, "bad.toml:3:1: unknown field `colour`");
        let e = load_str("name = \"x\"\nline = 'a\n", "bad.toml", Path::new("b")).unwrap_err();
        crate::testing::assert_message_starts(&e, "bad.toml:2:");
        let e = load_str("line = 'a'\n", "bad.toml", Path::new("b")).unwrap_err();
        crate::testing::assert_message_has(&e, "missing field `name`");
        let e = load_str("name = \"syslog\"\nline = 'a'\n", "s.toml", Path::new("b")).unwrap_err();
        crate::testing::assert_message_has(&e, "built-in format");
    }

    #[test]
    fn the_config_directory_s_formats_are_read_in_order_and_a_broken_one_is_said() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b-web.toml"), WEB).unwrap();
        std::fs::write(
            dir.path().join("a-db.toml"),
            "name = \"db\"\nline = 'DB '\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("c-again.toml"), WEB).unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a format").unwrap();
        let c = Configured::read(dir.path());
        let names: Vec<&str> = c.formats.iter().map(|&id| get(id).name).collect();
        assert_eq!(names, ["db", "web"]);
        assert_eq!(c.errors.len(), 1);
        assert!(
            c.errors[0].message.contains("defined twice"),
            "{:?}",
            c.errors
        );
        assert_eq!(c.find("WEB"), Some(c.formats[1]));
        assert_eq!(get(c.formats[1]).path, dir.path().join("b-web.toml"));
    }
}
