//! The command-line reference of the user guide (`docs/src/reference.md`), generated from the
//! clap definitions as the man pages and completions are, so it never drifts from the options.
//! A test holds the committed page equal to this text (`RXW_UPDATE_DOCS=1` rewrites it).

use super::Cli;
use clap::CommandFactory;

/// Help is wrapped at this width whatever the terminal, so the page is the same everywhere.
const WIDTH: usize = 100;

/// The reference page: `rxw`'s help, then one section per subcommand (nested ones too).
pub fn markdown() -> String {
    let mut cmd = Cli::command().term_width(WIDTH).max_term_width(WIDTH);
    cmd.build();
    let mut out = String::from(
        "# Command-line reference\n\n\
         Generated from the command-line definitions (`cargo test --test docs` checks it; \
         `RXW_UPDATE_DOCS=1 cargo test --test docs` rewrites it). `rxw help COMMAND` and \
         `rxw man COMMAND` print the same text.\n",
    );
    section(&mut cmd, "rxw", 2, &mut out);
    out
}

fn section(cmd: &mut clap::Command, path: &str, level: usize, out: &mut String) {
    let help = cmd.render_long_help().to_string();
    out.push_str(&format!("\n{} `{path}`\n\n```text\n", "#".repeat(level)));
    for line in help.trim_end().lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("```\n");
    let names: Vec<String> = cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help" && !s.is_hide_set())
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        if let Some(sub) = cmd.find_subcommand_mut(&name) {
            let mut sub = sub.clone().term_width(WIDTH).max_term_width(WIDTH);
            section(&mut sub, &format!("{path} {name}"), 3.min(level + 1), out);
        }
    }
}
