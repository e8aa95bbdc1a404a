//! Every match of many patterns over one text, merged in text order, and their counts.
//!
//! [`HitScanner`] is the engine's answer for callers that want every match of many patterns
//! (the preset registry's parse-through-all, its lens and exports); they never look at a
//! pattern's literals or build a program themselves. Its members are any [`HitPattern`]: a pattern
//! compiled on first need, with the literal starts ([`Starts`]) read off its tree when it was
//! parsed. The presets below are the NetVM registry's, the scanner's first client.
//!
//! # How one pass decides which presets can match where
//!
//! Most presets start with a fixed tag: every match of `verb` begins with one of `[ACK`,
//! `[CLAIM`, `[RESULT`, `[DECLINE`, `[NO-ACTION`. [`first_literals`] reads that set off the
//! pattern's tree (literals, groups and alternations at the start; zero-width assertions are
//! skipped, since they consume nothing). All presets' sets go into one Aho-Corasick automaton,
//! and a single pass over the text records, for each preset, the offsets where one of its
//! first literals occurs: the only places a match of it can start.
//!
//! Listing hits ([`HitScanner::hits`]): each preset runs its own engine, so the results are
//! exactly those of the preset's own `finditer`, overlaps between presets included, but it
//! never scans the text between candidates: after a match, or at the start, the search jumps
//! to the next candidate at or after that point. A preset whose literal never occurs costs
//! nothing beyond the shared pass. A preset without a literal start may still have a literal
//! at a fixed offset (`uuid`: `-4` at byte 13, [`fixed_offset_literal`]), found with memmem;
//! the rest (`short_hex`) scan the text themselves with their linear-time engine. The per-preset hit
//! streams are merged lazily in text order (ties by registry order), so output starts before
//! the scan ends and memory is the candidate lists, not the hits.
//!
//! Counting ([`HitScanner::count`]) needs only where each match ends, which allows more:
//! - a prefiltered preset runs an *anchored* search at each candidate past the last match
//!   (a dense DFA when one fits): no scan between candidates, no reverse scan for the start;
//! - a preset without a literal start runs forward-only DFA searches, each giving where the
//!   leftmost match ends, which is where the next search starts;
//! - a trailing look-ahead `X(?=Y)` (the `result` preset) would need the backtracking engine;
//!   it is counted as `X(Y)` on the linear engine and cut back where `Y` starts
//!   (`trailing_lookahead`);
//! - a greedy any-character tail (`work_order`'s `(?P<body>.+)$` under DOTALL) takes the rest
//!   of the text, so only its head is matched (`greedy_tail`);
//! - presets are independent, so they are counted on several threads when asked.
//!
//! Every shortcut is checked against the plain per-preset iteration in the tests.

pub use crate::facts::{Starts, first_literals, fixed_offset_literal};

use crate::facts::{extent, look_behind, max_len};
use crate::growth::{self, Reach};
use crate::{EngineKind, Match, MatchOptions, Matches, Regex};
use aho_corasick::{AhoCorasick, MatchKind};
use regex_automata::dfa::Automaton;
use rxw_syntax::ast::{AnchorKind, Greed, GroupKind, Node, NodeKind};
use rxw_syntax::error::Error;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Most literals kept per preset; past that the prefilter would not pay.
/// One pattern of a [`HitScanner`].
pub trait HitPattern: Sync {
    /// The compiled pattern, built on the first call and kept (a member whose literals never
    /// occur is never compiled).
    ///
    /// # Errors
    /// When the engine rejects the pattern.
    fn regex(&self) -> Result<&Regex, Error>;
    /// Where its matches can start.
    fn starts(&self) -> &Starts;
    /// An error about this member, said so that the user knows which one (by default as is).
    fn keyed(&self, e: Error) -> Error {
        e
    }
}

/// A set of presets, ready to scan texts.
///
/// Building one reads only the parsed patterns (their literals for the shared prefilter):
/// no preset is compiled. A preset's engine, and its counting programs, are built the first
/// time a text gives it somewhere to match, so a large registry costs little more than the
/// presets that can match.
pub struct HitScanner<'c, M: HitPattern> {
    entries: Vec<&'c M>,
    /// One automaton over every preset's first literals.
    prefilter: Option<AhoCorasick>,
    /// For presets without a literal start: a literal every match has at a fixed byte offset.
    inner: Vec<Option<(usize, memchr::memmem::Finder<'static>)>>,
    /// For each automaton pattern, the presets (indices into `entries`) it starts.
    owners: Vec<Vec<usize>>,
    /// Whether each preset is driven by the prefilter.
    filtered: Vec<bool>,
    /// The counting programs of each preset, built on first need ([`Counting`]).
    counting: Vec<OnceLock<Counting>>,
    /// How each preset tells when its matches are settled, built on first need ([`Settle`]).
    settle: Vec<OnceLock<Settle>>,
    /// Where each preset's attempts can begin, for [`HitScanner::unsettled_start`].
    start_finders: Vec<OnceLock<growth::StartFinder>>,
    /// Worker threads for [`HitScanner::count`].
    threads: usize,
    /// When every scan stops with [`crate::ErrorKind::TimedOut`].
    deadline: Option<std::time::Instant>,
    /// The matcher's total step budget of each preset's scan ([`MatchOptions::max_total_steps`]).
    max_total_steps: Option<u64>,
}

/// The programs one preset is counted with (see the module documentation).
#[derive(Default)]
struct Counting {
    /// For a preset that ends in a look-ahead: the linear-time rewrite (see
    /// [`trailing_lookahead`]).
    rewritten: Option<Rewrite>,
    /// For a prefiltered preset: the program for anchored searches at candidates.
    anchored: Option<AnchoredProgram>,
    /// For a preset without a literal start that cannot match empty: the exact program, for
    /// a plain counting loop without the engine's per-match bookkeeping.
    unanchored: Option<AnchoredProgram>,
    /// For a preset ending in a greedy any-character repeat: its head (see [`greedy_tail`]).
    to_end: Option<AnchoredProgram>,
    /// Beside `unanchored`: the same pattern reversed, searched back from a match's end to
    /// find where it starts (what the general engine's reverse scan does), for spans without
    /// a matcher set up per text. `None` when no dense DFA of it fits.
    reverse: Option<regex_automata::dfa::dense::DFA<Vec<u32>>>,
}

