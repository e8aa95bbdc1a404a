//! Popups drawn over the panes.

pub mod help;
