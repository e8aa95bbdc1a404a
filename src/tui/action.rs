//! Actions and the keymap: the one table that decides what a key does.
//!
//! The help overlay and the footer hints are generated from [`KEYMAP`], so they cannot drift
//! from the real bindings.

use super::debug::DebugMove;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// The result tabs, in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultTab {
    /// Every match: index, line:column, text.
    Matches,
    /// The groups of the current match.
    Groups,
    /// The explain tree and lints.
    Explain,
    /// Replacement editor and live preview.
    Replace,
    /// The preset registry.
    Presets,
    /// Test strings with expectations.
    Tests,
    /// The pattern as a program (or the tests as a test file) in another language.
    Code,
    /// The matcher's steps for the selected match.
    Debug,
}

impl ResultTab {
    /// All tabs in display order.
    pub const ALL: [ResultTab; 8] = [
        ResultTab::Matches,
        ResultTab::Groups,
        ResultTab::Explain,
        ResultTab::Replace,
        ResultTab::Presets,
        ResultTab::Tests,
        ResultTab::Code,
        ResultTab::Debug,
    ];

    /// The tab's title.
    pub fn title(self) -> &'static str {
        match self {
            ResultTab::Matches => "Matches",
            ResultTab::Groups => "Groups",
            ResultTab::Explain => "Explain",
            ResultTab::Replace => "Replace",
            ResultTab::Presets => "Presets",
            ResultTab::Tests => "Tests",
            ResultTab::Code => "Code",
            ResultTab::Debug => "Debug",
        }
    }

    /// Position in [`ResultTab::ALL`].
    pub fn index(self) -> usize {
        ResultTab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
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
    /// Close the open overlay, or go back to the pattern.
    Back,
    /// Focus the next pane.
    FocusNext,
    /// Focus the previous pane.
    FocusPrev,
    /// Show a result tab (and focus the results).
    ShowTab(ResultTab),
    /// Next result tab.
    NextTab,
    /// Switch to the next flavor.
    CycleFlavor,
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
    /// The Code tab's next language.
    CycleCodeLang,
    /// The Code tab: program or tests.
    ToggleCodeView,
    /// A pattern from the Tests tab's `+` lines (grex), checked against the `-` lines.
    GenerateFromTests,
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
    /// Move through the Debug tab's trace.
    Debug(super::debug::DebugMove),
    /// Set or clear a breakpoint on the selected explain node.
    ToggleBreakpoint,
    /// Explain tab: switch between the tree and the railroad diagram.
    ToggleRailroad,
    /// The input's line filter: off, lines with a match, lines without one, off.
    CycleFilter,
    /// More (positive) or fewer (negative) context lines around the filter's matching lines.
    FilterContext(i8),
    /// Follow the input file as it grows, or stop.
    ToggleFollow,
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
    /// The Code tab's program or test file.
    Code,
}

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Everywhere.
    Global,
    /// In a text editor (pattern, input, replacement, tests, preset filter).
    Editor,
    /// In a list tab (matches, groups, explain, presets).
    List,
    /// In the Debug tab.
    Debug,
}

