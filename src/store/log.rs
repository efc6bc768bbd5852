//! Reading the logs back: the replay log, the audit log, and the games whose deadline or
//! reminder is due.

use super::{Store, StoreError};
use crate::records::{EventBody, Input, LogEvent, LogVisibility};
use chrono::{DateTime, TimeZone, Utc};
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteConnection};

/// One logged input with its time.
#[derive(Clone, Debug)]
pub struct StoredInput {
    /// Its place in the game's log.
    pub seq: i64,
    /// When it was applied.
    pub at: DateTime<Utc>,
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
        let mut connection = self.pool.acquire().await?;
        inputs(&mut connection, game_id).await
    }

    /// Up to `limit` inputs of a game after input `after`, in order: a long log read page by
    /// page in bounded memory.
    pub async fn inputs_after(
        &self,
        game_id: i64,
        after: i64,
        limit: i64,
    ) -> Result<Vec<StoredInput>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, at, input, undone_by FROM inputs WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
        )
        .bind(game_id)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
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
        let rows = sqlx::query(
            "SELECT e.seq, e.input_seq, e.round, e.visibility, e.body, i.undone_by IS NOT NULL \
             FROM events e LEFT JOIN inputs i ON i.game_id = e.game_id AND i.seq = e.input_seq \
             WHERE e.game_id = ? AND e.seq > ? ORDER BY e.seq LIMIT ?",
        )
        .bind(game_id)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        read_events(game_id, &rows)
    }

    /// A game's events, in order, optionally only one round's.
    pub async fn events(
        &self,
        game_id: i64,
        round: Option<u64>,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let mut connection = self.pool.acquire().await?;
        events(&mut connection, game_id, round).await
    }
}

fn read_inputs(game_id: i64, rows: &[SqliteRow]) -> Result<Vec<StoredInput>, StoreError> {
    rows.iter()
        .map(|row| {
            let seq: i64 = row.get(0);
            Ok(StoredInput {
                seq,
                at: instant(row.get(1))?,
                input: serde_json::from_str(row.get::<&str, _>(2))
                    .map_err(|e| corrupt(&format!("input {seq} of game #{game_id}"), e))?,
                undone_by: row.get(3),
            })
        })
        .collect()
}

/// Every input of a game, in order, on one connection (so it can run inside a transaction).
pub async fn inputs(
    connection: &mut SqliteConnection,
    game_id: i64,
) -> Result<Vec<StoredInput>, StoreError> {
    let rows =
        sqlx::query("SELECT seq, at, input, undone_by FROM inputs WHERE game_id = ? ORDER BY seq")
            .bind(game_id)
            .fetch_all(&mut *connection)
            .await?;
    read_inputs(game_id, &rows)
}

/// A game's events, in order, optionally only one round's, on one connection (so it can run
/// inside a transaction).
pub async fn events(
    connection: &mut SqliteConnection,
    game_id: i64,
    round: Option<u64>,
) -> Result<Vec<StoredEvent>, StoreError> {
    let rows = sqlx::query(
        "SELECT e.seq, e.input_seq, e.round, e.visibility, e.body, i.undone_by IS NOT NULL \
             FROM events e LEFT JOIN inputs i ON i.game_id = e.game_id AND i.seq = e.input_seq \
             WHERE e.game_id = ? AND (? IS NULL OR e.round = ?) ORDER BY e.seq",
    )
    .bind(game_id)
    .bind(round.map(|r| r as i64))
    .bind(round.map(|r| r as i64))
    .fetch_all(&mut *connection)
    .await?;
    read_events(game_id, &rows)
}

fn read_events(game_id: i64, rows: &[SqliteRow]) -> Result<Vec<StoredEvent>, StoreError> {
    rows.iter()
        .map(|row| {
            let seq: i64 = row.get(0);
            let what = format!("event {seq} of game #{game_id}");
            let visibility: LogVisibility =
                serde_json::from_str(row.get::<&str, _>(3)).map_err(|e| corrupt(&what, e))?;
            let body: EventBody =
                serde_json::from_str(row.get::<&str, _>(4)).map_err(|e| corrupt(&what, e))?;
            Ok(StoredEvent {
                seq,
                input_seq: row.get(1),
                event: LogEvent {
                    round: row.get::<i64, _>(2).max(0) as u64,
                    visibility,
                    body,
                },
                undone: row.get::<Option<bool>, _>(5).unwrap_or(false),
            })
        })
        .collect()
}

impl Store {
    /// A game by number, read outside any write transaction (replay and export read a
    /// database they may not write).
    pub async fn game(&self, id: i64) -> Result<Option<super::GameRow>, StoreError> {
        let row = sqlx::query("SELECT id, record FROM games WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| super::tx::read_record(row.get(0), row.get::<&str, _>(1)))
            .transpose()
    }

    /// Games whose deadline or reminder time is at or before `now`, with that time, earliest
    /// first.
    pub async fn due(&self, now: DateTime<Utc>) -> Result<Vec<(i64, DateTime<Utc>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, MIN(COALESCE(deadline, remind_at), COALESCE(remind_at, deadline)) AS due FROM games \
             WHERE status = 'running' AND (deadline <= ? OR remind_at <= ?) ORDER BY due, id",
        )
        .bind(now.timestamp_millis())
        .bind(now.timestamp_millis())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.get(0), instant(row.get(1))?)))
            .collect()
    }

    /// The earliest deadline or reminder time of any running game.
    pub async fn next_due(&self) -> Result<Option<DateTime<Utc>>, StoreError> {
        let row = sqlx::query(
            "SELECT MIN(MIN(COALESCE(deadline, remind_at), COALESCE(remind_at, deadline))) FROM games \
             WHERE status = 'running' AND (deadline IS NOT NULL OR remind_at IS NOT NULL)",
        )
        .fetch_one(&self.pool)
        .await?;
        row.get::<Option<i64>, _>(0).map(instant).transpose()
    }
}
