//! Loading registries: the embedded NetVM one, user files (TOML or JSON), the XDG config dir.
//!
//! A registry file is a table with optional `name` and `description` and a `preset` array.
//! Every preset is validated when loaded: known fields only, a known flavor, valid flag
//! letters, a pattern that compiles, described groups and example groups that exist, and a
//! key that is not defined twice in the file. Any problem rejects the whole file with one
//! error that says `file:line:column: what is wrong` (TOML errors point at the exact byte;
//! JSON syntax errors too, JSON validation errors name the preset). A rejected file never
//! takes the built-in presets down with it: [`load`] collects per-file errors beside the
//! catalog it could build.

use super::model::{Catalog, Entry, Example, GroupDoc, Origin, Preset};
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use crate::syntax::ast::Span;
use crate::syntax::parse::parse;
use serde::Deserialize;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The NetVM registry, embedded in the binary.
pub const NETVM_TOML: &str = include_str!("../../../../assets/presets/netvm.toml");

/// The file format of a registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// TOML (`.toml`).
    Toml,
    /// JSON (`.json`).
    Json,
}

impl Format {
    /// The format for a file name: `.json` is JSON, anything else TOML.
    pub fn for_path(path: &Path) -> Format {
        if crate::extension_is(path, "json") {
            Format::Json
        } else {
            Format::Toml
        }
    }
}

/// A string field that may know where it stands in the source (TOML) or not (JSON).
trait Located {
    fn value(&self) -> &str;
    fn at(&self) -> Option<Range<usize>>;
}

impl Located for String {
    fn value(&self) -> &str {
        self
    }
    fn at(&self) -> Option<Range<usize>> {
        None
    }
}

impl Located for toml::Spanned<String> {
    fn value(&self) -> &str {
        self.get_ref()
    }
    fn at(&self) -> Option<Range<usize>> {
        Some(self.span())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRegistry<S> {
    #[serde(default)]
    #[allow(dead_code)]
    name: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    #[serde(default = "Vec::new")]
    preset: Vec<RawPreset<S>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPreset<S> {
    key: S,
    #[serde(default)]
    purpose: String,
    flavor: S,
    flags: Option<S>,
    pattern: S,
    #[serde(default)]
    notes: Option<String>,
    #[serde(default)]
    groups: Vec<GroupDoc>,
    #[serde(default)]
    examples: Vec<Example>,
    #[serde(default)]
    counter_examples: Vec<String>,
}

/// Where errors in one source point: the file's name and text.
pub(crate) struct SourceFile<'a> {
    pub(crate) name: &'a str,
    pub(crate) text: &'a str,
}

impl SourceFile<'_> {
    /// `name:line:col: msg`, with the offending line and a caret under `at` when known.
    pub(crate) fn error(&self, at: Option<Range<usize>>, msg: impl AsRef<str>) -> Error {
        let Some(at) = at else {
            return Error::new(
                ErrorKind::RegistryInvalid,
                format!("{}: {}", self.name, msg.as_ref()),
            );
        };
        let start = floor_char(self.text, at.start.min(self.text.len()));
        let end = floor_char(self.text, at.end.clamp(start, self.text.len()));
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        let line = self.text[..start].matches('\n').count() + 1;
        let col = self.text[line_start..start].chars().count() + 1;
        let shown = &self.text[line_start..line_end];
        let span = Span::new(
            start - line_start,
            end.min(line_end).max(start) - line_start,
        );
        Error::new(
            ErrorKind::RegistryInvalid,
            format!("{}:{line}:{col}: {}", self.name, msg.as_ref()),
        )
        .with_span_in(shown, Some(span))
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Loads a registry from text; `name` is what errors call the source (a path, `built-in`).
///
/// # Errors
/// [`ErrorKind::RegistryInvalid`], `name:line:column: what is wrong`, for a syntax error, an
/// unknown field, an unknown flavor or flag, a pattern that does not compile, a duplicate key,
/// or a group name that the pattern does not have.
pub fn load_str(
    text: &str,
    format: Format,
    name: &str,
    origin: Origin,
) -> Result<Vec<Entry>, Error> {
    let src = SourceFile { name, text };
    match format {
        Format::Toml => {
            let raw: RawRegistry<toml::Spanned<String>> =
                toml::from_str(text).map_err(|e| src.error(e.span(), e.message().trim()))?;
            validate(raw, &src, origin)
        }
        Format::Json => {
            let raw: RawRegistry<String> = serde_json::from_str(text).map_err(|e| {
                let msg = e.to_string();
                let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
                let offset = offset_of(text, e.line(), e.column());
                src.error(Some(offset..offset + 1), msg)
            })?;
            validate(raw, &src, origin)
        }
    }
}

/// Byte offset of a 1-based line and column (serde_json's column counts bytes).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(text.len())
}

/// Reads and loads a registry file, TOML or JSON by extension.
///
/// # Errors
/// [`ErrorKind::RegistryInvalid`] as for [`load_str`]; [`ErrorKind::Io`] when the file cannot
/// be read.
pub fn load_file(path: &Path) -> Result<Vec<Entry>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))?;
    load_str(
        &text,
        Format::for_path(path),
        &path.display().to_string(),
        Origin::File(path.to_path_buf()),
    )
}

