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

// ---------------------------------------------------------------------------------------------
// The README's shell examples run, on the files the repository ships (examples/fleet/).

/// Shell examples of the README that are not run, each with the reason: the interactive ones,
/// and the test suite itself. Every other example is run; an entry that is no longer in the
/// README fails the test, so the list cannot grow stale.
const NOT_RUN: &[(&str, &str)] = &[
    ("cargo run --release", "opens the interactive workbench"),
    ("cargo test", "the test suite itself"),
    (
        r"rxw --flavor python -e '\[(?P<verb>ACK|CLAIM|RESULT)\s+(?P<job_id>[\w/-]+)\]' examples/fleet/logs/agent-7.log",
        "opens the interactive workbench",
    ),
];

/// A command of a shell block, and the output shown under it (prompted blocks only).
#[derive(Debug)]
struct Example {
    /// The block, counted from 1, so that a redirected file is found by the next commands.
    block: usize,
    /// The README's line.
    line: usize,
    /// As written, with its `# comment`.
    command: String,
    /// The lines shown under it; a line `…` stands for lines left out.
    shown: Vec<String>,
}

impl Example {
    /// The command without a trailing `# comment`.
    fn bare(&self) -> &str {
        match self
            .command
            .find("  #")
            .or_else(|| self.command.find(" # "))
        {
            Some(i) => self.command[..i].trim_end(),
            None => self.command.trim_end(),
        }
    }

    /// The exit status the example implies: a comment saying `exit N` says it; an error shown
    /// (`rxw: …`, not a warning) is 2; anything else succeeds.
    fn status(&self) -> i32 {
        let comment = &self.command[self.bare().len()..];
        for n in 0..=2 {
            if comment.contains(&format!("exit {n}")) {
                return n;
            }
        }
        match self.shown.first() {
            Some(l) if l.starts_with("rxw: ") && !l.starts_with("rxw: warning") => 2,
            _ => 0,
        }
    }
}

/// The commands of the ```sh blocks of a Markdown text. In a block with `$ ` prompts a command
/// is a prompted line and the lines up to the next prompt are its output; in a block without
/// prompts every line is a command.
fn shell_examples(markdown: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut block: Option<Vec<(usize, &str)>> = None;
    let mut blocks = 0;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match &mut block {
            None if fence && line.trim() == "```sh" => block = Some(Vec::new()),
            None => {}
            Some(lines) if !fence => lines.push((i + 1, line)),
            Some(lines) => {
                blocks += 1;
                let prompted = lines.iter().any(|(_, l)| l.starts_with("$ "));
                for &(n, l) in lines.iter() {
                    if let Some(command) = l.strip_prefix("$ ") {
                        out.push(Example {
                            block: blocks,
                            line: n,
                            command: command.to_string(),
                            shown: Vec::new(),
                        });
                    } else if prompted {
                        if let Some(last) = out.last_mut().filter(|e| e.block == blocks) {
                            last.shown.push(l.trim_end().to_string());
                        }
                    } else if !l.trim().is_empty() {
                        out.push(Example {
                            block: blocks,
                            line: n,
                            command: l.to_string(),
                            shown: Vec::new(),
                        });
                    }
                }
                block = None;
            }
        }
    }
    out
}

