//! Scanning a text that grows at its end (a followed log): where a scan must begin again so
//! that its matches are exactly those of a whole scan of the longer text.
//!
//! A scan over a text of `L` bytes runs match attempts from left to right. An attempt that
//! never examined the end of the text (it never read, nor tested an anchor at, byte `L`) ends
//! the same way whatever is appended: its match, or its failure, stands. So after growth the
//! matches that began before the earliest attempt that did examine the end stay, and the scan
//! begins again there, with the text before it as context for anchors and look-behind.
//!
//! How far back that attempt can begin is read off the pattern ([`Reach`]):
//! - [`Reach::Line`]: no part can match a line feed and no anchor looks at the end of the text,
//!   so only attempts on the text's last line can see its end;
//! - [`Reach::Bytes`]: an attempt examines at most so many bytes from where it begins (every
//!   repeat bounded, look-aheads counted in full), so only the last that many can see the end;
//! - [`Reach::Unbounded`]: no bound can be proved (`\s+`, `.*?` under DOTALL, a
//!   backreference). The engine cannot tell how far back an attempt that failed or matched
//!   before the end might have read, so it assumes that every attempt that began before the
//!   last match had finished before the end of the text (true of tag-led log patterns: an
//!   attempt that reads to the end matches there, as the registry's `result` does with `\Z`).
//!   The scan begins again at the last match when its attempt examined the end of the text,
//!   else at the first attempt after it that did ([`unfinished`], run on the matcher). This
//!   can miss a match whose attempt began before the last match and failed only because the
//!   text ended.
//!
//! [`restart`] turns a reach, the old matches and that first attempt into the byte to scan
//! from and the number of old matches to keep. A match overlapping the restart point is
//! dropped and found again; so is one ending exactly there when the pattern can match empty,
//! so the engines' rules about an empty match next to a previous match do not depend on where
//! the scan was cut.

use crate::Regex;
use crate::set::hits::Starts;
use rxw_syntax::ast::{AnchorKind, Ast, ClassItem, GroupKind, Node, NodeKind, PerlKind};

/// Deepest nesting looked at for a byte bound; deeper patterns are [`Reach::Unbounded`].
const MAX_DEPTH: usize = 64;

/// Most bytes one character occupies (a literal may match another case of another length).
const CHAR_BYTES: usize = 4;

/// How far past where it begins a match attempt of a pattern can examine the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Within the line it begins on (see [`stays_in_lines`]).
    Line,
    /// At most this many bytes from where it begins, the look at the character after the last
    /// one consumed included.
    Bytes(usize),
    /// No bound the engine can prove.
    Unbounded,
}

impl Reach {
    /// The reach of `re`'s attempts. A JavaScript sticky pattern's attempts form one chain
    /// from the start of the text, so its reach is that of the chain: [`Reach::Unbounded`]
    /// unless its matches stay in lines.
    pub fn of(re: &Regex) -> Reach {
        Reach::of_ast(re.ast(), re.flags().sticky)
    }

    /// The reach of a pattern parsed into `ast` (`sticky`: JavaScript `y`).
    pub fn of_ast(ast: &Ast, sticky: bool) -> Reach {
        if stays_in_lines(ast) {
            return Reach::Line;
        }
        if sticky {
            return Reach::Unbounded;
        }
        match examined(&ast.root, 0) {
            // The look at the character after the last one consumed (`$`, `\b`, a failed
            // character test), and Python's `$` before a final line feed.
            Some(n) => Reach::Bytes(n.saturating_add(2 * CHAR_BYTES)),
            None => Reach::Unbounded,
        }
    }
}

/// Whether every match of the pattern lies inside one line, whatever follows the line: no
/// part can match a line feed (`\n`, `.` under DOTALL, `\s`, `\W`, `\D`, negated classes and
/// properties count as able to), and no anchor looks at the end of the text (`$` without
/// MULTILINE, `\Z`). Conservative: `false` when unsure.
pub fn stays_in_lines(ast: &Ast) -> bool {
    let mut local = true;
    ast.root.walk(|n, _| {
        local &= match &n.kind {
            NodeKind::Literal { ch, .. } => *ch != '\n',
            NodeKind::Dot { dotall } => !dotall,
            NodeKind::Perl { kind, negated } => match kind {
                PerlKind::Space => *negated,
                PerlKind::Word | PerlKind::Digit => !negated,
            },
            NodeKind::Property { .. } => false,
            NodeKind::Class(c) => {
                // Whether an item surely holds a line feed, and whether it may.
                let holds = |item: &ClassItem| match item {
                    ClassItem::Char(ch, _) => *ch == '\n',
                    ClassItem::Range(lo, hi, _) => *lo <= '\n' && '\n' <= *hi,
                    ClassItem::Perl(kind, negated, _) => match kind {
                        PerlKind::Space => !negated,
                        PerlKind::Word | PerlKind::Digit => *negated,
                    },
                    _ => false,
                };
                let unsure = c.items.iter().any(|item| {
                    matches!(
                        item,
                        ClassItem::Property(..)
                            | ClassItem::Posix(..)
                            | ClassItem::Nested(_)
                            | ClassItem::SetOp(..)
                    )
                });
                if c.negated {
                    !unsure && c.items.iter().any(holds)
                } else {
                    !unsure && !c.items.iter().any(holds)
                }
            }
            NodeKind::Anchor { kind, multiline } => match kind {
                AnchorKind::LineEnd => *multiline,
                AnchorKind::TextEnd => false,
                _ => true,
            },
            _ => true,
        };
    });
    local
}