/// The embedded NetVM presets.
///
/// # Panics
/// Never in a released build: the embedded registry is validated by the test suite.
pub fn builtin() -> Vec<Entry> {
    load_str(
        NETVM_TOML,
        Format::Toml,
        "built-in netvm.toml",
        Origin::BuiltIn,
    )
    .expect("the embedded registry is valid")
}

fn validate<S: Located>(
    raw: RawRegistry<S>,
    src: &SourceFile<'_>,
    origin: Origin,
) -> Result<Vec<Entry>, Error> {
    let mut seen: HashMap<String, Option<Range<usize>>> = HashMap::new();
    let mut out = Vec::with_capacity(raw.preset.len());
    for (n, p) in raw.preset.into_iter().enumerate() {
        let key = p.key.value().to_string();
        // JSON has no spans: name the preset instead.
        let whose = |what: &str| {
            if p.key.at().is_some() {
                what.to_string()
            } else {
                format!("preset #{} \"{key}\": {what}", n + 1)
            }
        };
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(src.error(
                p.key.at(),
                whose(&format!(
                    "invalid key {key:?}: use letters, digits, _ and -"
                )),
            ));
        }
        if let Some(first) = seen.get(&key) {
            let where_first = first.as_ref().map_or(String::new(), |r| {
                format!(
                    " (first defined on line {})",
                    src.text[..r.start].matches('\n').count() + 1
                )
            });
            return Err(src.error(
                p.key.at(),
                whose(&format!("duplicate key \"{key}\"{where_first}")),
            ));
        }
        seen.insert(key.clone(), p.key.at());
        let flavor: Flavor = p
            .flavor
            .value()
            .parse()
            .map_err(|e: String| src.error(p.flavor.at(), whose(&e)))?;
        let flag_letters = p.flags.as_ref().map_or("", |f| f.value());
        let flags = Flags::parse(flag_letters, flavor).map_err(|e| {
            let at = inner_span(
                src.text,
                p.flags.as_ref().and_then(Located::at),
                flag_letters,
                e.span,
            );
            src.error(
                at,
                whose(&format!(
                    "{} for {flavor} (its flag letters are {})",
                    e.message,
                    flavor.flag_letters()
                )),
            )
        })?;
        let pattern = p.pattern.value();
        // Parsed, not compiled: the engines are built when the preset is first run.
        let ast = parse(pattern, flavor, flags).map_err(|e| {
            let at = inner_span(src.text, p.pattern.at(), pattern, e.span);
            src.error(
                at,
                whose(&format!("pattern does not compile: {}", e.message)),
            )
        })?;
        let names: Vec<&str> = ast
            .groups
            .iter()
            .filter_map(|g| g.name.as_deref())
            .collect();
        let unknown_group = |name: &str, role: &str| -> Result<(), Error> {
            if names.contains(&name) {
                Ok(())
            } else {
                Err(src.error(
                    p.key.at(),
                    whose(&format!("{role} names group \"{name}\", which the pattern of \"{key}\" does not have (its groups: {})", names.join(", "))),
                ))
            }
        };
        for g in &p.groups {
            unknown_group(&g.name, "a group description")?;
        }
        for ex in &p.examples {
            for name in ex.groups.keys().chain(ex.unset.iter()) {
                unknown_group(name, "an example")?;
            }
        }
        let preset = Preset {
            key,
            purpose: p.purpose,
            flavor,
            flags: flags.letters(flavor),
            pattern: pattern.to_string(),
            notes: p.notes,
            groups: p.groups,
            examples: p.examples,
            counter_examples: p.counter_examples,
        };
        out.push(Entry::new(preset, flags, ast, origin.clone()));
    }
    Ok(out)
}

