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
//!   backreference). The attempts the scan ran are run again on the matcher, which reports
//!   how far each read ([`Regex::attempt_extent`]); the earliest that examined the end is
//!   where the scan resumes ([`resume_point`]). That includes an attempt that failed before
//!   the last match only because the text ended (`a[^Z]*Z|b` at an `a` before the last `b`,
//!   which matches once a `Z` is appended).
//!
//! The same point tells a scan in pieces (a chunk read at a time) which of its matches are
//! final: [`crate::set::HitScanner::unsettled_start`] answers through [`resume_point_with`].
//!
//! [`restart`] turns a reach, the old matches and that first attempt into the byte to scan
//! from and the number of old matches to keep. A match overlapping the restart point is
//! dropped and found again; so is one ending exactly there when the pattern can match empty,
//! so the engines' rules about an empty match next to a previous match do not depend on where
//! the scan was cut.

use crate::Regex;
use crate::facts::{Starts, examined};
use rxw_syntax::ast::Ast;

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

pub use crate::facts::{can_match_empty, look_behind_of as look_behind, stays_in_lines};

/// Most attempts [`resume_point`] runs before it stops checking and names the next one.
const MAX_CHECKS: usize = 1 << 16;

/// Most bytes the attempts [`resume_point`] runs may examine in all before it stops checking
/// and names the next one.
const MAX_EXAMINED: usize = 64 << 20;

/// From where a pass over a text that may grow must resume: the earliest attempt a
/// leftmost-first scan of `text` from `from` ran (`matches`: the scan's matches, in order;
/// those before `from` are ignored) that examined the end of `text`, run on the matcher
/// ([`Regex::attempt_extent`]). Every match the scan found before that point stands whatever
/// is appended, and so does every failure; `None` when no attempt before the end of the text
/// examined it.
///
/// A pattern whose attempts stay in lines or read a bounded number of bytes ([`Reach`])
/// answers from that bound without running anything (the start of the last line, or that
/// many bytes before the end). Otherwise each attempt the scan ran is checked, in order:
/// where the pattern's matches begin with one of a few literals (or hold one at a fixed
/// offset, from `starts`), only there and in the last bytes, where such a literal may be
/// cut by the end. After `MAX_CHECKS` attempts or `MAX_EXAMINED` bytes read the next
/// attempt is named unchecked, which is early rather than wrong. A caller that keeps this
/// point and, after growth, scans again from it passes it as `from` next time: no attempt
/// before it can examine a longer end.
pub fn resume_point(
    re: &Regex,
    starts: &Starts,
    text: &str,
    from: usize,
    matches: &[(usize, usize)],
) -> Option<usize> {
    let finder = StartFinder::new(starts);
    resume_point_with(Reach::of(re), &finder, text, from, matches, |at, retry| {
        re.attempt_extent_with(text, at, retry)
    })
}

/// [`resume_point`] with the candidates found by `starts` and the attempt run by the caller: `extent(at, retry)` is the farthest
/// position the attempt that begins at byte `at` examined (`text.len()` or more when it
/// looked at the end; `None` when unknown, taken as the end); `retry`: the attempt a scan
/// runs at the place of an empty match it found, for a match that is not empty
/// ([`Regex::attempt_extent_with`]). A caller with a faster exact
/// program than the matcher (a member of a [`crate::set::HitScanner`]) answers through this.
pub fn resume_point_with(
    reach: Reach,
    starts: &StartFinder,
    text: &str,
    from: usize,
    matches: &[(usize, usize)],
    mut extent: impl FnMut(usize, bool) -> Option<usize>,
) -> Option<usize> {
    let len = text.len();
    if from >= len {
        return None;
    }
    let line_start = memchr::memrchr(b'\n', text.as_bytes()).map_or(0, |i| i + 1);
    match reach {
        // Only an attempt on the last line can see its end.
        Reach::Line => {
            return (line_start < len).then_some(floor_boundary(text, line_start.max(from)));
        }
        Reach::Bytes(n) => return Some(floor_boundary(text, len.saturating_sub(n).max(from))),
        Reach::Unbounded => {}
    }
    let first_match = matches.partition_point(|m| m.0 < from);
    let matches = &matches[first_match..];
    let (mut pos, mut j, mut checks, mut examined) = (from, 0usize, 0usize, 0usize);
    loop {
        // A match that began before `pos` hides the attempts inside it.
        while let Some(&(s, e)) = matches.get(j)
            && s < pos
        {
            pos = pos.max(e);
            j += 1;
        }
        if pos >= len {
            return None;
        }
        let at = match (starts.next(text, pos), matches.get(j)) {
            (Some(c), Some(&(s, _))) => c.min(s),
            (Some(c), None) => c,
            (None, Some(&(s, _))) => s,
            (None, None) => return None,
        };
        if at >= len {
            return None;
        }
        if checks >= MAX_CHECKS || examined >= MAX_EXAMINED {
            return Some(at);
        }
        checks += 1;
        match extent(at, false) {
            Some(far) if far < len => examined += far - at,
            _ => return Some(at),
        }
        // After an empty match CPython tries the same place again for a match that is not
        // empty: that attempt may have read further.
        if matches.get(j) == Some(&(at, at)) {
            match extent(at, true) {
                Some(far) if far < len => examined += far - at,
                _ => return Some(at),
            }
        }
        pos = at + text[at..].chars().next().map_or(1, char::len_utf8);
    }
}

