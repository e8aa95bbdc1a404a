//! The interactive workbench.
//!
//! `update(state, action)` lives in [`app`], the keymap in [`action`], one module per pane in
//! [`panes`], popups in [`popups`], colours in [`theme`]. This module wires them to a real
//! terminal: start state, the event loop, clipboard, session saving and signals.

pub mod action;
pub mod app;
pub mod clipboard;
pub mod code;
pub mod layout;
pub mod panes;
pub mod popups;
pub mod presets;
pub mod render;
pub mod screens;
pub mod session;
pub mod svg;
pub mod theme;

use crate::cli::TuiArgs;
use crate::flavor::{Flags, Flavor};
use crate::input::Text;
use crate::workbench::{InputSource, Workbench};
use anyhow::Context as _;
use app::{App, Effect};
use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event, KeyEventKind, MouseEventKind,
};
use presets::PresetBrowser;
use ratatui::layout::Rect;
use session::Session;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The preset the demo opens with.
pub const DEMO_PRESET: &str = "verb";

/// The input the workbench starts with.
pub enum StartInput {
    /// The embedded demo log.
    Demo,
    /// Text read from a file (its name) or standard input.
    Loaded(String, InputSource, Option<String>),
}

/// Builds the start state from the command line, the input, the saved session and the
/// registry. Precedence: `-e`/`--preset` over the session over the demo preset.
///
/// # Errors
/// An unknown preset key or invalid flags.
pub fn start_app(
    args: &TuiArgs,
    input: StartInput,
    saved: Option<Session>,
    presets: PresetBrowser,
    size: Rect,
    palette: theme::Palette,
) -> anyhow::Result<App> {
    let saved = if args.fresh { None } else { saved };
    let (text, source, warning) = match input {
        StartInput::Loaded(t, s, w) => (t, s, w),
        StartInput::Demo => match saved.as_ref().and_then(|s| s.input.clone()) {
            Some(typed) => (typed, InputSource::Typed, None),
            None => (
                crate::workbench::DEMO_LOG.to_string(),
                InputSource::Demo,
                None,
            ),
        },
    };
    let demo = presets.find(DEMO_PRESET).cloned();
    let mut pattern = demo.as_ref().map_or_else(
        || {
            r"\[(?P<verb>ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+(?P<job_id>[A-Za-z0-9_/-]+)\]"
                .to_string()
        },
        |p| p.pattern.clone(),
    );
    let mut flavor = demo.as_ref().map_or(Flavor::Python, |p| p.flavor);
    let mut flags = demo.as_ref().map_or_else(Flags::default, |p| p.flags);
    let mut replacement = String::new();
    let mut tests = demo.as_ref().map(test_lines).unwrap_or_default();
    let mut preset_key = demo.as_ref().map(|p| p.key.clone());
    if let Some(s) = &saved {
        pattern = s.pattern.clone();
        flavor = s.flavor.parse().unwrap_or(flavor);
        flags = Flags::parse(&s.flags, flavor).unwrap_or_default();
        replacement = s.replacement.clone();
        tests = s.tests.clone();
        preset_key = s.preset.clone();
    }
    if let Some(key) = &args.preset {
        let p = presets.find(key).with_context(|| {
            let keys: Vec<&str> = presets.all.iter().map(|p| p.key.as_str()).collect();
            format!("no preset named '{key}' (known: {})", keys.join(", "))
        })?;
        pattern = p.pattern.clone();
        flavor = p.flavor;
        flags = p.flags;
        tests = test_lines(p);
        preset_key = Some(p.key.clone());
    }
    if let Some(f) = args.flavor {
        flavor = f;
        flags = Flags::parse(
            &flags
                .letters(flavor)
                .chars()
                .filter(|c| f.flag_letters().contains(*c))
                .collect::<String>(),
            f,
        )
        .unwrap_or_default();
    }
    if let Some(p) = &args.pattern {
        pattern = p.clone();
        preset_key = None;
    }
    if let Some(letters) = &args.flags {
        flags =
            Flags::parse(letters, flavor).map_err(|e| anyhow::anyhow!("--flags: {}", e.message))?;
    }
    let mut wb = Workbench::new(&pattern, flavor, flags, text, source);
    wb.replacement.set(&replacement);
    wb.tests.replace_all(tests);
    wb.preset = preset_key;
    let mut app = App::new(wb, presets, size, palette);
    app.input_warning = warning;
    Ok(app)
}

