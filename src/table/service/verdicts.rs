//! Searches beside the table: the searches asked and not answered yet, with their work ready
//! to run within the table's steps, and their verdicts applied as inputs of their own.

use super::{write, At, Service};
use crate::records::Input;
use crate::store::{GameRow, StoreError};
use crate::table::work::table_time;
use chrono::{DateTime, Utc};
use tracing::{info_span, warn, Instrument};

/// A search asked in a game ([`Service::pending_work`]), to run beside the table; its
/// verdict goes back with [`Service::apply_verdict`].
pub struct SearchJob {
    /// The game's number.
    pub game: i64,
    /// Which search (`impossible`, `hint`).
    pub key: String,
    /// The work, which returns the verdict: run it where it holds up no other game.
    pub work: Box<dyn FnOnce() -> String + Send>,
}

/// The searches asked in `rows` (the games with work beside the table), for
/// [`Service::pending_work`].
pub(super) fn searches_of(service: &Service, rows: &[GameRow]) -> Vec<SearchJob> {
    let mut jobs = Vec::new();
    for row in rows {
        let Some(game) = service.catalogue.load(&row.record) else {
            warn!(
                game = row.id,
                "a game with a search asked could not be loaded"
            );
            continue;
        };
        for asked in &row.record.searches {
            let search = match asked.by_gm {
                true => game.gm_query(&asked.key),
                false => game.pending_search(),
            };
            match search.filter(|search| search.key == asked.key) {
                Some(search) => {
                    let (work, steps) = (search.work, service.defaults.search_steps);
                    jobs.push(SearchJob {
                        game: row.id,
                        key: search.key,
                        work: Box::new(move || work(steps)),
                    })
                }
                None => {
                    warn!(game = row.id, key = %asked.key, "a search asked is not the game's to run")
                }
            }
        }
    }
    jobs
}

/// The work of [`Service::apply_verdict`].
pub(super) async fn apply_verdict(
    service: &Service,
    game: i64,
    key: &str,
    verdict: String,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let now = table_time(now);
    let span = info_span!("verdict", game, key);
    async {
        let mut tx = service.store.begin().await?;
        let Some(row) = tx.game(game).await? else {
            return Ok(());
        };
        let input = Input::Verdict {
            key: key.to_string(),
            verdict,
        };
        let at = At { now, sent: None };
        let handled = service
            .apply_input(&mut tx, Some(row.record), input, at, None)
            .await?;
        write(&mut tx, &handled, &service.defaults.prefix, now).await?;
        tx.commit().await
    }
    .instrument(span)
    .await
}
