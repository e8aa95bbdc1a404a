//! Parse-through-all: every preset over one text, hits merged in text order.
//!
//! How the presets are scanned is the engine's business ([`crate::engine::set::HitScanner`]:
//! one literal pass shared by the presets, anchored confirmations, linear-time counting
//! programs); this module is what is the registry's own: a preset is a member of that scan, an
//! error names its preset, and a hit is written as the registry's JSON mapping.

use super::model::Entry;
use crate::engine::Regex;
use crate::engine::set::{self, HitPattern, Starts};
use crate::error::{Error, RegexError};
use crate::input::chunks::{Chunk, Locator, Place};

/// The presets' scanner: the engine's multi-pattern scanner over registry entries.
pub type Scanner<'c> = set::HitScanner<'c, Entry>;
/// One hit: which preset, and its match.
pub type Hit<'c> = set::Hit<'c, Entry>;
/// How [`Scanner::hits_with`] scans.
pub type HitsOptions<'a> = set::HitsOptions<'a>;

impl HitPattern for Entry {
    fn regex(&self) -> Result<&Regex, RegexError> {
        Entry::regex(self)
    }

    fn starts(&self) -> &Starts {
        self.prefilter_starts()
    }

    fn keyed(&self, mut e: RegexError) -> RegexError {
        e.message = format!("preset {}: {}", self.preset.key, e.message);
        e
    }
}

/// Parse-through-all over an input read a chunk at a time, in memory that does not grow with
/// the input.
///
/// Each chunk is scanned appended to what the previous one left unsettled: the scanner tells
/// the earliest place where a match could start that text still to come could complete or
/// change ([`set::HitScanner::unsettled_start`]); the hits before it are final and handed on,
/// and the text from there (less [`set::MAX_LOOK_BEHIND`] bytes of context, from a line start)
/// is kept for the next chunk. Each preset resumes after its own last hit, so the hits are
/// exactly those of one scan of the whole text, whatever the chunks. It needs every preset to
/// settle (`Windows::settles`); one that does not (a greedy tail that runs to the end of the
/// text) would keep everything from its first match, and is better read whole.
pub struct Windows<'s, 'c> {
    scanner: &'s Scanner<'c>,
    /// Every preset's matches stay inside a line and look at nothing beyond it: each chunk
    /// of whole lines is scanned alone, nothing kept.
    local: bool,
    /// The text kept from the chunks read so far.
    carry: Option<Chunk>,
    /// Where each preset's next search starts, in the whole text.
    resume: Vec<usize>,
    /// After the last chunk: where each preset's scan resumes if the text grows
    /// ([`Windows::growth_resume`]).
    grown: Vec<Option<usize>>,
}

impl<'s, 'c> Windows<'s, 'c> {
    /// Nothing read yet.
    pub fn new(scanner: &'s Scanner<'c>) -> Windows<'s, 'c> {
        Windows::starting_at(scanner, 0)
    }

    /// Nothing read yet; every preset's search starts at byte `from` of the whole text (the
    /// first chunk starts at or before it, at a line start, with the text a look-behind reads
    /// before `from`).
    pub fn starting_at(scanner: &'s Scanner<'c>, from: usize) -> Windows<'s, 'c> {
        let local = scanner.entries().iter().all(|e| {
            e.regex()
                .is_ok_and(crate::workbench::follow::matches_independent_of_other_lines)
        });
        Windows {
            scanner,
            local,
            carry: None,
            resume: vec![from; scanner.entries().len()],
            grown: vec![None; scanner.entries().len()],
        }
    }

