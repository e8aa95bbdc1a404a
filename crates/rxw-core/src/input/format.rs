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
//! - [`LogFormat::Syslog`]: each line a record with an RFC 3164 or RFC 5424 header
//!   ([`super::syslog`]); the message is the rest of the line, a stretch of the file. A line
//!   without such a header is no record: it is counted and said.
//! - [`LogFormat::Logfmt`]: each line `key=value …` ([`super::logfmt`]), its message the
//!   decoded value of `msg` or `message`. A line that is not logfmt, or has no message, is no
//!   record.
//! - [`LogFormat::User`]: a format the user wrote as a TOML file ([`super::user_format`]).
//! - [`LogFormat::Lines`]: the text as it is, one stretch (what rxw matched before formats).
//!
//! A log's format is detected from its first lines ([`LogFormat::detect`]) unless the user
//! names one.

use super::field_names::{FieldNames, RecordFields};
use super::logfmt::{self, LogfmtLine};
use super::syslog;
use super::timestamp;
use super::user_format::{self, UserFormatId};
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
    /// logfmt: `key=value` pairs, one record per line, the message the `msg` value.
    Logfmt,
    /// syslog files: an RFC 3164 or RFC 5424 header, then the message.
    Syslog,
    /// A format of the user's, read from a TOML file.
    User(UserFormatId),
}

impl LogFormat {
    /// The built-in formats, in the order `--format` lists them.
    pub const BUILT_IN: [LogFormat; 5] = [
        LogFormat::NetVm,
        LogFormat::JsonLines,
        LogFormat::Lines,
        LogFormat::Logfmt,
        LogFormat::Syslog,
    ];

    /// Every format `--format` takes by name: the built-in ones, then the user's from the
    /// config directory ([`user_format::configured`]).
    pub fn all() -> Vec<LogFormat> {
        let mut all = LogFormat::BUILT_IN.to_vec();
        all.extend(
            user_format::configured()
                .formats
                .iter()
                .map(|&id| LogFormat::User(id)),
        );
        all
    }

