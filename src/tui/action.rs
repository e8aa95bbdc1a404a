//! Actions, the tabs' identities and commands, the effects the event loop carries out, and the
//! workbench's own key bindings ([`KEYMAP_HEAD`], [`KEYMAP`]); [`super::keymap`] merges them
//! with the tabs' bindings into the one table that decides what a key does.

use crate::workbench::{LineEditor, TextBuffer};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::borrow::Cow;

/// A tab's identity: a short stable name (`"matches"`), used by [`Action::ShowTab`] and to
/// route a tab's commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TabId(pub &'static str);

impl TabId {
    /// The tab's command named `name`.
    pub const fn command(self, name: &'static str) -> TabCommand {
        TabCommand { tab: self, name }
    }
}

/// A command of one tab, bound to keys in the tab's `Tab::keymap`; the app routes it to
/// the tab named by `tab`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TabCommand {
    /// The tab that carries it out.
    pub tab: TabId,
    /// What it is, for that tab (`"railroad"`, `"next-backtrack"`).
    pub name: &'static str,
}

/// What the event loop must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Put this text on the clipboard; `what` names it in the status bar.
    Copy {
        /// Text to copy.
        text: String,
        /// What it is.
        what: String,
    },
    /// Save the current pattern as a preset with this key in the user registry.
    SavePreset {
        /// The key.
        key: String,
        /// Whether the Tests tab's failing lines are left out of its examples (the prompt
        /// said which fail, and the user saved anyway); otherwise they refuse the save.
        leave_out_failing: bool,
    },
}

/// An edit or motion sent to the focused editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Type a character.
    Insert(char),
    /// Insert pasted text.
    Paste(String),
    /// Line break (multi-line editors).
    Newline,
    /// Delete before the cursor.
    Backspace,
    /// Delete under the cursor.
    Delete,
    /// Cursor left.
    Left,
    /// Cursor right.
    Right,
    /// Cursor up (or list up).
    Up,
    /// Cursor down (or list down).
    Down,
    /// Start of line.
    Home,
    /// End of line.
    End,
    /// Word left.
    WordLeft,
    /// Word right.
    WordRight,
    /// Delete to end of line.
    KillToEnd,
    /// Delete to start of line.
    KillToStart,
    /// Delete the word before the cursor.
    KillWord,
    /// Undo.
    Undo,
    /// Redo.
    Redo,
    /// A page up.
    PageUp,
    /// A page down.
    PageDown,
}

