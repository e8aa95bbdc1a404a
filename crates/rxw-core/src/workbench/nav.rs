//! Cursor movement over a string, shared by the one-line and the multi-line editors: char
//! boundaries and word jumps (a word is letters, digits and `_`).

/// The char boundary before `at` (0 at the start).
pub fn prev_boundary(text: &str, at: usize) -> usize {
    text[..at].char_indices().next_back().map_or(0, |(i, _)| i)
}

/// The char boundary after `at` (`at` at the end).
pub fn next_boundary(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The start of the word before `at`, skipping non-word characters first.
pub fn word_left(text: &str, at: usize) -> usize {
    let mut i = at;
    while i > 0 && !is_word(text[..i].chars().next_back().unwrap()) {
        i = prev_boundary(text, i);
    }
    while i > 0 && is_word(text[..i].chars().next_back().unwrap()) {
        i = prev_boundary(text, i);
    }
    i
}

/// The end of the word after `at`, skipping non-word characters first.
pub fn word_right(text: &str, at: usize) -> usize {
    let mut i = at;
    while i < text.len() && !is_word(text[i..].chars().next().unwrap()) {
        i = next_boundary(text, i);
    }
    while i < text.len() && is_word(text[i..].chars().next().unwrap()) {
        i = next_boundary(text, i);
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_and_words_respect_multibyte_chars() {
        let t = "ab é_1  x";
        assert_eq!(next_boundary(t, 3), 5);
        assert_eq!(prev_boundary(t, 5), 3);
        assert_eq!(word_right(t, 2), 7);
        assert_eq!(word_left(t, 9), 3);
        assert_eq!(word_left(t, 10), 9);
        assert_eq!(word_left(t, 7), 3);
    }
}
