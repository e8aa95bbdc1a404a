//! Whether the terminal's background is light or dark, for `--theme auto`: the terminal's
//! answer to the background query (OSC 11), else `COLORFGBG`, else dark.
//!
//! The query is sent once, before the workbench takes the screen, on `/dev/tty` in raw mode
//! (so the answer is neither echoed nor line-buffered), followed by a request every terminal
//! answers (primary device attributes, `ESC [ c`): a terminal that does not know OSC 11
//! answers only the second, so the wait ends at once instead of at the timeout, and every byte
//! of both answers is read here, none left for the workbench's input. tmux answers OSC 11
//! itself.

use super::theme::{Background, ThemeChoice};
use std::time::Duration;

/// How long the terminal has to answer.
pub const QUERY_TIMEOUT: Duration = Duration::from_millis(100);

/// The background `choice` says, asking the terminal when it is `Auto`.
pub fn resolve(choice: ThemeChoice) -> Background {
    match choice {
        ThemeChoice::Light => Background::Light,
        ThemeChoice::Dark => Background::Dark,
        ThemeChoice::Auto => detect(),
    }
}

/// The terminal's answer to OSC 11 when it gives one, else what `COLORFGBG` says, else dark.
pub fn detect() -> Background {
    if std::env::var("TERM").is_ok_and(|t| t == "dumb") {
        return Background::Dark;
    }
    if let Some(rgb) = query(QUERY_TIMEOUT) {
        return crate::tui::theme::background_of(rgb);
    }
    std::env::var("COLORFGBG")
        .ok()
        .and_then(|v| from_colorfgbg(&v))
        .unwrap_or_default()
}

/// The background `COLORFGBG` says (`fg;bg` or rxvt's `fg;default;bg`: the last field is
/// the background's ANSI colour number). Colours 0–6 and 8 are dark, 7 and 9–15 light (as
/// vim reads it); anything else says nothing.
pub fn from_colorfgbg(value: &str) -> Option<Background> {
    let bg: u8 = value.rsplit(';').next()?.trim().parse().ok()?;
    match bg {
        0..=6 | 8 => Some(Background::Dark),
        7 | 9..=15 => Some(Background::Light),
        _ => None,
    }
}

/// The colour in a terminal's answer to OSC 11 (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL
/// or ST; each channel of one to four hex digits, scaled to eight bits; `rgba:` with a fourth
/// channel, and `#RRGGBB`-style forms too). Bytes before the answer (or after it, such as the
/// device attributes) are skipped; `None` when there is no well-formed answer.
pub fn parse_osc11(bytes: &[u8]) -> Option<(u8, u8, u8)> {
    const INTRO: &[u8] = b"\x1b]11;";
    let start = bytes.windows(INTRO.len()).position(|w| w == INTRO)? + INTRO.len();
    let rest = &bytes[start..];
    // BEL, ST (ESC \) or the 8-bit ST ends it.
    let end = rest
        .iter()
        .position(|&b| b == 0x07 || b == 0x1b || b == 0x9c)?;
    if rest[end] == 0x1b && rest.get(end + 1) != Some(&b'\\') {
        return None;
    }
    let body = std::str::from_utf8(&rest[..end]).ok()?;
    if let Some(hex) = body.strip_prefix('#') {
        return hash_colour(hex);
    }
    let (kind, channels) = body.split_once(':')?;
    let parts: Vec<&str> = channels.split('/').collect();
    let wanted = match kind {
        "rgb" => 3,
        "rgba" => 4,
        _ => return None,
    };
    if parts.len() != wanted {
        return None;
    }
    Some((channel(parts[0])?, channel(parts[1])?, channel(parts[2])?))
}

/// One channel of one to four hex digits, scaled to 0–255.
fn channel(hex: &str) -> Option<u8> {
    if hex.is_empty() || hex.len() > 4 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let v = u32::from_str_radix(hex, 16).ok()?;
    let max = (1u32 << (4 * hex.len())) - 1;
    Some(((v * 255 + max / 2) / max) as u8)
}

