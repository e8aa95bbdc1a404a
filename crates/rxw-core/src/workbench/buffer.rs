//! A multi-line text buffer: one `String` plus a sparse line index, a cursor, undo and redo.
//!
//! One string (not a `Vec<String>` per line) so a 100 MB log loads with one copy and one
//! `memchr` pass, and the matcher sees the text exactly as it is. The text sits in an `Arc`
//! so a scan on a worker thread can hold it without a copy.
//!
//! The line index keeps a mark (byte offset, line number) every [`MARK_LINES`] lines or
//! [`MARK_BYTES`] bytes, whichever comes first, and finds the lines between two marks with
//! `memchr`: a 1 GB log of 16 million lines needs about 8 MB of index instead of the 128 MB a
//! start per line would take, and a lookup reads at most a few kilobytes.

use super::nav;
use crate::input::chunks::Chunk;
use crate::input::paged::PagedText;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

const UNDO_DEPTH: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Edit {
    at: usize,
    removed: String,
    inserted: String,
    cursor_before: usize,
}

/// A paged input as the workbench sees it: the text read so far when last refreshed (it grows
/// while the background indexer runs, as a followed file does).
#[derive(Debug, Clone)]
struct PagedView {
    text: PagedText,
    /// The readable length at the last refresh.
    len: usize,
    /// Lines in `..len`.
    lines: usize,
    /// Bytes in a piece of a scan ([`SCAN_CHUNK_BYTES`] unless set).
    scan_chunk: usize,
}

/// The input text as a worker thread holds it: the whole text in memory, or a paged text up
/// to the length it had when the work started. Scans go through `SharedText::chunks` and
/// reads of a range through [`SharedText::read`], whichever it is.
#[derive(Debug, Clone)]
pub enum SharedText {
    /// The whole text.
    Memory(Arc<String>),
    /// A paged text, read up to the given length, scanned in pieces of about the last
    /// number of bytes ([`SCAN_CHUNK_BYTES`] unless [`TextBuffer::set_scan_chunk`] said).
    Paged(PagedText, usize, usize),
}

/// Bytes in a chunk of a paged text's scan.
pub const SCAN_CHUNK_BYTES: usize = 4 << 20;

/// The most of one line a view reads: longer lines are shown (and scanned for the screen)
/// only this far.
pub const SHOWN_LINE_BYTES: usize = 256 * 1024;

impl SharedText {
    /// Bytes of text.
    pub fn len(&self) -> usize {
        match self {
            SharedText::Memory(t) => t.len(),
            SharedText::Paged(_, len, _) => *len,
        }
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The text of `range` (clamped to the text; rounded out to char boundaries in memory).
    pub fn read(&self, range: Range<usize>) -> Cow<'_, str> {
        match self {
            SharedText::Memory(t) => {
                let mut end = range.end.min(t.len());
                while !t.is_char_boundary(end) {
                    end += 1;
                }
                let mut start = range.start.min(end);
                while !t.is_char_boundary(start) {
                    start -= 1;
                }
                Cow::Borrowed(&t[start..end])
            }
            SharedText::Paged(p, len, _) => Cow::Owned(p.read(range.start..range.end.min(*len))),
        }
    }

    /// The whole text, when it is in memory.
    pub fn memory(&self) -> Option<&Arc<String>> {
        match self {
            SharedText::Memory(t) => Some(t),
            SharedText::Paged(..) => None,
        }
    }

    /// The text from `from` (a line start) to its end as pieces to search, each with its
    /// offset: the whole text at once when it is in memory (a pattern that crosses lines
    /// sees all of it; `start` is then where to start in it), whole lines in chunks of about
    /// [`SCAN_CHUNK_BYTES`] for a paged text, each without its final line break (see
    /// [`Chunk::searchable`]; `start` is 0), read straight from the file.
    pub fn pieces(&self, from: usize) -> Box<dyn Iterator<Item = TextPiece<'_>> + Send + '_> {
        match self {
            SharedText::Memory(t) => Box::new(std::iter::once(TextPiece {
                offset: 0,
                start: from.min(t.len()),
                text: Cow::Borrowed(t.as_str()),
                stripped: false,
                last: true,
            })),
            SharedText::Paged(p, len, chunk) => {
                Box::new(p.chunks(from..*len, *chunk).map(|c: Chunk| {
                    let mut text = c.text;
                    let stripped = !c.last && text.ends_with('\n');
                    if stripped {
                        text.pop();
                    }
                    TextPiece {
                        offset: c.offset,
                        start: 0,
                        text: Cow::Owned(text),
                        stripped,
                        last: c.last,
                    }
                }))
            }
        }
    }
}

