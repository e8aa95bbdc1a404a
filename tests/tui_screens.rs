//! Whole-screen tests of the TUI on a headless terminal: one snapshot per scene (every tab,
//! the error, help and too-small screens), and the committed screenshots must match what
//! `cargo run --example screenshots` renders now.
#![cfg(feature = "app")]

use rxw::tui::{screens, svg};
use std::path::Path;

#[test]
fn every_scene_matches_its_snapshot() {
    for (name, app) in screens::scenes() {
        let buf = screens::render_buffer(&app);
        let mut text = String::new();
        for y in 0..buf.area.height {
            for x in 0..buf.area.width {
                text.push_str(buf[(x, y)].symbol());
            }
            text.push('\n');
        }
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn committed_screenshots_match_the_renderer() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/screenshots");
    for (name, app) in screens::scenes() {
        let path = dir.join(format!("{name}.svg"));
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run `cargo run --example screenshots`",
                path.display()
            )
        });
        let now = svg::to_svg_on(&screens::render_buffer(&app), app.palette.background());
        assert!(
            committed == now,
            "{} is out of date; run `cargo run --example screenshots`",
            path.display()
        );
    }
}

#[test]
fn first_frame_of_the_demo_shows_coloured_matches() {
    let app = screens::demo(120, 34);
    let buf = screens::render_buffer(&app);
    // Line 3 of the demo holds `[CLAIM 7fce46e0]`: its cells carry the match/group colours.
    let row = (0..buf.area.height)
        .find(|&y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .contains("[CLAIM 7fce46e0]")
        })
        .expect("the CLAIM line is on screen");
    let coloured = (0..buf.area.width)
        .filter(|&x| buf[(x, row)].bg != ratatui::style::Color::Reset)
        .count();
    assert!(
        coloured >= "[CLAIM 7fce46e0]".len(),
        "only {coloured} coloured cells"
    );
    assert_eq!(app.focus, rxw::tui::app::Focus::Pattern);
    assert_eq!(app.wb.pattern.cursor(), app.wb.pattern.text().len());
}

#[test]
fn no_color_draws_without_any_colour_but_still_marks_matches() {
    use ratatui::style::{Color, Modifier};
    let args = rxw::tui::Options {
        fresh: true,
        ..Default::default()
    };
    let mut app = rxw::tui::start_app(
        &args,
        rxw::tui::StartInput::Demo,
        None,
        rxw::tui::load_presets(),
        ratatui::layout::Rect::new(0, 0, 120, 34),
        rxw::tui::theme::Palette::Mono,
    )
    .unwrap();
    screens::settle(&mut app);
    let buf = screens::render_buffer(&app);
    assert!(
        buf.content()
            .iter()
            .all(|c| c.fg == Color::Reset && c.bg == Color::Reset)
    );
    assert!(
        buf.content()
            .iter()
            .filter(|c| c.modifier.contains(Modifier::REVERSED))
            .count()
            > 40
    );
}

/// The Code tab's syntax colours are syntect's 24-bit ones: on the terminal only when
/// `COLORTERM` says it draws them, the nearest of xterm's 256 otherwise, and only the 16 ANSI
/// colours for `TERM=linux`.
#[test]
fn syntax_colours_are_24_bit_only_when_colorterm_says_so() {
    use ratatui::style::Color;
    use rxw::tui::theme::Depth;
    let mut app = screens::demo(120, 34);
    app.update(rxw::tui::action::Action::ShowTab(rxw::tui::tabs::code::ID));
    let colours = |buf: &ratatui::buffer::Buffer| -> Vec<Color> {
        buf.content()
            .iter()
            .flat_map(|c| [c.fg, c.bg, c.underline_color])
            .collect()
    };
    let is_rgb = |c: &Color| matches!(c, Color::Rgb(..));
    let truecolor = screens::render_buffer_at(&app, Depth::from_vars(Some("truecolor"), None));
    let rgb = colours(&truecolor).iter().filter(|c| is_rgb(c)).count();
    assert!(rgb > 100, "the highlighted program: {rgb} cells");
    for colorterm in [None, Some(""), Some("1")] {
        for term in ["xterm-256color", "xterm", "screen"] {
            let buf = screens::render_buffer_at(&app, Depth::from_vars(colorterm, Some(term)));
            assert!(
                !colours(&buf).iter().any(is_rgb),
                "COLORTERM={colorterm:?} TERM={term}"
            );
            // The program is still in colours: the 24-bit ones became indices.
            assert!(
                colours(&buf)
                    .iter()
                    .filter(|c| matches!(c, Color::Indexed(16..)))
                    .count()
                    >= rgb,
                "COLORTERM={colorterm:?} TERM={term}"
            );
        }
    }
    let linux = screens::render_buffer_at(&app, Depth::from_vars(None, Some("linux")));
    assert!(
        colours(&linux)
            .iter()
            .all(|c| !matches!(c, Color::Rgb(..) | Color::Indexed(16..))),
        "TERM=linux draws 16 colours"
    );
}