/// The most bytes an attempt at `node` can examine forward from where it stands: what it can
/// consume, with a look-ahead counted as if it consumed what it reads (an over-estimate, which
/// is safe). `None` when unbounded (a repeat without a maximum, a backreference, a
/// conditional).
fn examined(node: &Node, depth: usize) -> Option<usize> {
    if depth > MAX_DEPTH {
        return None;
    }
    match &node.kind {
        NodeKind::Empty
        | NodeKind::Anchor { .. }
        | NodeKind::Comment
        | NodeKind::Whitespace
        | NodeKind::SetFlags(_) => Some(0),
        NodeKind::Literal { .. }
        | NodeKind::Dot { .. }
        | NodeKind::Perl { .. }
        | NodeKind::Property { .. }
        | NodeKind::Class(_) => Some(CHAR_BYTES),
        NodeKind::Group { kind, child } => match kind {
            // Look-behind reads only text before where it stands, which growth never changes.
            GroupKind::Lookbehind | GroupKind::NegativeLookbehind => Some(0),
            GroupKind::Conditional { .. } => None,
            _ => examined(child, depth + 1),
        },
        NodeKind::Repeat {
            max: Some(k),
            child,
            ..
        } => examined(child, depth + 1)?.checked_mul(*k as usize),
        NodeKind::Repeat { max: None, .. } | NodeKind::Backref { .. } => None,
        NodeKind::Concat(items) => items
            .iter()
            .try_fold(0usize, |acc, n| acc.checked_add(examined(n, depth + 1)?)),
        NodeKind::Alternation(branches) => branches
            .iter()
            .try_fold(0usize, |acc, n| Some(acc.max(examined(n, depth + 1)?))),
    }
}

/// Whether a pattern parsed into `ast` can match the empty string (then a scan begun where a
/// match ended could report an empty match there that the whole scan skips).
pub fn can_match_empty(ast: &Ast) -> bool {
    ast.root.nullable()
}

/// The earliest attempt at or after the last match of a scan over `text[..to]` that examined
/// the end of it: the last match's own attempt (`last_match`, its start and end) when it did,
/// else [`first_unfinished`] from its end (from `from` when the scan found no match after
/// `from`). What [`restart`] takes for a pattern of [`Reach::Unbounded`].
pub fn unfinished(
    re: &Regex,
    starts: &Starts,
    text: &str,
    last_match: Option<(usize, usize)>,
    from: usize,
    to: usize,
) -> Option<usize> {
    let to = to.min(text.len());
    if let Some((s, _)) = last_match
        && re.attempt_examines_end(&text[..to], s)
    {
        return Some(s);
    }
    let after = last_match.map_or(from, |(_, e)| e.max(from));
    first_unfinished(re, starts, text, after, to)
}

/// Most attempts [`first_unfinished`] runs before it gives up and names the next one.
const MAX_CHECKS: usize = 4096;

