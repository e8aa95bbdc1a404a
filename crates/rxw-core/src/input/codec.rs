//! Compressed logs: gzip, zstd, bzip2 and xz, recognised by their magic bytes.
//!
//! A log is opened through [`open`], which looks at its first bytes, not its name: a rotated
//! `day.log.1` that is really gzip is read as gzip, and a `notes.gz` that is plain text is
//! read as text. The decoding is done by the codec crates (flate2, zstd, bzip2, lzma-rust2);
//! this module only picks one and says where a broken archive broke.
//!
//! Every stream in a file is read: gzip members one after another (what `cat a.gz b.gz`
//! makes and what `gzip` itself accepts), zstd frames, bzip2 streams and xz streams alike.
//!
//! A truncated or corrupt archive is never a silent short answer (as far as the format can
//! tell: a zstd frame written without its optional checksum can decode damaged literals to
//! other bytes): the reader returns what
//! decoded cleanly, then an [`std::io::Error`] whose text names the file, the codec, how far
//! into the compressed file the decoder had read and how many bytes it had decoded
//! ([`describe_failure`]). A plain file that ends short of the size it had when opened (cut
//! under the read, as logrotate's `copytruncate` does) is reported the same way, with the
//! words the whole-file reader uses ("the file changed while it was read").

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a file's bytes are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Codec {
    /// Not compressed.
    Plain,
    /// gzip (RFC 1952), one member or several.
    Gzip,
    /// Zstandard frames.
    Zstd,
    /// bzip2 streams.
    Bzip2,
    /// xz streams.
    Xz,
}

impl Codec {
    /// Bytes [`Codec::sniff`] needs to tell every codec apart.
    pub const MAGIC_LEN: usize = 6;

    /// The codec whose magic bytes start `head` (plain text when none does).
    ///
    /// gzip `1f 8b 08` (deflate, the only method in use), zstd `28 b5 2f fd`, bzip2
    /// `BZh1`..`BZh9`, xz `fd 37 7a 58 5a 00`.
    pub fn sniff(head: &[u8]) -> Codec {
        match head {
            [0x1f, 0x8b, 0x08, ..] => Codec::Gzip,
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Codec::Zstd,
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Codec::Bzip2,
            [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Codec::Xz,
            _ => Codec::Plain,
        }
    }

    /// The codec's name as people write it (`gzip`, `zstd`, `bzip2`, `xz`, `plain`).
    pub fn name(self) -> &'static str {
        match self {
            Codec::Plain => "plain",
            Codec::Gzip => "gzip",
            Codec::Zstd => "zstd",
            Codec::Bzip2 => "bzip2",
            Codec::Xz => "xz",
        }
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Counts the bytes a decoder consumed from the file (not merely buffered), shared with the
/// reader that reports a failure.
struct Consumed<R> {
    inner: R,
    consumed: Arc<AtomicU64>,
}

impl<R: Read> Read for Consumed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Consumed<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.consumed.fetch_add(amt as u64, Ordering::Relaxed);
        self.inner.consume(amt);
    }
}

/// A log's decoded bytes: read it like a file. Its errors already name the file and where
/// the read broke.
pub struct Decoded {
    inner: Box<dyn Read + Send>,
    codec: Codec,
    path: PathBuf,
    /// Compressed bytes consumed so far (the file's bytes for a plain file).
    consumed: Arc<AtomicU64>,
    /// The file's size when it was opened, when known.
    size_at_open: Option<u64>,
    decoded: u64,
    /// Set once an error was returned: later reads return nothing.
    failed: bool,
    /// For a plain regular file, a handle on it: its decoded bytes are its bytes, at the
    /// same offsets, so they can be read again where they are.
    in_place: Option<std::fs::File>,
}

impl Decoded {
    /// The codec found by the magic bytes.
    pub fn codec(&self) -> Codec {
        self.codec
    }

    /// The file's size when it was opened (compressed size for an archive), when known.
    pub fn size_at_open(&self) -> Option<u64> {
        self.size_at_open
    }

    /// For a plain regular file, a new handle on it to read its bytes again at their offsets
    /// (the decoded stream is the file, byte for byte); `None` for an archive, a pipe or
    /// standard input.
    pub fn in_place(&self) -> Option<std::fs::File> {
        self.in_place.as_ref().and_then(|f| f.try_clone().ok())
    }

