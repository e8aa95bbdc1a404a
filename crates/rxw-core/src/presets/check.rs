//! The registry as a test table: every example and counter-example run as a case.

use super::model::{Catalog, Entry, Example};
use crate::engine::redos::{RedosOptions, RedosReport};
use serde::Serialize;

/// What a case checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseKind {
    /// A text that must match, with the expected groups.
    Example,
    /// A text that must not match anywhere.
    CounterExample,
    /// Every named group of the pattern has a description.
    GroupsDocumented,
    /// The pattern does not backtrack catastrophically: no attack string makes the matcher's
    /// steps grow faster than linearly.
    Redos,
}

/// One case and its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaseResult {
    /// The preset's key.
    pub key: String,
    /// What was checked.
    pub kind: CaseKind,
    /// 1-based number of the case within its kind for this preset.
    pub number: usize,
    /// The text tried (empty for [`CaseKind::GroupsDocumented`]).
    pub text: String,
    /// `None` when the case passed, else why it failed.
    pub failure: Option<String>,
    /// The ReDoS verdict with its proof ([`CaseKind::Redos`] only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redos: Option<RedosReport>,
}

impl CaseResult {
    /// True when the case passed.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// Runs every case of every preset in the catalog, in order.
pub fn check(catalog: &Catalog) -> Vec<CaseResult> {
    catalog.entries().iter().flat_map(check_entry).collect()
}

/// Runs one preset's cases.
pub fn check_entry(entry: &Entry) -> Vec<CaseResult> {
    let key = &entry.preset.key;
    let mut out = Vec::new();
    let undocumented: Vec<&str> = entry
        .group_names()
        .iter()
        .flatten()
        .filter(|n| {
            entry
                .group_description(n)
                .is_none_or(|d| d.trim().is_empty())
        })
        .map(String::as_str)
        .collect();
    out.push(CaseResult {
        key: key.clone(),
        kind: CaseKind::GroupsDocumented,
        number: 1,
        text: String::new(),
        failure: (!undocumented.is_empty())
            .then(|| format!("no description for group(s) {}", undocumented.join(", "))),
        redos: None,
    });
    for (i, ex) in entry.preset.examples.iter().enumerate() {
        out.push(CaseResult {
            key: key.clone(),
            kind: CaseKind::Example,
            number: i + 1,
            text: ex.text.clone(),
            failure: example_failure(entry, ex),
            redos: None,
        });
    }
    for (i, text) in entry.preset.counter_examples.iter().enumerate() {
        let failure = match entry.regex().and_then(|re| re.find_all(text, Some(1))) {
            Ok(ms) => ms
                .first()
                .map(|m| format!("matched {:?} at byte {}", m.as_str(text), m.start())),
            Err(e) => Some(format!("error: {}", e.message)),
        };
        out.push(CaseResult {
            key: key.clone(),
            kind: CaseKind::CounterExample,
            number: i + 1,
            text: text.clone(),
            failure,
            redos: None,
        });
    }
    out.push(redos_case(entry));
    out
}

/// The wall-clock budget of a preset's ReDoS check. The registry check is a test table, so its
/// verdicts must be the same on every machine: the check's step caps decide them, and the
/// clock only stops a runaway (a debug build in a loaded test run needs seconds where a
/// release build needs a tenth; the agent tool's 900 ms contract is for interactive calls).
const CHECK_TIME: std::time::Duration = std::time::Duration::from_secs(30);

/// The preset's ReDoS verdict as a case: it fails when an attack string makes the matcher's
/// steps grow polynomially or exponentially; the text is the attack at the largest `n` shown.
fn redos_case(entry: &Entry) -> CaseResult {
    let report = entry.regex().and_then(|re| {
        re.redos(RedosOptions {
            time: CHECK_TIME,
            ..RedosOptions::default()
        })
    });
    let (text, failure, redos) = match report {
        Ok(r) => {
            let text = match (&r.attack, r.steps.last()) {
                (Some(a), Some(p)) => a.at(p.n.min(24)),
                _ => String::new(),
            };
            let failure = r.verdict.is_vulnerable().then(|| {
                let a = r.attack.as_ref();
                format!(
                    "{}{}: {}; attack {:?} + {:?} × n + {:?}",
                    r.verdict.name(),
                    r.degree
                        .map(|d| format!(" (degree {d})"))
                        .unwrap_or_default(),
                    r.reason,
                    a.map_or("", |a| &a.prefix),
                    a.map_or("", |a| &a.pump),
                    a.map_or("", |a| &a.suffix),
                )
            });
            (text, failure, Some(r))
        }
        Err(e) => (String::new(), Some(format!("error: {}", e.message)), None),
    };
    CaseResult {
        key: entry.preset.key.clone(),
        kind: CaseKind::Redos,
        number: 1,
        text,
        failure,
        redos,
    }
}

fn example_failure(entry: &Entry, ex: &Example) -> Option<String> {
    let text = &ex.text;
    let m = match entry.regex().and_then(|re| re.find_all(text, Some(1))) {
        Ok(ms) => match ms.into_iter().next() {
            Some(m) => m,
            None => return Some("no match".to_string()),
        },
        Err(e) => return Some(format!("error: {}", e.message)),
    };
    let mut problems = Vec::new();
    if let Some(want) = &ex.whole
        && m.as_str(text) != want
    {
        problems.push(format!("match is {:?}, expected {want:?}", m.as_str(text)));
    }
    let group = |name: &str| {
        let k = entry
            .group_names()
            .iter()
            .position(|n| n.as_deref() == Some(name))?;
        m.group(text, k + 1)
    };
    for (name, want) in &ex.groups {
        match group(name) {
            Some(got) if got == want => {}
            Some(got) => problems.push(format!("group {name} is {got:?}, expected {want:?}")),
            None => problems.push(format!("group {name} did not take part, expected {want:?}")),
        }
    }
    for name in &ex.unset {
        if let Some(got) = group(name) {
            problems.push(format!(
                "group {name} is {got:?}, expected it not to take part"
            ));
        }
    }
    (!problems.is_empty()).then(|| problems.join("; "))
}