/// Everything the user can ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Leave (the session is saved).
    Quit,
    /// Open or close the help overlay.
    ToggleHelp,
    /// Stop the full count while one runs; else close the open overlay, or go back to the
    /// pattern.
    Back,
    /// Focus the next pane.
    FocusNext,
    /// Focus the previous pane.
    FocusPrev,
    /// Show a result tab (and focus the results).
    ShowTab(TabId),
    /// Show the result tab at this place in the tab bar (a digit key: 0 is the tenth).
    ShowTabAt(usize),
    /// Next result tab.
    NextTab,
    /// Switch to the next flavor (family), at its default release.
    CycleFlavor,
    /// Switch to the flavor's next engine release (python 3.8 … 3.15, js node18 … node26).
    CycleFlavorVersion,
    /// Toggle a flag letter.
    ToggleFlag(char),
    /// Show spaces, tabs and line ends.
    ToggleWhitespace,
    /// Select the next match.
    NextMatch,
    /// Select the previous match.
    PrevMatch,
    /// Activate the selected row (load a preset, jump to a match).
    Activate,
    /// Edit or move in the focused pane.
    Edit(Edit),
    /// Copy something.
    Copy(CopyWhat),
    /// Save the pattern as a preset in the user registry.
    SavePreset,
    /// A command of one result tab (its keymap names it; the tab carries it out).
    Tab(TabCommand),
    /// Search the flavor's earlier patterns (the pattern pane's Ctrl-R).
    HistorySearch,
    /// Insert a construct at the pattern's cursor (from the quick reference), the cursor
    /// left between its two halves: one undo step.
    InsertInPattern {
        /// The text before the cursor.
        before: String,
        /// The text after it.
        after: String,
    },
    /// Put this pattern in the pattern pane (a pattern chosen from the history): one undo
    /// step.
    SetPattern(String),
    /// The answer typed into a prompt a tab opened ([`TabCommand`] names what asked); the
    /// app routes it to that tab.
    Answer(TabCommand, String),
    /// A mouse click at a screen cell.
    Click {
        /// Column.
        col: u16,
        /// Row.
        row: u16,
    },
    /// Wheel scroll at a screen cell (`delta` lines, negative is up).
    Wheel {
        /// Column.
        col: u16,
        /// Row.
        row: u16,
        /// Lines.
        delta: i32,
    },
    /// The terminal was resized.
    Resize(u16, u16),
    /// The input's line filter: off, lines with a match, lines without one, off.
    CycleFilter,
    /// More (positive) or fewer (negative) context lines around the filter's matching lines.
    FilterContext(i8),
    /// A merged input: show only the next log's lines (after the last, all again).
    SourceOnly,
    /// A merged input: hide the next log's lines (after the last, none hidden).
    SourceHide,
    /// Follow the input file as it grows, or stop.
    ToggleFollow,
    /// Export the filtered lines, the matches or the lens hits to a file (opens a prompt).
    Export,
    /// Open the filter panel: every filter, each changed or removed alone.
    Filters,
    /// Ask for the time range the lines shown must fall in.
    AskTimeRange,
    /// Ask for a line, a time or a bookmark to go to.
    AskGoTo,
    /// Bookmark the cursor's line, or take its bookmark off.
    ToggleBookmark,
    /// Go to the next bookmark after the cursor's line.
    NextBookmark,
    /// Go to the bookmark before the cursor's line.
    PrevBookmark,
    /// Set the filters besides the pattern's, and the pattern's line filter (the filter
    /// panel's answer).
    SetFilters(
        Box<crate::workbench::filters::Filters>,
        crate::workbench::filter::FilterMode,
    ),
    /// Set the time range filter (`None`: every time), the time prompt's answer.
    SetTimeRange(Option<crate::input::time_range::TimeRange>),
    /// Go to a place (the go-to prompt's answer).
    GoTo(GoTarget),
}

/// Where [`Action::GoTo`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoTarget {
    /// A line, from 0.
    Line(usize),
    /// The first line stamped at or after this instant (milliseconds since the epoch).
    Time(i64),
}

/// What [`Action::Copy`] copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyWhat {
    /// The pattern as typed.
    Pattern,
    /// The pattern as a code literal (cycles Rust, Python, JavaScript, Go).
    Literal,
    /// The current match.
    Match,
    /// The groups of the current match as JSON.
    GroupsJson,
    /// The whole input with replacements made.
    ReplaceResult,
}

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Everywhere.
    Global,
    /// In a text editor (pattern, input, replacement, tests, preset filter).
    Editor,
    /// In the pattern pane: the editors' bindings, and the pattern's own (its history).
    Pattern,
    /// In a list tab (matches, groups, explain, code).
    List,
    /// In a tab whose keys are all its own (the Debug tab): only the shown tab's bindings and
    /// the global ones apply.
    Tab,
}

impl Context {
    /// Heading in the help overlay.
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Anywhere",
            Context::Editor => "In editors",
            Context::Pattern => "In the pattern",
            Context::List => "In lists",
            Context::Tab => "In the tab",
        }
    }
}

/// A key, or a family of keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeySpec {
    /// One key with exact modifiers (shift ignored for characters).
    Key(KeyCode, KeyModifiers),
    /// Alt plus a flag letter of the current flavor.
    AltFlagLetter,
    /// Any printable character without Ctrl or Alt.
    AnyChar,
}

