//! The logs a command reads: a text argument, or files, directories, globs and standard
//! input, through the core's one input layer ([`crate::input::logs`]).

use super::progress::Progress;
use super::{CliError, report_error};
use crate::error::Error;
use crate::input::Text;
use crate::input::chunks::{Chunk, Chunks, ChunksAhead};
use crate::input::logs::{self, MergedLines, Origin};
use crate::input::time_filter::TimeFilter;
use std::io::{Read, Write};
use std::path::PathBuf;

/// Bytes of whole lines matched at a time when a pattern allows it.
pub const CHUNK: usize = 4 << 20;

/// The sources the paths name, standard input when none.
///
/// # Errors
/// As [`logs::expand`].
pub fn origins(files: &[PathBuf]) -> Result<Vec<Origin>, Error> {
    if files.is_empty() {
        // Reading a terminal would wait for text the user does not know to type.
        if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            return Err(Error::new(
                crate::ErrorKind::ArgumentsInvalid,
                "no input: name a file after the pattern (rxw find PATTERN FILE…), give \
                 --text TEXT, or pipe text in",
            ));
        }
        return Ok(vec![Origin::Stdin]);
    }
    logs::expand(files)
}

/// Text to match, one chunk of whole lines at a time: a text argument (one chunk), or the
/// merged logs.
pub struct TextInput {
    given: Option<Chunk>,
    /// The merged logs' chunks, merged on a thread of their own while the chunks already
    /// read are matched.
    chunks: Option<ChunksAhead>,
    names: Vec<String>,
    /// For one log read whole: its invalid UTF-8 notice and its failure.
    warning: Option<String>,
    failures: Vec<Error>,
    /// The progress line on standard error, cleared by [`TextInput::finish`].
    progress: Progress,
    /// How far each merged log's file has been read (empty for a text argument and for one
    /// log read whole).
    read: Vec<logs::SourceProgress>,
}

impl TextInput {
    /// The text argument when given, else the logs `files` name (standard input when none),
    /// in chunks of about `chunk` bytes (`usize::MAX`: whole). With a `label`, a long read
    /// shows its progress on standard error when that is a terminal (`counting 42% · 610
    /// MB/s`; see [`super::progress`]) until [`TextInput::finish`]; a command whose output
    /// streams to the same terminal passes none.
    ///
    /// # Errors
    /// A source that does not exist or cannot be opened.
    pub fn open(
        text: Option<&str>,
        files: &[PathBuf],
        chunk: usize,
        label: Option<&'static str>,
    ) -> Result<TextInput, Error> {
        TextInput::open_within(text, files, chunk, label, None)
    }

    /// As [`TextInput::open`], keeping only the lines whose record's time `time` keeps
    /// ([`Chunks::within`]; a text argument is not filtered: the arguments keep `--text` and
    /// a time range apart).
    ///
    /// # Errors
    /// As [`TextInput::open`].
    pub fn open_within(
        text: Option<&str>,
        files: &[PathBuf],
        chunk: usize,
        label: Option<&'static str>,
        time: Option<TimeFilter>,
    ) -> Result<TextInput, Error> {
        let time = time.filter(|t| !t.range().is_all());
        if let Some(t) = text {
            return Ok(TextInput {
                given: Some(Chunk::whole(t.to_string())),
                chunks: None,
                names: Vec::new(),
                warning: None,
                failures: Vec::new(),
                progress: Progress::hidden(),
                read: Vec::new(),
            });
        }
        let origins = origins(files)?;
        if let ([origin], usize::MAX, None) = (origins.as_slice(), chunk, &time) {
            // One log wanted whole: one buffer of its size, not a string grown line by line.
            let (read, failure, progress) = read_whole(origin, label)?;
            let text = Text::from_bytes(read);
            return Ok(TextInput {
                warning: text.warning(),
                given: Some(Chunk::whole(text.into_string())),
                chunks: None,
                names: vec![origin.name()],
                failures: failure.into_iter().collect(),
                progress,
                read: Vec::new(),
            });
        }
        let merged = MergedLines::open(&origins)?;
        let read = merged.progress();
        let progress = match label {
            Some(label) => Progress::start(label, merged.progress()),
            None => Progress::hidden(),
        };
        let names = merged.names().to_vec();
        let within = |chunks: Chunks| match time {
            Some(t) => chunks.within(t),
            None => chunks,
        };
        if chunk == usize::MAX {
            // Wanted whole: one chunk within the in-memory cap; past it, what fit stands and
            // the failure says so.
            let cap = crate::input::room::max_decoded_in_memory();
            let (whole, mut chunks, over) = Chunks::whole_of(within(Chunks::new(merged, 0)), cap);
            let mut failures = chunks.take_failures();
            failures.extend(over);
            return Ok(TextInput {
                given: Some(whole),
                chunks: None,
                names,
                warning: [
                    chunks.warning(),
                    chunks.time_filter().and_then(TimeFilter::note),
                ]
                .into_iter()
                .flatten()
                .reduce(|a, b| format!("{a}\nrxw: warning: {b}")),
                failures,
                progress,
                read,
            });
        }
        Ok(TextInput {
            given: None,
            names,
            chunks: Some(ChunksAhead::start(
                within(Chunks::new(merged, chunk)),
                2,
                false,
            )),
            warning: None,
            failures: Vec::new(),
            progress,
            read,
        })
    }

