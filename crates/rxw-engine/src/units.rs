//! UTF-16 code units: a text as JavaScript without `u`/`v` sees it, with the way back to byte
//! offsets.

use crate::vm::{self, Outcome};
use rxw_syntax::error::{Error, ErrorKind};

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

    pub(crate) fn map_outcome(&self, o: Outcome, text: &str) -> Result<Outcome, Error> {
        match o {
            Outcome::Match(mut slots) => {
                for s in slots.iter_mut() {
                    if *s == vm::exec::UNSET {
                        continue;
                    }
                    match self.byte_of_unit(*s, text) {
                        Ok(b) => *s = b,
                        Err(at) => {
                            let ch = text[at..].chars().next().unwrap_or('?');
                            return Err(Error::new(
                                ErrorKind::InputUnsupported,
                                format!(
                                    "the match cuts U+{:04X} (byte {at}) between its two UTF-16 code units, as JavaScript without the u flag does; add the u flag",
                                    ch as u32
                                ),
                            ));
                        }
                    }
                }
                Ok(Outcome::Match(slots))
            }
            Outcome::BudgetExceeded { pos, pc, start } => Ok(Outcome::BudgetExceeded {
                pos: self.byte_of_unit(pos, text).unwrap_or_else(|b| b),
                pc,
                start: self.byte_of_unit(start, text).unwrap_or_else(|b| b),
            }),
            Outcome::TotalBudgetExceeded { pos } => Ok(Outcome::TotalBudgetExceeded {
                pos: self.byte_of_unit(pos, text).unwrap_or_else(|b| b),
            }),
            other => Ok(other),
        }
    }
}
