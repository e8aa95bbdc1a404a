//! What operators read off a fleet's logs, line by line: [`lines`] streams a log, [`timestamp`]
//! reads each line's leading stamp, [`jobs`] builds one row per job id from the protocol tags,
//! and [`timeline`] counts matches per time bucket.

pub mod jobs;
pub mod lines;
pub mod timeline;
pub mod timestamp;