impl SharedText {
    /// A paged text's chunks of whole lines from `from` (a line start), in pieces of the
    /// scan's size; `None` in memory.
    pub fn page_chunks(&self, from: usize) -> Option<crate::input::paged::PageChunks> {
        match self {
            SharedText::Memory(_) => None,
            SharedText::Paged(p, len, chunk) => Some(p.chunks(from..*len, *chunk)),
        }
    }

    /// The start of the line holding byte `at`.
    pub fn line_start_of(&self, at: usize) -> usize {
        match self {
            SharedText::Memory(t) => {
                let at = at.min(t.len());
                memchr::memrchr(b'\n', &t.as_bytes()[..at]).map_or(0, |i| i + 1)
            }
            SharedText::Paged(p, len, _) => p.line_start(p.line_of(at.min(*len))),
        }
    }

    /// The text from `from` (a line start) on as pieces a pass searches ([`Pieces`]): see
    /// [`PieceMode`]. `look_behind`: the most bytes before where a match starts that the
    /// pattern reads (context kept before the first piece and before a carried one).
    pub fn scan_pieces(&self, from: usize, mode: PieceMode, look_behind: usize) -> Pieces<'_> {
        Pieces {
            text: self,
            chunks: self.pieces(from),
            mode,
            carry: None,
            first: Some(look_behind),
            after_cut: false,
        }
    }
}

/// A piece of a text to search (see [`SharedText::pieces`]).
#[derive(Debug, Clone)]
pub struct TextPiece<'a> {
    /// Byte offset of `text` in the whole text.
    pub offset: usize,
    /// Where in `text` the search starts.
    pub start: usize,
    /// The text to search.
    pub text: Cow<'a, str>,
    /// Whether a line break after `text` was left out (the next piece starts after it).
    pub stripped: bool,
    /// Whether no piece follows.
    pub last: bool,
}

impl TextPiece<'_> {
    /// The offset just past this piece (its left-out line break included).
    pub fn end(&self) -> usize {
        self.offset + self.text.len() + usize::from(self.stripped)
    }

    /// Whether the piece ends inside a line (one longer than a chunk holds), not after it:
    /// a pattern that cannot cross lines is then inexact at its end.
    pub fn cut_in_line(&self) -> bool {
        !self.last && !self.stripped && !self.text.ends_with('\n')
    }
}

/// How a pass reads a paged text's pieces ([`SharedText::scan_pieces`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceMode {
    /// Each piece is whole lines searched alone, without its final line break, after the
    /// line break before it as context: exact for a pattern whose matches stay in lines
    /// ([`crate::engine::growth::Reach::Line`]).
    Lines,
    /// Each piece is whole lines with the text the pass kept from the piece before
    /// ([`Pieces::carry`]): exact for any pattern, as long as what is kept stays under
    /// [`MAX_CARRY`].
    Carry,
}

/// Most bytes a pass may carry from one piece of a paged text into the next; past it the
/// kept text is dropped and the pass is inexact ([`Pieces::carry`] says so).
pub const MAX_CARRY: usize = 64 << 20;

/// The pieces a pass searches ([`SharedText::scan_pieces`]): in memory the whole text once; a
/// paged text in chunks of whole lines, with context before each and, in [`PieceMode::Carry`],
/// the text the pass kept from the piece before.
pub struct Pieces<'a> {
    text: &'a SharedText,
    chunks: Box<dyn Iterator<Item = TextPiece<'a>> + Send + 'a>,
    mode: PieceMode,
    /// Context and kept text for the next piece: its offset in the whole text, the text, and
    /// where the search resumes in it.
    carry: Option<(usize, String, usize)>,
    /// Look-behind context to read before the first piece.
    first: Option<usize>,
    /// Whether the piece before ended inside a line longer than a chunk holds.
    after_cut: bool,
}

