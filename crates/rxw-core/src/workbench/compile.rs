//! Compiling a pattern off the caller's thread.
//!
//! A pattern of a few bytes compiles in microseconds, but a pasted megabyte takes the engine
//! a good part of a second, and the workbench must keep taking keys (Ctrl-C above all) while
//! it does. The worker compiles only the newest request: requests that were overtaken while
//! it was busy are skipped, and a result the workbench no longer waits for is dropped there.

use crate::engine::Regex;
use crate::error::Error;
use crate::flavor::{Flags, Flavor};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;
use std::time::Duration;

/// What a pattern is compiled from.
pub type CompileKey = (String, Flavor, Flags);

/// A finished compile: the request and its outcome.
pub type Compiled = (CompileKey, Result<Arc<Regex>, Error>);

/// A compile worker thread. It ends when the `Compiler` is dropped.
pub struct Compiler {
    jobs: Sender<CompileKey>,
    results: Receiver<Compiled>,
}

impl Compiler {
    /// Starts the worker.
    ///
    /// # Panics
    /// When the thread cannot be spawned (as the scan workers).
    pub fn new(waker: super::matching::SharedWaker) -> Compiler {
        let (jobs, rx) = channel::<CompileKey>();
        let (tx, results) = channel::<Compiled>();
        thread::Builder::new()
            .name("rxw-compile".into())
            .spawn(move || {
                while let Ok(mut key) = rx.recv() {
                    // Only the newest request matters.
                    while let Ok(newer) = rx.try_recv() {
                        key = newer;
                    }
                    let result = Regex::new(&key.0, key.1, key.2).map(Arc::new);
                    if tx.send((key, result)).is_err() {
                        return;
                    }
                    waker.wake();
                }
            })
            .expect("spawn the compile thread");
        Compiler { jobs, results }
    }

    /// Asks for `key` to be compiled.
    pub fn submit(&self, key: CompileKey) {
        let _ = self.jobs.send(key);
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
