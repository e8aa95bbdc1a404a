//! UTF-16 code units: a text as JavaScript without `u`/`v` sees it, with the way back to byte
//! offsets.

use crate::vm::{self, Outcome};

/// A text as UTF-16 code units (JavaScript without `u`/`v` on a text with characters outside
/// the BMP), with the way back to byte offsets.
pub(crate) struct CodeUnits {
    pub(crate) units: Vec<u16>,
    /// Byte offset of every 64th unit (at character boundaries, or the pair's start).
    checkpoints: Vec<usize>,
}

impl CodeUnits {
    pub(crate) fn of(text: &str) -> CodeUnits {
        let mut units = Vec::with_capacity(text.len());
        let mut checkpoints = Vec::with_capacity(text.len() / 64 + 2);
        let mut byte = 0;
        for c in text.chars() {
            let mut buf = [0u16; 2];
            for (i, u) in c.encode_utf16(&mut buf).iter().enumerate() {
                if units.len() % 64 == 0 {
                    // A checkpoint inside a pair points at the pair's start plus a marker.
                    checkpoints.push(if i == 0 { byte } else { byte | (1 << 63) });
                }
                units.push(*u);
            }
            byte += c.len_utf8();
        }
        if units.len() % 64 == 0 {
            checkpoints.push(byte);
        }
        CodeUnits { units, checkpoints }
    }

    /// The byte offset of unit index `u`, or `Err(byte of the pair)` when `u` falls between
    /// the two halves of a surrogate pair.
    pub(crate) fn byte_of_unit(&self, u: usize, text: &str) -> Result<usize, usize> {
        let k = u / 64;
        let cp = self.checkpoints[k];
        let (mut byte, mut unit) = if cp & (1 << 63) != 0 {
            // Starts on a low surrogate: step over it.
            let b = cp & !(1 << 63);
            if u == k * 64 {
                return Err(b);
            }
            (b + 4, k * 64 + 1)
        } else {
            (cp, k * 64)
        };
        let bytes = text.as_bytes();
        while unit < u {
            let b0 = bytes[byte];
            let (len, n) = match b0 {
                0..=0x7F => (1, 1),
                0xC0..=0xDF => (2, 1),
                0xE0..=0xEF => (3, 1),
                _ => (4, 2),
            };
            if n == 2 && unit + 1 == u {
                return Err(byte);
            }
            byte += len;
            unit += n;
        }
        Ok(byte)
    }

    pub(crate) fn unit_of_byte(&self, byte: usize) -> usize {
        // Offsets from the caller are character boundaries; count units up to it.
        let k = self
            .checkpoints
            .partition_point(|&c| (c & !(1 << 63)) <= byte && c & (1 << 63) == 0)
            .saturating_sub(1);
        let mut b = self.checkpoints[k] & !(1 << 63);
        let mut u = k * 64;
        let _ = &mut b;
        while u < self.units.len() && b < byte {
            let unit = self.units[u];
            if (0xD800..0xDC00).contains(&unit) {
                b += 4;
                u += 2;
            } else {
                b += char::from_u32(unit as u32).map_or(3, char::len_utf8);
                u += 1;
            }
        }
        u
    }

