//! The line filter: only the lines with a match (with context lines around them, as
//! `grep -C`), or only the lines without one.
//!
//! It is built from the full scan's match spans as they stream in, and extended (never rebuilt)
//! while the same scan goes on: each new span marks the lines it covers, and the rows to show
//! are appended in order. Line numbers stay the input's. The full scan keeps at most
//! [`super::matching::SPAN_CAP`] spans (its count goes on past them); the lines after the last kept
//! span cannot be classified, so the filter stops there and says so ([`LineFilter::capped`]).

use super::Results;
use super::buffer::TextBuffer;

/// Which lines the filter shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FilterMode {
    /// Every line (no filter).
    #[default]
    Off,
    /// Lines with a match, and `context` lines before and after each.
    Matching,
    /// Lines without a match.
    NonMatching,
}

impl FilterMode {
    /// The next mode in the toggle's cycle: off, matching, non-matching, off.
    pub fn next(self) -> FilterMode {
        match self {
            FilterMode::Off => FilterMode::Matching,
            FilterMode::Matching => FilterMode::NonMatching,
            FilterMode::NonMatching => FilterMode::Off,
        }
    }
}

/// The rows a filter shows for one scan, extended as the scan's spans arrive.
#[derive(Debug, Clone, Default)]
pub struct LineFilter {
    mode: FilterMode,
    context: usize,
    /// The scan generation and input revision the rows were built for.
    built_for: Option<(u64, u64)>,
    /// Spans taken in so far.
    spans_seen: usize,
    /// The input lines to show, ascending.
    /// Line numbers as `u32`: the rows of a 1 GB log without a match are 14 million, 58 MB
    /// instead of 116 (a filter over more than four billion lines is refused).
    rows: Vec<u32>,
    /// Lines with a match, counted once each.
    matching_lines: usize,
    /// The last line marked as matching, if any.
    last_match_line: Option<usize>,
    /// The first line not yet decided (every line before it is in `rows` or left out).
    next_line: usize,
    /// Whether the rows cover the whole input.
    complete: bool,
    /// Whether the scan kept fewer spans than it counted matches.
    capped: bool,
}

/// The lines the input has, not counting the empty "line" after a final line break.
fn real_lines(input: &TextBuffer) -> usize {
    input.line_count() - usize::from(input.ends_with_newline() && input.line_count() > 1)
}

impl LineFilter {
    /// A filter showing `mode` with `context` lines around matching lines; empty until
    /// [`LineFilter::refresh`].
    pub fn new(mode: FilterMode, context: usize) -> LineFilter {
        LineFilter {
            mode,
            context,
            ..Default::default()
        }
    }

    /// The mode.
    pub fn mode(&self) -> FilterMode {
        self.mode
    }

    /// The context lines shown around each matching line.
    pub fn context(&self) -> usize {
        self.context
    }

    /// Whether a filter is on.
    pub fn active(&self) -> bool {
        self.mode != FilterMode::Off
    }

    /// Changes the mode; the rows are rebuilt by the next refresh.
    pub fn set_mode(&mut self, mode: FilterMode) {
        if mode != self.mode {
            self.mode = mode;
            self.built_for = None;
        }
    }

    /// Changes the context; the rows are rebuilt by the next refresh.
    pub fn set_context(&mut self, context: usize) {
        if context != self.context {
            self.context = context;
            self.built_for = None;
        }
    }

    /// The input lines to show, ascending (0-based; the line numbers drawn are these + 1).
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// Lines with at least one match, among those classified so far.
    pub fn matching_lines(&self) -> usize {
        self.matching_lines
    }

    /// Whether every line of the input has been classified (the full scan is done and kept
    /// every span).
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// The lines decided so far: every line before it is in [`LineFilter::rows`] or left
    /// out for good (`usize::MAX` once the whole input is).
    pub fn decided(&self) -> usize {
        if self.complete || self.mode == FilterMode::Off {
            usize::MAX
        } else {
            self.next_line
        }
    }

    /// Whether the scan counted more matches than it kept spans for, so the lines after the
    /// last kept span are left out whatever they hold.
    pub fn capped(&self) -> bool {
        self.capped
    }

    /// Brings the rows up to date with the scan results: extends them with the spans that
    /// arrived since the last call, or rebuilds them for a new scan or a changed input.
    pub fn refresh(&mut self, input: &TextBuffer, results: &Results) {
        if self.mode == FilterMode::Off {
            if self.built_for.is_some() || !self.rows.is_empty() {
                *self = LineFilter::new(self.mode, self.context);
            }
            return;
        }
        let key = (results.generation, input.revision());
        if self.built_for != Some(key) || results.spans.len() < self.spans_seen {
            *self = LineFilter::new(self.mode, self.context);
            self.built_for = Some(key);
        }
        let lines = real_lines(input);
        for (i, &(s, e)) in results.spans.iter().enumerate().skip(self.spans_seen) {
            // The scan counted the lines; a lookup only when it did not (results made by
            // hand) or past four billion lines.
            let (first, last) = match results.span_lines.get(i) {
                Some(&(f, l)) if l != u32::MAX => (f as usize, l as usize),
                _ => {
                    let first = input.line_of(s);
                    // A match that ends right after a line break does not cover the next line.
                    (first, if e > s { input.line_of(e - 1) } else { first })
                }
            };
            self.mark(first, last.max(first), lines);
        }
        self.spans_seen = results.spans.len();
        if results.done && results.error.is_none() {
            self.capped = results.count > results.spans.len();
            if !self.capped && !self.complete {
                // Every line after the last match is decided now.
                self.close(lines);
                self.complete = true;
            }
        }
    }

