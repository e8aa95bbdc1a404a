//! The pattern history, per flavor family, as a shell keeps its commands: a pattern run with
//! Enter, left for another pane, or on screen at the end is remembered (newest last, each
//! once); Up and Down in the pattern pane walk the current family's patterns and come back to
//! what was being typed; Ctrl-R searches them. The session keeps it (even a `--fresh` start
//! keeps the history, as a shell's new session keeps its history).

use std::collections::BTreeMap;

/// Earlier patterns, per flavor family (`python`, `js`, `rust`, …).
#[derive(Debug, Clone, Default)]
pub struct PatternHistory {
    by_family: BTreeMap<String, Vec<String>>,
    /// While browsing: the family browsed, the entry shown, and the text being typed before
    /// browsing began.
    at: Option<(String, usize, String)>,
}

impl PatternHistory {
    /// Most patterns kept per family.
    pub const KEPT: usize = 100;

    /// A history from the saved patterns of each family (oldest first), trimmed to
    /// [`PatternHistory::KEPT`] each.
    pub fn from_families(by_family: BTreeMap<String, Vec<String>>) -> PatternHistory {
        let mut h = PatternHistory::default();
        for (family, patterns) in by_family {
            for p in patterns {
                h.remember(&family, &p);
            }
        }
        h
    }

    /// Every family's patterns, oldest first (what the session saves).
    pub fn families(&self) -> &BTreeMap<String, Vec<String>> {
        &self.by_family
    }

    /// The patterns of `family`, oldest first.
    pub fn entries(&self, family: &str) -> &[String] {
        self.by_family.get(family).map_or(&[], Vec::as_slice)
    }

    /// Remembers `pattern` as the newest of `family` (once: an earlier copy moves up).
    pub fn remember(&mut self, family: &str, pattern: &str) {
        self.at = None;
        if pattern.trim().is_empty() {
            return;
        }
        let entries = self.by_family.entry(family.to_string()).or_default();
        if entries.last().is_some_and(|p| p == pattern) {
            return;
        }
        entries.retain(|p| p != pattern);
        entries.push(pattern.to_string());
        let excess = entries.len().saturating_sub(Self::KEPT);
        entries.drain(..excess);
    }

    /// The pattern of `family` before the one shown (`typed` is kept to come back to).
    pub fn older(&mut self, family: &str, typed: &str) -> Option<String> {
        let entries = self.by_family.get(family)?;
        let next = match &self.at {
            Some((f, 0, _)) if f == family => return None,
            Some((f, i, _)) if f == family => i - 1,
            _ => {
                // Starting from a typed pattern equal to the newest entry skips it.
                let newest = entries.len().checked_sub(1)?;
                if entries[newest] == typed {
                    newest.checked_sub(1)?
                } else {
                    newest
                }
            }
        };
        let draft = match self.at.take() {
            Some((f, _, d)) if f == family => d,
            _ => typed.to_string(),
        };
        let shown = entries[next].clone();
        self.at = Some((family.to_string(), next, draft));
        Some(shown)
    }

    /// The pattern after the one shown, or what was being typed past the newest.
    pub fn newer(&mut self, family: &str) -> Option<String> {
        let (f, i, draft) = self.at.take()?;
        if f != family {
            return None;
        }
        let entries = self.entries(family);
        if i + 1 < entries.len() {
            let shown = entries[i + 1].clone();
            self.at = Some((f, i + 1, draft));
            Some(shown)
        } else {
            Some(draft)
        }
    }

    /// Ends browsing (an edit or another key): the shown pattern stays.
    pub fn stop_browsing(&mut self) {
        self.at = None;
    }

    /// The patterns of `family` containing `query` (see [`matching`]), newest first.
    pub fn search(&self, family: &str, query: &str) -> Vec<String> {
        matching(self.entries(family), query)
    }
}

/// The `entries` (oldest first) containing `query`, newest first: case-insensitively when
/// the query has no capital letter, as fzf's and shells' smart case do.
pub fn matching(entries: &[String], query: &str) -> Vec<String> {
    entries
        .iter()
        .rev()
        .filter(|p| contains_smart(p, query))
        .cloned()
        .collect()
}

/// Whether `text` contains `query`: case-insensitively when the query has no capital letter
/// (smart case), exactly otherwise.
pub fn contains_smart(text: &str, query: &str) -> bool {
    if query.chars().any(char::is_uppercase) {
        text.contains(query)
    } else {
        text.to_lowercase().contains(&query.to_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_family_has_its_own_patterns_newest_last_each_once() {
        let mut h = PatternHistory::default();
        h.remember("python", "a+");
        h.remember("js", "b+");
        h.remember("python", "c+");
        h.remember("python", "a+");
        h.remember("python", "  ");
        assert_eq!(h.entries("python"), ["c+", "a+"]);
        assert_eq!(h.entries("js"), ["b+"]);
        assert_eq!(h.older("js", "x"), Some("b+".into()));
        assert_eq!(h.older("js", "b+"), None, "the oldest stays");
        assert_eq!(h.newer("js"), Some("x".into()), "back to what was typed");
        assert_eq!(h.older("go", "x"), None, "no history for go");
    }

    #[test]
    fn search_is_newest_first_and_smart_about_case() {
        let mut h = PatternHistory::default();
        for p in ["CLAIM (\\w+)", "claim", "RESULT", "Claim\\b"] {
            h.remember("python", p);
        }
        assert_eq!(
            h.search("python", "claim"),
            ["Claim\\b", "claim", "CLAIM (\\w+)"]
        );
        assert_eq!(h.search("python", "CLAIM"), ["CLAIM (\\w+)"]);
        assert_eq!(h.search("python", "nope"), Vec::<String>::new());
        assert_eq!(h.search("python", "").len(), 4);
    }

    #[test]
    fn at_most_kept_per_family() {
        let mut saved = BTreeMap::new();
        saved.insert(
            "python".to_string(),
            (0..PatternHistory::KEPT + 5)
                .map(|i| format!("p{i}"))
                .collect::<Vec<_>>(),
        );
        let h = PatternHistory::from_families(saved);
        assert_eq!(h.entries("python").len(), PatternHistory::KEPT);
        assert_eq!(h.entries("python")[0], "p5");
    }
}
