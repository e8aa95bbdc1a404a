//! Streaming a reader line by line with memory bounded by the longest line.
//!
//! The jobs view reads gigabyte logs this way: a fixed block is read, every complete line in
//! it is handed over as a byte slice (no UTF-8 decoding, no copy), and only a line cut by the
//! block's end is carried over. A line is handed over without its `\n` (and without a `\r`
//! before it); a last line without a newline is handed over too, and an empty input gives no
//! line at all.

use std::io::{self, Read};

/// Bytes read at a time.
const BLOCK: usize = 1 << 20;

/// Calls `f` with every line of `reader`, in order.
///
/// # Errors
/// The first read error (an interrupted read is retried), or the first error `f` returns.
pub fn for_each_line<R: Read, E: From<io::Error>>(
    mut reader: R,
    mut f: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut buf = vec![0u8; BLOCK];
    // `buf[..filled]` holds bytes not yet handed over; none of them is a newline before
    // `scanned`.
    let mut filled = 0;
    loop {
        if filled == buf.len() {
            // One line longer than the buffer: make room for the rest of it.
            buf.resize(buf.len() * 2, 0);
        }
        let n = match reader.read(&mut buf[filled..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if n == 0 {
            if filled > 0 {
                f(trim_cr(&buf[..filled]))?;
            }
            return Ok(());
        }
        let end = filled + n;
        let mut start = 0;
        // Only the new bytes can hold a newline: the carried-over part was searched before.
        let mut search_from = filled;
        while let Some(k) = memchr::memchr(b'\n', &buf[search_from..end]) {
            let nl = search_from + k;
            f(trim_cr(&buf[start..nl]))?;
            start = nl + 1;
            search_from = start;
        }
        buf.copy_within(start..end, 0);
        filled = end - start;
    }
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
        let long = vec![b'x'; BLOCK * 2 + 7];
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
