//! The `rxw` binary: wires the command line and the workbench to the library.

use clap::Parser;
use rxw::cli::{Cli, run};

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(command) => {
            let stdout = std::io::stdout();
            let stderr = std::io::stderr();
            run(command, &mut stdout.lock(), &mut stderr.lock())
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
