//! Presets: named, documented patterns loaded from registries, and parse-through-all.
//!
//! The NetVM registry ships embedded ([`load::NETVM_TOML`]); users add registries of their own
//! (TOML or JSON) with `--registry FILE` or in rxw's config directory, and a user key shadows
//! a built-in one. Every preset carries examples and counter-examples, so a registry is also a
//! test table: [`check::check`] runs them all. `scan::Scanner` runs every preset over one
//! text with a shared literal prefilter and merges the hits in text order.
//!
//! The library only returns data: notices about shadowed keys and per-file errors are in
//! [`load::Loaded`] for the front end to show.

pub mod check;
pub mod load;
pub mod model;
pub mod parse_all;
pub mod per_record;

pub use check::{CaseKind, CaseResult, check};
pub use load::{Format, LoadOptions, Loaded, builtin, load, load_file, load_str};
pub use model::{Catalog, Entry, Example, GroupDoc, Origin, Preset};
pub use parse_all::{Hit, Scanner};
