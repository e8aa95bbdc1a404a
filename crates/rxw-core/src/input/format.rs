//! Log formats: how a log's lines make records, and each record's message.
//!
//! The NetVM registry is written for one agent message at a time, as NetVM's own code runs it;
//! a log holds many messages behind prefixes. A [`LogFormat`] says where records begin and
//! what a record's message is:
//!
//! - [`LogFormat::NetVm`], the agent log: a line that begins with a space or a tab continues
//!   the record before it; any other line begins a record. A record whose first line begins
//!   with a timestamp ([`timestamp::leading`]), one space, a sender `[A-Za-z0-9_.-]+`, a
//!   colon and one space has that prefix taken off (time and sender become fields); otherwise
//!   its whole first line is the message. The message is the rest of the first line plus
//!   every continuation line, joined by `\n`, without the final line break (a `\r` before a
//!   line feed is the line break's, not the message's).
//! - [`LogFormat::JsonLines`]: each line is a JSON object, its message the string under
//!   `msg` or `message`, its time under `ts`, `time`, `timestamp` or `@timestamp`, its
//!   sender under `agent`, `source` or `logger`, its level under `level` or `severity`. A
//!   line that is not such an object is no record: it is counted and said.
//! - [`LogFormat::Lines`]: the text as it is, one stretch (what rxw matched before formats).
//!
//! A log's format is detected from its first lines ([`LogFormat::detect`]) unless the user
//! names one.

use super::timestamp;
use crate::error::{Error, ErrorKind};
use std::fmt;
use std::str::FromStr;

/// How a log's lines make records (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogFormat {
    /// The text as is: patterns run over the whole text.
    Lines,
    /// The NetVM agent log: `TIME SENDER: message`, continuation lines indented.
    NetVm,
    /// JSON Lines: one object per line, the message a field of it.
    JsonLines,
}

impl LogFormat {
    /// Every format, in the order `--format` lists them.
    pub const ALL: [LogFormat; 3] = [LogFormat::NetVm, LogFormat::JsonLines, LogFormat::Lines];

    /// The name `--format` takes and `--json` output shows.
    pub fn name(self) -> &'static str {
        match self {
            LogFormat::Lines => "lines",
            LogFormat::NetVm => "netvm",
            LogFormat::JsonLines => "jsonl",
        }
    }

    /// Whether patterns run on each record's message (else on the text as is).
    pub fn has_records(self) -> bool {
        self != LogFormat::Lines
    }

    /// The format of a log whose first lines are `head` (whole lines, or the start of the
    /// log): JSON Lines when most of its first non-empty lines are JSON objects and one has a
    /// message field; NetVM when at least one of them has a NetVM prefix (a timestamp and a
    /// sender); else the text as is.
    pub fn detect(head: &str) -> LogFormat {
        let lines: Vec<&str> = head
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .filter(|l| !l.trim().is_empty())
            .take(DETECT_LINES)
            .collect();
        if lines.is_empty() {
            return LogFormat::Lines;
        }
        let read: Vec<JsonLine> = lines.iter().map(|l| json_record(l)).collect();
        let objects = read.iter().filter(|j| **j != JsonLine::NotJson).count();
        let records = read
            .iter()
            .filter(|j| matches!(j, JsonLine::Record(_)))
            .count();
        if objects * 2 > lines.len() && records > 0 {
            return LogFormat::JsonLines;
        }
        if lines.iter().any(|l| netvm_prefix(l.as_bytes()).is_some()) {
            return LogFormat::NetVm;
        }
        LogFormat::Lines
    }

    /// The help text of `--format`.
    pub fn help() -> String {
        let names: Vec<&str> = LogFormat::ALL.iter().map(|f| f.name()).collect();
        format!(
            "how a log's lines make records: {} (default: detected from each log's first lines)",
            names.join(", ")
        )
    }
}

/// Lines [`LogFormat::detect`] reads at most.
const DETECT_LINES: usize = 64;

impl fmt::Display for LogFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for LogFormat {
    type Err = Error;