/// How [`HitScanner::hits_with`] scans.
#[derive(Debug, Clone, Copy, Default)]
pub struct HitsOptions<'a> {
    /// Whether hits carry their groups (else only the whole match's span, faster).
    pub captures: bool,
    /// Byte where the scan starts (the text before it is context for anchors and
    /// look-behind, as with [`MatchOptions::start`]); hits start at or after it.
    pub start: usize,
    /// The scan ends early, quietly, when this becomes true.
    pub cancel: Option<&'a AtomicBool>,
    /// Where each member's own search starts, in member order (never before `start`): a
    /// scan resumed after hits that end past `start` must not find a member's match inside
    /// its previous one. `None`: every member starts at `start`.
    pub member_starts: Option<&'a [usize]>,
    /// Asks each member first whether it has any match in the text, with its fastest exact
    /// program (the one counting uses), and sets no matcher up for one that has none: for
    /// many short texts (a log's records' messages), where most members match nothing and
    /// setting a matcher up costs more than the answer. Only from the text's start.
    pub precheck: bool,
}

/// One hit: which preset, and its match (spans of the whole match and of every group).
#[derive(Debug, Clone)]
pub struct Hit<'c, M: HitPattern> {
    /// The member that matched.
    pub entry: &'c M,
    /// Its match.
    pub m: Match,
}