fn test_lines(p: &presets::PresetView) -> String {
    p.test_lines()
}

/// The presets the browser shows: the embedded NetVM registry overlaid with the user's
/// registries (rxw's config directory). Files that fail to load are said in the browser.
pub fn load_presets() -> PresetBrowser {
    load_presets_from(&crate::presets::load::LoadOptions::with_user_config(
        Vec::new(),
    ))
}

/// As [`load_presets`], from explicit load options (tests point them at a temporary directory).
pub fn load_presets_from(options: &crate::presets::load::LoadOptions) -> PresetBrowser {
    let loaded = crate::presets::load::load(options);
    let views = loaded
        .catalog
        .entries()
        .iter()
        .map(presets::PresetView::from_entry)
        .collect();
    let mut b = PresetBrowser::new(views);
    if !loaded.failures.is_empty() {
        let msgs: Vec<String> = loaded
            .failures
            .iter()
            .map(|f| f.error.message.clone())
            .collect();
        b.load_error = Some(msgs.join("; "));
    }
    b
}

fn read_input(args: &TuiArgs) -> anyhow::Result<StartInput> {
    if let Some(path) = &args.file {
        let t = Text::from_path(path).map_err(|e| anyhow::anyhow!("{}", e.message))?;
        let warning = t.warning();
        return Ok(StartInput::Loaded(
            t.to_cow().into_owned(),
            InputSource::File(path.display().to_string()),
            warning,
        ));
    }
    if !std::io::stdin().is_terminal() {
        let t = Text::from_reader(std::io::stdin().lock())
            .map_err(|e| anyhow::anyhow!("{}", e.message))?;
        let warning = t.warning();
        return Ok(StartInput::Loaded(
            t.to_cow().into_owned(),
            InputSource::Stdin,
            warning,
        ));
    }
    Ok(StartInput::Demo)
}

