//! The `rxw` binary: wires the command line and the workbench to the library.

use clap::Parser;
use rxw::cli::style::Layout;
use rxw::cli::{Cli, run};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when standard output was closed when the process started (`rxw find a abc >&-`).
///
/// The Rust runtime reopens a closed standard descriptor on `/dev/null` (read-write) before
/// `main`, so by then a closed output looks exactly like `/dev/null` opened read-write by a
/// parent (Python's `subprocess.DEVNULL`, node's `stdio: "ignore"`), which must work. So it is
/// looked at earlier: in a constructor the C runtime calls before the Rust runtime starts.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// The constructor, in `.init_array`. Sound: it runs once, single-threaded, before `main`; it
/// only asks whether descriptor 1 exists (its `/proc` link is missing when it is closed) and
/// stores a flag. The one `unsafe` of the workspace (whose lints deny it elsewhere).
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
#[used]
#[unsafe(link_section = ".init_array")]
static CHECK_STDOUT_AT_START: extern "C" fn() = {
    extern "C" fn check() {
        if std::fs::symlink_metadata("/proc/self/fd/1").is_err()
            && std::fs::symlink_metadata("/proc/self/fd").is_ok()
        {
            STDOUT_CLOSED_AT_START.store(true, Ordering::Relaxed);
        }
    }
    check
};

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => std::process::exit(rxw::cli::usage_error(&e, std::env::args_os())),
    };
    let code = match cli.command {
        Some(command) => {
            if STDOUT_CLOSED_AT_START.load(Ordering::Relaxed) {
                // grep's behaviour: output that cannot be written is an error, not a silent 0.
                eprintln!("rxw: write error: standard output: Bad file descriptor (it is closed)");
                std::process::exit(2);
            }
            // Not locked for the whole command: `rxw mcp` writes through its own async handle.
            run(command, &mut std::io::stdout(), &mut std::io::stderr())
        }
        None => match rxw::tui::run(cli.tui.into()) {
            Ok(rxw::tui::pipeline::Ended::Done) => 0,
            // As fzf's Esc and Ctrl-C under --print: nothing chosen, 128 + SIGINT.
            Ok(rxw::tui::pipeline::Ended::Cancelled) => 130,
            Err(e) => {
                let message = format!("{e:#}");
                eprintln!("rxw: {}", rxw::cli::style::inert(&message, Layout::Lines));
                2
            }
        },
    };
    std::process::exit(code);
}
