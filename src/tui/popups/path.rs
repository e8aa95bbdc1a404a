//! The path prompt: where a tab's write goes. A tab never writes a file the user did not
//! name: it asks through this prompt, which offers a default, and the answer goes back to the
//! tab as [`Action::Answer`]. Esc writes nothing; a command of the tab that asked (pressed
//! again while the prompt is open) closes it and is carried out, so a key that cycles choices
//! keeps cycling.

use super::{
    Outcome, Popup, PopupCx, PopupDrawCx, centred, draw_box, field, field_cursor, field_keys,
};
use crate::tui::action::{Action, TabCommand};
use crate::tui::theme::{Chrome, chrome};
use crate::workbench::LineEditor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::path::{Path, PathBuf};

/// The prompt: what is asked, the path being typed, and the command its answer is for.
#[derive(Debug, Clone)]
pub struct PathPrompt {
    /// What is asked.
    pub title: String,
    /// The path being typed.
    pub path: LineEditor,
    /// Other keys the prompt names.
    pub hint: String,
    /// The command the answer is for.
    pub answer: TabCommand,
}

impl PathPrompt {
    /// A prompt asking `title`, offering `default`.
    pub fn new(title: String, default: &str, hint: String, answer: TabCommand) -> PathPrompt {
        PathPrompt {
            title,
            path: LineEditor::new(default),
            hint,
            answer,
        }
    }
}

/// `~/…` under the home directory, as a shell would.
pub fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(path),
    }
}

impl Popup for PathPrompt {
    fn update(&mut self, action: &Action, cx: &mut PopupCx) -> Outcome {
        match action {
            Action::Back => {
                *cx.message = Some("nothing written".into());
                Outcome::Close
            }
            Action::Tab(cmd) if cmd.tab == self.answer.tab => {
                *cx.then = Some(action.clone());
                Outcome::Close
            }
            _ => field_keys(action, &mut self.path, |path| {
                if path.is_empty() {
                    *cx.message = Some("type the file to write".into());
                    return Outcome::Stay;
                }
                *cx.then = Some(Action::Answer(self.answer, path.to_string()));
                Outcome::Close
            }),
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx) {
        let p = cx.palette;
        let r = centred(area, area.width.saturating_sub(4).min(76), 5);
        let mut hint = String::from("Enter writes · Esc writes nothing");
        if !self.hint.is_empty() {
            hint = format!("{hint} · {}", self.hint);
        }
        let lines = vec![
            field("file: ", &self.path, p),
            Line::from(Span::styled(hint, chrome(Chrome::Dim, p))),
        ];
        let body = Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false });
        draw_box(f, r, &format!(" {} ", self.title), body, p);
        field_cursor(f, r, 0, "file: ", &self.path);
    }
}
