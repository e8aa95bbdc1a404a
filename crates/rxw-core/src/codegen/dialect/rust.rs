//! Rust with the `regex` crate, and `fancy-regex` when look-around or backreferences need it.

use super::OUTPUT_DOC;
use crate::codegen::{TargetEngine, Translation};

/// The Rust pattern with the flags as an inline group (`regex` and `fancy-regex` both read it).
pub(crate) fn rust_pattern(t: &Translation) -> String {
    if t.flags.is_empty() {
        t.pattern.clone()
    } else {
        format!("(?{}){}", t.flags, t.pattern)
    }
}

pub(super) fn program(t: &Translation, origin: &str) -> String {
    let fancy = t.engine == TargetEngine::RustFancy;
    let (dep, ty, caps) = if fancy {
        (
            "fancy-regex = \"0.20\"",
            "fancy_regex::Regex",
            "let caps = caps.expect(\"the backtracking limit was reached\");\n        ",
        )
    } else {
        ("regex = \"1\"", "regex::Regex", "")
    };
    format!(
        r#"//! {origin}
//! It {OUTPUT_DOC}.
//! Cargo.toml: [dependencies] {dep}

use std::io::{{Read, Write}};

const PATTERN: &str = {lit};

fn field(group: Option<&str>) -> String {{
    match group {{
        None => "\\N".to_string(),
        Some(s) => s
            .replace('\\', "\\\\")
            .replace('\t', "\\t")
            .replace('\n', "\\n")
            .replace('\r', "\\r"),
    }}
}}

fn main() {{
    let re = {ty}::new(PATTERN).expect("the pattern compiles");
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .expect("standard input is UTF-8");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for caps in re.captures_iter(&text) {{
        {caps}let fields: Vec<String> = caps.iter().map(|g| field(g.map(|m| m.as_str()))).collect();
        writeln!(out, "{{}}", fields.join("\t")).expect("standard output is writable");
    }}
}}
"#,
        lit = rust_str(&rust_pattern(t)),
    )
}

/// A Rust raw string literal.
pub(crate) fn rust_str(s: &str) -> String {
    if s.chars().any(|c| c.is_control() && c != '\t') {
        return format!("\"{}\"", s.escape_default());
    }
    let mut hashes = String::new();
    while s.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{s}\"{hashes}")
}
