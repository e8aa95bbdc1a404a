//! Random key sequences, clicks and terminal sizes never panic the TUI.
#![cfg(feature = "app")]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proptest::prelude::*;
use rxw::tui::action::Action;
use rxw::tui::screens;

#[derive(Debug, Clone)]
enum Input {
    Key(KeyEvent),
    Resize(u16, u16),
    Click(u16, u16),
    Wheel(u16, u16, i32),
}

fn key() -> impl Strategy<Value = KeyEvent> {
    let codes = prop_oneof![
        any::<char>().prop_map(KeyCode::Char),
        prop::sample::select(vec![
            '(', ')', '[', ']', '\\', '*', '+', '?', '|', '{', '}', 'a', '1', 'é', '東', ' '
        ])
        .prop_map(KeyCode::Char),
        prop::sample::select(vec![
            KeyCode::Enter,
            KeyCode::Backspace,
            KeyCode::Delete,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::PageUp,
            KeyCode::PageDown,
            KeyCode::Tab,
            KeyCode::BackTab,
            KeyCode::Esc,
            KeyCode::F(1),
            KeyCode::F(2),
            KeyCode::F(3),
            KeyCode::F(6),
        ]),
    ];
    let mods = prop::sample::select(vec![
        KeyModifiers::NONE,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
        KeyModifiers::SHIFT,
    ]);
    (codes, mods)
        .prop_map(|(c, m)| KeyEvent::new(c, m))
        .prop_filter("Ctrl-C quits", |k| {
            !(k.code == KeyCode::Char('c') && k.modifiers == KeyModifiers::CONTROL)
        })
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        8 => key().prop_map(Input::Key),
        1 => (1u16..220, 1u16..80).prop_map(|(w, h)| Input::Resize(w, h)),
        1 => (0u16..220, 0u16..80).prop_map(|(c, r)| Input::Click(c, r)),
        1 => (0u16..220, 0u16..80, -3i32..4).prop_map(|(c, r, d)| Input::Wheel(c, r, d)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn random_input_never_panics(w in 1u16..200, h in 1u16..70, inputs in prop::collection::vec(input(), 1..60)) {
        let mut app = screens::demo(w, h);
        for (i, inp) in inputs.into_iter().enumerate() {
            match inp {
                Input::Key(k) => app.handle_key(k),
                Input::Resize(w, h) => app.update(Action::Resize(w, h)),
                Input::Click(col, row) => app.update(Action::Click { col, row }),
                Input::Wheel(col, row, delta) => app.update(Action::Wheel { col, row, delta }),
            }
            app.effects.clear();
            app.poll();
            if i % 5 == 0 {
                let _ = screens::render_buffer(&app);
            }
        }
        screens::settle(&mut app);
        let _ = screens::render_buffer(&app);
    }
}

#[test]
fn every_size_down_to_one_by_one_renders() {
    let mut app = screens::demo(80, 24);
    for (w, h) in [
        (1, 1),
        (2, 1),
        (1, 5),
        (39, 11),
        (40, 12),
        (41, 13),
        (60, 14),
        (300, 100),
    ] {
        app.update(Action::Resize(w, h));
        let buf = screens::render_buffer(&app);
        let text: String = buf.content().iter().map(|c| c.symbol()).collect();
        if w < 40 || h < 12 {
            assert!(
                text.starts_with("termin"[..(w as usize * h as usize).min(6)].trim_end()),
                "{w}x{h}: {text:?}"
            );
        } else {
            assert!(text.contains("Pattern"), "{w}x{h}");
        }
    }
}
