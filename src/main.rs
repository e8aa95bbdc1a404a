//! The `rxw` binary: wires the command line and the workbench to the library.

use clap::Parser;
use rxw::cli::{Cli, run};

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(command) => {
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
