//! The `fancy-regex` crate: the regex crate's grammar with look-around, backreferences and
//! atomic groups, which rxw runs on its own matcher (fancy-regex hands what it can to the
//! regex crate and backtracks the rest). The generated Rust program for a pattern that needs
//! them uses `fancy-regex`.

use super::*;

/// The fancy flavor's rules.
pub static FANCY: Rules = Rules {
    family_name: "fancy",
    ..super::rust::rust_rules(true, LookBehind::FixedAlternatives, "fancy-regex")
};
