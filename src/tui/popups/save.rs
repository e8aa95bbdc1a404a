//! The "save as preset" prompt: the key to save under.

use super::{Outcome, Popup, PopupCx, PopupDrawCx, centred};
use crate::tui::action::{Action, Edit, Effect, apply_line};
use crate::tui::theme::{Chrome, chrome};
use crate::workbench::LineEditor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// The prompt: the key being typed.
#[derive(Debug, Clone)]
pub struct SavePrompt {
    /// The key.
    pub key: LineEditor,
}

impl SavePrompt {
    /// A prompt offering `key`.
    pub fn new(key: &str) -> SavePrompt {
        SavePrompt {
            key: LineEditor::new(key),
        }
    }
}

impl Popup for SavePrompt {
    fn update(&mut self, action: &Action, cx: &mut PopupCx) -> Outcome {
        match action {
            Action::Back => return Outcome::Close,
            Action::Edit(Edit::Newline) | Action::Activate => {
                let key = self.key.text().trim().to_string();
                let valid = !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                if !valid {
                    *cx.message = Some("a preset key uses letters, digits, _ and -".into());
                    return Outcome::Stay;
                }
                cx.effects.push(Effect::SavePreset(key));
                return Outcome::Close;
            }
            Action::Edit(e) => {
                apply_line(&mut self.key, e);
            }
            _ => {}
        }
        Outcome::Stay
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx) {
        let p = cx.palette;
        let r = centred(area, area.width.saturating_sub(4).min(64), 4);
        let block = Block::bordered()
            .title(" Save as preset in the user registry ")
            .border_style(chrome(Chrome::Focused, p));
        let lines = vec![
            Line::from(vec![
                Span::styled("key: ", chrome(Chrome::Dim, p)),
                Span::raw(self.key.text().to_string()),
            ]),
            Line::from(Span::styled(
                "Enter saves · Esc cancels",
                chrome(Chrome::Dim, p),
            )),
        ];
        f.render_widget(Clear, r);
        f.render_widget(Paragraph::new(lines).block(block), r);
        let x = r.x + 1 + 5 + self.key.cursor_chars() as u16;
        if x + 1 < r.x + r.width && r.height > 2 {
            f.set_cursor_position((x, r.y + 1));
        }
    }
}
