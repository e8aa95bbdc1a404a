//! Popups drawn over the panes.

pub mod export;
pub mod help;
pub mod save;
