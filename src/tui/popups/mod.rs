//! Popups: components on a stack drawn over the panes. The top popup sees every action first
//! (the app keeps only quitting and resizing for itself) and answers whether it stays open;
//! each popup owns its state, its keys and its drawing, and reaches the rest of the app only
//! through [`PopupCx`] (the workbench, the status message, the event loop's effects).
//! Popups sit below the app: they know actions, the keymap, the theme and the workbench,
//! never `App`.

pub mod export;
pub mod filters;
pub mod help;
pub mod history;
pub mod path;
pub mod prompt;
pub mod save;

use super::action::{Action, Context, Edit, Effect, apply_line};
use super::tabs::TabId;
use super::theme::{Chrome, Palette, chrome};
use crate::workbench::{LineEditor, Workbench};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use std::any::Any;

/// Whether a popup stays open after an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It stays on the stack.
    Stay,
    /// It is taken off the stack.
    Close,
}

/// What a popup may change while it handles an action.
pub struct PopupCx<'a> {
    /// The workbench.
    pub wb: &'a mut Workbench,
    /// The status bar's message.
    pub message: &'a mut Option<String>,
    /// Side effects for the event loop (clipboard, saving a preset).
    pub effects: &'a mut Vec<Effect>,
    /// An action the app carries out once the popup has handled this one (a prompt's
    /// answer for the tab that asked).
    pub then: &'a mut Option<Action>,
}

/// What a popup draws from.
pub struct PopupDrawCx {
    /// Colour or not.
    pub palette: Palette,
    /// The tab shown.
    pub shown: TabId,
    /// Every tab's identity and title, in display order.
    pub tabs: Vec<(TabId, &'static str)>,
    /// The pattern's flavor (the help shows its syntax).
    pub flavor: crate::Flavor,
}

/// A popup on the stack.
pub trait Popup: Any {
    /// Handles an action (the top popup gets every action but Quit and Resize).
    fn update(&mut self, action: &Action, cx: &mut PopupCx) -> Outcome;

    /// Draws the popup over `area` (the whole screen).
    fn draw(&self, f: &mut Frame, area: Rect, cx: &PopupDrawCx);

    /// The key context while the popup is on top; `None` keeps the focused pane's (the help
    /// overlay reads keys as the pane beneath would).
    fn context(&self) -> Option<Context> {
        Some(Context::Editor)
    }

    /// Whether the panes beneath are covered: they draw without their focus mark.
    fn covers(&self) -> bool {
        false
    }
}

/// A centred rectangle of at most `width` x `height` inside `area`.
pub fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// What a prompt with one text field does with an action: Enter (or a click's Activate) hands
/// the text typed, trimmed, to `enter`, which says whether the prompt closes; an edit changes
/// the field; anything else leaves the prompt as it is.
pub fn field_keys(
    action: &Action,
    text: &mut LineEditor,
    enter: impl FnOnce(&str) -> Outcome,
) -> Outcome {
    match action {
        Action::Edit(Edit::Newline) | Action::Activate => enter(text.text().trim()),
        Action::Edit(e) => {
            apply_line(text, e);
            Outcome::Stay
        }
        _ => Outcome::Stay,
    }
}

/// Draws a popup's box at `r`: what lies beneath cleared, a border in the focused colour
/// titled `title`, and `body` inside.
pub fn draw_box(f: &mut Frame, r: Rect, title: &str, body: Paragraph, p: Palette) {
    let block = Block::bordered()
        .title(title)
        .border_style(chrome(Chrome::Focused, p));
    f.render_widget(Clear, r);
    f.render_widget(body.block(block), r);
}

/// A popup's text field as a line: `label` dimmed, then the text typed.
pub fn field(label: &str, text: &LineEditor, p: Palette) -> Line<'static> {
    Line::from(vec![
        Span::styled(label.to_string(), chrome(Chrome::Dim, p)),
        Span::raw(text.text().to_string()),
    ])
}

/// Puts the terminal's cursor in a popup's text [`field`] drawn on `row` of the box at `r`
/// (0: the first row inside the border), when it falls inside the box.
pub fn field_cursor(f: &mut Frame, r: Rect, row: u16, label: &str, text: &LineEditor) {
    let x = r.x + 1 + label.chars().count() as u16 + text.cursor_chars() as u16;
    if x + 1 < r.x + r.width && r.height > row + 2 {
        f.set_cursor_position((x, r.y + 1 + row));
    }
}
