//! The result tabs: one trait, one file per tab, one registry.
//!
//! A result tab is a component in the manner of gitui's `Component` / `DrawableComponent`: it
//! owns its state (a scroll offset, a selection, a recorded trace, a worker's latest answer),
//! handles the actions routed to it and says whether it used them ([`Handled`]), draws itself
//! from `&self` and a read-only [`DrawCx`], takes clicks and wheel turns inside its body, and
//! brings its own key bindings ([`Tab::keymap`]), which join the workbench's keymap, so the
//! help overlay and the footer list them like any other binding.
//!
//! A tab never reaches into another tab or into the app. It changes the [`Workbench`] (pattern,
//! tests, replacement, breakpoints) through [`TabCx::wb`], writes what other tabs read into
//! [`Shared`], and asks the app for the rest with a [`Request`] (select a match, jump to it,
//! say something in the status bar, copy to the clipboard, recompile after it changed the
//! pattern). The app tells every tab what happened around it with [`TabEvent`]s.
//!
//! # How to add a tab
//!
//! Write `src/tui/tabs/NAME.rs` with a struct that implements [`Tab`] (`id`, `title`, `update`
//! and `draw` are required; the rest have defaults; `face!("Title", KEYS)` writes `id`, `title`
//! and `keymap`, `face!("Title", KEYS, Editor)` the `context` too) and a `pub const ID: TabId`.
//! If it has keys of its own, give it a `static` table of [`Binding`]s (rows made with
//! `Context::bind`, or `Context::hint` for the footer too; actions
//! `Action::Tab(ID.command("…"))`) and return it from [`Tab::keymap`]; the
//! help overlay and the footer then show them, and Alt-digit picks the tab by its place in the
//! registry. Then register it: `pub mod NAME;` below and one line in [`registry`]. Work that
//! takes long (a scan, a query) runs on a thread the tab starts; [`Tab::poll`] is called on
//! every turn of the event loop (at least every 100 ms) to take its answers in, and returns
//! whether the screen must be drawn again.
//!
//! The registry is an ordered `Vec<Box<dyn Tab>>` rather than an enum over the tabs: an enum
//! would make every new tab edit the enum and each of its matches, which is what this module
//! exists to avoid, and one virtual call per tab per frame or key costs nothing measurable next
//! to drawing the frame.

/// A tab's face, inside its `impl Tab`: [`Tab::id`] its module's `ID`, [`Tab::title`] the title
/// given, [`Tab::keymap`] the table given (none: the default, no keys of its own), and
/// [`Tab::context`] the context given (none: the default, a list).
macro_rules! face {
    ($title:literal) => {
        fn id(&self) -> $crate::tui::action::TabId {
            ID
        }

        fn title(&self) -> &'static str {
            $title
        }
    };
    ($title:literal, $keys:expr) => {
        $crate::tui::tabs::face!($title);

        fn keymap(&self) -> &'static [$crate::tui::action::Binding] {
            $keys
        }
    };
    ($title:literal, $keys:expr, $context:ident) => {
        $crate::tui::tabs::face!($title, $keys);

        fn context(&self) -> $crate::tui::action::Context {
            $crate::tui::action::Context::$context
        }
    };
}
pub(crate) use face;

/// What a buffer shows, a line of text per row (the tabs' unit tests read panes this way).
#[cfg(test)]
pub(crate) fn text_of(buf: &ratatui::buffer::Buffer) -> String {
    let mut s = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

pub mod cases;
pub mod code;
pub mod debug;
pub mod explain;
pub mod groups;
pub mod jobs;
pub mod lens;
pub mod matches;
pub mod presets;
pub mod replace;
pub mod timeline;

use super::action::{Action, Context};
pub use super::action::{Binding, Effect, TabCommand, TabId};
use super::presets::PresetBrowser;
use super::theme::Palette;
use crate::Span;
use crate::engine::trace::Trace;
use crate::workbench::Workbench;
use ratatui::Frame;
use ratatui::layout::Rect;
use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

/// Every result tab, in display order (Alt-1 picks the first). Adding a tab is one line here
/// plus its module above.
pub fn registry(presets: PresetBrowser) -> Vec<Box<dyn Tab>> {
    vec![
        Box::new(matches::MatchesTab::default()),
        Box::new(groups::GroupsTab::default()),
        Box::new(explain::ExplainTab::default()),
        Box::new(replace::ReplaceTab),
        Box::new(presets::PresetsTab::new(presets)),
        Box::new(cases::TestsTab::default()),
        Box::new(code::CodeTab::default()),
        Box::new(debug::DebugTab::default()),
        Box::new(lens::LensTab::default()),
        Box::new(jobs::JobsTab),
        Box::new(timeline::TimelineTab),
    ]
}

/// Whether a tab used an action, a click or a wheel turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handled {
    /// It did: nothing else sees it.
    Consumed,
    /// It did not.
    NotConsumed,
}