/// The screen of `app` with each cell's colours and modifiers, one line per run of equal
/// style: what a text snapshot cannot show.
fn styled_rows(buf: &ratatui::buffer::Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut runs: Vec<(String, String)> = Vec::new();
        for x in 0..buf.area.width {
            let c = &buf[(x, y)];
            let style = format!("{:?}/{:?}/{:?}", c.fg, c.bg, c.modifier);
            match runs.last_mut() {
                Some((s, text)) if *s == style => text.push_str(c.symbol()),
                _ => runs.push((style, c.symbol().to_string())),
            }
        }
        for (style, text) in runs {
            if style != "Reset/Reset/NONE" {
                out.push_str(&format!("{y:>2} {style} {text:?}\n"));
            }
        }
    }
    out
}

/// The Explain tab in the light theme: the pattern's colours are dark inks that read on
/// white (no yellow, cyan or white text on the terminal's background), the matches keep their
/// backgrounds with black text.
#[test]
fn the_light_theme_draws_dark_inks_on_the_terminals_background() {
    use ratatui::style::Color;
    let mut app = screens::demo_in(120, 34, rxw::tui::theme::Palette::Light);
    app.update(rxw::tui::action::Action::ShowTab(
        rxw::tui::tabs::explain::ID,
    ));
    screens::settle(&mut app);
    let buf = screens::render_buffer(&app);
    let light_inks = [
        Color::Yellow,
        Color::Cyan,
        Color::White,
        Color::LightYellow,
        Color::LightCyan,
        Color::LightGreen,
        Color::Gray,
    ];
    for c in buf.content() {
        if c.bg == Color::Reset {
            assert!(!light_inks.contains(&c.fg), "{:?} on the background", c.fg);
        } else {
            assert_ne!(c.fg, Color::Reset, "a background without its foreground");
        }
    }
    let inks: std::collections::HashSet<Color> = buf
        .content()
        .iter()
        .filter(|c| c.bg == Color::Reset)
        .map(|c| c.fg)
        .collect();
    assert!(inks.len() >= 4, "{inks:?}");
    insta::assert_snapshot!("explain-light", styled_rows(&buf));
}