impl<'a> Pieces<'a> {
    /// The next piece to search.
    pub fn next_piece(&mut self) -> Option<TextPiece<'a>> {
        let mut piece = self.chunks.next()?;
        if let SharedText::Memory(_) = self.text {
            return Some(piece);
        }
        let after_cut = std::mem::replace(&mut self.after_cut, piece.cut_in_line());
        if self.mode == PieceMode::Carry && piece.stripped {
            // The line break goes back: a match may hold it, and the next piece follows it.
            piece.text.to_mut().push('\n');
            piece.stripped = false;
        }
        let carry = self.carry.take().or_else(|| {
            // Before the first piece: the line break before it (for `^` and `\b`) and the
            // text a look-behind may read.
            let context = self.first.take()?;
            let at = piece.offset;
            let from = at.saturating_sub(context.max(1));
            (at > 0).then(|| (from, self.text.read(from..at).into_owned(), at - from))
        });
        if let Some((offset, mut kept, start)) = carry {
            kept.push_str(&piece.text);
            piece = TextPiece {
                offset,
                start,
                text: Cow::Owned(kept),
                stripped: piece.stripped,
                last: piece.last,
            };
        } else if piece.offset > 0 && !after_cut {
            // The previous piece's line break, as context.
            piece.text.to_mut().insert(0, '\n');
            piece.offset -= 1;
            piece.start = 1;
        }
        Some(piece)
    }

    /// Keeps the text of `piece` from byte `at` (in the whole text) on, with `context` bytes
    /// before it, to search again with the next piece appended ([`PieceMode::Carry`]; in
    /// memory, or after the last piece, nothing is kept). Returns false when that would keep
    /// more than [`MAX_CARRY`] bytes: then only the context is kept, the search resumes at
    /// the next piece's start, and matches across the two pieces are lost.
    pub fn carry(&mut self, piece: TextPiece<'a>, at: usize, context: usize) -> bool {
        if self.text.memory().is_some() || self.mode != PieceMode::Carry {
            return true;
        }
        let text = piece.text.into_owned();
        let end = piece.offset + text.len();
        let at = at.clamp(piece.offset, end);
        let fits = end - at <= MAX_CARRY;
        let at = if fits { at } else { end };
        let mut from = at.saturating_sub(context).max(piece.offset);
        while !text.is_char_boundary(from - piece.offset) {
            from -= 1;
        }
        self.carry = Some((from, text[from - piece.offset..].to_string(), at - from));
        fits
    }
}

/// Multi-line text with a cursor.
#[derive(Debug, Clone, Default)]
pub struct TextBuffer {
    text: Arc<String>,
    /// Set for a paged input: then `text` is empty, and reads go to the pages.
    paged: Option<PagedView>,
    lines: LineIndex,
    cursor: usize,
    /// The column (in chars) vertical moves try to keep.
    goal_col: Option<usize>,
    undo: Vec<Edit>,
    redo: Vec<Edit>,
    edited: bool,
    /// Counts changes to the text, so a saver can tell an unchanged text without comparing it.
    revision: u64,
}

/// A mark is set at a line start at least this many lines after the previous mark...
pub const MARK_LINES: usize = 32;
/// ...or at the first line start at least this many bytes after it.
pub const MARK_BYTES: usize = 16 * 1024;

/// A text with its line index, built where it was read (a worker thread), so taking it into a
/// [`TextBuffer`] costs the UI thread nothing ([`TextBuffer::extend_to`]).
#[derive(Debug, Clone)]
pub struct IndexedText {
    text: String,
    index: LineIndex,
}

impl IndexedText {
    /// Indexes `text` (one `memchr` pass).
    pub fn new(text: String) -> IndexedText {
        IndexedText {
            index: LineIndex::build(&text),
            text,
        }
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, without its index.
    pub fn into_string(self) -> String {
        self.text
    }
}

/// A sparse index of line starts: marks `(byte, line)` at line starts, the first `(0, 0)`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LineIndex {
    marks: Vec<(usize, usize)>,
    /// Lines in the text (one more than its line breaks).
    lines: usize,
}

impl Default for LineIndex {
    fn default() -> LineIndex {
        LineIndex {
            marks: vec![(0, 0)],
            lines: 1,
        }
    }
}

impl LineIndex {
    fn build(text: &str) -> LineIndex {
        let mut ix = LineIndex::default();
        ix.reindex_from(text, 0);
        ix
    }

    /// Indexes `text` again from the last mark at or before byte `from`: the text before
    /// `from` must be unchanged since the index was built (an edit at `from`, an append).
    fn reindex_from(&mut self, text: &str, from: usize) {
        let k = self.marks.partition_point(|&(b, _)| b <= from).max(1) - 1;
        self.marks.truncate(k + 1);
        let (base, base_line) = self.marks[k];
        let (mut mark_byte, mut mark_line) = (base, base_line);
        let mut line = base_line;
        for nl in memchr::memchr_iter(b'\n', &text.as_bytes()[base..]) {
            let start = base + nl + 1;
            line += 1;
            if line - mark_line >= MARK_LINES || start - mark_byte >= MARK_BYTES {
                self.marks.push((start, line));
                (mark_byte, mark_line) = (start, line);
            }
        }
        self.lines = line + 1;
    }