    fn from_str(s: &str) -> Result<LogFormat, Error> {
        let wanted = s.trim().to_ascii_lowercase();
        let found = match wanted.as_str() {
            "json" | "jsonlines" | "json-lines" | "ndjson" => Some(LogFormat::JsonLines),
            "text" | "raw" => Some(LogFormat::Lines),
            "agent" => Some(LogFormat::NetVm),
            _ => LogFormat::ALL.into_iter().find(|f| f.name() == wanted),
        };
        found.ok_or_else(|| {
            let names: Vec<&str> = LogFormat::ALL.iter().map(|f| f.name()).collect();
            Error::new(
                ErrorKind::ArgumentsInvalid,
                format!(
                    "unknown log format {s:?}: the formats are {}",
                    names.join(", ")
                ),
            )
        })
    }
}

/// The length of the NetVM prefix (`TIME SENDER: `) at the start of `line`, if it has one.
pub fn netvm_prefix(line: &[u8]) -> Option<usize> {
    let stamp = timestamp::leading(line)?;
    let rest = line.get(stamp.len..)?;
    let rest = rest.strip_prefix(b" ")?;
    let sender = rest
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        .count();
    if sender == 0 || rest.get(sender..sender + 2) != Some(b": ") {
        return None;
    }
    Some(stamp.len + 1 + sender + 2)
}

/// One record of a text: where it lies and what its message is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<'t> {
    /// Byte offset of the record's first line in the text.
    pub start: usize,
    /// Byte offset past the record's last line (its line break included).
    pub end: usize,
    /// The message.
    pub message: Message<'t>,
}

/// A record's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message<'t> {
    /// A stretch of the text, byte for byte: the message starts at byte `at` of the text.
    Stretch {
        /// Where it starts in the text.
        at: usize,
        /// The message.
        text: &'t str,
    },
    /// A message that is not a stretch of the text (a JSON string decoded, or lines whose
    /// `\r\n` breaks were taken off): offsets in it are its own.
    Decoded(String),
    /// A line of a JSON log that is no record: why.
    Invalid(&'static str),
}

impl Message<'_> {
    /// The message's text (empty for an invalid line).
    pub fn as_str(&self) -> &str {
        match self {
            Message::Stretch { text, .. } => text,
            Message::Decoded(s) => s,
            Message::Invalid(_) => "",
        }
    }
}

/// The records of `text` (whole lines, the last perhaps without its line break) read as
/// `format`. A record never spans one of `boundaries` (byte offsets where another log's
/// lines begin, in a merged text). [`LogFormat::Lines`] gives one record, the whole text.
pub fn records<'t>(text: &'t str, format: LogFormat, boundaries: &[usize]) -> Vec<Record<'t>> {
    let mut out = Vec::new();
    let mut each = |start: usize, end: usize| out.push(record(text, start, end, format));
    split(text, format, boundaries, &mut each);
    out
}

/// Calls `f(start, end)` for each record's extent in `text`, in order.
pub fn split(text: &str, format: LogFormat, boundaries: &[usize], f: &mut dyn FnMut(usize, usize)) {
    if text.is_empty() {
        return;
    }
    if format == LogFormat::Lines {
        f(0, text.len());
        return;
    }
    let bytes = text.as_bytes();
    let mut record_start: Option<usize> = None;
    let mut next_boundary = boundaries.iter().copied().peekable();
    let mut at = 0;
    while at < bytes.len() {
        let line_end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        let mut boundary = false;
        while next_boundary.peek().is_some_and(|&b| b <= at) {
            boundary |= next_boundary.next() == Some(at);
        }
        let continues = format == LogFormat::NetVm
            && matches!(bytes[at], b' ' | b'\t')
            && record_start.is_some()
            && !boundary;
        if !continues {
            if let Some(s) = record_start {
                f(s, at);
            }
            record_start = Some(at);
        }
        at = line_end;
    }
    if let Some(s) = record_start {
        f(s, bytes.len());
    }
}

