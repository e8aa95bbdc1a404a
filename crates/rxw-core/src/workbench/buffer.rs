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

use std::sync::Arc;

const UNDO_DEPTH: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Edit {
    at: usize,
    removed: String,
    inserted: String,
    cursor_before: usize,
}

/// Multi-line text with a cursor.
#[derive(Debug, Clone, Default)]
pub struct TextBuffer {
    text: Arc<String>,
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

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// A shared handle on the text (for a worker thread).
    pub fn shared(&self) -> Arc<String> {
        Arc::clone(&self.text)
    }

    /// Whether the user has edited the text since it was loaded.
    pub fn edited(&self) -> bool {
        self.edited
    }

    /// Number of lines (a final newline ends the last line without starting an empty one
    /// only in the count shown; the empty last line is still addressable).
    pub fn line_count(&self) -> usize {
        self.lines.lines
    }

    /// Byte range of line `i` without its line break.
    pub fn line_range(&self, i: usize) -> std::ops::Range<usize> {
        let start = self.line_start(i);
        let mut end = memchr::memchr(b'\n', &self.text.as_bytes()[start..])
            .map_or(self.text.len(), |nl| start + nl);
        if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        start..end.max(start)
    }

    /// Line `i` without its line break.
    pub fn line(&self, i: usize) -> &str {
        &self.text[self.line_range(i)]
    }

    /// Byte offset of the start of line `i` (the text length past the end).
    pub fn line_start(&self, i: usize) -> usize {
        self.lines.line_start(&self.text, i)
    }

    /// The line holding byte `at`.
    pub fn line_of(&self, at: usize) -> usize {
        self.lines.line_of(&self.text, at)
    }

    /// `(line, column in chars)` of byte `at`, both 0-based.
    pub fn position_of(&self, at: usize) -> (usize, usize) {
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

    /// Appends `s` at the end (a followed file grew): indexed incrementally, not an edit (no
    /// undo entry, [`TextBuffer::edited`] unchanged), the cursor stays where it is.
    pub fn append(&mut self, s: &str) {
        if s.is_empty() {
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
        if !whole.text.starts_with(self.text.as_str()) {
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
        if removed_len == 0 && inserted.is_empty() {
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
        let mut p = nav::prev_boundary(&self.text, self.cursor);
        if self.text[p..self.cursor] == *"\n" && p > 0 && self.text.as_bytes()[p - 1] == b'\r' {
            p -= 1;
        }
        self.apply(p, self.cursor - p, "");
    }

    /// Deletes the char under the cursor.
    pub fn delete(&mut self) {
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
        let w = nav::word_left(&self.text, self.cursor);
        self.apply(w, self.cursor - w, "");
    }

    /// Moves one char left.
    pub fn left(&mut self) {
        self.cursor = nav::prev_boundary(&self.text, self.cursor);
        self.goal_col = None;
    }

    /// Moves one char right.
    pub fn right(&mut self) {
        self.cursor = nav::next_boundary(&self.text, self.cursor);
        self.goal_col = None;
    }

    /// Moves one word left.
    pub fn word_left(&mut self) {
        self.cursor = nav::word_left(&self.text, self.cursor);
        self.goal_col = None;
    }

    /// Moves one word right.
    pub fn word_right(&mut self) {
        self.cursor = nav::word_right(&self.text, self.cursor);
        self.goal_col = None;
    }

    /// Moves to the start of the line.
    pub fn home(&mut self) {
        self.cursor = self.line_start(self.line_of(self.cursor));
        self.goal_col = None;
    }

    /// Moves to the end of the line.
    pub fn end(&mut self) {
        self.cursor = self.line_range(self.line_of(self.cursor)).end;
        self.goal_col = None;
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
        let r = self.line_range(line);
        let s = &self.text[r.clone()];
        self.cursor = r.start + s.char_indices().nth(col).map_or(s.len(), |(i, _)| i);
        self.goal_col = None;
    }

    /// Puts the cursor at byte `at` (rounded down to a char boundary).
    pub fn set_cursor(&mut self, at: usize) {
        self.cursor = self.floor_boundary(at.min(self.text.len()));
        self.goal_col = None;
    }

    /// Undoes the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
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
