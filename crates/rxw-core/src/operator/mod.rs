//! What operators read off a fleet's logs, line by line: [`lines`] streams a log, [`jobs`]
//! builds one row per job id from the protocol tags, and [`timeline`] counts matches per time
//! bucket. Each line's leading stamp is read by [`crate::input::timestamp`] (the merge of many
//! logs orders by it too); it is named here as well.

pub mod job_table;
pub mod jobs;
pub mod lines;
pub mod timeline;
pub use crate::input::timestamp;