    /// Decoded bytes handed out so far.
    pub fn decoded(&self) -> u64 {
        self.decoded
    }

    /// A handle on the count of the file's bytes consumed so far (compressed bytes for an
    /// archive), readable from another thread while this one decodes: the progress of a
    /// pass is `consumed / size_at_open` whatever the codec.
    pub fn consumed_handle(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.consumed)
    }

    fn failure(&self, cause: &io::Error) -> io::Error {
        let consumed = self.consumed.load(Ordering::Relaxed);
        io::Error::new(
            cause.kind(),
            describe_failure(
                &self.path,
                self.codec,
                consumed,
                self.size_at_open,
                self.decoded,
                cause,
            ),
        )
    }
}

impl Read for Decoded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.failed || buf.is_empty() {
            return Ok(0);
        }
        loop {
            match self.inner.read(buf) {
                Ok(0) => {
                    // A plain file read short of its size at open was cut under the read.
                    if self.codec == Codec::Plain
                        && let Some(size) = self.size_at_open
                        && self.decoded < size
                    {
                        self.failed = true;
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            format!(
                                "{}: the file changed while it was read ({size} bytes at open, {} read); it was truncated or rotated",
                                self.path.display(),
                                self.decoded
                            ),
                        ));
                    }
                    return Ok(0);
                }
                Ok(n) => {
                    self.decoded += n as u64;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.failed = true;
                    return Err(self.failure(&e));
                }
            }
        }
    }
}

/// Bytes a decoder thread hands over at a time.
const PREFETCH_BLOCK: usize = 1 << 20;
/// The most a decoder is asked for in one call.
const READ_SLICE: usize = 1 << 16;
/// Blocks a decoder thread may be ahead of its reader (memory per compressed source: this
/// many blocks plus the one being read and the one being filled).
const PREFETCH_BLOCKS: usize = 4;

/// A decoder run on a thread of its own, a few blocks ahead of its reader: the logs of a
/// merged set are decoded on as many cores as there are, beside the merge that reads them.
struct Prefetched {
    blocks: std::sync::mpsc::Receiver<io::Result<Vec<u8>>>,
    current: Vec<u8>,
    at: usize,
    ended: bool,
}

impl Prefetched {
    /// Starts the thread (or, when none can be started, reads `decoder` in place).
    fn start(decoder: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
        let (tx, blocks) = std::sync::mpsc::sync_channel(PREFETCH_BLOCKS);
        let (handoff, taken) = std::sync::mpsc::channel::<Box<dyn Read + Send>>();
        let spawned = std::thread::Builder::new()
            .name("rxw-decoder".into())
            .spawn(move || {
                // Decoding is background work: keys come first.
                crate::priority::lower_this_thread();
                let Ok(mut decoder) = taken.recv() else {
                    return;
                };
                loop {
                    let mut block = vec![0u8; PREFETCH_BLOCK];
                    let mut n = 0;
                    let outcome = loop {
                        if n == block.len() {
                            break Ok(false);
                        }
                        // A slice at a time: a decoder that fails part way (the xz reader on a
                        // truncated file) loses what it decoded in the failing call, so the
                        // calls are kept small to keep what decoded before.
                        let end = (n + READ_SLICE).min(block.len());
                        match decoder.read(&mut block[n..end]) {
                            Ok(0) => break Ok(true),
                            Ok(k) => n += k,
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                            Err(e) => break Err(e),
                        }
                    };
                    block.truncate(n);
                    // A reader that went away ends the thread.
                    if n > 0 && tx.send(Ok(block)).is_err() {
                        return;
                    }
                    match outcome {
                        Ok(false) => {}
                        Ok(true) => return,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    }
                }
            });
        match spawned {
            Ok(_) => match handoff.send(decoder) {
                Ok(()) => Box::new(Prefetched {
                    blocks,
                    current: Vec::new(),
                    at: 0,
                    ended: false,
                }),
                Err(back) => back.0,
            },
            Err(_) => decoder,
        }
    }
}