/// The largest character boundary of `text` at or before `i`.
fn floor_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Where attempts of a pattern can begin: at one of its first literals, or a fixed offset
/// before a literal it holds, or anywhere; built once from its [`Starts`] and used on any
/// text (where a literal may be cut by the end of the text, every character of the last
/// bytes is a candidate too).
#[derive(Debug, Clone)]
pub struct StartFinder {
    finder: Finder,
    /// Bytes before the end of a text from which every character is a candidate.
    cut: usize,
}

#[derive(Debug, Clone)]
enum Finder {
    First(aho_corasick::AhoCorasick),
    Offset(usize, Box<memchr::memmem::Finder<'static>>),
    Anywhere,
}

impl StartFinder {
    /// The finder for a pattern whose matches begin as `starts` says.
    pub fn new(starts: &Starts) -> StartFinder {
        let first = starts.first.as_ref().and_then(|first| {
            let ac = aho_corasick::AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .build(first)
                .ok()?;
            let longest = first.iter().map(String::len).max().unwrap_or(0);
            Some((Finder::First(ac), longest))
        });
        let (finder, cut) = match (first, &starts.at_offset) {
            (Some(found), _) => found,
            (None, Some((offset, lit))) if !lit.is_empty() => (
                Finder::Offset(
                    *offset,
                    Box::new(memchr::memmem::Finder::new(lit.as_bytes()).into_owned()),
                ),
                offset + lit.len(),
            ),
            _ => (Finder::Anywhere, 0),
        };
        StartFinder { finder, cut }
    }

    /// The first candidate at or after `pos` (a character boundary of `text`).
    fn next(&self, text: &str, pos: usize) -> Option<usize> {
        let tail = floor_boundary(text, text.len().saturating_sub(self.cut));
        if pos >= tail {
            return Some(pos);
        }
        let bytes = text.as_bytes();
        let found = match &self.finder {
            Finder::Anywhere => Some(pos),
            Finder::First(ac) => ac
                .find(aho_corasick::Input::new(bytes).range(pos..))
                .map(|m| m.start()),
            Finder::Offset(offset, lit) => {
                let mut at = pos + offset;
                loop {
                    match lit.find(&bytes[at.min(bytes.len())..]) {
                        Some(i) => {
                            let c = at + i - offset;
                            if text.is_char_boundary(c) {
                                break Some(c);
                            }
                            at += i + 1;
                        }
                        None => break None,
                    }
                }
            }
        };
        Some(found.map_or(tail, |c| c.min(tail)))
    }
}

/// Where a scan over `text`, which grew from `old_len` bytes, must begin again, and how many
/// of `spans` (the matches the scan over the first `old_len` bytes found, in order) stay.
/// `can_be_empty`: whether the pattern can match the empty string ([`can_match_empty`]).
///
/// `resume` is, for [`Reach::Unbounded`], the earliest attempt the scan of the old text ran
/// that examined its end ([`resume_point`] over the old text; `None` when there is none); the
/// other reaches read their own bound. The point returned is on a character boundary, at most
/// `old_len`, and no kept match touches it.
pub fn restart(
    reach: Reach,
    can_be_empty: bool,
    text: &str,
    old_len: usize,
    spans: &[(usize, usize)],
    resume: Option<usize>,
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
        Reach::Unbounded => resume.unwrap_or(old_len).min(line_start(old_len)),
    };
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    keep_before(at, can_be_empty, spans)
}

