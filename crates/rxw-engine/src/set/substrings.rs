//! Many substrings over one byte text, each counted as Python's `str.count` counts
//! (non-overlapping, left to right), in one pass: the substring columns of an audit.
//!
//! Case-sensitive needles, when there are at most [`FINDERS_UP_TO`] of them, are each searched
//! alone with a SIMD substring finder (`memchr::memmem`): over a file's bytes, still in the
//! cache, a few such passes cost less than one automaton pass, and each finder's
//! non-overlapping occurrences are exactly `str.count`'s. Otherwise ASCII-only needles (and
//! every needle when matching is case-sensitive) go into one
//! Aho-Corasick automaton searched with overlapping matches, so no needle hides another; a
//! case-insensitive needle with non-ASCII letters is a `(?i)` literal for the `regex` crate
//! instead (Unicode simple case folding, so `ÄRGER` finds `ärger`), all of them in one
//! `RegexSet` that says which are worth counting.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use rxw_syntax::error::{Error, ErrorKind};

/// What a caller needs from a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tally {
    /// Whether each needle occurs (1 or 0); the pass stops when every needle has been seen.
    Presence,
    /// How many non-overlapping occurrences of each needle.
    Counts,
}

/// Most case-sensitive needles searched one finder each (more go into the automaton).
pub const FINDERS_UP_TO: usize = 16;

/// A compiled set of substrings.
#[derive(Debug)]
pub struct SubstringSet {
    /// One finder per needle (few case-sensitive needles), and the needle index of each.
    finders: Vec<(memchr::memmem::Finder<'static>, usize)>,
    /// The automaton over the plain needles, and the needle index of each of its patterns.
    plain: Option<(AhoCorasick, Vec<usize>)>,
    /// The folded needles: one set that says which occur, a regex each for counting, and the
    /// needle index of each.
    folded: Option<Folded>,
    len: usize,
}

#[derive(Debug)]
struct Folded {
    set: regex::bytes::RegexSet,
    each: Vec<regex::bytes::Regex>,
    needles: Vec<usize>,
}

fn too_large(what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::LimitExceeded,
        format!("cannot build the {what}: {e}"),
    )
}

impl SubstringSet {
    /// Compiles `needles`; `ignore_case` folds ASCII letters in the automaton and Unicode
    /// letters in the folded set.
    ///
    /// # Errors
    /// [`ErrorKind::LimitExceeded`] when the automaton or the set would be too large.
    pub fn new(needles: &[&str], ignore_case: bool) -> Result<SubstringSet, Error> {
        let mut plain = Vec::new();
        let mut plain_index = Vec::new();
        let mut folded_sources = Vec::new();
        let mut folded_index = Vec::new();
        for (i, needle) in needles.iter().enumerate() {
            if ignore_case && !needle.is_ascii() {
                folded_sources.push(format!("(?i){}", regex::escape(needle)));
                folded_index.push(i);
            } else {
                plain.push(*needle);
                plain_index.push(i);
            }
        }
        let mut finders = Vec::new();
        if !ignore_case && plain.len() <= FINDERS_UP_TO {
            finders = plain
                .iter()
                .zip(&plain_index)
                .map(|(n, &i)| (memchr::memmem::Finder::new(n.as_bytes()).into_owned(), i))
                .collect();
            plain.clear();
        }
        let plain = if plain.is_empty() {
            None
        } else {
            let ac = AhoCorasickBuilder::new()
                .match_kind(MatchKind::Standard)
                .ascii_case_insensitive(ignore_case)
                .build(&plain)
                .map_err(|e| too_large("substring automaton", e))?;
            Some((ac, plain_index))
        };
        let folded = if folded_sources.is_empty() {
            None
        } else {
            let set = regex::bytes::RegexSetBuilder::new(&folded_sources)
                .size_limit(256 << 20)
                .dfa_size_limit(64 << 20)
                .build()
                .map_err(|e| too_large("set of case-folded substrings", e))?;
            let each = folded_sources
                .iter()
                .map(|s| regex::bytes::Regex::new(s))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| too_large("case-folded substring", e))?;
            Some(Folded {
                set,
                each,
                needles: folded_index,
            })
        };
        Ok(SubstringSet {
            finders,
            plain,
            folded,
            len: needles.len(),
        })
    }

    /// How many needles.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// One tally per needle, in the order given to [`SubstringSet::new`].
    pub fn tally(&self, bytes: &[u8], tally: Tally) -> Vec<u64> {
        let mut out = vec![0u64; self.len];
        for (finder, needle) in &self.finders {
            out[*needle] = match tally {
                Tally::Presence => u64::from(finder.find(bytes).is_some()),
                // Non-overlapping, left to right: `str.count`.
                Tally::Counts => finder.find_iter(bytes).count() as u64,
            };
        }
        if let Some((ac, index)) = &self.plain {
            tally_plain(ac, index, bytes, tally, &mut out);
        }
        if let Some(f) = &self.folded {
            let hits = f.set.matches(bytes);
            for (k, &needle) in f.needles.iter().enumerate() {
                out[needle] = match (hits.matched(k), tally) {
                    (false, _) => 0,
                    (true, Tally::Presence) => 1,
                    (true, Tally::Counts) => f.each[k].find_iter(bytes).count() as u64,
                };
            }
        }
        out
    }
}

