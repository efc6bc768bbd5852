//! Work beside the table that can wait: drawing the boards the lanes post, computers thinking,
//! searches. Each runs on a thread of its own at a low CPU priority (nice 10), so the table,
//! the lanes and the gateway come first. A receipt a player is looking for should not wait
//! for a board: when a thousand games resolved at once, drawing their boards at the usual
//! priority took the cores the table and the lanes needed, and the receipts sent in that
//! second waited up to a second (issue 53's load row). At a low priority the work takes
//! about a tenth of a core the rest of the bot keeps busy, and all of an idle one; nice 19
//! did no better there, and would leave a `hard` computer on a busy machine almost no time
//! to think. Interaction answers, which Discord waits only seconds for, are drawn at the
//! usual priority instead.

use std::sync::{Arc, Mutex, Once, PoisonError};
use thiserror::Error;
use tokio::sync::{oneshot, Semaphore};

/// The nice value of the threads doing background work: a tenth of the weight of the
/// usual 0 when they share a core.
#[cfg(target_os = "linux")]
const LOW_PRIORITY: libc::c_int = 10;

/// The most background threads at once (the hard computers and the drawing have smaller
/// limits of their own; easy computers have none), like tokio's blocking pool, which
/// bounded this work before.
static THREADS: Semaphore = Semaphore::const_new(512);

/// Why background work has no result.
#[derive(Debug, Error)]
#[error("it panicked")]
pub(super) struct Panicked;

/// Runs `work` on a new thread at a low CPU priority and returns its result. Should no
/// thread start (the system's limit on threads reached), it runs on tokio's blocking pool
/// at the usual priority instead.
pub(super) async fn at_low_priority<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Panicked> {
    // The semaphore is never closed, so a permit always comes.
    let _thread = THREADS.acquire().await.ok();
    let (done, result) = oneshot::channel();
    // The work waits here until a thread takes it, so it is not lost if none starts.
    let slot = Arc::new(Mutex::new(Some(work)));
    let taken = Arc::clone(&slot);
    let started = std::thread::Builder::new()
        .name("referee-background".to_string())
        .spawn(move || {
            lower_priority();
            let work = taken.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(work) = work {
                // The waiting side may have stopped waiting; the result is then not wanted.
                let _ = done.send(work());
            }
        });
    if let Err(error) = started {
        tracing::warn!(%error, "no thread for background work; it runs at the usual priority");
        let work = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        return match work {
            Some(work) => tokio::task::spawn_blocking(work)
                .await
                .map_err(|_| Panicked),
            None => Err(Panicked),
        };
    }
    // A panic drops the sender unsent.
    result.await.map_err(|_| Panicked)
}

/// Gives the calling thread a low CPU priority. On Linux a thread's nice value is its
/// own (`PRIO_PROCESS` with 0 names the calling thread), so the bot's other threads keep
/// theirs; a refusal leaves the thread as it was, which is only slower for the rest, and is
/// logged once.
#[cfg(target_os = "linux")]
fn lower_priority() {
    static REFUSED: Once = Once::new();
    // SAFETY: `setpriority` only reads its integer arguments.
    if unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, LOW_PRIORITY) } != 0 {
        let error = std::io::Error::last_os_error();
        REFUSED.call_once(|| {
            tracing::warn!(%error, "background work keeps the usual priority");
        });
    }
}

/// Elsewhere background work keeps the usual priority.
#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn background_work_gives_its_result() {
        let sum = at_low_priority(|| (1..=10).sum::<u32>()).await;
        assert_eq!(sum.ok(), Some(55));
    }

    #[tokio::test]
    async fn background_work_that_panics_is_stopped_and_the_bot_goes_on() {
        let failed = at_low_priority(|| -> u32 { panic!("a computer player failed") }).await;
        assert!(failed.is_err());
        assert_eq!(at_low_priority(|| 7).await.ok(), Some(7));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "current_thread")]
    async fn background_work_runs_at_a_low_priority() {
        // SAFETY: `getpriority` only reads its integer arguments; 0 names the calling thread.
        let own = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let before = own();
        let nice = at_low_priority(own).await;
        assert_eq!(nice.ok(), Some(LOW_PRIORITY));
        assert_eq!(own(), before, "the caller's thread keeps its priority");
    }
}