/// The first byte in `from..to` where an attempt of `re` begins that examines the end of
/// `text[..to]` ([`Regex::attempt_examines_end`]): the earliest attempt there that growth can
/// change. Attempts are tried only where a match can begin (one of the pattern's first
/// literals, or its literal at a fixed offset, from `starts`; every character when it has
/// none); `None` when every attempt there ends before the end. After [`MAX_CHECKS`] attempts
/// that each ended before it, the next place an attempt can begin is named, unchecked.
pub fn first_unfinished(
    re: &Regex,
    starts: &Starts,
    text: &str,
    from: usize,
    to: usize,
) -> Option<usize> {
    let to = to.min(text.len());
    if from >= to {
        return None;
    }
    let old = &text[..to];
    // A literal holding a line feed could begin on an earlier line and be cut by the end.
    let one_line = |lit: &String| !lit.contains('\n');
    let bytes = old.as_bytes();
    let candidates: Box<dyn Iterator<Item = usize>> =
        if let Some(first) = starts.first.as_ref().filter(|f| f.iter().all(one_line)) {
            let Ok(ac) = aho_corasick::AhoCorasick::new(first) else {
                return Some(from);
            };
            let mut at: Vec<usize> = ac
                .find_overlapping_iter(&bytes[from..])
                .map(|m| from + m.start())
                .collect();
            at.sort_unstable();
            at.dedup();
            Box::new(at.into_iter())
        } else if let Some((offset, lit)) = starts.at_offset.as_ref().filter(|(_, l)| one_line(l)) {
            let offset = *offset;
            Box::new(
                memchr::memmem::find_iter(&bytes[from..], lit.as_bytes())
                    .filter_map(move |i| (from + i).checked_sub(offset))
                    .filter(move |&p| p >= from),
            )
        } else {
            Box::new(old[from..].char_indices().map(move |(i, _)| from + i))
        };
    // A literal cut by the end of `text[..to]` is not found above: its attempt begins on the
    // last line, which [`restart`] always scans again.
    for (n, c) in candidates.enumerate() {
        if n >= MAX_CHECKS || re.attempt_examines_end(old, c) {
            return Some(c);
        }
    }
    None
}

