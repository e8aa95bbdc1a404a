//! What the crate's tests share: a temporary file of a text, and a paged input of it.

use crate::input::logs::Origin;
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

/// Two logs in a new temporary folder: `a` in a plain `a.log`, the compressed bytes `b_gz`
/// in `b.log.gz`, as the origins of a merged input.
pub(crate) fn plain_and_gz(a: &str, b_gz: &[u8]) -> (tempfile::TempDir, [Origin; 2]) {
    let (dir, a_path) = temp_file("a.log", a);
    let b_path = dir.path().join("b.log.gz");
    std::fs::write(&b_path, b_gz).unwrap();
    (dir, [Origin::Path(a_path), Origin::Path(b_path)])
}

/// Pages of `page` bytes, at most `cache_pages` of them held; a spill may write what its
/// disk has free (a test must not depend on how full the machine's disk is).
pub(crate) fn small(page: usize, cache_pages: usize) -> PagedOptions {
    PagedOptions {
        page_bytes: page,
        cache_bytes: page * cache_pages,
        ..spill_anywhere()
    }
}

/// The default options, but a spill may write what its disk has free: no reserve kept.
pub(crate) fn spill_anywhere() -> PagedOptions {
    PagedOptions {
        spill_room: Some(u64::MAX),
        ..PagedOptions::default()
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

/// Asserts that `text` starts with `prefix`, showing the text when not.
#[track_caller]
pub(crate) fn assert_starts(text: &str, prefix: &str) {
    assert!(text.starts_with(prefix), "{text}");
}

/// Asserts that `text` holds `part`, showing the text when not.
#[track_caller]
pub(crate) fn assert_has(text: &str, part: &str) {
    assert!(text.contains(part), "{text}");
}

/// Asserts that `e`'s message starts with `prefix`, showing the message when not.
#[track_caller]
pub(crate) fn assert_message_starts(e: &crate::Error, prefix: &str) {
    assert_starts(&e.message, prefix);
}

/// Asserts that `e`'s message holds `part`, showing the message when not.
#[track_caller]
pub(crate) fn assert_message_has(e: &crate::Error, part: &str) {
    assert_has(&e.message, part);
}
