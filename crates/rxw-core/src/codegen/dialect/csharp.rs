//! C# with `System.Text.RegularExpressions`.

use super::OUTPUT_DOC;
use crate::codegen::Translation;

pub(super) fn program(t: &Translation, origin: &str) -> String {
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
    static readonly Regex Pattern = new Regex({lit}, RegexOptions.CultureInvariant{flags});

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
        flags = super::flag_argument(t, |c| match c {
            'i' => Some("RegexOptions.IgnoreCase"),
            'm' => Some("RegexOptions.Multiline"),
            's' => Some("RegexOptions.Singleline"),
            'x' => Some("RegexOptions.IgnorePatternWhitespace"),
            _ => None,
        })
        .replacen(", ", " | ", 1),
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

/// .NET names no property this way.
pub(super) fn property(_name: &str, _negated: bool, _oniguruma: bool) -> Result<String, String> {
    Err(
        ".NET matches UTF-16 code units, so a Unicode property misses every astral character"
            .to_string(),
    )
}
