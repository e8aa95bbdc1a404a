//! Streaming a reader line by line with memory bounded by the longest line.
//!
//! The jobs view reads gigabyte logs this way, over the input layer's line reader
//! ([`LineReader`]): every complete line is handed over as a byte slice (no UTF-8 decoding, no
//! copy), and only a line cut by a block's end is carried over. A line is handed over without its `\n` (and without a `\r`
//! before it); a last line without a newline is handed over too, and an empty input gives no
//! line at all.

use crate::input::lines::LineReader;
use std::io::{self, Read};

/// Calls `f` with every line of `reader`, in order.
///
/// # Errors
/// The first read error (an interrupted read is retried), or the first error `f` returns.
pub fn for_each_line<R: Read, E: From<io::Error>>(
    reader: R,
    mut f: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut lines = LineReader::new(reader);
    while let Some(line) = lines.next_line()? {
        f(trim_cr(line.bytes))?;
    }
    Ok(())
}

fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for_each_line::<_, io::Error>(bytes, |l| {
            out.push(l.to_vec());
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn lines_with_and_without_a_final_newline() {
        assert!(lines_of(b"").is_empty());
        assert_eq!(lines_of(b"\n"), vec![b"".to_vec()]);
        assert_eq!(lines_of(b"a\r\nb"), vec![b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(
            lines_of(b"a\n\xff\xfe\n"),
            vec![b"a".to_vec(), b"\xff\xfe".to_vec()]
        );
    }

    #[test]
    fn lines_across_blocks_and_longer_than_a_block() {
        let long = vec![b'x'; (4 << 20) + 7];
        let mut input = Vec::new();
        for k in 0..3000 {
            input.extend_from_slice(format!("line {k}\n").as_bytes());
        }
        input.extend_from_slice(&long);
        input.push(b'\n');
        input.extend_from_slice(b"tail");
        // A reader that hands out odd-sized pieces, so lines are cut everywhere.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = out.len().min(self.0.len()).min(4093);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut got = Vec::new();
        for_each_line::<_, io::Error>(Trickle(&input), |l| {
            got.push(l.to_vec());
            Ok(())
        })
        .unwrap();
        assert_eq!(got.len(), 3002);
        assert_eq!(got[2999], b"line 2999");
        assert_eq!(got[3000], long);
        assert_eq!(got[3001], b"tail");
    }
}
