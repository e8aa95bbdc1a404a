//! The operator views over the lines the combined filter shows ([`CombinedFilter`]): the
//! Jobs table, the pattern's Timeline and the Lens's counts per key, so that every tab
//! follows the combination (a hidden log's lines, lines outside the time range, below the
//! level, without a match) as the Matches list does.
//!
//! The rows of a combined filter only grow while it is not built again
//! ([`CombinedFilter::build`]): as its classification goes on, and as a followed input grows.
//! The job table and the timeline pass are fed the rows added since the last update, each
//! shown line once, so growth costs the new lines; a new build (another filter, an edited
//! input, a new scan) starts them again. A line is fed with its log and its own line number,
//! so a line without a stamp takes the time of the last stamped line shown of its own log.
//!
//! The timeline matches the pattern on each shown line alone, which is exact for a pattern
//! whose matches cannot depend on other lines
//! ([`super::follow::matches_independent_of_other_lines`]); for any other pattern, and for a
//! preset's timeline, there is no filtered timeline ([`FilteredViews::timeline`] says why).
//! The Lens's counts are of the hits it keeps (all of them below
//! [`super::lens::LENS_HIT_CAP`]) that start on a shown line.

use super::buffer::TextBuffer;
use super::filters::CombinedFilter;
use super::follow::matches_independent_of_other_lines;
use super::lens::Lens;
use crate::engine::Regex;
use crate::error::Error;
use crate::input::chunks::Run;
use crate::operator::job_table::JobTable;
use crate::operator::timeline::{Timeline, TimelinePass, Zoom};
use std::sync::Arc;

/// Why a filtered timeline cannot be drawn.
pub const TIMELINE_NOT_FILTERED: &str = "the filters do not apply to this timeline (a preset's, or a pattern whose matches can cross lines): it counts every line";

/// The views of the lines a [`CombinedFilter`] shows, fed as its rows grow.
#[derive(Debug, Default)]
pub struct FilteredViews {
    /// The build of the filter's rows fed, the pattern and the zoom of the timeline, whether
    /// jobs are wanted.
    key: Option<(u64, Option<usize>, Option<Zoom>, bool)>,
    /// Rows fed so far.
    fed: usize,
    jobs: JobTable,
    jobs_version: u64,
    pass: Option<TimelinePass>,
    timeline: Option<Result<Timeline, Error>>,
    lens_counts: Vec<usize>,
    /// The rows and the Lens's hits the counts were made for.
    lens_for: Option<(u64, usize, usize)>,
}

/// What an update reads.
pub struct FilteredInputs<'a> {
    /// The input.
    pub input: &'a TextBuffer,
    /// The combined filter (its rows as far as classified).
    pub filter: &'a CombinedFilter,
    /// The workbench's pattern when the timeline counts it and is shown (`None`: a preset's
    /// timeline, no pattern compiled, or the Timeline never shown).
    pub pattern: Option<&'a Arc<Regex>>,
    /// Whether the Jobs table is wanted (the Jobs tab was shown).
    pub jobs: bool,
    /// The timeline's zoom.
    pub zoom: Option<Zoom>,
    /// Most buckets of an unzoomed timeline.
    pub max_buckets: usize,
    /// The Lens.
    pub lens: &'a Lens,
    /// The log and own line number (from 1) of each line (from 0) of the input.
    pub place: &'a dyn Fn(usize) -> (usize, u64),
}

impl FilteredViews {
    /// Feeds the rows the filter added since the last update (all of them again after a new
    /// build, a new pattern or zoom) and counts the Lens's hits on the rows. Returns whether
    /// anything changed.
    pub fn update(&mut self, inp: &FilteredInputs) -> bool {
        let pattern = inp
            .pattern
            .filter(|re| matches_independent_of_other_lines(re));
        let key = (
            inp.filter.build(),
            pattern.map(|re| Arc::as_ptr(re) as usize),
            inp.zoom,
            inp.jobs,
        );
        let mut changed = false;
        if self.key != Some(key) {
            *self = FilteredViews {
                key: Some(key),
                pass: pattern.map(|_| match inp.zoom {
                    Some(z) => TimelinePass::zoomed(z),
                    None => TimelinePass::new(),
                }),
                jobs_version: self.jobs_version + 1,
                ..FilteredViews::default()
            };
            changed = true;
        }
        let rows = inp.filter.rows();
        if rows.len() > self.fed {
            for &line in &rows[self.fed..] {
                let line = line as usize;
                let text = inp.input.line(line);
                let (source, number) = (inp.place)(line);
                if inp.jobs {
                    self.jobs.feed_from(text.as_bytes(), source, number);
                }
                if let (Some(pass), Some(re)) = (self.pass.as_mut(), pattern)
                    && self.timeline.as_ref().is_none_or(Result::is_ok)
                {
                    let run = Run {
                        offset: 0,
                        source,
                        line: number,
                        merged_line: line as u64 + 1,
                        source_offset: 0,
                    };
                    if let Err(e) = pass.feed(&text, &text, &[run], re, None) {
                        self.timeline = Some(Err(e));
                    }
                }
            }
            self.fed = rows.len();
            self.jobs_version += 1;
            changed = true;
        }
        if changed && self.timeline.as_ref().is_none_or(Result::is_ok) {
            self.timeline = self
                .pass
                .as_ref()
                .map(|p| Ok(p.clone().finish(inp.max_buckets)));
        }
        let hits: usize = (0..inp.lens.keys().len())
            .map(|k| inp.lens.hits(k).len())
            .sum();
        let lens_key = (inp.filter.build(), rows.len(), hits);
        if self.lens_for != Some(lens_key) {
            self.lens_for = Some(lens_key);
            self.lens_counts = (0..inp.lens.keys().len())
                .map(|k| {
                    inp.lens
                        .hits(k)
                        .iter()
                        .filter(|&&(s, _)| {
                            let line = inp.input.line_of(s) as u32;
                            rows.binary_search(&line).is_ok()
                        })
                        .count()
                })
                .collect();
            changed = true;
        }
        changed
    }

    /// The jobs of the shown lines.
    pub fn jobs(&self) -> &JobTable {
        &self.jobs
    }

    /// A number that changes whenever [`FilteredViews::jobs`] does.
    pub fn jobs_version(&self) -> u64 {
        self.jobs_version
    }

    /// The timeline of the pattern's matches on the shown lines; `None` when there is none
    /// ([`TIMELINE_NOT_FILTERED`]).
    pub fn timeline(&self) -> Option<&Result<Timeline, Error>> {
        self.timeline.as_ref()
    }

    /// Per Lens key, its hits that start on a shown line.
    pub fn lens_counts(&self) -> &[usize] {
        &self.lens_counts
    }
}
