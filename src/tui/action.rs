//! Actions and the keymap: the one table that decides what a key does.
//!
//! The help overlay and the footer hints are generated from [`keymap`], so they cannot drift
//! from the real bindings. [`keymap`] is [`KEYMAP_HEAD`] and [`KEYMAP`] (the bindings of the
//! workbench itself) with, between them, an Alt-digit per registered result tab and every
//! tab's own bindings ([`super::tabs::Tab::keymap`]): a tab brings its keys with it.

use super::tabs::{TabCommand, TabId};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::borrow::Cow;

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
    ShowTab(TabId),
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
    /// A command of one result tab (its keymap names it; the tab carries it out).
    Tab(TabCommand),
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
    /// Follow the input file as it grows, or stop.
    ToggleFollow,
    /// Export the filtered lines, the matches or the lens hits to a file (opens a prompt).
    Export,
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

const NONE: KeyModifiers = KeyModifiers::NONE;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;
const ALT: KeyModifiers = KeyModifiers::ALT;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;

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
/// spliced in by [`keymap`]).
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

/// The digit that picks tab `i` with Alt (and labels it in the tab bar): `1` … `9` for the
/// first nine, `0` for the tenth, none past that (F6, a click or the tab's own key).
pub fn tab_digit(i: usize) -> Option<char> {
    match i {
        0..9 => char::from_digit(i as u32 + 1, 10),
        9 => Some('0'),
        _ => None,
    }
}

/// Every binding, in help order: [`KEYMAP_HEAD`], an Alt-digit per registered tab, the tabs'
/// global bindings, [`KEYMAP`], then the tabs' other bindings (tabs in registry order).
pub fn keymap() -> &'static [Binding] {
    static ALL: std::sync::OnceLock<Vec<Binding>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let tabs = super::tabs::registry(Default::default());
        let mut all: Vec<Binding> = KEYMAP_HEAD.to_vec();
        for (i, t) in tabs.iter().enumerate() {
            let Some(digit) = tab_digit(i) else { break };
            all.push(Binding {
                keys: Cow::Owned(vec![k(K::Char(digit), ALT)]),
                context: Context::Global,
                action: Action::ShowTab(t.id()),
                help: Cow::Owned(format!("{} tab", t.title())),
                footer: false,
            });
        }
        let own = |global: bool| {
            tabs.iter()
                .flat_map(|t| t.keymap().iter())
                .filter(move |b| (b.context == Context::Global) == global)
                .cloned()
        };
        all.extend(own(true));
        all.extend(KEYMAP.iter().cloned());
        all.extend(own(false));
        all
    })
}

/// Whether binding `b` applies in `context` with tab `shown` on screen: global bindings always;
/// others in their context, a tab's own commands only while that tab is shown.
fn applies(b: &Binding, context: Context, shown: TabId) -> bool {
    if b.context == Context::Global {
        return true;
    }
    if b.context != context {
        return false;
    }
    match &b.action {
        Action::Tab(cmd) => cmd.tab == shown,
        _ => true,
    }
}