/// Maps a span inside a string value to the file: exact when the value is written without
/// escapes (a literal string, or a basic one with none), else the whole value.
fn inner_span(
    text: &str,
    value_at: Option<Range<usize>>,
    value: &str,
    inner: Option<Span>,
) -> Option<Range<usize>> {
    let at = value_at?;
    let raw = text.get(at.clone())?;
    let quote = ["'''", "\"\"\"", "'", "\""]
        .into_iter()
        .find(|q| raw.starts_with(q) && raw.ends_with(q) && raw.len() >= 2 * q.len())?;
    let body_start = at.start + quote.len();
    match inner {
        Some(s) if text.get(body_start..body_start + value.len()) == Some(value) => {
            Some(body_start + s.start..body_start + s.end.max(s.start + 1))
        }
        _ => Some(at),
    }
}

/// What [`load`] should read besides the built-ins.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Registry files named on the command line (`--registry FILE`), loaded last.
    pub files: Vec<PathBuf>,
    /// The user config directory to scan for `*.toml` / `*.json`; `None` skips it.
    pub config_dir: Option<PathBuf>,
}

impl LoadOptions {
    /// Options with the XDG config directory ([`config_dir`]) and these files.
    pub fn with_user_config(files: Vec<PathBuf>) -> LoadOptions {
        LoadOptions {
            files,
            config_dir: config_dir(),
        }
    }
}

/// A registry file that could not be loaded, and whether the user named it explicitly.
#[derive(Debug)]
pub struct LoadFailure {
    /// What went wrong, with `file:line:column`.
    pub error: Error,
    /// True for `--registry` files, false for files found in the config directory.
    pub explicit: bool,
}

/// The outcome of [`load`]: the catalog that could be built, notices and per-file errors.
#[derive(Debug)]
pub struct Loaded {
    /// Built-ins overlaid with every user registry that loaded.
    pub catalog: Catalog,
    /// One line per shadowed key (`preset "ack" from FILE replaces the built-in one`).
    pub notices: Vec<String>,
    /// Files that were rejected; their presets are not in the catalog.
    pub failures: Vec<LoadFailure>,
}

/// rxw's config directory: `$XDG_CONFIG_HOME/rxw`, else `~/.config/rxw`.
pub fn config_dir() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()) {
        Some(x) => PathBuf::from(x),
        None => PathBuf::from(std::env::var_os("HOME").filter(|v| !v.is_empty())?).join(".config"),
    };
    Some(base.join("rxw"))
}

/// Registry files in a config directory: `*.toml` and `*.json`, sorted by name.
fn registry_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("toml" | "json")
                )
        })
        .collect();
    files.sort();
    files
}

