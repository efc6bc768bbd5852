//! Private threads beside the table: who is owed one now (for the platform to open), and what
//! the platform found (a player's DMs closed, a thread opened), applied as inputs of the games
//! concerned.

use super::{write, At, Service};
use crate::records::{Audience, GameRecord, Input, User};
use crate::store::{GameRow, StoreError, Tx};
use crate::table::work::table_time;
use chrono::{DateTime, Utc};

/// A private thread a player is owed ([`Service::pending_work`]).
pub struct ThreadJob {
    /// The game's number.
    pub game: i64,
    /// Where the game lives: the thread goes there (or, for a game in a thread, beside it).
    pub channel: String,
    /// The player.
    pub user: User,
    /// Whether they are owed it because their DMs are closed (else the game sends every
    /// player's secret orders through threads).
    pub dms_closed: bool,
}

impl Service {
    /// Applies `input` to game `game` in a transaction it begins and leaves open for what
    /// follows; gives back the game's record as it left it.
    async fn apply_to_game(
        &self,
        game: i64,
        input: Input,
        now: DateTime<Utc>,
    ) -> Result<(Tx, Vec<GameRecord>), StoreError> {
        let mut tx = self.store.begin().await?;
        let records = self
            .apply_in(&mut tx, &[game], input, table_time(now))
            .await?;
        Ok((tx, records))
    }

    /// Applies `input` to each of `games` in `tx`; gives back their records as it left them.
    async fn apply_in(
        &self,
        tx: &mut Tx,
        games: &[i64],
        input: Input,
        now: DateTime<Utc>,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let mut records = Vec::new();
        for id in games {
            let Some(row) = tx.game(*id).await? else {
                continue;
            };
            let handled = self
                .apply_input(
                    tx,
                    Some(row.record.clone()),
                    input.clone(),
                    At { now, sent: None },
                    None,
                )
                .await?;
            write(tx, &handled, &self.defaults.prefix, now).await?;
            records.push(handled.record().cloned().unwrap_or(row.record));
        }
        Ok(records)
    }
}

/// The private thread `user` has in one of `records` (the first game's that has one).
fn thread_of(records: &[GameRecord], user: &str) -> Option<String> {
    records.iter().find_map(|record| {
        record
            .threads()
            .find(|(player, _)| *player == user)
            .map(|(_, thread)| thread.to_string())
    })
}

/// The private threads owed in `rows` (the games with work beside the table), for
/// [`Service::pending_work`].
pub(super) fn threads_of(rows: &[GameRow]) -> Vec<ThreadJob> {
    let mut jobs = Vec::new();
    for row in rows {
        let record: &GameRecord = &row.record;
        jobs.extend(record.threads_owed().into_iter().map(|seat| ThreadJob {
            game: row.id,
            channel: record.channel.clone(),
            user: seat.user.clone(),
            dms_closed: seat.dms_closed,
        }));
    }
    jobs
}

/// The work of [`Service::thread_opened`].
pub(super) async fn thread_opened(
    service: &Service,
    game: i64,
    user: &str,
    thread: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let input = Input::ThreadOpened {
        user: user.to_string(),
        channel: thread.to_string(),
    };
    let (mut tx, records) = service.apply_to_game(game, input, now).await?;
    if let Some(thread) = thread_of(&records, user) {
        tx.resend_refused_dms(user, &thread, table_time(now))
            .await?;
    }
    tx.commit().await
}

/// The work of [`Service::thread_lost`].
pub(super) async fn thread_lost(
    service: &Service,
    game: i64,
    user: &str,
    thread: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let input = Input::ThreadLost {
        user: user.to_string(),
        channel: thread.to_string(),
    };
    let (mut tx, _) = service.apply_to_game(game, input, now).await?;
    tx.readdress(
        &Audience::Channel(thread.to_string()),
        &Audience::Direct(user.to_string()),
    )
    .await?;
    tx.commit().await
}

/// The work of [`Service::dms_closed`].
pub(super) async fn dms_closed(
    service: &Service,
    user: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let now = table_time(now);
    let mut tx = service.store.begin().await?;
    let games = tx.games_of_user(user).await?;
    let input = Input::DmsClosed {
        user: user.to_string(),
    };
    let records = service.apply_in(&mut tx, &games, input, now).await?;
    if let Some(thread) = thread_of(&records, user) {
        tx.resend_refused_dms(user, &thread, now).await?;
    }
    tx.commit().await
}
