//! The preset browser's state: the registry's entries, a filter typed by the user, the
//! selected row.

use crate::flavor::{Flags, Flavor};
use crate::workbench::LineEditor;

/// One preset as the browser shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PresetView {
    /// Registry key (`verb`, `uuid`, …).
    pub key: String,
    /// What it is for.
    pub description: String,
    /// The pattern.
    pub pattern: String,
    /// Its flavor.
    pub flavor: Flavor,
    /// Its flags.
    pub flags: Flags,
    /// `(group name, description)`.
    pub groups: Vec<(String, String)>,
    /// Strings it must match.
    pub examples: Vec<String>,
    /// Strings it must not match.
    pub counterexamples: Vec<String>,
    /// Which registry it came from (`netvm`, `user`).
    pub origin: String,
}

/// The browser: every preset, the filter, the selection.
#[derive(Debug, Clone, Default)]
pub struct PresetBrowser {
    /// Every preset.
    pub all: Vec<PresetView>,
    /// The filter editor.
    pub filter: LineEditor,
    /// Indices into `all` that pass the filter.
    pub visible: Vec<usize>,
    /// Index into `visible`.
    pub selected: usize,
    /// Why the registry could not be loaded, if it could not.
    pub load_error: Option<String>,
}

impl PresetBrowser {
    /// A browser over `all`.
    pub fn new(all: Vec<PresetView>) -> PresetBrowser {
        let mut b = PresetBrowser {
            all,
            ..Default::default()
        };
        b.refilter();
        b
    }

    /// The preset with this key.
    pub fn find(&self, key: &str) -> Option<&PresetView> {
        self.all.iter().find(|p| p.key == key)
    }

    /// Recomputes the visible rows: every word of the filter must occur in the key,
    /// description or pattern (case-insensitive).
    pub fn refilter(&mut self) {
        let words: Vec<String> = self
            .filter
            .text()
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        self.visible = self
            .all
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                let hay = format!("{} {} {}", p.key, p.description, p.pattern).to_lowercase();
                words.iter().all(|w| hay.contains(w.as_str()))
            })
            .map(|(i, _)| i)
            .collect();
        self.selected = self.selected.min(self.visible.len().saturating_sub(1));
    }

    /// The selected preset.
    pub fn selected_preset(&self) -> Option<&PresetView> {
        self.visible.get(self.selected).map(|&i| &self.all[i])
    }

    /// Moves the selection.
    pub fn move_by(&mut self, delta: isize) {
        if self.visible.is_empty() {
            return;
        }
        self.selected =
            (self.selected as isize + delta).clamp(0, self.visible.len() as isize - 1) as usize;
    }

    /// The first row on screen in a list of `rows` rows (the selection kept in view).
    pub fn top(&self, rows: usize) -> usize {
        (self.selected + 1).saturating_sub(rows.max(1))
    }

    /// Selects the row clicked, `row` lines below the filter line, in a list of `rows` rows.
    pub fn click_row(&mut self, row: usize, rows: usize) {
        let i = self.top(rows) + row;
        if i < self.visible.len() {
            self.selected = i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(key: &str, desc: &str) -> PresetView {
        PresetView {
            key: key.into(),
            description: desc.into(),
            pattern: "x".into(),
            flavor: Flavor::Python,
            flags: Flags::default(),
            groups: vec![],
            examples: vec![],
            counterexamples: vec![],
            origin: "netvm".into(),
        }
    }

    #[test]
    fn filter_matches_every_word() {
        let mut b = PresetBrowser::new(vec![
            view("uuid", "RFC 4122 UUID"),
            view("verb", "agent verbs"),
            view("ack", "ACK lines"),
        ]);
        b.filter.insert("ag VER");
        b.refilter();
        assert_eq!(b.visible, vec![1]);
        b.filter.set("");
        b.refilter();
        assert_eq!(b.visible.len(), 3);
        b.move_by(10);
        assert_eq!(b.selected_preset().unwrap().key, "ack");
    }
}