impl Context {
    /// Heading in the help overlay.
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Anywhere",
            Context::Editor => "In editors",
            Context::List => "In lists",
            Context::Debug => "In the Debug tab",
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

const NONE: KeyModifiers = KeyModifiers::NONE;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;
const ALT: KeyModifiers = KeyModifiers::ALT;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;

/// One binding: keys, where, what, and the text shown in help.
#[derive(Debug, Clone)]
pub struct Binding {
    /// The keys (the first is shown in the footer).
    pub keys: &'static [KeySpec],
    /// Where it applies.
    pub context: Context,
    /// What it does.
    pub action: Action,
    /// Help text.
    pub help: &'static str,
    /// Shown in the footer.
    pub footer: bool,
}

macro_rules! bind {
    ($ctx:ident, $action:expr, $help:literal, $footer:literal, [$($key:expr),+ $(,)?]) => {
        Binding { keys: &[$($key),+], context: Context::$ctx, action: $action, help: $help, footer: $footer }
    };
}

use KeyCode as K;
use KeySpec::Key as k;

/// The keymap, in help order.
pub static KEYMAP: &[Binding] = &[
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
    bind!(
        Global,
        Action::ShowTab(ResultTab::Matches),
        "Matches tab",
        false,
        [k(K::Char('1'), ALT)]
    ),
    bind!(
        Global,
        Action::ShowTab(ResultTab::Groups),
        "Groups tab",
        false,
        [k(K::Char('2'), ALT)]
    ),
    bind!(
        Global,
        Action::ShowTab(ResultTab::Explain),
        "Explain tab",
        false,
        [k(K::Char('3'), ALT)]
    ),
    bind!(
        Global,
        Action::ShowTab(ResultTab::Replace),
        "Replace tab",
        false,
        [k(K::Char('4'), ALT)]
    ),
    bind!(
        Global,
        Action::ShowTab(ResultTab::Presets),
        "Presets tab",
        false,
        [k(K::Char('5'), ALT)]
    ),
    bind!(
        Global,
        Action::ShowTab(ResultTab::Tests),
        "Tests tab",
        false,
        [k(K::Char('6'), ALT)]
    ),
    bind!(
        Global,
        Action::ShowTab(ResultTab::Code),
        "Code tab",
        false,
        [k(K::Char('7'), ALT)]
    ),
    bind!(
        Global,
        Action::ShowTab(ResultTab::Debug),
        "Debug tab",
        false,
        [k(K::Char('8'), ALT)]
    ),
    bind!(
        Global,
        Action::CycleCodeLang,
        "Code tab: next language (Rust, Python, JS, Go, Java, C#)",
        false,
        [k(K::F(4), NONE)]
    ),
    bind!(
        Global,
        Action::ToggleCodeView,
        "Code tab: program or the tests as a test file",
        false,
        [k(K::Char('t'), ALT)]
    ),
    bind!(
        Global,
        Action::Copy(CopyWhat::Code),
        "copy the Code tab's program or tests",
        false,
        [k(K::Char('c'), ALT)]
    ),
    bind!(
        Global,
        Action::GenerateFromTests,
        "pattern from the Tests tab's + lines (checked against the - lines)",
        false,
        [k(K::Char('g'), CTRL)]
    ),
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
        Action::SavePreset,
        "save as a preset in the user registry",
        false,
        [k(K::Char('s'), CTRL)]
    ),
    bind!(
        Global,
        Action::Back,
        "close help / back to the pattern",
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
        "up",
        false,
        [k(K::Up, NONE)]
    ),
    bind!(
        Editor,
        Action::Edit(Edit::Down),
        "down",
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
    bind!(
        List,
        Action::Edit(Edit::Left),
        "scroll left (railroad)",
        false,
        [k(K::Left, NONE)]
    ),
    bind!(
        List,
        Action::Edit(Edit::Right),
        "scroll right (railroad)",
        false,
        [k(K::Right, NONE)]
    ),
    bind!(
        List,
        Action::ToggleBreakpoint,
        "Explain: breakpoint on the node (for the Debug tab)",
        false,
        [k(K::Char('b'), NONE)]
    ),
    bind!(
        List,
        Action::ToggleRailroad,
        "Explain: tree / railroad diagram",
        false,
        [k(K::Char('r'), NONE)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::Step(1)),
        "next step",
        true,
        [k(K::Right, NONE), k(K::Char('n'), NONE), k(K::Down, NONE)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::Step(-1)),
        "previous step",
        true,
        [k(K::Left, NONE), k(K::Char('p'), NONE), k(K::Up, NONE)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::NextBacktrack),
        "next backtrack",
        true,
        [k(K::Char('b'), NONE)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::PrevBacktrack),
        "previous backtrack",
        false,
        [k(K::Char('B'), SHIFT)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::ToBreakpoint),
        "run to the next breakpoint",
        true,
        [k(K::Char('c'), NONE)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::Step(100)),
        "100 steps on",
        false,
        [k(K::PageDown, NONE)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::Step(-100)),
        "100 steps back",
        false,
        [k(K::PageUp, NONE)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::First),
        "first step",
        false,
        [k(K::Home, NONE)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::Last),
        "last step (the match, or where the run stopped)",
        true,
        [k(K::End, NONE)]
    ),
    bind!(
        Debug,
        Action::Debug(DebugMove::Retrace),
        "trace the selected match again",
        false,
        [k(K::Char('r'), NONE)]
    ),
    bind!(Debug, Action::Quit, "quit", false, [k(K::Char('q'), NONE)]),
    bind!(
        Debug,
        Action::ToggleHelp,
        "help",
        false,
        [k(K::Char('?'), NONE)]
    ),
];

fn same_key(spec: &KeySpec, key: &KeyEvent) -> bool {
    match spec {
        KeySpec::Key(code, mods) => {
            let mut got = key.modifiers;
            if matches!(key.code, KeyCode::Char(_) | KeyCode::BackTab) {
                got.remove(KeyModifiers::SHIFT);
            }
            let mut want = *mods;
            want.remove(KeyModifiers::SHIFT);
            if *code == KeyCode::F(3) {
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

/// The action for `key` in `context`, with the flavor's flag letters deciding Alt-letters.
pub fn action_for(key: &KeyEvent, context: Context, flag_letters: &str) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    for b in KEYMAP {
        if b.context != Context::Global && b.context != context {
            continue;
        }
        for spec in b.keys {
            if !same_key(spec, key) {
                continue;
            }
            match (spec, key.code) {
                (KeySpec::AltFlagLetter, KeyCode::Char(c)) => {
                    if flag_letters.contains(c) {
                        return Some(Action::ToggleFlag(c));
                    }
                }
                (KeySpec::AnyChar, KeyCode::Char(c)) => return Some(Action::Edit(Edit::Insert(c))),
                _ => return Some(b.action.clone()),
            }
        }
    }
    None
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

/// The rows of the help overlay: `(context, keys, help)`, one per binding.
pub fn help_rows() -> Vec<(Context, String, &'static str)> {
    KEYMAP
        .iter()
        .map(|b| {
            let mut keys: Vec<String> = Vec::new();
            for spec in b.keys {
                let l = key_label(spec);
                if !keys.contains(&l) {
                    keys.push(l);
                }
            }
            (b.context, keys.join(" / "), b.help)
        })
        .collect()
}

/// The footer hints for `context`: `(key, short help)`.
pub fn footer_hints(context: Context) -> Vec<(String, &'static str)> {
    KEYMAP
        .iter()
        .filter(|b| b.footer && (b.context == Context::Global || b.context == context))
        .map(|b| {
            (
                key_label(&b.keys[0]),
                b.help.split(" (").next().unwrap_or(b.help),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn characters_type_in_editors_and_navigate_in_lists() {
        assert_eq!(
            action_for(&key(K::Char('j'), NONE), Context::Editor, "i"),
            Some(Action::Edit(Edit::Insert('j')))
        );
        assert_eq!(
            action_for(&key(K::Char('j'), NONE), Context::List, "i"),
            Some(Action::Edit(Edit::Down))
        );
        assert_eq!(
            action_for(&key(K::Char('?'), SHIFT), Context::Editor, "i"),
            Some(Action::Edit(Edit::Insert('?')))
        );
        assert_eq!(
            action_for(&key(K::Char('?'), SHIFT), Context::List, "i"),
            Some(Action::ToggleHelp)
        );
    }

    #[test]
    fn alt_letters_toggle_only_the_flavors_flags() {
        assert_eq!(
            action_for(&key(K::Char('i'), ALT), Context::Editor, "imsx"),
            Some(Action::ToggleFlag('i'))
        );
        assert_eq!(
            action_for(&key(K::Char('y'), ALT), Context::Editor, "imsx"),
            None
        );
        // Alt-n is a binding of its own, ahead of the flag letters.
        assert_eq!(
            action_for(&key(K::Char('n'), ALT), Context::Editor, "imsxn"),
            Some(Action::NextMatch)
        );
    }

    #[test]
    fn ctrl_c_quits_everywhere() {
        for ctx in [Context::Editor, Context::List] {
            assert_eq!(
                action_for(&key(K::Char('c'), CTRL), ctx, ""),
                Some(Action::Quit)
            );
        }
    }

    #[test]
    fn help_lists_every_binding_and_footer_is_a_subset() {
        let rows = help_rows();
        assert_eq!(rows.len(), KEYMAP.len());
        assert!(
            rows.iter()
                .any(|(_, keys, h)| keys == "Ctrl-a / Home" && *h == "start of line")
        );
        let footer = footer_hints(Context::Editor);
        assert!(footer.iter().any(|(label, _)| label == "F1"));
        assert!(footer.iter().all(|(label, _)| {
            rows.iter()
                .any(|(_, keys, _)| keys.contains(label.as_str()))
        }));
    }
}