    /// Byte offset of the start of line `i` (the text length past the last line).
    fn line_start(&self, text: &str, i: usize) -> usize {
        if i >= self.lines {
            return text.len();
        }
        let k = self.marks.partition_point(|&(_, l)| l <= i) - 1;
        let (b, l) = self.marks[k];
        if i == l {
            return b;
        }
        memchr::memchr_iter(b'\n', &text.as_bytes()[b..])
            .nth(i - l - 1)
            .map_or(text.len(), |nl| b + nl + 1)
    }

    /// The line holding byte `at` (a line break belongs to the line it ends).
    fn line_of(&self, text: &str, at: usize) -> usize {
        let at = at.min(text.len());
        let k = self.marks.partition_point(|&(b, _)| b <= at) - 1;
        let (b, l) = self.marks[k];
        l + memchr::memchr_iter(b'\n', &text.as_bytes()[b..at]).count()
    }
}

impl TextBuffer {
    /// A buffer holding `text`, cursor at the start.
    pub fn new(text: String) -> TextBuffer {
        TextBuffer {
            lines: LineIndex::build(&text),
            text: Arc::new(text),
            ..Default::default()
        }
    }

    /// A buffer reading a paged text (read-only: edits are refused), at the length it can
    /// be read to now; [`TextBuffer::refresh_paged`] takes in what was indexed since.
    pub fn paged(text: PagedText) -> TextBuffer {
        let mut b = TextBuffer {
            paged: Some(PagedView {
                text,
                len: 0,
                lines: 1,
                scan_chunk: SCAN_CHUNK_BYTES,
            }),
            ..Default::default()
        };
        b.refresh_paged();
        b
    }

    /// The paged text, for a paged input.
    pub fn paged_text(&self) -> Option<&PagedText> {
        self.paged.as_ref().map(|p| &p.text)
    }

    /// Whether the input is paged (read in pages from a file, not held in memory).
    pub fn is_paged(&self) -> bool {
        self.paged.is_some()
    }

    /// Takes in the part of a paged text indexed since the last call, as an append (no undo
    /// entry, a new revision); returns whether it grew.
    pub fn refresh_paged(&mut self) -> bool {
        let Some(p) = &mut self.paged else {
            return false;
        };
        let len = p.text.len();
        if len == p.len {
            return false;
        }
        p.len = len;
        p.lines = p.text.line_of(len) + 1;
        self.revision += 1;
        true
    }

    /// The whole text, for an input held in memory; empty for a paged input (read it with
    /// [`TextBuffer::slice`] or [`TextBuffer::shared`]).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Bytes of text.
    pub fn len(&self) -> usize {
        match &self.paged {
            Some(p) => p.len,
            None => self.text.len(),
        }
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the text ends with a line break.
    pub fn ends_with_newline(&self) -> bool {
        match &self.paged {
            Some(p) => p.len > 0 && p.text.read_bytes(p.len - 1..p.len) == b"\n",
            None => self.text.ends_with('\n'),
        }
    }

    /// The text of `range` (clamped to the text; in memory it must be on char boundaries).
    pub fn slice(&self, range: Range<usize>) -> Cow<'_, str> {
        match &self.paged {
            Some(p) => Cow::Owned(p.text.read(range.start.min(p.len)..range.end.min(p.len))),
            None => {
                let end = range.end.min(self.text.len());
                Cow::Borrowed(&self.text[range.start.min(end)..end])
            }
        }
    }

    /// Scans of a paged text go in pieces of about `bytes` (at least 1) from now on, instead
    /// of [`SCAN_CHUNK_BYTES`]: what a test of piece boundaries sets. No effect in memory.
    pub fn set_scan_chunk(&mut self, bytes: usize) {
        if let Some(p) = &mut self.paged {
            p.scan_chunk = bytes.max(1);
        }
    }

    /// A shared handle on the text (for a worker thread).
    pub fn shared(&self) -> SharedText {
        match &self.paged {
            Some(p) => SharedText::Paged(p.text.clone(), p.len, p.scan_chunk),
            None => SharedText::Memory(Arc::clone(&self.text)),
        }
    }

    /// Whether the user has edited the text since it was loaded.
    pub fn edited(&self) -> bool {
        self.edited
    }

    /// Number of lines (a final newline ends the last line without starting an empty one
    /// only in the count shown; the empty last line is still addressable).
    pub fn line_count(&self) -> usize {
        match &self.paged {
            Some(p) => p.lines,
            None => self.lines.lines,
        }
    }

