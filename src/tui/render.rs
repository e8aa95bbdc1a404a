//! Draws a whole frame from `&App`.

use super::action::ResultTab;
use super::app::{App, Focus};
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH};
use super::panes;
use super::popups;
use ratatui::Frame;
use ratatui::widgets::{Paragraph, Wrap};

/// Draws the frame.
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
    let focused = app.focus == Focus::Results && !app.help;
    f.render_widget(
        panes::pane_block("Results", focused, app.palette),
        a.results,
    );
    panes::tabs::render(f, app, a.tabs);
    match app.tab {
        ResultTab::Matches => panes::matches::render(f, app, a.body),
        ResultTab::Groups => panes::groups::render(f, app, a.body),
        ResultTab::Explain => panes::explain::render(f, app, a.body),
        ResultTab::Replace => panes::replace::render(f, app, a.body),
        ResultTab::Presets => panes::presets::render(f, app, a.body),
        ResultTab::Tests => panes::tests::render(f, app, a.body),
        ResultTab::Debug => panes::debug::render(f, app, a.body),
        ResultTab::Code => panes::code::render(f, app, a.body),
    }
    panes::status::render(f, app, a.status);
    panes::footer::render(f, app, a.footer);
    popups::save::render(f, app, size);
    if app.help {
        popups::help::render(f, app, size);
    }
}
