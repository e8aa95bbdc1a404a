//! The Groups tab: the current match's groups (number, name, span and text, each in its
//! group colour), then the groups of every match on screen, one row per match.

use super::{DrawCx, Handled, Tab, TabCx, TabId};
use crate::highlight::Kind;
use crate::tui::action::Action;
use crate::tui::text::clip;
use crate::tui::theme::{Chrome, chrome, style};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The tab's identity.
pub const ID: TabId = TabId("groups");

/// The groups view: it shows the current match; it keeps the current match's spans in the
/// flavor's units, counted once per match.
#[derive(Debug, Default)]
pub struct GroupsTab {
    /// (input revision, the match's byte spans, flavor) and those spans in the flavor's units.
    in_units: std::cell::RefCell<Option<(UnitsKey, Spans)>>,
}

/// A match's group spans (`None`: the group did not take part).
type Spans = Vec<Option<(usize, usize)>>;

type UnitsKey = (u64, Spans, crate::Flavor);

/// Most bytes before a match counted to give its spans in code points or UTF-16 units; past
/// it (a paged input, a match deep in a large file) the spans are shown in bytes, said so.
const MAX_COUNTED: usize = 64 << 20;

impl GroupsTab {
    /// The match's spans in the flavor's units and the unit's name; byte spans, named so,
    /// when counting would read too much.
    fn spans(
        &self,
        wb: &crate::workbench::Workbench,
        groups: &[Option<(usize, usize)>],
    ) -> (Spans, &'static str) {
        use crate::flavor::OffsetUnit;
        let unit = wb.flavor.offset_unit();
        let lo = groups
            .iter()
            .flatten()
            .map(|g| g.0.min(g.1))
            .min()
            .unwrap_or(0);
        if unit == OffsetUnit::Bytes || wb.input.is_paged() || lo > MAX_COUNTED {
            return (groups.to_vec(), OffsetUnit::Bytes.name());
        }
        let key: UnitsKey = (wb.input.revision(), groups.to_vec(), wb.flavor);
        if let Some((k, v)) = self.in_units.borrow().as_ref()
            && *k == key
        {
            return (v.clone(), unit.name());
        }
        let base = unit.count(&wb.input.slice(0..lo));
        let at = |x: usize| base + unit.count(&wb.input.slice(lo..x.max(lo)));
        let v: Vec<_> = groups
            .iter()
            .map(|g| g.map(|(s, e)| (at(s), at(e))))
            .collect();
        *self.in_units.borrow_mut() = Some((key, v.clone()));
        (v, unit.name())
    }
}

