//! The keymap: every binding in one table, and what a key does where.
//!
//! [`keymap`] is [`KEYMAP_HEAD`] and [`KEYMAP`] (the bindings of the workbench itself) with,
//! between them, an Alt-digit per registered result tab and every tab's own bindings
//! ([`super::tabs::Tab::keymap`]): a tab brings its keys with it. The help overlay and the
//! footer hints are generated from it, so they cannot drift from the real bindings. This module
//! sits above both the actions and the tabs: the actions know no tab, and the tabs know
//! only the actions.

use super::action::{
    ALT, Action, Binding, Context, Edit, KEYMAP, KEYMAP_HEAD, KeySpec, TabId, key_label, same_key,
    tab_digit,
};
use crossterm::event::{KeyCode, KeyCode as K, KeyEvent, KeyEventKind, KeyModifiers};
use std::borrow::Cow;

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
                keys: Cow::Owned(vec![KeySpec::Key(K::Char(digit), ALT)]),
                context: Context::Global,
                action: Action::ShowTab(t.id()),
                help: Cow::Owned(format!("{} tab", t.title())),
                footer: false,
            });
        }
        // Where the keyboard is not in a text field, a digit alone shows its tab.
        for context in [Context::List, Context::Tab] {
            all.push(Binding {
                keys: Cow::Owned(
                    (0..tabs.len())
                        .map_while(tab_digit)
                        .map(|d| KeySpec::Key(K::Char(d), KeyModifiers::NONE))
                        .collect(),
                ),
                context,
                action: Action::ShowTabAt(0),
                help: Cow::Borrowed("the tab of that digit (1 Matches … 0 Jobs)"),
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
    // The pattern pane is an editor with bindings of its own.
    let editor_in_pattern = b.context == Context::Editor && context == Context::Pattern;
    if b.context != context && !editor_in_pattern {
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
                (KeySpec::Key(K::Char(d), _), _) if matches!(b.action, Action::ShowTabAt(_)) => {
                    let at = d.to_digit(10).map(|n| (n as usize + 9) % 10);
                    return at.map(Action::ShowTabAt);
                }
                _ => return Some(b.action.clone()),
            }
        }
    }
    None
}

/// The label of the first key bound to `action` anywhere (for hints in the status bar), or
/// `None` when nothing is bound to it.
pub fn key_for(action: &Action) -> Option<String> {
    keymap()
        .iter()
        .find(|b| &b.action == action)
        .map(|b| key_label(&b.keys[0]))
}

/// A binding's keys as help lists them: each label once, joined by ` / `.
fn keys_label(b: &Binding) -> String {
    let mut keys: Vec<String> = Vec::new();
    for spec in b.keys.iter() {
        let l = key_label(spec);
        if !keys.contains(&l) {
            keys.push(l);
        }
    }
    keys.join(" / ")
}

/// The rows of the help overlay: `(context, keys, help)`, one per binding.
pub fn help_rows() -> Vec<(Context, String, &'static str)> {
    keymap()
        .iter()
        .map(|b| (b.context, keys_label(b), b.help.as_ref()))
        .collect()
}

/// The help rows `(keys, help)` of tab `tab`'s own commands that work only while it is shown
/// (its commands that work anywhere are in [`help_rows`]' Anywhere section).
pub fn tab_help_rows(tab: TabId) -> Vec<(String, &'static str)> {
    keymap()
        .iter()
        .filter(|b| b.context != Context::Global)
        .filter(|b| matches!(&b.action, Action::Tab(cmd) if cmd.tab == tab))
        .map(|b| (keys_label(b), b.help.as_ref()))
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
    use crate::tui::action::{ALT, CTRL, NONE, SHIFT};
    use crossterm::event::KeyModifiers;

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
