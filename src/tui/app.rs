//! The TUI state and `update(state, action)`.
//!
//! [`App`] is the [`Workbench`] plus what only a screen needs: focus, the result tabs (each
//! with its own state, see [`super::tabs`]), the input's scroll offsets, the help overlay and a
//! status message. [`App::update`] is the only place that changes it; it never touches the
//! terminal. Side effects (clipboard, saving a preset) are queued as [`Effect`]s for the event
//! loop to carry out.

use super::action::GoTarget;
use super::action::{Action, Context, CopyWhat, Edit, Effect, apply_buffer, apply_line};
use super::gutter::SourceGutter;
use super::keymap::action_for;
use super::layout::{self, Areas};
use super::popups::export::ExportPrompt;
use super::popups::filters::FilterPanel;
use super::popups::help::Help;
use super::popups::history::HistorySearch;
use super::popups::path::PathPrompt;
use super::popups::prompt::Prompt;
use super::popups::save::SavePrompt;
use super::popups::{Outcome, Popup, PopupCx, PopupDrawCx};
use super::presets::PresetBrowser;
use super::tabs::{DrawCx, Handled, Request, Shared, Tab, TabCommand, TabCx, TabEvent, TabId};
use super::theme::Palette;
use crate::workbench::export::ExportWhat;
use crate::workbench::filter::FilterMode;
use crate::workbench::filtered::{FilteredInputs, FilteredViews};
use crate::workbench::filters::{CombinedFilter, FilterInputs, Filters, PresetHits, SourceRule};
use crate::workbench::follow::{FleetFollower, Follower};
use crate::workbench::lens::LensState;
use crate::workbench::{Compiling, InputSource, Workbench};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

mod following;

/// A burst of at least this many key events read together is a paste, not typing: nobody
/// types 16 keys between two frames, and a terminal without bracketed paste sends a paste as
/// keys.
pub const PASTE_BURST_KEYS: usize = 16;

/// How the key events of one burst (everything read before the next frame) are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Burst {
    /// Typed: each key does what the keymap says.
    Typed,
    /// Pasted through a terminal without bracketed paste: characters, Enter and Tab are text
    /// inserted in one edit (a tab in the pasted text must not move the focus); other keys
    /// still act, and Ctrl-C still quits.
    Pasted,
}

impl Burst {
    /// The burst kind for `keys` events read together.
    pub fn of_len(keys: usize) -> Burst {
        if keys >= PASTE_BURST_KEYS {
            Burst::Pasted
        } else {
            Burst::Typed
        }
    }
}

/// Work an update leaves for the end of its burst, so a burst of keys compiles the pattern and
/// starts the scans once, not once per key.
#[derive(Debug, Clone, Copy, Default)]
struct Deferred {
    /// The pattern, flavor or flags changed: recompile, then rescan.
    pattern: bool,
    /// The input changed: rescan.
    input: bool,
    /// The visible window moved: rescan the window.
    window: bool,
}

/// Which pane has the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// The pattern editor.
    Pattern,
    /// The input editor.
    Input,
    /// The result tabs.
    Results,
}

/// The languages a pattern can be copied as, in cycling order.
pub const LITERAL_LANGS: [&str; 4] = ["rust", "python", "js", "go"];

/// With a filter on, the window scan (groups for the lines on screen) covers the filtered
/// lines on screen only when they lie within this many bytes of each other.
pub const FILTER_WINDOW_BYTES: usize = 256 * 1024;

/// The whole TUI state.
pub struct App {
    /// The headless workbench.
    pub wb: Workbench,
    /// The focused pane.
    pub focus: Focus,
    /// The result tabs, in display order ([`super::tabs::registry`]).
    tabs: Vec<Box<dyn Tab>>,
    /// The tab shown: an index into `tabs`.
    shown: usize,
    /// State one tab writes and others read.
    pub shared: Shared,
    /// The popups over the panes, the top one last: it sees actions first.
    popups: Vec<Box<dyn Popup>>,
    /// First input line on screen.
    pub input_top: usize,
    /// First input column (chars) on screen.
    pub input_left: usize,
    /// The current match: an index into the full scan's spans.
    pub selected: usize,
    /// Show spaces, tabs and line ends.
    pub show_whitespace: bool,
    /// A message for the status bar.
    pub message: Option<String>,
    /// Screen size.
    pub size: Rect,
    /// Set when the user asked to quit.
    pub quit: bool,
    /// Set when something worth saving changed.
    pub session_dirty: bool,
    /// Patterns used before, and where Up and Down are among them.
    pub history: super::history::PatternHistory,
    /// Colour or not.
    pub palette: Palette,
    /// Next language for "copy as literal".
    pub literal_lang: usize,
    /// Side effects for the event loop.
    pub effects: Vec<Effect>,
    /// A warning about the input (invalid UTF-8 replaced), for the status bar.
    pub input_warning: Option<String>,
    /// Why the last session save failed, shown in the status bar until a save succeeds.
    pub save_error: Option<String>,
    /// Recompiling and rescanning left for the end of the current burst.
    deferred: Deferred,
    /// The input file, watched for growth when [`App::following`]; set for a file input.
    pub follower: Option<Follower>,
    /// Whether the input file is followed (`rxw -f FILE`, Ctrl-F).
    pub following: bool,
    /// Several logs followed merged (`rxw -f A B…`): new records are appended in time order,
    /// a late one at arrival ([`FleetFollower`]); the logs' names.
    pub fleet: Option<(FleetFollower, Vec<String>)>,
    /// With `--print` (or standard output redirected): Enter in the pattern pane accepts the
    /// pattern and leaves; leaving otherwise cancels.
    pub printing: bool,
    /// The pattern rxw put in the editor itself (the demo's, when neither a session nor the
    /// command line gave one): shown selected, it is replaced by what is typed or pasted
    /// first, and deleted whole by a delete key, as a browser's selected field is. Any other
    /// change to the pattern makes it the user's (it is a suggestion while the text is it).
    pub pattern_suggested: Option<String>,
    /// Whether Enter accepted the pattern (with [`App::printing`]).
    pub accepted: bool,
    /// Whether the input view sticks to the end as a followed file grows (it was at the end;
    /// scrolling up unsticks it, scrolling back to the end sticks it again).
    pub tail: bool,
    /// A large file still being read on a thread (the input holds its first lines so far).
    pub loading: Option<Loading>,
    /// Which log each line came from, when several were opened as one input.
    pub sources: Option<SourceGutter>,
    /// The filters besides the pattern's line filter (logs, level, time, a preset key),
    /// combined with it: the rows shown when any is on.
    pub filters: CombinedFilter,
    /// Bookmarked lines (from 0) per input ([`App::input_key`]), kept in the session.
    pub bookmarks: BTreeMap<String, BTreeSet<usize>>,
    /// The Jobs table, the Timeline and the Lens counts of the lines the filters show, fed
    /// as their rows grow, and whether the views show them now.
    filtered: (FilteredViews, bool),
}

/// The progress of reading the rest of a large file.
#[derive(Debug, Clone)]
pub struct Loading {
    /// Bytes read so far (the head included), updated by the reading thread.
    pub read: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// The file's size when it was opened.
    pub total: u64,
}

impl Loading {
    /// Progress from `read` bytes of `total`.
    pub fn new(read: u64, total: u64) -> Loading {
        Loading {
            read: std::sync::Arc::new(std::sync::atomic::AtomicU64::new(read)),
            total,
        }
    }

    /// How far reading has got, 0 to 100.
    pub fn percent(&self) -> u64 {
        let read = self.read.load(std::sync::atomic::Ordering::Relaxed);
        crate::progress::percent(read, self.total)
    }
}

