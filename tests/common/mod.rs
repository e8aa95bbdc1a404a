//! The helpers every integration test shares live in the dev-only `rxw-testkit` crate.

#[allow(unused_imports)]
pub use rxw_testkit::*;
