//! The preset browser's state: the registry's entries, a filter typed by the user, the
//! selected row.

use crate::flavor::{Flags, Flavor};
use crate::presets::load::{Format, load_file, load_str};
use crate::presets::model::{Entry, Example, GroupDoc, Origin, Preset};
use crate::workbench::{Expect, LineEditor, Workbench};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    /// For each example, the expected texts of groups 1, 2, … as far as the example pins them.
    pub example_groups: Vec<Vec<String>>,
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
    /// The registry itself (the Lens tab runs it).
    pub catalog: std::sync::Arc<crate::presets::model::Catalog>,
}

impl PresetView {
    /// The browser's view of a registry entry.
    pub fn from_entry(e: &Entry) -> PresetView {
        let p = &e.preset;
        let names = e.group_names();
        let example_groups = p
            .examples
            .iter()
            .map(|ex| {
                // Positional expectations for groups 1.. as long as each is named and pinned.
                names
                    .iter()
                    .map_while(|n| n.as_ref().and_then(|n| ex.groups.get(n)).cloned())
                    .collect()
            })
            .collect();
        PresetView {
            key: p.key.clone(),
            description: p.purpose.clone(),
            pattern: p.pattern.clone(),
            flavor: p.flavor,
            flags: Flags::parse(&p.flags, p.flavor).unwrap_or_default(),
            groups: p
                .groups
                .iter()
                .map(|g| (g.name.clone(), g.description.clone()))
                .collect(),
            examples: p.examples.iter().map(|x| x.text.clone()).collect(),
            example_groups,
            counterexamples: p.counter_examples.clone(),
            origin: e.origin.to_string(),
        }
    }

    /// The preset's examples and counter-examples as lines for the Tests tab (`+ text`,
    /// `+ text => g1, g2`, `- text`). Multi-line examples cannot be one test line and are left
    /// out.
    pub fn test_lines(&self) -> String {
        let mut s = String::new();
        for (i, e) in self.examples.iter().enumerate() {
            if e.contains('\n') {
                continue;
            }
            match self.example_groups.get(i).filter(|g| {
                !g.is_empty() && g.iter().all(|v| !v.contains(", ") && !v.contains('\n'))
            }) {
                Some(g) => s.push_str(&format!("+ {e} => {}\n", g.join(", "))),
                None => s.push_str(&format!("+ {e}\n")),
            }
        }
        for e in &self.counterexamples {
            if !e.contains('\n') {
                s.push_str(&format!("- {e}\n"));
            }
        }
        s
    }
}

/// A saved preset file: the `[[preset]]` tables of the user registry.
#[derive(Serialize)]
struct UserRegistry {
    name: String,
    description: String,
    preset: Vec<Preset>,
}

/// What to do with the Tests tab's failing lines when saving a preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailingTests {
    /// Refuse the save (the preset's examples would fail their own check).
    Refuse,
    /// Save with only the passing lines as its examples (the user was told which fail and
    /// accepted).
    LeaveOut,
}

/// The Tests tab's failing lines, said in one sentence (`None` when every line passes): what
/// the save prompt shows before the user saves.
pub fn failing_tests(wb: &Workbench) -> Option<String> {
    let outcomes = wb.test_outcomes();
    let failing: Vec<_> = outcomes
        .iter()
        .filter(|o| o.passed() == Some(false))
        .collect();
    let first = failing.first()?;
    Some(format!(
        "{} of the Tests tab's {} lines fail{} (line {}: {:?})",
        failing.len(),
        outcomes.len(),
        if failing.len() == 1 { "s" } else { "" },
        // The Tests tab counts its lines from 0; people count from 1.
        first.line + 1,
        first.subject
    ))
}