/// What a tab asks of the app, which owns the focus, the input view and the event loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Make match `i` (an index into the full scan's spans) current and scroll to it.
    SelectMatch(usize),
    /// Show the current match in the input and give the input the keyboard.
    JumpToMatch,
    /// Put the input cursor at this byte and scroll the input to it; the keyboard stays with
    /// the tab (the operator views step through hits and lines this way).
    JumpTo(usize),
    /// The tab changed the pattern, flavor or flags: compile and scan again.
    PatternChanged,
    /// The tab changed something the session keeps (the replacement, the tests).
    SessionDirty,
    /// A message for the status bar.
    Message(String),
    /// A side effect for the event loop (the clipboard).
    Effect(Effect),
    /// The tab replaced the input text: scan it again.
    InputReplaced,
    /// Show this tab (the Explain tab's attack opens the Debug tab).
    ShowTab(TabId),
    /// Narrow the lines shown to this time range (the Timeline's bucket), the other filters
    /// staying.
    TimeRange(crate::input::time_range::TimeRange),
    /// Ask the user for a file path before writing (never a silent write): a prompt titled
    /// `title`, offering `default`; Enter sends [`Action::Answer`] with `answer` to the tab,
    /// Esc writes nothing.
    AskPath {
        /// What is asked ("write the registry for clickhouse to").
        title: String,
        /// The path offered.
        default: String,
        /// Keys the prompt names besides Enter and Esc ("Ctrl-R next engine").
        hint: String,
        /// The command the answer is for.
        answer: TabCommand,
    },
}

/// State that one tab writes and others read.
#[derive(Debug, Default)]
pub struct Shared {
    /// The Debug tab's recorded run: the Explain tab draws each node's steps from it.
    pub trace: Option<Arc<Trace>>,
    /// The registry as reloaded after a save, and the key to select, until the Presets tab
    /// takes it ([`TabEvent::PresetsReloaded`]).
    pub reloaded_presets: Option<(PresetBrowser, String)>,
}

/// What a tab may change while it handles an action, a mouse event or an event.
pub struct TabCx<'a> {
    /// The workbench.
    pub wb: &'a mut Workbench,
    /// State shared between tabs.
    pub shared: &'a mut Shared,
    /// The current match: an index into the full scan's spans.
    pub selected: usize,
    /// The tab's body on screen.
    pub body: Rect,
    /// Colour or not.
    pub palette: Palette,
    /// For logs merged into one input: which log each line comes from.
    pub sources: Option<&'a crate::tui::gutter::SourceGutter>,
    /// The matches on the lines the filters show (indices into the full scan's spans),
    /// when they leave some out; `None`: every match is shown.
    pub shown_matches: Option<&'a [u32]>,
    /// The lines the combined filters show (ascending) among the lines they have classified
    /// so far (the number), when they are on; `None`: no combined filter (the workbench's own
    /// line filter is asked through `wb`).
    pub shown_lines: Option<(&'a [u32], usize)>,
    requests: &'a mut Vec<Request>,
}

impl<'a> TabCx<'a> {
    /// A context over these parts; the app takes `requests` in afterwards.
    pub fn new(
        wb: &'a mut Workbench,
        shared: &'a mut Shared,
        selected: usize,
        body: Rect,
        palette: Palette,
        sources: Option<&'a crate::tui::gutter::SourceGutter>,
        requests: &'a mut Vec<Request>,
    ) -> TabCx<'a> {
        TabCx {
            wb,
            shared,
            selected,
            body,
            palette,
            sources,
            shown_matches: None,
            shown_lines: None,
            requests,
        }
    }

    /// Asks the app for something (done once the tab returns).
    pub fn request(&mut self, r: Request) {
        self.requests.push(r);
    }

    /// Says `msg` in the status bar.
    pub fn message(&mut self, msg: impl Into<String>) {
        self.request(Request::Message(msg.into()));
    }

    /// Rows of the tab's body.
    pub fn body_rows(&self) -> usize {
        self.body.height.max(1) as usize
    }

    /// Where a line (from 0) is, as the user names it (`line_place`).
    pub fn line_place(&self, line: usize) -> String {
        line_place(self.sources, line)
    }
}