impl<'c, M: HitPattern> HitScanner<'c, M> {
    /// Prepares to scan with these presets (their order breaks ties between hits that start
    /// at the same byte). Nothing is compiled here.
    pub fn new(entries: Vec<&'c M>) -> HitScanner<'c, M> {
        let mut distinct: Vec<String> = Vec::new();
        let mut index: std::collections::HashMap<String, usize> = Default::default();
        let mut owners: Vec<Vec<usize>> = Vec::new();
        let mut filtered = Vec::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            let lits = e.starts().first.clone();
            filtered.push(lits.is_some());
            for lit in lits.unwrap_or_default() {
                match index.get(&lit) {
                    Some(&k) => owners[k].push(i),
                    None => {
                        index.insert(lit.clone(), distinct.len());
                        distinct.push(lit);
                        owners.push(vec![i]);
                    }
                }
            }
        }
        let prefilter = if distinct.is_empty() {
            None
        } else {
            AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(&distinct)
                .ok()
        };
        if prefilter.is_none() {
            filtered.iter_mut().for_each(|f| *f = false);
        }
        // Presets without a literal start may still have a literal at a fixed offset.
        let inner: Vec<Option<(usize, memchr::memmem::Finder<'static>)>> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                if filtered[i] {
                    return None;
                }
                let (offset, lit) = e.starts().at_offset.clone()?;
                Some((
                    offset,
                    memchr::memmem::Finder::new(lit.as_bytes()).into_owned(),
                ))
            })
            .collect();
        for (i, f) in inner.iter().enumerate() {
            filtered[i] |= f.is_some();
        }
        let counting = entries.iter().map(|_| OnceLock::new()).collect();
        let settle = entries.iter().map(|_| OnceLock::new()).collect();
        let start_finders = entries.iter().map(|_| OnceLock::new()).collect();
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        HitScanner {
            entries,
            prefilter,
            inner,
            owners,
            filtered,
            counting,
            settle,
            start_finders,
            threads,
            deadline: None,
            max_total_steps: None,
        }
    }

    /// The counting programs of preset `i`, built on the first call.
    fn counting(&self, i: usize, re: &Regex) -> &Counting {
        self.counting[i].get_or_init(|| {
            let filtered = self.filtered[i];
            let rewritten = trailing_lookahead(re);
            let anchored = if filtered {
                AnchoredProgram::new(rewritten.as_ref().map_or(re, |r| &r.regex))
            } else {
                None
            };
            let unanchored = if filtered || re.ast().root.nullable() {
                None
            } else {
                exact_pattern(re).and_then(|p| {
                    AnchoredProgram::build(p, regex_automata::dfa::StartKind::Unanchored)
                })
            };
            let to_end = if filtered { greedy_tail(re) } else { None };
            let reverse = match &unanchored {
                Some(AnchoredProgram::Dense { pattern, .. }) => reverse_program(pattern),
                _ => None,
            };
            Counting {
                rewritten,
                anchored,
                unanchored,
                to_end,
                reverse,
            }
        })
    }

    /// Bounds the work of every scan: a deadline for the whole scan and a total step budget
    /// for each preset's matcher (see [`MatchOptions::max_total_steps`]).
    pub fn with_budget(
        mut self,
        deadline: Option<std::time::Instant>,
        max_total_steps: Option<u64>,
    ) -> Self {
        self.deadline = deadline;
        self.max_total_steps = max_total_steps;
        self
    }

    /// Sets how many threads [`HitScanner::count`] may use (at least 1; default: the CPUs).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Whether preset `i` is counted with its linear-time rewrite (a trailing look-ahead made
    /// a group). Compiles the preset when it was not yet.
    pub fn is_rewritten(&self, i: usize) -> bool {
        self.entries[i]
            .regex()
            .is_ok_and(|re| self.counting(i, re).rewritten.is_some())
    }

    /// The presets scanned, in tie-break order.
    pub fn entries(&self) -> &[&'c M] {
        &self.entries
    }

    /// Whether preset `i` is driven by the literal prefilter (else it scans on its own).
    pub fn is_prefiltered(&self, i: usize) -> bool {
        self.filtered[i]
    }

    /// Candidate start offsets per preset, from one pass of the automaton.
    fn candidates(&self, text: &str) -> Vec<Vec<usize>> {
        self.candidates_from(text, 0, None)
    }

    /// Candidate start offsets at or after byte `from`; the pass stops early (with fewer
    /// candidates, the caller discards them) when `cancel` is raised.
    fn candidates_from(
        &self,
        text: &str,
        from: usize,
        cancel: Option<&AtomicBool>,
    ) -> Vec<Vec<usize>> {
        let bytes = &text.as_bytes()[from.min(text.len())..];
        let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        let mut cands = vec![Vec::new(); self.entries.len()];
        if let Some(ac) = &self.prefilter {
            for (n, m) in ac.find_overlapping_iter(bytes).enumerate() {
                if n % 4096 == 4095 && cancelled() {
                    break;
                }
                for &i in &self.owners[m.pattern().as_usize()] {
                    cands[i].push(from + m.start());
                }
            }
        }
        for (i, inner) in self.inner.iter().enumerate() {
            if let Some((offset, finder)) = inner {
                // A literal at `p` (from `from`) starts a candidate at `from + p - offset`.
                cands[i] = finder
                    .find_iter(bytes)
                    .filter_map(|p| p.checked_sub(*offset))
                    .map(|c| from + c)
                    .collect();
            }
        }
        for c in &mut cands {
            // Overlapping matches come in order of their end: restore start order.
            c.sort_unstable();
            c.dedup();
        }
        cands
    }

    /// Whether preset `i` cannot match at all in a text that gave it these candidates
    /// (prefiltered, and none): then it is neither compiled nor run.
    fn cannot_match(&self, i: usize, cands: &[usize]) -> bool {
        self.filtered[i] && cands.is_empty()
    }

    /// Every hit of every preset in `text`, in text order. With `captures` false the hits
    /// carry only the whole match's span (faster).
    pub fn hits<'s, 't>(&'s self, text: &'t str, captures: bool) -> Hits<'s, 'c, 't, M> {
        self.hits_with(
            text,
            HitsOptions {
                captures,
                ..Default::default()
            },
        )
    }

    /// As [`HitScanner::hits`], with a start offset and a cancel flag ([`HitsOptions`]).
    pub fn hits_with<'s, 't>(
        &'s self,
        text: &'t str,
        options: HitsOptions<'s>,
    ) -> Hits<'s, 'c, 't, M> {
        let candidates = self.candidates_from(text, options.start, options.cancel);
        let precheck = options.precheck && options.start == 0 && options.member_starts.is_none();
        let cursors = candidates
            .into_iter()
            .enumerate()
            .filter(|(i, cands)| !self.cannot_match(*i, cands))
            .filter(|(i, cands)| !precheck || self.may_match(*i, text, cands))
            .map(|(i, cands)| (i, self.cursor(i, text, cands, &options)))
            .collect();
        Hits {
            scanner: self,
            cursors,
        }
    }

    fn cursor<'s, 't>(
        &'s self,
        i: usize,
        text: &'t str,
        cands: Vec<usize>,
        options: &HitsOptions<'s>,
    ) -> Cursor<'s, 't> {
        let captures = options.captures;
        let start = options
            .member_starts
            .and_then(|s| s.get(i).copied())
            .map_or(options.start, |s| s.max(options.start));
        let re = match self.entries[i].regex() {
            Ok(re) => re,
            Err(e) => return Cursor::failed(e),
        };
        // Listing hits with groups runs the preset as written; counting may use the rewrite.
        let rewrite = if captures {
            None
        } else {
            self.counting(i, re).rewritten.as_ref()
        };
        let regex = rewrite.map_or(re, |r| &r.regex);
        Cursor {
            matches: Some(regex.matches(
                text,
                MatchOptions {
                    bounds_only: !captures,
                    start,
                    cancel: options.cancel,
                    deadline: self.deadline,
                    max_total_steps: self.max_total_steps,
                    progress: None,
                },
            )),
            candidates: self.filtered[i].then_some(cands),
            next_candidate: 0,
            cut: rewrite.map(|r| Cut {
                rewrite: r,
                text,
                exact: None,
            }),
            peeked: None,
            failure: None,
            done: false,
        }
    }

    /// The spans of every member's hits in `text` (a whole text: a record's message), as
    /// `(member, start, end)`, each member's in text order, the members in their order: the
    /// same spans as [`HitScanner::hits`] without captures. A prefiltered member with an
    /// anchored program finds each hit as counting does (an anchored search at each candidate
    /// past the last hit gives its end, cut back before a trailing look-ahead, or the text's
    /// end after a greedy any-character tail; its start is the candidate); a member without a
    /// literal start finds each end with its forward DFA and the start with its reverse one.
    /// Neither sets a matcher up per text. The others run their matcher, when their counting
    /// program says they may match at all.
    ///
    /// # Errors
    /// The first member that fails (a budget exhausted), its key in the message.
    pub fn spans(&self, text: &str) -> Result<Vec<(usize, usize, usize)>, Error> {
        let mut out = Vec::new();
        for (i, cands) in self.candidates(text).into_iter().enumerate() {
            if self.cannot_match(i, &cands) {
                continue;
            }
            let re = self.entries[i]
                .regex()
                .map_err(|e| keyed(e, self.entries[i]))?;
            let counting = self.counting(i, re);
            if let Some(program) = &counting.anchored {
                self.anchored_walk(counting, program, text, &cands, |s, e| out.push((i, s, e)))
                    .map_err(|e| keyed(e, self.entries[i]))?;
                continue;
            }
            if let (Some(forward), Some(reverse)) = (&counting.unanchored, &counting.reverse) {
                let mark = out.len();
                if two_way_spans(forward, reverse, text, |s, e| out.push((i, s, e))) {
                    continue;
                }
                // The reverse DFA gave up (a quit byte): the member's matcher answers instead.
                out.truncate(mark);
            }
            if !self.may_match(i, text, &cands) {
                continue;
            }
            let mut cursor = self.cursor(i, text, cands, &HitsOptions::default());
            while let Some(m) = cursor.advance() {
                let m = m.map_err(|e| keyed(e, self.entries[i]))?;
                out.push((i, m.start(), m.end()));
            }
        }
        Ok(out)
    }

    /// Whether member `i` may match in `text`, which gave it these candidates: `false` only
    /// when its exact counting program finds no match (an unanchored search, or an anchored
    /// one at each candidate); `true` when it has no such program.
    fn may_match(&self, i: usize, text: &str, cands: &[usize]) -> bool {
        let Ok(re) = self.entries[i].regex() else {
            return true;
        };
        let counting = self.counting(i, re);
        if let Some(program) = &counting.unanchored {
            return program.end_at(&regex_automata::Input::new(text)).is_some();
        }
        match &counting.anchored {
            Some(program) if counting.rewritten.is_none() && counting.to_end.is_none() => {
                cands.iter().any(|&c| {
                    let input = regex_automata::Input::new(text)
                        .range(c..)
                        .anchored(regex_automata::Anchored::Yes);
                    program.end_at(&input).is_some()
                })
            }
            _ => true,
        }
    }

    /// The number of hits per preset, in the order of [`HitScanner::entries`].
    ///
    /// # Errors
    /// The first preset that fails (a backtrack budget exhausted, a pattern the engines
    /// reject), its key in the message.
    pub fn count(&self, text: &str) -> Result<Vec<usize>, Error> {
        let candidates = self.candidates(text);
        let jobs: Vec<(usize, Vec<usize>)> = candidates
            .into_iter()
            .enumerate()
            .filter(|(i, cands)| !self.cannot_match(*i, cands))
            .collect();
        let count_one = |(i, cands): (usize, Vec<usize>)| self.count_in(i, text, cands);
        let mut results = vec![Ok(0); self.entries.len()];
        if self.threads <= 1 || jobs.len() <= 1 {
            for job in jobs {
                let i = job.0;
                results[i] = count_one(job);
            }
            return results.into_iter().collect();
        }
        // Presets are independent: hand them out to workers one at a time.
        let queue = std::sync::Mutex::new(jobs.into_iter());
        let results = std::sync::Mutex::new(results);
        std::thread::scope(|s| {
            for _ in 0..self.threads.min(self.entries.len()) {
                s.spawn(|| {
                    // The lock is released before the job runs.
                    let next_job = || queue.lock().ok().and_then(|mut q| q.next());
                    while let Some(job) = next_job() {
                        let i = job.0;
                        let r = count_one(job);
                        if let Ok(mut all) = results.lock() {
                            all[i] = r;
                        }
                    }
                });
            }
        });
        results
            .into_inner()
            .unwrap_or_default()
            .into_iter()
            .collect()
    }
}

