//! One match as the command line prints it (`[LOG:]LINE:COLUMN: match  name="group" …`) and
//! the line index that places it: what `rxw find`, `find --follow` and `rxw preset` share.

use super::style::{self, Layout};
use crate::Match;
use crate::Regex;
use crate::highlight::Kind;
use std::io::Write;

/// Line and column (1-based, column in characters) of byte offsets visited in order.
pub struct LineIndex<'t> {
    text: &'t str,
    pos: usize,
    line: usize,
    line_start: usize,
}

impl<'t> LineIndex<'t> {
    /// Starts at the beginning of `text`.
    pub fn new(text: &'t str) -> Self {
        LineIndex {
            text,
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// The line and column of `offset`; offsets must not decrease between calls.
    pub fn locate(&mut self, offset: usize) -> (usize, usize) {
        if offset < self.pos {
            *self = LineIndex::new(self.text);
        }
        let chunk = &self.text.as_bytes()[self.pos..offset];
        for nl in memchr::memchr_iter(b'\n', chunk) {
            self.line += 1;
            self.line_start = self.pos + nl + 1;
        }
        self.pos = offset;
        (
            self.line,
            self.text[self.line_start..offset].chars().count() + 1,
        )
    }
}

/// One match as `rxw find` prints it: where, the match, then each group.
pub(super) struct MatchLine<'a> {
    pub(super) re: &'a Regex,
    pub(super) text: &'a str,
    pub(super) m: &'a Match,
    /// The log's name, when several are read.
    pub(super) source: Option<&'a str>,
    pub(super) place: crate::input::chunks::Place,
    pub(super) color: bool,
}

/// Writes `line` as `[LOG:]LINE:COLUMN: match  name="group" …`, every text inert; a match
/// that cuts a surrogate pair (JavaScript without `u`) says which characters it cuts, at
/// which bytes of its source, its lone surrogates shown as U+FFFD.
pub(super) fn write_match_line(out: &mut dyn Write, line: MatchLine<'_>) -> std::io::Result<()> {
    let MatchLine {
        re,
        text,
        m,
        source,
        place,
        color,
    } = line;
    let at = match source {
        Some(name) => {
            let name = style::inert(name, Layout::OneLine);
            format!("{name}:{}:{}:", place.line, place.column)
        }
        None => format!("{}:{}:", place.line, place.column),
    };
    let loc = style::paint(&at, Kind::Location, color);
    let whole = m.text(text, 0).unwrap_or_default();
    let shown = style::inert(&whole, Layout::OneLine);
    write!(out, "{loc} {}", style::paint(&shown, Kind::Match, color))?;
    for k in 1..m.groups.len() {
        let label = re.group_names()[k - 1]
            .clone()
            .unwrap_or_else(|| k.to_string());
        let value = m
            .text(text, k)
            .map_or_else(|| "∅".to_string(), |t| style::quoted(&t));
        write!(
            out,
            "  {}={}",
            style::paint(&label, Kind::Name, color),
            style::paint(&value, Kind::Group(k - 1), color)
        )?;
    }
    if let Some(cut) = &m.pair_cut {
        let chars: Vec<String> = cut
            .cuts
            .iter()
            .map(|c| {
                // Counted in the source as `place` is, from the match's first byte.
                let from = (place.source_offset as usize + c.bytes.0).saturating_sub(m.start());
                let to = from + (c.bytes.1 - c.bytes.0);
                format!("U+{:04X} at bytes {from}..{to}", c.ch as u32)
            })
            .collect();
        let note = format!(
            "  (cuts {} between its UTF-16 halves; a lone half is shown as U+FFFD)",
            chars.join(", ")
        );
        write!(out, "{}", style::paint(&note, Kind::Location, color))?;
    }
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_counts_lines_and_chars() {
        let mut li = LineIndex::new("ab\nçd\nx");
        assert_eq!(li.locate(0), (1, 1));
        assert_eq!(li.locate(5), (2, 2));
        assert_eq!(li.locate(7), (3, 1));
    }
}