/// Loads the built-ins, then the config directory's registries, then `files`; later keys win.
///
/// A key that replaces one from an earlier registry is said once in [`Loaded::notices`]. A
/// file that fails is reported in [`Loaded::failures`] and skipped whole; everything else
/// keeps working.
pub fn load(options: &LoadOptions) -> Loaded {
    let mut catalog = Catalog::from_entries(builtin());
    let mut notices = Vec::new();
    let mut failures = Vec::new();
    let config_files = options
        .config_dir
        .as_deref()
        .map(registry_files)
        .unwrap_or_default();
    let sources = config_files
        .into_iter()
        .map(|p| (p, false))
        .chain(options.files.iter().map(|p| (p.clone(), true)));
    for (path, explicit) in sources {
        match load_file(&path) {
            Ok(entries) => {
                for entry in entries {
                    let key = entry.preset.key.clone();
                    let origin = entry.origin.clone();
                    if let Some(old) = catalog.insert(entry) {
                        notices.push(format!(
                            "preset \"{key}\" from {origin} replaces the {} one",
                            match old.origin {
                                Origin::BuiltIn => "built-in".to_string(),
                                Origin::File(p) => format!("one from {}", p.display()),
                            }
                        ));
                    }
                }
            }
            Err(error) => failures.push(LoadFailure { error, explicit }),
        }
    }
    Loaded {
        catalog,
        notices,
        failures,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toml_err(src: &str) -> Error {
        load_str(src, Format::Toml, "user.toml", Origin::BuiltIn).unwrap_err()
    }

    const GOOD: &str = "[[preset]]\nkey = \"k\"\nflavor = \"python\"\npattern = '(?P<n>a)'\n";

    #[test]
    fn builtin_registry_has_the_twelve_keys() {
        let keys: Vec<String> = builtin().into_iter().map(|e| e.preset.key).collect();
        assert_eq!(
            keys,
            [
                "work_order",
                "ack",
                "verb",
                "result",
                "tool_call",
                "job_tag",
                "nudge",
                "fleet_alert",
                "uuid",
                "short_hex",
                "subagent_update",
                "swarm_slot"
            ]
        );
    }

    #[test]
    fn seed_patterns_are_copied_exactly() {
        let all = builtin();
        // Each seed's key, pattern and flags (None: not asserted).
        let seeds = [
            (
                "work_order",
                r"^\[WO:(?P<wo_id>[a-f0-9-]+)\]\s+\[from\s+(?P<sender>[a-zA-Z0-9_-]+)\]\s+(?P<title>[^—\n]+?)\s*—\s*(?P<body>.+)$",
                Some("ms"),
            ),
            (
                "verb",
                r"\[(?P<verb>ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+(?P<job_id>[A-Za-z0-9_/-]+)\]",
                None,
            ),
            (
                "result",
                r"\[RESULT\s+(?P<job_id>[A-Za-z0-9_/-]+)\]\s*(?P<status>OK|FAIL|DECLINE|SUCCESS|ERROR)?\s*(?P<summary>.*?)(?=\[RESULT\s|\Z)",
                Some("s"),
            ),
            (
                "tool_call",
                r"\[(?P<engine>TOOL|EXEC)\s+(?P<op>[a-zA-Z0-9_.-]+)\s+(?P<args>\{.*?\})\]",
                None,
            ),
        ];
        for (key, pattern, flags) in seeds {
            let preset = &all.iter().find(|e| e.preset.key == key).unwrap().preset;
            assert_eq!(preset.pattern, pattern, "{key}");
            if let Some(flags) = flags {
                assert_eq!(preset.flags, flags, "{key}");
            }
        }
        assert!(all.iter().all(|e| e.preset.flavor.is_python()));
    }

    #[test]
    fn bad_toml_points_at_line_and_column() {
        let e = toml_err("[[preset]]\nkey = \"k\nflavor = \"python\"\n");
        assert_eq!(e.kind, ErrorKind::RegistryInvalid);
        crate::testing::assert_message_starts(&e, "user.toml:2:");
        assert!(e.caret().unwrap().contains('^'));
    }

    #[test]
    fn unknown_flag_points_at_the_letter() {
        let e = toml_err(
            "[[preset]]\nkey = \"k\"\nflavor = \"python\"\nflags = \"mq\"\npattern = 'a'\n",
        );
        assert_eq!(
            e.message,
            "user.toml:4:11: invalid flag \"q\" for python (its flag letters are imsxa)"
        );
        assert_eq!(e.caret().unwrap(), "flags = \"mq\"\n          ^");
    }

    #[test]
    fn pattern_that_does_not_compile_points_into_the_pattern() {
        let e = toml_err("[[preset]]\nkey = \"k\"\nflavor = \"python\"\npattern = 'ab(c'\n");
        assert!(
            e.message.starts_with(
                "user.toml:4:14: pattern does not compile: missing ), unterminated subpattern"
            ),
            "{}",
            e.message
        );
    }

    #[test]
    fn duplicate_key_names_the_first_line() {
        let e = toml_err(&format!("{GOOD}{GOOD}"));
        assert_eq!(
            e.message,
            "user.toml:6:7: duplicate key \"k\" (first defined on line 2)"
        );
    }

    #[test]
    fn unknown_field_and_flavor_are_errors() {
        let e = toml_err("[[preset]]\nkey = \"k\"\nflavour = \"python\"\npattern = 'a'\n");
        assert!(
            e.message.contains("user.toml:3:1") && e.message.contains("unknown field `flavour`"),
            "{}",
            e.message
        );
        let e = toml_err("[[preset]]\nkey = \"k\"\nflavor = \"perl\"\npattern = 'a'\n");
        crate::testing::assert_message_starts(&e, "user.toml:3:10: unknown flavor \"perl\"");
    }

    #[test]
    fn example_group_must_exist() {
        let e = toml_err(&format!(
            "{GOOD}[[preset.examples]]\ntext = \"a\"\ngroups = {{ m = \"a\" }}\n"
        ));
        crate::testing::assert_message_has(&e, "names group \"m\"");
    }

    #[test]
    fn json_registry_loads_and_its_errors_say_where() {
        let ok = r#"{"preset": [{"key": "k", "flavor": "js", "flags": "i", "pattern": "(?<n>a)",
            "examples": [{"text": "A", "groups": {"n": "A"}}]}]}"#;
        let entries = load_str(ok, Format::Json, "u.json", Origin::BuiltIn).unwrap();
        assert_eq!(entries[0].preset.flavor, Flavor::JS);
        let e = load_str(
            "{\"preset\": [\n  {\"key\": }]}",
            Format::Json,
            "u.json",
            Origin::BuiltIn,
        )
        .unwrap_err();
        crate::testing::assert_message_starts(&e, "u.json:2:");
        let e = load_str(
            r#"{"preset": [{"key": "k", "flavor": "js", "flags": "q", "pattern": "a"}]}"#,
            Format::Json,
            "u.json",
            Origin::BuiltIn,
        )
        .unwrap_err();
        crate::testing::assert_message_has(&e, "preset #1 \"k\": invalid flag \"q\"");
    }

    #[test]
    fn user_key_shadows_builtin_once_and_bad_file_keeps_builtins() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.toml"),
            "[[preset]]\nkey = \"ack\"\nflavor = \"rust\"\npattern = 'ACK'\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("b.toml"), "[[preset]]\nkey = oops\n").unwrap();
        std::fs::write(dir.path().join("ignored.txt"), "not a registry").unwrap();
        let loaded = load(&LoadOptions {
            files: vec![],
            config_dir: Some(dir.path().to_path_buf()),
        });
        assert_eq!(loaded.catalog.len(), 12);
        assert_eq!(loaded.catalog.get("ack").unwrap().preset.pattern, "ACK");
        assert_eq!(loaded.notices.len(), 1);
        assert!(loaded.notices[0].contains("replaces the built-in one"));
        assert_eq!(loaded.failures.len(), 1);
        assert!(!loaded.failures[0].explicit);
        assert!(
            loaded.failures[0].error.message.contains("b.toml:2:7"),
            "{}",
            loaded.failures[0].error.message
        );
        assert!(loaded.catalog.get("work_order").is_some());
    }
}
