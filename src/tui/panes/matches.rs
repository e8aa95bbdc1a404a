//! The match list: index, line:column, text. Only the rows on screen are formatted.

use super::super::app::{App, Focus};
use super::super::theme::{Chrome, chrome, style};
use super::clip;
use crate::highlight::Kind;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the match list.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let r = &app.wb.results;
    let input = &app.wb.input;
    let n = r.spans.len();
    let idx_w = n.max(1).to_string().len().max(3);
    let mut lines = vec![Line::from(Span::styled(
        format!("{:>idx_w$}  {:<10} text", "#", "line:col"),
        chrome(Chrome::Dim, p),
    ))];
    let rows = (area.height as usize).saturating_sub(1);
    for i in app.matches_top..(app.matches_top + rows).min(n) {
        let (s, e) = r.spans[i];
        let (line, col) = input.position_of(s);
        let loc = format!("{}:{}", line + 1, col + 1);
        let prefix = format!("{:>idx_w$}  {:<10} ", i + 1, loc);
        let room = (area.width as usize).saturating_sub(prefix.chars().count());
        // Spans can be a scan behind the text (an edit just shortened it): clamp both ends.
        let len = input.text().len();
        let mut s = s.min(len);
        while !input.text().is_char_boundary(s) {
            s -= 1;
        }
        let end = e.min(s + 4 * room.max(1) + 4);
        let mut end = end.min(len).max(s);
        while !input.text().is_char_boundary(end) {
            end -= 1;
        }
        let text = clip(&input.text()[s..end], room);
        let text = if s == e { "(empty)".to_string() } else { text };
        let mut line = Line::from(vec![
            Span::styled(prefix, style(Kind::Location, p)),
            Span::styled(text, style(Kind::Match, p)),
        ]);
        if i == app.selected {
            line = line.style(chrome(Chrome::Selected, p));
            if app.focus == Focus::Results {
                line.spans[0].content = format!("▶{}", &line.spans[0].content[1..]).into();
            }
        }
        lines.push(line);
    }
    if n == 0 {
        let msg = if app.wb.stale() {
            "the pattern is invalid; fix it to see matches"
        } else if r.done {
            "no matches"
        } else {
            "counting…"
        };
        lines.push(Line::from(Span::styled(msg, chrome(Chrome::Dim, p))));
    } else if r.count > n && app.matches_top + rows >= n {
        lines.push(Line::from(Span::styled(
            format!("… {} more not listed", r.count - n),
            chrome(Chrome::Dim, p),
        )));
    }
    f.render_widget(Paragraph::new(lines), area);
}
