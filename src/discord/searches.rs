//! Work beside the table: the searches games ask for (Short Circuit's solver) and the moves
//! computer seats owe, each run on a thread of its own at a low priority (see
//! [`super::background`]), so no other game's message waits for one, and its verdict or
//! decision applied in the table's turn when it comes; and the private threads players are
//! owed, opened on Discord. Work asked before a restart is run again after it (the record keeps a search asked until its verdict
//! is applied, and a computer's move owed until it is made).
//!
//! Searches and `hard` computers think as hard as a core lets them (a `hard` computer for as
//! long as its budget), so no more of them run at once than the machine has cores: one more
//! would take its share of the others' time (each `hard` computer playing weaker for it) and
//! of the table's, which answers every message. The rest wait their turn; a `hard`
//! computer's time counts from when it begins to think. Easier computers, and a move made
//! again after an undo, take a moment and wait for nobody.

use super::background::{at_low_priority, Panicked};
use super::Bot;
use crate::table::{MoveJob, PendingWork, Played, SearchJob};
use chrono::Utc;
use poise::serenity_prelude as serenity;
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::Semaphore;
use tracing::{info_span, warn, Instrument};

/// Runs until shutdown: looks for searches asked and computer moves owed whenever something
/// was committed, and at least every second, and starts each one not running yet.
pub(super) async fn worker(bot: Arc<Bot>, http: Arc<serenity::Http>) {
    let running: Arc<Mutex<HashSet<(i64, String)>>> = Arc::new(Mutex::new(HashSet::new()));
    // Decisions a game refused (a fault of its computer player): not brought again for the
    // same position, so a refusal is posted once.
    let refused: Arc<Mutex<HashSet<(i64, String)>>> = Arc::new(Mutex::new(HashSet::new()));
    let openings = Arc::new(super::private_threads::Openings::default());
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let thinking = Arc::new(Semaphore::new(cores));
    loop {
        tokio::select! {
            () = bot.searches_wake.notified() => {}
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
        if bot.stopping.load(Ordering::SeqCst) {
            return;
        }
        let PendingWork {
            searches,
            mut moves,
            threads,
        } = match bot.service.pending_work().await {
            Ok(work) => work,
            Err(error) => {
                warn!(%error, "the work beside the table could not be read");
                continue;
            }
        };
        // A computer moves only once the messages sent before now are in (the catch-up after
        // a new session), as a person's move would be applied after them.
        if !bot.caught_up.load(Ordering::SeqCst) {
            moves.clear();
        }
        for job in threads {
            if !openings.due(&job) {
                continue;
            }
            let name = (job.game, format!("thread of {}", job.user.id));
            let span = info_span!("private thread", game = job.game, user = %job.user.id);
            let (bot, http, openings) = (bot.clone(), http.clone(), openings.clone());
            start(&running, name, span, async move {
                super::private_threads::open(&bot, &http, &job, &openings).await;
            });
        }
        for job in searches {
            let name = (job.game, job.key.clone());
            let span = info_span!("search", game = job.game, key = %job.key);
            let (bot, thinking) = (bot.clone(), thinking.clone());
            start(&running, name, span, async move {
                run(&bot, job, &thinking).await;
            });
        }
        for job in moves {
            let name = (
                job.owed.game,
                format!("seat {} at {}", job.owed.seat, job.owed.position),
            );
            if lock(&refused).contains(&name) {
                continue;
            }
            let span = info_span!("computer", game = job.owed.game, seat = job.owed.seat);
            let (bot, refused, refusal) = (bot.clone(), refused.clone(), name.clone());
            let thinking = thinking.clone();
            start(&running, name, span, async move {
                if !play(&bot, job, &thinking).await {
                    lock(&refused).insert(refusal);
                }
            });
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Spawns `work` under `name` unless work of that name is running.
fn start(
    running: &Arc<Mutex<HashSet<(i64, String)>>>,
    name: (i64, String),
    span: tracing::Span,
    work: impl std::future::Future<Output = ()> + Send + 'static,
) {
    if !lock(running).insert(name.clone()) {
        return;
    }
    let running = running.clone();
    tokio::spawn(
        async move {
            work.await;
            lock(&running).remove(&name);
        }
        .instrument(span),
    );
}

/// Runs `work` at a low priority once one of the `thinking` cores is free.
async fn think<T: Send + 'static>(
    thinking: &Semaphore,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Panicked> {
    // The semaphore is never closed, so a permit always comes.
    let _core = thinking.acquire().await.ok();
    at_low_priority(work).await
}

/// Takes one computer decision at a low priority and applies it in the table's turn.
/// `false`: the game refused it.
async fn play(bot: &Bot, job: MoveJob, thinking: &Semaphore) -> bool {
    let MoveJob { owed, work, thinks } = job;
    // A `hard` decision waits for a core; once it has one, the game may have moved on
    // meanwhile, and a decision for a position left behind is not worth its budget.
    let core = match thinks {
        true => thinking.acquire().await.ok(),
        false => None,
    };
    if thinks && !bot.service.owes_move(&owed).await.unwrap_or(true) {
        return true;
    }
    // A computer player that fails (panics) has no decision: the game is told so, once.
    let decision = at_low_priority(work).await.unwrap_or_else(|error| {
        warn!(%error, "a computer player failed");
        None
    });
    drop(core);
    let applied = {
        let _turn = bot.commits.turn().await;
        bot.service.apply_move(&owed, decision, Utc::now()).await
    };
    match applied {
        Ok(played) => {
            bot.committed();
            played != Played::Refused
        }
        Err(error) => {
            warn!(%error, "a computer's move could not be applied; it is tried again");
            true
        }
    }
}

/// Runs one search at a low priority and applies its verdict in the table's turn.
async fn run(bot: &Bot, job: SearchJob, thinking: &Semaphore) {
    let SearchJob { game, key, work } = job;
    let verdict = match think(thinking, work).await {
        Ok(verdict) => verdict,
        Err(error) => {
            warn!(%error, "a search failed; it is tried again");
            return;
        }
    };
    let applied = {
        let _turn = bot.commits.turn().await;
        bot.service
            .apply_verdict(game, &key, verdict, Utc::now())
            .await
    };
    match applied {
        Ok(()) => bot.committed(),
        Err(error) => warn!(%error, "a search's verdict could not be applied; it is tried again"),
    }
}
