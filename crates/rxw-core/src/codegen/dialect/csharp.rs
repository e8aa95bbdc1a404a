//! C# with `System.Text.RegularExpressions`.

use super::{Dialect, Engines, OUTPUT_DOC, Possessive};
use crate::codegen::Translation;

pub(crate) static DIALECT: Dialect = Dialect {
    name: "csharp",
    aliases: &["c#", "cs", "dotnet"],
    title: "C#",
    extension: "cs",
    file_name: "Program.cs",
    library: "System.Text.RegularExpressions",
    syntax: ".NET",
    native_flavor: None,
    native: |_| false,
    program,
    comment: "//",
    comment_text: super::as_is,
    tests: None,
    engines: Engines::Backtracking,
    repeat_limit: None,
    text_start: "\\A",
    text_end: "\\z",
    newline_anchors: false,
    end_or_final_newline: None,
    ascii_word_boundary: None,
    any_char: "(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^\\uD800-\\uDFFF])",
    class_specials: "\\]^-[&~|",
    // Callers keep astral characters away from C# classes.
    code_escape: |v| format!("\\u{v:04X}"),
    property: |_, _, _| {
        Err(
            ".NET matches UTF-16 code units, so a Unicode property misses every astral character"
                .to_string(),
        )
    },
    properties_by_name: false,
    nested_negation: false,
    utf16: true,
    utf16_lookbehind: false,
    lookbehind_fixed_width: false,
    atomic: true,
    possessive: Possessive::Atomic,
    // .NET numbers named groups after the unnamed ones, so every group stays unnamed to keep
    // rxw's numbering.
    named_group: None,
    loop_resets_groups: false,
    unset_backref_matches_empty: false,
    scoped_ignore_case: true,
    backrefs_unname_groups: false,
};

fn program(t: &Translation, origin: &str) -> String {
    format!(
        r#"// {origin}
//
// It {OUTPUT_DOC}.
using System;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;

public static class Program
{{
    static readonly Regex Pattern = new Regex({lit}, RegexOptions.CultureInvariant);

    static string Field(Group g) =>
        !g.Success ? "\\N" : g.Value.Replace("\\", "\\\\").Replace("\t", "\\t").Replace("\n", "\\n").Replace("\r", "\\r");

    public static void Main()
    {{
        var utf8 = new UTF8Encoding(false);
        string text;
        using (var stdin = new StreamReader(Console.OpenStandardInput(), utf8, false))
        {{
            text = stdin.ReadToEnd();
        }}
        var output = new StringBuilder();
        foreach (Match m in Pattern.Matches(text))
        {{
            for (int g = 0; g < m.Groups.Count; g++)
            {{
                if (g > 0) output.Append('\t');
                output.Append(Field(m.Groups[g]));
            }}
            output.Append('\n');
        }}
        using (var stdout = new StreamWriter(Console.OpenStandardOutput(), utf8))
        {{
            stdout.Write(output.ToString());
        }}
    }}
}}
"#,
        lit = csharp_str(&t.pattern),
    )
}

/// A C# string literal: verbatim (`@"…"`) for printable ASCII, else escaped.
pub(crate) fn csharp_str(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_graphic() || c == ' ') {
        return format!("@\"{}\"", s.replace('"', "\"\""));
    }
    super::quoted(s, |c, out| match c {
        c if c.is_ascii_graphic() || c == ' ' => out.push(c),
        c if (c as u32) > 0xFFFF => out.push_str(&format!("\\U{:08x}", c as u32)),
        c => out.push_str(&format!("\\u{:04x}", c as u32)),
    })
}
