//! The `rxw` binary: wires the command line and the workbench to the library.

use clap::Parser;
use rxw::cli::{Cli, run};

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => std::process::exit(rxw::cli::usage_error(&e, std::env::args_os())),
    };
    let code = match cli.command {
        Some(command) => {
            if rxw::cli::stdout_was_closed() {
                // grep's behaviour: output that cannot be written is an error, not a silent 0.
                eprintln!("rxw: write error: standard output: Bad file descriptor (it is closed)");
                std::process::exit(2);
            }
            // Not locked for the whole command: `rxw mcp` writes through its own async handle.
            run(command, &mut std::io::stdout(), &mut std::io::stderr())
        }
        None => match rxw::tui::run(cli.tui) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("rxw: {e:#}");
                2
            }
        },
    };
    std::process::exit(code);
}