/// Whether `line` is what the shown line `shown` shows: the same text, where a `…` inside the
/// line stands for any text (`[{"index":8,…}]`).
fn shows_line(shown: &str, line: &str) -> bool {
    let parts: Vec<&str> = shown.split('…').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() == 1 {
        return shown == line;
    }
    if !line.starts_with(first) || !line[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `actual` is what `shown` shows: the shown lines in order, a `…` line standing for
/// any number of lines (the shown text starts at the output's start and ends at its end unless
/// a `…` says otherwise), a `…` inside a line for any text there. Trailing blanks are ignored.
fn shows(shown: &[String], actual: &str) -> bool {
    let actual: Vec<&str> = actual.trim_end().lines().map(str::trim_end).collect();
    let mut shown: Vec<&str> = shown.iter().map(String::as_str).collect();
    while shown.last().is_some_and(|l| l.is_empty()) {
        shown.pop();
    }
    let segments: Vec<&[&str]> = shown.split(|l| *l == "…").collect();
    let mut at = 0;
    for (k, segment) in segments.iter().enumerate() {
        let first = k == 0;
        let last = k == segments.len() - 1;
        if segment.is_empty() {
            continue;
        }
        let fits = |i: usize| {
            actual.get(i..i + segment.len()).is_some_and(|lines| {
                lines
                    .iter()
                    .zip(segment.iter())
                    .all(|(a, s)| shows_line(s, a))
            })
        };
        let found = if first {
            fits(0).then_some(0)
        } else {
            (at..=actual.len().saturating_sub(segment.len())).find(|&i| fits(i))
        };
        let Some(i) = found else { return false };
        at = i + segment.len();
        if last && at != actual.len() {
            return false;
        }
    }
    true
}

/// A file name a command writes with `> NAME` (a bare name: the runner puts it in a scratch
/// folder instead of the repository).
fn redirected(command: &str) -> Option<&str> {
    let (_, target) = command.rsplit_once(" > ")?;
    let target = target.trim();
    target
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        .then_some(target)
}

/// `command` with every word `name` (the redirected file) replaced by `path`.
fn in_scratch(command: &str, name: &str, path: &Path) -> String {
    command
        .split(' ')
        .map(|w| {
            if w == name {
                path.display().to_string()
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a run of an example gave.
struct Ran {
    status: i32,
    stdout: String,
    stderr: String,
}

/// Runs `command` with `sh -c` in the repository root, the built `rxw` first on the PATH, in
/// a scrubbed environment (no user config, no colour; HOME and the config in `scratch`).
fn run_shell(command: &str, scratch: &Path) -> Ran {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_rxw"));
    let mut path = std::ffi::OsString::from(bin.parent().unwrap());
    if let Some(rest) = std::env::var_os("PATH") {
        path.push(":");
        path.push(rest);
    }
    let gocache = std::env::var_os("GOCACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("rxw-docs-gocache"));
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(repo())
        .env_clear()
        .env("PATH", path)
        .env("HOME", scratch)
        .env("XDG_CONFIG_HOME", scratch)
        .env("XDG_STATE_HOME", scratch)
        .env("NO_COLOR", "1")
        .env("LANG", "C.UTF-8")
        .env("GOCACHE", gocache)
        .env("GOTOOLCHAIN", "local")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs");
    Ran {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Whether the program `name` is on the PATH.
fn installed(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file()))
}

/// Runs every example of `examples` but those in `skip`; returns each run example's run (by
/// its command) and the failures, said.
fn run_examples(
    examples: &[Example],
    skip: &[(&str, &str)],
    scratch: &Path,
) -> (Vec<(String, Ran)>, Vec<String>) {
    let mut ran = Vec::new();
    let mut failures = Vec::new();
    // Files the examples of a block wrote with `> NAME`: (block, name).
    let mut written: Vec<(usize, String)> = Vec::new();
    for example in examples {
        let bare = example.bare();
        if skip.iter().any(|(c, _)| *c == bare) {
            continue;
        }
        let program = bare.split_whitespace().next().unwrap_or("");
        if program != "rxw" && !installed(program) {
            rxw_testkit::missing(
                program,
                &format!("the example on line {}, `{bare}`, is not run", example.line),
            );
            continue;
        }
        let mut command = example.command.clone();
        for (block, name) in &written {
            if *block == example.block {
                command = in_scratch(&command, name, &scratch.join(name));
            }
        }
        let target = redirected(bare).map(str::to_string);
        if let Some(name) = &target {
            written.push((example.block, name.clone()));
            command = in_scratch(&command, name, &scratch.join(name));
        }
        let run = run_shell(&command, scratch);
        let mut wrong = Vec::new();
        let want = example.status();
        if run.status != want {
            wrong.push(format!("exit {} where {want} is implied", run.status));
        }
        if !example.shown.is_empty() {
            let both = format!("{}{}", run.stdout, run.stderr);
            if !shows(&example.shown, &both) {
                wrong.push(format!(
                    "the output is not what the README shows:\n{}",
                    both.trim_end()
                ));
            }
        } else if let Some(name) = &target {
            let len = std::fs::metadata(scratch.join(name)).map_or(0, |m| m.len());
            if len == 0 {
                wrong.push(format!("wrote nothing to {name}"));
            }
        } else if run.stdout.trim().is_empty() {
            wrong.push("printed nothing".to_string());
        }
        if !wrong.is_empty() {
            failures.push(format!(
                "line {}: `{}`: {}\n{}",
                example.line,
                bare,
                wrong.join("; "),
                run.stderr.trim_end()
            ));
        }
        ran.push((bare.to_string(), run));
    }
    (ran, failures)
}

/// The logs of the sample fleet, decoded: (file name, text).
fn fleet_logs() -> Vec<(String, String)> {
    use std::io::Read as _;
    let mut logs: Vec<(String, String)> = std::fs::read_dir(repo().join("examples/fleet/logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let text = if name.ends_with(".gz") {
                let mut s = String::new();
                flate2::read::GzDecoder::new(&bytes[..])
                    .read_to_string(&mut s)
                    .unwrap();
                s
            } else {
                String::from_utf8(bytes).unwrap()
            };
            (name, text)
        })
        .collect();
    logs.sort();
    logs
}

#[test]
fn every_shell_example_of_the_readme_runs_on_the_shipped_files() {
    let readme = read(&repo().join("README.md"));
    let examples = shell_examples(&readme);
    for (command, why) in NOT_RUN {
        assert!(
            examples.iter().any(|e| e.bare() == *command),
            "NOT_RUN lists `{command}` ({why}), which the README no longer has"
        );
    }
    let runnable: Vec<&Example> = examples
        .iter()
        .filter(|e| !NOT_RUN.iter().any(|(c, _)| *c == e.bare()))
        .collect();
    assert!(
        runnable
            .iter()
            .filter(|e| e.bare().contains("rxw "))
            .count()
            >= 7,
        "the README's examples were not found: {examples:#?}"
    );
    // Every file an example names is in the repository.
    for e in &examples {
        for word in e.bare().split_whitespace() {
            if word.starts_with("examples/") {
                assert!(
                    repo().join(word).exists(),
                    "README line {}: {word} does not exist",
                    e.line
                );
            }
        }
    }
    let scratch = tempfile::tempdir().unwrap();
    let (ran, failures) = run_examples(&examples, NOT_RUN, scratch.path());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));

    // Two answers checked against the files themselves.
    let logs = fleet_logs();
    assert_eq!(
        logs.len(),
        3,
        "{:?}",
        logs.iter().map(|l| &l.0).collect::<Vec<_>>()
    );
    assert!(logs.iter().any(|(n, _)| n.ends_with(".gz")));
    let output = |prefix: &str| -> &Ran {
        &ran.iter()
            .find(|(c, _)| c.starts_with(prefix))
            .unwrap_or_else(|| panic!("the README has no `{prefix}` example"))
            .1
    };
    // `grep -o CLAIM | wc -l` over the decoded logs.
    let claims: usize = logs.iter().map(|(_, t)| t.matches("CLAIM").count()).sum();
    assert!(claims > 100, "{claims}");
    assert_eq!(
        output("rxw find --count CLAIM examples/fleet/logs/")
            .stdout
            .trim(),
        claims.to_string()
    );
    // The audit matrix: which log holds which text.
    let mark = |text: &str, needle: &str| if text.contains(needle) { "✅" } else { "❌" };
    let audit = &output("rxw audit examples/fleet/logs/").stdout;
    for (name, text) in &logs {
        let row = format!(
            "| `examples/fleet/logs/{name}` | {} | {} | {} |",
            mark(text, "7fce46e0"),
            mark(text, "[CLAIM 7fce46e0]"),
            mark(text, "[DECLINE 7fce46e0]"),
        );
        assert!(audit.lines().any(|l| l == row), "{row}\n{audit}");
    }
}

/// The shipped logs are what `examples/fleet/make.py` writes (compared by their text: a .gz
/// by what it decodes to, so another zlib's bytes do not matter).
#[test]
fn the_sample_fleet_is_what_its_script_writes() {
    let out = match std::process::Command::new("python3")
        .args(["examples/fleet/make.py", "--check"])
        .current_dir(repo())
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            rxw_testkit::missing(
                "python3",
                &format!("{e}: examples/fleet/logs/ is not compared with make.py's output"),
            );
            return;
        }
    };
    assert!(
        out.status.success(),
        "examples/fleet/logs/ differs from what examples/fleet/make.py writes (run it): {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The guide's shell examples that run on the shipped logs (their block names
/// `examples/fleet/`) run as the README's do: exit status, output as shown. (The others make their own data or show
/// a shape; the README's test covers the rest of the commands.)
#[test]
fn the_guides_examples_on_the_shipped_logs_run() {
    let scratch = tempfile::tempdir().unwrap();
    let mut count = 0;
    let mut failures = Vec::new();
    for page in pages() {
        let text = read(&page);
        let all = shell_examples(&text);
        // Whole blocks, so that a file one command writes is there for the next.
        let blocks: BTreeSet<usize> = all
            .iter()
            .filter(|e| e.bare().contains("examples/fleet/"))
            .map(|e| e.block)
            .collect();
        let examples: Vec<Example> = all
            .into_iter()
            .filter(|e| blocks.contains(&e.block))
            .collect();
        count += examples.len();
        let (_, failed) = run_examples(&examples, &[], scratch.path());
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        failures.extend(failed.into_iter().map(|f| format!("{name}: {f}")));
    }
    assert!(count >= 6, "{count} examples on the shipped logs");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Examples in a command's `--help` (`$ rxw …` lines) run as the README's do; every command's
/// help prints.
#[test]
fn every_commands_help_prints_and_its_examples_run() {
    let reference = rxw::cli::reference::markdown();
    let commands: Vec<&str> = reference
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .filter_map(|l| l.trim_start_matches('#').trim().strip_prefix("`rxw"))
        .filter_map(|l| l.strip_suffix('`'))
        .map(str::trim)
        .collect();
    assert!(commands.len() > 15, "{commands:?}");
    let scratch = tempfile::tempdir().unwrap();
    let mut examples = Vec::new();
    for (k, command) in commands.iter().enumerate() {
        let run = run_shell(&format!("rxw {command} --help"), scratch.path());
        assert_eq!(run.status, 0, "rxw {command} --help: {}", run.stderr);
        assert!(!run.stdout.trim().is_empty(), "rxw {command} --help");
        let mut current: Option<Example> = None;
        for (n, line) in run.stdout.lines().enumerate() {
            let line = line.trim();
            if let Some(c) = line.strip_prefix("$ ") {
                examples.extend(current.take());
                current = Some(Example {
                    block: k + 1,
                    line: n + 1,
                    command: c.to_string(),
                    shown: Vec::new(),
                });
            } else if let Some(e) = &mut current {
                if line.is_empty() {
                    examples.extend(current.take());
                } else {
                    e.shown.push(line.to_string());
                }
            }
        }
        examples.extend(current);
    }
    let (_, failures) = run_examples(&examples, &[], scratch.path());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_example_runner_reads_blocks_compares_output_and_finds_redirections() {
    let md = "text\n```sh\n$ rxw a  # exit 1\none\n…\nthree\n$ rxw b > out.txt\n```\n```sh\nrxw c\ncargo d\n```\n";
    let ex = shell_examples(md);
    let got: Vec<(usize, &str, i32)> = ex.iter().map(|e| (e.block, e.bare(), e.status())).collect();
    assert_eq!(
        got,
        [
            (1, "rxw a", 1),
            (1, "rxw b > out.txt", 0),
            (2, "rxw c", 0),
            (2, "cargo d", 0)
        ]
    );
    assert_eq!(ex[0].shown, ["one", "…", "three"]);
    assert!(shows(&ex[0].shown, "one\ntwo\nthree\n"));
    assert!(!shows(&ex[0].shown, "one\ntwo\nthree\nfour\n"));
    assert!(!shows(&ex[0].shown, "zero\none\nthree\n"));
    assert!(shows(&["a".into(), "…".into()], "a\nb\n"));
    assert!(shows(
        &["[{\"i\":1,…,\"z\":2},…]".into()],
        "[{\"i\":1,\"m\":0,\"z\":2},{}]\n"
    ));
    assert!(!shows(&["[{\"i\":1,…}]".into()], "[{\"i\":2}]\n"));
    assert!(!shows(&["a".into()], "a\nb\n"));
    assert_eq!(redirected(ex[1].bare()), Some("out.txt"));
    assert_eq!(redirected("rxw x > /tmp/y"), None);
    assert_eq!(
        in_scratch("go run out.txt < in", "out.txt", Path::new("/s/out.txt")),
        "go run /s/out.txt < in"
    );
    let err = Example {
        block: 1,
        line: 1,
        command: "rxw x".into(),
        shown: vec!["rxw: missing )".into()],
    };
    assert_eq!(err.status(), 2);
}
