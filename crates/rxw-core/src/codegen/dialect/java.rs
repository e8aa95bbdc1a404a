//! Java with `java.util.regex`.

use super::OUTPUT_DOC;
use crate::codegen::Translation;

/// Java names the binary properties with `Is`; Oniguruma as they are.
pub(super) fn property(name: &str, negated: bool, oniguruma: bool) -> Result<String, String> {
    match name {
        "Alphabetic" | "Join_Control" if !oniguruma => {
            Ok(format!("\\{}{{Is{name}}}", if negated { 'P' } else { 'p' }))
        }
        _ => super::named_property(name, negated, oniguruma),
    }
}

/// Text for a Java comment: backslashes doubled, other characters than ASCII as `<U+…>`.
pub(super) fn comment_text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\\' => "\\\\".to_string(),
            '\n' | '\r' => " ".to_string(),
            c if c.is_ascii() => c.to_string(),
            c => format!("<U+{:04X}>", c as u32),
        })
        .collect()
}

pub(super) fn program(t: &Translation, origin: &str) -> String {
    format!(
        r#"// {origin}
//
// It {OUTPUT_DOC}.
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Main {{
    static final Pattern PATTERN = Pattern.compile({lit});

    static String field(String group) {{
        if (group == null) return "\\N";
        return group.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }}

    public static void main(String[] args) throws IOException {{
        String text = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        Matcher m = PATTERN.matcher(text);
        while (m.find()) {{
            for (int g = 0; g <= m.groupCount(); g++) {{
                if (g > 0) out.append('\t');
                out.append(field(m.group(g)));
            }}
            out.append('\n');
        }}
        PrintStream stdout = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        stdout.print(out);
        stdout.flush();
    }}
}}
"#,
        lit = java_expr(&t.pattern),
    )
}

/// A Java expression for a string: a literal, or for a long one (an explicit set of Unicode's
/// word characters) a `String.join` of literals, since a class file holds no constant string
/// over 65,535 bytes (and literals joined with `+` are folded into one constant).
fn java_expr(s: &str) -> String {
    const CHUNK: usize = 4096;
    if s.chars().count() <= CHUNK {
        return java_str(s);
    }
    let chars: Vec<char> = s.chars().collect();
    let parts: Vec<String> = chars
        .chunks(CHUNK)
        .map(|c| java_str(&c.iter().collect::<String>()))
        .collect();
    format!(
        "String.join(\"\",\n            {})",
        parts.join(",\n            ")
    )
}

/// A Java string literal, ASCII only (non-ASCII as `\uXXXX`, which Java reads before lexing,
/// so control characters use octal escapes instead).
pub(crate) fn java_str(s: &str) -> String {
    super::quoted(s, |c, out| match c {
        c if (c as u32) < 0x20 || c == '\x7f' => {
            out.push_str(&format!("\\{:03o}", c as u32));
        }
        c if c.is_ascii() => out.push(c),
        c => {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    })
}
