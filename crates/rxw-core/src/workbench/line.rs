//! A pattern editor: text, a cursor (a byte offset on a char boundary), undo and redo by edit
//! (a word typed or rubbed out is one step, as in an editor, not a character at a time). It is
//! one line on screen, but keeps the line breaks a pasted pattern has (a verbose pattern's
//! `# comment` ends at its line break; drawn as `␊`).

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
    /// The run of typing or rubbing out the next such key joins, and where it left the
    /// cursor: a key elsewhere, a motion or another kind of edit starts a new undo step.
    run: Option<(Run, usize)>,
}

/// A run of edits that undo as one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    /// Characters typed one after another (a word; a space starts a new step).
    Typing,
    /// Characters rubbed out one after another with Backspace.
    RubbingOut,
}

impl LineEditor {
    /// An editor holding `text`, cursor at the end.
    pub fn new(text: &str) -> LineEditor {
        LineEditor {
            text: text.to_string(),
            cursor: text.len(),
            undo: Vec::new(),
            redo: Vec::new(),
            run: None,
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
        self.run = None;
        self.text = text.to_string();
        self.cursor = self.text.len();
    }

    /// Starts a new undo step unless this edit continues the current run of `kind`.
    fn step(&mut self, kind: Run, joins: bool) {
        if !(joins && self.run == Some((kind, self.cursor))) {
            self.snapshot();
        }
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

    /// Inserts text at the cursor. Line breaks are kept (`\r\n` and a lone `\r` as `\n`): a
    /// pasted verbose pattern keeps its meaning. One typed character continues a word's undo
    /// step; a space, a paste or any other text is a step of its own.
    pub fn insert(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        let mut chars = s.chars();
        let one = match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        };
        let word_char = one.is_some_and(|c| !c.is_whitespace());
        self.step(Run::Typing, word_char);
        let clean = s.replace("\r\n", "\n").replace('\r', "\n");
        self.text.insert_str(self.cursor, &clean);
        self.cursor += clean.len();
        self.run = word_char.then_some((Run::Typing, self.cursor));
    }

    fn remove(&mut self, from: usize, to: usize) {
        if from >= to {
            return;
        }
        self.snapshot();
        self.run = None;
        self.text.replace_range(from..to, "");
        self.cursor = from;
    }

    /// Deletes the char before the cursor; Backspaces one after another undo as one step.
    pub fn backspace(&mut self) {
        let p = nav::prev_boundary(&self.text, self.cursor);
        if p >= self.cursor {
            return;
        }
        self.step(Run::RubbingOut, true);
        self.text.replace_range(p..self.cursor, "");
        self.cursor = p;
        self.run = Some((Run::RubbingOut, p));
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
        self.run = None;
        step_back(
            &mut self.undo,
            &mut self.redo,
            &mut self.text,
            &mut self.cursor,
        )
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self) -> bool {
        self.run = None;
        step_back(
            &mut self.redo,
            &mut self.undo,
            &mut self.text,
            &mut self.cursor,
        )
    }
}

/// Takes the newest state of `from` as the text and cursor, the state they held going to
/// `to` (undo: from the undo history to the redo history; redo: the other way); false when
/// `from` is empty.
fn step_back(
    from: &mut Vec<(String, usize)>,
    to: &mut Vec<(String, usize)>,
    text: &mut String,
    cursor: &mut usize,
) -> bool {
    match from.pop() {
        Some((t, c)) => {
            to.push((std::mem::replace(text, t), *cursor));
            *cursor = c;
            true
        }
        None => false,
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
        e.insert("yy");
        e.insert("zz");
        assert!(e.undo());
        assert_eq!((e.text(), e.cursor()), ("xyy", 3));
        assert!(e.undo());
        assert!(!e.undo());
        assert_eq!(e.text(), "x");
        assert!(e.redo());
        assert_eq!(e.text(), "xyy");
        e.insert("!");
        assert!(!e.redo(), "a new edit clears redo");
    }

    /// Regression: undo went back one character at a time, so undoing a typed word took a key
    /// per letter. A word typed is one step, a space starts the next, a motion breaks a run,
    /// and Backspaces in a row are one step too.
    #[test]
    fn undo_goes_back_a_typed_word_at_a_time() {
        let mut e = LineEditor::new("");
        for c in "CLAIM [0-9]".chars() {
            e.insert(&c.to_string());
        }
        assert!(e.undo());
        assert_eq!(e.text(), "CLAIM ");
        assert!(e.undo());
        assert_eq!(e.text(), "CLAIM");
        assert!(e.undo());
        assert_eq!(e.text(), "");
        assert!(!e.undo());
        // A motion in the middle of a word starts a new step.
        for c in "abc".chars() {
            e.insert(&c.to_string());
        }
        e.left();
        e.insert("X");
        e.insert("Y");
        assert_eq!(e.text(), "abXYc");
        assert!(e.undo());
        assert_eq!(e.text(), "abc");
        // Rubbing out is one step.
        e.end();
        e.backspace();
        e.backspace();
        assert_eq!(e.text(), "a");
        assert!(e.undo());
        assert_eq!(e.text(), "abc");
    }

    /// Regression: a pasted multi-line verbose pattern had its line breaks turned into spaces,
    /// so its first `# comment` swallowed the rest (two groups became one, silently).
    #[test]
    fn a_pasted_pattern_keeps_its_line_breaks() {
        let mut e = LineEditor::new("");
        e.insert("(?P<a>\\w+)  # the word\r\n(?P<b>\\d+)  # the number\n");
        assert_eq!(
            e.text(),
            "(?P<a>\\w+)  # the word\n(?P<b>\\d+)  # the number\n"
        );
        let ast = rxw_syntax::parse::parse(
            e.text(),
            rxw_syntax::Flavor::PYTHON,
            rxw_syntax::Flags::parse("x", rxw_syntax::Flavor::PYTHON).unwrap(),
        )
        .unwrap();
        assert_eq!(ast.groups.len(), 2, "both groups survive the paste");
    }
}