/// Whether line `line` (from 0) is shown (no filter hides it): among the combined filters' `lines` when they are
/// on, else among the line filter's rows when it is on; every line when neither is. A line
/// the filters have not classified yet (a large input, still being read) counts as shown: it
/// is not known to be hidden.
pub fn line_shown(
    lines: Option<(&[u32], usize)>,
    filter: &crate::workbench::filter::LineFilter,
    line: usize,
) -> bool {
    let among = |rows: &[u32]| u32::try_from(line).is_ok_and(|l| rows.binary_search(&l).is_ok());
    match lines {
        Some((_, classified)) if line >= classified => true,
        Some((rows, _)) => among(rows),
        None if filter.active() => line >= filter.decided() || among(filter.rows()),
        None => true,
    }
}

/// How a line (from 0) is named to the user: its log and its own line there when the input
/// is merged from several logs (`b.log:12`), else its number (`12`).
fn line_name(sources: Option<&crate::tui::gutter::SourceGutter>, line: usize) -> String {
    match sources.and_then(|g| g.place(line)) {
        Some((tag, own)) => format!("{tag}:{own}"),
        None => (line + 1).to_string(),
    }
}

/// Where a line (from 0) is, in a sentence: `b.log:12` for a merged input, else `line 12`.
fn line_place(sources: Option<&crate::tui::gutter::SourceGutter>, line: usize) -> String {
    match sources.and_then(|g| g.place(line)) {
        Some((tag, own)) => format!("{tag}:{own}"),
        None => format!("line {}", line + 1),
    }
}

/// What a tab draws from: read-only.
pub struct DrawCx<'a> {
    /// The workbench.
    pub wb: &'a Workbench,
    /// State shared between tabs.
    pub shared: &'a Shared,
    /// The current match: an index into the full scan's spans.
    pub selected: usize,
    /// Colour or not.
    pub palette: Palette,
    /// Whether the results pane has the keyboard.
    pub focused: bool,
    /// Whether the help overlay is open (it takes the keyboard).
    pub help: bool,
    /// Show spaces, tabs and line ends.
    pub show_whitespace: bool,
    /// For logs merged into one input: which log each line comes from.
    pub sources: Option<&'a crate::tui::gutter::SourceGutter>,
    /// The matches on the lines the filters show (indices into the full scan's spans),
    /// when they leave some out; `None`: every match is shown.
    pub shown_matches: Option<&'a [u32]>,
}

impl DrawCx<'_> {
    /// How a line (from 0) is named to the user: its log and its own line there when the
    /// input is merged from several logs (`b.log:12`), else its number (`12`).
    pub fn line_name(&self, line: usize) -> String {
        line_name(self.sources, line)
    }

    /// Where a line (from 0) is, in a sentence (`line_place`).
    pub fn line_place(&self, line: usize) -> String {
        line_place(self.sources, line)
    }

    /// Whether the tab takes typed keys now: the results have the focus and no overlay is up
    /// (an editor tab then shows its cursor).
    pub fn typing(&self) -> bool {
        self.focused && !self.help
    }
}

/// Things that happen around the tabs, told to each of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TabEvent {
    /// The tab became the one shown (Alt-digit, F6).
    Shown,
    /// The current match went back to the first (a new pattern compiled, the input was
    /// reloaded): lists scroll back to their top.
    SelectionReset,
    /// The current match moved ([`TabCx::selected`] has it).
    SelectionMoved,
    /// New scan results were taken in.
    ResultsChanged,
    /// The preset registry was reloaded ([`Shared::reloaded_presets`] has it).
    PresetsReloaded,
}

/// What the shown tab marks in the input pane.
#[derive(Debug, Clone, Copy, Default)]
pub struct InputMarks<'a> {
    /// A position to mark (the matcher's, in the Debug tab).
    pub position: Option<usize>,
    /// Steps per input position and the largest count, drawn as a heatmap.
    pub heat: Option<(&'a HashMap<usize, u64>, u64)>,
}

/// A result tab. See the module documentation for how to add one.
pub trait Tab: Any {
    /// Its identity.
    fn id(&self) -> TabId;

    /// Its title in the tab bar (the first three characters are its short label).
    fn title(&self) -> &'static str;

    /// Which of the shared bindings apply while it has the keyboard: [`Context::List`] (arrows
    /// move, `q` quits), [`Context::Editor`] (characters type) or [`Context::Tab`] (only its
    /// own and the global ones).
    fn context(&self) -> Context {
        Context::List
    }

