//! rxw-core: what rxw knows, with no terminal in it.
//!
//! The design in a paragraph: a pattern is parsed once, per flavor (Rust, Python `re`,
//! JavaScript `RegExp`), into a tree that keeps the byte span of every node
//! ([`syntax`], the `rxw-syntax` crate). That tree feeds everything else: the engine
//! ([`engine`], the `rxw-engine` crate), which runs a pattern on the `regex` crate wherever that
//! provably gives the flavor's answer and on rxw's own backtracking matcher otherwise, the
//! explain tree and lints, pattern colouring, presets and the audit matrix. The engine
//! returns data (spans and groups), never text for a terminal; this crate builds the headless
//! [`workbench`] (what the TUI's panes show), the NetVM [`presets`] registry, the [`audit`]
//! matrix, [`codegen`], the agent tool's contract ([`tool`]) and the typed JSON ([`wire`]).
//! The front ends (CLI, TUI and the MCP server, in the `rxw` package) depend on this crate and
//! render what it returns; this crate depends on no terminal or argument-parsing crate. Errors
//! are one type here, [`Error`], carrying a kind and the span they point at, so the CLI can
//! draw a caret and the TUI an underline; its kinds are a regex's (the syntax crate's error,
//! which `?` converts) and the product's own (a registry, a preset key, a file, the command
//! line), which the regex layers never see.
//!
//! For operators reading fleet logs: [`operator`] builds one row per job id from the protocol
//! tags and counts matches per time bucket from the lines' stamps, streaming the log line by
//! line; [`export`] writes lines, matches and preset hits as JSON Lines or CSV into a file that
//! appears whole or not at all.
//!
//! ```
//! use rxw_core::presets::load::builtin;
//!
//! // The embedded NetVM registry, each entry parsed once and checked against its own examples.
//! let registry = builtin();
//! let result = registry.iter().find(|e| e.preset.key == "result").expect("the result preset");
//! let re = rxw_core::Regex::new(&result.preset.pattern, rxw_core::Flavor::PYTHON, Default::default())?;
//! assert!(re.is_match("[RESULT 7fce46e0] OK")?);
//! # Ok::<(), rxw_core::Error>(())
//! ```

pub mod audit;
pub mod codegen;
pub mod error;
pub mod export;
pub mod fleet;
pub mod generate;
pub mod input;
pub mod operator;
pub mod presets;
pub mod priority;
pub mod progress;
pub mod trace;
/// The flavor-aware parser and everything built on its tree (the `rxw-syntax` crate).
pub mod syntax {
    pub use rxw_syntax::{ast, dotnet, error, explain, lint, onig, parse, railroad, rules};
}
pub mod testcases;
#[cfg(test)]
pub(crate) mod testing;
pub mod tool;
pub mod wire;
pub mod workbench;

pub use rxw_engine as engine;
pub use rxw_syntax::{flavor, highlight};

pub use engine::{EngineKind, InputTraits, Limits, Match, MatchOptions, Regex};
pub use error::{Error, ErrorKind};
pub use flavor::{Family, Flags, Flavor, NodeVersion, PyVersion};
pub use syntax::ast::Span;

/// The data behind `m` even when a thread panicked holding it: what it left is still what
/// the views read, and one panic must not stop the others.
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether `path`'s extension is `ext`, in any case.
pub(crate) fn extension_is(path: &std::path::Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}
