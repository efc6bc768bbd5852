//! Work beside the table that can wait: drawing the boards the lanes post, computers thinking,
//! searches. Each runs on a thread of its own at the lowest CPU priority, so the table, the
//! lanes and the gateway come first. A receipt a player is looking for should not wait for
//! a board: when a thousand games resolved at once, drawing their boards at the usual
//! priority took the cores the table and the lanes needed, and the receipts sent in that
//! second waited up to a second (issue 53's load row). At the lowest priority the work takes
//! what the rest of the bot leaves: the kernel still gives it a share, so it never stops,
//! and on an idle machine it runs at full speed. Interaction answers, which Discord waits
//! only seconds for, are drawn at the usual priority instead.

use thiserror::Error;
use tokio::sync::oneshot;

/// The nice value of the threads doing background work: the lowest priority Linux gives.
#[cfg(target_os = "linux")]
const LOWEST_PRIORITY: libc::c_int = 19;

/// Why background work has no result.
#[derive(Debug, Error)]
pub(super) enum Stopped {
    /// No thread could be started for it.
    #[error("no thread could be started for it: {0}")]
    NotStarted(std::io::Error),
    /// It panicked.
    #[error("it panicked")]
    Panicked,
}

/// Runs `work` on a new thread at the lowest CPU priority and returns its result.
pub(super) async fn at_low_priority<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Stopped> {
    let (done, result) = oneshot::channel();
    std::thread::Builder::new()
        .name("referee-background".to_string())
        .spawn(move || {
            lower_priority();
            // The waiting side may have stopped waiting; the result is then not wanted.
            let _ = done.send(work());
        })
        .map_err(Stopped::NotStarted)?;
    // A panic drops the sender unsent.
    result.await.map_err(|_| Stopped::Panicked)
}

/// Gives the calling thread the lowest CPU priority. On Linux a thread's nice value is its
/// own, so the bot's other threads keep theirs; a refusal leaves the thread as it was, which
/// is only slower for the rest.
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: `gettid` takes nothing and names the calling thread.
    let thread = unsafe { libc::gettid() };
    let Ok(thread) = libc::id_t::try_from(thread) else {
        return;
    };
    // SAFETY: `setpriority` only reads its integer arguments.
    if unsafe { libc::setpriority(libc::PRIO_PROCESS, thread, LOWEST_PRIORITY) } != 0 {
        tracing::warn!(
            error = %std::io::Error::last_os_error(),
            "background work keeps the usual priority"
        );
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
        assert!(matches!(failed, Err(Stopped::Panicked)));
        assert_eq!(at_low_priority(|| 7).await.ok(), Some(7));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "current_thread")]
    async fn background_work_runs_at_the_lowest_priority() {
        // SAFETY: `getpriority` only reads its integer arguments; 0 names this thread.
        let own = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let before = own();
        let nice = at_low_priority(|| {
            // SAFETY: both calls only read their integer arguments.
            unsafe {
                let thread = libc::id_t::try_from(libc::gettid()).unwrap_or(0);
                libc::getpriority(libc::PRIO_PROCESS, thread)
            }
        })
        .await;
        assert_eq!(nice.ok(), Some(LOWEST_PRIORITY));
        assert_eq!(own(), before, "the caller's thread keeps its priority");
    }
}