    /// The bytes of each log's file read so far, by source (what following goes on from once
    /// every chunk is taken); empty for a text argument and for one log read whole.
    pub fn bytes_read(&self) -> Vec<u64> {
        self.read
            .iter()
            .map(logs::SourceProgress::consumed)
            .collect()
    }

    /// The next chunk, `None` after the last.
    pub fn next_chunk(&mut self) -> Option<Chunk> {
        match &mut self.chunks {
            Some(c) => c.next_chunk(),
            None => self.given.take(),
        }
    }

    /// `first` (the first chunk) with every chunk after it appended: the whole text, for a
    /// pass that learned from the first chunk that it needs the text at once. Past the
    /// in-memory cap the text holds what fit and a failure says so, as for a text opened
    /// whole.
    pub fn rest_whole(&mut self, mut first: Chunk) -> Chunk {
        let cap = crate::input::room::max_decoded_in_memory();
        while let Some(next) = self.next_chunk() {
            if (first.text.len() + next.text.len()) as u64 > cap {
                self.failures.push(crate::input::room::too_large_for_memory(
                    "the logs merged",
                    cap,
                ));
                break;
            }
            first.append(next);
        }
        first
    }

    /// The name of source `k`, `None` for a text argument.
    pub fn source(&self, k: usize) -> Option<&str> {
        self.names.get(k).map(String::as_str)
    }

    /// The names of the sources, by index (empty for a text argument).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Whether human output names each line's source (more than one log).
    pub fn tagged(&self) -> bool {
        self.names.len() > 1
    }

    /// Says what the reading found on `err`: invalid UTF-8, then every source that failed
    /// part way. Returns the failures.
    ///
    /// # Errors
    /// Writing to `err`.
    pub fn finish(&mut self, err: &mut dyn Write) -> Result<Vec<Error>, CliError> {
        self.progress.finish();
        let Some(ahead) = self.chunks.as_mut() else {
            if let Some(w) = self.warning.take() {
                writeln!(err, "rxw: warning: {w}")?;
            }
            return Ok(std::mem::take(&mut self.failures));
        };
        let mut failures = std::mem::take(&mut self.failures);
        failures.extend(ahead.take_failures());
        if let Some(chunks) = ahead.finish() {
            if let Some(w) = chunks.warning() {
                writeln!(err, "rxw: warning: {w}")?;
            }
            if let Some(note) = chunks.time_filter().and_then(TimeFilter::note) {
                writeln!(err, "rxw: note: {note}")?;
            }
            failures.extend(chunks.take_failures());
        }
        Ok(failures)
    }
}

