//! Regex flavors (Rust, Python, JavaScript) and their flag letters.

use crate::error::{Error, ErrorKind};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// The dialect a pattern is written in, and whose engine's meaning rxw reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Flavor {
    /// The `regex` crate (with `fancy-regex` for look-around and backreferences).
    #[default]
    Rust,
    /// CPython's `re` module (3.11).
    Python,
    /// ECMAScript `RegExp` as in node.
    Js,
}

impl Flavor {
    /// All flavors, in display order.
    pub const ALL: [Flavor; 3] = [Flavor::Rust, Flavor::Python, Flavor::Js];

    /// The lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Flavor::Rust => "rust",
            Flavor::Python => "python",
            Flavor::Js => "js",
        }
    }

    /// Flag letters this flavor accepts.
    pub fn flag_letters(self) -> &'static str {
        match self {
            Flavor::Rust => "imsxUR",
            Flavor::Python => "imsxa",
            Flavor::Js => "imsxuydgv",
        }
    }

    /// The next flavor, for cycling in the TUI.
    pub fn next(self) -> Flavor {
        match self {
            Flavor::Rust => Flavor::Python,
            Flavor::Python => Flavor::Js,
            Flavor::Js => Flavor::Rust,
        }
    }
}

impl fmt::Display for Flavor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Flavor {
    type Err = String;
    fn from_str(s: &str) -> Result<Flavor, String> {
        match s.to_ascii_lowercase().as_str() {
            "rust" | "rs" => Ok(Flavor::Rust),
            "python" | "py" => Ok(Flavor::Python),
            "js" | "javascript" | "ecmascript" => Ok(Flavor::Js),
            _ => Err(format!(
                "unknown flavor {s:?} (expected rust, python or js)"
            )),
        }
    }
}

/// A set of flags. Letters that a flavor does not know are rejected by [`Flags::parse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Flags {
    /// `i`: case-insensitive.
    pub ignore_case: bool,
    /// `m`: `^` and `$` match at line boundaries.
    pub multiline: bool,
    /// `s`: `.` matches a newline.
    pub dotall: bool,
    /// `x`: whitespace and `#` comments in the pattern are ignored.
    pub verbose: bool,
    /// Python `a`: `\w \d \s \b` and case folding are ASCII-only.
    pub ascii: bool,
    /// JS `u`: Unicode mode (code points, strict syntax).
    pub unicode: bool,
    /// JS `v`: Unicode sets mode.
    pub unicode_sets: bool,
    /// JS `y`: sticky, each match must start where the previous ended.
    pub sticky: bool,
    /// JS `g`: global (implied by find and replace).
    pub global: bool,
    /// JS `d`: match indices (rxw always reports spans).
    pub indices: bool,
    /// Rust `U`: swap greedy and lazy.
    pub swap_greed: bool,
    /// Rust `R`: CRLF mode.
    pub crlf: bool,
}

impl Flags {
    /// Parses flag letters for a flavor.
    ///
    /// # Errors
    /// `invalid flag "q"` for a letter the flavor does not know, `duplicate flag "g"` for a
    /// letter given twice; the span is the letter's byte range in `letters`.
    pub fn parse(letters: &str, flavor: Flavor) -> Result<Flags, Error> {
        let mut flags = Flags::default();
        let mut seen = String::new();
        for (i, c) in letters.char_indices() {
            let span = Some(crate::Span::new(i, i + c.len_utf8()));
            if !flavor.flag_letters().contains(c) {
                return Err(
                    Error::new(ErrorKind::FlagInvalid, format!("invalid flag \"{c}\""))
                        .with_span_in(letters, span),
                );
            }
            if seen.contains(c) {
                return Err(Error::new(
                    ErrorKind::FlagDuplicate,
                    format!("duplicate flag \"{c}\""),
                )
                .with_span_in(letters, span));
            }
            seen.push(c);
            flags.set(c, true);
        }
        if flags.unicode && flags.unicode_sets {
            return Err(Error::new(
                ErrorKind::FlagInvalid,
                "invalid flags \"uv\": the u and v flags cannot be combined",
            ));
        }
        Ok(flags)
    }

    /// Sets or clears one flag by letter; unknown letters are ignored.
    pub fn set(&mut self, letter: char, on: bool) {
        match letter {
            'i' => self.ignore_case = on,
            'm' => self.multiline = on,
            's' => self.dotall = on,
            'x' => self.verbose = on,
            'a' => self.ascii = on,
            'u' => self.unicode = on,
            'v' => self.unicode_sets = on,
            'y' => self.sticky = on,
            'g' => self.global = on,
            'd' => self.indices = on,
            'U' => self.swap_greed = on,
            'R' => self.crlf = on,
            _ => {}
        }
    }

    /// Whether a flag is on, by letter.
    pub fn get(&self, letter: char) -> bool {
        match letter {
            'i' => self.ignore_case,
            'm' => self.multiline,
            's' => self.dotall,
            'x' => self.verbose,
            'a' => self.ascii,
            'u' => self.unicode,
            'v' => self.unicode_sets,
            'y' => self.sticky,
            'g' => self.global,
            'd' => self.indices,
            'U' => self.swap_greed,
            'R' => self.crlf,
            _ => false,
        }
    }

    /// JS: either `u` or `v` (both switch on Unicode mode).
    pub fn unicode_mode(&self) -> bool {
        self.unicode || self.unicode_sets
    }

    /// The letters that are on, in the flavor's canonical order.
    pub fn letters(&self, flavor: Flavor) -> String {
        let order = match flavor {
            Flavor::Rust => "imsxUR",
            Flavor::Python => "aimsx",
            Flavor::Js => "dgimsuvyx",
        };
        order.chars().filter(|c| self.get(*c)).collect()
    }
}
