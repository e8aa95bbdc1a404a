//! What the panes and tabs share for drawing a merged input: the source gutter (each line's
//! log and its own line number) and the logs' short tags. It sits below the tabs and the
//! app: it imports neither, so a tab that draws the gutter never reaches into the app.

/// The source tags of a merged input's lines, drawn in the gutter: each line shows its log's
/// short tag and its line number in that log. Valid for the text it was made for: once the
/// input is edited or reloaded (another revision) the gutter shows plain line numbers again.
#[derive(Debug, Clone)]
pub struct SourceGutter {
    /// The input revision the runs describe.
    pub revision: u64,
    /// The tag of each log (its file name without directory and compression extension).
    pub tags: Vec<String>,
    /// Runs of consecutive lines of one log: first merged line (from 0), log, its own line
    /// (from 1).
    pub runs: Vec<(usize, usize, u64)>,
    /// Columns of the widest tag.
    pub tag_width: usize,
    /// For a merged input read in pages: the text, which knows each line's source (`runs`
    /// is then empty, and the gutter holds whatever the revision).
    pub paged: Option<crate::input::paged::PagedText>,
}

impl SourceGutter {
    /// The gutter for a merged input: `names` of the logs and the chunk's runs.
    pub fn new(
        revision: u64,
        names: &[String],
        runs: &[crate::input::chunks::Run],
    ) -> SourceGutter {
        let tags: Vec<String> = names.iter().map(|n| short_tag(n)).collect();
        let tag_width = tags.iter().map(|t| t.chars().count()).max().unwrap_or(0);
        SourceGutter {
            revision,
            tags,
            runs: runs
                .iter()
                .map(|r| (r.merged_line as usize - 1, r.source, r.line))
                .collect(),
            tag_width,
            paged: None,
        }
    }

    /// The source of each merged line of `lines` (`None` where it is not known).
    pub fn sources_of(&self, lines: std::ops::Range<usize>) -> Vec<Option<usize>> {
        if let Some(p) = &self.paged {
            return p.line_sources(lines);
        }
        let mut k = self.runs.partition_point(|r| r.0 <= lines.start);
        lines
            .map(|i| {
                while k < self.runs.len() && self.runs[k].0 <= i {
                    k += 1;
                }
                k.checked_sub(1).map(|k| self.runs[k].1)
            })
            .collect()
    }

    /// The log (an index into the names) and own line number of merged line `i` (from 0).
    pub fn source_place(&self, i: usize) -> Option<(usize, u64)> {
        if let Some(p) = &self.paged {
            return p.source_of_line(i);
        }
        let k = self.runs.partition_point(|r| r.0 <= i).checked_sub(1)?;
        let (first, source, line) = self.runs[k];
        Some((source, line + (i - first) as u64))
    }

    /// The tag and own line number of merged line `i` (from 0).
    pub fn place(&self, i: usize) -> Option<(&str, u64)> {
        if let Some(p) = &self.paged {
            let (source, line) = p.source_of_line(i)?;
            return Some((self.tags.get(source)?.as_str(), line));
        }
        let k = self.runs.partition_point(|r| r.0 <= i).checked_sub(1)?;
        let (first, source, line) = self.runs[k];
        Some((self.tags.get(source)?.as_str(), line + (i - first) as u64))
    }
}

/// A log's short tag: its file name without the directory and the compression and `.log`
/// extensions, at most 12 characters (`logs/agent-3.log.gz` → `agent-3`).
pub fn short_tag(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let mut tag = base;
    for ext in [".gz", ".zst", ".bz2", ".xz", ".log"] {
        tag = tag.strip_suffix(ext).unwrap_or(tag);
    }
    let tag = if tag.is_empty() { base } else { tag };
    tag.chars().take(12).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::chunks::Run;

    #[test]
    fn merged_lines_show_their_logs_tag_and_own_line() {
        let run = |offset, source, line, merged_line| Run {
            offset,
            source,
            line,
            merged_line,
            source_offset: 0,
        };
        let names = ["logs/agent-3.log.gz".to_string(), "b.log".to_string()];
        let g = SourceGutter::new(
            7,
            &names,
            &[run(0, 0, 1, 1), run(40, 1, 1, 3), run(80, 0, 3, 4)],
        );
        assert_eq!(g.tag_width, 7);
        assert_eq!(g.place(0), Some(("agent-3", 1)));
        assert_eq!(g.place(1), Some(("agent-3", 2)));
        assert_eq!(g.place(2), Some(("b", 1)));
        assert_eq!(g.place(3), Some(("agent-3", 3)));
        assert_eq!(g.place(5), Some(("agent-3", 5)));
        assert_eq!(short_tag("x/.gz"), ".gz");
        assert_eq!(short_tag("a-very-long-name.log"), "a-very-long-");
    }
}