pub(crate) const NONE: KeyModifiers = KeyModifiers::NONE;
pub(crate) const CTRL: KeyModifiers = KeyModifiers::CONTROL;
pub(crate) const ALT: KeyModifiers = KeyModifiers::ALT;
pub(crate) const SHIFT: KeyModifiers = KeyModifiers::SHIFT;

/// One binding: keys, where, what, and the text shown in help.
///
/// A binding whose action is a tab's command ([`Action::Tab`]) and whose context is not
/// [`Context::Global`] applies only while that tab is the one shown.
#[derive(Debug, Clone)]
pub struct Binding {
    /// The keys (the first is shown in the footer).
    pub keys: Cow<'static, [KeySpec]>,
    /// Where it applies.
    pub context: Context,
    /// What it does.
    pub action: Action,
    /// Help text.
    pub help: Cow<'static, str>,
    /// Shown in the footer.
    pub footer: bool,
}

/// A [`Binding`] in a static table: `bind!(Context, action, "help", footer, [keys])`.
macro_rules! bind {
    ($ctx:ident, $action:expr, $help:literal, $footer:literal, [$($key:expr),+ $(,)?]) => {
        $crate::tui::action::Binding {
            keys: ::std::borrow::Cow::Borrowed(&[$($key),+]),
            context: $crate::tui::action::Context::$ctx,
            action: $action,
            help: ::std::borrow::Cow::Borrowed($help),
            footer: $footer,
        }
    };
}
pub(crate) use bind;

use KeyCode as K;
use KeySpec::Key as k;

/// The workbench's bindings that come before the tabs' in help order.
pub static KEYMAP_HEAD: &[Binding] = &[
    bind!(
        Global,
        Action::Quit,
        "quit (the session is saved)",
        true,
        [k(K::Char('c'), CTRL)]
    ),
    bind!(Global, Action::ToggleHelp, "help", true, [k(K::F(1), NONE)]),
    bind!(
        Global,
        Action::FocusNext,
        "next pane",
        true,
        [k(K::Tab, NONE)]
    ),
    bind!(
        Global,
        Action::FocusPrev,
        "previous pane",
        false,
        [k(K::BackTab, SHIFT), k(K::BackTab, NONE)]
    ),
    bind!(
        Global,
        Action::CycleFlavor,
        "next flavor",
        true,
        [k(K::F(2), NONE)]
    ),
    bind!(
        Global,
        Action::CycleFlavorVersion,
        "next release of the flavor (python 3.8-3.15, js node18-26)",
        false,
        [k(K::F(2), SHIFT)]
    ),
    bind!(
        Global,
        Action::NextMatch,
        "next match",
        true,
        [k(K::Char('n'), ALT), k(K::F(3), NONE)]
    ),
    bind!(
        Global,
        Action::PrevMatch,
        "previous match",
        false,
        [k(K::Char('p'), ALT), k(K::F(3), SHIFT)]
    ),
];

