//! syslog lines, as syslog daemons write them to files: RFC 3164 and RFC 5424 headers.
//!
//! - RFC 5424: `<PRI>VERSION TIMESTAMP HOSTNAME APP-NAME PROCID MSGID STRUCTURED-DATA [MSG]`,
//!   each field `-` when it has no value, the structured data `-` or one or more
//!   `[id name="value" …]` elements (a value may hold `\"`, `\\` and `\]`); a BOM opening
//!   the message is not part of it.
//! - RFC 3164 (BSD): `[<PRI>]TIMESTAMP HOSTNAME [TAG[\[PID\]]: ]MSG`, the timestamp
//!   `Mmm dd hh:mm:ss` (the day padded with a space) or an ISO-8601 stamp (rsyslog's
//!   high-precision file format, and then the `TAG:` is needed); files written by rsyslog or
//!   syslog-ng have no PRI.
//!
//! The message is the rest of the line after the header: a stretch of the file.

use super::timestamp;

/// The header of one syslog line (offsets are bytes of the line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyslogHeader<'l> {
    /// The priority (facility × 8 + severity), when the line has one.
    pub pri: Option<u8>,
    /// `Some(1)` for an RFC 5424 line, `None` for RFC 3164.
    pub version: Option<u8>,
    /// The timestamp, as written (`None`: RFC 5424's `-`).
    pub time: Option<&'l str>,
    /// The host name.
    pub host: Option<&'l str>,
    /// The application (RFC 5424's APP-NAME, RFC 3164's TAG).
    pub app: Option<&'l str>,
    /// The process id.
    pub procid: Option<&'l str>,
    /// RFC 5424's MSGID.
    pub msgid: Option<&'l str>,
    /// RFC 5424's structured data, as written (`None`: `-`).
    pub structured_data: Option<&'l str>,
    /// Where the message starts in the line.
    pub message_at: usize,
}

/// The severity names of syslog's eight levels, by number.
pub const SEVERITIES: [&str; 8] = [
    "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
];

impl SyslogHeader<'_> {
    /// The severity the PRI says (`info`, `err`…), when the line has a PRI.
    pub fn severity(&self) -> Option<&'static str> {
        self.pri.map(|p| SEVERITIES[usize::from(p % 8)])
    }

    /// The sender: the application, else the host.
    pub fn sender(&self) -> Option<&str> {
        self.app.or(self.host)
    }
}

/// The syslog header of `line` (without its line break), if it has one.
pub fn header(line: &str) -> Option<SyslogHeader<'_>> {
    let (pri, rest_at) = match pri(line) {
        Some((p, len)) => (Some(p), len),
        None => (None, 0),
    };
    if pri.is_some()
        && let Some(h) = rfc5424(line, rest_at)
    {
        return Some(SyslogHeader { pri, ..h });
    }
    rfc3164(line, rest_at).map(|h| SyslogHeader { pri, ..h })
}

/// `<N>` at the line's start, N in 0..=191 without leading zeros: N and the length.
fn pri(line: &str) -> Option<(u8, usize)> {
    let rest = line.strip_prefix('<')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=3).contains(&digits) || rest.as_bytes().get(digits) != Some(&b'>') {
        return None;
    }
    if digits > 1 && rest.starts_with('0') {
        return None;
    }
    let n: u16 = rest[..digits].parse().ok()?;
    (n <= 191).then_some((n as u8, digits + 2))
}

/// A run of printable ASCII without spaces at `at`: the field (`None` for `-`) and the byte
/// past it, which must be a space.
fn field(line: &str, at: usize) -> Option<(Option<&str>, usize)> {
    let len = line.as_bytes()[at..]
        .iter()
        .take_while(|&&b| (0x21..=0x7e).contains(&b))
        .count();
    if len == 0 || line.as_bytes().get(at + len) != Some(&b' ') {
        return None;
    }
    let f = &line[at..at + len];
    Some(((f != "-").then_some(f), at + len + 1))
}

