//! Reading the logs back: the replay log, the audit log, and when the next deadline or
//! reminder is due.

use super::sql::{Connection, Row, Statement};
use super::{Store, StoreError};
use crate::records::{EventBody, GameRecord, Input, LogEvent, LogVisibility};
use chrono::{DateTime, TimeZone, Utc};

/// One logged input with its time.
#[derive(Clone, Debug)]
pub struct StoredInput {
    /// Its place in the game's log.
    pub seq: i64,
    /// When it was applied.
    pub at: DateTime<Utc>,
    /// When it was sent, where that differs from when it was applied (see
    /// [`GameChange::sent`](super::GameChange::sent)).
    pub sent: Option<DateTime<Utc>>,
    /// What it was.
    pub input: Input,
    /// The number of the `!undo` that took it back, if one did.
    pub undone_by: Option<i64>,
}

/// One logged event with the input that caused it.
#[derive(Clone, Debug)]
pub struct StoredEvent {
    /// Its place in the game's log.
    pub seq: i64,
    /// The input's sequence number.
    pub input_seq: i64,
    /// The event.
    pub event: LogEvent,
    /// Whether the GM took back the input that caused it (`!undo`).
    pub undone: bool,
}

fn corrupt(what: &str, error: impl ToString) -> StoreError {
    StoreError::Corrupt {
        what: what.to_string(),
        reason: error.to_string(),
    }
}

fn instant(millis: i64) -> Result<DateTime<Utc>, StoreError> {
    Utc.timestamp_millis_opt(millis)
        .single()
        .ok_or_else(|| corrupt("timestamp", millis))
}

impl Store {
    /// Every input of a game, in order.
    pub async fn inputs(&self, game_id: i64) -> Result<Vec<StoredInput>, StoreError> {
        let mut connection = self.acquire().await?;
        inputs(connection.connection(), game_id).await
    }

    /// Up to `limit` inputs of a game after input `after`, in order: a long log read page by
    /// page in bounded memory.
    pub async fn inputs_after(
        &self,
        game_id: i64,
        after: i64,
        limit: i64,
    ) -> Result<Vec<StoredInput>, StoreError> {
        let rows = self
            .fetch_all(
                Statement::new(
                    "SELECT seq, at, input, undone_by, sent FROM inputs WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                )
                .int(game_id)
                .int(after)
                .int(limit),
            )
            .await?;
        read_inputs(game_id, &rows)
    }

    /// Up to `limit` events of a game after event `after`, in order.
    pub async fn events_after(
        &self,
        game_id: i64,
        after: i64,
        limit: i64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let rows = self
            .fetch_all(
                Statement::new(
                    "SELECT e.seq, e.input_seq, e.round, e.visibility, e.body, i.undone_by \
                     FROM events e LEFT JOIN inputs i ON i.game_id = e.game_id AND i.seq = e.input_seq \
                     WHERE e.game_id = ? AND e.seq > ? ORDER BY e.seq LIMIT ?",
                )
                .int(game_id)
                .int(after)
                .int(limit),
            )
            .await?;
        read_events(game_id, &rows)
    }

    /// A game's events, in order, optionally only one round's.
    pub async fn events(
        &self,
        game_id: i64,
        round: Option<u64>,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let mut connection = self.acquire().await?;
        events(connection.connection(), game_id, round).await
    }
}

fn read_inputs(game_id: i64, rows: &[Row]) -> Result<Vec<StoredInput>, StoreError> {
    rows.iter()
        .map(|row| {
            let seq = row.int(0)?;
            Ok(StoredInput {
                seq,
                at: instant(row.int(1)?)?,
                input: serde_json::from_str(row.text(2)?)
                    .map_err(|e| corrupt(&format!("input {seq} of game #{game_id}"), e))?,
                undone_by: row.opt_int(3)?,
                sent: row.opt_int(4)?.map(instant).transpose()?,
            })
        })
        .collect()
}

/// Every input of a game, in order, on one connection (so it can run inside a transaction).
pub(super) async fn inputs(
    connection: Connection<'_>,
    game_id: i64,
) -> Result<Vec<StoredInput>, StoreError> {
    let rows = Statement::new(
        "SELECT seq, at, input, undone_by, sent FROM inputs WHERE game_id = ? ORDER BY seq",
    )
    .int(game_id)
    .fetch_all(connection)
    .await?;
    read_inputs(game_id, &rows)
}

/// A game's events, in order, optionally only one round's, on one connection (so it can run
/// inside a transaction).
pub(super) async fn events(
    connection: Connection<'_>,
    game_id: i64,
    round: Option<u64>,
) -> Result<Vec<StoredEvent>, StoreError> {
    let round = round.map(|r| i64::try_from(r).unwrap_or(i64::MAX));
    let rows = Statement::new(
        "SELECT e.seq, e.input_seq, e.round, e.visibility, e.body, i.undone_by \
             FROM events e LEFT JOIN inputs i ON i.game_id = e.game_id AND i.seq = e.input_seq \
             WHERE e.game_id = ? AND (? IS NULL OR e.round = ?) ORDER BY e.seq",
    )
    .int(game_id)
    .int(round)
    .int(round)
    .fetch_all(connection)
    .await?;
    read_events(game_id, &rows)
}

/// Game `id` with its logs, each statement run on `on(connection)`: one snapshot when the
/// caller's transaction gives one (SQLite's deferred transaction, PostgreSQL's repeatable read).
async fn whole_log_on<C>(
    connection: &mut C,
    on: impl Fn(&mut C) -> Connection<'_>,
    id: i64,
) -> Result<Option<GameLog>, StoreError> {
    let Some(game) = game_log_on(on(connection), id).await? else {
        return Ok(None);
    };
    Ok(Some(GameLog {
        inputs: inputs(on(connection), id).await?,
        events: events(on(connection), id, None).await?,
        ..game
    }))
}

/// Game `id`'s row and status column, without its logs yet.
async fn game_log_on(connection: Connection<'_>, id: i64) -> Result<Option<GameLog>, StoreError> {
    let row = Statement::new("SELECT id, record, status FROM games WHERE id = ?")
        .int(id)
        .fetch_optional(connection)
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    Ok(Some(GameLog {
        game: super::tx::game_row(&row)?,
        status: row.text(2)?.to_string(),
        inputs: Vec::new(),
        events: Vec::new(),
    }))
}

fn read_events(game_id: i64, rows: &[Row]) -> Result<Vec<StoredEvent>, StoreError> {
    rows.iter()
        .map(|row| {
            let seq = row.int(0)?;
            let what = format!("event {seq} of game #{game_id}");
            let visibility: LogVisibility =
                serde_json::from_str(row.text(3)?).map_err(|e| corrupt(&what, e))?;
            let body: EventBody =
                serde_json::from_str(row.text(4)?).map_err(|e| corrupt(&what, e))?;
            Ok(StoredEvent {
                seq,
                input_seq: row.int(1)?,
                event: LogEvent {
                    round: row.int(2)?.max(0) as u64,
                    visibility,
                    body,
                },
                undone: row.opt_int(5)?.is_some(),
            })
        })
        .collect()
}

/// A game as one moment of the database holds it: its row, its replay log and its audit log,
/// read together, so a writer at work meanwhile cannot make them disagree.
pub struct GameLog {
    /// The game's row.
    pub game: super::GameRow,
    /// The row's status column (what the indexes and the deadline queries read).
    pub status: String,
    /// Every input, in order.
    pub inputs: Vec<StoredInput>,
    /// Every event, in order.
    pub events: Vec<StoredEvent>,
}

impl Store {
    /// Game `id` with its logs, read in one read transaction (a consistent snapshot on
    /// SQLite and PostgreSQL alike), writing nothing; `None` when there is no such game.
    pub async fn game_log(&self, id: i64) -> Result<Option<GameLog>, StoreError> {
        match &self.pool {
            super::Pool::Sqlite(pool) => {
                // A deferred transaction: its first read fixes what the others see.
                let mut tx = pool.begin().await?;
                let log = whole_log_on(&mut *tx, |c| Connection::Sqlite(c), id).await?;
                tx.commit().await?;
                Ok(log)
            }
            super::Pool::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                Statement::new("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .execute(Connection::Postgres(&mut tx))
                    .await?;
                let log = whole_log_on(&mut *tx, |c| Connection::Postgres(c), id).await?;
                tx.commit().await?;
                Ok(log)
            }
        }
    }

