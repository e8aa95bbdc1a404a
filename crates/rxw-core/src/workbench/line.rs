//! A one-line editor: text, a cursor (a byte offset on a char boundary), undo and redo.

use super::nav;

/// Most undo steps kept per editor.
const UNDO_DEPTH: usize = 500;
/// Most bytes the undo history keeps: each step is a copy of the whole line, so a long
/// pasted pattern would otherwise hold hundreds of copies of itself.
const UNDO_BYTES: usize = 16 << 20;

/// A one-line text editor with Emacs-style motions and undo/redo.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineEditor {
    text: String,
    cursor: usize,
    undo: Vec<(String, usize)>,
    redo: Vec<(String, usize)>,
}

impl LineEditor {
    /// An editor holding `text`, cursor at the end.
    pub fn new(text: &str) -> LineEditor {
        LineEditor {
            text: text.to_string(),
            cursor: text.len(),
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor as a byte offset.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The cursor as a char index (for drawing).
    pub fn cursor_chars(&self) -> usize {
        self.text[..self.cursor].chars().count()
    }

    /// Replaces the whole text (undoable), cursor at the end.
    pub fn set(&mut self, text: &str) {
        if text == self.text {
            return;
        }
        self.snapshot();
        self.text = text.to_string();
        self.cursor = self.text.len();
    }

    fn snapshot(&mut self) {
        self.undo.push((self.text.clone(), self.cursor));
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        let mut bytes: usize = self.undo.iter().map(|(t, _)| t.len()).sum();
        while bytes > UNDO_BYTES && self.undo.len() > 1 {
            bytes -= self.undo.remove(0).0.len();
        }
        self.redo.clear();
    }

    /// Inserts text at the cursor; line breaks become spaces (it is a one-line editor).
    pub fn insert(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.snapshot();
        let clean: String = s
            .chars()
            .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
            .collect();
        self.text.insert_str(self.cursor, &clean);
        self.cursor += clean.len();
    }

    fn remove(&mut self, from: usize, to: usize) {
        if from >= to {
            return;
        }
        self.snapshot();
        self.text.replace_range(from..to, "");
        self.cursor = from;
    }

    /// Deletes the char before the cursor.
    pub fn backspace(&mut self) {
        let p = nav::prev_boundary(&self.text, self.cursor);
        self.remove(p, self.cursor);
    }

    /// Deletes the char under the cursor.
    pub fn delete(&mut self) {
        let n = nav::next_boundary(&self.text, self.cursor);
        self.remove(self.cursor, n);
    }

    /// Moves one char left.
    pub fn left(&mut self) {
        self.cursor = nav::prev_boundary(&self.text, self.cursor);
    }

    /// Moves one char right.
    pub fn right(&mut self) {
        self.cursor = nav::next_boundary(&self.text, self.cursor);
    }

    /// Moves to the start (Ctrl-A).
    pub fn home(&mut self) {
        self.cursor = 0;
    }

    /// Moves to the end (Ctrl-E).
    pub fn end(&mut self) {
        self.cursor = self.text.len();
    }

    /// Moves one word left (Alt-B).
    pub fn word_left(&mut self) {
        self.cursor = nav::word_left(&self.text, self.cursor);
    }

    /// Moves one word right (Alt-F).
    pub fn word_right(&mut self) {
        self.cursor = nav::word_right(&self.text, self.cursor);
    }

    /// Deletes from the cursor to the end (Ctrl-K).
    pub fn kill_to_end(&mut self) {
        self.remove(self.cursor, self.text.len());
    }

    /// Deletes from the start to the cursor (Ctrl-U).
    pub fn kill_to_start(&mut self) {
        self.remove(0, self.cursor);
    }

    /// Deletes the word before the cursor (Ctrl-W).
    pub fn kill_word(&mut self) {
        let w = nav::word_left(&self.text, self.cursor);
        self.remove(w, self.cursor);
    }

    /// Moves the cursor to char index `col` (a mouse click).
    pub fn set_cursor_chars(&mut self, col: usize) {
        self.cursor = self
            .text
            .char_indices()
            .nth(col)
            .map_or(self.text.len(), |(i, _)| i);
    }

    /// Undoes the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some((t, c)) => {
                self.redo
                    .push((std::mem::replace(&mut self.text, t), self.cursor));
                self.cursor = c;
                true
            }
            None => false,
        }
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some((t, c)) => {
                self.undo
                    .push((std::mem::replace(&mut self.text, t), self.cursor));
                self.cursor = c;
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_and_motions() {
        let mut e = LineEditor::new("ab");
        e.insert("c");
        assert_eq!((e.text(), e.cursor()), ("abc", 3));
        e.home();
        e.insert("é");
        assert_eq!((e.text(), e.cursor()), ("éabc", 2));
        e.right();
        e.backspace();
        assert_eq!(e.text(), "ébc");
        e.end();
        e.left();
        e.delete();
        assert_eq!(e.text(), "éb");
    }

    #[test]
    fn words_and_kills() {
        let mut e = LineEditor::new("foo bar_baz qux");
        e.word_left();
        assert_eq!(e.cursor(), 12);
        e.word_left();
        assert_eq!(e.cursor(), 4);
        e.word_right();
        assert_eq!(e.cursor(), 11);
        e.kill_to_end();
        assert_eq!(e.text(), "foo bar_baz");
        e.kill_word();
        assert_eq!(e.text(), "foo ");
        e.kill_to_start();
        assert_eq!(e.text(), "");
    }

    #[test]
    fn a_long_line_keeps_a_bounded_undo_history() {
        let mut e = LineEditor::new("");
        let chunk = "x".repeat(64 << 10);
        for _ in 0..200 {
            e.insert(&chunk);
        }
        let kept: usize = e.undo.iter().map(|(t, _)| t.len()).sum();
        assert!(kept <= UNDO_BYTES, "{kept} bytes of undo");
        assert!(e.undo.len() < 200);
        assert!(e.undo());
        assert_eq!(
            e.text().len(),
            199 * (64 << 10),
            "the last step still undoes"
        );
    }

    #[test]
    fn undo_and_redo_restore_text_and_cursor() {
        let mut e = LineEditor::new("x");
        e.insert("y");
        e.insert("z");
        assert!(e.undo());
        assert_eq!((e.text(), e.cursor()), ("xy", 2));
        assert!(e.undo());
        assert!(!e.undo());
        assert_eq!(e.text(), "x");
        assert!(e.redo());
        assert_eq!(e.text(), "xy");
        e.insert("!");
        assert!(!e.redo(), "a new edit clears redo");
    }

    #[test]
    fn pasted_newlines_become_spaces() {
        let mut e = LineEditor::new("");
        e.insert("a\nb");
        assert_eq!(e.text(), "a b");
    }
}