impl<M: HitPattern> HitScanner<'_, M> {
    /// The hits of preset `i` in `text`, which gave it these candidates, counted with its
    /// fastest exact program.
    fn count_in(&self, i: usize, text: &str, cands: Vec<usize>) -> Result<usize, Error> {
        let re = self.entries[i]
            .regex()
            .map_err(|e| keyed(e, self.entries[i]))?;
        let counting = self.counting(i, re);
        if let Some(program) = &counting.unanchored {
            let (mut n, mut pos) = (0, 0);
            // A forward search finds where the leftmost match ends; counting needs no more
            // (no reverse scan for its start), and the next search starts there.
            while let Some(end) = program.end_at(&regex_automata::Input::new(text).range(pos..)) {
                n += 1;
                // The pattern cannot match empty, so the scan always moves on.
                pos = end;
            }
            return Ok(n);
        }
        if let Some(program) = &counting.anchored {
            let mut n = 0;
            self.anchored_walk(counting, program, text, &cands, |_, _| n += 1)
                .map_err(|e| keyed(e, self.entries[i]))?;
            return Ok(n);
        }
        let mut cursor = self.cursor(i, text, cands, &HitsOptions::default());
        let mut n = 0;
        while let Some(m) = cursor.advance() {
            m.map_err(|e| keyed(e, self.entries[i]))?;
            n += 1;
        }
        Ok(n)
    }

    /// The number of hits per preset (in the order of [`HitScanner::entries`]) summed over
    /// `texts`, each searched alone as a whole text (anchors and look-around see only it): a
    /// log's records' messages. The texts are shared out among the scanner's threads in
    /// contiguous runs.
    ///
    /// # Errors
    /// The first preset that fails, its key in the message.
    pub fn count_each<T: AsRef<str> + Sync>(&self, texts: &[T]) -> Result<Vec<usize>, Error> {
        let n = self.entries.len();
        let count_run = |run: &[T]| -> Result<Vec<usize>, Error> {
            let mut sums = vec![0usize; n];
            for text in run {
                let text = text.as_ref();
                for (i, cands) in self.candidates(text).into_iter().enumerate() {
                    if !self.cannot_match(i, &cands) {
                        sums[i] += self.count_in(i, text, cands)?;
                    }
                }
            }
            Ok(sums)
        };
        let threads = self.threads.min(texts.len() / 256).max(1);
        if threads == 1 {
            return count_run(texts);
        }
        let per = texts.len().div_ceil(threads);
        let parts: Vec<Result<Vec<usize>, Error>> = std::thread::scope(|s| {
            let handles: Vec<_> = texts
                .chunks(per)
                .map(|run| s.spawn(move || count_run(run)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        let mut sums = vec![0usize; n];
        for part in parts {
            for (total, k) in sums.iter_mut().zip(part?) {
                *total += k;
            }
        }
        Ok(sums)
    }
}

impl<M: HitPattern> HitScanner<'_, M> {
    /// Walks a prefiltered preset's hits by an anchored search at each candidate past the
    /// last hit, giving each hit's span to `hit`: no scan between candidates, no reverse scan
    /// to find where a match starts (it starts at its candidate).
    fn anchored_walk(
        &self,
        counting: &Counting,
        program: &AnchoredProgram,
        text: &str,
        cands: &[usize],
        mut hit: impl FnMut(usize, usize),
    ) -> Result<(), Error> {
        let mut cut = counting.rewritten.as_ref().map(|r| Cut {
            rewrite: r,
            text,
            exact: None,
        });
        let mut pos = 0;
        for &c in cands {
            if c < pos {
                continue;
            }
            let input = regex_automata::Input::new(text)
                .range(c..)
                .anchored(regex_automata::Anchored::Yes);
            if let Some(head) = &counting.to_end {
                if head.end_at(&input).is_some() {
                    // The match runs to the end of the text: it is the last one.
                    hit(c, text.len());
                    return Ok(());
                }
                continue;
            }
            let Some(m_end) = program.end_at(&input) else {
                continue;
            };
            let end = match &mut cut {
                Some(cut) => cut.find(c, m_end)?,
                None => m_end,
            };
            hit(c, end);
            // Every prefiltered match starts with a non-empty literal, so it is not empty.
            pos = end.max(c + 1);
        }
        Ok(())
    }
}

/// The reverse program of an exact pattern: anchored at a match's end, it reads back to the
/// leftmost place a match ending there starts.
fn reverse_program(pattern: &str) -> Option<regex_automata::dfa::dense::DFA<Vec<u32>>> {
    let config = small_dense_config()
        .start_kind(regex_automata::dfa::StartKind::Anchored)
        .match_kind(regex_automata::MatchKind::All);
    regex_automata::dfa::dense::Builder::new()
        .configure(config)
        .thompson(regex_automata::nfa::thompson::Config::new().reverse(true))
        .build(pattern)
        .ok()
}

/// A dense DFA's configuration within a small budget (a pattern whose DFA would not fit
/// runs on the general engine instead).
fn small_dense_config() -> regex_automata::dfa::dense::Config {
    regex_automata::dfa::dense::Config::new()
        .dfa_size_limit(Some(1 << 20))
        .determinize_size_limit(Some(2 << 20))
}

/// Every match of a pattern that cannot match empty, as spans: the forward program finds
/// where the leftmost match ends, the reverse DFA where it starts (the leftmost start of a
/// match ending there, no earlier than where the search began). False when the reverse DFA
/// gave up (a quit byte).
fn two_way_spans(
    forward: &AnchoredProgram,
    reverse: &regex_automata::dfa::dense::DFA<Vec<u32>>,
    text: &str,
    mut hit: impl FnMut(usize, usize),
) -> bool {
    let mut pos = 0;
    while let Some(end) = forward.end_at(&regex_automata::Input::new(text).range(pos..)) {
        let back = regex_automata::Input::new(text)
            .range(pos..end)
            .anchored(regex_automata::Anchored::Yes);
        let start = match reverse.try_search_rev(&back) {
            Ok(Some(m)) => m.offset(),
            _ => return false,
        };
        hit(start, end);
        // The pattern cannot match empty, so the scan always moves on.
        pos = end;
    }
    true
}

/// The pattern for the `regex` engines, exact whatever the text: Python translated assuming
/// nothing, Rust with its flags. `None` for patterns that need backtracking, and for
/// JavaScript, left to the engine, which checks inputs JavaScript would see as UTF-16 code
/// units.
fn exact_pattern(re: &Regex) -> Option<String> {
    re.exact_linear_pattern()
}

/// The exact (text-independent) program of a linear-time pattern, for anchored searches
/// where only the end of a match is needed.
enum AnchoredProgram {
    /// A dense DFA when one fits in a small budget: its loops over "anything but `[`" are
    /// accelerated with memchr, which the lazy DFA does not do.
    Dense {
        /// The DFA (anchored starts only).
        dfa: Box<regex_automata::dfa::dense::DFA<Vec<u32>>>,
        /// The general engine, built on first need if the DFA ever gives up.
        fallback: std::sync::OnceLock<Option<regex_automata::meta::Regex>>,
        /// The translated pattern.
        pattern: String,
    },
    /// The meta engine otherwise.
    Meta(regex_automata::meta::Regex),
}

impl AnchoredProgram {
    /// Compiles `re`'s exact pattern ([`exact_pattern`]).
    fn new(re: &Regex) -> Option<AnchoredProgram> {
        AnchoredProgram::build(exact_pattern(re)?, regex_automata::dfa::StartKind::Anchored)
    }

    /// Compiles a pattern in the `regex` dialect for searches of this kind.
    fn build(pattern: String, start: regex_automata::dfa::StartKind) -> Option<AnchoredProgram> {
        let config = small_dense_config().start_kind(start);
        match regex_automata::dfa::dense::Builder::new()
            .configure(config)
            .build(&pattern)
        {
            Ok(dfa) => Some(AnchoredProgram::Dense {
                dfa: Box::new(dfa),
                fallback: std::sync::OnceLock::new(),
                pattern,
            }),
            Err(_) => regex_automata::meta::Regex::new(&pattern)
                .ok()
                .map(AnchoredProgram::Meta),
        }
    }

    /// The end of the leftmost match (for an anchored input: the one that starts exactly at
    /// the input's start), if any.
    fn end_at(&self, input: &regex_automata::Input<'_>) -> Option<usize> {
        match self {
            AnchoredProgram::Dense {
                dfa,
                fallback,
                pattern,
            } => match dfa.try_search_fwd(input) {
                Ok(m) => m.map(|m| m.offset()),
                // A DFA may give up (a quit byte): ask the general engine instead.
                Err(_) => fallback
                    .get_or_init(|| regex_automata::meta::Regex::new(pattern).ok())
                    .as_ref()?
                    .search(input)
                    .map(|m| m.end()),
            },
            AnchoredProgram::Meta(re) => re.search(input).map(|m| m.end()),
        }
    }
}

/// For a pattern `X.{m,}` ending in a greedy repeat of any character (DOTALL), optionally
/// followed by `$` or `\Z`: the program of `X.{m}`.
///
/// The greedy repeat takes the rest of the text and the end anchors hold at its end, so a
/// match starting where `X.{m}` matches runs to the end of the text (the `work_order` preset:
/// its `body` is `.+$` under DOTALL). Counting then needs no scan to the end at all, as in
/// CPython, which also jumps over such a repeat.
fn greedy_tail(re: &Regex) -> Option<AnchoredProgram> {
    let NodeKind::Concat(items) = &re.ast().root.kind else {
        return None;
    };
    let mut k = items.len();
    while k > 0
        && matches!(
            items[k - 1].kind,
            NodeKind::Comment
                | NodeKind::Whitespace
                | NodeKind::Anchor {
                    kind: AnchorKind::LineEnd | AnchorKind::TextEnd,
                    ..
                }
        )
    {
        k -= 1;
    }
    let last = items.get(k.checked_sub(1)?)?;
    let repeat = match &last.kind {
        NodeKind::Group {
            kind: GroupKind::Capture { .. } | GroupKind::NonCapture,
            child,
        } => child.as_ref(),
        _ => last,
    };
    let NodeKind::Repeat {
        min,
        max: None,
        greed: Greed::Greedy,
        child,
        ..
    } = &repeat.kind
    else {
        return None;
    };
    if !matches!(child.kind, NodeKind::Dot { dotall: true }) || re.flavor().is_js() {
        return None;
    }
    let any = if re.flavor().is_rust() {
        "(?s:.)"
    } else {
        r"[\s\S]"
    };
    let head = format!("{}(?:{any}){{{min}}}", &re.pattern()[..last.span.start]);
    AnchoredProgram::new(&Regex::new(&head, re.flavor(), re.flags()).ok()?)
}

/// A pattern `X(?=Y)` rewritten as `X(Y)` for the linear engine, plus `Y` on its own.
struct Rewrite {
    /// `X(Y)`, `Y` being the last group.
    regex: Regex,
    /// `Y` translated for an anchored search.
    tail: regex_automata::dfa::dense::DFA<Vec<u32>>,
    /// The most bytes `Y` can match.
    tail_max: usize,
}

/// The linear-time rewrite of a pattern that ends in a positive look-ahead, `X(?=Y)`.
///
/// `X(Y)` with `Y` as a plain group matches where `X(?=Y)` does (the linear engine's
/// leftmost-first order is the backtracking order), but consumes `Y` too: the match is cut
/// back to where `Y` starts, and the scan resumes there. The cut is found without running
/// captures over the whole match: `Y` can match at most `tail_max` bytes, so it starts in the
/// last `tail_max` bytes of the match; when exactly one position there starts a `Y` that ends
/// where the match ends, that is the cut (the true one is always among them). Otherwise the
/// rewrite's captures decide. This takes the `result` preset (whose summary runs to the next
/// `[RESULT`) off the backtracking engine when counting. Only done when `Y` has no groups and
/// a bounded length, `X` cannot match empty, and both compile for the linear engine.
fn trailing_lookahead(re: &Regex) -> Option<Rewrite> {
    let NodeKind::Concat(items) = &re.ast().root.kind else {
        return None;
    };
    let last = items
        .iter()
        .rposition(|n| !matches!(n.kind, NodeKind::Comment | NodeKind::Whitespace))?;
    let NodeKind::Group {
        kind: GroupKind::Lookahead,
        child,
    } = &items[last].kind
    else {
        return None;
    };
    if items[..last].iter().all(Node::nullable) {
        return None;
    }
    let tail_max = max_len(child, 0)?;
    let p = re.pattern();
    let y = &p[child.span.start..child.span.end];
    let rewritten = format!(
        "{}({y}){}",
        &p[..items[last].span.start],
        &p[items[last].span.end..]
    );
    let regex = Regex::new(&rewritten, re.flavor(), re.flags()).ok()?;
    if regex.engine_kind_typical() != EngineKind::Linear
        || regex.group_count() != re.group_count() + 1
    {
        return None;
    }
    let tail_src = format!("(?:{y})");
    let tail_re = Regex::new(&tail_src, re.flavor(), re.ast().flags).ok()?;
    if tail_re.group_count() != 0 {
        return None;
    }
    let tail_pattern = tail_re.exact_linear_pattern()?;
    // A small dense DFA: the cut tries a handful of positions per match, each must be cheap.
    let tail = regex_automata::dfa::dense::DFA::new(&tail_pattern).ok()?;
    Some(Rewrite {
        regex,
        tail,
        tail_max,
    })
}

/// Finds where a match of the rewrite `X(Y)` ends as a match of `X(?=Y)`.
struct Cut<'r, 't> {
    rewrite: &'r Rewrite,
    text: &'t str,
    /// The rewrite with captures, for the rare ambiguous cut (set up on its first need).
    exact: Option<Matches<'r, 't>>,
}

impl Cut<'_, '_> {
    fn find(&mut self, start: usize, end: usize) -> Result<usize, Error> {
        let lo = end.saturating_sub(self.rewrite.tail_max).max(start);
        let mut found = None;
        for c in (lo..=end).filter(|&c| self.text.is_char_boundary(c)) {
            let input = regex_automata::Input::new(self.text)
                .range(c..)
                .anchored(regex_automata::Anchored::Yes);
            if self
                .rewrite
                .tail
                .try_search_fwd(&input)
                .ok()
                .flatten()
                .is_some_and(|m| m.offset() == end)
            {
                if found.is_some() {
                    return self.exact(start, end);
                }
                found = Some(c);
            }
        }
        match found {
            Some(c) => Ok(c),
            None => self.exact(start, end),
        }
    }

    fn exact(&mut self, start: usize, end: usize) -> Result<usize, Error> {
        let (regex, text) = (&self.rewrite.regex, self.text);
        let exact = self
            .exact
            .get_or_insert_with(|| regex.matches(text, MatchOptions::default()));
        exact.seek(start);
        let k = self.rewrite.regex.group_count();
        match exact.next() {
            Some(Ok(m)) => Ok(m.groups.get(k).copied().flatten().map_or(end, |g| g.0)),
            Some(Err(e)) => Err(e),
            None => Ok(end),
        }
    }
}

/// The most bytes a member may look behind the start of its match (look-behind, `\b`, `^`)
/// for [`HitScanner::unsettled_start`] to answer for it: a caller that resumes a scan keeps at
/// least this much text before the resume point.
pub const MAX_LOOK_BEHIND: usize = 256;

/// How a member tells whether text still to come could change its matches.
enum Settle {
    /// A match and everything it looks at lie within this many bytes of its start.
    Reach(usize),
    /// The member's exact program, run anchored from each possible start without an end of
    /// input: a start whose run dies inside the text is settled.
    Live(Box<regex_automata::hybrid::dfa::DFA>),
    /// It cannot be told (a greedy any-character tail runs to the end of the text, a pattern
    /// without an exact linear program, one that can match empty, an unbounded look-behind).
    Never,
}

impl Settle {
    fn of(re: &Regex, rewrite: Option<&Rewrite>) -> Settle {
        let root = &re.ast().root;
        if root.nullable() || look_behind(root, 0).is_none_or(|b| b > MAX_LOOK_BEHIND) {
            return Settle::Never;
        }
        // Past the farthest byte a match or its look-ahead examines, an end-of-text test
        // (`$`, `\Z`, `\b`) reads at most one more character and a line feed.
        if let Some(n) = extent(root, 0, true) {
            return Settle::Reach(n.saturating_add(8));
        }
        if greedy_tail(re).is_some() {
            return Settle::Never;
        }
        let pattern = match rewrite {
            Some(r) => exact_pattern(&r.regex),
            None => exact_pattern(re),
        };
        let Some(pattern) = pattern else {
            return Settle::Never;
        };
        let config = regex_automata::hybrid::dfa::Config::new().unicode_word_boundary(true);
        match regex_automata::hybrid::dfa::Builder::new()
            .configure(config)
            .build(&pattern)
        {
            Ok(dfa) => Settle::Live(Box::new(dfa)),
            Err(_) => Settle::Never,
        }
    }
}

/// Whether a match could start at `s` that bytes after `text` could still complete or
/// change: the anchored run from `s` is alive (not dead) when the text runs out. A quit byte
/// or a full cache is taken as alive.
fn alive_at_end(
    dfa: &regex_automata::hybrid::dfa::DFA,
    cache: &mut regex_automata::hybrid::dfa::Cache,
    text: &str,
    s: usize,
) -> bool {
    let input = regex_automata::Input::new(text)
        .range(s..)
        .anchored(regex_automata::Anchored::Yes);
    let Ok(mut sid) = dfa.start_state_forward(cache, &input) else {
        return true;
    };
    for &b in &text.as_bytes()[s..] {
        sid = match dfa.next_state(cache, sid, b) {
            Ok(sid) => sid,
            Err(_) => return true,
        };
        if sid.is_tagged() {
            if sid.is_dead() {
                return false;
            }
            if sid.is_quit() || sid.is_unknown() {
                return true;
            }
        }
    }
    !sid.is_dead()
}

impl<M: HitPattern> HitScanner<'_, M> {
    fn start_finder(&self, i: usize) -> &growth::StartFinder {
        self.start_finders[i].get_or_init(|| growth::StartFinder::new(self.entries[i].starts()))
    }

    fn settle(&self, i: usize) -> &Settle {
        self.settle[i].get_or_init(|| match self.entries[i].regex() {
            Ok(re) => Settle::of(re, self.counting(i, re).rewritten.as_ref()),
            Err(_) => Settle::Never,
        })
    }

    /// Whether [`HitScanner::unsettled_start`] can settle member `i`'s matches before the end
    /// of the text (else a scan in pieces must hold the text from where the member could
    /// match on, and the member is better read whole). Compiles the member.
    pub fn settles(&self, i: usize) -> bool {
        !matches!(self.settle(i), Settle::Never)
    }

    /// The earliest byte at or after `from` where a match of some member could start that
    /// text appended after `text` could still complete or change; `None` when every match
    /// starting at or after `from` is settled by `text` alone.
    ///
    /// A scan in pieces ([`HitsOptions::start`]) takes the hits before this point as final,
    /// and resumes there with the next piece appended (keeping [`MAX_LOOK_BEHIND`] bytes of
    /// context before it). A member that does not [`settle`](HitScanner::settles) answers
    /// `from`.
    pub fn unsettled_start(&self, text: &str, from: usize) -> Option<usize> {
        let len = text.len();
        let mut earliest: Option<usize> = None;
        for i in 0..self.entries.len() {
            let limit = earliest.unwrap_or(len);
            if limit <= from {
                break;
            }
            if let Some(s) = self.member_unsettled(i, text, from, limit) {
                earliest = Some(earliest.map_or(s, |e| e.min(s)));
            }
        }
        earliest
    }

    /// [`HitScanner::unsettled_start`] for member `i` alone: where its own scan of a text
    /// that grows after `text` resumes.
    pub fn unsettled_start_of(&self, i: usize, text: &str, from: usize) -> Option<usize> {
        self.member_unsettled(i, text, from, text.len())
    }

    /// Member `i`'s resume point (growth's question, for a text that will grow); past `limit`
    /// nothing needs checking.
    fn member_unsettled(&self, i: usize, text: &str, from: usize, limit: usize) -> Option<usize> {
        let len = text.len();
        if from >= len {
            return None;
        }
        let starts = self.start_finder(i);
        match self.settle(i) {
            Settle::Never => Some(from),
            Settle::Reach(n) => {
                growth::resume_point_with(Reach::Bytes(*n), starts, text, from, &[], |_, _| None)
            }
            Settle::Live(dfa) => {
                let mut cache = dfa.create_cache();
                growth::resume_point_with(Reach::Unbounded, starts, text, from, &[], |s, _| {
                    Some(if s >= limit || alive_at_end(dfa, &mut cache, text, s) {
                        len
                    } else {
                        s
                    })
                })
            }
        }
    }
}

fn keyed<M: HitPattern>(e: Error, pattern: &M) -> Error {
    pattern.keyed(e)
}

struct Cursor<'r, 't> {
    /// `None` when the preset could not be compiled (`failure` says why).
    matches: Option<Matches<'r, 't>>,
    candidates: Option<Vec<usize>>,
    next_candidate: usize,
    /// For a rewritten pattern: finds the original match's end.
    cut: Option<Cut<'r, 't>>,
    peeked: Option<Result<Match, Error>>,
    /// Reported once by the first [`Cursor::advance`].
    failure: Option<Error>,
    done: bool,
}

impl<'r, 't> Cursor<'r, 't> {
    /// A cursor that reports `e` once, then ends.
    fn failed(e: Error) -> Cursor<'r, 't> {
        Cursor {
            matches: None,
            candidates: None,
            next_candidate: 0,
            cut: None,
            peeked: None,
            failure: Some(e),
            done: false,
        }
    }

    /// The preset's next match, searching only from candidates when it has them.
    fn advance(&mut self) -> Option<Result<Match, Error>> {
        if self.done {
            return None;
        }
        let Some(matches) = &mut self.matches else {
            self.done = true;
            return self.failure.take().map(Err);
        };
        if let Some(cands) = &self.candidates {
            let pos = Matches::position(matches);
            // Candidates are sorted: move past those the scan has already passed.
            while self.next_candidate < cands.len() && cands[self.next_candidate] < pos {
                self.next_candidate += 1;
            }
            let Some(&c) = cands.get(self.next_candidate) else {
                self.done = true;
                return None;
            };
            matches.skip_to(c);
        }
        let mut next = matches.next();
        match &mut next {
            None | Some(Err(_)) => self.done = true,
            Some(Ok(m)) => {
                if let Some(cut) = &mut self.cut {
                    let start = m.start();
                    match cut.find(start, m.end()) {
                        Ok(c) => {
                            *m = Match {
                                groups: vec![Some((start, c))],
                                pair_cut: None,
                            };
                            matches.seek(c);
                        }
                        Err(e) => {
                            self.done = true;
                            return Some(Err(e));
                        }
                    }
                }
            }
        }
        next
    }
}

/// Iterator over hits in text order; see [`HitScanner::hits`].
pub struct Hits<'s, 'c, 't, M: HitPattern> {
    scanner: &'s HitScanner<'c, M>,
    /// The presets that can match (index into the scanner's entries) and their cursors.
    cursors: Vec<(usize, Cursor<'s, 't>)>,
}

