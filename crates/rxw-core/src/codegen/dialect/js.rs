//! JavaScript (node) with `RegExp`.

use super::OUTPUT_DOC;
use crate::codegen::Translation;

/// The flags of the JS program: the flavor's own letters (verbatim) or `u` after a rewrite.
pub(crate) fn js_flags(t: &Translation) -> String {
    if t.verbatim {
        t.flags.chars().filter(|c| *c != 'g').collect()
    } else {
        "u".to_string()
    }
}

pub(super) fn program(t: &Translation, origin: &str) -> String {
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