/// Opens the workbench.
///
/// # Errors
/// When the input cannot be read, a preset is unknown, or the terminal cannot be set up.
pub fn run(args: TuiArgs) -> anyhow::Result<()> {
    let input = read_input(&args)?;
    if !std::io::stdout().is_terminal() {
        anyhow::bail!(
            "the workbench needs a terminal on standard output; use `rxw find` for scripts"
        );
    }
    let session_path = session::default_path();
    let saved = session_path.as_deref().and_then(session::load);
    let presets = load_presets();
    let (w, h) = crossterm::terminal::size().unwrap_or((80, 24));
    let mut app = start_app(
        &args,
        input,
        saved,
        presets,
        Rect::new(0, 0, w, h),
        theme::Palette::from_env(),
    )?;

    let term_signal = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        signal_hook::flag::register(sig, Arc::clone(&term_signal))
            .context("cannot install the signal handler")?;
    }
    // A watchdog for the signals: the event loop normally sees the flag and leaves cleanly
    // (terminal restored, session saved). But when the terminal hangs up, crossterm's read can
    // spin inside `event::poll` and never return; then the watchdog restores what it can and
    // ends the process instead of leaving it busy forever.
    let watched = Arc::clone(&term_signal);
    std::thread::Builder::new()
        .name("rxw-signal-watchdog".into())
        .spawn(move || {
            while !watched.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
            }
            std::thread::sleep(Duration::from_millis(750));
            let _ = crossterm::execute!(
                std::io::stdout(),
                DisableMouseCapture,
                DisableBracketedPaste
            );
            ratatui::restore();
            std::process::exit(143);
        })
        .context("cannot start the signal watchdog")?;

    let mut terminal = ratatui::try_init().context("cannot set up the terminal")?;
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(
            std::io::stdout(),
            DisableMouseCapture,
            DisableBracketedPaste
        );
        prev(info);
    }));
    let _ = crossterm::execute!(std::io::stdout(), EnableMouseCapture, EnableBracketedPaste);
    let result = event_loop(&mut terminal, &mut app, &term_signal);
    let _ = crossterm::execute!(
        std::io::stdout(),
        DisableMouseCapture,
        DisableBracketedPaste
    );
    ratatui::restore();
    if let Some(path) = &session_path
        && let Err(e) = session::save(path, &Session::of(&app))
    {
        eprintln!("rxw: could not save the session to {}: {e}", path.display());
    }
    result
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    term_signal: &AtomicBool,
) -> anyhow::Result<()> {
    let mut clip = clipboard::Clipboard::new();
    let session_path = session::default_path();
    let mut last_save = Instant::now();
    // The first frame waits briefly for the window scan, so it already shows the matches.
    app.wb.wait_window(Duration::from_millis(150));
    let mut dirty = true;
    loop {
        if dirty {
            terminal.draw(|f| render::draw(f, app))?;
            dirty = false;
        }
        if app.quit || term_signal.load(Ordering::Relaxed) {
            return Ok(());
        }
        let scanning = !app.wb.results.done || !app.wb.results.window_ready;
        let timeout = if scanning {
            Duration::from_millis(16)
        } else {
            Duration::from_millis(500)
        };
        if event::poll(timeout)? {
            // Take every event that is waiting before drawing again.
            loop {
                handle_event(app, event::read()?);
                dirty = true;
                if app.quit || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        for effect in std::mem::take(&mut app.effects) {
            match effect {
                Effect::Copy { text, what } => {
                    app.message = Some(match clip.copy(&text) {
                        Ok(how) => format!("copied {what} ({how})"),
                        Err(e) => format!("could not copy {what}: {e}"),
                    });
                }
                Effect::SavePreset(key) => {
                    app.message = Some(match save_user_preset(app, &key) {
                        Ok(msg) => msg,
                        Err(e) => format!("could not save the preset: {e}"),
                    });
                }
            }
            dirty = true;
        }
        if app.poll() {
            dirty = true;
        }
        if app.session_dirty
            && last_save.elapsed() > Duration::from_secs(2)
            && let Some(path) = &session_path
        {
            if session::save(path, &Session::of(app)).is_ok() {
                app.session_dirty = false;
            }
            last_save = Instant::now();
        }
    }
}

/// Saves the current pattern as preset `key` in the user registry and reloads the browser.
fn save_user_preset(app: &mut App, key: &str) -> anyhow::Result<String> {
    let dir = crate::presets::load::config_dir()
        .context("no config directory (set HOME or XDG_CONFIG_HOME)")?;
    let path = presets::save_to_user_registry(&dir, key, &app.wb, &app.presets)?;
    app.presets = load_presets();
    app.presets.select_key(key);
    Ok(format!("saved preset {key} to {}", path.display()))
}

fn handle_event(app: &mut App, ev: Event) {
    use action::{Action, Edit};
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => app.handle_key(k),
        Event::Paste(s) => app.update(Action::Edit(Edit::Paste(s))),
        Event::Resize(w, h) => app.update(Action::Resize(w, h)),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(_) => app.update(Action::Click {
                col: m.column,
                row: m.row,
            }),
            MouseEventKind::ScrollUp => app.update(Action::Wheel {
                col: m.column,
                row: m.row,
                delta: -1,
            }),
            MouseEventKind::ScrollDown => app.update(Action::Wheel {
                col: m.column,
                row: m.row,
                delta: 1,
            }),
            _ => {}
        },
        _ => {}
    }
}
