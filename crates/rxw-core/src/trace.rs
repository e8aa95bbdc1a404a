//! An internal timing trace of the keystroke path, off unless `RXW_TRACE` names a file.
//!
//! Each [`mark`] appends one line, `MICROSECONDS THREAD WHAT`, counted from the first mark
//! of the process, so the time from a key to its frame can be split into its steps (the
//! terminal read, the edit, the window and full scans, the draw and its flush). With the
//! variable unset a mark costs one atomic load.

use std::io::Write as _;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// The environment variable naming the trace file.
pub const TRACE_VAR: &str = "RXW_TRACE";

struct Trace {
    start: Instant,
    out: Mutex<std::fs::File>,
}

fn trace() -> Option<&'static Trace> {
    static TRACE: OnceLock<Option<Trace>> = OnceLock::new();
    TRACE
        .get_or_init(|| {
            let path = std::env::var_os(TRACE_VAR)?;
            let out = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .ok()?;
            Some(Trace {
                start: Instant::now(),
                out: Mutex::new(out),
            })
        })
        .as_ref()
}

/// Whether marks are written.
pub fn enabled() -> bool {
    trace().is_some()
}

/// Writes one line saying `what` happened now on this thread (nothing when the trace is off).
pub fn mark(what: std::fmt::Arguments<'_>) {
    let Some(t) = trace() else { return };
    let micros = t.start.elapsed().as_micros();
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("?");
    let mut out = t
        .out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // A trace that cannot be written is lost; the work goes on.
    let _ = writeln!(out, "{micros} {name} {what}");
}

/// [`mark`] with `format!`-style arguments.
#[macro_export]
macro_rules! trace_mark {
    ($($arg:tt)*) => {
        $crate::trace::mark(format_args!($($arg)*))
    };
}