impl Tab for GroupsTab {
    super::face!("Groups");

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        super::list_keys(action, cx)
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let p = cx.palette;
        let wb = cx.wb;
        let input = &wb.input;
        let w = area.width as usize;
        let mut lines = Vec::new();
        let Some(re) = wb.shown_regex() else {
            f.render_widget(Paragraph::new("no valid pattern yet"), area);
            return;
        };
        let names = re.group_names();
        match wb.match_at(cx.selected) {
            None => lines.push(Line::from(Span::styled(
                "no match selected",
                chrome(Chrome::Dim, p),
            ))),
            Some(m) => {
                let (line, col) = wb.input.position_of(m.start());
                lines.push(Line::from(Span::styled(
                    format!(
                        "match {} of {} · line {}:{}",
                        cx.selected + 1,
                        wb.results.count,
                        cx.line_name(line),
                        col + 1
                    ),
                    chrome(Chrome::Dim, p),
                )));
                let (mut spans, unit) = self.spans(wb, &m.groups);
                // JavaScript without `u`: a match cutting a surrogate pair has its exact
                // UTF-16 spans, counted from the unit of its first byte.
                if let Some(cut) = &m.pair_cut
                    && unit == crate::flavor::OffsetUnit::Utf16.name()
                    && let Some(Some((first, _))) = spans.first().copied()
                {
                    spans = cut
                        .utf16
                        .iter()
                        .map(|g| {
                            g.map(|(s, e)| {
                                (
                                    (first + s).saturating_sub(cut.base),
                                    (first + e).saturating_sub(cut.base),
                                )
                            })
                        })
                        .collect();
                }
                lines.push(Line::from(Span::styled(
                    format!(
                        "{:>3}  {:<12} {:<13} text   (spans in {unit})",
                        "#", "name", "span"
                    ),
                    chrome(Chrome::Dim, p),
                )));
                for (k, shown) in spans.iter().enumerate() {
                    let name = if k == 0 {
                        "(match)".to_string()
                    } else {
                        names.get(k - 1).cloned().flatten().unwrap_or_default()
                    };
                    let kind = if k == 0 {
                        Kind::Match
                    } else {
                        Kind::Group(k - 1)
                    };
                    let (span, value) = match m.groups[k] {
                        // A lone half of a cut surrogate pair is shown as U+FFFD.
                        Some(_) if m.pair_cut.is_some() => (
                            shown.map_or_else(String::new, |(a, b)| format!("{a}..{b}")),
                            clip(
                                &m.pair_cut
                                    .as_ref()
                                    .and_then(|c| c.lossy(k))
                                    .unwrap_or_default(),
                                w.saturating_sub(32),
                            ),
                        ),
                        Some((s, e)) => (
                            shown.map_or_else(String::new, |(a, b)| format!("{a}..{b}")),
                            // A group may end before it starts (python@3.8–3.10): empty text.
                            clip(&input.slice(s..e.max(s)), w.saturating_sub(32)),
                        ),
                        None => ("-".into(), "(did not take part)".into()),
                    };
                    lines.push(Line::from(vec![
                        Span::styled(format!("{k:>3}"), style(kind, p)),
                        Span::raw(format!("  {:<12} {:<13} ", clip(&name, 12), span)),
                        Span::styled(
                            value,
                            if m.groups[k].is_some() {
                                style(kind, p)
                            } else {
                                chrome(Chrome::Dim, p)
                            },
                        ),
                    ]));
                }
                if let Some(cut) = &m.pair_cut {
                    lines.push(Line::from(Span::styled(
                        clip(&cut.note(), w),
                        chrome(Chrome::Dim, p),
                    )));
                }
            }
        }
        // Per match: the groups of the matches on screen, side by side.
        let per = &wb.results.window_matches;
        if !per.is_empty() && !names.is_empty() && (lines.len() + 3) < area.height as usize {
            lines.push(Line::from(""));
            // A merged input's lines are named `log:line`: room for the widest log tag.
            let loc_w = cx.sources.map_or(7, |g| g.tag_width + 8);
            let mut head = vec![Span::styled(
                format!("{:<loc_w$}", "line"),
                chrome(Chrome::Dim, p),
            )];
            let col_w = (w.saturating_sub(loc_w) / names.len()).clamp(4, 24);
            for (i, n) in names.iter().enumerate() {
                let label = n.clone().unwrap_or_else(|| (i + 1).to_string());
                head.push(Span::styled(
                    format!("{:<col_w$}", clip(&label, col_w - 1)),
                    style(Kind::Group(i), p),
                ));
            }
            lines.push(Line::from(head));
            for m in per
                .iter()
                .take((area.height as usize).saturating_sub(lines.len()))
            {
                let (line, _) = wb.input.position_of(m.start());
                let mut row = vec![Span::styled(
                    format!("{:<loc_w$}", cx.line_name(line)),
                    style(Kind::Location, p),
                )];
                for k in 1..m.groups.len() {
                    let v = m.groups[k].map_or("-".to_string(), |(s, e)| {
                        clip(&input.slice(s..e.max(s)), col_w - 1)
                    });
                    row.push(Span::raw(format!("{v:<col_w$}")));
                }
                lines.push(Line::from(row));
            }
        }
        f.render_widget(Paragraph::new(lines), area);
    }
}
