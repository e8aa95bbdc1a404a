//! Iterating over matches: the options of a scan and the iterator, with each flavor's rule
//! after an empty match.

use super::*;

/// How the error of a scan stopped by [`MatchOptions::max_total_steps`] begins (its kind is
/// [`ErrorKind::BacktrackLimit`], as for one attempt's budget), for front ends that name the
/// option that raises it.
pub const TOTAL_STEPS_EXCEEDED: &str = "total step budget exceeded";

/// How to iterate.
#[derive(Clone, Default)]
pub struct MatchOptions<'a> {
    /// Byte where the scan starts (context before it still counts for anchors).
    pub start: usize,
    /// Skip capture extraction (faster counting).
    pub bounds_only: bool,
    /// Stop with [`ErrorKind::TimedOut`] after this instant.
    pub deadline: Option<Instant>,
    /// Stop quietly when this becomes true.
    pub cancel: Option<&'a AtomicBool>,
    /// Stop with [`ErrorKind::BacktrackLimit`] once the matcher has taken more than this many
    /// steps over the whole scan (every search attempt of every match), so that the work of
    /// a scan is bounded, not only each attempt's. Checked between attempts.
    pub max_total_steps: Option<u64>,
    /// Set now and then to the byte the scan has reached (where the matcher's current attempt
    /// begins, between attempts; after each search otherwise), so that a caller can show the
    /// progress of a search that runs long without a match.
    pub progress: Option<&'a AtomicUsize>,
}

impl<'a> MatchOptions<'a> {
    /// The options a scan under `limits` runs with: the time budget as a deadline from now,
    /// and the total step budget.
    pub fn within(limits: &Limits) -> MatchOptions<'a> {
        MatchOptions {
            deadline: limits.time_budget.map(|d| std::time::Instant::now() + d),
            max_total_steps: limits.max_total_steps,
            ..Default::default()
        }
    }
}

impl MatchOptions<'_> {
    /// Options that skip captures.
    pub fn bounds_only() -> Self {
        MatchOptions {
            bounds_only: true,
            ..Default::default()
        }
    }
}

/// Iterator over matches; see [`Regex::matches`].
pub struct Matches<'r, 't> {
    pub(crate) re: &'r Regex,
    pub(crate) compiled: Option<&'r Compiled>,
    pub(crate) error: Option<Error>,
    pub(crate) text: &'t str,
    /// JS without `u` on a text with astral characters: its code units, searched instead.
    pub(crate) units: Option<CodeUnits>,
    /// Where the next search starts, in the searched positions (bytes or code units).
    pub(crate) pos: usize,
    pub(crate) last_end: Option<usize>,
    /// Python: the previous match was empty here, so a match starting here must not be.
    pub(crate) not_empty_at: Option<usize>,
    pub(crate) done: bool,
    pub(crate) options: MatchOptions<'r>,
    pub(crate) locs: Option<regex::CaptureLocations>,
    pub(crate) found: usize,
    pub(crate) steps: u64,
    /// JavaScript with `u`/`v`: a byte and its UTF-16 index, where counting the next
    /// match inside a pair resumes.
    pub(crate) pair_units: (usize, usize),
}

impl Matches<'_, '_> {
    /// The byte where the next search starts (the scan's progress).
    pub fn position(&self) -> usize {
        match &self.units {
            Some(u) => u.byte_of_unit(self.pos, self.text).unwrap_or_else(|b| b),
            None => self.pos,
        }
    }

