//! Helpers shared by the integration tests that generate cases: the engine's own test
//! helpers (one deterministic generator, one oracle runner for every crate's tests).

#[path = "../../crates/rxw-engine/tests/common/mod.rs"]
mod engine;

#[allow(unused_imports)]
pub use engine::*;