impl App {
    /// A new app over `wb` for a screen of `size`; starts the first scan.
    pub fn new(wb: Workbench, presets: PresetBrowser, size: Rect, palette: Palette) -> App {
        let catalog = std::sync::Arc::clone(&presets.catalog);
        let mut app = App {
            wb,
            focus: Focus::Pattern,
            tabs: super::tabs::registry(presets),
            shown: 0,
            shared: Shared::default(),
            popups: Vec::new(),
            input_top: 0,
            input_left: 0,
            selected: 0,
            show_whitespace: false,
            message: None,
            size,
            quit: false,
            session_dirty: false,
            history: super::history::PatternHistory::default(),
            palette,
            literal_lang: 0,
            effects: Vec::new(),
            input_warning: None,
            save_error: None,
            deferred: Deferred::default(),
            follower: None,
            following: false,
            fleet: None,
            printing: false,
            pattern_suggested: None,
            accepted: false,
            tail: false,
            loading: None,
            sources: None,
            filters: CombinedFilter::default(),
            bookmarks: BTreeMap::new(),
            filtered: (FilteredViews::default(), false),
        };
        app.wb.lens.set_catalog(catalog);
        app.wb.compile();
        let w = app.window();
        app.wb.rescan(w);
        app
    }

    /// The layout for the current size.
    pub fn areas(&self) -> Areas {
        layout::areas(self.size)
    }

    /// Rows of input on screen.
    pub fn input_rows(&self) -> usize {
        layout::inner(self.areas().input).height.max(1) as usize
    }

    /// Rows of the result tab's body.
    pub fn body_rows(&self) -> usize {
        self.areas().body.height.max(1) as usize
    }

    /// The result tabs, in display order.
    pub fn tabs(&self) -> impl Iterator<Item = &dyn Tab> {
        self.tabs.iter().map(|t| t.as_ref())
    }

    /// The tab shown.
    pub fn shown_tab(&self) -> &dyn Tab {
        self.tabs[self.shown].as_ref()
    }

    /// The identity of the tab shown.
    pub fn active_tab(&self) -> TabId {
        self.shown_tab().id()
    }

    /// The tab of type `T`, if one is registered: for tests, which look inside a tab. The app
    /// and the tabs never downcast; they talk through actions, events and [`Shared`].
    pub fn tab_as<T: Tab>(&self) -> Option<&T> {
        self.tabs
            .iter()
            .find_map(|t| (t.as_ref() as &dyn std::any::Any).downcast_ref::<T>())
    }

    /// As [`App::tab_as`], mutable.
    pub fn tab_as_mut<T: Tab>(&mut self) -> Option<&mut T> {
        self.tabs
            .iter_mut()
            .find_map(|t| (t.as_mut() as &mut dyn std::any::Any).downcast_mut::<T>())
    }

    /// Runs the workbench and the Presets tab on a reloaded registry, selecting `key`.
    pub fn reload_presets(&mut self, browser: PresetBrowser, key: &str) {
        self.wb
            .lens
            .set_catalog(std::sync::Arc::clone(&browser.catalog));
        self.shared.reloaded_presets = Some((browser, key.to_string()));
        self.notify(TabEvent::PresetsReloaded);
        self.shared.reloaded_presets = None;
    }

