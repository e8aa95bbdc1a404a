//! The Replace tab: the replacement template's editor and a live preview of the lines on
//! screen, the replaced parts marked.

use super::{DrawCx, Handled, Request, Tab, TabCx, TabId};
use crate::flavor::Flavor;
use crate::highlight::Kind;
use crate::tui::action::Action;
use crate::tui::action::apply_line;
use crate::tui::layout::inner;
use crate::tui::text::{cells, pane_block, styled_line};
use crate::tui::theme::{Chrome, chrome, style};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The tab's identity.
pub const ID: TabId = TabId("replace");

/// The replacement editor (its text is the workbench's `replacement`).
#[derive(Debug, Default)]
pub struct ReplaceTab;

use crate::syntax::rules::Replacement;

fn syntax_hint(f: Flavor) -> &'static str {
    match f.rules().replacement {
        Replacement::Backslash => r"\1 \g<name> \g<0>",
        Replacement::Ecma => "$1 $<name> $& $$",
        Replacement::Dollar => "$1 $name ${name} $$",
        Replacement::GoExpand => "$1 ${1} $name ${name} $$",
        Replacement::Rewrite => r"\0 … \9 \\",
        Replacement::Java => r"$1 ${name} \$",
        Replacement::Ruby => r"\1 \k<name> \0 \\",
        Replacement::Pcre2 => "$1 ${1} $name ${name} $$",
        Replacement::Dotnet => "$1 ${1} ${name} $& $$",
    }
}

impl Tab for ReplaceTab {
    super::face!("Replace", &[], Editor);

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        let Action::Edit(e) = action else {
            return Handled::NotConsumed;
        };
        if apply_line(&mut cx.wb.replacement, e) {
            cx.request(Request::SessionDirty);
        }
        Handled::Consumed
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let p = cx.palette;
        let wb = cx.wb;
        let focused = cx.typing();
        let editor = Rect::new(area.x, area.y, area.width, 3.min(area.height));
        let preview_area = Rect::new(
            area.x,
            area.y + editor.height,
            area.width,
            area.height - editor.height,
        );
        let title = format!("Replacement ({})", syntax_hint(wb.flavor));
        let mut block = pane_block(&title, focused, p);
        let preview = wb.replace_preview();
        let err_span = preview.as_ref().err().and_then(|e| e.span);
        if let Err(e) = &preview {
            block = block.title_bottom(Span::styled(
                format!(" ✗ {} ", e.message),
                chrome(Chrome::Error, p),
            ));
        }
        let body = inner(editor);
        let text = wb.replacement.text();
        let offset =
            (wb.replacement.cursor_chars() + 1).saturating_sub((body.width as usize).max(1));
        let cs = cells(text, offset, body.width as usize, false);
        let line = styled_line(&cs, |at| match err_span {
            Some(s) if s.start <= at && at < s.end => style(Kind::Error, p),
            _ => Style::new(),
        });
        f.render_widget(Paragraph::new(line).block(block), editor);
        if focused && body.width > 0 && body.height > 0 {
            let x = body.x
                + (wb.replacement.cursor_chars() - offset).min(body.width as usize - 1) as u16;
            f.set_cursor_position((x, body.y));
        }
        let mut lines = Vec::new();
        match preview {
            Ok(pv) => {
                lines.push(Line::from(Span::styled(
                    format!(
                        "preview of the lines on screen · {} replaced · F10 copies the whole result",
                        pv.replaced
                    ),
                    chrome(Chrome::Dim, p),
                )));
                let mut at = 0;
                for l in pv.text.split('\n') {
                    if lines.len() >= preview_area.height as usize {
                        break;
                    }
                    let base = at;
                    let cs = cells(l, 0, preview_area.width as usize, cx.show_whitespace);
                    lines.push(styled_line(&cs, |i| {
                        let i = i + base;
                        if pv.changed.iter().any(|r| r.start <= i && i < r.end) {
                            chrome(Chrome::Changed, p)
                        } else {
                            Style::new()
                        }
                    }));
                    at += l.len() + 1;
                }
            }
            Err(_) => lines.push(Line::from(Span::styled(
                "fix the replacement to see the preview",
                chrome(Chrome::Dim, p),
            ))),
        }
        f.render_widget(Paragraph::new(lines), preview_area);
    }
}
