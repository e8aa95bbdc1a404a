//! The workbench in a pipeline (`PAT=$(rxw)`, `rxw -p | pbcopy`): it draws on the terminal
//! itself while standard output is kept for the pattern it prints on leaving, as fzf and rgx
//! do.

use anyhow::Context;
use std::io::Write;

/// Where standard output went before the workbench took the terminal's place.
#[cfg(unix)]
pub struct SavedOutput(std::os::fd::OwnedFd);

/// Where standard output went before the workbench took the terminal's place.
#[cfg(not(unix))]
pub struct SavedOutput;

/// Keeps standard output aside and puts the controlling terminal in its place, so every
/// drawing (which writes to standard output) reaches the screen.
///
/// # Errors
/// No controlling terminal (`/dev/tty` cannot be opened): the workbench cannot be shown.
#[cfg(unix)]
pub fn draw_on_the_terminal() -> anyhow::Result<SavedOutput> {
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .context(
            "the workbench needs a terminal: standard output is redirected and there is no \
             controlling terminal to draw on; use `rxw find` for scripts",
        )?;
    let saved = rustix::io::dup(std::io::stdout()).context("cannot keep standard output")?;
    rustix::stdio::dup2_stdout(&tty).context("cannot draw on the terminal")?;
    Ok(SavedOutput(saved))
}

/// Without Unix descriptors the workbench needs standard output to be the terminal.
///
/// # Errors
/// Always: standard output is not a terminal.
#[cfg(not(unix))]
pub fn draw_on_the_terminal() -> anyhow::Result<SavedOutput> {
    anyhow::bail!("the workbench needs a terminal on standard output; use `rxw find` for scripts")
}

/// Puts standard output back where it was.
///
/// # Errors
/// The descriptor cannot be restored.
#[cfg(unix)]
pub fn restore_output(saved: SavedOutput) -> anyhow::Result<()> {
    std::io::stdout().flush().ok();
    rustix::stdio::dup2_stdout(&saved.0).context("cannot restore standard output")?;
    Ok(())
}

/// Nothing to put back.
///
/// # Errors
/// Never.
#[cfg(not(unix))]
pub fn restore_output(_saved: SavedOutput) -> anyhow::Result<()> {
    Ok(())
}

/// How the accepted pattern is printed (`--print`, `--print=json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrintFormat {
    /// The pattern, one line.
    Text,
    /// `{"pattern": …, "flavor": …, "flags": …}`, one line.
    Json,
}

/// How the workbench ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Left as usual (with `--print`: Enter accepted the pattern, printed).
    Done,
    /// With `--print`, left without accepting (Ctrl-C, `q`): nothing printed, exit 130 as
    /// fzf's cancel.
    Cancelled,
}

/// The accepted pattern as `format` prints it (with its line break).
pub fn printed(format: PrintFormat, pattern: &str, flavor: &str, flags: &str) -> String {
    match format {
        PrintFormat::Text => format!("{pattern}\n"),
        PrintFormat::Json => format!(
            "{}\n",
            serde_json::json!({ "pattern": pattern, "flavor": flavor, "flags": flags })
        ),
    }
}

/// Prints `text` on standard output (a closed pipe is no error: the reader left).
///
/// # Errors
/// When standard output cannot be written.
pub fn print_pattern(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot print the pattern"),
    }
}