/// Overlapping search so no needle hides another; per needle, an occurrence counts only when
/// it starts at or after the end of the last one counted (non-overlapping, as `str.count`).
/// Needles have a fixed length, so one needle's matches arrive in start order.
fn tally_plain(ac: &AhoCorasick, index: &[usize], bytes: &[u8], tally: Tally, out: &mut [u64]) {
    let n = index.len();
    let mut next_free = vec![0usize; n];
    let mut counts = vec![0u64; n];
    let mut found = 0usize;
    for m in ac.find_overlapping_iter(bytes) {
        let k = m.pattern().as_usize();
        if m.start() < next_free[k] {
            continue;
        }
        next_free[k] = m.end();
        counts[k] += 1;
        if counts[k] == 1 {
            found += 1;
            if tally == Tally::Presence && found == n {
                break;
            }
        }
    }
    for (k, &needle) in index.iter().enumerate() {
        out[needle] = match tally {
            Tally::Presence => u64::from(counts[k] > 0),
            Tally::Counts => counts[k],
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python's `str.count` (non-overlapping, left to right), the reference.
    fn str_count(hay: &str, needle: &str) -> u64 {
        hay.matches(needle).count() as u64
    }

    #[test]
    fn counts_are_str_count_and_no_needle_hides_another() {
        let hay = "aaaa abab ab";
        let needles = ["aa", "a", "ab", "ba", "b a"];
        let set = SubstringSet::new(&needles, false).unwrap();
        let want: Vec<u64> = needles.iter().map(|n| str_count(hay, n)).collect();
        assert_eq!(set.tally(hay.as_bytes(), Tally::Counts), want);
        assert_eq!(
            set.tally(hay.as_bytes(), Tally::Presence),
            vec![1, 1, 1, 1, 1]
        );
        assert_eq!(set.tally(b"zzz", Tally::Presence), vec![0; 5]);
    }

    /// The finders (few needles) and the automaton (many) both count as `str.count` does,
    /// on texts and needles drawn from a small alphabet, where needles overlap and hide each
    /// other often.
    #[test]
    fn finders_and_the_automaton_both_count_as_str_count() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..300 {
            let word = |len: u64, next: &mut dyn FnMut(u64) -> u64| -> String {
                (0..len)
                    .map(|_| ['a', 'b', 'é', ' '][next(4) as usize])
                    .collect()
            };
            let hay = word(next(60), &mut next);
            let count = if round % 2 == 0 {
                1 + next(FINDERS_UP_TO as u64)
            } else {
                17 + next(8)
            };
            let needles: Vec<String> = (0..count).map(|_| word(1 + next(3), &mut next)).collect();
            let refs: Vec<&str> = needles.iter().map(String::as_str).collect();
            let set = SubstringSet::new(&refs, false).unwrap();
            assert_eq!(set.finders.is_empty(), refs.len() > FINDERS_UP_TO);
            let want: Vec<u64> = refs.iter().map(|n| str_count(&hay, n)).collect();
            assert_eq!(
                set.tally(hay.as_bytes(), Tally::Counts),
                want,
                "{hay:?} {refs:?}"
            );
            let present: Vec<u64> = want.iter().map(|&c| u64::from(c > 0)).collect();
            assert_eq!(
                set.tally(hay.as_bytes(), Tally::Presence),
                present,
                "{hay:?} {refs:?}"
            );
        }
    }

    #[test]
    fn case_folding_is_ascii_in_the_automaton_and_unicode_for_the_rest() {
        let set = SubstringSet::new(&["ACK:", "ÄRGER", "straße"], true).unwrap();
        let hay = "ack: Ack: ärger ÄrGeR STRASSE";
        // `ß` folds simply to itself, never to `ss`, as in Python's `re` with IGNORECASE.
        assert_eq!(set.tally(hay.as_bytes(), Tally::Counts), vec![2, 2, 0]);
        let exact = SubstringSet::new(&["ACK:", "ÄRGER"], false).unwrap();
        assert_eq!(exact.tally(hay.as_bytes(), Tally::Counts), vec![0, 0]);
    }
}
