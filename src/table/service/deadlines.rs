//! Firing what came due: each deadline and reminder exactly once, in a transaction of its own
//! (or in a savepoint of a batch, before a message sent after it), a deadline that passed
//! while the bot was down announced as such.

use super::{write, At, Service};
use crate::records::Input;
use crate::store::{GameChange, GameRow, StoreError, Tx};
use crate::table::work::table_time;
use chrono::{DateTime, Utc};
use tracing::{info_span, warn, Instrument};

impl Service {
    /// Fires, inside the batch's transaction `tx`, every deadline and reminder due at or
    /// before `by` (when a message about to be applied was sent), each in a savepoint of its
    /// own: a deadline that fails is taken back alone and left to the ticker.
    pub(super) async fn fire_due_within(
        &self,
        tx: &mut Tx,
        by: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        while let Some(game) = tx.claim_due(by).await? {
            tx.begin_message().await?;
            match self.fire(tx, game, by, now).await {
                Ok(()) => tx.keep_message().await?,
                Err(error) if error.is_conflict() => return Err(error),
                Err(error) => {
                    warn!(%error, "a deadline due before a message could not be fired; the ticker tries again");
                    return tx.undo_message().await;
                }
            }
        }
        Ok(())
    }

    /// Fires the deadline or reminder of `game`, claimed in `tx` as due at or before `by`,
    /// applied at `now`. A deadline's input is sent at the deadline's own time, so the phase
    /// it begins starts then, however late it fired.
    pub(super) async fn fire(
        &self,
        tx: &mut Tx,
        game: GameRow,
        by: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let id = game.id;
        let span = info_span!("deadline", game = id);
        async {
            let (input, sent) = match game.record.due() {
                Some(at) if at <= by && self.running_since.is_some_and(|since| at < since) => {
                    (Input::DeadlineMissed, Some(at))
                }
                Some(at) if at <= by => (Input::Deadline, Some(at)),
                _ => (Input::Reminder, None),
            };
            let handled = self
                .apply_input(tx, Some(game.record), input, At { now, sent }, None)
                .await?;
            write(tx, &handled, &self.defaults.prefix, now).await?;
            if handled.outcome.events.is_empty() {
                warn!(
                    game = id,
                    "a due deadline changed nothing; it is cleared to avoid a loop"
                );
                clear_due(tx, id, now).await?;
            }
            Ok(())
        }
        .instrument(span)
        .await
    }
}

/// Clears the deadline and reminder of game `id` (one that came due and changed nothing).
async fn clear_due(tx: &mut Tx, id: i64, now: DateTime<Utc>) -> Result<(), StoreError> {
    if let Some(mut game) = tx.game(id).await? {
        game.record.deadline = None;
        game.record.remind_at = None;
        game.record.end_stand_in();
        let change = GameChange {
            record: &game.record,
            seats_changed: false,
            input: None,
            sent: None,
            events: &[],
        };
        tx.write(Some(&change), &[], now).await?;
    }
    Ok(())
}

/// The work of [`Service::fire_due`].
pub(super) async fn fire_due(service: &Service, now: DateTime<Utc>) -> Result<usize, StoreError> {
    let now = table_time(now);
    let mut fired = 0;
    loop {
        let mut tx = service.store.begin().await?;
        let Some(game) = tx.claim_due(now).await? else {
            return Ok(fired);
        };
        service.fire(&mut tx, game, now, now).await?;
        tx.commit().await?;
        fired += 1;
    }
}
