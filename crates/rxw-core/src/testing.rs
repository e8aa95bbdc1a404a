//! What the crate's tests share: a temporary file of a text, and a paged input of it.

use crate::input::paged::{PagedOptions, PagedText};
use std::path::PathBuf;
use std::time::Duration;

/// `text` written to the file `name` of a new temporary folder, which lives as long as the
/// guard returned.
pub(crate) fn temp_file(name: &str, text: impl AsRef<[u8]>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// Pages of `page` bytes, at most `cache_pages` of them held.
pub(crate) fn small(page: usize, cache_pages: usize) -> PagedOptions {
    PagedOptions {
        page_bytes: page,
        cache_bytes: page * cache_pages,
        spill_dir: None,
    }
}

/// `text` in a temporary `a.log`, opened with `options` and indexed to its end.
pub(crate) fn indexed(
    text: impl AsRef<[u8]>,
    options: &PagedOptions,
) -> (tempfile::TempDir, PathBuf, PagedText) {
    let (dir, path) = temp_file("a.log", text);
    let paged = PagedText::open(&path, options).unwrap();
    assert!(paged.wait_complete(Duration::from_secs(20)));
    (dir, path, paged)
}

/// Asserts that `e`'s message starts with `prefix`, showing the message when not.
#[track_caller]
pub(crate) fn assert_message_starts(e: &crate::Error, prefix: &str) {
    assert!(e.message.starts_with(prefix), "{}", e.message);
}

/// Asserts that `e`'s message holds `part`, showing the message when not.
#[track_caller]
pub(crate) fn assert_message_has(e: &crate::Error, part: &str) {
    assert!(e.message.contains(part), "{}", e.message);
}