/// Writes the workbench's pattern, flavor, flags, group notes and tests as preset `key` into
/// `dir/user.toml` (replacing a preset of the same key there), atomically. Group descriptions
/// are kept from the loaded preset where the group names still exist. The Tests tab's lines
/// become the preset's examples, which `rxw preset check` runs: failing lines refuse the save
/// or are left out, as `failing` says. Returns the file written and how many lines were left
/// out.
///
/// # Errors
/// The pattern does not compile, a test line fails under [`FailingTests::Refuse`], the
/// existing user registry is invalid, or the file cannot be written.
pub fn save_to_user_registry(
    dir: &Path,
    key: &str,
    wb: &Workbench,
    failing: FailingTests,
) -> anyhow::Result<(PathBuf, usize)> {
    let re = wb
        .compiled()
        .map_err(|e| anyhow::anyhow!("the pattern does not compile: {}", e.message))?;
    let outcomes = wb.test_outcomes();
    let left_out = outcomes
        .iter()
        .filter(|o| o.passed() == Some(false))
        .count();
    if failing == FailingTests::Refuse
        && let Some(why) = failing_tests(wb)
    {
        anyhow::bail!(
            "not saved: {why}; the preset's examples would fail their own check: fix the \
             pattern or the tests"
        );
    }
    let path = dir.join("user.toml");
    let mut presets: Vec<Preset> = if path.exists() {
        load_file(&path)
            .map_err(|e| anyhow::anyhow!("{}", e.message))?
            .into_iter()
            .map(|e| e.preset)
            .filter(|p| p.key != key)
            .collect()
    } else {
        Vec::new()
    };
    // The registry the workbench runs (the lens's) is the one the preset was loaded from.
    let loaded = wb
        .preset
        .as_deref()
        .and_then(|k| wb.lens.catalog().get(k))
        .map(PresetView::from_entry);
    let loaded = loaded.as_ref();
    let names: Vec<&str> = re
        .group_names()
        .iter()
        .flatten()
        .map(String::as_str)
        .collect();
    let groups = names
        .iter()
        .map(|n| GroupDoc {
            name: n.to_string(),
            description: loaded
                .and_then(|p| p.groups.iter().find(|(g, _)| g == n))
                .map_or_else(String::new, |(_, d)| d.clone()),
        })
        .collect();
    let mut examples = Vec::new();
    let mut counter_examples = Vec::new();
    for o in outcomes.into_iter().filter(|o| o.passed() != Some(false)) {
        match o.expect {
            Expect::Match | Expect::Nothing if o.found.is_some() => examples.push(Example {
                text: o.subject,
                whole: None,
                groups: BTreeMap::new(),
                unset: Vec::new(),
            }),
            Expect::Groups(want) => {
                let groups = names
                    .iter()
                    .zip(&want)
                    .filter(|(n, _)| !n.is_empty())
                    .map(|(n, v)| (n.to_string(), v.clone()))
                    .collect::<BTreeMap<_, _>>();
                let unnamed = re
                    .group_names()
                    .iter()
                    .take(want.len())
                    .any(Option::is_none);
                examples.push(Example {
                    text: o.subject,
                    whole: None,
                    groups: if unnamed { BTreeMap::new() } else { groups },
                    unset: Vec::new(),
                })
            }
            Expect::NoMatch => counter_examples.push(o.subject),
            _ => {}
        }
    }
    presets.push(Preset {
        key: key.to_string(),
        purpose: loaded.map_or_else(
            || "saved from the rxw workbench".to_string(),
            |p| p.description.clone(),
        ),
        flavor: wb.flavor,
        flags: wb.flags.letters(wb.flavor),
        pattern: wb.pattern.text().to_string(),
        notes: None,
        groups,
        examples,
        counter_examples,
    });
    let file = UserRegistry {
        name: "user".into(),
        description: "presets saved from the rxw workbench".into(),
        preset: presets,
    };
    let text = toml::to_string(&file)?;
    // Check that what we write loads back before replacing the old file.
    load_str(&text, Format::Toml, "user.toml", Origin::File(path.clone()))
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    std::fs::create_dir_all(dir)?;
    crate::export::write_atomically(&path, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    Ok((path, left_out))
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

    /// Selects the preset with this key (clearing the filter).
    pub fn select_key(&mut self, key: &str) {
        self.filter.set("");
        self.refilter();
        if let Some(i) = self.visible.iter().position(|&i| self.all[i].key == key) {
            self.selected = i;
        }
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
            flavor: Flavor::PYTHON,
            flags: Flags::default(),
            groups: vec![],
            examples: vec![],
            example_groups: vec![],
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
