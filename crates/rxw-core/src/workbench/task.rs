//! One worker thread that runs the newest request, cancelling the one before: the shape the
//! operator views (lens, jobs, timeline) and exports share with the scan workers ([`super::matching`]).
//!
//! A request is submitted with a fresh cancel flag; submitting the next one raises the old
//! flag, and requests queued behind are dropped in favour of the newest. The work function
//! sends its results on a channel of its own and calls the [`SharedWaker`] after each, so an
//! event loop sleeping on its channel wakes at once.

use super::matching::SharedWaker;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A worker thread running requests of type `J`, the newest first.
pub struct Task<J: Send + 'static> {
    jobs: Sender<(J, Arc<AtomicBool>)>,
    cancel: Mutex<Arc<AtomicBool>>,
}

impl<J: Send + 'static> Task<J> {
    /// Starts the thread; `run` does one request, watching the flag to stop early.
    ///
    /// # Panics
    /// When the operating system cannot start a thread.
    pub fn spawn(name: &str, run: impl Fn(J, &AtomicBool) + Send + 'static) -> Task<J> {
        let (jobs, rx) = channel::<(J, Arc<AtomicBool>)>();
        thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                // The operator views' passes are background work: keys come first.
                crate::priority::lower_this_thread();
                while let Ok(mut job) = rx.recv() {
                    while let Ok(newer) = rx.try_recv() {
                        job = newer;
                    }
                    if !job.1.load(Ordering::Relaxed) {
                        run(job.0, &job.1);
                    }
                }
            })
            .expect("spawn a worker thread");
        Task {
            jobs,
            cancel: Mutex::new(Arc::new(AtomicBool::new(false))),
        }
    }

    /// Runs `job` next, cancelling the request in flight.
    pub fn submit(&self, job: J) {
        let flag = Arc::new(AtomicBool::new(false));
        let old = std::mem::replace(
            &mut *self.cancel.lock().unwrap_or_else(|e| e.into_inner()),
            Arc::clone(&flag),
        );
        old.store(true, Ordering::Relaxed);
        let _ = self.jobs.send((job, flag));
    }

    /// Cancels the request in flight.
    pub fn cancel(&self) {
        self.cancel
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .store(true, Ordering::Relaxed);
    }
}

/// The sending end a work function uses: its events plus the waker.
pub struct Reply<E> {
    events: Sender<E>,
    waker: SharedWaker,
}

impl<E> Clone for Reply<E> {
    fn clone(&self) -> Self {
        Reply {
            events: self.events.clone(),
            waker: self.waker.clone(),
        }
    }
}

impl<E> Reply<E> {
    /// Sends an event and wakes the receiver's loop.
    pub fn send(&self, ev: E) {
        if self.events.send(ev).is_ok() {
            self.waker.wake();
        }
    }
}

/// A channel whose sender wakes `waker` after each event.
pub fn reply_channel<E>(waker: SharedWaker) -> (Reply<E>, Receiver<E>) {
    let (events, rx) = channel();
    (Reply { events, waker }, rx)
}

/// A view's state as far as its pass goes: whether a pass runs, and the byte it has reached.
pub trait PassState: Copy {
    /// The byte the running pass has reached; `None` when no pass runs.
    fn running(self) -> Option<usize>;
}

/// A view's worker and the passes it runs, as the jobs table and the timeline keep them:
/// the generation that tells the running pass's events from those of a pass replaced or
/// stopped, when the running pass started and at which byte (its rate), and where the last
/// pass that ended started.
pub struct PassWorker<J: Send + 'static, E> {
    /// The running pass's generation: its job carries it and its events name it.
    generation: u64,
    /// When the running pass started, and the byte it started at.
    started: Option<(Instant, usize)>,
    /// Where the last pass that ended started (0: the whole input was read).
    read_from: usize,
    task: Option<Task<J>>,
    events: Option<Receiver<E>>,
    waker: SharedWaker,
}