    /// The presets that do not settle before the end of the text (see [`Windows`]), by key.
    pub fn unsettling(scanner: &Scanner<'c>) -> Vec<&'c str> {
        (0..scanner.entries().len())
            .filter(|&i| !scanner.settles(i))
            .map(|i| scanner.entries()[i].preset.key.as_str())
            .collect()
    }

    /// Scans `chunk` (whole lines, the ones after the chunks fed before) and calls `f` with each hit it
    /// settles, in text order, the text the hit's offsets are in (its `offset` is where that
    /// text starts in the whole input) and where the hit starts. The last chunk settles every
    /// hit left.
    ///
    /// # Errors
    /// A preset that fails (a budget exhausted), or `f`'s error.
    pub fn feed<E: From<Error>>(
        &mut self,
        chunk: Chunk,
        captures: bool,
        mut f: impl FnMut(&Hit<'c>, &Chunk, Place) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.local {
            // Whole lines: the chunk less its final line feed gives the whole text's hits.
            let mut places = Locator::new(&chunk);
            for hit in self.scanner.hits(chunk.searchable(), captures) {
                let hit = hit.map_err(Error::from)?;
                // Before where the search starts (the line a look-behind reads).
                if chunk.offset + hit.m.start() < self.resume[0] {
                    continue;
                }
                f(&hit, &chunk, places.locate(hit.m.start()))?;
            }
            return Ok(());
        }
        let window = match self.carry.take() {
            Some(mut carry) => {
                carry.append(chunk);
                carry
            }
            None => chunk,
        };
        let base = window.offset;
        let text = window.text.as_str();
        let relative: Vec<usize> = self
            .resume
            .iter()
            .map(|r| r.saturating_sub(base).min(text.len()))
            .collect();
        let from = relative.iter().copied().min().unwrap_or(0);
        let settled = if window.last {
            text.len()
        } else {
            self.scanner
                .unsettled_start(text, from)
                .unwrap_or(text.len())
        };
        let options = HitsOptions {
            captures,
            start: from,
            cancel: None,
            member_starts: Some(&relative),
            precheck: false,
        };
        let mut ends: Vec<Option<usize>> = vec![None; self.resume.len()];
        let entries = self.scanner.entries();
        let mut places = Locator::new(&window);
        for hit in self.scanner.hits_with(text, options) {
            let hit = hit.map_err(Error::from)?;
            if hit.m.start() >= settled {
                break;
            }
            if let Some(i) = entries.iter().position(|e| std::ptr::eq(*e, hit.entry)) {
                ends[i] = Some(hit.m.end());
            }
            f(&hit, &window, places.locate(hit.m.start()))?;
        }
        if window.last {
            // Where each preset resumes should the text grow: its own first attempt that
            // examined the end of the text.
            for (i, g) in self.grown.iter_mut().enumerate() {
                *g = self
                    .scanner
                    .unsettled_start_of(i, text, relative[i])
                    .map(|s| base + s);
            }
        }
        for (r, end) in self.resume.iter_mut().zip(ends) {
            *r = (*r).max(base + settled).max(end.map_or(0, |e| base + e));
        }
        if !window.last {
            let keep = self.resume.iter().min().map_or(base + settled, |&r| r) - base;
            self.carry = Some(window.tail(keep.saturating_sub(set::MAX_LOOK_BEHIND)));
        }
        Ok(())
    }

    /// After the last chunk: for each preset (in the scanner's order), the earliest byte of
    /// the whole text where text appended later could change its hits (`None`: nowhere, its
    /// scan resumes at the end), the point a followed text's growth is scanned from.
    pub fn growth_resume(&self) -> &[Option<usize>] {
        &self.grown
    }

    /// Bytes of text kept for the next chunk.
    pub fn held(&self) -> usize {
        self.carry.as_ref().map_or(0, |c| c.text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hit as (key, start, end, groups), offsets in the whole text.
    type Found = (String, usize, usize, Vec<Option<(usize, usize)>>);

    /// Every hit as (key, start, end, groups) in the whole text, and the most text held.
    fn hits_in_chunks(
        scanner: &Scanner<'_>,
        text: &str,
        size: usize,
        captures: bool,
    ) -> (Vec<Found>, usize) {
        let mut windows = Windows::new(scanner);
        let mut hits = Vec::new();
        let mut held = 0;
        for chunk in Chunk::cut_for_tests(text, size) {
            windows
                .feed(chunk, captures, |hit, window, place| -> Result<(), Error> {
                    let shift = |g: Option<(usize, usize)>| {
                        g.map(|(a, b)| (a + window.offset, b + window.offset))
                    };
                    assert_eq!(place.source_offset as usize, hit.m.start() + window.offset);
                    hits.push((
                        hit.entry.preset.key.clone(),
                        hit.m.start() + window.offset,
                        hit.m.end() + window.offset,
                        hit.m.groups.iter().skip(1).map(|g| shift(*g)).collect(),
                    ));
                    Ok(())
                })
                .unwrap();
            held = held.max(windows.held());
        }
        (hits, held)
    }

    fn whole(scanner: &Scanner<'_>, text: &str, captures: bool) -> Vec<Found> {
        scanner
            .hits(text, captures)
            .map(|h| {
                let h = h.unwrap();
                (
                    h.entry.preset.key.clone(),
                    h.m.start(),
                    h.m.end(),
                    h.m.groups.iter().skip(1).copied().collect(),
                )
            })
            .collect()
    }

    /// Lines that make presets cross lines and chunk ends: results whose summary runs over
    /// several lines up to the next `[RESULT ` or the end of the text, tags split from their
    /// `[from …]` by blank lines (`\s+`), ids and hashes next to non-ASCII text.
    fn tricky_log(lines: usize) -> String {
        let mut text = String::new();
        for k in 0..lines {
            let line = match k % 11 {
                0 => format!(
                    "2026-10-05T00:{:02}:00Z [RESULT job-{k}] OK done\n  - disk\n",
                    k % 60
                ),
                1 => format!("[ACK:{k:x}ab]\n\n   [from agent-{k}]\n"),
                2 => format!("Привет [CLAIM swarm-{k}a/3] 7fce46e{k} ünï\n"),
                3 => format!("[TOOL bash {{\"cmd\": \"ls\n-l\"}}] [JOB j-{k}]\n"),
                4 => format!("[NUDGE n{k}] [nudge 1/3] Deadline 02:51: ping\n"),
                5 => "[RESULT \n".to_string(),
                6 => format!(
                    "[fleet-alert] WARN: node {k}\n[SUBAGENT-UPDATE] Subagent 'x' (abcdef{k:x}) done\n"
                ),
                7 => format!("id 123e4567-e89b-42d3-a456-42661417400{} é\n", k % 10),
                8 => format!("[DECLINE {k}] [JOB swarm-ab/{k}]\n"),
                9 => "\n\n".to_string(),
                _ => format!("[RESULT r{k}] FAIL\n"),
            };
            text.push_str(&line);
        }
        text.push_str("[RESULT last] OK tail without a line end");
        text
    }

    fn registry() -> Vec<Entry> {
        crate::presets::builtin()
            .into_iter()
            .filter(|e| e.preset.key != "work_order")
            .collect()
    }

    #[test]
    fn only_a_tail_to_the_end_of_the_text_does_not_settle() {
        let all = crate::presets::builtin();
        let scanner = Scanner::new(all.iter().collect());
        assert_eq!(Windows::unsettling(&scanner), vec!["work_order"]);
    }

    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn hits_in_chunks_are_the_hits_of_the_whole_text() {
        let entries = registry();
        let scanner = Scanner::new(entries.iter().collect());
        let text = tricky_log(200);
        for captures in [true, false] {
            let expected = whole(&scanner, &text, captures);
            assert!(
                expected
                    .iter()
                    .any(|h| h.0 == "result" && h.2 == text.len())
            );
            for size in [
                1,
                2,
                3,
                5,
                8,
                13,
                17,
                31,
                64,
                100,
                257,
                1000,
                4096,
                usize::MAX / 2,
            ] {
                let (got, _) = hits_in_chunks(&scanner, &text, size, captures);
                assert_eq!(got, expected, "chunks of {size} bytes, captures {captures}");
            }
        }
    }

    #[test]
    fn a_hit_across_a_chunk_end_and_the_end_of_text_only_at_the_end() {
        let entries = registry();
        let scanner = Scanner::new(entries.iter().collect());
        // The ack's `\s+` runs over the chunk end; the result's look-ahead holds at the
        // chunk end (`\Z` of the piece) but not in the whole text, where it runs on.
        let text = "[ACK:ab12]\n\n\n[from x]\n[RESULT a] OK one\nmore\nlines\n[RESULT b] two";
        let expected = whole(&scanner, text, true);
        let result_a = expected.iter().find(|h| h.0 == "result").unwrap();
        assert_eq!(
            &text[result_a.1..result_a.2],
            "[RESULT a] OK one\nmore\nlines\n"
        );
        for size in 1..text.len() {
            let (got, _) = hits_in_chunks(&scanner, text, size, true);
            assert_eq!(got, expected, "chunks of {size} bytes");
        }
    }

    #[test]
    fn memory_held_between_chunks_does_not_grow_with_the_text() {
        let entries = registry();
        let scanner = Scanner::new(entries.iter().collect());
        let small = tricky_log(2_000);
        let large = tricky_log(20_000);
        let (_, held_small) = hits_in_chunks(&scanner, &small, 4096, true);
        let (_, held_large) = hits_in_chunks(&scanner, &large, 4096, true);
        // A chunk, a line or two, and the look-behind context: never the text read so far.
        assert!(held_large <= 4096 + 1024, "held {held_large} bytes");
        assert!(
            held_large <= held_small + 256,
            "{held_small} then {held_large}"
        );
    }
}