    /// The part of line `i` a view shows: its first [`SHOWN_LINE_BYTES`] (up to a character
    /// boundary), so that a line of gigabytes costs a screen no more than that.
    pub fn shown_line_range(&self, i: usize) -> std::ops::Range<usize> {
        let r = match &self.paged {
            Some(p) if i >= p.lines => return p.len..p.len,
            Some(p) => {
                let r = p.text.line_range_within(i, SHOWN_LINE_BYTES + 1);
                r.start.min(p.len)..r.end.min(p.len)
            }
            None => self.line_range(i),
        };
        if r.end - r.start <= SHOWN_LINE_BYTES {
            return r;
        }
        let mut end = r.start + SHOWN_LINE_BYTES;
        match &self.paged {
            Some(p) => {
                // Back off while the byte at the cut continues a character.
                let lo = end.saturating_sub(3).max(r.start);
                let around = p.text.read_bytes(lo..end + 1);
                while end > lo
                    && around
                        .get(end - lo)
                        .is_some_and(|b| (0x80..0xC0).contains(b))
                {
                    end -= 1;
                }
            }
            None => end = self.floor_boundary(end),
        }
        r.start..end.max(r.start)
    }

    /// Byte range of line `i` without its line break.
    pub fn line_range(&self, i: usize) -> std::ops::Range<usize> {
        if let Some(p) = &self.paged {
            if i >= p.lines {
                return p.len..p.len;
            }
            let r = p.text.line_range(i);
            return r.start.min(p.len)..r.end.min(p.len);
        }
        let start = self.line_start(i);
        let mut end = memchr::memchr(b'\n', &self.text.as_bytes()[start..])
            .map_or(self.text.len(), |nl| start + nl);
        if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        start..end.max(start)
    }