    /// The name `--format` takes and `--json` output shows.
    pub fn name(self) -> &'static str {
        match self {
            LogFormat::Lines => "lines",
            LogFormat::NetVm => "netvm",
            LogFormat::JsonLines => "jsonl",
            LogFormat::Logfmt => "logfmt",
            LogFormat::Syslog => "syslog",
            LogFormat::User(id) => user_format::get(id).name,
        }
    }

    /// The built-in format called `name` (or one of its other names: `json`, `ndjson`,
    /// `text`, `agent`…), ASCII case ignored.
    pub fn built_in_named(name: &str) -> Option<LogFormat> {
        let wanted = name.trim().to_ascii_lowercase();
        match wanted.as_str() {
            "json" | "jsonlines" | "json-lines" | "ndjson" => Some(LogFormat::JsonLines),
            "text" | "raw" => Some(LogFormat::Lines),
            "agent" => Some(LogFormat::NetVm),
            "rfc3164" | "rfc5424" => Some(LogFormat::Syslog),
            _ => LogFormat::BUILT_IN.into_iter().find(|f| f.name() == wanted),
        }
    }

    /// The file a user format was read from (`None` for a built-in one).
    pub fn path(self) -> Option<&'static std::path::Path> {
        match self {
            LogFormat::User(id) => Some(user_format::get(id).path.as_path()),
            _ => None,
        }
    }

    /// Whether `line` (one line, with or without its break) continues the record before it
    /// rather than beginning one: an indented line of a NetVM log, a line matching a user
    /// format's `continuation`.
    pub fn continues(self, line: &str) -> bool {
        match self {
            LogFormat::NetVm => line.starts_with([' ', '\t']),
            LogFormat::User(id) => {
                let f = user_format::get(id);
                if !f.has_continuation() {
                    return false;
                }
                let line = line.strip_suffix('\n').unwrap_or(line);
                f.continues(line.strip_suffix('\r').unwrap_or(line))
            }
            _ => false,
        }
    }

    /// Whether patterns run on each record's message (else on the text as is).
    pub fn has_records(self) -> bool {
        self != LogFormat::Lines
    }

    /// The format of a log whose first lines are `head` (whole lines, or the start of the
    /// log), trying the built-in formats and then the user's ([`user_format::configured`]):
    /// see [`LogFormat::detect_among`].
    pub fn detect(head: &str) -> LogFormat {
        let user: Vec<LogFormat> = user_format::configured()
            .formats
            .iter()
            .map(|&id| LogFormat::User(id))
            .collect();
        LogFormat::detect_among(head, &user)
    }

    /// The format of a log whose first lines are `head`, of the built-in formats and `user`,
    /// read off its first non-empty lines, in this order: JSON Lines when at least half are
    /// JSON objects and one has a message field; NetVM when at least one has a NetVM prefix (a
    /// timestamp and a sender); syslog when most have a syslog header; logfmt when most are
    /// logfmt and one has a message field; each of `user` in turn when most of the lines that
    /// do not continue a record match its `line` pattern; else the text as is.
    pub fn detect_among(head: &str, user: &[LogFormat]) -> LogFormat {
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
        // Half is enough: a short JSON log with one broken line is still a JSON log (the
        // broken line is said, skipped and counted), not text to match escapes and all.
        if objects * 2 >= lines.len() && records > 0 {
            return LogFormat::JsonLines;
        }
        if lines.iter().any(|l| netvm_prefix(l.as_bytes()).is_some()) {
            return LogFormat::NetVm;
        }
        let most = |n: usize, of: usize| of > 0 && n * 2 > of;
        let headers = lines.iter().filter(|l| syslog::header(l).is_some()).count();
        if most(headers, lines.len()) {
            return LogFormat::Syslog;
        }
        let read: Vec<LogfmtLine> = lines.iter().map(|l| logfmt::logfmt_record(l)).collect();
        let pairs = read.iter().filter(|l| **l != LogfmtLine::NotLogfmt).count();
        let records = read
            .iter()
            .filter(|l| matches!(l, LogfmtLine::Record(_)))
            .count();
        if most(pairs, lines.len()) && records > 0 {
            return LogFormat::Logfmt;
        }
        for &f in user {
            let firsts: Vec<&&str> = lines.iter().filter(|l| !f.continues(l)).collect();
            let LogFormat::User(id) = f else { continue };
            let matched = firsts
                .iter()
                .filter(|l| user_format::get(id).line_match(l).is_some())
                .count();
            if most(matched, firsts.len()) {
                return f;
            }
        }
        LogFormat::Lines
    }

    /// The help text of `--format`.
    pub fn help() -> String {
        let names: Vec<&str> = LogFormat::BUILT_IN.iter().map(|f| f.name()).collect();
        format!(
            "how a log's lines make records: {}, a format of the config directory's `formats/`, \
             or a format file `FILE.toml` (default: detected from each log's first lines)",
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

    /// A built-in format's name, a file's path (one that ends in `.toml` or holds a path
    /// separator: the file is loaded), else a user format's name from the config directory.
    ///
    /// # Errors
    /// [`ErrorKind::ArgumentsInvalid`] for an unknown name, listing every format; what
    /// [`user_format::load_file`] says of a file; the first error of a format file in the
    /// config directory, when the name is looked for there and one did not load (a broken
    /// format is never passed over silently).
    fn from_str(s: &str) -> Result<LogFormat, Error> {
        if let Some(f) = LogFormat::built_in_named(s) {
            return Ok(f);
        }
        let wanted = s.trim();
        if wanted.ends_with(".toml")
            || wanted.contains('/')
            || wanted.contains(std::path::MAIN_SEPARATOR)
        {
            return user_format::load_file(std::path::Path::new(wanted)).map(LogFormat::User);
        }
        let configured = user_format::configured();
        if let Some(e) = configured.errors.first() {
            return Err(e.clone());
        }
        configured.find(wanted).map(LogFormat::User).ok_or_else(|| {
            let names: Vec<&str> = LogFormat::all().iter().map(|f| f.name()).collect();
            Error::new(
                ErrorKind::ArgumentsInvalid,
                format!(
                    "unknown log format {s:?}: the formats are {} (or a format file, FILE.toml)",
                    names.join(", ")
                ),
            )
        })
    }
}

impl LogFormat {
    /// The time a record's first line `line` (without its break) gives in this format, in
    /// milliseconds since the epoch: the leading stamp of a NetVM, syslog-less or plain line
    /// ([`timestamp::leading`]), the time field of a JSON or logfmt line, the `time` group of
    /// a user format, the header's time of an RFC 5424 syslog line ([`written_time`] reads
    /// each). `None` when the line gives none (a continuation line, an RFC 3164 stamp
    /// without its year, a JSON line without a time field).
    pub fn line_time(self, line: &str) -> Option<i64> {
        match self {
            LogFormat::Lines | LogFormat::NetVm => {
                timestamp::leading(line.as_bytes()).map(|s| s.millis)
            }
            LogFormat::JsonLines => match json_record(line) {
                JsonLine::Record(f) => f.time.as_deref().and_then(written_time),
                _ => None,
            },
            LogFormat::Logfmt => match logfmt::logfmt_record(line) {
                LogfmtLine::Record(f) => f.time.as_deref().and_then(written_time),
                _ => None,
            },
            LogFormat::Syslog => syslog::header(line)?.time.and_then(written_time),
            LogFormat::User(id) => {
                let (s, e) = user_format::get(id).fields(line)?.time?;
                written_time(&line[s..e])
            }
        }
    }
}

/// The instant a time field holds, as written: an ISO-8601 time ([`timestamp::leading`],
/// the whole text), or a number of seconds since the epoch (with a fraction), read as
/// milliseconds when it has 13 digits or more before its point (`1791158508` and
/// `1791158508.25` are seconds, `1791158508250` milliseconds).
pub fn written_time(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Some(s) = timestamp::leading(text.as_bytes())
        && s.len == text.len()
    {
        return Some(s.millis);
    }
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || whole.len() > 16
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let n: i64 = whole.parse().ok()?;
    if whole.len() >= 13 {
        return Some(n);
    }
    let mut ms = 0i64;
    for k in 0..3 {
        ms = ms * 10 + frac.as_bytes().get(k).map_or(0, |b| i64::from(b - b'0'));
    }
    n.checked_mul(1000)?.checked_add(ms)
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
        let continues =
            record_start.is_some() && !boundary && format.continues(&text[at..line_end]);
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
        LogFormat::Logfmt => match logfmt::logfmt_record(strip_break(whole)) {
            LogfmtLine::Record(fields) => Message::Decoded(fields.message),
            LogfmtLine::NotLogfmt => Message::Invalid("not logfmt"),
            LogfmtLine::NoMessage => Message::Invalid("a logfmt line without a msg field"),
        },
        LogFormat::Syslog => {
            let line = strip_break(whole);
            match syslog::header(line) {
                Some(h) => Message::Stretch {
                    at: start + h.message_at,
                    text: &line[h.message_at..],
                },
                None => Message::Invalid("no syslog header"),
            }
        }
        LogFormat::User(id) => {
            let first_end = whole.find('\n').unwrap_or(whole.len());
            let first = whole[..first_end]
                .strip_suffix('\r')
                .unwrap_or(&whole[..first_end]);
            match user_format::get(id).fields(first) {
                None => Message::Invalid("does not match its format's `line` pattern"),
                Some(fields) => {
                    let (s, e) = fields.message.unwrap_or((0, first.len()));
                    let body = strip_break(whole);
                    let continued = first_end + 1 < whole.len();
                    let end = if continued || e >= first.len() {
                        body.len()
                    } else {
                        e
                    };
                    stretch_or_decoded(start + s, &whole[s..end.max(s)])
                }
            }
        }
        LogFormat::NetVm => {
            let skip = netvm_prefix(whole.as_bytes()).unwrap_or(0);
            let body = &whole[skip..];
            stretch_or_decoded(start + skip, strip_break(body))
        }
    };
    Record {
        start,
        end,
        message,
    }
}

