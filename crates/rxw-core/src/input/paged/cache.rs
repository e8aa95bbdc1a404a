//! The page cache: the pages of a paged text read last, by number, the least recently used
//! evicted first.

use std::collections::HashMap;
use std::sync::Arc;

/// A page cache: pages by number, the least recently used evicted first.
pub(super) struct Cache {
    pub(super) pages: HashMap<usize, (Arc<[u8]>, u64)>,
    pub(super) clock: u64,
    pub(super) capacity: usize,
    /// The most pages held at once since the text was opened.
    pub(super) peak: usize,
}

impl Cache {
    pub(super) fn get(&mut self, k: usize) -> Option<Arc<[u8]>> {
        self.clock += 1;
        let clock = self.clock;
        self.pages.get_mut(&k).map(|(p, used)| {
            *used = clock;
            Arc::clone(p)
        })
    }

    pub(super) fn put(&mut self, k: usize, page: Arc<[u8]>) {
        while self.pages.len() >= self.capacity {
            let Some(&old) = self
                .pages
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k)
            else {
                break;
            };
            self.pages.remove(&old);
        }
        self.clock += 1;
        self.pages.insert(k, (page, self.clock));
        self.peak = self.peak.max(self.pages.len());
    }
}

#[cfg(test)]
mod tests {
    use super::super::INDEX_MARK_BYTES;
    use crate::testing::{indexed, small};

    #[test]
    fn a_scan_over_a_large_text_holds_at_most_the_cache_of_pages() {
        let mut text = String::new();
        for k in 0..200_000 {
            text.push_str(&format!("2026-10-05T00:00:00Z line {k} [CLAIM j{k}]\n"));
        }
        let (_dir, _, paged) = indexed(&text, &small(4096, 8));
        assert_eq!(paged.page_capacity(), 8);
        // Reading every line, then every chunk: the cache never holds more than 8 pages.
        let mut bytes = 0;
        for i in (0..paged.line_count()).step_by(97) {
            bytes += paged.line(i).len();
        }
        assert!(bytes > 0);
        let mut scanned = 0;
        for chunk in paged.chunks(0..usize::MAX, 64 * 1024) {
            scanned += chunk.text.len();
        }
        assert_eq!(scanned, text.len());
        assert!(paged.pages_held() <= 8);
        assert!(paged.peak_pages_held() <= 8, "{}", paged.peak_pages_held());
        // The index stays sparse: one mark per 1024 lines or 64 KiB.
        assert!(paged.marks().marks.len() <= text.len() / INDEX_MARK_BYTES + 200_000 / 1024 + 2);
    }
}
