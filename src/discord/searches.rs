//! The searches games ask for (Short Circuit's solver), run beside the table: each on the
//! blocking pool, so no other game's message waits for one, and its verdict applied in the
//! table's turn when it comes. A search asked before a restart is run again after it (the
//! record keeps it asked until its verdict is applied).

use super::Bot;
use crate::table::SearchJob;
use chrono::Utc;
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tracing::{info_span, warn, Instrument};

/// Runs until shutdown: looks for searches asked whenever something was committed, and at
/// least every second, and starts each one not running yet.
pub(super) async fn worker(bot: Arc<Bot>) {
    let running: Arc<Mutex<HashSet<(i64, String)>>> = Arc::new(Mutex::new(HashSet::new()));
    loop {
        tokio::select! {
            () = bot.searches_wake.notified() => {}
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
        if bot.stopping.load(Ordering::SeqCst) {
            return;
        }
        let jobs = match bot.service.pending_searches().await {
            Ok(jobs) => jobs,
            Err(error) => {
                warn!(%error, "the searches asked could not be read");
                continue;
            }
        };
        for job in jobs {
            let name = (job.game, job.key.clone());
            let fresh = running
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(name.clone());
            if !fresh {
                continue;
            }
            let (bot, running) = (bot.clone(), running.clone());
            let span = info_span!("search", game = job.game, key = %job.key);
            tokio::spawn(
                async move {
                    run(&bot, job).await;
                    running
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .remove(&name);
                }
                .instrument(span),
            );
        }
    }
}

/// Runs one search on the blocking pool and applies its verdict in the table's turn.
async fn run(bot: &Bot, job: SearchJob) {
    let SearchJob { game, key, work } = job;
    let verdict = match tokio::task::spawn_blocking(work).await {
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
