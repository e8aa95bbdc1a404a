//! Parse-through-all: every preset over one text, hits merged in text order.
//!
//! How the presets are scanned is the engine's business ([`crate::engine::set::HitScanner`]:
//! one literal pass shared by the presets, anchored confirmations, linear-time counting
//! programs); this module is what is the registry's own: a preset is a member of that scan, an
//! error names its preset, and a hit is written as the registry's JSON mapping.

use super::model::Entry;
use crate::engine::Regex;
use crate::engine::set::{self, HitPattern, Starts};
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