/// The record of `format` covering `text[start..end]` (one of [`split`]'s extents).
pub fn record(text: &str, start: usize, end: usize, format: LogFormat) -> Record<'_> {
    let whole = &text[start..end];
    let message = match format {
        LogFormat::Lines => Message::Stretch {
            at: start,
            text: whole,
        },
        LogFormat::JsonLines => {
            let line = whole.strip_suffix('\n').unwrap_or(whole);
            let line = line.strip_suffix('\r').unwrap_or(line);
            match json_record(line) {
                JsonLine::Record(fields) => Message::Decoded(fields.message),
                JsonLine::NotJson => Message::Invalid("not JSON"),
                JsonLine::NoMessage => Message::Invalid("a JSON line without a message field"),
            }
        }
        LogFormat::NetVm => {
            let skip = netvm_prefix(whole.as_bytes()).unwrap_or(0);
            let body = &whole[skip..];
            let body = body.strip_suffix('\n').unwrap_or(body);
            let body = body.strip_suffix('\r').unwrap_or(body);
            if body.contains("\r\n") {
                // CRLF breaks inside: the message joins its lines by `\n` alone.
                Message::Decoded(body.replace("\r\n", "\n"))
            } else {
                Message::Stretch {
                    at: start + skip,
                    text: body,
                }
            }
        }
    };
    Record {
        start,
        end,
        message,
    }
}

/// The fields of a JSON Lines record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct JsonFields {
    /// The message.
    pub message: String,
    /// The time, as written.
    pub time: Option<String>,
    /// The sender.
    pub sender: Option<String>,
    /// The level.
    pub level: Option<String>,
}

/// What one line of a JSON log is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonLine {
    /// A record.
    Record(JsonFields),
    /// Not a JSON object.
    NotJson,
    /// An object without a string message field.
    NoMessage,
}

/// The field names a JSON record's message is found under, in order of preference.
pub const MESSAGE_FIELDS: [&str; 2] = ["msg", "message"];
/// The field names of its time.
pub const TIME_FIELDS: [&str; 4] = ["ts", "time", "timestamp", "@timestamp"];
/// The field names of its sender.
pub const SENDER_FIELDS: [&str; 3] = ["agent", "source", "logger"];
/// The field names of its level.
pub const LEVEL_FIELDS: [&str; 2] = ["level", "severity"];

