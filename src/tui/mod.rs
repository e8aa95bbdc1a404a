//! The interactive workbench.
//!
//! `update(state, action)` lives in [`app`], the keymap in [`action`], one module per result
//! tab in [`tabs`] (a trait and a registry), one module per other pane in [`panes`], popups in
//! [`popups`], colours in [`theme`]. This module wires them to a real
//! terminal: start state, the event loop, clipboard, session saving and signals.

pub mod action;
pub mod app;
pub mod background;
pub mod clipboard;
pub mod colour;
pub mod gutter;
pub mod history;
pub mod keymap;
pub mod layout;
pub mod panes;
pub mod pipeline;
pub mod popups;
pub mod presets;
pub mod render;
pub mod screens;
pub mod session;
pub mod svg;
pub mod tabs;
pub mod text;
pub mod theme;

use crate::flavor::{Flags, Flavor};
use crate::input::Text;
use crate::workbench::RestRead;
use crate::workbench::follow::FleetLog;
use crate::workbench::{InputSource, Workbench};
use action::Effect;
use anyhow::Context as _;
use app::App;
use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind,
};
use presets::PresetBrowser;
use ratatui::layout::Rect;
use session::{Session, SessionStore};
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
    /// A large file, a compressed log or several logs merged, read in pages
    /// ([`crate::input::paged`]).
    Paged(crate::input::paged::PagedText, InputSource),
}

/// How the workbench starts: what the command line asked for, in the TUI's own terms (the
/// command line converts its arguments; the TUI knows nothing of clap).
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// A file to open in the input pane (default: the embedded demo log, or standard input
    /// when it is piped).
    pub file: Option<std::path::PathBuf>,
    /// Start with this pattern.
    pub pattern: Option<String>,
    /// Start with this flavor.
    pub flavor: Option<crate::Flavor>,
    /// Start with these flag letters.
    pub flags: Option<String>,
    /// Start with this preset loaded.
    pub preset: Option<String>,
    /// Do not restore the previous session.
    pub fresh: bool,
    /// Follow the file as it grows.
    pub follow: bool,
    /// More logs: with them, all are opened as one input merged by time.
    pub more: Vec<std::path::PathBuf>,
    /// Print the pattern on standard output when Enter accepts it (and how).
    pub print: Option<pipeline::PrintFormat>,
    /// Colours for a light or a dark background, or asked of the terminal.
    pub theme: theme::ThemeChoice,
}

