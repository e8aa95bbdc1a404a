//! The pattern editor: syntax colours from the parser's spans, the flavor and flags beside
//! it, the error underlined with its message under the pane.

use super::super::app::{App, Focus};
use super::super::layout::{inner, pattern_scroll};
use super::super::text::{cells, pane_block, styled_line};
use super::super::theme::{Chrome, chrome, style};
use crate::highlight::Kind;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Longest pattern drawn with syntax colours.
pub const MAX_COLOURED_PATTERN: usize = 64 << 10;

/// Draws the pattern pane into `area`.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let focused = app.focus == Focus::Pattern && !app.help_open();
    let wb = &app.wb;
    let text = wb.pattern.text();
    let mut right = vec![Span::styled(
        format!(" {} ", app.flavor_label()),
        chrome(Chrome::Focused, p),
    )];
    if area.width >= 80 {
        // The flavor's own flag letters, so the keys that toggle them are in sight.
        let letters: Vec<String> = wb.flavor.flag_letters().chars().map(String::from).collect();
        right.push(Span::styled(
            format!("F2 flavor · Alt-{} flags ", letters.join(" ")),
            chrome(Chrome::Dim, p),
        ));
    }
    let suggested = app.suggestion_shown();
    let title = if app.printing {
        "Pattern · Enter prints it · Ctrl-C prints nothing"
    } else if suggested && area.width >= 100 {
        "Pattern · an example: type to replace it"
    } else if suggested {
        "Pattern · type to replace"
    } else {
        "Pattern"
    };
    let mut block = pane_block(title, focused, p).title_top(Line::from(right).right_aligned());
    // While a long pattern compiles on the worker, the last outcome belongs to older text.
    let error = wb.compiled().err().filter(|_| !wb.compiling());
    if wb.compiling() {
        block = block.title_bottom(Span::styled(" compiling… ", chrome(Chrome::Dim, p)));
    } else if let Some(e) = error {
        block = block.title_bottom(Span::styled(
            format!(" ✗ {} ", e.message),
            chrome(Chrome::Error, p),
        ));
    } else if let Ok(re) = wb.compiled() {
        let n = re.group_count();
        let note = format!(" {} group{} ", n, if n == 1 { "" } else { "s" });
        block = block.title_bottom(Span::styled(note, chrome(Chrome::Dim, p)));
    }
    let body = inner(area);
    // The colours come from the workbench's parse (once per edit); past this size (a paste
    // gone astray) the pattern is drawn plain and not parsed at all, so the screen keeps up.
    let analysis = (text.len() <= MAX_COLOURED_PATTERN).then(|| wb.analysis());
    let tokens = analysis.as_ref().map_or(&[][..], |a| a.tokens());
    let error_span = error.and_then(|e| e.span).filter(|s| s.end <= text.len());
    let explain_span = app.pattern_mark();
    let offset = pattern_scroll(app.areas().pattern, app.wb.pattern.cursor_chars());
    let mut cs = cells(text, offset, body.width as usize, false);
    // A zero-width error at the end (an unclosed group) still needs a visible mark.
    let at_end = error_span.is_some_and(|s| s.start >= text.len());
    if at_end && cs.iter().map(|c| c.width).sum::<usize>() < body.width as usize {
        cs.push(super::super::text::Cell {
            at: text.len(),
            glyph: " ".into(),
            width: 1,
        });
    }
    let line = styled_line(&cs, |at| {
        let mut st = tokens
            .iter()
            .find(|(s, _)| s.start <= at && at < s.end)
            .map_or(Style::new(), |(_, k)| style(*k, p));
        if let Some(s) = error_span
            && ((s.start <= at && at < s.end) || (s.start == s.end && at == s.start))
        {
            st = st.patch(style(Kind::Error, p));
        }
        if let Some(s) = explain_span
            && s.start <= at
            && at < s.end
        {
            st = st.add_modifier(Modifier::REVERSED);
        }
        if suggested {
            // Selected, as a field whose text the next key replaces.
            st = st.add_modifier(Modifier::REVERSED);
        }
        st
    });
    f.render_widget(Paragraph::new(line).block(block), area);
    if focused && body.width > 0 && body.height > 0 {
        let x = body.x + (wb.pattern.cursor_chars() - offset).min(body.width as usize - 1) as u16;
        f.set_cursor_position((x, body.y));
    }
}
