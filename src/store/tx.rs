//! One write transaction: the game row, its seats, the replay log, the audit log, the outbox
//! and the inbound message id, committed together or not at all.

use super::StoreError;
use crate::table::{Audience, Card, GameRecord, LogEvent};
use chrono::{DateTime, Utc};
use sqlx::{Row, Sqlite, Transaction};

/// A game as stored: its number and its record.
pub struct GameRow {
    /// The game's number.
    pub id: i64,
    /// The table's record.
    pub record: GameRecord,
}

/// A write transaction.
pub struct Tx {
    tx: Transaction<'static, Sqlite>,
}

fn millis(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

fn read_record(id: i64, text: &str) -> Result<GameRow, StoreError> {
    let record = serde_json::from_str(text).map_err(|error| StoreError::Corrupt {
        what: format!("game #{id}"),
        reason: error.to_string(),
    })?;
    Ok(GameRow { id, record })
}

impl Tx {
    pub(super) fn new(tx: Transaction<'static, Sqlite>) -> Tx {
        Tx { tx }
    }

    /// Whether this inbound message id was applied already.
    pub async fn seen(&mut self, message_id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 FROM inbound WHERE message_id = ?")
            .bind(message_id)
            .fetch_optional(&mut *self.tx)
            .await?;
        Ok(row.is_some())
    }

    /// Records an inbound message id as applied.
    pub async fn mark_seen(
        &mut self,
        message_id: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO inbound (message_id, received_at) VALUES (?, ?)")
            .bind(message_id)
            .bind(millis(now))
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// The game of a channel that is not over, if any.
    pub async fn game_in_channel(&mut self, channel: &str) -> Result<Option<GameRow>, StoreError> {
        let row =
            sqlx::query("SELECT id, record FROM games WHERE channel = ? AND status <> 'over'")
                .bind(channel)
                .fetch_optional(&mut *self.tx)
                .await?;
        row.map(|row| read_record(row.get(0), row.get::<&str, _>(1)))
            .transpose()
    }

    /// The most recent game of a channel, over or not (for `!log` and `!board` after the end).
    pub async fn last_game_in_channel(
        &mut self,
        channel: &str,
    ) -> Result<Option<GameRow>, StoreError> {
        let row =
            sqlx::query("SELECT id, record FROM games WHERE channel = ? ORDER BY id DESC LIMIT 1")
                .bind(channel)
                .fetch_optional(&mut *self.tx)
                .await?;
        row.map(|row| read_record(row.get(0), row.get::<&str, _>(1)))
            .transpose()
    }

    /// A game by number.
    pub async fn game(&mut self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query("SELECT id, record FROM games WHERE id = ?")
            .bind(id)
            .fetch_optional(&mut *self.tx)
            .await?;
        row.map(|row| read_record(row.get(0), row.get::<&str, _>(1)))
            .transpose()
    }

    /// The numbers of the games (not over) in which this user sits, waits, or is the GM.
    pub async fn games_of_user(&mut self, user_id: &str) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT games.id FROM seats JOIN games ON games.id = seats.game_id \
             WHERE seats.user_id = ? AND games.status <> 'over' \
             UNION SELECT id FROM games WHERE status <> 'over' AND json_extract(record, '$.gm.id') = ? \
             ORDER BY 1",
        )
        .bind(user_id)
        .bind(user_id)
        .fetch_all(&mut *self.tx)
        .await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    /// The numbers of the games (in sign-up) this user runs as GM, for the secret setup by DM.
    pub async fn games_in_signup_of_gm(&mut self, user_id: &str) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'signup' AND json_extract(record, '$.gm.id') = ? ORDER BY id",
        )
        .bind(user_id)
        .fetch_all(&mut *self.tx)
        .await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    /// The number the next new game gets.
    pub async fn next_game_id(&mut self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COALESCE(MAX(id), 0) + 1 FROM games")
            .fetch_one(&mut *self.tx)
            .await?;
        Ok(row.get(0))
    }

    /// Writes a game's record (inserting it if new), and its seat index when `seats_changed`.
    pub async fn save_game(
        &mut self,
        record: &GameRecord,
        seats_changed: bool,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let text = serde_json::to_string(record).map_err(|error| StoreError::Corrupt {
            what: format!("game #{}", record.id),
            reason: error.to_string(),
        })?;
        sqlx::query(
            "INSERT INTO games (id, channel, game, status, deadline, remind_at, record, created_at, updated_at) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (id) DO UPDATE SET status = excluded.status, deadline = excluded.deadline, \
             remind_at = excluded.remind_at, record = excluded.record, updated_at = excluded.updated_at",
        )
        .bind(record.id)
        .bind(&record.channel)
        .bind(&record.game)
        .bind(record.status.word())
        .bind(record.deadline.map(millis))
        .bind(record.remind_at.map(millis))
        .bind(text)
        .bind(millis(now))
        .bind(millis(now))
        .execute(&mut *self.tx)
        .await?;
        if !seats_changed {
            return Ok(());
        }
        sqlx::query("DELETE FROM seats WHERE game_id = ?")
            .bind(record.id)
            .execute(&mut *self.tx)
            .await?;
        let people = record
            .seats
            .iter()
            .chain(record.waitlist.iter())
            .filter(|seat| seat.present);
        for seat in people {
            sqlx::query("INSERT OR IGNORE INTO seats (game_id, user_id) VALUES (?, ?)")
                .bind(record.id)
                .bind(&seat.user.id)
                .execute(&mut *self.tx)
                .await?;
        }
        Ok(())
    }

    /// Appends an input to the game's replay log; returns its sequence number.
    pub async fn append_input(
        &mut self,
        game_id: i64,
        at: DateTime<Utc>,
        input: &crate::table::Input,
    ) -> Result<i64, StoreError> {
        let text = serde_json::to_string(input).map_err(|error| StoreError::Corrupt {
            what: "input".to_string(),
            reason: error.to_string(),
        })?;
        let row = sqlx::query(
            "INSERT INTO inputs (game_id, seq, at, input) \
             VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM inputs WHERE game_id = ?), ?, ?) RETURNING seq",
        )
        .bind(game_id)
        .bind(game_id)
        .bind(millis(at))
        .bind(text)
        .fetch_one(&mut *self.tx)
        .await?;
        Ok(row.get(0))
    }

    /// Appends events to the game's audit log.
    pub async fn append_events(
        &mut self,
        game_id: i64,
        input_seq: i64,
        events: &[LogEvent],
    ) -> Result<(), StoreError> {
        for event in events {
            let visibility = serde_json::to_string(&event.visibility).unwrap_or_default();
            let body = serde_json::to_string(&event.body).unwrap_or_default();
            sqlx::query(
                "INSERT INTO events (game_id, seq, input_seq, round, visibility, body) \
                 VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?), ?, ?, ?, ?)",
            )
            .bind(game_id)
            .bind(game_id)
            .bind(input_seq)
            .bind(i64::try_from(event.round).unwrap_or(i64::MAX))
            .bind(visibility)
            .bind(body)
            .execute(&mut *self.tx)
            .await?;
        }
        Ok(())
    }

    /// Queues a message for delivery after commit.
    pub async fn push_outbox(
        &mut self,
        audience: &Audience,
        body: &str,
        svg: Option<&str>,
        card: Option<&Card>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let audience = serde_json::to_string(audience).unwrap_or_default();
        let card = card.and_then(|card| serde_json::to_string(card).ok());
        sqlx::query(
            "INSERT INTO outbox (audience, body, svg, card, created_at, next_attempt) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(audience)
        .bind(body)
        .bind(svg)
        .bind(card)
        .bind(millis(now))
        .bind(millis(now))
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// A game's events, optionally one round's (for `!log`).
    pub async fn events(
        &mut self,
        game_id: i64,
        round: Option<u64>,
    ) -> Result<Vec<super::StoredEvent>, StoreError> {
        super::log::events(&mut self.tx, game_id, round).await
    }

    /// Commits everything.
    pub async fn commit(self) -> Result<(), StoreError> {
        self.tx.commit().await?;
        Ok(())
    }
}
