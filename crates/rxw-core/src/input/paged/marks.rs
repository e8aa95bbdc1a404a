//! The sparse line index: a mark every [`INDEX_MARK_LINES`] lines or [`INDEX_MARK_BYTES`]
//! bytes, and the scan of a block that extends it outside the index's lock.

/// A mark is set at a line start at least this many lines after the previous mark...
pub const INDEX_MARK_LINES: usize = 1024;
/// ...or at the first line start at least this many bytes after it.
pub const INDEX_MARK_BYTES: usize = 64 * 1024;

/// The sparse line index of the part indexed so far.
#[derive(Debug, Clone)]
pub(super) struct Marks {
    /// `(byte, line)` at line starts, the first `(0, 0)`.
    pub(super) marks: Vec<(usize, usize)>,
    /// Line breaks in the indexed part.
    pub(super) breaks: usize,
    /// Bytes and line of the last mark, and the bytes indexed.
    pub(super) last_mark: (usize, usize),
    /// Bytes indexed: `breaks` counts the line breaks before this byte.
    pub(super) end: usize,
    /// Where the last line indexed starts: no line break lies between it and `end`.
    pub(super) last_start: usize,
}

impl Marks {
    pub(super) fn new() -> Marks {
        Marks {
            marks: vec![(0, 0)],
            breaks: 0,
            last_mark: (0, 0),
            end: 0,
            last_start: 0,
        }
    }

    /// Takes in marks scanned by [`MarksAdded::scan`] from this index's end.
    pub(super) fn extend(&mut self, more: MarksAdded) {
        self.marks.extend(more.marks);
        self.breaks = more.breaks;
        self.last_mark = more.last_mark;
        self.end = more.end;
        self.last_start = more.last_start.unwrap_or(self.last_start);
    }
}

/// Marks a block adds to an index, found without holding the index's lock (a reader, the
/// frame being drawn, never waits for the indexer's scan of a block, only for the append).
pub(super) struct MarksAdded {
    marks: Vec<(usize, usize)>,
    breaks: usize,
    last_mark: (usize, usize),
    end: usize,
    /// The start of the block's last line, when the block holds a line break.
    last_start: Option<usize>,
}

impl MarksAdded {
    /// The marks of `bytes` (at byte `base`) after an index with `breaks` line breaks and its
    /// last mark at `last_mark`.
    pub(super) fn scan(
        mut breaks: usize,
        mut last_mark: (usize, usize),
        base: usize,
        bytes: &[u8],
    ) -> Self {
        let mut marks = Vec::new();
        let mut last_start = None;
        for nl in memchr::memchr_iter(b'\n', bytes) {
            let start = base + nl + 1;
            last_start = Some(start);
            breaks += 1;
            let (mb, ml) = last_mark;
            if breaks - ml >= INDEX_MARK_LINES || start - mb >= INDEX_MARK_BYTES {
                marks.push((start, breaks));
                last_mark = (start, breaks);
            }
        }
        MarksAdded {
            marks,
            breaks,
            last_mark,
            end: base + bytes.len(),
            last_start,
        }
    }
}
