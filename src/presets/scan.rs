//! Parse-through-all: every preset over one text, hits merged in text order.
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
//! Each preset then runs its own engine (so the results are exactly those of the preset's
//! own `finditer`, overlaps between presets included), but it never scans the text between
//! candidates: after a match, or at the start, the search jumps to the next candidate at or
//! after that point. A preset whose literal never occurs costs nothing beyond the shared pass.
//! Presets without a literal start (`uuid`, `short_hex` begin with a class) scan the text
//! themselves with their linear-time engine. The per-preset hit streams are merged lazily in
//! text order (ties by registry order), so output starts before the scan ends and memory is
//! the candidate lists, not the hits.

use super::model::Entry;
use crate::engine::{Match, MatchOptions, Matches};
use crate::error::Error;
use crate::syntax::ast::{GroupKind, Node, NodeKind};
use aho_corasick::{AhoCorasick, MatchKind};

/// Most literals kept per preset; past that the prefilter would not pay.
const MAX_LITERALS: usize = 64;
/// Deepest nesting looked at; a start buried deeper is treated as unknown.
const MAX_DEPTH: usize = 32;

/// The literals one of which every match of `node` starts with, or `None` when there is no
/// such finite set (a class, a dot, an optional start, case-insensitive matching...).
pub fn first_literals(node: &Node, ignore_case: bool) -> Option<Vec<String>> {
    if ignore_case {
        return None;
    }
    let set = literals(node, 0)?;
    if set.strings.iter().any(String::is_empty) {
        return None;
    }
    Some(set.strings)
}

/// A set of strings; `complete` when each covers the whole node (so what follows may extend
/// it), else each is only a prefix.
struct LiteralSet {
    strings: Vec<String>,
    complete: bool,
}

fn literals(node: &Node, depth: usize) -> Option<LiteralSet> {
    if depth > MAX_DEPTH {
        return None;
    }
    let empty = || LiteralSet {
        strings: vec![String::new()],
        complete: true,
    };
    match &node.kind {
        NodeKind::Literal { ch, .. } => Some(LiteralSet {
            strings: vec![ch.to_string()],
            complete: true,
        }),
        NodeKind::Empty | NodeKind::Anchor { .. } | NodeKind::Comment | NodeKind::Whitespace => Some(empty()),
        NodeKind::Group { kind, child } => match kind {
            GroupKind::Capture { .. } | GroupKind::NonCapture | GroupKind::Atomic => literals(child, depth + 1),
            GroupKind::Lookahead | GroupKind::NegativeLookahead | GroupKind::Lookbehind | GroupKind::NegativeLookbehind => Some(empty()),
            GroupKind::Flags(_) => None,
        },
        NodeKind::Repeat { min, child, .. } if *min >= 1 => {
            let inner = literals(child, depth + 1)?;
            Some(LiteralSet {
                strings: inner.strings,
                complete: false,
            })
        }
        NodeKind::Alternation(branches) => {
            let mut strings = Vec::new();
            let mut complete = true;
            for b in branches {
                let s = literals(b, depth + 1)?;
                complete &= s.complete;
                strings.extend(s.strings);
                if strings.len() > MAX_LITERALS {
                    return None;
                }
            }
            strings.sort();
            strings.dedup();
            Some(LiteralSet { strings, complete })
        }
        NodeKind::Concat(items) => {
            let mut acc = empty();
            for item in items {
                if !acc.complete {
                    break;
                }
                let Some(next) = literals(item, depth + 1) else {
                    acc.complete = false;
                    break;
                };
                if acc.strings.len() * next.strings.len() > MAX_LITERALS {
                    acc.complete = false;
                    break;
                }
                acc.strings = acc.strings.iter().flat_map(|a| next.strings.iter().map(move |b| format!("{a}{b}"))).collect();
                acc.complete = next.complete;
            }
            Some(acc)
        }
        _ => None,
    }
}

/// A compiled set of presets, ready to scan texts.
pub struct Scanner<'c> {
    entries: Vec<&'c Entry>,
    /// One automaton over every preset's first literals.
    prefilter: Option<AhoCorasick>,
    /// For each automaton pattern, the presets (indices into `entries`) it starts.
    owners: Vec<Vec<usize>>,
    /// Whether each preset is driven by the prefilter.
    filtered: Vec<bool>,
}

/// One hit: which preset, and its match (spans of the whole match and of every group).
#[derive(Debug, Clone)]
pub struct Hit<'c> {
    /// The preset that matched.
    pub entry: &'c Entry,
    /// Its match.
    pub m: Match,
}

impl<'c> Scanner<'c> {
    /// Prepares to scan with these presets (their order breaks ties between hits that start
    /// at the same byte).
    pub fn new(entries: Vec<&'c Entry>) -> Scanner<'c> {
        let mut distinct: Vec<String> = Vec::new();
        let mut owners: Vec<Vec<usize>> = Vec::new();
        let mut filtered = Vec::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            let lits = first_literals(&e.regex.ast().root, e.regex.flags().ignore_case || e.regex.ast().flags.ignore_case);
            filtered.push(lits.is_some());
            for lit in lits.unwrap_or_default() {
                match distinct.iter().position(|d| *d == lit) {
                    Some(k) => owners[k].push(i),
                    None => {
                        distinct.push(lit);
                        owners.push(vec![i]);
                    }
                }
            }
        }
        let prefilter = if distinct.is_empty() {
            None
        } else {
            AhoCorasick::builder().match_kind(MatchKind::Standard).build(&distinct).ok()
        };
        if prefilter.is_none() {
            filtered.iter_mut().for_each(|f| *f = false);
        }
        Scanner {
            entries,
            prefilter,
            owners,
            filtered,
        }
    }

