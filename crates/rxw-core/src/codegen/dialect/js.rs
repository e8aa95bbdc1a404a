//! JavaScript (node) with `RegExp`.

use super::{Dialect, Engines, OUTPUT_DOC, Possessive};
use crate::codegen::Translation;
use crate::flavor::Flavor;

pub(crate) static DIALECT: Dialect = Dialect {
    name: "js",
    aliases: &["javascript", "node"],
    title: "JavaScript",
    extension: "js",
    file_name: "matches.js",
    library: "RegExp",
    syntax: "RegExp",
    native_flavor: Some(Flavor::JS),
    native: |f| f == Flavor::JS,
    program,
    comment: "//",
    comment_text: super::as_is,
    tests: Some(crate::codegen::test_file::JS),
    engines: Engines::Backtracking,
    repeat_limit: None,
    text_start: "^",
    text_end: "$",
    newline_anchors: false,
    end_or_final_newline: None,
    ascii_word_boundary: Some(["\\b", "\\B"]),
    any_char: "[\\s\\S]",
    class_specials: "\\]^-[/|",
    code_escape: |v| format!("\\u{{{v:X}}}"),
    property: super::named_property,
    properties_by_name: true,
    nested_negation: false,
    utf16: false,
    utf16_lookbehind: false,
    lookbehind_fixed_width: false,
    atomic: false,
    possessive: Possessive::None,
    named_group: Some(("(?<", true)),
    loop_resets_groups: true,
    unset_backref_matches_empty: true,
    scoped_ignore_case: false,
    backrefs_unname_groups: false,
};

/// The flags of the JS program: the flavor's own letters (verbatim) or `u` after a rewrite.
pub(crate) fn js_flags(t: &Translation) -> String {
    if t.verbatim {
        t.flags.chars().filter(|c| *c != 'g').collect()
    } else {
        "u".to_string()
    }
}

fn program(t: &Translation, origin: &str) -> String {
    format!(
        r#"#!/usr/bin/env node
// {origin}
//
// It {OUTPUT_DOC}.
"use strict";
const fs = require("fs");

const PATTERN = new RegExp({lit}, "{flags}g");

function field(group) {{
  if (group === undefined) return "\\N";
  return group
    .replace(/\\/g, "\\\\")
    .replace(/\t/g, "\\t")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r");
}}

const text = fs.readFileSync(0, "utf8");
let out = "";
for (const m of text.matchAll(PATTERN)) {{
  out += Array.from(m, field).join("\t") + "\n";
}}
process.stdout.write(out);
"#,
        lit = js_str(&t.pattern),
        flags = js_flags(t),
    )
}

/// A JS string literal (JSON is valid JS).
pub(crate) fn js_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}