/// The screen of `app` as rows of text.
fn rows(app: &rxw::tui::app::App) -> Vec<String> {
    let buf = screens::render_buffer(app);
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

/// At 80x24, 120x40, 200x60 and 300x80 every scene is drawn whole: the footer ends with a
/// whole hint, and where the results pane is 120 columns or more every tab's whole name is
/// in its bar. The screens of each tab at each size are snapshots.
#[test]
fn every_tab_reads_at_four_sizes() {
    const TABS: [&str; 11] = [
        "Matches", "Groups", "Explain", "Replace", "Presets", "Tests", "Code", "Debug", "Lens",
        "Jobs", "Timeline",
    ];
    for (w, h) in [(80u16, 24u16), (120, 40), (200, 60), (300, 80)] {
        for (name, app) in screens::scenes_at(w, h) {
            if name == "too-small" {
                continue;
            }
            let screen = rows(&app);
            let footer = screen.last().unwrap().trim_end().to_string();
            let hints: Vec<(String, &str)> =
                rxw::tui::keymap::footer_hints(app.context(), app.active_tab());
            let full: String = hints.iter().map(|(k, h)| format!(" {k} {h} ")).collect();
            assert!(
                full.starts_with(&footer)
                    && (footer.len() == full.trim_end().len()
                        || full[footer.len()..].starts_with("  ")),
                "{name} at {w}x{h}: the footer ends mid-hint: {footer:?}"
            );
            assert!(footer.len() > 20, "{name} at {w}x{h}: {footer:?}");
            let is_tab_scene = matches!(
                name,
                "start"
                    | "matches"
                    | "groups"
                    | "explain"
                    | "replace"
                    | "presets"
                    | "tests"
                    | "code"
                    | "debug"
                    | "lens"
                    | "jobs"
                    | "timeline"
            );
            let areas = rxw::tui::layout::areas(ratatui::layout::Rect::new(0, 0, w, h));
            if is_tab_scene && areas.tabs.width >= 118 {
                let bar = &screen[areas.tabs.y as usize];
                for t in TABS {
                    assert!(
                        bar.contains(&format!(" {t} ")),
                        "{name} at {w}x{h}: {t} cut in {bar:?}"
                    );
                }
            }
            if is_tab_scene && (w, h) != (screens::WIDTH, screens::HEIGHT) {
                insta::assert_snapshot!(format!("{name}@{w}x{h}"), screen.join("\n"));
            }
        }
    }
}

/// The Debug tab says what each step tried and how it went: a failing step is marked ✗ and
/// drawn in the error colour, a step that succeeded is not, and the pos column is in the
/// flavor's units, labelled (code points for the demo's Python pattern).
#[test]
fn debug_rows_mark_failing_steps_in_the_error_colour() {
    let (_, app) = screens::scenes()
        .into_iter()
        .find(|(n, _)| *n == "debug")
        .expect("the debug scene");
    let buf = screens::render_buffer(&app);
    let screen = rows(&app);
    assert!(
        screen.iter().any(|r| r.contains("(pos in code points)")),
        "{screen:#?}"
    );
    let error = rxw::tui::theme::style(rxw::highlight::Kind::Error, app.palette).fg;
    // A step row is `  NN ✗ …`: the current step has its own colour, the others theirs.
    let cursor: usize = screen
        .iter()
        .find_map(|r| r.split("│step ").nth(1)?.split(' ').next()?.parse().ok())
        .expect("the step line");
    let mut seen = (0, 0);
    for (y, row) in screen.iter().enumerate() {
        let Some(x) = row.chars().position(|c| c == '✗' || c == '✓') else {
            continue;
        };
        let step: Option<usize> = row.split_whitespace().nth(1).and_then(|s| s.parse().ok());
        if step.is_none_or(|s| s == cursor) {
            continue;
        }
        let fg = buf[(x as u16, y as u16)].fg;
        if row.chars().nth(x) == Some('✗') {
            assert_eq!(Some(fg), error, "{row}");
            seen.0 += 1;
        } else {
            assert_ne!(Some(fg), error, "{row}");
            seen.1 += 1;
        }
    }
    assert!(seen.0 > 0 && seen.1 > 0, "{seen:?} {screen:#?}");
}

/// The railroad diagram wraps its top-level sequence to the pane (the track turns down at a
/// row's end and comes back in at the next row's start), and says when it scrolls.
#[test]
fn the_railroad_wraps_to_the_pane_and_says_when_it_scrolls() {
    use rxw::tui::action::Action;
    use rxw::tui::tabs::explain;
    let mut app = screens::demo(80, 40);
    app.update(Action::ShowTab(explain::ID));
    app.update(Action::Tab(explain::RAILROAD));
    let screen = rows(&app);
    let areas = rxw::tui::layout::areas(ratatui::layout::Rect::new(0, 0, 80, 40));
    let inner = (areas.tabs.width - 2) as usize;
    // The whole diagram is wider than the pane; wrapped, no row is.
    let analysis = app.wb.analysis();
    let whole = analysis.railroad().as_ref().unwrap();
    let widest = |l: &[String]| l.iter().map(|r| r.chars().count()).max().unwrap();
    assert!(
        widest(whole) > inner,
        "the demo pattern fits: nothing to wrap"
    );
    let fitted = analysis.railroad_fit(inner);
    let fitted = fitted.as_ref().as_ref().unwrap();
    assert!(widest(fitted) <= inner, "{fitted:#?}");
    let body: Vec<&String> = screen
        .iter()
        .skip(areas.tabs.y as usize + 1)
        .take_while(|r| !r.starts_with('└'))
        .collect();
    assert!(body.iter().any(|r| r.contains("●─")), "{screen:#?}");
    assert!(body.iter().any(|r| r.contains("─╮")), "{screen:#?}");
    // Taller than the pane: the last row says which rows are shown; no column note.
    let note = body.last().unwrap();
    assert!(note.contains("rows 1–"), "{screen:#?}");
    assert!(
        note.contains(&format!("of {} (↑/↓ scroll)", fitted.len())),
        "{note}"
    );
    assert!(!note.contains("columns"), "{note}");
    // Scrolled down, the next row of the diagram comes in at its left.
    app.update(Action::Edit(rxw::tui::action::Edit::PageDown));
    let screen = rows(&app);
    assert!(screen.iter().any(|r| r.starts_with("│╰─")), "{screen:#?}");
    assert!(
        !screen.iter().any(|r| r.contains("│rows 1–")),
        "{screen:#?}"
    );
}
