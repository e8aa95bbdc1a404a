//! The export prompt: what to write (Tab cycles) and the file (JSON Lines, or CSV for a
//! `.csv` name), written atomically on a worker.

use super::path::expand_home;
use super::{
    Outcome, Popup, PopupCx, PopupDrawCx, centred, draw_box, field, field_cursor, field_keys,
};
use crate::export::Format;
use crate::tui::action::Action;
use crate::tui::theme::{Chrome, chrome};
use crate::workbench::LineEditor;
use crate::workbench::export::ExportWhat;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::path::Path;

/// The prompt: what to write and the file to write it to.
#[derive(Debug, Clone)]
pub struct ExportPrompt {
    /// What is written.
    pub what: ExportWhat,
    /// The path being typed.
    pub path: LineEditor,
}

impl ExportPrompt {
    /// A prompt offering `what` under its default file name.
    pub fn new(what: ExportWhat) -> ExportPrompt {
        ExportPrompt {
            what,
            path: LineEditor::new(what.default_file()),
        }
    }
}

impl Popup for ExportPrompt {
    /// Tab cycles what is written (and the offered name with it, unless one was typed),
    /// Enter starts the export on a worker.
    fn update(&mut self, action: &Action, cx: &mut PopupCx) -> Outcome {
        match action {
            Action::Back => Outcome::Close,
            Action::FocusNext | Action::FocusPrev => {
                let next = self.what.next();
                if self.path.text() == self.what.default_file() {
                    self.path = LineEditor::new(next.default_file());
                }
                self.what = next;
                Outcome::Stay
            }
            _ => field_keys(action, &mut self.path, |path| {
                if path.is_empty() {
                    *cx.message = Some("type the file to export to".into());
                    return Outcome::Stay;
                }
                let path = expand_home(path);
                let what = self.what;
                let filtered = cx.wb.exports_filtered_rows();
                *cx.message = Some(match cx.wb.start_export(what, path.clone()) {
                    Ok(()) if filtered && what != ExportWhat::Lines => format!(
                        "exporting {} of the whole input to {} (the filters choose lines: Tab to export the lines they show)…",
                        what.noun(),
                        path.display()
                    ),
                    Ok(()) if filtered => format!(
                        "exporting the lines the filters show to {}…",
                        path.display()
                    ),
                    Ok(()) => format!("exporting {} to {}…", what.noun(), path.display()),
                    Err(why) => why,
                });
                Outcome::Close
            }),
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx) {
        let p = cx.palette;
        let r = centred(area, area.width.saturating_sub(4).min(72), 5);
        let format = match Format::from_path(Path::new(self.path.text())) {
            Format::Csv => "CSV",
            Format::JsonLines => "JSON Lines",
        };
        let lines = vec![
            Line::from(vec![
                Span::styled("what: ", chrome(Chrome::Dim, p)),
                Span::styled(self.what.noun(), chrome(Chrome::Selected, p)),
                Span::styled(format!("  ({format})"), chrome(Chrome::Dim, p)),
            ]),
            field("file: ", &self.path, p),
            Line::from(Span::styled(
                "Tab: lines / matches / lens hits · .csv for CSV · Enter writes · Esc cancels",
                chrome(Chrome::Dim, p),
            )),
        ];
        draw_box(f, r, " Export to a file ", Paragraph::new(lines), p);
        field_cursor(f, r, 1, "file: ", &self.path);
    }
}