    /// Marks lines `first..=last` as matching and appends the rows that are decided by it.
    fn mark(&mut self, first: usize, last: usize, lines: usize) {
        let first = match self.last_match_line {
            Some(l) if l >= first => l + 1,
            _ => first,
        };
        if first > last {
            return;
        }
        self.matching_lines += last + 1 - first;
        self.last_match_line = Some(last);
        match self.mode {
            FilterMode::Off => {}
            FilterMode::Matching => {
                let from = first.saturating_sub(self.context).max(self.next_line);
                let to = (last + self.context).min(lines.saturating_sub(1));
                self.rows.extend(from as u32..=to as u32);
                self.next_line = self.next_line.max(to + 1);
            }
            FilterMode::NonMatching => {
                self.rows.extend(self.next_line as u32..first as u32);
                self.next_line = last + 1;
            }
        }
    }

    /// Appends the rows after the last match, once the scan has classified every line.
    fn close(&mut self, lines: usize) {
        if self.mode == FilterMode::NonMatching {
            self.rows.extend(self.next_line as u32..lines as u32);
            self.next_line = lines;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(spans: &[(usize, usize)]) -> Results {
        Results {
            generation: 1,
            spans: spans.to_vec(),
            count: spans.len(),
            done: true,
            ..Default::default()
        }
    }

    fn rows(text: &str, spans: &[(usize, usize)], mode: FilterMode, context: usize) -> Vec<usize> {
        let input = TextBuffer::new(text.to_string());
        let mut f = LineFilter::new(mode, context);
        f.refresh(&input, &results(spans));
        assert!(f.complete());
        f.rows().iter().map(|&r| r as usize).collect()
    }

    #[test]
    fn context_lines_merge_and_stop_at_the_ends() {
        let text: String = (0..10).map(|i| format!("l{i}\n")).collect();
        // Matches on lines 1 and 4 (bytes 3.. and 12..), context 1: 0..=2 and 3..=5 merge.
        let spans = [(3, 5), (12, 14)];
        assert_eq!(rows(&text, &spans, FilterMode::Matching, 0), vec![1, 4]);
        assert_eq!(
            rows(&text, &spans, FilterMode::Matching, 1),
            vec![0, 1, 2, 3, 4, 5]
        );
        // The last line's context does not run past the end.
        assert_eq!(
            rows(&text, &[(27, 29)], FilterMode::Matching, 3),
            (6..10).collect::<Vec<_>>()
        );
    }

    #[test]
    fn invert_shows_the_lines_without_a_match() {
        let text = "a1\nb\nc22\nd\n";
        let spans = [(1, 2), (7, 9)];
        assert_eq!(rows(text, &spans, FilterMode::NonMatching, 2), vec![1, 3]);
        assert_eq!(
            rows(text, &[], FilterMode::NonMatching, 0),
            vec![0, 1, 2, 3]
        );
        assert_eq!(
            rows(text, &[], FilterMode::Matching, 0),
            Vec::<usize>::new()
        );
    }

    #[test]
    fn a_match_over_a_line_break_marks_both_lines_and_two_matches_on_a_line_count_once() {
        let text = "ab\ncd\nef";
        let input = TextBuffer::new(text.to_string());
        let mut f = LineFilter::new(FilterMode::Matching, 0);
        f.refresh(&input, &results(&[(0, 1), (1, 5)]));
        assert_eq!(f.rows(), &[0, 1]);
        assert_eq!(f.matching_lines(), 2);
        // A match that ends with the line break does not reach the next line.
        assert_eq!(rows(text, &[(0, 3)], FilterMode::Matching, 0), vec![0]);
    }

    #[test]
    fn rows_grow_with_the_scan_and_rebuild_for_a_new_one() {
        let text = "x\ny\nx\ny\nx\n";
        let input = TextBuffer::new(text.to_string());
        let mut f = LineFilter::new(FilterMode::NonMatching, 0);
        let mut r = Results {
            generation: 1,
            spans: vec![(0, 1)],
            count: 1,
            ..Default::default()
        };
        f.refresh(&input, &r);
        assert_eq!(f.rows(), &[] as &[u32]);
        assert!(!f.complete());
        r.spans.push((4, 5));
        r.count = 2;
        f.refresh(&input, &r);
        assert_eq!(f.rows(), &[1]);
        r.spans.push((8, 9));
        r.count = 3;
        r.done = true;
        f.refresh(&input, &r);
        assert_eq!(f.rows(), &[1, 3]);
        assert!(f.complete());
        // A new scan (another pattern) starts over.
        let r2 = Results {
            generation: 2,
            spans: vec![(2, 3)],
            count: 1,
            done: true,
            ..Default::default()
        };
        f.refresh(&input, &r2);
        assert_eq!(f.rows(), &[0, 2, 3, 4]);
    }

    #[test]
    fn past_the_span_cap_the_filter_stops_at_the_last_kept_span() {
        let text = "x\ny\nx\ny\nx\n";
        let input = TextBuffer::new(text.to_string());
        let mut f = LineFilter::new(FilterMode::NonMatching, 0);
        // The scan counted 3 matches but kept only 2 spans.
        let r = Results {
            generation: 1,
            spans: vec![(0, 1), (4, 5)],
            count: 3,
            done: true,
            ..Default::default()
        };
        f.refresh(&input, &r);
        assert!(f.capped());
        assert!(!f.complete());
        assert_eq!(f.rows(), &[1], "line 3 and 4 are not classified");
    }
}
