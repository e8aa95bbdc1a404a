//! The interactive workbench.

use crate::cli::TuiArgs;

/// Opens the workbench.
///
/// # Errors
/// When the terminal cannot be set up.
pub fn run(_args: TuiArgs) -> anyhow::Result<()> {
    anyhow::bail!("the interactive workbench is not built yet; see `rxw --help` for the commands")
}
