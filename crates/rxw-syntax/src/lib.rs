//! rxw's syntax layer: a flavor-aware pattern parser (Rust, Python `re`, JavaScript `RegExp`)
//! whose tree keeps the byte span of every node and says what was written ([`ast`], [`parse`]),
//! and what is built on the tree alone, without running anything: the explain tree
//! ([`explain`]), lints ([`lint`]), railroad diagrams ([`railroad`]) and highlighting as data
//! ([`highlight`]). Errors carry their span ([`error`]). No engine and no terminal here: the
//! engine crate depends on this one, never the other way.
//!
//! ```
//! use rxw_syntax::{Flags, Flavor, parse::parse};
//!
//! // A NetVM protocol tag, as CPython's `re` reads it: two named groups, spans kept.
//! let ast = parse(r"\[(?P<verb>ACK|CLAIM)\s+(?P<id>[0-9a-f]+)\]", Flavor::PYTHON, Flags::default())?;
//! let names: Vec<_> = ast.groups.iter().map(|g| g.name.clone().unwrap_or_default()).collect();
//! assert_eq!(names, ["verb", "id"]);
//!
//! // An error says what is wrong and where, in the flavor's own words.
//! let err = parse("ab(cd", Flavor::PYTHON, Flags::default()).unwrap_err();
//! assert_eq!(err.message, "missing ), unterminated subpattern");
//! # Ok::<(), rxw_syntax::Error>(())
//! ```

pub mod ast;
pub mod dotnet;
#[rustfmt::skip]
mod dotnet_unicode;
pub mod engine_tables;
pub mod error;
pub mod explain;
pub mod flavor;
mod fold_table;
pub mod go_unicode;
pub mod highlight;
pub mod java;
pub mod js_unicode;
pub mod lint;
pub mod onig;
pub mod parse;
pub mod pcre2;
pub mod pcre2_unicode;
mod program_size;
pub mod python_names;
pub mod railroad;
pub mod re2_unicode;
mod reader;
pub mod release;
pub mod rules;
mod sre_code;

pub use ast::Span;
pub use error::{Error, ErrorKind};
pub use flavor::{Family, Flags, Flavor, GoVersion, JavaVersion, NodeVersion, PyVersion};

/// The private-use character standing for a UTF-16 surrogate code unit written as `\uD83D` in
/// JavaScript without `u` (a `char` cannot hold a surrogate). Supplementary Private Use
/// Area-A characters are astral, so a JS text without `u` holding one is matched by code units:
/// the stand-ins never meet real text. Explain shows the code unit written.
pub fn surrogate_stand_in(unit: u32) -> char {
    debug_assert!((0xD800..0xE000).contains(&unit));
    char::from_u32(0xF0000 + (unit - 0xD800)).expect("plane 15 private use")
}

/// The surrogate code point a JavaScript escape names, when `source` (the escape's own text)
/// is `\uD83D`-style or `\u{D83D}`-style and names one. With `u`/`v` the parser keeps such a
/// lone surrogate as its [`surrogate_stand_in`] too; the escape's text tells it apart from a
/// private-use character written as itself.
pub fn escaped_surrogate(source: &str) -> Option<u32> {
    let hex = source.strip_prefix("\\u")?;
    let hex = hex
        .strip_prefix('{')
        .and_then(|h| h.strip_suffix('}'))
        .unwrap_or(hex);
    u32::from_str_radix(hex, 16)
        .ok()
        .filter(|v| (0xD800..0xE000).contains(v))
}