    /// What the tabs draw from.
    pub fn draw_cx(&self) -> DrawCx<'_> {
        DrawCx {
            wb: &self.wb,
            shared: &self.shared,
            selected: self.selected,
            palette: self.palette,
            focused: self.focus == Focus::Results,
            help: self.help_open(),
            show_whitespace: self.show_whitespace,
            sources: self.source_gutter(),
            shown_matches: self.shown_matches(),
        }
    }

    /// The pattern span the shown tab marks in the pattern pane (the selected explain node,
    /// the Debug tab's step).
    pub fn pattern_mark(&self) -> Option<crate::Span> {
        self.shown_tab().pattern_mark(&self.draw_cx())
    }

    /// Runs `f` on tab `i` with a context over the app's parts, then does what it requested.
    fn with_tab<R>(&mut self, i: usize, f: impl FnOnce(&mut dyn Tab, &mut TabCx) -> R) -> R {
        let mut requests = Vec::new();
        let body = self.areas().body;
        let merged = self.source_gutter().is_some();
        let r = {
            let mut cx = TabCx::new(
                &mut self.wb,
                &mut self.shared,
                self.selected,
                body,
                self.palette,
                self.sources.as_ref().filter(|_| merged),
                &mut requests,
            );
            cx.shown_matches = self.filters.active().then(|| self.filters.matches());
            cx.shown_lines = self
                .filters
                .active()
                .then(|| (self.filters.rows(), self.filters.classified()));
            f(self.tabs[i].as_mut(), &mut cx)
        };
        self.take_requests(requests);
        r
    }

    /// Tells every tab (or only the shown one, for [`TabEvent::Shown`]) what happened.
    fn notify(&mut self, event: TabEvent) {
        if event == TabEvent::Shown {
            self.with_tab(self.shown, |t, cx| t.on_event(event, cx));
            return;
        }
        for i in 0..self.tabs.len() {
            self.with_tab(i, |t, cx| t.on_event(event, cx));
        }
    }

    fn take_requests(&mut self, requests: Vec<Request>) {
        for r in requests {
            match r {
                Request::SelectMatch(i) => self.move_to_match(i),
                Request::JumpToMatch => {
                    self.move_to_match(self.selected);
                    self.focus = Focus::Input;
                }
                Request::JumpTo(at) => self.jump_to(at),
                Request::PatternChanged => self.mark_pattern_changed(),
                Request::SessionDirty => self.session_dirty = true,
                Request::Message(m) => self.message = Some(m),
                Request::Effect(e) => self.effects.push(e),
                Request::InputReplaced => {
                    self.input_changed();
                    self.input_top = 0;
                    self.input_left = 0;
                    self.reset_selection();
                }
                Request::ShowTab(id) => self.apply(Action::ShowTab(id)),
                Request::TimeRange(r) => self.apply(Action::SetTimeRange(Some(r))),
                Request::AskPath {
                    title,
                    default,
                    hint,
                    answer,
                } => self
                    .popups
                    .push(Box::new(PathPrompt::new(title, &default, hint, answer))),
            }
        }
    }

    fn show_tab(&mut self, i: usize) {
        self.shown = i % self.tabs.len();
    }

    /// The byte range of the input lines on screen.
    ///
    /// With a filter on, the lines on screen need not be neighbours: the window spans from the
    /// first to the last, unless that is more than [`FILTER_WINDOW_BYTES`]; then it is the
    /// first line alone, and the other lines are coloured from the full scan's spans (whole
    /// matches, without group colours).
    pub fn window(&self) -> std::ops::Range<usize> {
        let input = &self.wb.input;
        if let Some(rows) = self.view_rows() {
            let top = self.input_top.min(rows.len());
            let shown = &rows[top..(top + self.input_rows()).min(rows.len())];
            let (Some(&first), Some(&last)) = (shown.first(), shown.last()) else {
                return 0..0;
            };
            let (first, last) = (first as usize, last as usize);
            let start = input.line_start(first);
            let end = input.shown_line_range(last).end;
            if end - start > FILTER_WINDOW_BYTES {
                return start..input.shown_line_range(first).end;
            }
            return start..end;
        }
        let last = (self.input_top + self.input_rows()).min(input.line_count()) - 1;
        let start = input.line_start(self.input_top.min(last));
        // The rows show at most SHOWN_LINE_BYTES of a line: a line of gigabytes is scanned
        // for the screen no further than the rows can show.
        let cap = self.input_rows().max(1) * crate::workbench::buffer::SHOWN_LINE_BYTES;
        let end = input.shown_line_range(last).end;
        if end - start > cap {
            // A line above the last is that long: the first row's line alone.
            return start..input.shown_line_range(self.input_top.min(last)).end;
        }
        start..end
    }

    /// The input line shown on screen row `row` of the input pane (filtered or not).
    pub fn line_on_row(&self, row: usize) -> Option<usize> {
        let i = self.input_top + row;
        match self.view_rows() {
            Some(rows) => rows.get(i).map(|&l| l as usize),
            None => (i < self.wb.input.line_count()).then_some(i),
        }
    }

    /// The input lines the view shows when a filter is on (ascending, as far as classified);
    /// `None` when every line is shown.
    pub fn view_rows(&self) -> Option<&[u32]> {
        if self.filters.active() {
            Some(self.filters.rows())
        } else if self.wb.filter.active() {
            Some(self.wb.filter.rows())
        } else {
            None
        }
    }

    /// Whether a filter hides lines.
    pub fn filtered(&self) -> bool {
        self.view_rows().is_some()
    }

    /// The matches on the lines shown (indices into the full scan's spans) when the filters
    /// leave some out; `None` when every match is shown.
    pub fn shown_matches(&self) -> Option<&[u32]> {
        self.filters.active().then(|| self.filters.matches())
    }

    /// How many rows the input view has: the filter's rows, or every line.
    pub fn view_len(&self) -> usize {
        match self.view_rows() {
            Some(rows) => rows.len(),
            None => self.wb.input.line_count(),
        }
    }

    /// The view row showing input line `line`: itself without a filter, else the first
    /// filtered row at or after it.
    fn row_of_line(&self, line: usize) -> usize {
        match self.view_rows() {
            Some(rows) => rows.partition_point(|&l| (l as usize) < line),
            None => line,
        }
    }

    /// Steps the source filter (only one log, or all but one) and keeps the cursor's line (or
    /// the nearest after it) on screen; one log has nothing to filter.
    fn step_source_filter(&mut self, action: &Action) {
        let Some(g) = self.source_gutter() else {
            self.message = Some("one log: the source filter needs several logs merged".into());
            return;
        };
        let n = g.tags.len();
        let tags = g.tags.clone();
        let mut filters = self.filters.filters().clone();
        // One log at a time, stepping on from the one shown (or hidden) alone now.
        filters.sources = match (action, filters.sources.take()) {
            (Action::SourceOnly, Some(SourceRule::Only(v))) if v.len() == 1 => {
                (v[0] + 1 < n).then(|| SourceRule::Only(vec![v[0] + 1]))
            }
            (Action::SourceOnly, _) => Some(SourceRule::Only(vec![0])),
            (_, Some(SourceRule::Hide(v))) if v.len() == 1 => {
                (v[0] + 1 < n).then(|| SourceRule::Hide(vec![v[0] + 1]))
            }
            _ => Some(SourceRule::Hide(vec![0])),
        };
        let label = filters.sources.as_ref().map(|r| r.label(&tags));
        self.set_filters(filters, self.wb.filter.mode());
        self.message = Some(match label {
            Some(l) => format!("source filter: {l} (Alt-k: several logs, and the other filters)"),
            None => "source filter off: every log's lines".into(),
        });
    }

    /// Classifies more lines for the combined filters (and takes in the lens's hits for a
    /// preset filter); returns whether rows or matches were added.
    fn refresh_filters(&mut self) -> bool {
        if !self.filters.active() {
            if self.filtered.1 {
                // Every view shows the whole input again.
                self.filtered = (FilteredViews::default(), false);
                self.wb.jobs.set_filtered(None);
                self.wb.timeline.set_filtered(None);
                self.wb.lens.set_filtered_counts(None);
                return true;
            }
            return false;
        }
        let added = self.refresh_filter_rows();
        self.refresh_filtered_views() || added
    }

    /// Feeds the rows the filters added to the Jobs table, the Timeline and the Lens counts
    /// of the lines shown, and hands them to the views; returns whether they changed.
    fn refresh_filtered_views(&mut self) -> bool {
        use crate::workbench::timeline_view::TimelineSource;
        let input = &self.wb.input;
        let gutter = self
            .sources
            .as_ref()
            .filter(|g| g.revision == input.revision() || (g.paged.is_some() && input.is_paged()));
        let place = |line: usize| {
            gutter
                .and_then(|g| g.source_place(line))
                .unwrap_or((0, line as u64 + 1))
        };
        // Only what a tab shown wants is fed (a view never shown costs nothing).
        let pattern = match self.wb.timeline.source() {
            TimelineSource::Pattern if self.wb.timeline.is_active() => self.wb.compiled().ok(),
            _ => None,
        };
        let changed = self.filtered.0.update(&FilteredInputs {
            input,
            filter: &self.filters,
            pattern,
            zoom: self.wb.timeline.zoom(),
            max_buckets: self.wb.timeline.max_buckets(),
            jobs: self.wb.jobs.is_active(),
            lens: &self.wb.lens,
            place: &place,
        });
        if !changed && self.filtered.1 {
            return false;
        }
        self.filtered.1 = true;
        let views = &self.filtered.0;
        self.wb
            .jobs
            .set_filtered(Some((views.jobs_version(), views.jobs())));
        self.wb
            .timeline
            .set_filtered(Some(views.timeline().cloned()));
        self.wb
            .lens
            .set_filtered_counts(Some(views.lens_counts().to_vec()));
        true
    }

    /// Classifies more lines for the combined filters; returns whether rows or matches were
    /// added.
    fn refresh_filter_rows(&mut self) -> bool {
        let lens = &self.wb.lens;
        let preset = self.filters.filters().preset.as_ref().and_then(|key| {
            let k = lens.keys().iter().position(|x| x == key)?;
            let scanned = match lens.state() {
                LensState::Done => usize::MAX,
                LensState::Scanning(at) | LensState::Stopped(at) => at,
                LensState::Idle => return None,
            };
            Some(PresetHits {
                hits: lens.hits(k),
                scanned,
            })
        });
        let input = &self.wb.input;
        let gutter = self
            .sources
            .as_ref()
            .filter(|g| g.revision == input.revision() || (g.paged.is_some() && input.is_paged()));
        let sources = |r: std::ops::Range<usize>| match gutter {
            Some(g) => g.sources_of(r),
            None => vec![None; r.len()],
        };
        self.filters.refresh(
            input,
            &FilterInputs {
                matched: &self.wb.filter,
                results: &self.wb.results,
                preset,
                sources: &sources,
            },
        )
    }

    /// Sets every filter at once (the filter panel's answer, a prompt's, a key's) and keeps
    /// the cursor's line (or the nearest shown after it) on screen.
    fn set_filters(&mut self, filters: Filters, mode: FilterMode) {
        if (filters.any() || mode != FilterMode::Off)
            && self.wb.input.line_count() > u32::MAX as usize
        {
            self.message = Some("the filters work on inputs of up to 4,294,967,295 lines".into());
            return;
        }
        if filters.preset.is_some() && !self.wb.lens.is_active() {
            // The key's hits come from the lens: it starts scanning now.
            self.wb.lens.activate(&self.wb.input);
        }
        self.wb.filter.set_mode(mode);
        self.wb.refresh_filter();
        self.filters.set(filters, mode);
        self.refresh_filters();
        self.session_dirty = true;
        let (line, _) = self.wb.input.cursor_position();
        let rows = self.input_rows();
        self.input_top = self.row_of_line(line).saturating_sub(rows / 3);
        self.clamp_input_top();
        self.window_moved();
        self.snap_selection();
    }

    /// With the filters leaving matches out, the current match becomes the first shown at
    /// or after it (the Matches list and n / p step through the shown ones).
    fn snap_selection(&mut self) {
        if let Some(shown) = self.shown_matches()
            && !shown.is_empty()
        {
            let p = shown.partition_point(|&i| (i as usize) < self.selected);
            self.selected = shown[p.min(shown.len() - 1)] as usize;
            self.notify(TabEvent::SelectionMoved);
        }
    }

    /// The match `delta` steps from the current one among those shown.
    fn step_match(&mut self, delta: isize) {
        match self.shown_matches() {
            Some([]) => {
                self.message = Some("no match on the lines the filters show".into());
            }
            Some(shown) => {
                let p = shown.partition_point(|&i| (i as usize) < self.selected);
                let on = shown.get(p).is_some_and(|&i| i as usize == self.selected);
                let target = match (delta > 0, on) {
                    (true, true) => p + 1,
                    (true, false) => p,
                    (false, _) => p.saturating_sub(1),
                };
                let i = shown[target.min(shown.len() - 1)] as usize;
                self.move_to_match(i);
            }
            None if delta > 0 => self.move_to_match(self.selected.saturating_add(1)),
            None => self.move_to_match(self.selected.saturating_sub(1)),
        }
    }

    /// Sets the pattern's line filter (Ctrl-L) with `context` lines, the other filters
    /// staying, and says what it shows.
    fn set_filter(&mut self, mode: FilterMode, context: usize) {
        self.wb.filter.set_context(context);
        let filters = self.filters.filters().clone();
        self.set_filters(filters, mode);
        if mode != FilterMode::Off && self.message.is_none() {
            self.message = Some(match mode {
                FilterMode::Matching => format!(
                    "showing lines with a match and {context} context lines (Alt-+ / Alt-- to change; Ctrl-L again: lines without a match)"
                ),
                _ => "showing lines without a match (Ctrl-L again: every line)".to_string(),
            });
        }
    }

    fn clamp_input_top(&mut self) {
        self.input_top = self.input_top.min(self.view_len().saturating_sub(1));
    }

    /// The key context: the top popup's, or the focused pane's.
    pub fn context(&self) -> Context {
        if let Some(context) = self.popups.last().and_then(|p| p.context()) {
            return context;
        }
        match self.focus {
            Focus::Pattern => Context::Pattern,
            Focus::Input => Context::Editor,
            Focus::Results => self.shown_tab().context(),
        }
    }

    /// Maps a key through the keymap and applies it.
    pub fn handle_key(&mut self, key: KeyEvent) {
        self.handle_burst(&[key], Burst::Typed);
    }

    /// Applies the key events read together before the next frame, then compiles and starts
    /// the scans once for all of them. A pasted burst inserts its text as one edit. Ctrl-C
    /// quits at once: the keys after it are dropped and nothing is compiled.
    pub fn handle_burst(&mut self, keys: &[KeyEvent], burst: Burst) {
        let mut pasted = String::new();
        for key in keys {
            if burst == Burst::Pasted
                && let Some(c) = pasted_char(key)
            {
                pasted.push(c);
                continue;
            }
            self.paste_keys(&mut pasted);
            let (context, shown) = (self.context(), self.active_tab());
            if let Some(a) = action_for(key, context, shown, self.wb.flavor.flag_letters()) {
                self.apply(a);
            }
            if self.quit {
                // The text pasted so far is in; what follows Ctrl-C is not wanted.
                return;
            }
        }
        self.paste_keys(&mut pasted);
        self.run_deferred();
    }

    fn paste_keys(&mut self, pasted: &mut String) {
        if !pasted.is_empty() {
            self.apply(Action::Edit(Edit::Paste(std::mem::take(pasted))));
        }
    }

    /// Takes in finished scan and compile work; returns whether the screen changed.
    pub fn poll(&mut self) -> bool {
        let filtered_rows = self.view_rows().map_or(0, <[u32]>::len);
        let len = self.wb.input.len();
        let mut changed = self.wb.poll();
        if self.following && self.tail && self.wb.input.len() != len {
            // A followed paged input still being indexed grows here: the view stays at its end.
            self.scroll_to_end();
        }
        if self.filters.filters().preset.is_some() {
            // A preset filter reads the lens's hits whichever tab is shown.
            changed |= self.wb.lens.sync(&self.wb.input);
        }
        if self.refresh_filters() {
            changed = true;
            self.snap_selection();
        }
        if let Some(rows) = self.view_rows() {
            let rows = rows.len();
            // The filtered view fills in as the scan goes: the window follows the rows on
            // screen (no request when they are the same).
            changed |= rows != filtered_rows;
            self.clamp_input_top();
            if self.following && self.tail {
                self.input_top = self.view_len().saturating_sub(self.input_rows());
            }
            let w = self.window();
            self.wb.rescan_window(w);
        }
        if self.wb.take_fresh_compile() {
            changed = true;
            if self.wb.compiled().is_ok() {
                self.reset_selection();
                let w = self.window();
                self.wb.rescan(w);
            }
        }
        if let Some(done) = self.wb.take_export() {
            self.message = Some(done.message());
            changed = true;
        }
        if changed {
            self.clamp_selection();
            self.notify(TabEvent::ResultsChanged);
        }
        for i in 0..self.tabs.len() {
            changed |= self.with_tab(i, |t, cx| t.poll(cx));
        }
        self.run_deferred();
        changed
    }

    /// Whether a tab still has work running on a worker (a Ctrl-G generation).
    pub fn tabs_busy(&self) -> bool {
        self.tabs.iter().any(|t| t.busy())
    }

    fn reset_selection(&mut self) {
        self.selected = 0;
        self.notify(TabEvent::SelectionReset);
    }

    fn clamp_selection(&mut self) {
        let n = self.wb.results.spans.len();
        if self.selected >= n {
            self.selected = n.saturating_sub(1);
        }
    }

    /// Applies one action, then compiles and rescans what it changed.
    pub fn update(&mut self, action: Action) {
        self.apply(action);
        self.run_deferred();
    }

    /// Applies one action, leaving compiling and scanning for [`App::run_deferred`].
    fn apply(&mut self, action: Action) {
        let action = match action {
            Action::Edit(Edit::Paste(s)) => {
                Action::Edit(Edit::Paste(pasted_line_ends(&s).into_owned()))
            }
            other => other,
        };
        if !matches!(
            action,
            Action::Copy(_) | Action::Resize(..) | Action::Wheel { .. }
        ) {
            self.message = None;
        }
        if !self.popups.is_empty() {
            match action {
                Action::Quit => self.quit = true,
                Action::Resize(w, h) => self.resize(w, h),
                action => self.popup_update(&action),
            }
            return;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::ToggleHelp => self.popups.push(Box::new(Help::new(self.wb.flavor))),
            Action::Back => {
                // Every long pass running stops at once.
                let mut stopped = Vec::new();
                if let Some((at, len)) = self.wb.stop_full_scan() {
                    let count = self.wb.results.count;
                    stopped.push(format!(
                        "count stopped at {}% (byte {at} of {len}): {count}+ matches so far; edit the pattern to count again",
                        crate::progress::percent(at as u64, len as u64)
                    ));
                }
                let len = self.wb.input.len();
                if let Some(at) = self.wb.lens.stop() {
                    stopped.push(format!(
                        "lens stopped at {}%: the hits so far stay; an edit scans again",
                        crate::progress::percent(at as u64, len as u64)
                    ));
                }
                if let Some(at) = self.wb.jobs.stop() {
                    stopped.push(format!(
                        "jobs stopped at {}%: the jobs read so far stay",
                        crate::progress::percent(at as u64, len as u64)
                    ));
                }
                if let Some(at) = self.wb.timeline.stop() {
                    stopped.push(format!(
                        "timeline stopped at {}%: the last chart stays; an edit counts again",
                        crate::progress::percent(at as u64, len as u64)
                    ));
                }
                if stopped.is_empty() {
                    self.remember_pattern_on_leaving();
                    // Esc leaves a text field for the results (where digits pick tabs and `q`
                    // quits), and from the results goes back to the pattern.
                    self.focus = match self.focus {
                        Focus::Pattern | Focus::Input => Focus::Results,
                        Focus::Results => Focus::Pattern,
                    };
                } else {
                    self.message = Some(stopped.join(" · "));
                }
            }
            Action::FocusNext => {
                self.remember_pattern_on_leaving();
                self.focus = match self.focus {
                    Focus::Pattern => Focus::Input,
                    Focus::Input => Focus::Results,
                    Focus::Results => Focus::Pattern,
                }
            }
            Action::FocusPrev => {
                self.remember_pattern_on_leaving();
                self.focus = match self.focus {
                    Focus::Pattern => Focus::Results,
                    Focus::Input => Focus::Pattern,
                    Focus::Results => Focus::Input,
                }
            }
            Action::ShowTab(id) => {
                if let Some(i) = self.tabs.iter().position(|t| t.id() == id) {
                    self.show_tab(i);
                    self.focus = Focus::Results;
                    self.notify(TabEvent::Shown);
                }
            }
            Action::ShowTabAt(i) => {
                if i < self.tabs.len() {
                    self.show_tab(i);
                    self.focus = Focus::Results;
                    self.notify(TabEvent::Shown);
                }
            }
            Action::NextTab => {
                self.show_tab(self.shown + 1);
                self.notify(TabEvent::Shown);
            }
            Action::Tab(TabCommand { tab, .. }) | Action::Answer(TabCommand { tab, .. }, _) => {
                if let Some(i) = self.tabs.iter().position(|t| t.id() == tab) {
                    self.with_tab(i, |t, cx| t.update(&action, cx));
                }
            }
            Action::CycleFlavor => {
                self.wb.cycle_flavor();
                self.mark_pattern_changed();
            }
            Action::CycleFlavorVersion => {
                let flavor = self.wb.flavor.next_version();
                self.wb.set_flavor(flavor);
                self.mark_pattern_changed();
                // The picker marks a release past its end of life as the help and docs do:
                // kept to reproduce it, not a release to start with.
                if let Some(date) = flavor.end_of_life() {
                    self.message = Some(format!(
                        "{}: past its end of life ({date}), kept to reproduce that release",
                        flavor.versioned_name()
                    ));
                }
            }
            Action::ToggleFlag(c) => match self.wb.toggle_flag(c) {
                Ok(()) => self.mark_pattern_changed(),
                Err(e) => self.message = Some(e.message),
            },
            Action::ToggleWhitespace => self.show_whitespace = !self.show_whitespace,
            Action::ToggleFollow => self.toggle_follow(),
            Action::Export => self.open_export(),
            Action::SourceOnly | Action::SourceHide => self.step_source_filter(&action),
            Action::CycleFilter => {
                let mode = self.wb.filter.mode().next();
                self.set_filter(mode, self.wb.filter.context());
            }
            Action::FilterContext(delta) => {
                let context = (self.wb.filter.context() as i64 + i64::from(delta)).clamp(0, 99);
                self.set_filter(self.wb.filter.mode(), context as usize);
                self.message = Some(format!("filter context: {context} lines"));
            }
            Action::NextMatch => self.step_match(1),
            Action::PrevMatch => self.step_match(-1),
            Action::Filters => self.open_filters(),
            Action::SetFilters(filters, mode) => {
                self.set_filters(*filters, mode);
                self.message = Some(self.filters_said());
            }
            Action::AskTimeRange => {
                let end = self.log_end();
                let now = self.filters.filters().time;
                self.popups.push(Box::new(Prompt::time_range(now, end)));
            }
            Action::SetTimeRange(range) => {
                let mut filters = self.filters.filters().clone();
                filters.time = range;
                self.set_filters(filters, self.wb.filter.mode());
                self.message = Some(match range {
                    Some(r) => format!(
                        "time range {} (Alt-r changes it, Alt-k removes it)",
                        super::popups::prompt::range_text(&r)
                    ),
                    None => "time range off: every time".into(),
                });
            }
            Action::AskGoTo => {
                let lines = self.wb.input.line_count()
                    - usize::from(
                        self.wb.input.ends_with_newline() && self.wb.input.line_count() > 1,
                    );
                let marks = self
                    .current_bookmarks()
                    .into_iter()
                    .map(|l| {
                        let r = self.wb.input.shown_line_range(l);
                        let text = self.wb.input.slice(r.start..r.end.min(r.start + 200));
                        (l, super::text::clip(&text, 200))
                    })
                    .collect();
                let end = self.log_end();
                self.popups.push(Box::new(Prompt::go_to(lines, end, marks)));
            }
            Action::GoTo(target) => self.go_to(target),
            Action::ToggleBookmark => self.toggle_bookmark(),
            Action::NextBookmark => self.step_bookmark(true),
            Action::PrevBookmark => self.step_bookmark(false),
            Action::Activate => {
                self.with_tab(self.shown, |t, cx| t.update(&Action::Activate, cx));
            }
            Action::Edit(e) => self.edit(e),
            Action::Copy(what) => self.copy(what),
            Action::HistorySearch => {
                let family = self.wb.flavor.family_name();
                let entries = self.history.entries(family).to_vec();
                self.popups
                    .push(Box::new(HistorySearch::new(family, entries)));
            }
            Action::InsertInPattern { before, after } => {
                self.history.stop_browsing();
                self.wb.pattern.insert(&format!("{before}{after}"));
                for _ in after.chars() {
                    self.wb.pattern.left();
                }
                self.focus = Focus::Pattern;
                self.mark_pattern_changed();
                self.message = Some(format!(
                    "inserted {before}{after} at the cursor (Ctrl-Z takes it back)"
                ));
            }
            Action::SetPattern(p) => {
                self.remember_pattern();
                self.wb.pattern.set(&p);
                self.focus = Focus::Pattern;
                self.mark_pattern_changed();
                self.message = Some(format!(
                    "pattern from the {} history (Ctrl-Z brings back the one it replaced)",
                    self.wb.flavor.family_name()
                ));
            }
            Action::SavePreset => {
                let key = self
                    .wb
                    .preset
                    .clone()
                    .unwrap_or_else(|| "my_pattern".to_string());
                let failing = super::presets::failing_tests(&self.wb);
                self.popups.push(Box::new(SavePrompt::new(&key, failing)));
            }
            Action::Click { col, row } => self.click(col, row),
            Action::Wheel { col, row, delta } => self.wheel(col, row, delta),
            Action::Resize(w, h) => self.resize(w, h),
        }
    }

    /// Moves the input cursor to byte `at` and scrolls the input view to show it (the
    /// operator tabs' jumps); the focus stays where it is.
    pub fn jump_to(&mut self, at: usize) {
        let at = at.min(self.wb.input.len());
        self.cursor_into_view(at);
        self.tail = self.at_end();
        self.window_moved();
    }

    /// Opens the filter panel over the filters as they are.
    fn open_filters(&mut self) {
        let tags = self
            .source_gutter()
            .map(|g| g.tags.clone())
            .unwrap_or_default();
        let keys = self.wb.lens.keys().to_vec();
        self.popups.push(Box::new(FilterPanel::new(
            self.filters.filters().clone(),
            self.wb.filter.mode(),
            tags,
            keys,
        )));
    }

    /// The filters on, in words, for the status bar: `only a.log · warn+ · 10:00..10:15 ·
    /// with a match · result hits`; empty when none is.
    pub fn filter_labels(&self) -> Vec<String> {
        let f = self.filters.filters();
        let mut out = Vec::new();
        if let Some(r) = &f.sources {
            let tags = self
                .source_gutter()
                .map(|g| g.tags.clone())
                .unwrap_or_default();
            out.push(r.label(&tags));
        }
        if let Some(l) = f.level {
            out.push(format!("{}+", l.name()));
        }
        if let Some(r) = &f.time {
            out.push(short_range(r));
        }
        match self.wb.filter.mode() {
            FilterMode::Off => {}
            FilterMode::Matching => out.push("with a match".into()),
            FilterMode::NonMatching => out.push("without a match".into()),
        }
        if let Some(k) = &f.preset {
            out.push(format!("{k} hits"));
        }
        out
    }

    /// What the filters show now, said after a change.
    fn filters_said(&self) -> String {
        let labels = self.filter_labels();
        if labels.is_empty() {
            return "filters off: every line".into();
        }
        format!(
            "filters: {} (all must hold; Alt-k changes or removes each)",
            labels.join(" · ")
        )
    }

    /// The instant relative times count back from: the log's last stamp, else now.
    fn log_end(&self) -> i64 {
        crate::workbench::filters::last_time(&self.wb.input)
            .unwrap_or_else(crate::input::time_range::now_millis)
    }

    /// Moves the cursor to a line or a time and shows it.
    fn go_to(&mut self, target: GoTarget) {
        let line = match target {
            GoTarget::Line(l) => l,
            GoTarget::Time(t) => match crate::workbench::filters::line_at_time(&self.wb.input, t) {
                Some(l) => l,
                None => {
                    self.message = Some(format!(
                        "no line is stamped at {} or later",
                        crate::input::timestamp::format_utc(t)
                    ));
                    return;
                }
            },
        };
        let line = line.min(self.wb.input.line_count().saturating_sub(1));
        self.jump_to(self.wb.input.line_start(line));
        let hidden = self
            .view_rows()
            .is_some_and(|rows| rows.binary_search(&(line as u32)).is_err());
        self.message = Some(if hidden {
            format!(
                "line {} is hidden by the filters: the next line shown is on screen",
                line + 1
            )
        } else {
            format!("line {}", line + 1)
        });
    }

    /// The key the input's bookmarks are kept under in the session: the file's path, `demo`
    /// or `typed`; `None` for standard input (it cannot be read again).
    pub fn input_key(&self) -> Option<String> {
        match &self.wb.source {
            InputSource::File(name) => {
                let path = std::fs::canonicalize(name).unwrap_or_else(|_| name.into());
                Some(format!("file:{}", path.display()))
            }
            InputSource::Demo => Some("demo".into()),
            InputSource::Typed => Some("typed".into()),
            InputSource::Stdin => None,
        }
    }

    /// The input's bookmarks, ascending.
    pub fn current_bookmarks(&self) -> Vec<usize> {
        self.input_key()
            .and_then(|k| self.bookmarks.get(&k))
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    fn toggle_bookmark(&mut self) {
        let Some(key) = self.input_key() else {
            self.message =
                Some("standard input cannot be read again: its lines are not bookmarked".into());
            return;
        };
        let line = self.wb.input.cursor_position().0;
        let marks = self.bookmarks.entry(key).or_default();
        let added = marks.insert(line);
        if !added {
            marks.remove(&line);
        }
        let n = marks.len();
        self.session_dirty = true;
        self.message = Some(if added {
            format!(
                "bookmarked line {} ({n} in all: Alt-. next, Alt-, previous, Alt-o lists them)",
                line + 1
            )
        } else {
            format!("bookmark on line {} taken off ({n} left)", line + 1)
        });
    }

    fn step_bookmark(&mut self, forward: bool) {
        let marks = self.current_bookmarks();
        if marks.is_empty() {
            self.message = Some("no bookmarks: Alt-h marks the cursor's line".into());
            return;
        }
        let line = self.wb.input.cursor_position().0;
        let next = if forward {
            marks
                .iter()
                .copied()
                .find(|&l| l > line)
                .or(marks.first().copied())
        } else {
            marks
                .iter()
                .rev()
                .copied()
                .find(|&l| l < line)
                .or(marks.last().copied())
        };
        if let Some(l) = next {
            let i = marks.iter().position(|&m| m == l).unwrap_or(0);
            self.go_to(GoTarget::Line(l));
            if !self
                .message
                .as_deref()
                .is_some_and(|m| m.contains("hidden"))
            {
                self.message = Some(format!(
                    "bookmark {} of {}: line {}",
                    i + 1,
                    marks.len(),
                    l + 1
                ));
            }
        }
    }

    /// Opens the export prompt, offering what is on screen: the lens hits in the Lens tab,
    /// the filtered lines with a filter on, else the matches.
    fn open_export(&mut self) {
        // The lines every filter shows, when they are on (classified as far as they are now).
        let rows = self.filters.active().then(|| self.filters.rows().to_vec());
        if self.filters.active() && !self.filters.complete() {
            self.message = Some(format!(
                "the filters have read {} of {} lines: an export of lines now writes the lines shown so far",
                self.filters.classified(),
                self.wb.input.line_count()
            ));
        }
        let filtered = rows.is_some();
        self.wb.set_export_rows(rows);
        let what = if self.active_tab() == super::tabs::lens::ID {
            ExportWhat::LensHits
        } else if self.wb.filter.active() || filtered {
            ExportWhat::Lines
        } else {
            ExportWhat::Matches
        };
        self.popups.push(Box::new(ExportPrompt::new(what)));
    }

    /// The top popup handles `action`; it is taken off the stack when it closes.
    fn popup_update(&mut self, action: &Action) {
        let Some(top) = self.popups.last_mut() else {
            return;
        };
        let mut then = None;
        let mut cx = PopupCx {
            wb: &mut self.wb,
            message: &mut self.message,
            effects: &mut self.effects,
            then: &mut then,
        };
        let closed = top.update(action, &mut cx) == Outcome::Close;
        if closed {
            self.popups.pop();
        }
        match then {
            Some(then) if closed => self.apply(then),
            Some(then) => {
                // The popup stays (the filter panel applies each change at once): its action
                // is for the app beneath it, and a popup it opens goes on top.
                let stack = std::mem::take(&mut self.popups);
                self.apply(then);
                let opened = std::mem::replace(&mut self.popups, stack);
                self.popups.extend(opened);
            }
            None => {}
        }
    }

    /// Whether the help overlay (or another covering popup) is open.
    pub fn help_open(&self) -> bool {
        self.popups.iter().any(|p| p.covers())
    }

    /// The open popup of type `T`, if any: for tests, which look inside a popup.
    pub fn popup<T: Popup>(&self) -> Option<&T> {
        self.popups
            .iter()
            .find_map(|p| (p.as_ref() as &dyn std::any::Any).downcast_ref::<T>())
    }

    /// Draws the popups, bottom first.
    pub fn draw_popups(&self, f: &mut ratatui::Frame, area: Rect) {
        if self.popups.is_empty() {
            return;
        }
        let cx = self.popup_draw_cx();
        for p in &self.popups {
            p.draw(f, area, &cx);
        }
    }

    /// What popups draw from.
    pub fn popup_draw_cx(&self) -> PopupDrawCx {
        PopupDrawCx {
            palette: self.palette,
            shown: self.active_tab(),
            tabs: self.tabs().map(|t| (t.id(), t.title())).collect(),
            flavor: self.wb.flavor,
        }
    }

    fn resize(&mut self, w: u16, h: u16) {
        self.size = Rect::new(0, 0, w, h);
        self.scroll_input_to_cursor();
        self.window_moved();
    }

    /// Recompiles after a change to the pattern, flavor or flags, and rescans when it compiled.
    pub fn pattern_changed(&mut self) {
        self.mark_pattern_changed();
        self.run_deferred();
    }

    /// Whether the pattern is still the one rxw suggested ([`App::pattern_suggested`]).
    pub fn suggestion_shown(&self) -> bool {
        self.pattern_suggested
            .as_deref()
            .is_some_and(|s| s == self.wb.pattern.text())
    }

    fn mark_pattern_changed(&mut self) {
        self.session_dirty = true;
        self.deferred.pattern = true;
    }

    fn input_changed(&mut self) {
        self.session_dirty = true;
        self.wb.source = crate::workbench::InputSource::Typed;
        self.deferred.input = true;
    }

    fn window_moved(&mut self) {
        self.deferred.window = true;
    }

    /// Does the work the updates since the last call left: one compile when the pattern
    /// changed, one rescan when the pattern or the input changed, else one window rescan when
    /// the view moved.
    pub fn run_deferred(&mut self) {
        let d = std::mem::take(&mut self.deferred);
        let mut rescan = d.input;
        if d.pattern && self.wb.request_compile() == Compiling::Done && self.wb.compiled().is_ok() {
            rescan = true;
            self.reset_selection();
        }
        let w = self.window();
        if rescan {
            self.wb.rescan(w);
        } else if d.window {
            self.wb.rescan_window(w);
        }
    }

    /// Makes match `i` current and scrolls the input and the list to it.
    pub fn select_match(&mut self, i: usize) {
        self.move_to_match(i);
        self.run_deferred();
    }

    fn move_to_match(&mut self, i: usize) {
        let n = self.wb.results.spans.len();
        if n == 0 {
            return;
        }
        self.selected = i.min(n - 1);
        let (start, _) = self.wb.results.spans[self.selected];
        self.cursor_into_view(start);
        self.notify(TabEvent::SelectionMoved);
        self.window_moved();
    }

    /// Puts the input cursor at byte `at` and scrolls the input view (a third from the top,
    /// a quarter from the left) only if it is not on screen already.
    fn cursor_into_view(&mut self, at: usize) {
        self.wb.input.set_cursor(at);
        let (line, col) = self.wb.input.position_of(at);
        let rows = self.input_rows();
        let row = self.row_of_line(line);
        if row < self.input_top || row >= self.input_top + rows {
            self.input_top = row.saturating_sub(rows / 3);
        }
        let width = layout::inner(self.areas().input).width as usize;
        let text_w = width.saturating_sub(self.gutter_width() + 1).max(1);
        if col < self.input_left || col >= self.input_left + text_w {
            self.input_left = col.saturating_sub(text_w / 4);
        }
    }

    /// Width of the input's line-number gutter (with the source tags of a merged input).
    pub fn gutter_width(&self) -> usize {
        let numbers = self.wb.input.line_count().to_string().len() + 1;
        match self.source_gutter() {
            Some(g) => g.tag_width + 1 + numbers,
            None => numbers,
        }
    }

    /// The source gutter, when the input is still the merged text it describes.
    pub fn source_gutter(&self) -> Option<&SourceGutter> {
        self.sources.as_ref().filter(|g| {
            g.revision == self.wb.input.revision()
                || (g.paged.is_some() && self.wb.input.is_paged())
        })
    }

    fn scroll_input_to_cursor(&mut self) {
        let (line, col) = self.wb.input.cursor_position();
        let line = self.row_of_line(line);
        let rows = self.input_rows();
        if line < self.input_top {
            self.input_top = line;
        } else if line >= self.input_top + rows {
            self.input_top = line + 1 - rows;
        }
        let width = layout::inner(self.areas().input).width as usize;
        let text_w = width.saturating_sub(self.gutter_width() + 1).max(1);
        if col < self.input_left {
            self.input_left = col;
        } else if col >= self.input_left + text_w {
            self.input_left = col + 1 - text_w;
        }
    }

    fn scroll_input(&mut self, delta: isize) {
        let max = self.view_len().saturating_sub(1) as isize;
        self.input_top = (self.input_top as isize + delta).clamp(0, max) as usize;
        self.tail = self.at_end();
        self.window_moved();
    }

    /// Takes in the rest of a file that opened on its head: appends it (matched incrementally,
    /// as a followed file's growth) and returns the file's bytes read in all, or `None` (said
    /// in the status bar) when reading failed; the input then keeps what was read.
    pub fn finish_loading(
        &mut self,
        read: crate::workbench::RestRead,
        path: &std::path::Path,
    ) -> Option<u64> {
        let loading = self.loading.take()?;
        // The file's bytes consumed, head and rest (what following goes on from).
        let total = loading.read.load(std::sync::atomic::Ordering::Relaxed);
        if let Some(w) = read.warning {
            // About the whole text, so it replaces the head's.
            self.input_warning = Some(w);
        }
        let stick = self.at_end() && self.input_top > 0;
        self.wb.extend_input(read.whole);
        if stick {
            self.scroll_to_end();
        }
        self.run_deferred();
        match read.error {
            None => {
                if let Some(size) = read.shrank_from {
                    // Following (if on) goes on from what was read, like after a truncation.
                    self.message = Some(format!(
                        "{}: the file shrank while it was read ({size} bytes when opened); showing the {total} bytes read",
                        path.display(),
                    ));
                }
                Some(total)
            }
            Some(e) => {
                self.message = Some(format!(
                    "{}: reading stopped ({e}); showing the first {} bytes",
                    path.display(),
                    self.wb.input.len()
                ));
                None
            }
        }
    }

    /// Why the input takes no edits when it is a file too large to edit: a 1 GB log is for
    /// reading, and an edit would copy it (a scan holds the text) and move everything after
    /// the cursor on every key. Typed and pasted input, and standard input, stay editable.
    pub fn read_only_file(&self) -> Option<String> {
        let len = self.wb.input.len();
        if self.wb.input.is_paged() {
            return Some(format!(
                "the input is read in pages from its file ({} MB): it is read-only here",
                len / 1_000_000
            ));
        }
        match &self.wb.source {
            InputSource::File(name) if len > EDITABLE_FILE_BYTES => Some(format!(
                "{name} is {} MB: files over {} MB are read-only here (an edit would copy the \
                 text); to edit a part, pipe it in: head -c 10M {name} | rxw",
                len / 1_000_000,
                EDITABLE_FILE_BYTES >> 20
            )),
            _ => None,
        }
    }

    /// Whether the last row of the input view is on screen.
    pub fn at_end(&self) -> bool {
        self.input_top + self.input_rows() >= self.view_len()
    }

    /// Scrolls the input view so its last rows fill the pane.
    fn scroll_to_end(&mut self) {
        self.input_top = self.view_len().saturating_sub(self.input_rows());
        self.window_moved();
    }

    /// Remembers the pattern on screen in its flavor family's history.
    pub fn remember_pattern(&mut self) {
        self.history
            .remember(self.wb.flavor.family_name(), self.wb.pattern.text());
    }

    /// A pattern is remembered in the history when its pane is left.
    fn remember_pattern_on_leaving(&mut self) {
        if self.focus == Focus::Pattern {
            self.remember_pattern();
        }
    }

    fn edit(&mut self, e: Edit) {
        if self.focus != Focus::Pattern || !matches!(e, Edit::Up | Edit::Down) {
            self.history.stop_browsing();
        }
        match self.focus {
            Focus::Pattern => {
                if e == Edit::Newline && self.printing {
                    // As fzf's Enter: the pattern is the answer.
                    self.remember_pattern();
                    self.accepted = true;
                    self.quit = true;
                    return;
                }
                if e == Edit::Newline {
                    self.remember_pattern();
                    self.move_to_match(self.selected.saturating_add(1));
                    return;
                }
                if matches!(e, Edit::Up | Edit::Down)
                    && !self
                        .history
                        .entries(self.wb.flavor.family_name())
                        .is_empty()
                {
                    // The pattern's history, as a shell's: Up the one before, Down back to
                    // what was being typed.
                    let current = self.wb.pattern.text().to_string();
                    let family = self.wb.flavor.family_name();
                    let recalled = if e == Edit::Up {
                        self.history.older(family, &current)
                    } else {
                        self.history.newer(family)
                    };
                    if let Some(p) = recalled {
                        self.wb.pattern.set(&p);
                        self.mark_pattern_changed();
                    }
                    return;
                }
                if matches!(e, Edit::Up | Edit::Down | Edit::PageUp | Edit::PageDown) {
                    let d = match e {
                        Edit::Up => -1,
                        Edit::Down => 1,
                        Edit::PageUp => -(self.input_rows() as isize),
                        _ => self.input_rows() as isize,
                    };
                    self.scroll_input(d);
                    return;
                }
                if self.suggestion_shown() {
                    self.pattern_suggested = None;
                    match &e {
                        Edit::Insert(_) | Edit::Paste(_) => self.wb.pattern.set(""),
                        Edit::Backspace
                        | Edit::Delete
                        | Edit::KillWord
                        | Edit::KillToStart
                        | Edit::KillToEnd => {
                            self.wb.pattern.set("");
                            self.mark_pattern_changed();
                            return;
                        }
                        _ => {}
                    }
                }
                if apply_line(&mut self.wb.pattern, &e) {
                    self.mark_pattern_changed();
                }
            }
            Focus::Input if self.loading.is_some() && modifies(&e) => {
                self.message =
                    Some("the file is still being read: edits wait until it is in".into());
            }
            Focus::Input if self.read_only_file().is_some() && modifies(&e) => {
                self.message = self.read_only_file();
            }
            Focus::Input if self.following && modifies(&e) => {
                self.message = Some(
                    "the input follows its file and takes no edits: Ctrl-F stops following".into(),
                );
            }
            Focus::Input if self.filtered() => {
                // The filtered view is for reading: it scrolls, and edits wait until the
                // filter is off (the rows would no longer be the lines they were built from).
                let page = self.input_rows() as isize;
                match e {
                    Edit::Up => self.scroll_input(-1),
                    Edit::Down => self.scroll_input(1),
                    Edit::PageUp => self.scroll_input(-page),
                    Edit::PageDown => self.scroll_input(page),
                    Edit::Home => self.scroll_input(-(self.input_top as isize)),
                    Edit::End => self.scroll_input(self.view_len() as isize),
                    Edit::Left | Edit::Right | Edit::WordLeft | Edit::WordRight => {}
                    _ => self.message = Some(
                        "the filtered view is read-only: Alt-k, c turns the filters off to edit"
                            .into(),
                    ),
                }
            }
            Focus::Input => {
                let page = self.input_rows();
                let before = self.wb.input.len();
                let changed = apply_buffer(&mut self.wb.input, &e, page);
                self.scroll_input_to_cursor();
                if changed || before != self.wb.input.len() {
                    self.input_changed();
                } else {
                    self.window_moved();
                }
            }
            Focus::Results => {
                self.with_tab(self.shown, |t, cx| t.update(&Action::Edit(e), cx));
            }
        }
    }

    fn copy(&mut self, what: CopyWhat) {
        let wb = &self.wb;
        let text = wb.input.text();
        let (payload, label) = match what {
            CopyWhat::Pattern => (Some(wb.pattern.text().to_string()), "pattern".to_string()),
            CopyWhat::Literal => {
                let lang = LITERAL_LANGS[self.literal_lang % LITERAL_LANGS.len()];
                self.literal_lang += 1;
                (
                    Some(crate::codegen::snippet::code_literal(
                        lang,
                        wb.pattern.text(),
                        wb.flavor,
                        wb.flags,
                    )),
                    format!("pattern as a {lang} literal"),
                )
            }
            CopyWhat::Match => (
                wb.match_at(self.selected)
                    .map(|m| wb.input.slice(m.start()..m.end()).into_owned()),
                "current match".to_string(),
            ),
            CopyWhat::GroupsJson if wb.input.is_paged() => {
                // The record's offsets are the whole text's, which a paged input does not hold.
                self.message = Some(
                    "groups as JSON are copied from inputs held in memory: run rxw find --json on this one"
                        .to_string(),
                );
                return;
            }
            CopyWhat::GroupsJson => (
                wb.match_at(self.selected).and_then(|m| {
                    let re = wb.shown_regex()?;
                    let groups = crate::wire::Groups::with_whole(re, text, &m);
                    serde_json::to_string_pretty(&groups).ok()
                }),
                "groups as JSON".to_string(),
            ),
            CopyWhat::ReplaceResult => match wb.replace_all() {
                Ok(s) => (Some(s), "replace result".to_string()),
                Err(e) => {
                    self.message = Some(format!("cannot replace: {}", e.message));
                    return;
                }
            },
        };
        match payload {
            Some(text) => self.effects.push(Effect::Copy { text, what: label }),
            None => self.message = Some(format!("nothing to copy: no {label}")),
        }
    }

    fn click(&mut self, col: u16, row: u16) {
        if layout::too_small(self.size) {
            return;
        }
        let a = self.areas();
        if layout::contains(a.pattern, col, row) {
            self.focus = Focus::Pattern;
            let inner = layout::inner(a.pattern);
            let offset =
                layout::pattern_scroll(self.areas().pattern, self.wb.pattern.cursor_chars());
            let c = (col.saturating_sub(inner.x) as usize) + offset;
            self.wb.pattern.set_cursor_chars(c);
        } else if layout::contains(a.input, col, row) {
            self.focus = Focus::Input;
            let inner = layout::inner(a.input);
            if layout::contains(inner, col, row)
                && let Some(line) = self.line_on_row((row - inner.y) as usize)
            {
                let c = (col - inner.x) as usize;
                let c = c.saturating_sub(self.gutter_width() + 1) + self.input_left;
                self.wb.input.move_to(line, c);
                self.window_moved();
            }
        } else if layout::contains(a.tabs, col, row) {
            self.focus = Focus::Results;
            let titles: Vec<&str> = self.tabs().map(|t| t.title()).collect();
            if let Some(i) = layout::tab_at(a.tabs, col, &titles) {
                // As a key would: the tab is told it is shown (Debug records its trace, the
                // operator views start their workers).
                self.show_tab(i);
                self.notify(TabEvent::Shown);
            }
        } else if layout::contains(a.results, col, row) {
            self.focus = Focus::Results;
            if layout::contains(a.body, col, row) {
                let (c, r) = (col - a.body.x, row - a.body.y);
                self.with_tab(self.shown, |t, cx| t.click(c, r, cx));
            }
        }
    }

    fn wheel(&mut self, col: u16, row: u16, delta: i32) {
        let a = self.areas();
        if layout::contains(a.input, col, row) {
            self.scroll_input(delta as isize * 3);
        } else if layout::contains(a.body, col, row) {
            let _: Handled = self.with_tab(self.shown, |t, cx| t.wheel(delta, cx));
        }
    }

    /// A short name for the flavor with its engine release and the flags, as shown beside the
    /// pattern: `python 3.11 /i`.
    pub fn flavor_label(&self) -> String {
        let flags = self.wb.flags.letters(self.wb.flavor);
        let flavor = self.wb.flavor.label();
        if flags.is_empty() {
            flavor.to_string()
        } else {
            format!("{flavor} /{flags}")
        }
    }
}

