//! logfmt lines: `key=value key2="quoted value with \"escapes\""`, as Go's `go-logfmt` and
//! Heroku's logs write them.
//!
//! A line is a run of pairs separated by spaces. A key is a run of characters that are not a
//! space, `=` or `"`; it is followed by `=` and a value, or stands alone (a flag, an empty
//! value). A value is either bare (characters that are not a space, `=` or `"`) or quoted:
//! `"…"` with the escapes `\" \\ \/ \b \f \n \r \t \uXXXX` (a surrogate pair for a character
//! past the BMP), as JSON has them. A line is logfmt when it reads to its end that way and at
//! least one key has a value; `hello world` is not.

use super::field_names::RecordFields;
use std::borrow::Cow;

/// The common field names of a logfmt record.
pub use super::field_names::logfmt::{LEVEL_FIELDS, MESSAGE_FIELDS, SENDER_FIELDS, TIME_FIELDS};

/// One `key=value` pair of a line: the value decoded (borrowed when it had no escapes).
pub type Pair<'l> = (&'l str, Cow<'l, str>);

/// The pairs of a logfmt line (without its line break), or `None` when it is not logfmt.
pub fn pairs(line: &str) -> Option<Vec<Pair<'_>>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut valued = false;
    let mut at = 0;
    let is_space = |c: u8| c == b' ' || c == b'\t';
    while at < b.len() {
        if is_space(b[at]) {
            at += 1;
            continue;
        }
        let key_start = at;
        while at < b.len() && !is_space(b[at]) && b[at] != b'=' && b[at] != b'"' {
            at += 1;
        }
        if at == key_start {
            // A value without a key (`=x`) or a stray quote.
            return None;
        }
        let key = &line[key_start..at];
        if at == b.len() || is_space(b[at]) {
            out.push((key, Cow::Borrowed("")));
            continue;
        }
        if b[at] == b'"' {
            return None;
        }
        // `=`
        at += 1;
        valued = true;
        if at < b.len() && b[at] == b'"' {
            let (value, next) = quoted(line, at)?;
            if next < b.len() && !is_space(b[next]) {
                return None;
            }
            out.push((key, value));
            at = next;
        } else {
            let start = at;
            while at < b.len() && !is_space(b[at]) {
                if b[at] == b'"' || b[at] == b'=' {
                    return None;
                }
                at += 1;
            }
            out.push((key, Cow::Borrowed(&line[start..at])));
        }
    }
    valued.then_some(out)
}

/// The value of the quoted string that opens at byte `open` of `line` (a `"`), decoded, and
/// the byte past its closing quote; `None` when it is not closed or holds an unknown escape.
fn quoted(line: &str, open: usize) -> Option<(Cow<'_, str>, usize)> {
    let body = &line[open + 1..];
    let mut decoded: Option<String> = None;
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let value = match decoded {
                    Some(s) => Cow::Owned(s),
                    None => Cow::Borrowed(&body[..i]),
                };
                return Some((value, open + 1 + i + 1));
            }
            '\\' => {
                let s = decoded.get_or_insert_with(|| body[..i].to_string());
                let (_, e) = chars.next()?;
                match e {
                    '"' | '\\' | '/' => s.push(e),
                    'b' => s.push('\u{8}'),
                    'f' => s.push('\u{c}'),
                    'n' => s.push('\n'),
                    'r' => s.push('\r'),
                    't' => s.push('\t'),
                    'u' => {
                        let first = hex_unit(&mut chars)?;
                        let code = if (0xD800..0xDC00).contains(&first) {
                            if chars.next()?.1 != '\\' || chars.next()?.1 != 'u' {
                                return None;
                            }
                            let low = hex_unit(&mut chars)?;
                            if !(0xDC00..0xE000).contains(&low) {
                                return None;
                            }
                            0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            first
                        };
                        s.push(char::from_u32(code)?);
                    }
                    _ => return None,
                }
            }
            c => {
                if let Some(s) = decoded.as_mut() {
                    s.push(c);
                }
            }
        }
    }
    None
}

/// Four hex digits of a `\\uXXXX` escape.
fn hex_unit(chars: &mut std::str::CharIndices<'_>) -> Option<u32> {
    let mut unit = 0;
    for _ in 0..4 {
        unit = unit * 16 + chars.next()?.1.to_digit(16)?;
    }
    Some(unit)
}

/// What one line of a logfmt log is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogfmtLine {
    /// A record.
    Record(RecordFields),
    /// Not logfmt.
    NotLogfmt,
    /// logfmt without a message field.
    NoMessage,
}

/// Reads one line of a logfmt log (without its line break), its fields under the process's
/// names ([`super::field_names::FieldNames::logfmt`]).
pub fn logfmt_record(line: &str) -> LogfmtLine {
    logfmt_record_with(line, super::field_names::FieldNames::logfmt())
}

/// Reads one line of a logfmt log (without its line break), its fields under `names`.
pub fn logfmt_record_with(line: &str, names: &super::field_names::FieldNames) -> LogfmtLine {
    let Some(pairs) = pairs(line) else {
        return LogfmtLine::NotLogfmt;
    };
    let field = |keys: &[String]| -> Option<String> {
        keys.iter().find_map(|n| {
            pairs
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.to_string())
        })
    };
    match field(&names.message) {
        Some(message) => LogfmtLine::Record(RecordFields::found(message, names, field)),
        None => LogfmtLine::NoMessage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_values_decode_their_escapes() {
        let line = r#"ts=2026-10-05T00:01:48Z level=info logger=pip msg="[RESULT 1a] OK \"quoted\" a\\b\n  - x \u00e9\ud83d\ude00" done"#;
        let LogfmtLine::Record(f) = logfmt_record(line) else {
            panic!("a record")
        };
        assert_eq!(f.message, "[RESULT 1a] OK \"quoted\" a\\b\n  - x é😀");
        assert_eq!(f.time.as_deref(), Some("2026-10-05T00:01:48Z"));
        assert_eq!(f.level.as_deref(), Some("info"));
        assert_eq!(f.sender.as_deref(), Some("pip"));
        let p = pairs(line).unwrap();
        assert_eq!(p.last().unwrap(), &("done", Cow::Borrowed("")));
        // Bare values, the second name of each field, an empty quoted value.
        let LogfmtLine::Record(f) = logfmt_record("t=12 lvl=warn component=db message=bare x=\"\"")
        else {
            panic!("a record")
        };
        assert_eq!(
            (
                f.message.as_str(),
                f.time.as_deref(),
                f.level.as_deref(),
                f.sender.as_deref()
            ),
            ("bare", Some("12"), Some("warn"), Some("db"))
        );
    }

    #[test]
    fn what_is_not_logfmt() {
        for no in [
            "hello world",
            "",
            "msg=\"not closed",
            "msg=\"bad \\q escape\"",
            "msg=a\"b",
            "=value",
            "key=\"x\"y",
            "a=b=c",
            "{\"msg\":\"json\"}",
            "msg=\"\\ud83d alone\"",
        ] {
            assert_eq!(logfmt_record(no), LogfmtLine::NotLogfmt, "{no:?}");
        }
        assert_eq!(logfmt_record("level=info at=x"), LogfmtLine::NoMessage);
    }
}
