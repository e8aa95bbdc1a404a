//! Go with `regexp` (RE2 syntax).

use super::OUTPUT_DOC;
use crate::codegen::Translation;

pub(super) fn property(name: &str, negated: bool, oniguruma: bool) -> Result<String, String> {
    match name {
        "Alphabetic" | "Join_Control" => Err(format!(
            "Go's regexp has no {name} property (this is what \\w means here)"
        )),
        _ => super::named_property(name, negated, oniguruma),
    }
}

pub(super) fn program(t: &Translation, origin: &str) -> String {
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
    super::quoted_controls(s, |c| format!("\\u{:04x}", c as u32))
}