    /// A game by number, read outside any write transaction (replay and export read a
    /// database they may not write).
    pub async fn game(&self, id: i64) -> Result<Option<super::GameRow>, StoreError> {
        let row = self
            .fetch_optional(Statement::new("SELECT id, record FROM games WHERE id = ?").int(id))
            .await?;
        row.map(|row| super::tx::game_row(&row)).transpose()
    }

    /// The games, not over, with work beside the table waiting (a search asked, a computer's
    /// move owed, a private thread owed), the longest waiting first.
    pub async fn searching_games(&self) -> Result<Vec<super::GameRow>, StoreError> {
        let rows = self
            .fetch_all(Statement::new(
                "SELECT id, record FROM games WHERE searching IS NOT NULL AND status <> 'over' \
                 ORDER BY searching",
            ))
            .await?;
        rows.iter().map(super::tx::game_row).collect()
    }

    /// The game that lives in `channel` (the one not over, else the last one), read without
    /// locking it: what a platform shows beside a channel's posts.
    pub async fn game_at(&self, channel: &str) -> Result<Option<GameRecord>, StoreError> {
        let row = self
            .fetch_optional(
                Statement::new(
                    "SELECT id, record FROM games WHERE channel = ? \
                     ORDER BY CASE WHEN status = 'over' THEN 1 ELSE 0 END, id DESC LIMIT 1",
                )
                .text(channel),
            )
            .await?;
        row.map(|row| super::tx::game_row(&row).map(|game| game.record))
            .transpose()
    }

    /// The earliest deadline or reminder time of any running game later than `after` (each
    /// found through its index): a time at which only games whose rows do not read are due
    /// (which deadlines pass over) is looked past that way.
    pub async fn next_due(
        &self,
        after: Option<DateTime<Utc>>,
    ) -> Result<Option<DateTime<Utc>>, StoreError> {
        let after = after.map_or(i64::MIN, |after| after.timestamp_millis());
        let row = self
            .fetch_optional(
                Statement::new(
                    "SELECT MIN(at) FROM (\
                     SELECT MIN(deadline) AS at FROM games WHERE deadline > ? AND status = 'running' \
                     UNION ALL \
                     SELECT MIN(remind_at) AS at FROM games WHERE remind_at > ? AND status = 'running'\
                     ) AS due",
                )
                .int(after)
                .int(after),
            )
            .await?;
        match row {
            Some(row) => row.opt_int(0)?.map(instant).transpose(),
            None => Ok(None),
        }
    }
}