fn rfc5424(line: &str, at: usize) -> Option<SyslogHeader<'_>> {
    let b = line.as_bytes();
    let digits = b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=2).contains(&digits) || b[at] == b'0' || b.get(at + digits) != Some(&b' ') {
        return None;
    }
    let version: u8 = line[at..at + digits].parse().ok()?;
    let at = at + digits + 1;
    let (time, at) = if line[at..].starts_with("- ") {
        (None, at + 2)
    } else {
        let stamp = timestamp::leading(&b[at..])?;
        if b.get(at + stamp.len) != Some(&b' ') {
            return None;
        }
        (Some(&line[at..at + stamp.len]), at + stamp.len + 1)
    };
    let (host, at) = field(line, at)?;
    let (app, at) = field(line, at)?;
    let (procid, at) = field(line, at)?;
    let (msgid, at) = field(line, at)?;
    let sd_end = structured_data_end(b, at)?;
    let structured_data = (&line[at..sd_end] != "-").then_some(&line[at..sd_end]);
    let mut message_at = match b.get(sd_end) {
        None => sd_end,
        Some(b' ') => sd_end + 1,
        Some(_) => return None,
    };
    if line[message_at..].starts_with('\u{feff}') {
        message_at += '\u{feff}'.len_utf8();
    }
    Some(SyslogHeader {
        pri: None,
        version: Some(version),
        time,
        host,
        app,
        procid,
        msgid,
        structured_data,
        message_at,
    })
}

