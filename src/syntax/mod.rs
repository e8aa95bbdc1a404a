//! The flavor-aware parser and everything built on its tree.

pub mod ast;
pub mod explain;
pub mod lint;
pub mod parse;
pub mod railroad;