    /// Its own bindings (actions [`Action::Tab`] with its commands, or shared actions it
    /// gives a meaning). Global ones apply anywhere; the others only while it is shown.
    fn keymap(&self) -> &'static [Binding] {
        &[]
    }

    /// Handles an action while it is shown and has the keyboard ([`Action::Edit`],
    /// [`Action::Activate`]) or one of its commands ([`Action::Tab`], whether shown or not).
    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled;

    /// Draws the tab's body into `area`.
    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx);

    /// A click at `(col, row)` of its body (both counted from the body's top left).
    fn click(&mut self, _col: u16, _row: u16, _cx: &mut TabCx) -> Handled {
        Handled::NotConsumed
    }

    /// A wheel turn over its body: `delta` lines, negative is up.
    fn wheel(&mut self, _delta: i32, _cx: &mut TabCx) -> Handled {
        Handled::NotConsumed
    }

    /// Something happened (told to every tab, shown or not).
    fn on_event(&mut self, _event: TabEvent, _cx: &mut TabCx) {}

    /// Takes in background work; returns whether the screen changed. Called on every turn of
    /// the event loop, shown or not.
    fn poll(&mut self, _cx: &mut TabCx) -> bool {
        false
    }

    /// Whether work of its own is still running on a worker (tests wait for it to end).
    fn busy(&self) -> bool {
        false
    }

    /// The pattern span to mark in the pattern pane while it is shown.
    fn pattern_mark(&self, _cx: &DrawCx) -> Option<Span> {
        None
    }

    /// What to mark in the input pane while it is shown.
    fn input_marks(&self) -> InputMarks<'_> {
        InputMarks::default()
    }

    /// A note for the status bar while it is shown.
    fn status(&self) -> Option<String> {
        None
    }

    /// Highlights to draw over the input's bytes `range` instead of the pattern's matches
    /// while it is shown (the Lens tab paints every preset key in its colour); `None` keeps
    /// the matches. Asked per line on screen, so only those lines cost anything.
    fn input_paints(
        &self,
        _range: std::ops::Range<usize>,
        _cx: &DrawCx,
    ) -> Option<Vec<(std::ops::Range<usize>, ratatui::style::Style)>> {
        None
    }
}

/// Moves the current match with a list key (shared with the Groups tab): up, down, a page
/// (the body's rows less the header), first, last; Enter jumps to the match in the input.
pub fn list_keys(action: &crate::tui::action::Action, cx: &mut TabCx) -> Handled {
    let page = cx.body_rows().saturating_sub(1) as isize;
    // With the filters leaving matches out, the list is the shown ones: its rows are
    // places in that list, mapped back to the scan's indices.
    let shown = cx.shown_matches;
    let n = shown.map_or(cx.wb.results.spans.len(), <[u32]>::len);
    let sel = match shown {
        Some(s) => s.partition_point(|&i| (i as usize) < cx.selected) as isize,
        None => cx.selected as isize,
    };
    let target = match action {
        crate::tui::action::Action::Activate => {
            cx.request(Request::JumpToMatch);
            return Handled::Consumed;
        }
        crate::tui::action::Action::Edit(crate::tui::action::Edit::Up) => sel - 1,
        crate::tui::action::Action::Edit(crate::tui::action::Edit::Down) => sel + 1,
        crate::tui::action::Action::Edit(crate::tui::action::Edit::PageUp) => sel - page,
        crate::tui::action::Action::Edit(crate::tui::action::Edit::PageDown) => sel + page,
        crate::tui::action::Action::Edit(crate::tui::action::Edit::Home) => 0,
        crate::tui::action::Action::Edit(crate::tui::action::Edit::End) => n as isize - 1,
        _ => return Handled::NotConsumed,
    };
    let target = target.clamp(0, (n as isize - 1).max(0)) as usize;
    let target = match shown {
        Some(s) => match s.get(target) {
            Some(&i) => i as usize,
            None => return Handled::Consumed,
        },
        None => target,
    };
    cx.request(Request::SelectMatch(target));
    Handled::Consumed
}

#[cfg(test)]
mod shown {
    use super::line_shown;
    use crate::workbench::filter::LineFilter;

    /// Regression: while the combined filters were still classifying a large input, a line
    /// past the classified ones counted as hidden, and Jobs' Enter passed over its events.
    #[test]
    fn a_line_not_yet_classified_counts_as_shown() {
        let off = LineFilter::default();
        let rows = [1u32, 3];
        let classifying = Some((&rows[..], 5));
        assert!(line_shown(classifying, &off, 1));
        assert!(line_shown(classifying, &off, 3));
        assert!(!line_shown(classifying, &off, 2));
        assert!(!line_shown(classifying, &off, 4));
        // Lines 5 on are not classified yet.
        assert!(line_shown(classifying, &off, 5));
        assert!(line_shown(classifying, &off, 900));
        // Once every line is classified, a line not among the rows is hidden.
        assert!(!line_shown(Some((&rows[..], 1000)), &off, 900));
        assert!(line_shown(None, &off, 900));
    }
}