/// The end of the structured data at `at`: `-`, or `[…]` elements one after another.
fn structured_data_end(b: &[u8], at: usize) -> Option<usize> {
    if b.get(at) == Some(&b'-') {
        return Some(at + 1);
    }
    let mut i = at;
    while b.get(i) == Some(&b'[') {
        i += 1;
        let mut in_value = false;
        loop {
            match *b.get(i)? {
                b'\\' if in_value => i += 2,
                b'"' => {
                    in_value = !in_value;
                    i += 1;
                }
                b']' if !in_value => {
                    i += 1;
                    break;
                }
                _ => i += 1,
            }
        }
    }
    (i > at).then_some(i)
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The length of a BSD timestamp `Mmm dd hh:mm:ss` (`Oct  1 …` or `Oct 01 …`) at the start of
/// `s`.
fn bsd_time(s: &[u8]) -> Option<usize> {
    let s = s.get(..15)?;
    if !MONTHS.iter().any(|m| s.starts_with(m.as_bytes())) || s[3] != b' ' {
        return None;
    }
    let day_ok = (s[4] == b' ' || s[4].is_ascii_digit()) && s[5].is_ascii_digit();
    let digits = |r: std::ops::Range<usize>| s[r].iter().all(u8::is_ascii_digit);
    let time_ok = s[6] == b' '
        && digits(7..9)
        && s[9] == b':'
        && digits(10..12)
        && s[12] == b':'
        && digits(13..15);
    (day_ok && time_ok).then_some(15)
}

fn rfc3164(line: &str, at: usize) -> Option<SyslogHeader<'_>> {
    let b = line.as_bytes();
    let bsd = bsd_time(&b[at..]);
    let time_len = bsd.or_else(|| timestamp::leading(&b[at..]).map(|s| s.len))?;
    let time = &line[at..at + time_len];
    let at = at + time_len;
    if b.get(at) != Some(&b' ') {
        return None;
    }
    let (host, at) = field(line, at + 1).or_else(|| {
        // A host and nothing after it.
        let h = &line[at + 1..];
        (!h.is_empty() && h.bytes().all(|c| (0x21..=0x7e).contains(&c)))
            .then_some((Some(h), line.len()))
    })?;
    if host.is_some_and(|h| h.ends_with(':')) {
        return None;
    }
    // TAG[PID]: — else the content starts right after the host.
    let rest = &line[at..];
    let tag_len = rest
        .bytes()
        .take_while(|&c| (0x21..=0x7e).contains(&c) && c != b':' && c != b'[')
        .count();
    let mut i = tag_len;
    let mut procid = None;
    if tag_len > 0 && rest.as_bytes().get(i) == Some(&b'[') {
        let close = rest[i..].find(']').map(|k| i + k);
        if let Some(close) = close {
            procid = Some(&rest[i + 1..close]);
            i = close + 1;
        }
    }
    let tagged = tag_len > 0 && rest.as_bytes().get(i) == Some(&b':');
    let (app, message_at) = if tagged {
        let after = i + 1;
        let after = if rest.as_bytes().get(after) == Some(&b' ') {
            after + 1
        } else {
            after
        };
        (Some(&rest[..tag_len]), at + after)
    } else if bsd.is_some() {
        procid = None;
        (None, at)
    } else {
        // An ISO stamp and a word begin many logs: only `TAG:` makes them syslog.
        return None;
    };
    Some(SyslogHeader {
        pri: None,
        version: None,
        time: Some(time),
        host,
        app,
        procid,
        msgid: None,
        structured_data: None,
        message_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(line: &str) -> &str {
        &line[header(line).unwrap().message_at..]
    }

    #[test]
    fn rfc3164_with_and_without_pri() {
        let l = "<34>Oct 11 22:14:15 mymachine su: 'su root' failed for lonvick on /dev/pts/8";
        let h = header(l).unwrap();
        assert_eq!(h.pri, Some(34));
        assert_eq!(h.severity(), Some("crit"));
        assert_eq!(h.time, Some("Oct 11 22:14:15"));
        assert_eq!(h.host, Some("mymachine"));
        assert_eq!(h.sender(), Some("su"));
        assert_eq!(message(l), "'su root' failed for lonvick on /dev/pts/8");

        let l = "Oct  1 02:03:04 web-1 sshd[4242]: Accepted publickey for ops";
        let h = header(l).unwrap();
        assert_eq!((h.pri, h.severity()), (None, None));
        assert_eq!(h.time, Some("Oct  1 02:03:04"));
        assert_eq!(h.app, Some("sshd"));
        assert_eq!(h.procid, Some("4242"));
        assert_eq!(message(l), "Accepted publickey for ops");

        // rsyslog's high-precision stamp; a line without a tag keeps all after the host.
        let l = "2026-10-05T00:01:48.123456+02:00 box kernel: [ 1.0] eth0 up";
        assert_eq!(header(l).unwrap().app, Some("kernel"));
        assert_eq!(message(l), "[ 1.0] eth0 up");
        // An ISO stamp needs the tag: a stamp and a word begin many logs that are not syslog.
        assert_eq!(
            header("2026-10-05T00:00:01Z agent [CLAIM 7fce46e0] x"),
            None
        );
        let l = "Oct 11 22:14:15 box just words";
        assert_eq!(header(l).unwrap().app, None);
        assert_eq!(message(l), "just words");
    }

    #[test]
    fn rfc5424_with_structured_data_and_nil_values() {
        let l = "<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut=\"3\" eventSource=\"Appl\\]ication\" eventID=\"1011\"][examplePriority@32473 class=\"high\"] \u{feff}An application event log entry";
        let h = header(l).unwrap();
        assert_eq!(h.pri, Some(165));
        assert_eq!(h.severity(), Some("notice"));
        assert_eq!(h.version, Some(1));
        assert_eq!(h.time, Some("2003-10-11T22:14:15.003Z"));
        assert_eq!(h.host, Some("mymachine.example.com"));
        assert_eq!(h.app, Some("evntslog"));
        assert_eq!(h.procid, None);
        assert_eq!(h.msgid, Some("ID47"));
        assert!(h.structured_data.unwrap().ends_with("class=\"high\"]"));
        assert_eq!(message(l), "An application event log entry");

        let l = "<34>1 - - - - - - %% It's time to make the do-nuts.";
        let h = header(l).unwrap();
        assert_eq!(
            (h.time, h.host, h.app, h.procid, h.msgid, h.structured_data),
            (None, None, None, None, None, None)
        );
        assert_eq!(h.sender(), None);
        assert_eq!(message(l), "%% It's time to make the do-nuts.");
        // No message at all.
        assert_eq!(message("<14>1 2026-10-05T00:01:48Z h a 1 m -"), "");
    }

    #[test]
    fn what_has_no_syslog_header() {
        for no in [
            "plain text",
            "<192>Oct 11 22:14:15 host su: x",
            "<034>Oct 11 22:14:15 host su: x",
            "Oct 11 22:14 host su: x",
            "Foo 11 22:14:15 host su: x",
            "2026-10-05T00:01:48Z harvester: [WO:1] x",
            "<13>1 2026-10-05T00:01:48Z h a 1 m [unclosed x",
            "",
        ] {
            assert_eq!(header(no), None, "{no:?}");
        }
    }
}
