//! The first frame does not pay for syntect's grammars: they load when the Code tab is shown.
//! (Its own test binary, so no other test has loaded them in this process.)
#![cfg(feature = "app")]

use rxw::codegen::highlight;
use rxw::tui::action::Action;
use rxw::tui::screens;
use rxw::tui::tabs::code;

#[test]
fn grammars_load_with_the_code_tab_not_with_the_first_frame() {
    let mut app = screens::demo(120, 34);
    screens::render_buffer(&app);
    assert!(
        !highlight::is_loaded(),
        "the first frame loaded the grammars"
    );
    app.update(Action::ShowTab(code::ID));
    screens::render_buffer(&app);
    assert!(highlight::is_loaded());
}