impl Read for Prefetched {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at >= self.current.len() {
            if self.ended {
                return Ok(0);
            }
            match self.blocks.recv() {
                Ok(Ok(block)) => {
                    self.current = block;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                // The thread ended after the last block: the end of the stream.
                Err(_) => {
                    self.ended = true;
                    return Ok(0);
                }
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The most memory an xz stream may take to decode, in KiB: room for the 64 MiB dictionary
/// of `xz -9` (the largest preset) and the decoder's own state.
pub const XZ_MEMORY_LIMIT_KIB: u32 = 100 * 1024;

/// The message for a decoder that failed part way: which file, which codec, how far into the
/// compressed file and how much was decoded, and the decoder's own words.
pub fn describe_failure(
    path: &Path,
    codec: Codec,
    consumed: u64,
    size: Option<u64>,
    decoded: u64,
    cause: &io::Error,
) -> String {
    if codec == Codec::Xz && cause.to_string().contains("mem_limit") {
        return format!(
            "{}: the xz data is refused: its dictionary needs more than {} MiB to decode (xz -9 needs 65 MiB), so it was not decoded",
            path.display(),
            XZ_MEMORY_LIMIT_KIB / 1024
        );
    }
    let what = if cause.kind() == io::ErrorKind::UnexpectedEof {
        "is truncated"
    } else {
        "is corrupt"
    };
    let of = size.map_or(String::new(), |s| format!(" of {s}"));
    format!(
        "{}: the {codec} data {what}: decoding stopped at compressed byte {consumed}{of} after {decoded} decoded bytes ({cause})",
        path.display()
    )
}

/// Opens the file at `path` and decodes it by its magic bytes. `path` names it in errors.
///
/// # Errors
/// When the file cannot be opened or is a directory (the message names the path), or when
/// its first bytes cannot be read.
pub fn open(path: &Path) -> io::Result<Decoded> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(named)?;
    let meta = file.metadata().map_err(named)?;
    if meta.is_dir() {
        return Err(io::Error::other(format!(
            "{}: is a directory",
            path.display()
        )));
    }
    let size = meta.is_file().then_some(meta.len());
    let handle = meta.is_file().then(|| file.try_clone().ok()).flatten();
    let mut decoded = decode(file, size, path)?;
    if decoded.codec == Codec::Plain {
        decoded.in_place = handle;
    }
    Ok(decoded)
}

/// Decodes any reader by its magic bytes (standard input, a pipe); `size` is its length
/// when known, and `name` names it in errors.
///
/// # Errors
/// When its first bytes cannot be read.
pub fn decode(
    reader: impl Read + Send + 'static,
    size: Option<u64>,
    name: &Path,
) -> io::Result<Decoded> {
    let consumed = Arc::new(AtomicU64::new(0));
    let mut buffered = BufReader::with_capacity(1 << 16, reader);
    let head = loop {
        match buffered.fill_buf() {
            Ok(h) => break h,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(io::Error::new(e.kind(), format!("{}: {e}", name.display())));
            }
        }
    };
    let codec = Codec::sniff(head);
    let counted = Consumed {
        inner: buffered,
        consumed: consumed.clone(),
    };
    let decoder: Box<dyn Read + Send> = match codec {
        Codec::Plain => Box::new(counted),
        Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(counted)),
        Codec::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(counted)?),
        Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(counted)),
        // The memory an xz stream takes follows the dictionary its header declares: a 58 KB
        // file can ask for 256 MiB. More than xz -9's 64 MiB dictionary is refused, said.
        Codec::Xz => Box::new(lzma_rust2::XzReader::new_mem_limit(
            counted,
            true,
            XZ_MEMORY_LIMIT_KIB,
        )),
    };
    let inner = match codec {
        Codec::Plain => decoder,
        _ => Prefetched::start(decoder),
    };
    Ok(Decoded {
        inner,
        codec,
        path: name.to_path_buf(),
        consumed,
        size_at_open: size,
        decoded: 0,
        failed: false,
        in_place: None,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;

    /// A log of `lines` numbered lines.
    fn sample(lines: usize) -> Vec<u8> {
        let mut s = String::new();
        for k in 0..lines {
            s.push_str(&format!(
                "2026-10-05T00:00:{:02}Z line {k} [CLAIM j{k}]\n",
                k % 60
            ));
        }
        s.into_bytes()
    }

    pub(crate) fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    pub(crate) fn compress(codec: Codec, data: &[u8]) -> Vec<u8> {
        match codec {
            Codec::Plain => data.to_vec(),
            Codec::Gzip => gzip(data),
            Codec::Zstd => {
                // With the content checksum, as the zstd command writes by default: without
                // it, damaged literals decode to other bytes and nothing can tell.
                let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
                e.include_checksum(true).unwrap();
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Codec::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Codec::Xz => {
                let mut w =
                    lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6))
                        .unwrap();
                w.write_all(data).unwrap();
                w.finish().unwrap()
            }
        }
    }

    fn read_back(bytes: Vec<u8>) -> (Codec, Vec<u8>, Option<String>) {
        let mut d = decode(std::io::Cursor::new(bytes), None, Path::new("day.log.x")).unwrap();
        let mut out = Vec::new();
        let err = d.read_to_end(&mut out).err().map(|e| e.to_string());
        (d.codec(), out, err)
    }

    const CODECS: [Codec; 5] = [
        Codec::Plain,
        Codec::Gzip,
        Codec::Zstd,
        Codec::Bzip2,
        Codec::Xz,
    ];

    #[test]
    fn every_codec_round_trips_and_is_told_by_its_magic_bytes() {
        let data = sample(5000);
        for codec in CODECS {
            let (found, out, err) = read_back(compress(codec, &data));
            assert_eq!(found, codec);
            assert_eq!(err, None, "{codec}");
            assert!(out == data, "{codec}: decoded text differs");
        }
    }

    /// Regression: a truncated `.xz` decoded 0 bytes where `xz -dc` recovers most of it: the
    /// xz reader loses what it decoded in a call that then fails, and it was asked for 1 MiB
    /// at a time. What decoded before the cut chunk is kept, and the error said.
    #[test]
    fn a_truncated_xz_keeps_what_decoded_before_the_cut() {
        // Text that does not compress much, so the stream has many LZMA2 chunks.
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut text = String::new();
        while text.len() < 3 << 20 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            text.push_str(&format!("2026-10-05T00:00:00Z agent: [CLAIM {rng:016x}]\n"));
        }
        let xz = compress(Codec::Xz, text.as_bytes());
        let cut = xz[..xz.len() * 3 / 5].to_vec();
        let mut d = decode(std::io::Cursor::new(cut), None, Path::new("cut.xz")).unwrap();
        let mut got = Vec::new();
        let err = d.read_to_end(&mut got).unwrap_err().to_string();
        crate::testing::assert_has(&err, "truncated");
        assert!(
            got.len() > text.len() * 2 / 5,
            "only {} of {} bytes kept",
            got.len(),
            text.len()
        );
        assert_eq!(
            &got[..],
            &text.as_bytes()[..got.len()],
            "a prefix of the text"
        );
    }

    /// Regression: an xz stream's memory followed the dictionary its header declares (a 58 KB
    /// file declaring 256 MiB: 284 MB resident for a count). A dictionary past xz -9's is
    /// refused before it is allocated, and said.
    #[test]
    fn an_xz_stream_declaring_a_huge_dictionary_is_refused_and_said() {
        let mut xz = compress(Codec::Xz, &sample(2000));
        // The block header follows the 12-byte stream header: its LZMA2 filter (id 0x21,
        // one property byte) names the dictionary; 32 is 256 MiB. Its CRC32 is rewritten.
        let size = (usize::from(xz[12]) + 1) * 4;
        let header = &xz[12..12 + size];
        let at = header.windows(2).position(|w| w == [0x21, 0x01]).unwrap() + 2;
        xz[12 + at] = 32;
        let mut crc = flate2::Crc::new();
        crc.update(&xz[12..12 + size - 4]);
        xz[12 + size - 4..12 + size].copy_from_slice(&crc.sum().to_le_bytes());
        let mut d = decode(std::io::Cursor::new(xz), None, Path::new("big.xz")).unwrap();
        let mut out = Vec::new();
        let err = d.read_to_end(&mut out).unwrap_err().to_string();
        crate::testing::assert_has(
            &err,
            "the xz data is refused: its dictionary needs more than 100 MiB",
        );
        assert!(out.is_empty());
    }

    #[test]
    fn several_streams_in_one_file_are_all_read() {
        // `cat a.gz b.gz > ab.gz`, and the same for the other codecs.
        let (a, b) = (sample(300), b"tail line\n".to_vec());
        for codec in CODECS {
            let mut joined = compress(codec, &a);
            joined.extend(compress(codec, &b));
            let (_, out, err) = read_back(joined);
            assert_eq!(err, None, "{codec}");
            assert_eq!(out, [a.clone(), b.clone()].concat(), "{codec}");
        }
    }

    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn a_truncated_archive_keeps_what_decoded_and_says_where_it_broke() {
        let data = sample(20_000);
        for codec in [Codec::Gzip, Codec::Zstd, Codec::Bzip2, Codec::Xz] {
            let whole = compress(codec, &data);
            let cut = whole.len() * 2 / 3;
            let (_, out, err) = read_back(whole[..cut].to_vec());
            let err = err.unwrap_or_else(|| panic!("{codec}: a truncated archive is an error"));
            assert!(
                err.starts_with(&format!("day.log.x: the {codec} data is truncated")),
                "{err}"
            );
            crate::testing::assert_has(&err, "decoding stopped at compressed byte");
            assert!(
                err.contains(&format!("after {} decoded bytes", out.len())),
                "{err}"
            );
            // What was decoded is a prefix of the log.
            assert!(data.starts_with(&out), "{codec}");
        }
    }

    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn an_archive_of_many_blocks_decoded_on_its_own_thread_is_whole_or_cut_where_it_broke() {
        // More blocks than the decoder thread may run ahead by.
        let data = sample(200_000);
        assert!(data.len() > (PREFETCH_BLOCKS + 3) * PREFETCH_BLOCK);
        for codec in [Codec::Gzip, Codec::Zstd] {
            let whole = compress(codec, &data);
            let (_, out, err) = read_back(whole.clone());
            assert_eq!(err, None, "{codec}");
            assert!(out == data, "{codec}: the decoded log differs");
            let (_, out, err) = read_back(whole[..whole.len() * 4 / 5].to_vec());
            let err = err.unwrap_or_else(|| panic!("{codec}: a truncated archive is an error"));
            crate::testing::assert_has(&err, "is truncated");
            assert!(
                err.contains(&format!("after {} decoded bytes", out.len())),
                "{err}"
            );
            assert!(
                out.len() > data.len() / 2 && data.starts_with(&out),
                "{codec}"
            );
        }
    }

    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn a_corrupt_archive_is_an_error_never_a_silent_short_read() {
        let data = sample(20_000);
        for codec in [Codec::Gzip, Codec::Zstd, Codec::Bzip2, Codec::Xz] {
            let mut bytes = compress(codec, &data);
            let mid = bytes.len() / 2;
            for b in &mut bytes[mid..mid + 64] {
                *b ^= 0x5a;
            }
            let (_, _, err) = read_back(bytes);
            // (What decoded before the damage was found may be garbage of any length: gzip
            // checks its CRC only at the member's end.)
            let err = err.unwrap_or_else(|| panic!("{codec}: corruption is an error"));
            assert!(
                err.starts_with(&format!("day.log.x: the {codec} data is ")),
                "{err}"
            );
        }
    }

    #[test]
    fn a_plain_file_cut_under_the_read_says_it_changed() {
        let data = sample(10);
        let mut d = decode(
            std::io::Cursor::new(data.clone()),
            Some(data.len() as u64 + 100),
            Path::new("t.log"),
        )
        .unwrap();
        let mut out = Vec::new();
        let err = d.read_to_end(&mut out).unwrap_err().to_string();
        assert_eq!(out, data);
        crate::testing::assert_starts(&err, "t.log: the file changed while it was read");
    }

    #[test]
    fn files_by_content_not_name_and_directories_refused() {
        let dir = tempfile::tempdir().unwrap();
        let data = sample(50);
        let disguised = dir.path().join("day.log.1");
        std::fs::write(&disguised, gzip(&data)).unwrap();
        let mut d = open(&disguised).unwrap();
        assert_eq!(d.codec(), Codec::Gzip);
        let mut out = Vec::new();
        d.read_to_end(&mut out).unwrap();
        assert_eq!(out, data);
        let plain = dir.path().join("notes.gz");
        std::fs::write(&plain, b"just text\n").unwrap();
        assert_eq!(open(&plain).unwrap().codec(), Codec::Plain);
        let err = open(dir.path()).err().unwrap().to_string();
        assert!(err.ends_with("is a directory"), "{err}");
    }
}
