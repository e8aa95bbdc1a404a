//! Go with `regexp` (RE2 syntax).

use super::{Dialect, Engines, OUTPUT_DOC, Possessive};
use crate::codegen::Translation;

pub(crate) static DIALECT: Dialect = Dialect {
    name: "go",
    aliases: &["golang"],
    title: "Go",
    extension: "go",
    file_name: "main.go",
    library: "regexp",
    syntax: "RE2",
    native_flavor: None,
    native: |_| false,
    program,
    comment: "//",
    comment_text: super::as_is,
    tests: None,
    engines: Engines::Linear,
    repeat_limit: Some(1000),
    text_start: "\\A",
    text_end: "\\z",
    newline_anchors: true,
    end_or_final_newline: None,
    ascii_word_boundary: Some(["\\b", "\\B"]),
    any_char: "(?s:.)",
    class_specials: "\\]^-[&~|",
    code_escape: super::braced_hex_escape,
    property,
    properties_by_name: false,
    nested_negation: false,
    utf16: false,
    utf16_lookbehind: false,
    lookbehind_fixed_width: false,
    atomic: false,
    possessive: Possessive::None,
    named_group: Some(("(?P<", true)),
    loop_resets_groups: false,
    unset_backref_matches_empty: false,
    scoped_ignore_case: false,
    backrefs_unname_groups: false,
};

fn property(name: &str, negated: bool, oniguruma: bool) -> Result<String, String> {
    match name {
        "Alphabetic" | "Join_Control" => Err(format!(
            "Go's regexp has no {name} property (this is what \\w means here)"
        )),
        _ => super::named_property(name, negated, oniguruma),
    }
}

fn program(t: &Translation, origin: &str) -> String {
    format!(
        r#"// {origin}
//
// It {OUTPUT_DOC}.
package main

import (
	"bufio"
	"io"
	"os"
	"regexp"
	"strings"
)

var pattern = regexp.MustCompile({lit})

var escaper = strings.NewReplacer("\\", "\\\\", "\t", "\\t", "\n", "\\n", "\r", "\\r")

func main() {{
	data, err := io.ReadAll(os.Stdin)
	if err != nil {{
		panic(err)
	}}
	text := string(data)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, m := range pattern.FindAllStringSubmatchIndex(text, -1) {{
		fields := make([]string, 0, len(m)/2)
		for i := 0; i < len(m); i += 2 {{
			if m[i] < 0 {{
				fields = append(fields, `\N`)
			}} else {{
				fields = append(fields, escaper.Replace(text[m[i]:m[i+1]]))
			}}
		}}
		out.WriteString(strings.Join(fields, "\t") + "\n")
	}}
}}
"#,
        lit = go_str(&t.pattern),
    )
}

/// A Go string literal: raw (backquoted) when it can be.
pub(crate) fn go_str(s: &str) -> String {
    if !s.contains('`') && !s.chars().any(char::is_control) {
        return format!("`{s}`");
    }
    super::quoted(s, |c, out| {
        if c.is_control() {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    })
}