/// `s` without its final line break (`\n` or `\r\n`).
fn strip_break(s: &str) -> &str {
    let s = s.strip_suffix('\n').unwrap_or(s);
    s.strip_suffix('\r').unwrap_or(s)
}

/// A message that starts at byte `at` of the text: a stretch of it, or decoded when CRLF
/// breaks inside must become `\n` (the message joins its lines by `\n` alone).
fn stretch_or_decoded(at: usize, body: &str) -> Message<'_> {
    if body.contains("\r\n") {
        Message::Decoded(body.replace("\r\n", "\n"))
    } else {
        Message::Stretch { at, text: body }
    }
}

/// What one line of a JSON log is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonLine {
    /// A record.
    Record(RecordFields),
    /// Not a JSON object.
    NotJson,
    /// An object without a string message field.
    NoMessage,
}

/// The common field names of a JSON record (`--field` replaces them: [`FieldNames`]).
pub use super::field_names::json::{LEVEL_FIELDS, MESSAGE_FIELDS, SENDER_FIELDS, TIME_FIELDS};

/// Reads one line of a JSON log, its fields under the process's names
/// ([`FieldNames::json`]: the common ones, or `--field`'s).
pub fn json_record(line: &str) -> JsonLine {
    json_record_with(line, FieldNames::json())
}