/// Builds the start state from the command line, the input, the saved session and the
/// registry. Precedence: `-e`/`--preset` over the session over the demo preset.
///
/// # Errors
/// An unknown preset key or invalid flags.
pub fn start_app(
    args: &Options,
    input: StartInput,
    saved: Option<Session>,
    presets: PresetBrowser,
    size: Rect,
    palette: theme::Palette,
) -> anyhow::Result<App> {
    // The history outlives a `--fresh` start, as a shell's does.
    let history = saved.as_ref().map(Session::histories).unwrap_or_default();
    // Bookmarks outlive a `--fresh` start too: they belong to the logs, not the pattern.
    let bookmarks = saved
        .as_ref()
        .map(|s| s.bookmarks.clone())
        .unwrap_or_default();
    let saved = if args.fresh { None } else { saved };
    let (text, source, warning, paged) = match input {
        StartInput::Loaded(t, s, w) => (t, s, w, None),
        StartInput::Paged(p, s) => (String::new(), s, None, Some(p)),
        StartInput::Demo => match saved.as_ref().and_then(|s| s.input.clone()) {
            Some(typed) => (typed, InputSource::Typed, None, None),
            None => (
                crate::workbench::DEMO_LOG.to_string(),
                InputSource::Demo,
                None,
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
    let mut flavor = demo.as_ref().map_or(Flavor::PYTHON, |p| p.flavor);
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
    let mut wb = match paged {
        Some(p) => {
            let mut wb = Workbench::new(&pattern, flavor, flags, String::new(), source.clone());
            wb.set_paged_input(p, source);
            wb
        }
        None => Workbench::new(&pattern, flavor, flags, text, source),
    };
    wb.replacement.set(&replacement);
    wb.tests.replace_all(tests);
    wb.preset = preset_key;
    let suggested = saved.is_none() && args.preset.is_none() && args.pattern.is_none();
    let mut app = App::new(wb, presets, size, palette);
    if suggested {
        app.pattern_suggested = Some(pattern);
    }
    app.input_warning = warning;
    app.history = history::PatternHistory::from_families(history);
    app.bookmarks = bookmarks
        .into_iter()
        .map(|(k, lines)| (k, lines.into_iter().collect()))
        .collect();
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
    b.catalog = Arc::new(loaded.catalog);
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

/// The start input for a file read by [`Text::read_path`]: when the file changed (was
/// truncated) or failed part way, the workbench opens on the data read so far and says why in
/// the status bar, instead of refusing to start.
pub fn loaded_file(read: crate::input::FileRead, path: &std::path::Path) -> StartInput {
    let mut warnings: Vec<String> = Vec::new();
    if let Some(e) = &read.incomplete {
        warnings.push(format!(
            "{}; showing the {} bytes read",
            e.message,
            read.text.bytes().len()
        ));
    }
    warnings.extend(read.text.warning());
    let warning = (!warnings.is_empty()).then(|| warnings.join(" · "));
    StartInput::Loaded(
        read.text.into_string(),
        InputSource::File(path.display().to_string()),
        warning,
    )
}

/// Files larger than this open on their first lines (up to this many bytes), drawn at once,
/// while the rest is read on a thread ([`RestOfFile`]).
pub const HEAD_BYTES: u64 = 4 << 20;

/// The part of a large file still to read when the workbench opens on its head.
pub struct RestOfFile {
    /// The file.
    pub path: std::path::PathBuf,
    /// Where the head ended (a line start).
    pub offset: u64,
    /// The file's size when opened (for the progress shown).
    pub total: u64,
    /// The head's bytes as read: the reader puts them first in the buffer it fills, so the
    /// whole text is one allocation that is never copied again.
    pub head: Vec<u8>,
}

/// Reads up to [`HEAD_BYTES`] of a larger file, cut after its last line break; `None` when the
/// file is not larger, is not a regular file, or the head holds no line break (then it is read
/// whole, as before).
fn read_head(path: &std::path::Path) -> Option<(Vec<u8>, u64)> {
    use std::io::Read as _;
    // Never waits in the open (a FIFO would, for a writer); only a regular file has a head.
    let (file, meta) = crate::input::open_regular(path).ok()?;
    if meta.len() <= HEAD_BYTES {
        return None;
    }
    let mut head = Vec::with_capacity(HEAD_BYTES as usize);
    file.take(HEAD_BYTES).read_to_end(&mut head).ok()?;
    let cut = memchr::memrchr(b'\n', &head)? + 1;
    head.truncate(cut);
    Some((head, meta.len()))
}

/// Whether the file at `path` starts with a compressed format's magic bytes.
/// Most decoded bytes of compressed or merged logs the workbench holds in memory before it
/// reads them in pages instead.
const IN_MEMORY_DECODED_BYTES: u64 = 256 << 20;

/// Whether one path names logs rather than being one: a directory, or a glob that is not a
/// file's own name (`rxw logs/`, `rxw 'logs/*.gz'`).
fn names_many(path: &std::path::Path) -> bool {
    path.is_dir() || (!path.exists() && path.to_str().is_some_and(|p| p.contains(['*', '?', '['])))
}

fn is_compressed(path: &std::path::Path) -> bool {
    use std::io::Read as _;
    let mut head = [0u8; crate::input::codec::Codec::MAGIC_LEN];
    // Never waits in the open (a FIFO would, for a writer).
    let n = crate::input::open_regular(path)
        .and_then(|(mut f, _)| f.read(&mut head))
        .unwrap_or(0);
    crate::input::codec::Codec::sniff(&head[..n]) != crate::input::codec::Codec::Plain
}

/// A plain file at least this large opens in pages ([`crate::input::paged`]) instead of
/// being read whole: memory then stays bounded whatever its size. Below it, the file is held
/// in memory and can be edited (up to [`app::EDITABLE_FILE_BYTES`]).
pub const PAGED_FILE_BYTES: u64 = 64 << 20;
/// Compressed logs or merged sets whose files add up to at least this many bytes open in
/// pages, decoded once into a spill file (a compressed log often holds ten times its size).
pub const PAGED_ARCHIVE_BYTES: u64 = 8 << 20;

/// The files' sizes added up, and whether any is compressed.
fn sizes(origins: &[crate::input::logs::Origin]) -> (u64, bool) {
    let mut total = 0;
    let mut compressed = false;
    for o in origins {
        if let crate::input::logs::Origin::Path(p) = o {
            total += std::fs::metadata(p).map_or(0, |m| m.len());
            compressed |= is_compressed(p);
        }
    }
    (total, compressed)
}

/// The input in pages when it is large enough to need them: one plain file of at least
/// [`PAGED_FILE_BYTES`], or compressed or merged logs whose files add up to the limit for
/// their kind. `None` for an input held in memory as before. Following grows a plain file's
/// pages in place; a compressed log or the logs a directory or glob names are read once
/// either way (in memory they were not followed either, and a large archive took its whole
/// decoded text in memory).
fn open_paged(
    first: &std::path::Path,
    more: &[std::path::PathBuf],
) -> anyhow::Result<Option<StartInput>> {
    // RXW_PAGED_BYTES sets both limits (tests open small files in pages with 0).
    let limit_override = std::env::var("RXW_PAGED_BYTES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok());
    open_paged_past(first, more, limit_override)
}

/// [`open_paged`] with the size past which the input is paged (`None`: the usual limits).
fn open_paged_past(
    first: &std::path::Path,
    more: &[std::path::PathBuf],
    limit_override: Option<u64>,
) -> anyhow::Result<Option<StartInput>> {
    use crate::input::{logs, paged};
    let paths: Vec<std::path::PathBuf> = std::iter::once(first.to_path_buf())
        .chain(more.iter().cloned())
        .collect();
    let origins = logs::expand(&paths).map_err(|e| anyhow::anyhow!("{}", e.message))?;
    if origins.contains(&logs::Origin::Stdin) {
        return Ok(None);
    }
    let (total, compressed) = sizes(&origins);
    let options = paged::PagedOptions::default();
    let name = origins
        .iter()
        .map(logs::Origin::name)
        .collect::<Vec<_>>()
        .join(" + ");
    if origins.len() == 1 && !compressed {
        if total < limit_override.unwrap_or(PAGED_FILE_BYTES) {
            return Ok(None);
        }
        // The one log a directory or a glob named, or the file itself.
        let path = match &origins[0] {
            logs::Origin::Path(p) => p.as_path(),
            logs::Origin::Stdin => first,
        };
        let p =
            paged::PagedText::open(path, &options).map_err(|e| anyhow::anyhow!("{}", e.message))?;
        return Ok(Some(StartInput::Paged(p, InputSource::File(name))));
    }
    let limit = limit_override.unwrap_or(if compressed {
        PAGED_ARCHIVE_BYTES
    } else {
        PAGED_FILE_BYTES
    });
    if total < limit {
        return Ok(None);
    }
    let p = paged::PagedText::open_merged(&origins, &options)
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    Ok(Some(StartInput::Paged(p, InputSource::File(name))))
}

/// Several logs (or a compressed one) as one input, merged by time through the input layer;
/// what decoded before a log broke is shown, and the break is said in the status line.
fn read_logs(
    first: &std::path::Path,
    more: &[std::path::PathBuf],
) -> anyhow::Result<(StartInput, Gutter)> {
    read_logs_followed(first, more, false).map(|(input, gutter, _)| (input, gutter))
}

/// [`read_logs`]; with `follow`, every log must be one that can be followed (said before
/// anything is read), and where each stands once read comes back for the
/// [`crate::workbench::follow::FleetFollower`].
fn read_logs_followed(
    first: &std::path::Path,
    more: &[std::path::PathBuf],
    follow: bool,
) -> anyhow::Result<(StartInput, Gutter, Option<Vec<FleetLog>>)> {
    use crate::input::{chunks::Chunks, logs};
    let paths: Vec<std::path::PathBuf> = std::iter::once(first.to_path_buf())
        .chain(more.iter().cloned())
        .collect();
    let origins = logs::expand(&paths).map_err(|e| anyhow::anyhow!("{}", e.message))?;
    let followed = if follow {
        crate::workbench::follow::followable(&origins)
            .map_err(|e| anyhow::anyhow!("{}", e.message))?
    } else {
        Vec::new()
    };
    let merged = logs::MergedLines::open(&origins).map_err(|e| anyhow::anyhow!("{}", e.message))?;
    let read = merged.progress();
    let names = merged.names().to_vec();
    // Held in memory up to the cap (and at most 256 MiB: the workbench pages anything
    // larger well, and a bomb should not fill memory before it is found out); a text that
    // decodes to more (a decompression bomb, a large archive) is read in pages instead.
    let cap = crate::input::room::max_decoded_in_memory().min(IN_MEMORY_DECODED_BYTES);
    let (chunk, mut chunks, over) = Chunks::whole_within(merged, cap);
    if over.is_some() {
        drop((chunks, chunk));
        if follow {
            anyhow::bail!(
                "{}: too large to follow merged in memory; open them without -f (they are read in pages), or follow fewer",
                names.join(" + ")
            );
        }
        if let Some(paged) = open_paged_past(first, more, Some(0))? {
            let gutter = (names.len() > 1).then(|| (names.clone(), Vec::new()));
            return Ok((paged, gutter, None));
        }
        anyhow::bail!(
            "{}: too large to read in memory or in pages",
            names.join(" + ")
        );
    }
    let mut warnings: Vec<String> = chunks
        .take_failures()
        .iter()
        .map(|e| format!("{}; showing what was read", e.message))
        .collect();
    warnings.extend(chunks.warning());
    let warning = (!warnings.is_empty()).then(|| warnings.join(" · "));
    let gutter = (names.len() > 1).then(|| (names.clone(), chunk.runs.clone()));
    let fleet = if follow {
        // Each log from the bytes of it the merge read (a log that grows meanwhile is
        // followed from there, nothing read twice or skipped).
        let logs = followed
            .iter()
            .zip(&read)
            .map(|(p, r)| {
                FleetLog::standing(p, r.consumed(), None)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Some(logs)
    } else {
        None
    };
    Ok((
        StartInput::Loaded(chunk.text, InputSource::File(names.join(" + ")), warning),
        gutter,
        fleet,
    ))
}

/// The start input; for a file, the bytes read from it (where following goes on from), or the
/// part still to read when it opens on its head.
/// The logs' names and runs for the source gutter of a merged input.
type Gutter = Option<(Vec<String>, Vec<crate::input::chunks::Run>)>;

/// What [`read_input`] read: the start input, a file's bytes read, the part of it still to
/// read, the merged logs' gutter, and where each log stands when merged logs are followed.
type StartRead = (
    StartInput,
    Option<u64>,
    Option<RestOfFile>,
    Gutter,
    Option<Vec<FleetLog>>,
);

/// The start input (see above); and where each log stands when several are opened to be
/// followed merged.
fn read_input(args: &Options) -> anyhow::Result<StartRead> {
    // Several logs, a directory or a glob (even of one log), or a compressed log (refused,
    // said): followed by the FleetFollower.
    if let Some(first) = &args.file
        && args.follow
        && (!args.more.is_empty() || names_many(first) || is_compressed(first))
    {
        let (input, gutter, fleet) = read_logs_followed(first, &args.more, true)?;
        return Ok((input, None, None, gutter, fleet));
    }
    if let Some(first) = &args.file
        && let Some(paged) = open_paged(first, &args.more)?
    {
        let gutter = match &paged {
            StartInput::Paged(p, _) if p.names().len() > 1 => {
                Some((p.names().to_vec(), Vec::new()))
            }
            _ => None,
        };
        // A plain file read in place can be followed (its pages grow): the follower keeps
        // its path for file events and Ctrl-F.
        let followable = match &paged {
            StartInput::Paged(p, _) if p.spill().is_none() => Some(p.len() as u64),
            _ => None,
        };
        return Ok((paged, followable, None, gutter, None));
    }
    if let Some(first) = &args.file
        && (!args.more.is_empty() || is_compressed(first) || names_many(first))
    {
        let (input, gutter) = read_logs(first, &args.more)?;
        return Ok((input, None, None, gutter, None));
    }
    if let Some(path) = &args.file {
        if args.follow
            && let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
        {
            // Following reads what is appended: a FIFO would block, a device never end.
            anyhow::bail!(
                "cannot follow {}: it is {}, not a regular file",
                path.display(),
                crate::input::file_kind(&meta)
            );
        }
        if let Some((head, total)) = read_head(path) {
            let offset = head.len() as u64;
            let text = Text::from_bytes(head.clone());
            let warning = text.warning();
            let rest = RestOfFile {
                path: path.clone(),
                offset,
                total,
                head,
            };
            return Ok((
                StartInput::Loaded(
                    text.into_string(),
                    InputSource::File(path.display().to_string()),
                    warning,
                ),
                None,
                Some(rest),
                None,
                None,
            ));
        }
        let read = Text::read_path(path).map_err(|e| anyhow::anyhow!("{}", e.message))?;
        let bytes = read.text.bytes().len() as u64;
        return Ok((loaded_file(read, path), Some(bytes), None, None, None));
    }
    if !std::io::stdin().is_terminal() {
        let t = Text::from_reader(std::io::stdin().lock())
            .map_err(|e| anyhow::anyhow!("{}", e.message))?;
        let warning = t.warning();
        return Ok((
            StartInput::Loaded(t.into_string(), InputSource::Stdin, warning),
            None,
            None,
            None,
            None,
        ));
    }
    Ok((StartInput::Demo, None, None, None, None))
}

/// What the input read brings besides its text: the merged logs' source gutter, and what
/// is followed (a file, kept for Ctrl-F; merged logs with `-f`).
fn attach_input(
    app: &mut App,
    args: &Options,
    file_bytes: Option<u64>,
    gutter: Gutter,
    fleet: Option<Vec<FleetLog>>,
) {
    if let Some((names, runs)) = gutter {
        app.sources = Some(gutter::SourceGutter::new(
            app.wb.input.revision(),
            &names,
            &runs,
        ));
    }
    if let Some(p) = app.wb.input.paged_text()
        && let Some(g) = &mut app.sources
    {
        g.paged = Some(p.clone());
    }
    if let (Some(path), Some(bytes)) = (&args.file, file_bytes) {
        // Kept for Ctrl-F even when not following from the start.
        app.set_follower(
            crate::workbench::follow::Follower::new(path, bytes),
            args.follow,
        );
    }
    if let Some(logs) = fleet {
        app.set_fleet(&logs, true);
    }
}

/// The workbench as [`run`] opens it for `args` (its input read, merged logs followed with
/// `-f`), without a terminal, a session or the user's presets: for tests of what opening does.
///
/// # Errors
/// As [`run`], for the input.
pub fn open_headless(args: &Options, size: Rect) -> anyhow::Result<App> {
    let (input, file_bytes, _, gutter, fleet) = read_input(args)?;
    let mut app = start_app(
        args,
        input,
        None,
        PresetBrowser::new(Vec::new()),
        size,
        theme::Palette::Color,
    )?;
    attach_input(&mut app, args, file_bytes, gutter, fleet);
    Ok(app)
}

/// Opens the workbench.
///
/// # Errors
/// When the input cannot be read, a preset is unknown, or the terminal cannot be set up.
pub fn run(args: Options) -> anyhow::Result<pipeline::Ended> {
    #[cfg(not(unix))]
    if !std::io::stdout().is_terminal() {
        anyhow::bail!(
            "the workbench needs a terminal on standard output; use `rxw find` for scripts"
        );
    }
    let (input, file_bytes, rest, gutter, fleet) = read_input(&args)?;
    // With standard output redirected (`PAT=$(rxw)`), the workbench draws on the terminal
    // and the pattern goes where the output was sent.
    let redirected = if std::io::stdout().is_terminal() {
        None
    } else {
        Some(pipeline::draw_on_the_terminal()?)
    };
    let print = args
        .print
        .or(redirected.is_some().then_some(pipeline::PrintFormat::Text));
    let mut store = session::default_path().map(SessionStore::new);
    let restored = store
        .as_ref()
        .map(|s| session::load(s.path()))
        .unwrap_or_default();
    let presets = load_presets();
    let (w, h) = crossterm::terminal::size().unwrap_or((80, 24));
    // Asked before the workbench takes the screen and starts reading keys (see `background`).
    let palette = match theme::Palette::from_env() {
        theme::Palette::Mono => theme::Palette::Mono,
        _ => theme::Palette::for_background(background::resolve(args.theme)),
    };
    let mut app = start_app(
        &args,
        input,
        restored.session,
        presets,
        Rect::new(0, 0, w, h),
        palette,
    )?;
    if let Some(notice) = restored.notice {
        app.message = Some(notice);
    }
    app.printing = print.is_some();
    attach_input(&mut app, &args, file_bytes, gutter, fleet);

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
    if let Some(rest) = &rest {
        app.loading = Some(app::Loading::new(rest.offset, rest.total));
    }
    let result = event_loop(
        &mut terminal,
        &mut app,
        &term_signal,
        store.as_mut(),
        rest.map(|r| (r, args.follow)),
    );
    let _ = crossterm::execute!(
        std::io::stdout(),
        DisableMouseCapture,
        DisableBracketedPaste
    );
    ratatui::restore();
    // The terminal shows its cursor when dropped: on the screen, before the output is back.
    drop(terminal);
    if let Some(saved) = redirected {
        pipeline::restore_output(saved)?;
    }
    // The pattern on screen at the end joins the history the session keeps.
    app.remember_pattern();
    let mut ended = pipeline::Ended::Done;
    if let Some(format) = print
        && result.is_ok()
    {
        if app.accepted {
            let wb = &app.wb;
            pipeline::print_pattern(&pipeline::printed(
                format,
                wb.pattern.text(),
                wb.flavor.name(),
                &wb.flags.letters(wb.flavor),
            ))?;
        } else {
            ended = pipeline::Ended::Cancelled;
        }
    }
    if let Some(store) = &mut store
        && let Err(e) = store.save_app(&app)
    {
        eprintln!(
            "rxw: could not save the session to {}: {e}",
            store.path().display()
        );
    }
    result.map(|()| ended)
}

/// Everything the event loop wakes for, on one channel: terminal events from the reader
/// thread, "a result is waiting" from the scan and compile workers, and the timer.
enum Wake {
    /// An event read from the terminal (or the error that ended the reader).
    Term(std::io::Result<Event>),
    /// A worker sent a result: [`App::poll`] takes it in.
    Work,
    /// The timer: signals, autosave, a followed file's growth.
    Tick,
    /// The file-watch reported a change at the followed file's path.
    FileChanged,
    /// The rest of a large file, read on a thread (see [`read_rest`]).
    Rest(RestRead),
}

/// Reads `rest` on a thread, counting the bytes read into `progress`, and sends the whole
/// text: the buffer is sized for the file at once (with room for some growth), the head is
/// put first and the rest read straight into it, so a 1 GB log takes 1 GB once, never twice.
fn read_rest(
    rest: &RestOfFile,
    progress: Arc<std::sync::atomic::AtomicU64>,
    tx: std::sync::mpsc::Sender<Wake>,
) -> anyhow::Result<()> {
    use std::io::{Read as _, Seek as _};
    let path = rest.path.clone();
    let offset = rest.offset;
    let head = rest.head.clone();
    let total = rest.total;
    std::thread::Builder::new()
        .name("rxw-file-reader".into())
        .spawn(move || {
            let room = usize::try_from(total + total / 64 + (1 << 20)).unwrap_or(usize::MAX);
            let mut whole = Vec::new();
            let error = whole
                .try_reserve_exact(room.max(head.len()))
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e))
                .and_then(|()| {
                    whole.extend_from_slice(&head);
                    let (mut f, _) = crate::input::open_regular(&path)?;
                    f.seek(std::io::SeekFrom::Start(offset))?;
                    loop {
                        // Reads into the buffer's spare room: no chunk copy, no zeroing.
                        let n = (&mut f).take(1 << 20).read_to_end(&mut whole)?;
                        if n == 0 {
                            return Ok(());
                        }
                        progress.fetch_add(n as u64, Ordering::Relaxed);
                    }
                })
                .err();
            if error.is_some() && whole.len() < head.len() {
                whole = head;
            }
            let shrank_from = (error.is_none() && (whole.len() as u64) < total).then_some(total);
            let whole = Text::from_bytes(whole);
            let warning = whole.warning();
            let whole = crate::workbench::IndexedText::new(whole.into_string());
            let _ = tx.send(Wake::Rest(RestRead {
                whole,
                warning,
                error,
                shrank_from,
            }));
        })
        .context("cannot start the file reader")?;
    Ok(())
}

/// Watches the directory of the followed file (so a rotation's rename and create are seen as
/// well as writes) and wakes the loop for events that name the file. `None` when the platform's
/// watch cannot be set up (the 100 ms poll then does the work alone).
fn watch_file(
    path: &std::path::Path,
    tx: std::sync::mpsc::Sender<Wake>,
) -> Option<notify::RecommendedWatcher> {
    use notify::Watcher as _;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = path.file_name()?.to_owned();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(ev) = res
            && ev
                .paths
                .iter()
                .any(|p| p.file_name() == Some(name.as_os_str()))
        {
            let _ = tx.send(Wake::FileChanged);
        }
    })
    .ok()?;
    watcher
        .watch(dir, notify::RecursiveMode::NonRecursive)
        .ok()?;
    Some(watcher)
}

/// Longest a frame waits for the first rows of the scans a key started (see
/// [`crate::workbench::Workbench::wait_first_rows`]).
const FIRST_ROWS_WAIT: Duration = Duration::from_millis(10);

/// How often the timer wakes the loop when nothing else does.
const TICK: Duration = Duration::from_millis(100);

/// The shortest time between two frames drawn only for background work (a count, the
/// indexing, a tab's pass going on): drawn at every result, they took a tenth of a core
/// from the passes themselves on a large input. What a key, a paste or a file change asks
/// for is drawn at once, and so is what follows a key within [`AFTER_INPUT`].
const BACKGROUND_FRAME: Duration = Duration::from_millis(50);

/// How long after a key (or another terminal event, or growth of a followed file) every
/// result is drawn at once: the scans it started send their first rows within milliseconds.
const AFTER_INPUT: Duration = Duration::from_millis(300);

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    term_signal: &AtomicBool,
    mut store: Option<&mut SessionStore>,
    rest: Option<(RestOfFile, bool)>,
) -> anyhow::Result<()> {
    let mut clip = clipboard::Clipboard::new();
    let depth = theme::Depth::from_env();
    let mut last_save = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel::<Wake>();
    // The workers wake the loop as soon as they have sent a result.
    let work_tx = tx.clone();
    app.wb.set_waker(Some(Arc::new(move || {
        let _ = work_tx.send(Wake::Work);
    })));
    let term_tx = tx.clone();
    std::thread::Builder::new()
        .name("rxw-terminal-reader".into())
        .spawn(move || {
            loop {
                let ev = event::read();
                rxw_core::trace_mark!("term event");
                let failed = ev.is_err();
                if term_tx.send(Wake::Term(ev)).is_err() || failed {
                    return;
                }
            }
        })
        .context("cannot start the terminal reader")?;
    let timer_tx = tx.clone();
    std::thread::Builder::new()
        .name("rxw-timer".into())
        .spawn(move || {
            while timer_tx.send(Wake::Tick).is_ok() {
                std::thread::sleep(TICK);
            }
        })
        .context("cannot start the timer")?;
    if let (Some((rest, _)), Some(loading)) = (&rest, &app.loading) {
        read_rest(rest, Arc::clone(&loading.read), tx.clone())?;
    }
    // File events wake the loop at once; the timer's poll stays as the fallback.
    let mut _watcher = app.follower.as_ref().and_then(|f| {
        let w = watch_file(f.path(), tx.clone());
        if w.is_none() && app.following {
            app.message = Some(format!(
                "no file events for {}: polling it every 100 ms",
                f.path().display()
            ));
        }
        w
    });
    // Merged logs followed: a watch on each (a write to any wakes the loop).
    let _fleet_watchers: Vec<notify::RecommendedWatcher> = app
        .fleet
        .as_ref()
        .map(|(fleet, _)| {
            fleet
                .paths()
                .filter_map(|p| watch_file(p, tx.clone()))
                .collect()
        })
        .unwrap_or_default();
    // The first frame waits briefly for the window scan, so it already shows the matches.
    app.wb.wait_window(Duration::from_millis(150));
    let mut dirty = true;
    // Changes from background work only: drawn once BACKGROUND_FRAME has passed.
    let mut behind = false;
    let mut last_frame = Instant::now();
    let mut last_input = Instant::now();
    let mut keys: Vec<KeyEvent> = Vec::new();
    let mut last_paste: Option<Instant> = None;
    loop {
        if behind
            && (last_input.elapsed() < AFTER_INPUT || last_frame.elapsed() >= BACKGROUND_FRAME)
        {
            dirty = true;
        }
        if dirty && !app.wb.results.window_ready {
            // A key started scans: their first rows come within milliseconds, and a frame
            // drawn before them is drawn again at once (on a slow terminal, the second
            // frame waits behind the first's output).
            app.wb.wait_first_rows(FIRST_ROWS_WAIT);
            app.poll();
        }
        if dirty {
            rxw_core::trace_mark!("draw start");
            terminal.draw(|f| render::draw_at(f, app, depth))?;
            rxw_core::trace_mark!("draw flushed");
            dirty = false;
            behind = false;
            last_frame = Instant::now();
        }
        if app.quit || term_signal.load(Ordering::Relaxed) {
            return Ok(());
        }
        // Sleep until anything arrives (or a held-back frame is due), then take in
        // everything waiting before drawing.
        let first = if behind {
            match rx.recv_timeout(BACKGROUND_FRAME.saturating_sub(last_frame.elapsed())) {
                Ok(w) => w,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            }
        } else {
            let Ok(w) = rx.recv() else {
                return Ok(());
            };
            w
        };
        let mut next = Some(first);
        let mut tick = false;
        let mut file_changed = false;
        let mut held: Option<Wake> = None;
        while let Some(wake) = next
            .take()
            .or_else(|| held.take())
            .or_else(|| rx.try_recv().ok())
        {
            match wake {
                Wake::Term(ev) => {
                    last_input = Instant::now();
                    read_burst(
                        app,
                        ev?,
                        &rx,
                        &mut keys,
                        &mut last_paste,
                        &mut tick,
                        &mut held,
                    )?;
                    dirty = true;
                }
                Wake::Work => rxw_core::trace_mark!("wake work"),
                Wake::Tick => tick = true,
                Wake::FileChanged => file_changed = true,
                Wake::Rest(read) => {
                    dirty = true;
                    if let Some((rest, follow)) = &rest {
                        let total = app.finish_loading(read, &rest.path);
                        if let Some(total) = total {
                            app.set_follower(
                                crate::workbench::follow::Follower::new(&rest.path, total),
                                *follow,
                            );
                            _watcher = watch_file(&rest.path, tx.clone());
                        }
                    }
                }
            }
            if app.quit {
                break;
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
                Effect::SavePreset {
                    key,
                    leave_out_failing,
                } => {
                    let failing = if leave_out_failing {
                        presets::FailingTests::LeaveOut
                    } else {
                        presets::FailingTests::Refuse
                    };
                    app.message = Some(match save_user_preset(app, &key, failing) {
                        Ok(msg) => msg,
                        Err(e) => format!("could not save the preset: {e}"),
                    });
                }
            }
            dirty = true;
        }
        if tick && app.loading.is_some() {
            // The reading progress in the input title.
            behind = true;
        }
        if (tick || file_changed) && app.tick() {
            // Growth of a followed file: its scans' results are drawn as they come too.
            dirty = true;
            last_input = Instant::now();
        }
        if app.poll() {
            rxw_core::trace_mark!("polled: changed");
            behind = true;
        }
        if tick
            && app.session_dirty
            && last_save.elapsed() > Duration::from_secs(2)
            && let Some(store) = store.as_deref_mut()
        {
            autosave(app, store);
            last_save = Instant::now();
            dirty = true;
        }
    }
}

/// Saves the session now. A failure (the state directory is not writable, the disk is full) is
/// shown in the status bar until a later save succeeds; the session stays dirty, so it is
/// retried.
pub fn autosave(app: &mut App, store: &mut SessionStore) {
    match store.save_app(app) {
        Ok(()) => {
            app.session_dirty = false;
            app.save_error = None;
        }
        Err(e) => {
            app.save_error = Some(format!(
                "session not saved to {}: {e}",
                store.path().display()
            ));
        }
    }
}

/// Saves the current pattern as preset `key` in the user registry and reloads the browser.
fn save_user_preset(
    app: &mut App,
    key: &str,
    failing: presets::FailingTests,
) -> anyhow::Result<String> {
    let dir = crate::presets::load::config_dir()
        .context("no config directory (set HOME or XDG_CONFIG_HOME)")?;
    let (path, left_out) = presets::save_to_user_registry(&dir, key, &app.wb, failing)?;
    // The browser and the lens run the registry with the new preset in it.
    app.reload_presets(load_presets(), key);
    Ok(match left_out {
        0 => format!("saved preset {key} to {}", path.display()),
        n => format!(
            "saved preset {key} to {} without the {n} failing test line{} in its examples",
            path.display(),
            if n == 1 { "" } else { "s" }
        ),
    })
}

/// Longest a burst is read before it is applied and a frame drawn, so a paste that streams in
/// for seconds still shows progress and a Ctrl-C behind it is served promptly.
const BURST_READ_LIMIT: Duration = Duration::from_millis(40);
/// How long a burst waits for its next event from the reader thread (which parses the bytes
/// the terminal sent as fast as they come).
const BURST_GAP: Duration = Duration::from_millis(1);
/// Most key events in one burst.
const BURST_MAX_KEYS: usize = 1 << 20;
/// A burst read this soon after a pasted one continues the paste (a paste arrives in chunks,
/// and the last chunk can be short).
const PASTE_CONTINUES: Duration = Duration::from_millis(150);

/// Takes `first` and every terminal event that follows within [`BURST_GAP`] of the last (up
/// to [`BURST_READ_LIMIT`]) and applies the key events as one burst: the pattern is compiled
/// and the scans started once per burst, not once per key, and a long burst is a paste from a
/// terminal without bracketed paste. Reading stops at Ctrl-C. A timer tick met meanwhile is
/// noted in `tick` (as is a file event); a worker's wake needs nothing (the loop polls after the
/// burst).
fn read_burst(
    app: &mut App,
    first: Event,
    rx: &std::sync::mpsc::Receiver<Wake>,
    keys: &mut Vec<KeyEvent>,
    last_paste: &mut Option<Instant>,
    tick: &mut bool,
    held: &mut Option<Wake>,
) -> anyhow::Result<()> {
    let started = Instant::now();
    rxw_core::trace_mark!("burst start");
    keys.clear();
    let mut flush = |app: &mut App, keys: &mut Vec<KeyEvent>| {
        if keys.is_empty() {
            return;
        }
        let continues = last_paste.is_some_and(|t| t.elapsed() < PASTE_CONTINUES);
        let burst = if continues {
            app::Burst::Pasted
        } else {
            app::Burst::of_len(keys.len())
        };
        app.handle_burst(keys, burst);
        if burst == app::Burst::Pasted {
            *last_paste = Some(Instant::now());
        }
        keys.clear();
    };
    let mut ev = first;
    loop {
        match ev {
            Event::Key(k) if k.kind != KeyEventKind::Release => {
                let quit = is_quit_key(&k);
                keys.push(k);
                if quit {
                    break;
                }
            }
            other => {
                flush(app, keys);
                handle_event(app, other);
            }
        }
        if app.quit || keys.len() >= BURST_MAX_KEYS || started.elapsed() >= BURST_READ_LIMIT {
            break;
        }
        // The next terminal event, if one comes within the gap; other wakes are noted.
        let next = loop {
            match rx.recv_timeout(BURST_GAP) {
                Ok(Wake::Term(ev)) => break Some(ev?),
                Ok(Wake::Work) => {}
                Ok(Wake::Tick | Wake::FileChanged) => *tick = true,
                Ok(rest @ Wake::Rest(_)) => {
                    // Kept for the loop: a burst does not take the file in.
                    *held = Some(rest);
                }
                Err(_) => break None,
            }
        };
        match next {
            Some(e) => ev = e,
            None => break,
        }
    }
    flush(app, keys);
    rxw_core::trace_mark!("burst applied");
    Ok(())
}

fn is_quit_key(k: &KeyEvent) -> bool {
    k.code == crossterm::event::KeyCode::Char('c') && k.modifiers == KeyModifiers::CONTROL
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
