//! A progress line on standard error for long runs (`counting 42% · 610 MB/s`), only when
//! standard error is a terminal: a pipe or a file never sees it.
//!
//! A thread reads the sources' progress handles ([`SourceProgress`]: the files' bytes
//! consumed, compressed bytes for an archive, against their sizes) and redraws the line at
//! most [`UPDATES_PER_SECOND`] times a second, from [`SHOW_AFTER`] on, so a short run prints
//! nothing. Ending the [`Progress`] (or dropping it) clears the line before the command says
//! anything more. No progress crate is in the build's dependency set; the line is a `\r`, the
//! text and an erase to the end of the line, which every terminal rxw runs in understands.

use crate::input::logs::SourceProgress;
use crate::progress::{how_far, rate_text};
use std::io::{IsTerminal, Write};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Most redraws of the line in a second.
pub const UPDATES_PER_SECOND: u32 = 10;

/// How long a run goes before its progress shows.
pub const SHOW_AFTER: Duration = Duration::from_millis(250);

/// A progress line being drawn; [`Progress::finish`] or dropping it clears the line.
pub struct Progress {
    running: Option<(Sender<()>, JoinHandle<()>)>,
}

impl Progress {
    /// Nothing shown.
    pub fn hidden() -> Progress {
        Progress { running: None }
    }

    /// Shows `label`'s progress over `sources` on standard error when it is a terminal
    /// (otherwise nothing is drawn and no thread started).
    pub fn start(label: &'static str, sources: Vec<SourceProgress>) -> Progress {
        if sources.is_empty() || !std::io::stderr().is_terminal() {
            return Progress::hidden();
        }
        let (stop, stopped) = channel::<()>();
        let thread = std::thread::Builder::new()
            .name("rxw-progress".into())
            .spawn(move || {
                let started = Instant::now();
                let period = Duration::from_secs(1) / UPDATES_PER_SECOND;
                let mut drawn = false;
                let mut wait = SHOW_AFTER;
                // Until the run ends (a message, or the sender dropped).
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(wait) {
                    wait = period;
                    let text = line(label, &sources, started.elapsed());
                    let mut err = std::io::stderr().lock();
                    // A terminal that cannot be written to gets no progress.
                    drawn |= write!(err, "\r{text}\x1b[K")
                        .and_then(|()| err.flush())
                        .is_ok();
                }
                if drawn {
                    let mut err = std::io::stderr().lock();
                    let _ = write!(err, "\r\x1b[K").and_then(|()| err.flush());
                }
            });
        match thread {
            Ok(thread) => Progress {
                running: Some((stop, thread)),
            },
            // Progress is a courtesy: without a thread the run goes on silently.
            Err(_) => Progress::hidden(),
        }
    }

    /// Stops drawing and clears the line.
    pub fn finish(&mut self) {
        if let Some((stop, thread)) = self.running.take() {
            drop(stop);
            let _ = thread.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The line for `label` after `elapsed`: `counting 42% · 610 MB/s` (the rate once known), or
/// the bytes read when a source's size is not known (standard input).
pub fn line(label: &str, sources: &[SourceProgress], elapsed: Duration) -> String {
    let done: u64 = sources.iter().map(SourceProgress::consumed).sum();
    let total: Option<u64> = sources.iter().map(SourceProgress::size).sum();
    let secs = elapsed.as_secs_f64();
    let rate = (secs >= 0.2).then(|| done as f64 / secs);
    format!("{label} {}{}", how_far(done, total), rate_text(rate))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicU64;

    fn source(consumed: u64, size: Option<u64>) -> SourceProgress {
        SourceProgress::new(Arc::new(AtomicU64::new(consumed)), size)
    }

    #[test]
    fn the_line_is_the_share_of_the_files_read_and_the_rate() {
        let logs = [
            source(300_000_000, Some(500_000_000)),
            source(120_000_000, Some(500_000_000)),
        ];
        assert_eq!(
            line("counting", &logs, Duration::from_secs(1)),
            "counting 42% · 420 MB/s"
        );
        // No rate before it means something; the bytes read when a size is not known.
        assert_eq!(
            line("counting", &logs, Duration::from_millis(100)),
            "counting 42%"
        );
        let stdin = [source(7_000_000, None)];
        assert_eq!(
            line("pairing jobs", &stdin, Duration::from_secs(2)),
            "pairing jobs 7 MB · 4 MB/s"
        );
    }
}