impl<J: Send + 'static, E: Send + 'static> PassWorker<J, E> {
    /// No pass yet; `waker` is called when the worker has an event to take.
    pub fn new(waker: SharedWaker) -> Self {
        PassWorker {
            generation: 0,
            started: None,
            read_from: 0,
            task: None,
            events: None,
            waker,
        }
    }

    /// Starts a pass at byte `from`, cancelling the one in flight: a new generation, the
    /// worker thread `name` started the first time (`run` does one job, sending its events),
    /// and the job `job` makes of the generation sent to it.
    pub fn start(
        &mut self,
        name: &str,
        run: fn(J, &AtomicBool, &Reply<E>),
        from: usize,
        job: impl FnOnce(u64) -> J,
    ) {
        self.generation += 1;
        self.started = Some((Instant::now(), from));
        if self.task.is_none() {
            let (reply, rx) = reply_channel(self.waker.clone());
            self.task = Some(Task::spawn(name, move |job, cancel| {
                run(job, cancel, &reply)
            }));
            self.events = Some(rx);
        }
        if let Some(task) = &self.task {
            task.submit(job(self.generation));
        }
    }

    /// Cancels the running pass. Events the worker sends before it sees the flag are not
    /// the current generation's, so they are not taken in.
    pub fn cancel(&mut self) {
        if let Some(task) = &self.task {
            task.cancel();
        }
        self.generation += 1;
    }

    /// The running pass's generation (an event of another is stale).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The running pass's rate so far in bytes a second, having reached byte `at`, once it
    /// has run long enough (200 ms) for the figure to mean something.
    pub fn rate(&self, at: usize) -> Option<f64> {
        let (started, from) = self.started?;
        crate::progress::rate_since(started, from, at)
    }

    /// [`PassWorker::rate`] of the pass `state` says runs; `None` when none runs.
    pub fn rate_of(&self, state: impl PassState) -> Option<f64> {
        self.rate(state.running()?)
    }

    /// Cancels the pass `state` says runs ([`PassWorker::cancel`]), answering the byte it
    /// had reached; `None` (and nothing cancelled) when none runs.
    pub fn stop_running(&mut self, state: impl PassState) -> Option<usize> {
        let at = state.running()?;
        self.cancel();
        Some(at)
    }

    /// The byte the running (or last started) pass started at; 0 before any.
    pub fn started_from(&self) -> usize {
        self.started.map_or(0, |(_, from)| from)
    }

    /// Where the last pass that ended started (0: the whole input was read).
    pub fn read_from(&self) -> usize {
        self.read_from
    }

    /// Records that the running pass ended, having started reading at byte `from`.
    pub fn ended(&mut self, from: usize) {
        self.read_from = from;
    }

    /// The next event waiting, if any.
    pub fn try_event(&self) -> Option<E> {
        self.events.as_ref().and_then(|rx| rx.try_recv().ok())
    }

    /// The next event, waiting up to `timeout` for it.
    pub fn event_within(&self, timeout: Duration) -> Option<E> {
        self.events
            .as_ref()
            .and_then(|rx| rx.recv_timeout(timeout).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_request_wins_and_the_old_one_is_cancelled() {
        let (reply, rx) = reply_channel::<(u32, bool)>(SharedWaker::default());
        let task = Task::spawn("test-task", move |n: u32, cancel: &AtomicBool| {
            if n == 1 {
                // A long request that watches its flag.
                while !cancel.load(Ordering::Relaxed) {
                    thread::sleep(Duration::from_millis(1));
                }
                reply.send((n, true));
                return;
            }
            reply.send((n, cancel.load(Ordering::Relaxed)));
        });
        task.submit(1);
        thread::sleep(Duration::from_millis(20));
        task.submit(2);
        let first = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(first, (1, true), "the first request saw its cancel flag");
        let second = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(second, (2, false));
    }
}
