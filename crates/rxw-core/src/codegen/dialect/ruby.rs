//! Ruby with its `Regexp` (Onigmo).

use super::OUTPUT_DOC;
use crate::codegen::Translation;

/// The `Regexp` options for the translation's flag letters (Ruby's `i`, `m` as dot-all, `x`),
/// as the argument after the pattern.
pub(crate) fn ruby_options(t: &Translation) -> String {
    super::flag_argument(t, |c| match c {
        'i' => Some("Regexp::IGNORECASE"),
        'm' => Some("Regexp::MULTILINE"),
        'x' => Some("Regexp::EXTENDED"),
        _ => None,
    })
}

pub(super) fn program(t: &Translation, origin: &str) -> String {
    format!(
        r#"#!/usr/bin/env ruby
# {origin}
#
# It {OUTPUT_DOC}.

PATTERN = Regexp.new({lit}{options})

ESCAPES = {{ "\\" => "\\\\", "\t" => "\\t", "\n" => "\\n", "\r" => "\\r" }}.freeze

def field(group)
  return "\\N" if group.nil?

  group.gsub(/[\\\t\n\r]/, ESCAPES)
end

text = $stdin.binmode.read.force_encoding(Encoding::UTF_8)
out = +""
text.scan(PATTERN) do
  m = Regexp.last_match
  out << (0...m.size).map {{ |g| field(m[g]) }}.join("\t") << "\n"
end
$stdout.binmode.write(out)
"#,
        lit = ruby_str(&t.pattern),
        options = ruby_options(t),
    )
}

/// A double-quoted Ruby string literal holding exactly `s`: `"` and `\` escaped, `#` as `\#`
/// (so that no `#{…}`, `#@` or `#$` interpolates), control characters as `\u{…}`, every
/// other character as it is (a Ruby source is UTF-8).
pub(crate) fn ruby_str(s: &str) -> String {
    super::quoted(s, |c, out| match c {
        '#' => out.push_str("\\#"),
        c if c.is_control() => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
        c => out.push(c),
    })
}
