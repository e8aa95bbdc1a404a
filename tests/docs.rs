//! The documentation holds together: the README stays short, every page of the user guide is
//! in its table of contents, every relative link and anchor in the README and the guide leads
//! somewhere, and the command-line reference is what the clap definitions print today.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn guide() -> PathBuf {
    repo().join("docs/src")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The guide's pages (Markdown files under docs/src).
fn pages() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(guide())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    out.sort();
    out
}

/// Lines outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// The anchor GitHub and mdBook give a heading: lower case, spaces to `-`, punctuation other
/// than `-` and `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .iter()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|h| slug(h.trim_start_matches('#')))
        .collect()
}

/// The targets of inline links and images, `](target)`, outside code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        // Inline code may hold `](` that is not a link.
        let line: String = line.split('`').step_by(2).collect::<Vec<_>>().join("");
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            if let Some(end) = rest.find(')') {
                let target = rest[..end].split_whitespace().next().unwrap_or("");
                out.push(target.to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

fn broken_links(file: &Path) -> Vec<String> {
    let text = read(file);
    let dir = file.parent().unwrap();
    let mut broken = Vec::new();
    for target in links(&text) {
        if target.is_empty() {
            broken.push("(empty link)".to_string());
            continue;
        }
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let linked = if path.is_empty() {
            file.to_path_buf()
        } else {
            dir.join(path)
        };
        if !linked.exists() {
            broken.push(format!("{target}: no such file"));
            continue;
        }
        if let Some(anchor) = anchor
            && !anchors(&read(&linked)).contains(anchor)
        {
            broken.push(format!("{target}: no heading with that anchor"));
        }
    }
    broken
}

#[test]
fn the_readme_fits_two_screens_and_names_the_two_commands() {
    let readme = read(&repo().join("README.md"));
    let n = readme.lines().count();
    assert!(
        n <= 250,
        "README.md has {n} lines; the guide in docs/ is for the rest"
    );
    assert!(readme.contains("cargo run --release"));
    assert!(readme.contains("cargo test"));
}

#[test]
fn every_page_is_in_the_table_of_contents_and_every_entry_exists() {
    let summary = read(&guide().join("SUMMARY.md"));
    let listed: BTreeSet<String> = links(&summary).into_iter().collect();
    for page in pages() {
        let name = page.file_name().unwrap().to_string_lossy().to_string();
        if name != "SUMMARY.md" {
            assert!(listed.contains(&name), "{name} is not in SUMMARY.md");
        }
    }
    for entry in &listed {
        assert!(
            guide().join(entry).exists(),
            "SUMMARY.md lists {entry}, which is missing"
        );
    }
}

#[test]
fn links_and_anchors_in_the_readme_and_the_guide_resolve() {
    let mut files = pages();
    files.push(repo().join("README.md"));
    files.push(repo().join("benches/README.md"));
    let mut broken = Vec::new();
    for file in &files {
        for b in broken_links(file) {
            broken.push(format!(
                "{}: {b}",
                file.strip_prefix(repo()).unwrap().display()
            ));
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_checker_sees_a_broken_link_and_a_broken_anchor() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.md"), "# A title, here\n").unwrap();
    let a = dir.path().join("a.md");
    std::fs::write(
        &a,
        "[ok](b.md#a-title-here) [gone](c.md) [bad](b.md#nope) `[code](x.md)`\n```\n[fenced](y.md)\n```\n",
    )
    .unwrap();
    assert_eq!(
        broken_links(&a),
        vec![
            "c.md: no such file",
            "b.md#nope: no heading with that anchor"
        ]
    );
}

#[test]
fn the_command_line_reference_is_generated_from_the_definitions() {
    let path = guide().join("reference.md");
    let want = rxw::cli::reference::markdown();
    if std::env::var_os("RXW_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/src/reference.md is out of date: run `RXW_UPDATE_DOCS=1 cargo test --test docs`"
    );
    for command in ["find", "parse", "jobs", "audit", "mcp"] {
        assert!(want.contains(&format!("`rxw {command}`")), "{command}");
    }
}
