//! Background work runs at a lower scheduling priority than the work a key waits for.
//!
//! On a machine with few cores, a full count, the indexer of a large log or the lens pass
//! would otherwise take the core a key's window scan and frame need: the key waits a whole
//! time slice behind them. The threads that do such passes call [`lower_this_thread`] once
//! when they start, so the scheduler gives the foreground (the event loop, the window scan
//! and the head of the full count, which fills the first rows of the match list) the core
//! whenever it has something to do, and the passes take what is left. A thread cannot raise
//! its priority back without privileges, so background threads stay background for life.

/// The nice value background threads take: low enough that a runnable foreground thread
/// gets the core at once, high enough that passes still progress on a busy machine.
pub const BACKGROUND_NICE: i32 = 10;

/// Lowers the calling thread's scheduling priority to [`BACKGROUND_NICE`] (Linux: each
/// thread has its own nice value). Elsewhere, and when the system refuses, nothing changes:
/// the work is the same, only the order the scheduler picks threads in.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    {
        let tid = rustix::thread::gettid();
        let _ = rustix::process::setpriority_process(Some(tid), BACKGROUND_NICE);
    }
}

/// The calling thread's nice value, where the system has one per thread.
pub fn this_thread_nice() -> Option<i32> {
    #[cfg(target_os = "linux")]
    {
        rustix::process::getpriority_process(Some(rustix::thread::gettid())).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_background_thread_is_niced_and_the_caller_is_not() {
        let before = this_thread_nice();
        let inside = std::thread::spawn(|| {
            lower_this_thread();
            this_thread_nice()
        })
        .join()
        .unwrap();
        assert_eq!(this_thread_nice(), before);
        if cfg!(target_os = "linux") {
            assert!(inside.unwrap() >= BACKGROUND_NICE.min(19));
        }
    }
}