/// Whether an edit changes the text (as opposed to moving the cursor).
/// Files larger than this open read-only (see [`App::read_only_file`]).
pub const EDITABLE_FILE_BYTES: usize = 64 << 20;

fn modifies(e: &Edit) -> bool {
    !matches!(
        e,
        Edit::Left
            | Edit::Right
            | Edit::Up
            | Edit::Down
            | Edit::Home
            | Edit::End
            | Edit::WordLeft
            | Edit::WordRight
            | Edit::PageUp
            | Edit::PageDown
    )
}

/// The character a key stands for in pasted text: printable characters, and Enter, Tab and
/// Ctrl-J (a line feed in raw mode) as `\n` and `\t`. `None` for keys that are not text.
fn pasted_char(key: &KeyEvent) -> Option<char> {
    let plain = (key.modifiers - KeyModifiers::SHIFT).is_empty();
    match key.code {
        KeyCode::Char(c) if plain => Some(c),
        KeyCode::Char('j') if key.modifiers == KeyModifiers::CONTROL => Some('\n'),
        KeyCode::Enter if plain => Some('\n'),
        KeyCode::Tab if plain => Some('\t'),
        _ => None,
    }
}

/// Pasted text with its line ends made `\n`: terminals send a paste's line breaks as CR (and
/// some as CRLF), which would otherwise stay in the text as one long line with `\r` in it.
pub fn pasted_line_ends(s: &str) -> Cow<'_, str> {
    if !s.contains('\r') {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.replace("\r\n", "\n").replace('\r', "\n"))
}

/// A time range in few characters for the status bar: the date once when both edges share
/// it (`2026-10-05 00:10:00..00:15:00`), an open edge left empty.
pub fn short_range(r: &crate::input::time_range::TimeRange) -> String {
    let text = |t: Option<i64>| {
        t.map(crate::input::timestamp::format_utc)
            .unwrap_or_default()
    };
    let (a, b) = (text(r.since()), text(r.until()));
    let day = |s: &str| s.get(..10).map(str::to_string);
    match (day(&a), day(&b)) {
        (Some(x), Some(y)) if x == y => format!(
            "{} {}..{}",
            x,
            a[11..].trim_end_matches('Z'),
            b[11..].trim_end_matches('Z')
        ),
        _ => format!(
            "{}..{}",
            a.replace('T', " ").trim_end_matches('Z'),
            b.replace('T', " ").trim_end_matches('Z')
        ),
    }
}