/// Where a scan over `text`, which grew from `old_len` bytes, must begin again, and how many
/// of `spans` (the matches the scan over the first `old_len` bytes found, in order) stay.
/// `can_be_empty`: whether the pattern can match the empty string ([`can_match_empty`]).
///
/// `unfinished` is, for [`Reach::Unbounded`], the earliest attempt at or after the last match
/// that examined the end of the old text ([`unfinished`]; `None` when there is none). The point returned is on a
/// character boundary, at most `old_len`, and no kept match touches it.
pub fn restart(
    reach: Reach,
    can_be_empty: bool,
    text: &str,
    old_len: usize,
    spans: &[(usize, usize)],
    unfinished: Option<usize>,
) -> (usize, usize) {
    let old_len = old_len.min(text.len());
    let line_start =
        |at: usize| memchr::memrchr(b'\n', &text.as_bytes()[..at]).map_or(0, |i| i + 1);
    // The earliest place an attempt that examined the end of the old text can have begun.
    let mut at = match reach {
        // An attempt begun on the last line may have read to its end (where the old text
        // ended, possibly inside the line).
        Reach::Line => line_start(old_len),
        Reach::Bytes(n) => old_len.saturating_sub(n),
        // A literal start cut by the old end began on the last line at the earliest.
        Reach::Unbounded => unfinished.unwrap_or(old_len).min(line_start(old_len)),
    };
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    // Matches ending after the point (or at it, for a pattern that can match empty) are found
    // again from the start of the first of them.
    let mut keep = spans.len();
    while keep > 0 {
        let (s, e) = spans[keep - 1];
        if s < at && (e < at || (e == at && !can_be_empty)) {
            break;
        }
        at = at.min(s);
        keep -= 1;
    }
    (at, keep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MatchOptions;
    use rxw_syntax::flavor::{Flags, Flavor};

    fn spans(re: &Regex, text: &str, start: usize) -> Vec<(usize, usize)> {
        re.matches(
            text,
            MatchOptions {
                start,
                bounds_only: true,
                ..Default::default()
            },
        )
        .map(|m| {
            let m = m.unwrap();
            (m.start(), m.end())
        })
        .collect()
    }

    /// The matches of `re` over `text` grown in pieces at `cuts`, each growth scanned from
    /// its restart point only.
    fn grown(re: &Regex, text: &str, cuts: &[usize]) -> Vec<(usize, usize)> {
        let reach = Reach::of(re);
        let starts = Starts::of(re.ast(), re.flags().ignore_case);
        let mut found: Vec<(usize, usize)> = Vec::new();
        let mut old_len = 0;
        for &cut in cuts.iter().chain(std::iter::once(&text.len())) {
            let now = &text[..cut];
            let pending = unfinished(re, &starts, text, found.last().copied(), 0, old_len);
            let empty = can_match_empty(re.ast());
            let (at, keep) = restart(reach, empty, now, old_len, &found, pending);
            found.truncate(keep);
            found.extend(spans(re, now, at));
            old_len = cut;
        }
        found
    }

    #[test]
    fn reach_is_read_off_the_pattern() {
        let of = |p: &str| Reach::of(&Regex::new(p, Flavor::PYTHON, Flags::default()).unwrap());
        assert_eq!(of(r"CLAIM \w+"), Reach::Line);
        assert_eq!(of(r"a\sb"), Reach::Bytes(12 + 8));
        assert_eq!(of(r"a(?=\s{2})"), Reach::Bytes(12 + 8));
        assert_eq!(of(r"x\Z"), Reach::Bytes(4 + 8));
        assert_eq!(of(r"a\s+b"), Reach::Unbounded);
        assert_eq!(of(r"(?s)ERROR.*?END"), Reach::Unbounded);
        assert_eq!(of(r"(a)\n\1"), Reach::Unbounded);
    }

    /// Growth at every split point (in two pieces) gives the whole scan's matches, for
    /// patterns of each reach, including ones that cross lines and look at the end.
    #[test]
    fn growth_at_every_split_point_equals_a_whole_scan() {
        let text = "a1 b22\nc3 [RESULT x] ok\nmore\n[RESULT y]\nERROR spans\n\nlines END\n\
                    [ACK:1]\n  [from bob]\ntail 5 [RESULT z] last";
        for (pattern, flavor) in [
            (r"\d+", Flavor::PYTHON),
            (r"\d+$", Flavor::PYTHON),
            (r"(?m)^\w", Flavor::PYTHON),
            (r"\d\s\w", Flavor::PYTHON),
            (r"\w{2}\Z", Flavor::PYTHON),
            (r"\w(?=\s{2})", Flavor::PYTHON),
            (r"(?s)ERROR.*?END", Flavor::PYTHON),
            (
                r"\[ACK:(?P<id>\d+)\]\s+\[from\s+(?P<who>\w+)\]",
                Flavor::PYTHON,
            ),
            (
                r"\[RESULT\s+(?P<id>\w+)\]\s*(?P<summary>.*?)(?=\[RESULT\s|\Z)",
                Flavor::PYTHON,
            ),
            (r"(?s)\[RESULT\s+\w+\].*?(?=\[RESULT\s|\Z)", Flavor::PYTHON),
            (r"\s*", Flavor::PYTHON),
            (r"\s*", Flavor::Rust),
            (r"a|", Flavor::JS),
            (r"\d|", Flavor::Rust),
            (r"(?s)\d.{0,3}|", Flavor::Rust),
            (r"\d*", Flavor::PYTHON),
        ] {
            let re = Regex::new(pattern, flavor, Flags::default()).unwrap();
            let whole = spans(&re, text, 0);
            for cut in 1..text.len() {
                for cuts in [vec![cut], vec![cut / 2, cut]] {
                    assert_eq!(
                        grown(&re, text, &cuts),
                        whole,
                        "{pattern:?} ({flavor}) grown at {cuts:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn an_attempt_that_ends_before_the_end_is_finished() {
        let py = |p: &str| Regex::new(p, Flavor::PYTHON, Flags::default()).unwrap();
        let lazy = py(r"(?s)ERROR.*?END");
        assert!(lazy.attempt_examines_end("ERROR x", 0));
        assert!(!lazy.attempt_examines_end("ERROR x END more", 0));
        assert!(
            !lazy.attempt_examines_end("ERRAND x", 0),
            "fails at the fourth byte"
        );
        assert!(py(r"\w+\Z").attempt_examines_end("ab", 0));
        assert!(!py(r"\d+$").attempt_examines_end("12\nab", 0));
        assert!(
            py(r"\d+$").attempt_examines_end("12\n", 0),
            "`$` before a final line feed"
        );
        // Where the pattern's literal start occurs, the first attempt that reads to the end.
        let ack = py(r"\[ACK:\d+\]\s+\[from \w+\]");
        let starts = Starts::of(ack.ast(), false);
        let text = "[ACK:1] no\n[ACK:2]\n  ";
        assert_eq!(
            first_unfinished(&ack, &starts, text, 0, text.len()),
            Some(11)
        );
        assert_eq!(first_unfinished(&ack, &starts, text, 0, 11), None);
    }

    #[test]
    fn the_restart_point_keeps_matches_that_cannot_change() {
        let text = "x1\ny22\nz333\n";
        let re = Regex::new(r"\d+", Flavor::PYTHON, Flags::default()).unwrap();
        let found = spans(&re, &text[..9], 0);
        // The old text ended inside "z333": its line is scanned again.
        assert_eq!(
            restart(Reach::of(&re), false, text, 9, &found, None),
            (7, 2)
        );
        // A bound in bytes drops the matches that end in the last bytes.
        assert_eq!(
            restart(Reach::Bytes(3), false, text, 9, &found, None),
            (6, 2)
        );
        assert_eq!(
            restart(Reach::Bytes(3), true, text, 9, &found, None),
            (4, 1)
        );
        // Unbounded: from the first unfinished attempt (at most the last line's start).
        assert_eq!(
            restart(Reach::Unbounded, false, text, 9, &found, None),
            (7, 2)
        );
        assert_eq!(
            restart(Reach::Unbounded, false, text, 9, &found, Some(8)),
            (7, 2)
        );
        assert_eq!(
            restart(Reach::Unbounded, false, text, 9, &found, Some(2)),
            (2, 1)
        );
    }
}