/// Reads one line of a JSON log.
pub fn json_record(line: &str) -> JsonLine {
    let line = line.trim();
    if !line.starts_with('{') {
        return JsonLine::NotJson;
    }
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(line) else {
        return JsonLine::NotJson;
    };
    let text = |names: &[&str]| -> Option<String> {
        names.iter().find_map(|n| match map.get(*n)? {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Number(x) => Some(x.to_string()),
            _ => None,
        })
    };
    let message = MESSAGE_FIELDS.iter().find_map(|n| match map.get(*n)? {
        serde_json::Value::String(s) => Some(s.clone()),
        _ => None,
    });
    match message {
        Some(message) => JsonLine::Record(JsonFields {
            message,
            time: text(&TIME_FIELDS),
            sender: text(&SENDER_FIELDS),
            level: text(&LEVEL_FIELDS),
        }),
        None => JsonLine::NoMessage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(text: &str, format: LogFormat) -> Vec<String> {
        records(text, format, &[0])
            .iter()
            .map(|r| r.message.as_str().to_string())
            .collect()
    }

    #[test]
    fn netvm_records_take_off_the_prefix_and_join_continuations() {
        let log = "2026-10-05T00:01:48Z harvester: [WO:2d40] [from super] Sweep — a\n  - b\n\t- c\n[ACK:2d40] [from harvester]\n2026-10-05T00:02:00Z [WO:x] no sender\n";
        assert_eq!(
            messages(log, LogFormat::NetVm),
            vec![
                "[WO:2d40] [from super] Sweep — a\n  - b\n\t- c",
                "[ACK:2d40] [from harvester]",
                "2026-10-05T00:02:00Z [WO:x] no sender",
            ]
        );
        let rs = records(log, LogFormat::NetVm, &[0]);
        // The stretch's offset is where the message starts in the text.
        let Message::Stretch { at, text } = &rs[0].message else {
            panic!("a stretch")
        };
        assert_eq!(&log[*at..*at + text.len()], *text);
        assert_eq!(rs[1].start, rs[0].end);
        assert_eq!(rs.last().unwrap().end, log.len());
    }

    #[test]
    fn a_leading_continuation_and_a_boundary_begin_records() {
        let log = "  orphan\nA\n  a2\n  b-from-another-log\n";
        let b = log.find("  b-").unwrap();
        let rs = records(log, LogFormat::NetVm, &[0, b]);
        let got: Vec<&str> = rs.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(got, vec!["  orphan", "A\n  a2", "  b-from-another-log"]);
    }

    #[test]
    fn crlf_breaks_are_not_part_of_the_message() {
        let log = "2026-10-05T00:01:48Z a: one\r\n  two\r\nB\r\n";
        let rs = records(log, LogFormat::NetVm, &[0]);
        assert_eq!(rs[0].message, Message::Decoded("one\n  two".into()));
        assert_eq!(
            rs[1].message,
            Message::Stretch {
                at: log.find("B").unwrap(),
                text: "B"
            }
        );
    }

    #[test]
    fn prefixes_need_a_stamp_a_sender_a_colon_and_a_space() {
        assert_eq!(
            netvm_prefix(b"2026-10-05T00:01:48Z ml-7: x"),
            Some("2026-10-05T00:01:48Z ml-7: ".len())
        );
        assert_eq!(
            netvm_prefix(b"2026-10-05T00:01:48.250+02:00 a_b.c: x"),
            Some("2026-10-05T00:01:48.250+02:00 a_b.c: ".len())
        );
        for no in [
            &b"2026-10-05T00:01:48Z ml 7: x"[..],
            b"2026-10-05T00:01:48Z ml-7:x",
            b"2026-10-05T00:01:48Z : x",
            b"2026-13-05T00:01:48Z a: x",
            b"x 2026-10-05T00:01:48Z a: x",
            b"2026-10-05T00:01:48Z",
        ] {
            assert_eq!(netvm_prefix(no), None, "{}", String::from_utf8_lossy(no));
        }
    }

    #[test]
    fn json_lines_decode_the_message_and_say_what_is_not_a_record() {
        let log = "{\"ts\":\"2026-10-05T00:01:48Z\",\"agent\":\"pip\",\"msg\":\"[RESULT 1a] OK\\n  - x\"}\nnot json\n{\"level\":\"info\"}\n{\"message\":\"m\"}";
        let rs = records(log, LogFormat::JsonLines, &[0]);
        assert_eq!(rs.len(), 4);
        assert_eq!(
            rs[0].message,
            Message::Decoded("[RESULT 1a] OK\n  - x".into())
        );
        assert_eq!(rs[1].message, Message::Invalid("not JSON"));
        assert!(matches!(rs[2].message, Message::Invalid(_)));
        assert_eq!(rs[3].message.as_str(), "m");
        let JsonLine::Record(f) = json_record(log.lines().next().unwrap()) else {
            panic!("a record")
        };
        assert_eq!(f.time.as_deref(), Some("2026-10-05T00:01:48Z"));
        assert_eq!(f.sender.as_deref(), Some("pip"));
    }

    #[test]
    fn detection_reads_the_first_lines() {
        assert_eq!(
            LogFormat::detect("{\"ts\":1,\"msg\":\"a\"}\n{\"ts\":2,\"msg\":\"b\"}\n"),
            LogFormat::JsonLines
        );
        assert_eq!(
            LogFormat::detect("[ACK:1]\n2026-10-05T00:01:48Z a: [WO:1] x\n"),
            LogFormat::NetVm
        );
        assert_eq!(LogFormat::detect("plain text\nmore\n"), LogFormat::Lines);
        assert_eq!(LogFormat::detect(""), LogFormat::Lines);
        // JSON that is not records is not JSON Lines.
        assert_eq!(LogFormat::detect("[1,2]\n{\"a\":1}\n"), LogFormat::Lines);
        assert_eq!("JSON".parse::<LogFormat>().unwrap(), LogFormat::JsonLines);
        let e = "yaml".parse::<LogFormat>().unwrap_err();
        assert!(e.message.contains("netvm, jsonl, lines"), "{}", e.message);
    }

    #[test]
    fn lines_is_the_whole_text() {
        assert_eq!(messages("a\n  b\n", LogFormat::Lines), vec!["a\n  b\n"]);
        assert!(records("", LogFormat::NetVm, &[]).is_empty());
    }
}
