//! The source filter of a merged input: only one log's lines, or every log's but one.
//!
//! Ctrl-O steps through "only the first log", "only the second", …, then all again; Ctrl-T
//! through "hide the first log", …, then none hidden. The rows are the merged input's line
//! numbers, built from each line's source ([`crate::input::paged::PagedText::line_sources`]
//! for a paged input, the gutter's runs otherwise) a bounded number of lines per call, so a
//! merged set of millions of lines never stalls a frame; they extend as the input grows.

use std::ops::Range;

/// Which lines the source filter shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SourceMode {
    /// Every log's lines.
    #[default]
    Off,
    /// Only this log's lines.
    Only(usize),
    /// Every log's lines but this one's.
    Hide(usize),
}

/// Lines classified per [`SourceFilter::refresh`] call at most.
pub const LINES_PER_REFRESH: usize = 1 << 21;

/// The rows of the source filter, extended as lines are classified.
#[derive(Debug, Clone, Default)]
pub struct SourceFilter {
    mode: SourceMode,
    /// The merged lines shown, ascending.
    rows: Vec<u32>,
    /// The first line not classified yet.
    next_line: usize,
    /// Lines in the input when last refreshed.
    lines: usize,
}

impl SourceFilter {
    /// The mode.
    pub fn mode(&self) -> SourceMode {
        self.mode
    }

    /// Whether it hides any line.
    pub fn active(&self) -> bool {
        self.mode != SourceMode::Off
    }

    /// The rows shown (merged line numbers from 0), as far as classified.
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// Whether every line of the input was classified.
    pub fn complete(&self) -> bool {
        self.next_line >= self.lines
    }

    /// Sets the mode; the rows are built again from the first line.
    pub fn set_mode(&mut self, mode: SourceMode) {
        *self = SourceFilter {
            mode,
            ..SourceFilter::default()
        };
    }

    /// Steps to showing only the next log of `sources` (after the last, all again).
    pub fn cycle_only(&mut self, sources: usize) {
        let next = match self.mode {
            SourceMode::Only(k) if k + 1 < sources => SourceMode::Only(k + 1),
            SourceMode::Only(_) => SourceMode::Off,
            _ if sources > 0 => SourceMode::Only(0),
            _ => SourceMode::Off,
        };
        self.set_mode(next);
    }

    /// Steps to hiding the next log of `sources` (after the last, none hidden).
    pub fn cycle_hide(&mut self, sources: usize) {
        let next = match self.mode {
            SourceMode::Hide(k) if k + 1 < sources => SourceMode::Hide(k + 1),
            SourceMode::Hide(_) => SourceMode::Off,
            _ if sources > 0 => SourceMode::Hide(0),
            _ => SourceMode::Off,
        };
        self.set_mode(next);
    }

    /// Classifies up to [`LINES_PER_REFRESH`] more of the input's `lines` lines, asking
    /// `sources` for the source of each line of a range (`None`: not known, shown); returns
    /// whether rows were added.
    pub fn refresh(
        &mut self,
        lines: usize,
        mut sources: impl FnMut(Range<usize>) -> Vec<Option<usize>>,
    ) -> bool {
        self.lines = lines;
        if !self.active() || self.next_line >= lines {
            return false;
        }
        let end = lines.min(self.next_line + LINES_PER_REFRESH);
        let before = self.rows.len();
        let range = self.next_line..end;
        for (line, source) in range.clone().zip(sources(range)) {
            let shown = match (self.mode, source) {
                (_, None) | (SourceMode::Off, _) => true,
                (SourceMode::Only(k), Some(s)) => s == k,
                (SourceMode::Hide(k), Some(s)) => s != k,
            };
            if shown {
                self.rows.push(u32::try_from(line).unwrap_or(u32::MAX));
            }
        }
        self.next_line = end;
        self.rows.len() != before
    }

    /// What the input title says: `only agent-3`, `hiding agent-3`.
    pub fn label(&self, tags: &[String]) -> Option<String> {
        let tag = |k: usize| {
            tags.get(k)
                .cloned()
                .unwrap_or_else(|| format!("log {}", k + 1))
        };
        match self.mode {
            SourceMode::Off => None,
            SourceMode::Only(k) => Some(format!("only {}", tag(k))),
            SourceMode::Hide(k) => Some(format!("hiding {}", tag(k))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines 0..10 from logs 0, 1, 2 in turn.
    fn sources(r: Range<usize>) -> Vec<Option<usize>> {
        r.map(|l| Some(l % 3)).collect()
    }

    #[test]
    fn only_and_hide_cycle_through_the_logs_then_off() {
        let mut f = SourceFilter::default();
        let mut seen = Vec::new();
        for _ in 0..4 {
            f.cycle_only(3);
            seen.push(f.mode());
        }
        assert_eq!(
            seen,
            [
                SourceMode::Only(0),
                SourceMode::Only(1),
                SourceMode::Only(2),
                SourceMode::Off
            ]
        );
        f.cycle_only(3);
        f.cycle_hide(3);
        assert_eq!(
            f.mode(),
            SourceMode::Hide(0),
            "hide starts at the first log"
        );
        f.cycle_hide(3);
        f.cycle_hide(3);
        f.cycle_hide(3);
        assert_eq!(f.mode(), SourceMode::Off);
        f.cycle_only(0);
        assert!(!f.active(), "no logs, nothing to filter");
    }

    #[test]
    fn rows_keep_one_log_or_drop_one_and_extend_as_the_input_grows() {
        let mut f = SourceFilter::default();
        f.set_mode(SourceMode::Only(1));
        assert!(f.refresh(7, sources));
        assert_eq!(f.rows(), &[1, 4]);
        assert!(f.complete());
        // Grown to 10 lines: only the new lines are classified.
        assert!(f.refresh(10, |r| {
            assert_eq!(r, 7..10);
            sources(r)
        }));
        assert_eq!(f.rows(), &[1, 4, 7]);
        f.set_mode(SourceMode::Hide(0));
        f.refresh(10, sources);
        assert_eq!(f.rows(), &[1, 2, 4, 5, 7, 8]);
        // A line whose source is not known yet is shown.
        f.set_mode(SourceMode::Only(2));
        f.refresh(4, |r| r.map(|l| (l != 0).then_some(l % 3)).collect());
        assert_eq!(f.rows(), &[0, 2]);
        assert_eq!(
            f.label(&["a".into(), "b".into(), "c".into()]).as_deref(),
            Some("only c")
        );
    }

    #[test]
    fn a_long_input_is_classified_a_bounded_number_of_lines_at_a_time() {
        let mut f = SourceFilter::default();
        f.set_mode(SourceMode::Hide(2));
        let lines = LINES_PER_REFRESH * 2 + 5;
        f.refresh(lines, sources);
        assert!(!f.complete());
        f.refresh(lines, sources);
        f.refresh(lines, sources);
        assert!(f.complete());
        assert_eq!(f.rows().len(), lines - lines / 3);
    }
}