    /// The presets scanned, in tie-break order.
    pub fn entries(&self) -> &[&'c Entry] {
        &self.entries
    }

    /// Whether preset `i` is driven by the literal prefilter (else it scans on its own).
    pub fn is_prefiltered(&self, i: usize) -> bool {
        self.filtered[i]
    }

    /// Candidate start offsets per preset, from one pass of the automaton.
    fn candidates(&self, text: &str) -> Vec<Vec<usize>> {
        let mut cands = vec![Vec::new(); self.entries.len()];
        if let Some(ac) = &self.prefilter {
            for m in ac.find_overlapping_iter(text) {
                for &i in &self.owners[m.pattern().as_usize()] {
                    cands[i].push(m.start());
                }
            }
        }
        for c in &mut cands {
            // Overlapping matches come in order of their end: restore start order.
            c.sort_unstable();
            c.dedup();
        }
        cands
    }

    /// Every hit of every preset in `text`, in text order. With `captures` false the hits
    /// carry only the whole match's span (faster).
    pub fn hits<'s, 't>(&'s self, text: &'t str, captures: bool) -> Hits<'s, 'c, 't> {
        let candidates = self.candidates(text);
        let cursors = self
            .entries
            .iter()
            .zip(candidates)
            .enumerate()
            .map(|(i, (e, cands))| Cursor {
                matches: e.regex.matches(
                    text,
                    MatchOptions {
                        bounds_only: !captures,
                        ..Default::default()
                    },
                ),
                candidates: self.filtered[i].then_some(cands),
                next_candidate: 0,
                peeked: None,
                done: false,
            })
            .collect();
        Hits { scanner: self, cursors }
    }

    /// The number of hits per preset, in the order of [`Scanner::entries`].
    ///
    /// # Errors
    /// The first preset that fails (a backtrack budget exhausted), its key in the message.
    pub fn count(&self, text: &str) -> Result<Vec<usize>, Error> {
        let mut counts = vec![0; self.entries.len()];
        let mut hits = self.hits(text, false);
        for (i, cursor) in hits.cursors.iter_mut().enumerate() {
            while let Some(m) = cursor.advance() {
                m.map_err(|e| keyed(e, self.entries[i]))?;
                counts[i] += 1;
            }
        }
        Ok(counts)
    }
}

fn keyed(mut e: Error, entry: &Entry) -> Error {
    e.message = format!("preset {}: {}", entry.preset.key, e.message);
    e
}

struct Cursor<'r, 't> {
    matches: Matches<'r, 't>,
    candidates: Option<Vec<usize>>,
    next_candidate: usize,
    peeked: Option<Result<Match, Error>>,
    done: bool,
}

impl Cursor<'_, '_> {
    /// The preset's next match, searching only from candidates when it has them.
    fn advance(&mut self) -> Option<Result<Match, Error>> {
        if self.done {
            return None;
        }
        if let Some(cands) = &self.candidates {
            let pos = self.matches.position();
            // Candidates are sorted: move past those the scan has already passed.
            while self.next_candidate < cands.len() && cands[self.next_candidate] < pos {
                self.next_candidate += 1;
            }
            let Some(&c) = cands.get(self.next_candidate) else {
                self.done = true;
                return None;
            };
            self.matches.skip_to(c);
        }
        let next = self.matches.next();
        if matches!(next, None | Some(Err(_))) {
            self.done = true;
        }
        next
    }
}

/// Iterator over hits in text order; see [`Scanner::hits`].
pub struct Hits<'s, 'c, 't> {
    scanner: &'s Scanner<'c>,
    cursors: Vec<Cursor<'s, 't>>,
}

impl<'c> Iterator for Hits<'_, 'c, '_> {
    type Item = Result<Hit<'c>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut best: Option<(usize, usize)> = None;
        for (i, cursor) in self.cursors.iter_mut().enumerate() {
            if cursor.peeked.is_none() {
                cursor.peeked = cursor.advance();
            }
            match &cursor.peeked {
                None => {}
                Some(Err(_)) => {
                    best = Some((0, i));
                    break;
                }
                Some(Ok(m)) => {
                    if best.is_none_or(|(s, _)| m.start() < s) {
                        best = Some((m.start(), i));
                    }
                }
            }
        }
        let (_, i) = best?;
        let entry = self.scanner.entries[i];
        Some(match self.cursors[i].peeked.take()? {
            Ok(m) => Ok(Hit { entry, m }),
            Err(e) => Err(keyed(e, entry)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::{Flags, Flavor};
    use crate::syntax::parse::parse;

    fn lits(p: &str) -> Option<Vec<String>> {
        let ast = parse(p, Flavor::Python, Flags::default()).unwrap();
        first_literals(&ast.root, false)
    }

    #[test]
    fn first_literals_of_tags() {
        assert_eq!(lits(r"^\[WO:(?P<id>[a-f]+)\]"), Some(vec!["[WO:".to_string()]));
        assert_eq!(
            lits(r"\[(?P<verb>ACK|CLAIM|NO-ACTION)\s+x"),
            Some(vec!["[ACK".to_string(), "[CLAIM".to_string(), "[NO-ACTION".to_string()])
        );
        assert_eq!(lits(r"(?=x)ab+c"), Some(vec!["ab".to_string()]));
        assert_eq!(lits(r"\b[0-9a-f]{6}\b"), None);
        assert_eq!(lits(r"a?b"), None);
        assert_eq!(lits(r"a|"), None);
        assert_eq!(lits(r"(?i)abc"), None);
    }

    #[test]
    fn deep_nesting_gives_up_instead_of_recursing() {
        let p = format!("{}a{}", "(".repeat(500), ")".repeat(500));
        assert_eq!(lits(&p), None);
    }
}