/// The action for `key` in `context` with tab `shown` on screen, with the flavor's flag
/// letters deciding Alt-letters.
pub fn action_for(
    key: &KeyEvent,
    context: Context,
    shown: TabId,
    flag_letters: &str,
) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    for b in keymap() {
        if !applies(b, context, shown) {
            continue;
        }
        for spec in b.keys.iter() {
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
    keymap()
        .iter()
        .map(|b| {
            let mut keys: Vec<String> = Vec::new();
            for spec in b.keys.iter() {
                let l = key_label(spec);
                if !keys.contains(&l) {
                    keys.push(l);
                }
            }
            (b.context, keys.join(" / "), b.help.as_ref())
        })
        .collect()
}

/// The help rows `(keys, help)` of tab `tab`'s own commands that work only while it is shown
/// (its commands that work anywhere are in [`help_rows`]' Anywhere section).
pub fn tab_help_rows(tab: TabId) -> Vec<(String, &'static str)> {
    keymap()
        .iter()
        .filter(|b| b.context != Context::Global)
        .filter(|b| matches!(&b.action, Action::Tab(cmd) if cmd.tab == tab))
        .map(|b| {
            let mut keys: Vec<String> = Vec::new();
            for spec in b.keys.iter() {
                let l = key_label(spec);
                if !keys.contains(&l) {
                    keys.push(l);
                }
            }
            let help: &'static str = b.help.as_ref();
            (keys.join(" / "), help)
        })
        .collect()
}

/// The footer hints for `context` with tab `shown` on screen: `(key, short help)`. The shown
/// tab's own commands come first: they are what the user looks for there, and the footer is
/// cut at the screen's edge.
pub fn footer_hints(context: Context, shown: TabId) -> Vec<(String, &'static str)> {
    let own = |b: &&Binding| matches!(&b.action, Action::Tab(cmd) if cmd.tab == shown);
    let hinted = |b: &&Binding| b.footer && applies(b, context, shown);
    let first = keymap().iter().filter(|b| hinted(b) && own(b));
    let rest = keymap().iter().filter(|b| hinted(b) && !own(b));
    first
        .chain(rest)
        .map(|b| {
            let help: &'static str = b.help.as_ref();
            let help = help.split(" (").next().unwrap_or(help);
            // A tab's own command names its tab in help ("Lens: …"); the footer is the tab's.
            let help = match own(&b) {
                true => help.split_once(": ").map_or(help, |(_, h)| h),
                false => help,
            };
            (key_label(&b.keys[0]), help)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: TabId = super::super::tabs::matches::ID;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn characters_type_in_editors_and_navigate_in_lists() {
        assert_eq!(
            action_for(&key(K::Char('j'), NONE), Context::Editor, M, "i"),
            Some(Action::Edit(Edit::Insert('j')))
        );
        assert_eq!(
            action_for(&key(K::Char('j'), NONE), Context::List, M, "i"),
            Some(Action::Edit(Edit::Down))
        );
        assert_eq!(
            action_for(&key(K::Char('?'), SHIFT), Context::Editor, M, "i"),
            Some(Action::Edit(Edit::Insert('?')))
        );
        assert_eq!(
            action_for(&key(K::Char('?'), SHIFT), Context::List, M, "i"),
            Some(Action::ToggleHelp)
        );
    }

    #[test]
    fn alt_letters_toggle_only_the_flavors_flags() {
        assert_eq!(
            action_for(&key(K::Char('i'), ALT), Context::Editor, M, "imsx"),
            Some(Action::ToggleFlag('i'))
        );
        assert_eq!(
            action_for(&key(K::Char('y'), ALT), Context::Editor, M, "imsx"),
            None
        );
        // Alt-n is a binding of its own, ahead of the flag letters.
        assert_eq!(
            action_for(&key(K::Char('n'), ALT), Context::Editor, M, "imsxn"),
            Some(Action::NextMatch)
        );
    }

    #[test]
    fn ctrl_c_quits_everywhere() {
        for ctx in [Context::Editor, Context::List] {
            assert_eq!(
                action_for(&key(K::Char('c'), CTRL), ctx, M, ""),
                Some(Action::Quit)
            );
        }
    }

    #[test]
    fn help_lists_every_binding_and_footer_is_a_subset() {
        let rows = help_rows();
        assert_eq!(rows.len(), keymap().len());
        assert!(
            rows.iter()
                .any(|(_, keys, h)| keys == "Ctrl-a / Home" && *h == "start of line")
        );
        let footer = footer_hints(Context::Editor, M);
        assert!(footer.iter().any(|(label, _)| label == "F1"));
        assert!(footer.iter().all(|(label, _)| {
            rows.iter()
                .any(|(_, keys, _)| keys.contains(label.as_str()))
        }));
    }
}