/// Reads one line of a JSON log, its fields under `names`.
pub fn json_record_with(line: &str, names: &FieldNames) -> JsonLine {
    let line = line.trim();
    if !line.starts_with('{') {
        return JsonLine::NotJson;
    }
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(line) else {
        return JsonLine::NotJson;
    };
    let text = |keys: &[String]| -> Option<String> {
        keys.iter().find_map(|n| match map.get(n)? {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Number(x) => Some(x.to_string()),
            _ => None,
        })
    };
    let message = names.message.iter().find_map(|n| match map.get(n)? {
        serde_json::Value::String(s) => Some(s.clone()),
        _ => None,
    });
    match message {
        Some(message) => JsonLine::Record(RecordFields::found(message, names, text)),
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
    fn json_fields_are_found_under_the_names_given() {
        let names = FieldNames {
            time: vec!["ts2".into()],
            message: vec!["body".into(), "text".into()],
            sender: vec!["host".into()],
            level: vec![],
        };
        let line = "{\"ts\":\"x\",\"ts2\":\"2026-10-05T00:01:48Z\",\"msg\":\"no\",\"text\":\"yes\",\"host\":\"h\"}";
        let JsonLine::Record(f) = json_record_with(line, &names) else {
            panic!("a record")
        };
        assert_eq!(f.message, "yes");
        assert_eq!(f.time.as_deref(), Some("2026-10-05T00:01:48Z"));
        assert_eq!(f.sender.as_deref(), Some("h"));
        assert_eq!(f.level, None);
        // The common names are not looked at once replaced.
        assert_eq!(
            json_record_with("{\"msg\":\"m\"}", &names),
            JsonLine::NoMessage
        );
    }

    #[test]
    fn detection_reads_the_first_lines() {
        let cases = [
            (
                "{\"ts\":1,\"msg\":\"a\"}\n{\"ts\":2,\"msg\":\"b\"}\n",
                LogFormat::JsonLines,
            ),
            (
                "[ACK:1]\n2026-10-05T00:01:48Z a: [WO:1] x\n",
                LogFormat::NetVm,
            ),
            ("plain text\nmore\n", LogFormat::Lines),
            ("", LogFormat::Lines),
            // JSON that is not records is not JSON Lines.
            ("[1,2]\n{\"a\":1}\n", LogFormat::Lines),
            // Regression: a two-line JSON log with one broken line was read as text.
            (
                "{\"ts\":1,\"msg\":\"a\"}\n{\"ts\":2,\"msg\n",
                LogFormat::JsonLines,
            ),
            ("{\"ts\":1,\"msg\":\"a\"}\nplain\nplain\n", LogFormat::Lines),
        ];
        for (head, format) in cases {
            assert_eq!(LogFormat::detect(head), format, "{head:?}");
        }
        assert_eq!("JSON".parse::<LogFormat>().unwrap(), LogFormat::JsonLines);
        let e = "yaml".parse::<LogFormat>().unwrap_err();
        crate::testing::assert_message_has(&e, "netvm, jsonl, lines");
    }

    /// A user format cannot take a name `--format` reads as a built-in one: the list the
    /// user formats check is exactly the names and aliases the built-ins answer to.
    #[test]
    fn the_names_user_formats_cannot_take_are_the_built_ins_names() {
        for name in user_format::RESERVED_NAMES {
            assert!(LogFormat::built_in_named(name).is_some(), "{name}");
        }
        for f in LogFormat::BUILT_IN {
            assert!(
                user_format::RESERVED_NAMES.contains(&f.name()),
                "{}",
                f.name()
            );
        }
        for alias in ["json", "ndjson", "text", "raw", "agent", "rfc5424"] {
            assert!(user_format::RESERVED_NAMES.contains(&alias));
        }
    }

    #[test]
    fn syslog_logfmt_and_user_formats_are_detected_after_the_built_in_ones() {
        let rfc3164 = "<34>Oct 11 22:14:15 mymachine su: 'su root' failed\nOct 11 22:14:16 mymachine sshd[7]: ok\n";
        assert_eq!(LogFormat::detect_among(rfc3164, &[]), LogFormat::Syslog);
        let rfc5424 =
            "<165>1 2003-10-11T22:14:15.003Z host app - ID47 [a@1 b=\"c\"] m\n<34>1 - - - - - -\n";
        assert_eq!(LogFormat::detect_among(rfc5424, &[]), LogFormat::Syslog);
        let logfmt = "ts=1 level=info msg=\"a b\"\nts=2 msg=c\nnot logfmt here\n";
        assert_eq!(LogFormat::detect_among(logfmt, &[]), LogFormat::Logfmt);
        // Pairs without a message are not records: not logfmt.
        assert_eq!(
            LogFormat::detect_among("a=1 b=2\nc=3\n", &[]),
            LogFormat::Lines
        );
        let (_dir, path, web) = user_format::written_for_tests(
            "web.toml",
            "name = \"web-detect\"\nline = '\\d\\d:\\d\\d \\[(?P<level>\\w+)\\] (?P<message>.*)'\ncontinuation = '\\s'\n",
        );
        let web = LogFormat::User(web);
        let log = "12:00 [info] one\n  more of one\n  and more\n12:01 [warn] two\n";
        assert_eq!(LogFormat::detect_among(log, &[]), LogFormat::Lines);
        assert_eq!(LogFormat::detect_among(log, &[web]), web);
        // Built-in formats come first.
        assert_eq!(LogFormat::detect_among(rfc3164, &[web]), LogFormat::Syslog);
        assert_eq!(web.name(), "web-detect");
        assert_eq!(path.to_str().unwrap().parse::<LogFormat>().unwrap(), web);
    }

    #[test]
    fn logfmt_and_syslog_records_and_what_is_no_record() {
        let log = "ts=1 msg=\"[CLAIM 1a] \\\"x\\\"\"\nplain words\nlevel=info\n";
        let rs = records(log, LogFormat::Logfmt, &[0]);
        assert_eq!(rs[0].message, Message::Decoded("[CLAIM 1a] \"x\"".into()));
        assert_eq!(rs[1].message, Message::Invalid("not logfmt"));
        assert_eq!(
            rs[2].message,
            Message::Invalid("a logfmt line without a msg field")
        );
        let log = "Oct 11 22:14:15 host su: [ACK 1a]\r\n<165>1 - h app - - [x@1 a=\"]\"] [CLAIM 1a]\nno header\n";
        let rs = records(log, LogFormat::Syslog, &[0]);
        assert_eq!(rs.len(), 3);
        for (r, want) in rs.iter().zip(["[ACK 1a]", "[CLAIM 1a]"]) {
            let Message::Stretch { at, text } = r.message else {
                panic!("a stretch of the file")
            };
            assert_eq!(text, want);
            assert_eq!(&log[at..at + text.len()], want);
        }
        assert_eq!(rs[2].message, Message::Invalid("no syslog header"));
    }

    #[test]
    fn a_user_format_s_message_runs_over_its_continuation_lines() {
        let (_dir, _, f) = user_format::written_for_tests(
            "cont.toml",
            "name = \"cont\"\nline = '(?P<time>\\d+) (?P<message>.*?)( #end)?$'\ncontinuation = '\\s'\n",
        );
        let f = LogFormat::User(f);
        let log = "1 first #end\n2 second\n  more\n\tlast\nno time\n";
        let rs = records(log, f, &[0]);
        let got: Vec<&str> = rs.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(got, ["first", "second\n  more\n\tlast", ""]);
        assert_eq!(
            rs[2].message,
            Message::Invalid("does not match its format's `line` pattern")
        );
        let Message::Stretch { at, .. } = rs[1].message else {
            panic!("a stretch")
        };
        assert_eq!(at, log.find("second").unwrap());
        // A leading continuation begins a record of its own, which does not match `line`.
        let rs = records("\tno time\n", f, &[0]);
        assert!(matches!(rs[0].message, Message::Invalid(_)));
        assert!(f.continues("  x\n") && !f.continues("x"));
    }

    #[test]
    fn each_format_reads_its_records_time() {
        let t = 1_791_158_508_000; // 2026-10-05T00:01:48Z
        assert_eq!(written_time("2026-10-05T00:01:48Z"), Some(t));
        assert_eq!(written_time("1791158508"), Some(t));
        assert_eq!(written_time("1791158508.25"), Some(t + 250));
        assert_eq!(written_time("1791158508000"), Some(t));
        for no in ["", "soon", "2026-10-05T00:01:48Z x", "-5", "1.2.3", "12e3"] {
            assert_eq!(written_time(no), None, "{no:?}");
        }
        let netvm = "2026-10-05T00:01:48Z a: m";
        assert_eq!(LogFormat::NetVm.line_time(netvm), Some(t));
        assert_eq!(LogFormat::NetVm.line_time("  continued"), None);
        let json = "{\"ts\":\"2026-10-05T00:01:48Z\",\"msg\":\"m\"}";
        assert_eq!(LogFormat::JsonLines.line_time(json), Some(t));
        let json = "{\"time\":1791158508,\"msg\":\"m\"}";
        assert_eq!(LogFormat::JsonLines.line_time(json), Some(t));
        assert_eq!(LogFormat::JsonLines.line_time("{\"msg\":\"m\"}"), None);
        let logfmt = "ts=2026-10-05T00:01:48Z msg=m";
        assert_eq!(LogFormat::Logfmt.line_time(logfmt), Some(t));
        let rfc5424 = "<165>1 2026-10-05T00:01:48Z host app - - - m";
        assert_eq!(LogFormat::Syslog.line_time(rfc5424), Some(t));
        assert_eq!(
            LogFormat::Syslog.line_time("Oct 11 22:14:15 host su: m"),
            None
        );
    }

    #[test]
    fn lines_is_the_whole_text() {
        assert_eq!(messages("a\n  b\n", LogFormat::Lines), vec!["a\n  b\n"]);
        assert!(records("", LogFormat::NetVm, &[]).is_empty());
    }
}