    /// The code units of the text: an outcome's slots (code units) turned into byte offsets,
    /// with the exact spans kept when one of them falls between the two halves of a surrogate
    /// pair ([`PairCut`]): such a start becomes the split character's first byte, such an end
    /// its last byte's successor (its first byte when the span is empty), so that byte spans
    /// always slice the text.
    pub(crate) fn map_outcome(&self, o: Outcome, text: &str) -> (Outcome, Option<Box<PairCut>>) {
        match o {
            Outcome::Match(mut slots) => {
                let exact = slots.clone();
                let mut cuts: Vec<CutCharacter> = Vec::new();
                for i in 0..slots.len() {
                    let s = slots[i];
                    if s == vm::exec::UNSET {
                        continue;
                    }
                    match self.byte_of_unit(s, text) {
                        Ok(b) => slots[i] = b,
                        Err(at) => {
                            let ch = text[at..].chars().next().unwrap_or('\u{FFFD}');
                            let empty_end = i % 2 == 1 && exact[i - 1] == s;
                            slots[i] = if i % 2 == 0 || empty_end {
                                at
                            } else {
                                at + ch.len_utf8()
                            };
                            if !cuts.iter().any(|c| c.bytes.0 == at) {
                                cuts.push(CutCharacter {
                                    ch,
                                    bytes: (at, at + ch.len_utf8()),
                                    utf16: s - 1,
                                });
                            }
                        }
                    }
                }
                if cuts.is_empty() {
                    return (Outcome::Match(slots), None);
                }
                cuts.sort_by_key(|c| c.bytes.0);
                let utf16: Vec<Option<(usize, usize)>> = exact
                    .chunks(2)
                    .map(|p| {
                        (p[0] != vm::exec::UNSET && p[1] != vm::exec::UNSET).then_some((p[0], p[1]))
                    })
                    .collect();
                let units = utf16
                    .iter()
                    .map(|g| g.map(|(s, e)| self.units[s..e.max(s)].to_vec()))
                    .collect();
                let base = match self.byte_of_unit(exact[0], text) {
                    Ok(_) => exact[0],
                    Err(_) => exact[0] - 1,
                };
                let end_inside = self.byte_of_unit(exact[1], text).is_err();
                let cut = PairCut {
                    utf16,
                    base,
                    units,
                    cuts,
                    end_inside,
                };
                (Outcome::Match(slots), Some(Box::new(cut)))
            }
            Outcome::BudgetExceeded { pos, pc, start } => (
                Outcome::BudgetExceeded {
                    pos: self.byte_of_unit(pos, text).unwrap_or_else(|b| b),
                    pc,
                    start: self.byte_of_unit(start, text).unwrap_or_else(|b| b),
                },
                None,
            ),
            Outcome::TotalBudgetExceeded { pos } => (
                Outcome::TotalBudgetExceeded {
                    pos: self.byte_of_unit(pos, text).unwrap_or_else(|b| b),
                },
                None,
            ),
            other => (other, None),
        }
    }
}

/// Where a JavaScript match without `u`/`v` starts or ends between the two halves of a
/// surrogate pair, as node reports it (its indices count UTF-16 code units, and `.`, a class
/// or an empty match can stop inside a character outside the BMP): the exact spans in code
/// units and the characters cut. The match's byte spans ([`crate::Match::groups`]) are then
/// the whole characters around each span (an empty span inside a pair is the split
/// character's first byte).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairCut {
    /// The spans of the match (first) and its groups in UTF-16 code units of the whole text,
    /// `None` for a group that did not take part.
    pub utf16: Vec<Option<(usize, usize)>>,
    /// The code unit where the match's first byte ([`crate::Match::start`]) stands: the
    /// exact start, or one before it when the match starts inside a pair.
    pub base: usize,
    /// The code units of the match and of each group, exactly (a lone surrogate included).
    pub units: Vec<Option<Vec<u16>>>,
    /// The characters a span cuts, in text order.
    pub cuts: Vec<CutCharacter>,
    /// Whether the match itself ends between the two halves of a pair.
    pub end_inside: bool,
}

/// A character outside the BMP that a span cuts between its two UTF-16 code units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutCharacter {
    /// The character.
    pub ch: char,
    /// Its bytes in the text.
    pub bytes: (usize, usize),
    /// Its first code unit in the text (the cut is at `utf16 + 1`).
    pub utf16: usize,
}

impl PairCut {
    /// Group `k`'s text with a lone surrogate written as U+FFFD (a string cannot hold one),
    /// `None` when it did not take part.
    pub fn lossy(&self, k: usize) -> Option<String> {
        self.units.get(k)?.as_deref().map(String::from_utf16_lossy)
    }

    /// One sentence naming the characters cut, with their bytes, for a note beside the match.
    pub fn note(&self) -> String {
        let chars: Vec<String> = self
            .cuts
            .iter()
            .map(|c| {
                format!(
                    "U+{:04X} (bytes {}..{}, UTF-16 {}..{})",
                    c.ch as u32,
                    c.bytes.0,
                    c.bytes.1,
                    c.utf16,
                    c.utf16 + 2
                )
            })
            .collect();
        format!(
            "the match cuts {} between its two UTF-16 code units, as node reports it (without u/v node matches code units; with u/v it tries the position inside a pair after an attempt there fails, and node 18 reads a negated class in a run of text by code unit); a lone surrogate is shown as U+FFFD",
            chars.join(", ")
        )
    }
}
