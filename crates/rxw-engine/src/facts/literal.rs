//! The one literal extractor both set strategies use: a literal that every match holds at a
//! fixed byte offset from its start (`-4` at byte 13 of a UUID v4 pattern). The pattern's
//! top-level items are read as [`Piece`]s, from the parse tree (`super::hits`, for members
//! the matcher runs) or from the `regex` crate's `Hir` ([`super`], for linear members); the
//! rule is written once here.

/// One top-level item of a concatenation, as the extractor sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Literal bytes, matched as they are.
    Literal(Vec<u8>),
    /// Something that always matches this many bytes (a class of ASCII bytes, an exact
    /// repeat of one, a zero-width assertion at 0).
    Width(usize),
    /// Something of varying width: nothing after it has a fixed offset.
    Varying,
}

/// The longest run of two or more literal bytes that every match holds at a fixed offset:
/// adjacent literal pieces join into one run, the items before it each have a fixed width.
pub fn fixed_offset_literal(pieces: impl IntoIterator<Item = Piece>) -> Option<(usize, Vec<u8>)> {
    let mut offset = 0usize;
    let mut best: Option<(usize, Vec<u8>)> = None;
    let mut run: Vec<u8> = Vec::new();
    let mut run_start = 0usize;
    let finish = |run: &mut Vec<u8>, run_start: usize, best: &mut Option<(usize, Vec<u8>)>| {
        if run.len() >= 2 && best.as_ref().is_none_or(|(_, b)| run.len() > b.len()) {
            *best = Some((run_start, std::mem::take(run)));
        }
        run.clear();
    };
    for piece in pieces {
        match piece {
            Piece::Literal(bytes) => {
                if run.is_empty() {
                    run_start = offset;
                }
                offset += bytes.len();
                run.extend_from_slice(&bytes);
            }
            Piece::Width(0) => {}
            Piece::Width(w) => {
                finish(&mut run, run_start, &mut best);
                offset += w;
            }
            Piece::Varying => break,
        }
    }
    finish(&mut run, run_start, &mut best);
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use Piece::*;

    fn lit(s: &str) -> Piece {
        Literal(s.as_bytes().to_vec())
    }

    #[test]
    fn the_longest_run_after_fixed_widths_wins_and_joins_adjacent_literals() {
        let got = fixed_offset_literal([Width(8), lit("-"), Width(4), lit("-"), lit("4")]);
        assert_eq!(got, Some((13, b"-4".to_vec())));
        let got = fixed_offset_literal([lit("ab"), Width(1), lit("cde")]);
        assert_eq!(got, Some((3, b"cde".to_vec())));
    }

    #[test]
    fn nothing_after_a_varying_item_and_nothing_under_two_bytes() {
        assert_eq!(fixed_offset_literal([Varying, lit("abc")]), None);
        assert_eq!(fixed_offset_literal([Width(2), lit("a"), Width(1)]), None);
        assert_eq!(
            fixed_offset_literal([lit("a"), Width(0), lit("b")]),
            Some((0, b"ab".to_vec()))
        );
    }
}