/// The second half of [`restart`], for a caller that found the earliest byte growth can
/// change (`at`, a character boundary) itself (a text read in pages): the byte to scan from
/// and how many of `spans` stay. Matches ending after `at` (or at it, for a pattern that can
/// match empty) are found again from the start of the first of them.
pub fn keep_before(mut at: usize, can_be_empty: bool, spans: &[(usize, usize)]) -> (usize, usize) {
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
        let (mut old_len, mut from) = (0, 0);
        for &cut in cuts.iter().chain(std::iter::once(&text.len())) {
            let now = &text[..cut];
            let pending = resume_point(re, &starts, &text[..old_len], from, &found);
            let empty = can_match_empty(re.ast());
            let (at, keep) = restart(reach, empty, now, old_len, &found, pending);
            found.truncate(keep);
            found.extend(spans(re, now, at));
            (old_len, from) = (cut, at);
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
        assert_eq!(resume_point(&ack, &starts, text, 0, &[]), Some(11));
        assert_eq!(resume_point(&ack, &starts, &text[..11], 0, &[]), None);
        assert_eq!(py(r"a[^Z]*Z").attempt_extent("a b\nc", 0), Some(5));
        assert_eq!(py(r"a[^Z]*Z").attempt_extent("a bZc", 0), Some(3));
    }

    /// Regression: growth resumed at the last match for a pattern without a bound on how far
    /// its attempts read, missing a match whose attempt began before it and failed only
    /// because the text ended.
    /// Regression: after an empty match CPython tries the same place again for a match that
    /// is not empty; that retry read to the end of the text, but the resume point did not
    /// count it, so growth missed the match it then finds (`\na1` before `Z`).
    #[test]
    fn regression_the_retry_after_an_empty_match_resumes_the_scan() {
        let re = Regex::new(r"(?m)a*|\n\w*(?=Z)", Flavor::PYTHON, Flags::default()).unwrap();
        let text = "\nZ \n1\na1Z";
        let whole = spans(&re, text, 0);
        assert!(whole.contains(&(5, 8)), "{whole:?}");
        assert_eq!(grown(&re, text, &[6]), whole);
    }

    #[test]
    fn an_attempt_before_the_last_match_that_read_to_the_end_resumes_the_scan() {
        let re = Regex::new(r"a[^Z]*Z|b", Flavor::PYTHON, Flags::default()).unwrap();
        let starts = Starts::of(re.ast(), false);
        let old = "x a 1\nb 2\nb";
        let found = spans(&re, old, 0);
        assert_eq!(found, vec![(6, 7), (10, 11)]);
        assert_eq!(resume_point(&re, &starts, old, 0, &found), Some(2));
        let text = format!("{old} Z");
        assert_eq!(grown(&re, &text, &[old.len()]), spans(&re, &text, 0));
        assert_eq!(grown(&re, &text, &[old.len()]), vec![(2, 13)]);
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

    /// A pattern from small pieces that may cross lines, read to the end (`[^Z]*`, `\s+`,
    /// look-ahead to the end of the text), match empty or stay in a line.
    fn pattern() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let atom = prop::sample::select(vec![
            "a", "b", "Z", r"\n", "[^Z]", r"\s", r"\w", ".", "[ab]", r"\d", " ",
        ]);
        let quant = prop::sample::select(vec!["", "", "*", "+", "?", "*?", "+?", "{1,3}"]);
        let piece = (atom, quant).prop_map(|(a, q)| format!("{a}{q}"));
        let seq = prop::collection::vec(piece, 1..4).prop_map(|p| p.concat());
        let tail = prop::sample::select(vec!["", "", "", "(?=Z)", "(?=b|END)", "$"]);
        let branch = (seq, tail).prop_map(|(s, t)| format!("{s}{t}"));
        let dotall = prop::sample::select(vec!["", "", "(?s)", "(?m)"]);
        (dotall, prop::collection::vec(branch, 1..3))
            .prop_map(|(f, b)| format!("{f}{}", b.join("|")))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// A text appended piecewise, each growth scanned from its restart point only, gives
        /// the matches of one scan of the whole text, in every flavor.
        #[test]
        fn incremental_scans_equal_a_whole_scan(
            pattern in pattern(),
            text in "[abZ \n1]{0,24}",
            cuts in proptest::collection::vec(0usize..24, 1..4),
            flavor in proptest::sample::select(vec![Flavor::PYTHON, Flavor::JS, Flavor::Rust]),
        ) {
            // The end of the text as each flavor writes it.
            let pattern = pattern.replace("END", match flavor {
                Flavor::Rust => r"\z",
                f if f.is_js() => r"$(?![\s\S])",
                _ => r"\Z",
            });
            let flavor_ok = !(flavor == Flavor::Rust && pattern.contains("(?="));
            let re = Regex::new(&pattern, flavor, Flags::default());
            if let (true, Ok(re)) = (flavor_ok, re) {
                let mut cuts: Vec<usize> = cuts.into_iter().filter(|&c| c < text.len()).collect();
                cuts.sort_unstable();
                cuts.dedup();
                let whole = spans(&re, &text, 0);
                proptest::prop_assert_eq!(grown(&re, &text, &cuts), whole, "{:?} at {:?}", pattern, cuts);
            }
        }
    }
}