impl<'c, M: HitPattern> Iterator for Hits<'_, 'c, '_, M> {
    type Item = Result<Hit<'c, M>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut best: Option<(usize, usize)> = None;
        for (i, (_, cursor)) in self.cursors.iter_mut().enumerate() {
            if cursor.peeked.is_none() {
                cursor.peeked = cursor.advance();
            }
            match &cursor.peeked {
                Some(Err(_)) => {
                    best = Some((0, i));
                    break;
                }
                Some(Ok(m)) if best.is_none_or(|(s, _)| m.start() < s) => {
                    best = Some((m.start(), i))
                }
                _ => {}
            }
        }
        let (_, i) = best?;
        let (preset, cursor) = &mut self.cursors[i];
        let entry = self.scanner.entries[*preset];
        Some(match cursor.peeked.take()? {
            Ok(m) => Ok(Hit { entry, m }),
            Err(e) => Err(keyed(e, entry)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxw_syntax::flavor::{Flags, Flavor};
    use rxw_syntax::parse::parse;

    fn lits(p: &str) -> Option<Vec<String>> {
        let ast = parse(p, Flavor::PYTHON, Flags::default()).unwrap();
        first_literals(&ast.root, false)
    }

    #[test]
    fn first_literals_of_tags() {
        assert_eq!(
            lits(r"^\[WO:(?P<id>[a-f]+)\]"),
            Some(vec!["[WO:".to_string()])
        );
        assert_eq!(
            lits(r"\[(?P<verb>ACK|CLAIM|NO-ACTION)\s+x"),
            Some(vec![
                "[ACK".to_string(),
                "[CLAIM".to_string(),
                "[NO-ACTION".to_string()
            ])
        );
        assert_eq!(lits(r"(?=x)ab+c"), Some(vec!["ab".to_string()]));
        assert_eq!(lits(r"\b[0-9a-f]{6}\b"), None);
        assert_eq!(lits(r"a?b"), None);
        assert_eq!(lits(r"a|"), None);
        assert_eq!(lits(r"(?i)abc"), None);
        let ast = parse(
            r"\b[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab]",
            Flavor::PYTHON,
            Flags::default(),
        )
        .unwrap();
        assert_eq!(
            fixed_offset_literal(&ast.root),
            Some((13, "-4".to_string()))
        );
        let ast = parse(r"\b[0-9a-f]{6,12}\b", Flavor::PYTHON, Flags::default()).unwrap();
        assert_eq!(fixed_offset_literal(&ast.root), None);
        let ast = parse(r"\w{3}ab", Flavor::PYTHON, Flags::default()).unwrap();
        assert_eq!(fixed_offset_literal(&ast.root), None);
    }

    /// A member as simple as it gets: compiled at once, starts read off its tree.
    struct Plain {
        re: Regex,
        starts: Starts,
    }

    impl HitPattern for Plain {
        fn regex(&self) -> Result<&Regex, Error> {
            Ok(&self.re)
        }
        fn starts(&self) -> &Starts {
            &self.starts
        }
    }

    fn entries(patterns: &[(&str, &str, &str)]) -> Vec<Plain> {
        patterns
            .iter()
            .map(|(flavor, flags, p)| {
                let flavor: Flavor = flavor.parse().unwrap();
                let flags = Flags::parse(flags, flavor).unwrap();
                let re = Regex::new(p, flavor, flags).unwrap();
                let starts = Starts::of(re.ast(), flags.ignore_case);
                Plain { re, starts }
            })
            .collect()
    }

    /// Members whose counting takes a shortcut: a trailing look-ahead whose tail can match at
    /// two places near the end (an ambiguous cut), greedy any-character tails with and without
    /// MULTILINE, and neither (a JS pattern, a nullable one).
    const TRICKY_TAILS: [(&str, &str, &str); 7] = [
        ("python", "s", r"\[R\s+\w+\](?P<s>.*?)(?=\[R\s|\Z)"),
        ("python", "", r"x.*?(?=ab|b)"),
        ("python", "ms", r"^\[W\](?P<b>.+)$"),
        ("python", "s", r"\[W\].{3,}\Z"),
        ("rust", "s", r"\[W\](.*)$"),
        ("js", "", r"\[W\]\w+"),
        ("python", "", r"\d*"),
    ];

    /// Texts for [`TRICKY_TAILS`].
    const TRICKY_TEXTS: [&str; 7] = [
        "[R a] one\n[R b] two [R ",
        "[R a]\n[R b] x\n[R c]",
        "xab xb xaab x",
        "pre [W] not at start\n[W] body\nmore\n[W] again\n",
        "[W] ab",
        "[W]",
        "é[W]ünï 12 [W]x",
    ];

    #[test]
    fn fast_count_paths_agree_with_the_engine_on_tricky_tails() {
        let es = entries(&TRICKY_TAILS);
        let scanner = HitScanner::new(es.iter().collect());
        for text in TRICKY_TEXTS {
            let plain: Vec<usize> = es
                .iter()
                .map(|e| e.regex().unwrap().count(text).unwrap())
                .collect();
            assert_eq!(scanner.count(text).unwrap(), plain, "{text:?}");
        }
        assert!(scanner.is_rewritten(0) && scanner.is_rewritten(1));
    }

    /// `spans` takes its hits from the counting programs (anchored walks, cuts before a
    /// trailing look-ahead, greedy tails, forward and reverse DFAs): they are the hits the
    /// members' own matchers give, text by text.
    #[test]
    fn spans_from_the_counting_programs_are_the_matchers_hits() {
        let mut members = TRICKY_TAILS.to_vec();
        // Without a literal start: forward and reverse DFAs.
        members.extend([
            ("python", "a", r"\b[0-9a-f]{6,12}\b"),
            ("python", "", r"[a-z]+\d|\d+"),
            ("python", "a", r"\b[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}\b"),
            ("python", "", r"(?:ab|a)(?:bc|c)?"),
        ]);
        let es = entries(&members);
        let mut texts = TRICKY_TEXTS.to_vec();
        texts.extend([
            "deadbeef cafe 0123456789abcdef abc123 x9 7fce46e0-1234-4abc é7fce46e0",
            "abc abbc ac a1 zz99 0a1b2c3d4e5f6",
            "",
        ]);
        let scanner = HitScanner::new(es.iter().collect());
        let mut compared = 0;
        for text in texts {
            let mut got = scanner.spans(text).unwrap();
            let mut want: Vec<(usize, usize, usize)> = es
                .iter()
                .enumerate()
                .flat_map(|(i, e)| {
                    e.regex()
                        .unwrap()
                        .matches(text, MatchOptions::default())
                        .map(move |m| {
                            let m = m.unwrap();
                            (i, m.start(), m.end())
                        })
                })
                .collect();
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "{text:?}");
            compared += want.len();
        }
        assert!(compared > 60, "{compared}");
        // The members without a literal start took the two-way path.
        assert!(
            scanner.counting[7]
                .get()
                .is_some_and(|c| c.reverse.is_some())
        );
    }

    #[test]
    fn deep_nesting_gives_up_instead_of_recursing() {
        let p = format!("{}a{}", "(".repeat(500), ")".repeat(500));
        assert_eq!(lits(&p), None);
    }
}