/// `#RGB`, `#RRGGBB`, `#RRRGGGBBB` or `#RRRRGGGGBBBB`.
fn hash_colour(hex: &str) -> Option<(u8, u8, u8)> {
    if hex.is_empty() || !hex.len().is_multiple_of(3) || hex.len() > 12 || !hex.is_ascii() {
        return None;
    }
    let n = hex.len() / 3;
    Some((
        channel(&hex[..n])?,
        channel(&hex[n..2 * n])?,
        channel(&hex[2 * n..])?,
    ))
}

/// Whether `bytes` hold a whole primary device attributes answer (`ESC [ ? … c`), the last
/// thing the terminal sends.
fn has_device_attributes(bytes: &[u8]) -> bool {
    bytes
        .windows(3)
        .position(|w| w == b"\x1b[?")
        .is_some_and(|at| {
            bytes[at + 3..]
                .iter()
                .find(|b| !(b.is_ascii_digit() || **b == b';'))
                == Some(&b'c')
        })
}

/// Asks the terminal on `/dev/tty` for its background colour; `None` when there is no
/// terminal, it does not answer OSC 11, or not within `timeout`.
#[cfg(unix)]
pub fn query(timeout: Duration) -> Option<(u8, u8, u8)> {
    use rustix::termios::{OptionalActions, QueueSelector, tcflush, tcgetattr, tcsetattr};
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .ok()?;
    let saved = tcgetattr(&tty).ok()?;
    let mut raw = saved.clone();
    raw.make_raw();
    tcsetattr(&tty, OptionalActions::Now, &raw).ok()?;
    let answer = exchange(&tty, timeout);
    if !has_device_attributes(&answer) {
        // The terminal was too slow: whatever part came is dropped, so that it does not
        // reach the workbench as keys (a later part still could; nothing more can be done).
        let _ = tcflush(&tty, QueueSelector::IFlush);
    }
    let _ = tcsetattr(&tty, OptionalActions::Now, &saved);
    parse_osc11(&answer)
}

/// Writes the two queries and reads until the device attributes arrive or `timeout` passes.
#[cfg(unix)]
fn exchange(tty: &std::fs::File, timeout: Duration) -> Vec<u8> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use std::io::{Read, Write};
    use std::time::Instant;
    let mut got = Vec::new();
    let mut out = tty;
    if out
        .write_all(b"\x1b]11;?\x07\x1b[c")
        .and_then(|()| out.flush())
        .is_err()
    {
        return got;
    }
    let deadline = Instant::now() + timeout;
    while !has_device_attributes(&got) && got.len() < 1024 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let wait = Timespec {
            tv_sec: left.as_secs().try_into().unwrap_or(i64::MAX),
            tv_nsec: left.subsec_nanos().into(),
        };
        let mut fds = [PollFd::new(tty, PollFlags::IN)];
        // macOS cannot poll /dev/tty (the answer is then POLLNVAL): no answer, as elsewhere.
        if poll(&mut fds, Some(&wait)) != Ok(1) || !fds[0].revents().contains(PollFlags::IN) {
            break;
        }
        let mut buf = [0u8; 256];
        match (&*tty).read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    got
}

