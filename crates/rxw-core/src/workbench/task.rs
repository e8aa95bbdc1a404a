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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