    /// Steps the matcher has taken so far (0 on the linear engine, which counts none).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    fn hay_len(&self) -> usize {
        self.units
            .as_ref()
            .map_or(self.text.len(), |u| u.units.len())
    }

    /// Moves the scan forward to byte `pos` (never backward).
    ///
    /// For callers that know no match can start before `pos`, e.g. a literal prefilter that
    /// saw none of the pattern's required first literals in between: the bytes skipped are
    /// never searched, while anchors and look-behind still see them as context.
    pub fn skip_to(&mut self, pos: usize) {
        let pos = match &self.units {
            Some(u) => u.unit_of_byte(pos),
            None => pos,
        };
        if pos > self.pos {
            self.pos = pos;
        }
    }

    /// Continues the scan at byte `pos`, also backward.
    ///
    /// For callers that run a rewritten pattern which consumes more than the original would
    /// (a trailing look-ahead turned into a group) and must resume where the original match
    /// ends. Empty-match bookkeeping is left as it is.
    pub fn seek(&mut self, pos: usize) {
        self.pos = match &self.units {
            Some(u) => u.unit_of_byte(pos),
            None => pos,
        };
    }

    /// JavaScript with `u`/`v`: node's answer for a search from `self.pos` that found its
    /// match at `found` (or none), when it passed over a character outside the BMP: the
    /// attempt at that character failed, so node tries the position inside its surrogate pair
    /// next, and this pattern matches there (see [`InsidePair`]). The match is empty, at that
    /// UTF-16 index; its byte span is the character's first byte. A pattern whose answer there
    /// was not worked out is refused.
    fn inside_pair_match(&mut self, found: Option<usize>) -> Option<Result<Match, Error>> {
        let end = found.unwrap_or(self.text.len());
        let passed = self.text.as_bytes().get(self.pos..end)?;
        let at = self.pos + passed.iter().position(|&b| b >= 0xF0)?;
        let ch = self.text[at..].chars().next()?;
        let groups_taking_part = match &self.re.js_inside_pair {
            InsidePair::NoMatch => return None,
            InsidePair::Match(groups) => groups,
            InsidePair::Unsure => {
                return Some(Err(Error::new(
                    ErrorKind::InputUnsupported,
                    format!(
                        "node tries the position between the two UTF-16 code units of U+{:04X} (byte {at}) after its attempt there fails, and rxw has not worked out whether this pattern matches there (a pattern nested too deep); rxw refuses rather than answer differently from node",
                        ch as u32
                    ),
                )));
            }
        };
        // UTF-16 index of `at`, counted on from the last one worked out.
        let (known_byte, known_unit) = if self.pair_units.0 <= at {
            self.pair_units
        } else {
            (0, 0)
        };
        let unit = known_unit
            + self.text[known_byte..at]
                .chars()
                .map(char::len_utf16)
                .sum::<usize>();
        self.pair_units = (at, unit);
        let inside = unit + 1;
        let count = if self.options.bounds_only {
            1
        } else {
            self.re.names.len() + 1
        };
        let takes_part = |k: usize| k == 0 || groups_taking_part.iter().any(|&g| g as usize == k);
        let groups = (0..count)
            .map(|k| takes_part(k).then_some((at, at)))
            .collect();
        let utf16 = (0..count)
            .map(|k| takes_part(k).then_some((inside, inside)))
            .collect();
        let units = (0..count).map(|k| takes_part(k).then(Vec::new)).collect();
        Some(Ok(Match {
            groups,
            pair_cut: Some(Box::new(PairCut {
                utf16,
                base: unit,
                units,
                cuts: vec![CutCharacter {
                    ch,
                    bytes: (at, at + ch.len_utf8()),
                    utf16: unit,
                }],
                end_inside: true,
            })),
        }))
    }

    fn next_pos(&self, at: usize) -> usize {
        match &self.units {
            Some(_) => at + 1,
            None => at + self.text[at..].chars().next().map_or(1, char::len_utf8),
        }
    }

    fn search(&mut self, c: &Compiled) -> Result<Option<Match>, Error> {
        let re = self.re;
        let captures = !self.options.bounds_only;
        match &c.program {
            Program::Linear(linear) => {
                let text = self.text;
                if !captures {
                    return Ok(linear.find_at(text, self.pos).map(|m| Match {
                        groups: vec![Some((m.start(), m.end()))],
                        pair_cut: None,
                    }));
                }
                let locs = self.locs.as_mut().expect("capture locations");
                if linear.captures_read_at(locs, text, self.pos).is_none() {
                    return Ok(None);
                }
                let mut groups = Vec::with_capacity(re.names.len() + 1);
                groups.push(locs.get(0));
                for k in 0..re.names.len() {
                    groups.push(locs.get(c.group_map[k]));
                }
                Ok(Some(Match {
                    groups,
                    pair_cut: None,
                }))
            }
            Program::Matcher(prog) => {
                let params = vm::exec::SearchParams {
                    not_empty_at: self.not_empty_at,
                    total_budget: self
                        .options
                        .max_total_steps
                        .map(|t| t.saturating_sub(self.steps)),
                    cancel: self.options.cancel,
                    deadline: self.options.deadline,
                    // Positions in code units are not bytes: progress is reported per search.
                    progress: self
                        .units
                        .is_none()
                        .then_some(self.options.progress)
                        .flatten(),
                    ..re.search_params(self.pos)
                };
                let ((outcome, cut), steps) = match &self.units {
                    Some(u) if prog.unit_classes => {
                        let (o, s) = vm::run_search(
                            prog,
                            &vm::Utf16PairHay(&u.units),
                            &params,
                            &mut NoObserver,
                        );
                        (u.map_outcome(o, self.text), s)
                    }
                    Some(u) => {
                        let (o, s) =
                            vm::run_search(prog, &Utf16Hay(&u.units), &params, &mut NoObserver);
                        (u.map_outcome(o, self.text), s)
                    }
                    None => {
                        let (o, s) = vm::run_search(
                            prog,
                            &Utf8Hay(self.text.as_bytes()),
                            &params,
                            &mut NoObserver,
                        );
                        ((o, None), s)
                    }
                };
                self.steps += steps;
                match outcome {
                    Outcome::Match(slots) => {
                        let mut m = slots_to_match(&slots, cut);
                        if !captures {
                            m.groups.truncate(1);
                            if let Some(c) = &mut m.pair_cut {
                                c.utf16.truncate(1);
                                c.units.truncate(1);
                            }
                        }
                        Ok(Some(m))
                    }
                    Outcome::NoMatch => Ok(None),
                    Outcome::Cancelled => {
                        self.done = true;
                        Ok(None)
                    }
                    Outcome::TotalBudgetExceeded { pos } => Err(Error::new(
                        ErrorKind::BacktrackLimit,
                        format!(
                            "{TOTAL_STEPS_EXCEEDED}: the scan took more than {} matcher steps over all its search attempts (stopped at byte {pos} of {})",
                            self.options.max_total_steps.unwrap_or(0),
                            self.text.len()
                        ),
                    )),
                    other => Err(re.stop_error(other, self.text)),
                }
            }
        }
    }
}

