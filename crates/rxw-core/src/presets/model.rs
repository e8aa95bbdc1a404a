//! The registry model: what a preset is, as data (serde), and the compiled form.

use crate::engine::set::Starts;
use crate::engine::{Limits, Regex};
use crate::error::{Error, RegexError};
use crate::flavor::{Flags, Flavor};
use crate::syntax::ast::Ast;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// One preset, validated: a named, documented pattern with its own test cases.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Preset {
    /// The key it is looked up by (`work_order`).
    pub key: String,
    /// One line: what it is for.
    pub purpose: String,
    /// The dialect the pattern is written in.
    pub flavor: Flavor,
    /// Flag letters, in the flavor's letters (`ms`).
    pub flags: String,
    /// The pattern, exactly as written.
    pub pattern: String,
    /// Anything a user should know (quirks of the pattern).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// A description of every named group, in the registry's order.
    pub groups: Vec<GroupDoc>,
    /// Texts that must match, with what the groups must capture.
    pub examples: Vec<Example>,
    /// Texts that must not match anywhere.
    pub counter_examples: Vec<String>,
}

/// A named group and what it captures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupDoc {
    /// The group's name in the pattern.
    pub name: String,
    /// What it captures.
    pub description: String,
}

/// A text that must match; the first match is compared with the expectations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// The text searched.
    pub text: String,
    /// The whole first match, when the example pins it.
    #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
    pub whole: Option<String>,
    /// Expected text of named groups in the first match.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub groups: BTreeMap<String, String>,
    /// Named groups that must not take part in the first match.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unset: Vec<String>,
}

/// Where a preset was defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The registry embedded in rxw.
    BuiltIn,
    /// A user registry file.
    File(PathBuf),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::BuiltIn => f.write_str("built-in"),
            Origin::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// A preset with its parsed pattern (compiled on first use) and where it came from.
///
/// Loading a registry only parses each pattern (the syntax check, the group names, the
/// literals the parse-through-all prefilter needs); the engines are built the first time a
/// preset is run ([`Entry::regex`]) and then shared. A registry of thousands of presets is
/// listed, browsed and prefiltered without compiling one of them.
pub struct Entry {
    /// The definition.
    pub preset: Preset,
    /// Which registry defined it.
    pub origin: Origin,
    flags: Flags,
    names: Vec<Option<String>>,
    ignore_case: bool,
    /// What the parse-through-all prefilter needs, read off the parse at load time.
    starts: Starts,
    /// The parsed pattern, parsed again on demand (explain): thousands of presets do not
    /// keep their trees in memory.
    /// The registry load's parse, shared with the compiled pattern: one parse per entry.
    ast: Arc<Ast>,
    compiled: OnceLock<Result<Regex, RegexError>>,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("preset", &self.preset)
            .field("origin", &self.origin)
            .field("compiled", &self.compiled.get().is_some())
            .finish()
    }
}

impl Entry {
    /// An entry for a validated preset whose pattern parsed to `ast` under `flags`.
    pub(crate) fn new(preset: Preset, flags: Flags, ast: Ast, origin: Origin) -> Entry {
        let names = ast.groups.iter().map(|g| g.name.clone()).collect();
        let ignore_case = flags.ignore_case || ast.flags.ignore_case;
        let starts = Starts::of(&ast, ignore_case);
        Entry {
            preset,
            origin,
            flags,
            names,
            ignore_case,
            starts,
            ast: Arc::new(ast),
            compiled: OnceLock::new(),
        }
    }

    /// The pattern compiled for its flavor and flags: built on the first call, then shared
    /// (also between threads).
    ///
    /// # Errors
    /// When the engines reject a pattern the parser accepted (a construct rxw cannot
    /// reproduce, a pattern over the engines' size limit).
    pub fn regex(&self) -> Result<&Regex, RegexError> {
        self.compiled
            .get_or_init(|| {
                Regex::from_parsed(
                    &self.preset.pattern,
                    self.preset.flavor,
                    self.flags,
                    Arc::clone(&self.ast),
                    &Limits::human(),
                )
                .map_err(|mut e| {
                    e.message = format!("pattern does not compile: {}", e.message);
                    e
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether [`Entry::regex`] has been built (for tests and measurements).
    pub fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }

    /// The parsed pattern (no engine built): the parse made when the registry was loaded.
    ///
    /// # Errors
    /// None: kept as a `Result` for the callers that also compile.
    pub fn ast(&self) -> Result<&Ast, Error> {
        Ok(&self.ast)
    }

    /// Where matches can start, for the prefilter (read when the registry was loaded).
    pub fn prefilter_starts(&self) -> &Starts {
        &self.starts
    }

    /// The flags the pattern is compiled with.
    pub fn flags(&self) -> Flags {
        self.flags
    }

    /// Whether matching ignores case (by flag or by a leading inline flag).
    pub fn ignore_case(&self) -> bool {
        self.ignore_case
    }

    /// Group names, index 0 being group 1 (from the parse; no engine built).
    pub fn group_names(&self) -> &[Option<String>] {
        &self.names
    }

    /// The description of the group called `name`, when the registry gives one.
    pub fn group_description(&self, name: &str) -> Option<&str> {
        self.preset
            .groups
            .iter()
            .find(|g| g.name == name)
            .map(|g| g.description.as_str())
    }
}

/// The presets in force: built-ins overlaid with user registries, in a stable order.
#[derive(Debug, Default)]
pub struct Catalog {
    entries: Vec<Entry>,
    /// Key to index in `entries`: a registry of thousands of presets loads in linear time.
    index: HashMap<String, usize>,
}

impl Catalog {
    /// A catalog of these entries, in this order (keys must be unique).
    pub(crate) fn from_entries(entries: Vec<Entry>) -> Catalog {
        let mut catalog = Catalog::default();
        for e in entries {
            catalog.insert(e);
        }
        catalog
    }

    /// Adds an entry; an entry with the same key is replaced in place and returned.
    pub(crate) fn insert(&mut self, entry: Entry) -> Option<Entry> {
        match self.index.get(&entry.preset.key) {
            Some(&i) => Some(std::mem::replace(&mut self.entries[i], entry)),
            None => {
                self.index
                    .insert(entry.preset.key.clone(), self.entries.len());
                self.entries.push(entry);
                None
            }
        }
    }

    /// The entry for `key`.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.index.get(key).map(|&i| &self.entries[i])
    }

    /// The entry for `key`, or an error naming the known keys.
    ///
    /// # Errors
    /// [`crate::ErrorKind::PresetUnknown`] when no registry defines `key`.
    pub fn require(&self, key: &str) -> Result<&Entry, crate::Error> {
        self.get(key).ok_or_else(|| {
            crate::Error::new(
                crate::ErrorKind::PresetUnknown,
                format!(
                    "unknown preset \"{key}\" (known: {})",
                    self.keys().collect::<Vec<_>>().join(", ")
                ),
            )
        })
    }

    /// All entries in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// All keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.preset.key.as_str())
    }

    /// Number of presets.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there is no preset.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    #[test]
    fn a_preset_is_parsed_once_and_compiled_from_that_parse() {
        for entry in crate::presets::load::builtin() {
            let re = entry.regex().unwrap();
            assert!(
                Arc::ptr_eq(re.shared_ast(), &entry.ast),
                "{}: the engine holds the registry load's parse",
                entry.preset.key
            );
        }
    }
}
