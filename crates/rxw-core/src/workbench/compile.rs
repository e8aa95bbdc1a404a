//! Compiling a pattern off the caller's thread.
//!
//! A pattern of a few bytes compiles in microseconds, but a pasted megabyte takes the engine
//! a good part of a second, and the workbench must keep taking keys (Ctrl-C above all) while
//! it does. The worker compiles only the newest request: requests that were overtaken while
//! it was busy are skipped, and a result the workbench no longer waits for is dropped there.

use crate::engine::{Limits, Regex};
use crate::error::Error;
use crate::flavor::{Flags, Flavor};
use crate::syntax::ast::Ast;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;
use std::time::Duration;

/// What a pattern is compiled from.
pub type CompileKey = (String, Flavor, Flags);

/// The pattern's parse, made once per edit by the workbench's analysis and shared with the
/// compile, or the parse error.
pub type Parsed = Result<Arc<Ast>, Error>;

/// Compiles `key`'s pattern from its parse (never parsing it again).
///
/// # Errors
/// The parse error, or what [`Regex::from_parsed`] refuses.
pub fn compile_parsed(key: &CompileKey, parsed: Parsed) -> Result<Arc<Regex>, Error> {
    let ast = parsed?;
    Ok(Regex::from_parsed(&key.0, key.1, key.2, ast, &Limits::human()).map(Arc::new)?)
}

/// A finished compile: the request and its outcome.
pub type Compiled = (CompileKey, Result<Arc<Regex>, Error>);

/// A compile worker thread. It ends when the `Compiler` is dropped.
pub struct Compiler {
    jobs: Sender<(CompileKey, Parsed)>,
    results: Receiver<Compiled>,
}

impl Compiler {
    /// Starts the worker.
    ///
    /// # Panics
    /// When the thread cannot be spawned (as the scan workers).
    pub fn new(waker: super::matching::SharedWaker) -> Compiler {
        let (jobs, rx) = channel::<(CompileKey, Parsed)>();
        let (tx, results) = channel::<Compiled>();
        thread::Builder::new()
            .name("rxw-compile".into())
            .spawn(move || {
                while let Ok(mut job) = rx.recv() {
                    // Only the newest request matters.
                    while let Ok(newer) = rx.try_recv() {
                        job = newer;
                    }
                    let (key, parsed) = job;
                    let result = compile_parsed(&key, parsed);
                    if tx.send((key, result)).is_err() {
                        return;
                    }
                    waker.wake();
                }
            })
            .expect("spawn the compile thread");
        Compiler { jobs, results }
    }

    /// Asks for `key` to be compiled from its parse.
    pub fn submit(&self, key: CompileKey, parsed: Parsed) {
        let _ = self.jobs.send((key, parsed));
    }

    /// A finished compile, if one is waiting.
    pub fn try_result(&self) -> Option<Compiled> {
        self.results.try_recv().ok()
    }

    /// Waits up to `timeout` for a finished compile.
    pub fn wait_result(&self, timeout: Duration) -> Option<Compiled> {
        self.results.recv_timeout(timeout).ok()
    }
}

impl Default for Compiler {
    fn default() -> Self {
        Compiler::new(super::matching::SharedWaker::default())
    }
}
