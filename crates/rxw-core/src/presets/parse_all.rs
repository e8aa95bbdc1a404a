//! Parse-through-all: every preset over one text, hits merged in text order.
//!
//! How the presets are scanned is the engine's business ([`crate::engine::set::HitScanner`]:
//! one literal pass shared by the presets, anchored confirmations, linear-time counting
//! programs); this module is what is the registry's own: a preset is a member of that scan, an
//! error names its preset, and a hit is written as the registry's JSON mapping.

use super::model::Entry;
use crate::engine::set::{self, HitPattern, Starts};
use crate::engine::{Match, Regex};
use crate::error::Error;

/// The presets' scanner: the engine's multi-pattern scanner over registry entries.
pub type Scanner<'c> = set::HitScanner<'c, Entry>;
/// One hit: which preset, and its match.
pub type Hit<'c> = set::Hit<'c, Entry>;
/// How [`Scanner::hits_with`] scans.
pub type HitsOptions<'a> = set::HitsOptions<'a>;

impl HitPattern for Entry {
    fn regex(&self) -> Result<&Regex, Error> {
        Entry::regex(self)
    }

    fn starts(&self) -> &Starts {
        self.prefilter_starts()
    }

    fn keyed(&self, mut e: Error) -> Error {
        e.message = format!("preset {}: {}", self.preset.key, e.message);
        e
    }
}

/// The structured mapping of one hit, as `rxw parse --json` and the `regex_parse` tool give it:
/// `{"key","index","end","match","groups":{name or number: text | null}}` (byte offsets).
pub fn hit_json(entry: &Entry, text: &str, m: &Match) -> serde_json::Value {
    serde_json::json!({
        "key": entry.preset.key,
        "index": m.start(),
        "end": m.end(),
        "match": m.as_str(text),
        "groups": groups_json(entry, text, m),
    })
}

/// A match's groups by name (or number, for unnamed groups); `null` when one did not take part.
pub fn groups_json(
    entry: &Entry,
    text: &str,
    m: &Match,
) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    for (i, name) in entry.group_names().iter().enumerate() {
        let label = name.clone().unwrap_or_else(|| (i + 1).to_string());
        map.insert(
            label,
            m.group(text, i + 1)
                .map_or(serde_json::Value::Null, serde_json::Value::from),
        );
    }
    map
}
