//! Popups drawn over the panes.

pub mod help;
pub mod save;
