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

impl Edit {
    /// Whether it only moves the cursor (or a list's selection), changing no text.
    pub fn is_motion(&self) -> bool {
        matches!(
            self,
            Edit::Left
                | Edit::Right
                | Edit::Up
                | Edit::Down
                | Edit::PageUp
                | Edit::PageDown
                | Edit::Home
                | Edit::End
                | Edit::WordLeft
                | Edit::WordRight
        )
    }
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

impl Context {
    /// A row of a static key table: `action` on `keys` where `self` applies, listed in help
    /// as `help` (not in the footer: [`Context::hint`]).
    pub const fn bind(
        self,
        action: Action,
        help: &'static str,
        keys: &'static [KeySpec],
    ) -> Binding {
        Binding {
            keys: Cow::Borrowed(keys),
            context: self,
            action,
            help: Cow::Borrowed(help),
            footer: false,
        }
    }

    /// The same row as [`Context::bind`], shown in the footer too (short help: the text
    /// before a parenthesis, without a tab's `Name:` prefix).
    pub const fn hint(
        self,
        action: Action,
        help: &'static str,
        keys: &'static [KeySpec],
    ) -> Binding {
        let mut binding = self.bind(action, help, keys);
        binding.footer = true;
        binding
    }
}

use Context::{Editor, Global, List, Pattern};
use KeyCode as K;
use KeySpec::Key as k;

/// The workbench's bindings that come before the tabs' in help order.
pub static KEYMAP_HEAD: &[Binding] = &[
    Global.hint(
        Action::Quit,
        "quit (the session is saved)",
        &[k(K::Char('c'), CTRL)],
    ),
    Global.hint(Action::ToggleHelp, "help", &[k(K::F(1), NONE)]),
    Global.hint(Action::FocusNext, "next pane", &[k(K::Tab, NONE)]),
    Global.bind(
        Action::FocusPrev,
        "previous pane",
        &[k(K::BackTab, SHIFT), k(K::BackTab, NONE)],
    ),
    Global.hint(Action::CycleFlavor, "next flavor", &[k(K::F(2), NONE)]),
    Global.bind(
        Action::CycleFlavorVersion,
        "next release of the flavor (python 3.8-3.15, js node18-26)",
        &[k(K::F(2), SHIFT)],
    ),
    Global.hint(
        Action::NextMatch,
        "next match",
        &[k(K::Char('n'), ALT), k(K::F(3), NONE)],
    ),
    Global.bind(
        Action::PrevMatch,
        "previous match",
        &[k(K::Char('p'), ALT), k(K::F(3), SHIFT)],
    ),
];

/// The workbench's own bindings after the tabs' (help order; the tabs' bindings are
/// spliced in by `keymap`).
pub static KEYMAP: &[Binding] = &[
    Global.hint(Action::NextTab, "next result tab", &[k(K::F(6), NONE)]),
    Global.bind(Action::ToggleWhitespace, "show whitespace", &[k(K::Char('w'), ALT)]),
    Global.hint(Action::ToggleFlag('i'), "toggle that flag (i, m, s, x, a, u, y, …)", &[KeySpec::AltFlagLetter]),
    Global.hint(Action::CycleFilter, "filter lines: with a match, without, all", &[k(K::Char('l'), CTRL)]),
    Global.hint(Action::SourceOnly, "merged logs: only the next log's lines, then all", &[k(K::Char('o'), CTRL)]),
    Global.bind(Action::SourceHide, "merged logs: hide the next log's lines, then none", &[k(K::Char('t'), CTRL)]),
    Global.hint(Action::Filters, "filters: logs, level, time, match, preset key", &[k(K::Char('k'), ALT)]),
    Global.bind(Action::AskTimeRange, "time range of the lines shown: times or relative (-15m, 2026-10-05T10:00..-1h)", &[k(K::Char('r'), ALT)]),
    Global.bind(Action::AskGoTo, "go to a line, a time or a bookmark", &[k(K::Char('o'), ALT)]),
    Global.bind(Action::ToggleBookmark, "bookmark the cursor's line (again: take it off)", &[k(K::Char('h'), ALT)]),
    Global.bind(Action::NextBookmark, "next bookmark", &[k(K::Char('.'), ALT)]),
    Global.bind(Action::PrevBookmark, "previous bookmark", &[k(K::Char(','), ALT)]),
    Global.bind(Action::ToggleFollow, "follow the file as it grows (rxw -f FILE), or stop", &[k(K::Char('f'), CTRL)]),
    Global.bind(Action::FilterContext(1), "filter: one more context line around matching lines", &[k(K::Char('+'), ALT), k(K::Char('='), ALT)]),
    Global.bind(Action::FilterContext(-1), "filter: one context line fewer", &[k(K::Char('-'), ALT)]),
    Global.bind(Action::Copy(CopyWhat::Pattern), "copy the pattern", &[k(K::F(5), NONE)]),
    Global.bind(Action::Copy(CopyWhat::Literal), "copy as Rust / Python / JS / Go literal (repeat to cycle)", &[k(K::F(7), NONE)]),
    Global.bind(Action::Copy(CopyWhat::Match), "copy the current match", &[k(K::F(8), NONE)]),
    Global.bind(Action::Copy(CopyWhat::GroupsJson), "copy the groups as JSON", &[k(K::F(9), NONE)]),
    Global.bind(Action::Copy(CopyWhat::ReplaceResult), "copy the replace result", &[k(K::F(10), NONE)]),
    Global.bind(Action::Export, "export the filtered lines, the matches or the lens hits to a file (JSON Lines or CSV)", &[k(K::Char('x'), CTRL)]),
    Global.bind(Action::SavePreset, "save as a preset in the user registry", &[k(K::Char('s'), CTRL)]),
    Global.bind(Action::Back, "stop the running scans; else leave the text field for the results (digits pick a tab there), or from the results back to the pattern", &[k(K::Esc, NONE)]),
    Editor.bind(Action::Edit(Edit::Insert(' ')), "type", &[KeySpec::AnyChar]),
    Editor.bind(Action::Edit(Edit::Home), "start of line", &[k(K::Char('a'), CTRL), k(K::Home, NONE)]),
    Editor.bind(Action::Edit(Edit::End), "end of line", &[k(K::Char('e'), CTRL), k(K::End, NONE)]),
    Editor.bind(Action::Edit(Edit::KillToEnd), "delete to end of line", &[k(K::Char('k'), CTRL)]),
    Editor.bind(Action::Edit(Edit::KillToStart), "delete to start of line", &[k(K::Char('u'), CTRL)]),
    Editor.bind(Action::Edit(Edit::KillWord), "delete word before", &[k(K::Char('w'), CTRL), k(K::Backspace, ALT)]),
    Editor.bind(Action::Edit(Edit::WordLeft), "word left", &[k(K::Char('b'), ALT), k(K::Left, CTRL)]),
    Editor.bind(Action::Edit(Edit::WordRight), "word right", &[k(K::Char('f'), ALT), k(K::Right, CTRL)]),
    Pattern.bind(Action::HistorySearch, "search the flavor's earlier patterns (Up and Down walk them one by one)", &[k(K::Char('r'), CTRL)]),
    Editor.hint(Action::Edit(Edit::Undo), "undo", &[k(K::Char('z'), CTRL)]),
    Editor.bind(Action::Edit(Edit::Redo), "redo", &[k(K::Char('y'), CTRL)]),
    Editor.bind(Action::Edit(Edit::Left), "left", &[k(K::Left, NONE)]),
    Editor.bind(Action::Edit(Edit::Right), "right", &[k(K::Right, NONE)]),
    Editor.bind(Action::Edit(Edit::Up), "up (pattern: the pattern used before)", &[k(K::Up, NONE)]),
    Editor.bind(Action::Edit(Edit::Down), "down (pattern: the one after, then what you typed)", &[k(K::Down, NONE)]),
    Editor.bind(Action::Edit(Edit::PageUp), "page up", &[k(K::PageUp, NONE)]),
    Editor.bind(Action::Edit(Edit::PageDown), "page down", &[k(K::PageDown, NONE)]),
    Editor.bind(Action::Edit(Edit::Backspace), "delete before", &[k(K::Backspace, NONE)]),
    Editor.bind(Action::Edit(Edit::Delete), "delete under", &[k(K::Delete, NONE), k(K::Char('d'), CTRL)]),
    Editor.bind(Action::Edit(Edit::Newline), "new line (pattern: next match; presets: load)", &[k(K::Enter, NONE)]),
    List.hint(Action::Edit(Edit::Up), "up", &[k(K::Up, NONE), k(K::Char('k'), NONE)]),
    List.hint(Action::Edit(Edit::Down), "down", &[k(K::Down, NONE), k(K::Char('j'), NONE)]),
    List.bind(Action::Edit(Edit::PageUp), "page up", &[k(K::PageUp, NONE)]),
    List.bind(Action::Edit(Edit::PageDown), "page down", &[k(K::PageDown, NONE)]),
    List.bind(Action::Edit(Edit::Home), "first", &[k(K::Home, NONE), k(K::Char('g'), NONE)]),
    List.bind(Action::Edit(Edit::End), "last", &[k(K::End, NONE), k(K::Char('G'), NONE)]),
    List.hint(Action::Activate, "jump to / select", &[k(K::Enter, NONE)]),
    List.bind(Action::ToggleHelp, "help", &[k(K::Char('?'), NONE)]),
    List.bind(Action::Quit, "quit", &[k(K::Char('q'), NONE)]),
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

/// Applies an edit to a multi-line buffer; returns whether the text changed (a motion never
/// does, an undo or a redo when there was one).
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
        Edit::Left => buf.left(),
        Edit::Right => buf.right(),
        Edit::Up => buf.vertical(-1),
        Edit::Down => buf.vertical(1),
        Edit::PageUp => buf.vertical(-(page as isize)),
        Edit::PageDown => buf.vertical(page as isize),
        Edit::Home => buf.home(),
        Edit::End => buf.end(),
        Edit::WordLeft => buf.word_left(),
        Edit::WordRight => buf.word_right(),
    }
    !e.is_motion()
}