/// Ends a command whose output is printed: no failure gives `code`; sources that failed part
/// way are said on `err` (the first as a JSON error document under `json`, where the output
/// must stay one document) and give exit 2.
///
/// # Errors
/// Writing fails.
pub fn conclude(
    failures: Vec<Error>,
    code: i32,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, CliError> {
    if failures.is_empty() {
        return Ok(code);
    }
    for (k, f) in failures.iter().enumerate() {
        report_error(f, json && k == 0, out, err);
    }
    Ok(2)
}

/// The whole text of the logs `files` name (or `text`), for commands that need it at once.
/// One file is read as it is (decoded when compressed); several are merged by time.
///
/// # Errors
/// A source that cannot be opened, or that failed part way (truncated, corrupt, changed
/// while it was read).
pub fn load_text(text: Option<&str>, files: &[PathBuf]) -> Result<Text, Error> {
    if let Some(t) = text {
        return Ok(Text::from_bytes(t.as_bytes().to_vec()));
    }
    let origins = origins(files)?;
    if let [origin] = origins.as_slice() {
        let (bytes, failure, _) = read_whole(origin, None)?;
        return match failure {
            Some(e) => Err(e),
            None => Ok(Text::from_bytes(bytes)),
        };
    }
    let cap = crate::input::room::max_decoded_in_memory();
    let (chunk, mut chunks, over) = Chunks::whole_within(MergedLines::open(&origins)?, cap);
    if let Some(first) = chunks.take_failures().into_iter().chain(over).next() {
        return Err(first);
    }
    let mut text = Text::from_bytes(chunk.text.into_bytes());
    text.invalid_utf8 = chunks.invalid_utf8();
    Ok(text)
}

/// One log's bytes, decoded, in one buffer (sized to a plain file at once), with the error
/// that stopped the read part way, if one did.
///
/// # Errors
/// The log cannot be opened, or does not fit in memory.
fn read_whole(
    origin: &Origin,
    label: Option<&'static str>,
) -> Result<(Vec<u8>, Option<Error>, Progress), Error> {
    {
        let mut decoded = logs::open(origin)?;
        let progress = match label {
            Some(label) => Progress::start(
                label,
                vec![logs::SourceProgress::new(
                    decoded.consumed_handle(),
                    decoded.size_at_open(),
                )],
            ),
            None => Progress::hidden(),
        };
        let cap = crate::input::room::max_decoded_in_memory();
        let mut bytes = Vec::new();
        if decoded.codec() == crate::input::codec::Codec::Plain {
            let size = decoded.size_at_open().unwrap_or(0);
            if size > cap {
                return Err(crate::input::room::too_large_for_memory(
                    &origin.name(),
                    cap,
                ));
            }
            let want = usize::try_from(size)
                .unwrap_or(usize::MAX)
                .saturating_add(1);
            bytes.try_reserve_exact(want).map_err(|_| {
                Error::new(
                    crate::ErrorKind::Io,
                    format!("{}: {size} bytes do not fit in memory", origin.name()),
                )
            })?;
        }
        // `read_to_end` keeps what was read before an error. A decoded text past the cap
        // (a decompression bomb) stops there, said, instead of growing until an allocation
        // aborts the process.
        let mut failure = (&mut decoded)
            .take(cap.saturating_add(1))
            .read_to_end(&mut bytes)
            .err()
            .map(|e| Error::new(crate::ErrorKind::Io, e.to_string()));
        if bytes.len() as u64 > cap {
            bytes.truncate(cap as usize);
            failure = Some(crate::input::room::too_large_for_memory(
                &origin.name(),
                cap,
            ));
        }
        Ok((bytes, failure, progress))
    }
}

/// `--since`/`--until` given with `--text`: a text argument is matched as given.
pub(crate) fn time_with_text() -> crate::error::Error {
    crate::error::Error::new(
        crate::ErrorKind::ArgumentsInvalid,
        "--since/--until select the records of logs; --text is matched as given",
    )
}

/// Says on `err` how many records of a record log ran past the longest a record may be and
/// were cut there (nothing when none was).
pub fn warn_cut_records(cut: u64, err: &mut dyn Write) -> std::io::Result<()> {
    if cut > 0 {
        writeln!(
            err,
            "rxw: warning: {cut} record(s) ran past {} MiB and were cut there; each piece was matched as a record of its own",
            crate::presets::per_record::MAX_RECORD >> 20
        )?;
    }
    Ok(())
}
