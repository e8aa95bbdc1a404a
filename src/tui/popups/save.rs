//! The "save as preset" prompt: the key to save under.

use super::{
    Outcome, Popup, PopupCx, PopupDrawCx, centred, draw_box, field, field_cursor, field_keys,
};
use crate::tui::action::{Action, Effect};
use crate::tui::theme::{Chrome, chrome};
use crate::workbench::LineEditor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The prompt: the key being typed, and what fails in the Tests tab (said before saving).
#[derive(Debug, Clone)]
pub struct SavePrompt {
    /// The key.
    pub key: LineEditor,
    /// The Tests tab's failing lines, in a sentence; saving leaves them out of the examples.
    pub failing: Option<String>,
}

impl SavePrompt {
    /// A prompt offering `key`; `failing` says which test lines fail (see
    /// [`crate::tui::presets::failing_tests`]).
    pub fn new(key: &str, failing: Option<String>) -> SavePrompt {
        SavePrompt {
            key: LineEditor::new(key),
            failing,
        }
    }
}

impl Popup for SavePrompt {
    fn update(&mut self, action: &Action, cx: &mut PopupCx) -> Outcome {
        match action {
            Action::Back => Outcome::Close,
            _ => field_keys(action, &mut self.key, |key| {
                let valid = !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                if !valid {
                    *cx.message = Some("a preset key uses letters, digits, _ and -".into());
                    return Outcome::Stay;
                }
                cx.effects.push(Effect::SavePreset {
                    key: key.to_string(),
                    leave_out_failing: self.failing.is_some(),
                });
                Outcome::Close
            }),
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx) {
        let p = cx.palette;
        let width = area.width.saturating_sub(4).min(72);
        let mut lines = vec![field("key: ", &self.key, p)];
        match &self.failing {
            Some(failing) => {
                lines.push(Line::from(Span::styled(
                    format!(
                        "{failing}: they would fail the preset's own check, so Enter saves it \
                         with only the passing lines as examples"
                    ),
                    chrome(Chrome::Error, p),
                )));
                lines.push(Line::from(Span::styled(
                    "Enter saves without them · Esc cancels (fix the pattern or the tests first)",
                    chrome(Chrome::Dim, p),
                )));
            }
            None => lines.push(Line::from(Span::styled(
                "Enter saves · Esc cancels",
                chrome(Chrome::Dim, p),
            ))),
        }
        // Rows once wrapped inside the border (a row more for a wrapped line: words wrap
        // whole, so a row can end short).
        let inner = usize::from(width.saturating_sub(2).max(1));
        let rows: usize = lines
            .iter()
            .map(|l| match l.width() {
                w if w <= inner => 1,
                w => w.div_ceil(inner) + 1,
            })
            .sum();
        let height = u16::try_from(rows + 2).unwrap_or(u16::MAX);
        let r = centred(area, width, height);
        let body = Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false });
        draw_box(f, r, " Save as preset in the user registry ", body, p);
        field_cursor(f, r, 0, "key: ", &self.key);
    }
}
