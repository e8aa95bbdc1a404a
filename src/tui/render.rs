//! Draws a whole frame from `&App`.

use super::app::{App, Focus};
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH};
use super::panes;
use super::theme::{self, Depth};
use ratatui::Frame;
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the frame for a terminal of `depth` colours: every colour drawn goes through
/// [`theme::fit`] (the event loop draws this way).
pub fn draw_at(f: &mut Frame, app: &App, depth: Depth) {
    draw(f, app);
    theme::fit_buffer(f.buffer_mut(), depth);
}

/// Draws the frame, its colours as the styles give them (24-bit ones included).
pub fn draw(f: &mut Frame, app: &App) {
    let size = f.area();
    if layout::too_small(size) {
        let msg = format!(
            "terminal too small: {}x{}, rxw needs {MIN_WIDTH}x{MIN_HEIGHT}",
            size.width, size.height
        );
        f.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), size);
        return;
    }
    let a = layout::areas(size);
    panes::pattern::render(f, app, a.pattern);
    panes::input::render(f, app, a.input);
    let focused = app.focus == Focus::Results && !app.help_open();
    f.render_widget(
        super::text::pane_block("Results", focused, app.palette),
        a.results,
    );
    panes::tabs::render(f, app, a.tabs);
    app.shown_tab().draw(f, a.body, &app.draw_cx());
    panes::status::render(f, app, a.status);
    panes::footer::render(f, app, a.footer);
    app.draw_popups(f, size);
}
