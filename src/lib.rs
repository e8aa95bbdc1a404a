//! rxw: a regex workbench whose matches are the ones your real engine would give.
//!
//! This package is the front ends: the command line ([`cli`]), the terminal workbench
//! ([`tui`]) and the Model Context Protocol server ([`mcp`]), behind the `app` and `mcp`
//! features. Everything they show is computed by the `rxw-core` crate (workbench, presets,
//! audit, codegen, operator models, typed JSON), which sits on the engine (`rxw-engine`) and
//! the parser (`rxw-syntax`) and has no terminal dependency; its modules are re-exported here
//! under their own names so `rxw::workbench`, `rxw::presets` and the rest read as one library.

pub use rxw_core::{
    EngineKind, Error, ErrorKind, Family, Flags, Flavor, InputTraits, Limits, Match, MatchOptions,
    NodeVersion, PyVersion, Regex, Span,
};
pub use rxw_core::{
    audit, codegen, engine, error, export, flavor, fleet, generate, highlight, input, operator,
    presets, progress, syntax, testcases, tool, wire, workbench,
};

#[cfg(feature = "app")]
pub mod cli;
#[cfg(feature = "mcp")]
pub mod mcp;
#[cfg(feature = "app")]
pub mod tui;