/// The workbench's own bindings after the tabs' (help order; the tabs' bindings are
/// spliced in by `keymap`).
pub static KEYMAP: &[Binding] = &[
    bind!(
        Global,
        Action::NextTab,
        "next result tab",
        true,
        [k(K::F(6), NONE)]
    ),
    bind!(
        Global,
        Action::ToggleWhitespace,
        "show whitespace",
        false,
        [k(K::Char('w'), ALT)]
    ),
    bind!(
        Global,
        Action::ToggleFlag('i'),
        "toggle that flag (i, m, s, x, a, u, y, …)",
        true,
        [KeySpec::AltFlagLetter]
    ),
    bind!(
        Global,
        Action::CycleFilter,
        "filter lines: with a match, without, all",
        true,
        [k(K::Char('l'), CTRL)]
    ),
    bind!(
        Global,
        Action::SourceOnly,
        "merged logs: only the next log's lines, then all",
        true,
        [k(K::Char('o'), CTRL)]
    ),
    bind!(
        Global,
        Action::SourceHide,
        "merged logs: hide the next log's lines, then none",
        false,
        [k(K::Char('t'), CTRL)]
    ),
    bind!(
        Global,
        Action::Filters,
        "filters: logs, level, time, match, preset key",
        true,
        [k(K::Char('k'), ALT)]
    ),
    bind!(
        Global,
        Action::AskTimeRange,
        "time range of the lines shown: times or relative (-15m, 2026-10-05T10:00..-1h)",
        false,
        [k(K::Char('r'), ALT)]
    ),
    bind!(
        Global,
        Action::AskGoTo,
        "go to a line, a time or a bookmark",
        false,
        [k(K::Char('o'), ALT)]
    ),
    bind!(
        Global,
        Action::ToggleBookmark,
        "bookmark the cursor's line (again: take it off)",
        false,
        [k(K::Char('h'), ALT)]
    ),
    bind!(
        Global,
        Action::NextBookmark,
        "next bookmark",
        false,
        [k(K::Char('.'), ALT)]
    ),
    bind!(
        Global,
        Action::PrevBookmark,
        "previous bookmark",
        false,
        [k(K::Char(','), ALT)]
    ),
    bind!(
        Global,
        Action::ToggleFollow,
        "follow the file as it grows (rxw -f FILE), or stop",
        false,
        [k(K::Char('f'), CTRL)]
    ),
    bind!(
        Global,
        Action::FilterContext(1),
        "filter: one more context line around matching lines",
        false,
        [k(K::Char('+'), ALT), k(K::Char('='), ALT)]
    ),
    bind!(
        Global,
        Action::FilterContext(-1),
        "filter: one context line fewer",
        false,
        [k(K::Char('-'), ALT)]
    ),
    bind!(
        Global,
        Action::Copy(CopyWhat::Pattern),
        "copy the pattern",
        false,
        [k(K::F(5), NONE)]
    ),
    bind!(
        Global,
        Action::Copy(CopyWhat::Literal),
        "copy as Rust / Python / JS / Go literal (repeat to cycle)",
        false,
        [k(K::F(7), NONE)]
    ),
    bind!(
        Global,
        Action::Copy(CopyWhat::Match),
        "copy the current match",
        false,
        [k(K::F(8), NONE)]
    ),
    bind!(
        Global,
        Action::Copy(CopyWhat::GroupsJson),
        "copy the groups as JSON",
        false,
        [k(K::F(9), NONE)]
    ),
    bind!(
        Global,
        Action::Copy(CopyWhat::ReplaceResult),
        "copy the replace result",
        false,
        [k(K::F(10), NONE)]
    ),
    bind!(
        Global,
        Action::Export,
        "export the filtered lines, the matches or the lens hits to a file (JSON Lines or CSV)",
        false,
        [k(K::Char('x'), CTRL)]
    ),
    bind!(
        Global,
        Action::SavePreset,
        "save as a preset in the user registry",
        false,
        [k(K::Char('s'), CTRL)]
    ),
    bind!(
        Global,
        Action::Back,
        "stop the running scans; else leave the text field for the results (digits pick a tab there), or from the results back to the pattern",
        false,
        [k(K::Esc, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Insert(' ')),
        "type",
        false,
        [KeySpec::AnyChar]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Home),
        "start of line",
        false,
        [k(K::Char('a'), CTRL), k(K::Home, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::End),
        "end of line",
        false,
        [k(K::Char('e'), CTRL), k(K::End, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::KillToEnd),
        "delete to end of line",
        false,
        [k(K::Char('k'), CTRL)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::KillToStart),
        "delete to start of line",
        false,
        [k(K::Char('u'), CTRL)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::KillWord),
        "delete word before",
        false,
        [k(K::Char('w'), CTRL), k(K::Backspace, ALT)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::WordLeft),
        "word left",
        false,
        [k(K::Char('b'), ALT), k(K::Left, CTRL)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::WordRight),
        "word right",
        false,
        [k(K::Char('f'), ALT), k(K::Right, CTRL)]
    ),
    bind!(
        Pattern,
        Action::HistorySearch,
        "search the flavor's earlier patterns (Up and Down walk them one by one)",
        false,
        [k(K::Char('r'), CTRL)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Undo),
        "undo",
        true,
        [k(K::Char('z'), CTRL)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Redo),
        "redo",
        false,
        [k(K::Char('y'), CTRL)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Left),
        "left",
        false,
        [k(K::Left, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Right),
        "right",
        false,
        [k(K::Right, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Up),
        "up (pattern: the pattern used before)",
        false,
        [k(K::Up, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Down),
        "down (pattern: the one after, then what you typed)",
        false,
        [k(K::Down, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::PageUp),
        "page up",
        false,
        [k(K::PageUp, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::PageDown),
        "page down",
        false,
        [k(K::PageDown, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Backspace),
        "delete before",
        false,
        [k(K::Backspace, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Delete),
        "delete under",
        false,
        [k(K::Delete, NONE), k(K::Char('d'), CTRL)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Newline),
        "new line (pattern: next match; presets: load)",
        false,
        [k(K::Enter, NONE)]
    ),
    bind!(
        List,
        Action::Edit(Edit::Up),
        "up",
        true,
        [k(K::Up, NONE), k(K::Char('k'), NONE)]
    ),
    bind!(
        List,
        Action::Edit(Edit::Down),
        "down",
        true,
        [k(K::Down, NONE), k(K::Char('j'), NONE)]
    ),
    bind!(
        List,
        Action::Edit(Edit::PageUp),
        "page up",
        false,
        [k(K::PageUp, NONE)]
    ),
    bind!(
        List,
        Action::Edit(Edit::PageDown),
        "page down",
        false,
        [k(K::PageDown, NONE)]
    ),
    bind!(
        List,
        Action::Edit(Edit::Home),
        "first",
        false,
        [k(K::Home, NONE), k(K::Char('g'), NONE)]
    ),
    bind!(
        List,
        Action::Edit(Edit::End),
        "last",
        false,
        [k(K::End, NONE), k(K::Char('G'), NONE)]
    ),
    bind!(
        List,
        Action::Activate,
        "jump to / select",
        true,
        [k(K::Enter, NONE)]
    ),
    bind!(
        List,
        Action::ToggleHelp,
        "help",
        false,
        [k(K::Char('?'), NONE)]
    ),
    bind!(List, Action::Quit, "quit", false, [k(K::Char('q'), NONE)]),
];

pub(crate) fn same_key(spec: &KeySpec, key: &KeyEvent) -> bool {
    match spec {
        KeySpec::Key(code, mods) => {
            let mut got = key.modifiers;
            if matches!(key.code, KeyCode::Char(_) | KeyCode::BackTab) {
                got.remove(KeyModifiers::SHIFT);
            }
            let mut want = *mods;
            want.remove(KeyModifiers::SHIFT);
            if matches!(code, KeyCode::F(_)) {
                return key.code == *code && key.modifiers == *mods;
            }
            *code == key.code && want == got
        }
        KeySpec::AltFlagLetter => {
            matches!(key.code, KeyCode::Char(c) if c.is_ascii_alphabetic())
                && key.modifiers.contains(KeyModifiers::ALT)
                && !key.modifiers.contains(KeyModifiers::CONTROL)
        }
        KeySpec::AnyChar => {
            matches!(key.code, KeyCode::Char(_))
                && !key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        }
    }
}

/// The digit that picks tab `i` with Alt (and labels it in the tab bar): `1` … `9` for the
/// first nine, `0` for the tenth, none past that (F6, a click or the tab's own key).
pub fn tab_digit(i: usize) -> Option<char> {
    match i {
        0..9 => char::from_digit(i as u32 + 1, 10),
        9 => Some('0'),
        _ => None,
    }
}

/// How a key spec is written in help and the footer.
pub fn key_label(spec: &KeySpec) -> String {
    match spec {
        KeySpec::AltFlagLetter => "Alt-letter".into(),
        KeySpec::AnyChar => "characters".into(),
        KeySpec::Key(code, mods) => {
            let mut s = String::new();
            if mods.contains(KeyModifiers::CONTROL) {
                s.push_str("Ctrl-");
            }
            if mods.contains(KeyModifiers::ALT) {
                s.push_str("Alt-");
            }
            if mods.contains(KeyModifiers::SHIFT) && !matches!(code, KeyCode::BackTab) {
                s.push_str("Shift-");
            }
            match code {
                KeyCode::Char(' ') => s.push_str("Space"),
                KeyCode::Char(c) => s.push(*c),
                KeyCode::F(n) => s.push_str(&format!("F{n}")),
                KeyCode::BackTab => s.push_str("Shift-Tab"),
                KeyCode::PageUp => s.push_str("PgUp"),
                KeyCode::PageDown => s.push_str("PgDn"),
                other => s.push_str(&format!("{other:?}")),
            }
            s
        }
    }
}

/// Applies an edit to a one-line editor; returns whether the text changed.
pub fn apply_line(ed: &mut LineEditor, e: &Edit) -> bool {
    let old = ed.text().to_string();
    match e {
        Edit::Insert(c) => ed.insert(c.encode_utf8(&mut [0; 4])),
        Edit::Paste(s) => ed.insert(s),
        Edit::Newline | Edit::Up | Edit::Down | Edit::PageUp | Edit::PageDown => {}
        Edit::Backspace => ed.backspace(),
        Edit::Delete => ed.delete(),
        Edit::Left => ed.left(),
        Edit::Right => ed.right(),
        Edit::Home => ed.home(),
        Edit::End => ed.end(),
        Edit::WordLeft => ed.word_left(),
        Edit::WordRight => ed.word_right(),
        Edit::KillToEnd => ed.kill_to_end(),
        Edit::KillToStart => ed.kill_to_start(),
        Edit::KillWord => ed.kill_word(),
        Edit::Undo => {
            ed.undo();
        }
        Edit::Redo => {
            ed.redo();
        }
    }
    ed.text() != old
}

/// Applies an edit to a multi-line buffer; returns whether the text changed.
pub fn apply_buffer(buf: &mut TextBuffer, e: &Edit, page: usize) -> bool {
    match e {
        Edit::Insert(c) => buf.insert(c.encode_utf8(&mut [0; 4])),
        Edit::Paste(s) => buf.insert(s),
        Edit::Newline => buf.insert("\n"),
        Edit::Backspace => buf.backspace(),
        Edit::Delete => buf.delete(),
        Edit::KillToEnd => buf.kill_to_end(),
        Edit::KillToStart => buf.kill_to_start(),
        Edit::KillWord => buf.kill_word(),
        Edit::Undo => return buf.undo(),
        Edit::Redo => return buf.redo(),
        Edit::Left => {
            buf.left();
            return false;
        }
        Edit::Right => {
            buf.right();
            return false;
        }
        Edit::Up => {
            buf.vertical(-1);
            return false;
        }
        Edit::Down => {
            buf.vertical(1);
            return false;
        }
        Edit::PageUp => {
            buf.vertical(-(page as isize));
            return false;
        }
        Edit::PageDown => {
            buf.vertical(page as isize);
            return false;
        }
        Edit::Home => {
            buf.home();
            return false;
        }
        Edit::End => {
            buf.end();
            return false;
        }
        Edit::WordLeft => {
            buf.word_left();
            return false;
        }
        Edit::WordRight => {
            buf.word_right();
            return false;
        }
    }
    true
}