impl Iterator for Matches<'_, '_> {
    type Item = Result<Match, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let Some(e) = self.error.take() {
            self.done = true;
            return Some(Err(e));
        }
        let compiled = self.compiled?;
        let flavor = self.re.flavor;
        let sticky = flavor.is_js() && self.re.flags.sticky;
        let on_matcher = matches!(compiled.program, Program::Matcher(_));
        // node 18's code units with `u`: the search itself tries the positions inside pairs.
        let pairs_whole = matches!(&compiled.program, Program::Matcher(p) if p.unit_classes)
            && self.units.is_some();
        loop {
            if self.pos > self.hay_len() {
                self.done = true;
                return None;
            }
            if let Some(c) = self.options.cancel
                && c.load(std::sync::atomic::Ordering::Relaxed)
            {
                self.done = true;
                return None;
            }
            if let Some(d) = self.options.deadline
                && Instant::now() > d
            {
                self.done = true;
                return Some(Err(Error::new(ErrorKind::TimedOut, "execution timed out")));
            }
            if let Some(p) = self.options.progress {
                p.store(
                    Matches::position(self),
                    std::sync::atomic::Ordering::Relaxed,
                );
            }
            let found = self.search(compiled);
            if self.re.js_pair_sensitive
                && !pairs_whole
                && let Ok(m) = &found
                && let Some(inside) = self.inside_pair_match(m.as_ref().map(Match::start))
            {
                match inside {
                    Ok(m) => {
                        // node moves on past the pair's second half (AdvanceStringIndex).
                        let at = m.start();
                        self.pos = self.next_pos(at);
                        self.last_end = Some(at);
                        self.found += 1;
                        return Some(Ok(m));
                    }
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                }
            }
            let m = match found {
                Ok(Some(m)) => m,
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            let (s, e) = (m.start(), m.end());
            // Positions in the searched form (code units when `units` is set).
            let (su, eu) = match (&self.units, &m.pair_cut) {
                (Some(_), Some(cut)) => cut.utf16[0].unwrap_or((0, 0)),
                (Some(u), None) => (u.unit_of_byte(s), u.unit_of_byte(e)),
                (None, _) => (s, e),
            };
            if sticky && su != self.pos {
                self.done = true;
                return None;
            }
            match flavor.rules().iteration {
                Iteration::SkipEmptyAfterMatch if s == e && self.last_end == Some(e) => {
                    // The regex crate and Go's FindAll never report an empty match adjacent to
                    // the end of the previous match.
                    if eu >= self.hay_len() {
                        self.done = true;
                        return None;
                    }
                    self.pos = self.next_pos(eu);
                    continue;
                }
                _ => {}
            }
            self.last_end = Some(e);
            if flavor.rules().iteration == Iteration::RetryNonEmpty && on_matcher {
                // CPython (and PCRE2's global loop) search again from the end; after an empty
                // match, a match starting at the same place must not be empty.
                self.pos = eu;
                self.not_empty_at = (s == e).then_some(eu);
            } else if pairs_whole {
                // `lastIndex` with `u`: past a whole pair after an empty match
                // (AdvanceStringIndex); a global search that would start inside a pair steps
                // back to its first half (V8's OptionallyStepBackToLeadSurrogate).
                let units = &self.units.as_ref().expect("code units").units;
                let lead = |p: usize| units.get(p).is_some_and(|u| (0xD800..0xDC00).contains(u));
                let trail = |p: usize| units.get(p).is_some_and(|u| (0xDC00..0xE000).contains(u));
                self.pos = if su == eu {
                    if lead(eu) && trail(eu + 1) {
                        eu + 2
                    } else {
                        eu + 1
                    }
                } else if eu > 0 && lead(eu - 1) && trail(eu) {
                    eu - 1
                } else {
                    eu
                };
            } else {
                self.pos = if su == eu { self.next_pos(eu) } else { eu };
            }
            self.found += 1;
            return Some(Ok(m));
        }
    }
}