/// No terminal query off Unix.
#[cfg(not(unix))]
pub fn query(_timeout: Duration) -> Option<(u8, u8, u8)> {
    None
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn osc11_answers_in_their_forms() {
        type Rgb = (u8, u8, u8);
        let cases: [(&[u8], Rgb); 9] = [
            // Four hex digits a channel, ended by BEL (xterm, kitty, tmux) or ST (VTE, iTerm2).
            (b"\x1b]11;rgb:ffff/ffff/ffff\x07", (255, 255, 255)),
            (b"\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\", (0x1c, 0x1c, 0x1c)),
            // Two digits, one digit, three digits: each scaled to eight bits.
            (b"\x1b]11;rgb:ff/80/00\x07", (255, 128, 0)),
            (b"\x1b]11;rgb:f/8/0\x07", (255, 136, 0)),
            (b"\x1b]11;rgb:fff/000/800\x1b\\", (255, 0, 128)),
            // rgba (a few terminals), a #-colour, the 8-bit ST.
            (b"\x1b]11;rgba:fdfd/f6f6/e3e3/ffff\x07", (0xfd, 0xf6, 0xe3)),
            (b"\x1b]11;#fdf6e3\x07", (0xfd, 0xf6, 0xe3)),
            (b"\x1b]11;rgb:0000/2b2b/3636\x9c", (0, 0x2b, 0x36)),
            // Followed by the device attributes, and after stray bytes.
            (b"x\x1b]11;rgb:0000/0000/0000\x07\x1b[?62;22c", (0, 0, 0)),
        ];
        for (answer, rgb) in cases {
            let shown = String::from_utf8_lossy(answer);
            assert_eq!(parse_osc11(answer), Some(rgb), "{shown:?}");
        }
    }

    #[test]
    fn osc11_garbage_is_no_answer() {
        for bad in [
            &b""[..],
            b"\x1b[?62;22c",
            b"\x1b]11;rgb:ffff/ffff/ffff",
            b"\x1b]11;rgb:ffff/ffff\x07",
            b"\x1b]11;rgb:ffff/ffff/ffff/ffff\x07",
            b"\x1b]11;rgb:fffff/0/0\x07",
            b"\x1b]11;rgb:gg/00/00\x07",
            b"\x1b]11;rgb://\x07",
            b"\x1b]11;cmy:1/2/3\x07",
            b"\x1b]11;?\x07",
            b"\x1b]11;#ffff\x07",
            b"\x1b]11;rgb:ff/ff/ff\x1bx",
            b"\x1b]10;rgb:ffff/ffff/ffff\x07",
            b"\x1b]11;rgb:\xff\xfe/00/00\x07",
        ] {
            assert_eq!(parse_osc11(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn the_answer_says_light_or_dark() {
        let of = |b: &[u8]| parse_osc11(b).map(crate::tui::theme::background_of);
        let cases: [(&[u8], Background); 4] = [
            (b"\x1b]11;rgb:ffff/ffff/ffff\x07", Background::Light),
            // Solarized light and dark.
            (b"\x1b]11;rgb:fd/f6/e3\x07", Background::Light),
            (b"\x1b]11;rgb:00/2b/36\x07", Background::Dark),
            (b"\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\", Background::Dark),
        ];
        for (answer, background) in cases {
            assert_eq!(of(answer), Some(background), "{answer:?}");
        }
    }

    #[test]
    fn colorfgbg_says_the_background_in_its_last_field() {
        let cases = [
            ("0;15", Some(Background::Light)),
            ("15;0", Some(Background::Dark)),
            ("0;default;7", Some(Background::Light)),
            ("7;default;8", Some(Background::Dark)),
            ("12;4", Some(Background::Dark)),
            ("0;default", None),
            ("0;99", None),
            ("", None),
        ];
        for (value, background) in cases {
            assert_eq!(from_colorfgbg(value), background, "{value:?}");
        }
    }

    #[test]
    fn the_wait_ends_with_the_device_attributes() {
        assert!(has_device_attributes(b"\x1b]11;rgb:0/0/0\x07\x1b[?62;22c"));
        assert!(has_device_attributes(b"\x1b[?1;2c"));
        assert!(!has_device_attributes(b"\x1b]11;rgb:0/0/0\x07\x1b[?62;2"));
        assert!(!has_device_attributes(b"\x1b]11;rgb:0/0/0\x07"));
    }

    #[test]
    fn an_explicit_theme_asks_nothing() {
        assert_eq!(resolve(ThemeChoice::Light), Background::Light);
        assert_eq!(resolve(ThemeChoice::Dark), Background::Dark);
    }
}