    /// Line `i` without its line break.
    pub fn line(&self, i: usize) -> Cow<'_, str> {
        match &self.paged {
            Some(p) => Cow::Owned(p.text.read(self.line_range(i))),
            None => Cow::Borrowed(&self.text[self.line_range(i)]),
        }
    }

    /// Byte offset of the start of line `i` (the text length past the end).
    pub fn line_start(&self, i: usize) -> usize {
        match &self.paged {
            Some(p) if i >= p.lines => p.len,
            Some(p) => p.text.line_start(i).min(p.len),
            None => self.lines.line_start(&self.text, i),
        }
    }

    /// The line holding byte `at`.
    pub fn line_of(&self, at: usize) -> usize {
        match &self.paged {
            Some(p) => p.text.line_of(at.min(p.len)),
            None => self.lines.line_of(&self.text, at),
        }
    }

    /// `(line, column in chars)` of byte `at`, both 0-based.
    pub fn position_of(&self, at: usize) -> (usize, usize) {
        if let Some(p) = &self.paged {
            let line = self.line_of(at);
            let start = self.line_start(line);
            return (line, p.text.count_chars(start..at.max(start)));
        }
        let at = self.floor_boundary(at.min(self.text.len()));
        let line = self.line_of(at);
        (line, self.text[self.line_start(line)..at].chars().count())
    }

    fn floor_boundary(&self, mut at: usize) -> usize {
        while at > 0 && !self.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    /// The cursor as a byte offset.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// `(line, column in chars)` of the cursor.
    pub fn cursor_position(&self) -> (usize, usize) {
        self.position_of(self.cursor)
    }

    /// Replaces the whole text (not undoable: a new document).
    pub fn replace_all(&mut self, text: String) {
        let revision = self.revision + 1;
        *self = TextBuffer::new(text);
        self.revision = revision;
    }

    /// Replaces the whole text as one edit, which [`TextBuffer::undo`] takes back: text loaded
    /// over the user's (the Explain tab's ReDoS attack), so that Ctrl-Z brings the file back.
    /// The cursor goes to the start. A paged input is a file's, not this buffer's, and is
    /// replaced as by [`TextBuffer::replace_all`], for good.
    pub fn replace_all_undoably(&mut self, text: String) {
        if self.paged.is_some() {
            self.replace_all(text);
            return;
        }
        self.apply(0, self.text.len(), &text);
        self.cursor = 0;
    }

    /// Appends `s` at the end (a followed file grew): indexed incrementally, not an edit (no
    /// undo entry, [`TextBuffer::edited`] unchanged), the cursor stays where it is.
    pub fn append(&mut self, s: &str) {
        if s.is_empty() || self.paged.is_some() {
            return;
        }
        let base = self.text.len();
        Arc::make_mut(&mut self.text).push_str(s);
        self.lines.reindex_from(&self.text, base);
        self.revision += 1;
    }

    /// Takes `whole`, which is the current text followed by more (the rest of a file read on
    /// another thread into one buffer with the head, so the text is never copied again, and
    /// indexed there): not an edit, like [`TextBuffer::append`]. `Err(whole)` when it does
    /// not start with the current text.
    pub fn extend_to(&mut self, whole: IndexedText) -> Result<(), IndexedText> {
        if self.paged.is_some() || !whole.text.starts_with(self.text.as_str()) {
            return Err(whole);
        }
        if whole.text.len() == self.text.len() {
            return Ok(());
        }
        self.text = Arc::new(whole.text);
        self.lines = whole.index;
        self.revision += 1;
        Ok(())
    }

    /// Moves the revision on without a change (a new input put in its place must not share
    /// the old one's revision).
    pub(crate) fn bump_revision(&mut self) {
        self.revision += 1;
    }

    /// A number that changes whenever the text does (not when only the cursor moves).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    fn splice(&mut self, at: usize, removed_len: usize, inserted: &str) {
        let end = at + removed_len;
        Arc::make_mut(&mut self.text).replace_range(at..end, inserted);
        // Everything before `at` is unchanged; the text after it moved (an edit is O(n) in
        // the text after it, like the string's own splice).
        self.lines.reindex_from(&self.text, at);
        self.edited = true;
        self.revision += 1;
    }

    fn apply(&mut self, at: usize, removed_len: usize, inserted: &str) {
        // A paged input is read-only: its text is a file's, not this buffer's.
        if self.paged.is_some() || (removed_len == 0 && inserted.is_empty()) {
            return;
        }
        let removed = self.text[at..at + removed_len].to_string();
        self.undo.push(Edit {
            at,
            removed,
            inserted: inserted.to_string(),
            cursor_before: self.cursor,
        });
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.splice(at, removed_len, inserted);
        self.cursor = at + inserted.len();
        self.goal_col = None;
    }

    /// Inserts `s` at the cursor (typing or a paste; `\r\n` kept as given).
    pub fn insert(&mut self, s: &str) {
        self.apply(self.cursor, 0, s);
    }

    /// Deletes the char before the cursor (a `\r\n` pair as one).
    pub fn backspace(&mut self) {
        if self.paged.is_some() {
            return;
        }
        let mut p = nav::prev_boundary(&self.text, self.cursor);
        if self.text[p..self.cursor] == *"\n" && p > 0 && self.text.as_bytes()[p - 1] == b'\r' {
            p -= 1;
        }
        self.apply(p, self.cursor - p, "");
    }

    /// Deletes the char under the cursor.
    pub fn delete(&mut self) {
        if self.paged.is_some() {
            return;
        }
        let n = nav::next_boundary(&self.text, self.cursor);
        let at = self.cursor;
        self.apply(at, n - at, "");
        self.cursor = at;
    }

    /// Deletes from the cursor to the end of the line (Ctrl-K), or the line break at its end.
    pub fn kill_to_end(&mut self) {
        let line = self.line_of(self.cursor);
        let end = self.line_range(line).end;
        let at = self.cursor;
        if at >= end {
            self.delete();
        } else {
            self.apply(at, end - at, "");
            self.cursor = at;
        }
    }

    /// Deletes from the start of the line to the cursor (Ctrl-U).
    pub fn kill_to_start(&mut self) {
        let start = self.line_start(self.line_of(self.cursor));
        self.apply(start, self.cursor - start, "");
    }

    /// Deletes the word before the cursor (Ctrl-W).
    pub fn kill_word(&mut self) {
        if self.paged.is_some() {
            return;
        }
        let w = nav::word_left(&self.text, self.cursor);
        self.apply(w, self.cursor - w, "");
    }

    /// The text a cursor move looks at, with its offset: the whole text in memory, the
    /// cursor's line and its neighbours for a paged input.
    fn around_cursor(&self) -> (usize, Cow<'_, str>) {
        if self.paged.is_none() {
            return (0, Cow::Borrowed(&self.text));
        }
        let line = self.line_of(self.cursor);
        let start = self.line_start(line.saturating_sub(1));
        let end = self.line_start(line + 2);
        (start, self.slice(start..end))
    }

    /// Moves the cursor by `step` over the text around it.
    fn step(&mut self, step: fn(&str, usize) -> usize) {
        let (base, text) = self.around_cursor();
        let at = (self.cursor - base).min(text.len());
        self.cursor = base + step(&text, at);
        self.goal_col = None;
    }

    /// Moves one char left.
    pub fn left(&mut self) {
        self.step(nav::prev_boundary);
    }

    /// Moves one char right.
    pub fn right(&mut self) {
        self.step(nav::next_boundary);
    }

    /// Moves one word left.
    pub fn word_left(&mut self) {
        self.step(nav::word_left);
    }

    /// Moves one word right.
    pub fn word_right(&mut self) {
        self.step(nav::word_right);
    }

    /// Moves to the start of the line.
    pub fn home(&mut self) {
        self.cursor = self.line_start(self.line_of(self.cursor));
        self.goal_col = None;
    }

    /// Moves to the end of the line.
    pub fn end(&mut self) {
        self.cursor = self.movable_range(self.line_of(self.cursor)).end;
        self.goal_col = None;
    }

    /// Where the cursor may go on line `i`: all of it in memory; of a paged line, the part a
    /// view shows (a line of gigabytes is not read to put the cursor on it).
    fn movable_range(&self, i: usize) -> std::ops::Range<usize> {
        if self.paged.is_some() {
            self.shown_line_range(i)
        } else {
            self.line_range(i)
        }
    }

    /// Moves `delta` lines up (negative) or down, keeping the column.
    pub fn vertical(&mut self, delta: isize) {
        let (line, col) = self.cursor_position();
        let goal = *self.goal_col.get_or_insert(col);
        let target = (line as isize + delta).clamp(0, self.line_count() as isize - 1) as usize;
        self.move_to(target, goal);
        self.goal_col = Some(goal);
    }

    /// Puts the cursor at `(line, column in chars)`, clamped to the text.
    pub fn move_to(&mut self, line: usize, col: usize) {
        let line = line.min(self.line_count() - 1);
        let r = self.movable_range(line);
        let s = self.slice(r.clone());
        self.cursor = r.start + s.char_indices().nth(col).map_or(s.len(), |(i, _)| i);
        self.goal_col = None;
    }

    /// Puts the cursor at byte `at` (rounded down to a char boundary).
    pub fn set_cursor(&mut self, at: usize) {
        if self.paged.is_some() {
            self.cursor = at.min(self.len());
            self.goal_col = None;
            return;
        }
        self.cursor = self.floor_boundary(at.min(self.text.len()));
        self.goal_col = None;
    }

    /// Undoes the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.paged.is_some() {
            return false;
        }
        let Some(e) = self.undo.pop() else {
            return false;
        };
        self.splice(e.at, e.inserted.len(), &e.removed);
        self.cursor = e.cursor_before;
        self.redo.push(e);
        true
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self) -> bool {
        if self.paged.is_some() {
            return false;
        }
        let Some(e) = self.redo.pop() else {
            return false;
        };
        self.splice(e.at, e.removed.len(), &e.inserted);
        self.cursor = e.at + e.inserted.len();
        self.undo.push(e);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: the Explain tab's `a` replaced the input for good, so Ctrl-Z could not
    /// bring back the opened file's text.
    #[test]
    fn a_whole_text_loaded_undoably_is_taken_back_by_one_undo() {
        let mut b = TextBuffer::new("file line 1\nfile line 2\n".into());
        b.move_to(1, 4);
        b.replace_all_undoably("aaaa!".into());
        assert_eq!(b.text(), "aaaa!");
        assert_eq!(b.cursor(), 0);
        assert!(b.undo());
        assert_eq!(b.text(), "file line 1\nfile line 2\n");
        assert_eq!(b.cursor_position(), (1, 4));
        assert!(b.redo());
        assert_eq!(b.text(), "aaaa!");
    }

    #[test]
    fn a_view_reads_a_long_line_only_as_far_as_it_shows_and_cuts_it_on_a_character() {
        // Line 1 is longer than a view shows, made of 3-byte characters so that the cut
        // falls inside one; in memory and read in pages alike.
        let long = "€".repeat(SHOWN_LINE_BYTES / 3 + 10);
        let text = format!("a\n{long}\nb\n");
        let (_dir, _, paged) = crate::testing::indexed(&text, &crate::testing::small(4096, 8));
        for b in [TextBuffer::new(text.clone()), TextBuffer::paged(paged)] {
            let r = b.shown_line_range(1);
            assert_eq!(r.start, 2);
            assert!(r.end - r.start <= SHOWN_LINE_BYTES, "{r:?}");
            assert!(r.end - r.start > SHOWN_LINE_BYTES - 3, "{r:?}");
            assert!(text.is_char_boundary(r.end), "{r:?}");
            assert_eq!(b.slice(r.clone()), text[r]);
            // Short lines are whole.
            assert_eq!(b.shown_line_range(0), 0..1);
            assert_eq!(b.shown_line_range(2), b.line_range(2));
            // A column far into the long line is counted exactly.
            let at = 2 + 3 * 80_000;
            assert_eq!(b.position_of(at), (1, 80_000));
            // The cursor goes to the end of what a view shows of a paged line, no further.
            let mut b = b;
            b.move_to(1, usize::MAX);
            let shown = b.shown_line_range(1).end;
            let end = if b.is_paged() {
                shown
            } else {
                b.line_range(1).end
            };
            assert_eq!(b.cursor_position().0, 1);
            b.end();
            assert_eq!(b.cursor, end);
        }
    }

    /// Every line start, the slow way.
    fn naive_starts(text: &str) -> Vec<usize> {
        std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect()
    }

    /// The sparse index answers every lookup as a full index would, and equals a fresh build.
    fn assert_index_exact(b: &TextBuffer) {
        assert_eq!(
            b.lines,
            LineIndex::build(b.text()),
            "index differs from a fresh build"
        );
        let starts = naive_starts(b.text());
        assert_eq!(b.line_count(), starts.len());
        for (i, &s) in starts.iter().enumerate() {
            assert_eq!(b.line_start(i), s, "start of line {i}");
        }
        assert_eq!(b.line_start(starts.len()), b.text().len());
        for at in 0..=b.text().len() + 1 {
            let want = starts.partition_point(|&s| s <= at) - 1;
            assert_eq!(b.line_of(at), want, "line of byte {at}");
        }
    }

    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn sparse_index_across_marks() {
        // Short lines (marks by line count), a line longer than MARK_BYTES (a mark by
        // bytes), CRLF and an empty last line.
        let mut text = String::new();
        for i in 0..(MARK_LINES * 3 + 5) {
            text.push_str(&"x".repeat(i % 7));
            text.push(if i % 5 == 0 { '\r' } else { 'y' });
            text.push('\n');
        }
        text.push_str(&"long".repeat(MARK_BYTES / 2));
        text.push('\n');
        text.push_str("a\nb\n");
        let mut b = TextBuffer::new(text.clone());
        assert!(b.lines.marks.len() > 3);
        assert_index_exact(&b);
        assert_eq!(b.line(MARK_LINES * 3 + 5), "long".repeat(MARK_BYTES / 2));
        assert_eq!(b.line(0), "");
        b.append("tail\nmore");
        assert_index_exact(&b);
        let whole = format!("{}\nand\n\nrest", b.text());
        assert!(b.extend_to(IndexedText::new(whole)).is_ok());
        assert_index_exact(&b);
        assert!(
            b.extend_to(IndexedText::new("not a prefix".into()))
                .is_err()
        );
        b.move_to(40, 1);
        b.insert("inserted\nlines\n");
        assert_index_exact(&b);
        b.move_to(2, 0);
        for _ in 0..200 {
            b.delete();
        }
        assert_index_exact(&b);
        while b.undo() {}
        assert_eq!(b.text(), format!("{text}tail\nmore\nand\n\nrest"));
        assert_index_exact(&b);
    }

    #[test]
    fn lines_and_positions() {
        let b = TextBuffer::new("ab\nçd\r\n\nx".into());
        assert_eq!(b.line_count(), 4);
        assert_eq!(b.line(1), "çd");
        assert_eq!(b.line(2), "");
        assert_eq!(b.line(3), "x");
        assert_eq!(b.position_of(5), (1, 1));
        assert_eq!(b.line_of(0), 0);
        assert_eq!(b.line_of(3), 1);
    }

    #[test]
    fn edits_keep_the_line_index_exact() {
        let mut b = TextBuffer::new("one\ntwo\nthree".into());
        b.move_to(1, 1);
        b.insert("X\nY");
        assert_eq!(b.text(), "one\ntX\nYwo\nthree");
        assert_index_exact(&b);
        b.move_to(0, 3);
        b.delete();
        assert_eq!(b.text(), "onetX\nYwo\nthree");
        assert_index_exact(&b);
        b.kill_to_end();
        assert_index_exact(&b);
        assert!(b.undo() && b.undo() && b.undo());
        assert_eq!(b.text(), "one\ntwo\nthree");
        assert_index_exact(&b);
        assert!(b.redo());
        assert_eq!(b.text(), "one\ntX\nYwo\nthree");
        assert_index_exact(&b);
    }

    #[test]
    fn vertical_moves_keep_the_goal_column() {
        let mut b = TextBuffer::new("abcdef\nab\nabcdef".into());
        b.move_to(0, 5);
        b.vertical(1);
        assert_eq!(b.cursor_position(), (1, 2));
        b.vertical(1);
        assert_eq!(b.cursor_position(), (2, 5));
        b.vertical(-10);
        assert_eq!(b.cursor_position(), (0, 5));
    }

    #[test]
    fn backspace_joins_crlf_as_one() {
        let mut b = TextBuffer::new("a\r\nb".into());
        b.move_to(1, 0);
        b.backspace();
        assert_eq!(b.text(), "ab");
        assert_eq!(b.line_count(), 1);
    }
}
