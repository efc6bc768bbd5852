//! One write transaction: the game row, its seats, the replay log, the audit log, the outbox
//! and the inbound message id, committed together or not at all.

use super::StoreError;
use crate::records::{Attachment, Audience, Card, GameRecord, Input, LogEvent};
use chrono::{DateTime, Utc};
use sqlx::{QueryBuilder, Row, Sqlite, Transaction};

/// Rows per multi-row insert: well under SQLite's limit of 32,766 bound values a statement.
const ROWS_PER_INSERT: usize = 1_000;

/// A message to queue: where it goes, its text, its picture and its card.
#[derive(Clone, Copy, Debug)]
pub struct OutboxPost<'a> {
    /// Who receives it.
    pub to: &'a Audience,
    /// The text.
    pub text: &'a str,
    /// The board picture (SVG), rendered at delivery.
    pub svg: Option<&'a str>,
    /// What a rich platform shows beside it.
    pub card: Option<&'a Card>,
    /// A file sent with it.
    pub file: Option<&'a Attachment>,
}

impl<'a> OutboxPost<'a> {
    /// A text alone.
    pub fn text(to: &'a Audience, text: &'a str) -> OutboxPost<'a> {
        OutboxPost {
            to,
            text,
            svg: None,
            card: None,
            file: None,
        }
    }
}

/// The games not over in which a user (bound twice) is the GM, sits or waits: one definition
/// for the lookups that route direct messages.
const OPEN_GAMES_OF_USER: &str =
    "status <> 'over' AND (gm_id = ? OR id IN (SELECT game_id FROM seats WHERE user_id = ?))";

/// A game as stored: its number and its record.
pub struct GameRow {
    /// The game's number.
    pub id: i64,
    /// The table's record.
    pub record: GameRecord,
}

/// A user's games, as a direct message needs them.
pub enum UserGames {
    /// Exactly one game: its number, and the game read (or why its record is unreadable).
    Only(i64, Box<Result<GameRow, StoreError>>),
    /// No game, or several: their numbers.
    Numbers(Vec<i64>),
}

/// A write transaction.
pub struct Tx {
    tx: Transaction<'static, Sqlite>,
}

fn millis(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

pub(super) fn read_record(id: i64, text: &str) -> Result<GameRow, StoreError> {
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

    /// Claims an inbound message id for this transaction: `false` when it was applied already
    /// (then nothing is to be done). The claim commits or rolls back with everything else.
    /// `channel` and `position` say where the platform keeps the message in its history (a
    /// channel and the message's number there), so a catch-up after downtime knows where to
    /// read on from.
    pub async fn claim(
        &mut self,
        message_id: &str,
        place: Option<(&str, i64)>,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO inbound (message_id, received_at, channel, position) VALUES (?, ?, ?, ?) \
             ON CONFLICT DO NOTHING",
        )
        .bind(message_id)
        .bind(millis(now))
        .bind(place.map(|(channel, _)| channel))
        .bind(place.map(|(_, position)| position))
        .execute(&mut *self.tx)
        .await?;
        Ok(done.rows_affected() == 1)
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
        let rows = sqlx::query(&format!(
            "SELECT id FROM games WHERE {OPEN_GAMES_OF_USER} ORDER BY id"
        ))
        .bind(user_id)
        .bind(user_id)
        .fetch_all(&mut *self.tx)
        .await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    /// The games (not over) in which this user sits, waits, or is the GM, read in one query:
    /// the game itself when there is only one (the usual case for a direct message), else
    /// their numbers.
    pub async fn games_of_user_or_only(&mut self, user_id: &str) -> Result<UserGames, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT id, record FROM games WHERE {OPEN_GAMES_OF_USER} ORDER BY id"
        ))
        .bind(user_id)
        .bind(user_id)
        .fetch_all(&mut *self.tx)
        .await?;
        Ok(match rows.as_slice() {
            [row] => UserGames::Only(
                row.get(0),
                Box::new(read_record(row.get(0), row.get::<&str, _>(1))),
            ),
            rows => UserGames::Numbers(rows.iter().map(|row| row.get(0)).collect()),
        })
    }

    /// The numbers of the games (in sign-up) this user runs as GM, for the secret setup by DM.
    pub async fn games_in_signup_of_gm(&mut self, user_id: &str) -> Result<Vec<i64>, StoreError> {
        let rows =
            sqlx::query("SELECT id FROM games WHERE gm_id = ? AND status = 'signup' ORDER BY id")
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

    /// Writes everything one message changed as one batch of statements (one round trip to
    /// SQLite, not one per row): the game's record and seat index, its replay input and audit
    /// events, and the posts for the outbox, in order.
    pub async fn write(
        &mut self,
        change: Option<&GameChange<'_>>,
        posts: &[OutboxPost<'_>],
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let mut batch = QueryBuilder::<Sqlite>::new("");
        let mut rows = posts.len();
        if let Some(change) = change {
            push_game(&mut batch, change.record, change.seats_changed, now)?;
            if let Some(input) = change.input {
                push_input(&mut batch, change.record.id, input, now)?;
                push_events(&mut batch, change.record.id, change.events);
            }
            rows += 1 + change.events.len();
        }
        push_posts(&mut batch, posts, now);
        if rows == 0 {
            return Ok(());
        }
        // Small batches recur in a few shapes, so their prepared statements are worth
        // keeping; a big one (a round of thousands of events) is prepared once and dropped.
        batch
            .build()
            .persistent(rows <= 16)
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

    /// Every input of a game, in order (inside this transaction).
    pub async fn inputs(&mut self, game_id: i64) -> Result<Vec<super::StoredInput>, StoreError> {
        super::log::inputs(&mut self.tx, game_id).await
    }

    /// Opens a savepoint for one message of a group commit: [`Tx::keep_message`] keeps what
    /// the message wrote, [`Tx::undo_message`] takes it back, and either way the transaction
    /// goes on with the next message.
    pub async fn begin_message(&mut self) -> Result<(), StoreError> {
        sqlx::query("SAVEPOINT message")
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// Keeps what the message since [`Tx::begin_message`] wrote.
    pub async fn keep_message(&mut self) -> Result<(), StoreError> {
        sqlx::query("RELEASE message")
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// Takes back everything the message since [`Tx::begin_message`] wrote. Fails when
    /// SQLite has already rolled back the whole transaction (a full disk, an I/O error):
    /// then nothing of the batch can commit.
    pub async fn undo_message(&mut self) -> Result<(), StoreError> {
        sqlx::query("ROLLBACK TO message; RELEASE message")
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// The number of the newest outbox row, as this transaction sees it (0 when none).
    pub async fn last_outbox_id(&mut self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COALESCE(MAX(id), 0) FROM outbox")
            .fetch_one(&mut *self.tx)
            .await?;
        Ok(row.get(0))
    }

    /// The outbox rows queued after row `after` in this transaction, in order.
    pub async fn outbox_ids_after(&mut self, after: i64) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query("SELECT id FROM outbox WHERE id > ? ORDER BY id")
            .bind(after)
            .fetch_all(&mut *self.tx)
            .await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    /// Commits everything.
    pub async fn commit(self) -> Result<(), StoreError> {
        self.tx.commit().await?;
        Ok(())
    }
}

/// A change to one game: its new record, and the input that made it with what it caused.
#[derive(Clone, Copy, Debug)]
pub struct GameChange<'a> {
    /// The record as the input left it.
    pub record: &'a GameRecord,
    /// Whether who sits or waits changed (the seat index is rewritten only then).
    pub seats_changed: bool,
    /// The input, for the replay log (`None`: a housekeeping change that replay repeats by
    /// itself, such as clearing a deadline that changed nothing).
    pub input: Option<&'a Input>,
    /// What the input caused, for the audit log.
    pub events: &'a [LogEvent],
}

fn push_game<'a>(
    batch: &mut QueryBuilder<'a, Sqlite>,
    record: &'a GameRecord,
    seats_changed: bool,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let text = serde_json::to_string(record).map_err(|error| StoreError::Corrupt {
        what: format!("game #{}", record.id),
        reason: error.to_string(),
    })?;
    batch.push(
        "INSERT INTO games (id, channel, game, gm_id, status, deadline, remind_at, record, created_at, updated_at) VALUES (",
    );
    let mut values = batch.separated(", ");
    values
        .push_bind(record.id)
        .push_bind(record.channel.as_str())
        .push_bind(record.game.as_str())
        .push_bind(record.gm.id.as_str())
        .push_bind(record.status.word())
        .push_bind(record.deadline.map(millis))
        .push_bind(record.remind_at.map(millis))
        .push_bind(text)
        .push_bind(millis(now))
        .push_bind(millis(now));
    batch.push(
        ") ON CONFLICT (id) DO UPDATE SET gm_id = excluded.gm_id, status = excluded.status, \
         deadline = excluded.deadline, remind_at = excluded.remind_at, record = excluded.record, \
         updated_at = excluded.updated_at;",
    );
    if seats_changed {
        batch
            .push("DELETE FROM seats WHERE game_id = ")
            .push_bind(record.id)
            .push(";");
        let people: Vec<&str> = record
            .seats
            .iter()
            .chain(record.waitlist.iter())
            .filter(|seat| seat.present)
            .map(|seat| seat.user.id.as_str())
            .collect();
        for chunk in people.chunks(ROWS_PER_INSERT) {
            batch.push("INSERT OR IGNORE INTO seats (game_id, user_id) ");
            batch.push_values(chunk, |mut row, user| {
                row.push_bind(record.id).push_bind(*user);
            });
            batch.push(";");
        }
    }
    Ok(())
}

fn push_input<'a>(
    batch: &mut QueryBuilder<'a, Sqlite>,
    game_id: i64,
    input: &Input,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    let text = serde_json::to_string(input).map_err(|error| StoreError::Corrupt {
        what: "input".to_string(),
        reason: error.to_string(),
    })?;
    batch
        .push("INSERT INTO inputs (game_id, seq, at, input) VALUES (")
        .push_bind(game_id)
        .push(", (SELECT COALESCE(MAX(seq), 0) + 1 FROM inputs WHERE game_id = ")
        .push_bind(game_id)
        .push("), ")
        .push_bind(millis(at))
        .push(", ")
        .push_bind(text)
        .push(");");
    if let Input::Undo { back_to, .. } = input {
        // The inputs it takes back stay in the log, marked with its number.
        batch
            .push("UPDATE inputs SET undone_by = (SELECT MAX(seq) FROM inputs WHERE game_id = ")
            .push_bind(game_id)
            .push(") WHERE game_id = ")
            .push_bind(game_id)
            .push(" AND seq >= ")
            .push_bind(*back_to)
            .push(" AND undone_by IS NULL AND seq < (SELECT MAX(seq) FROM inputs WHERE game_id = ")
            .push_bind(game_id)
            .push(");");
    }
    Ok(())
}

/// The events are numbered on from the game's last and tied to its last input (the one this
/// batch just appended).
fn push_events(batch: &mut QueryBuilder<'_, Sqlite>, game_id: i64, events: &[LogEvent]) {
    for chunk in events.chunks(ROWS_PER_INSERT) {
        batch
            .push("WITH last (seq) AS (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ")
            .push_bind(game_id)
            .push(") INSERT INTO events (game_id, seq, input_seq, round, visibility, body) SELECT ")
            .push_bind(game_id)
            .push(", last.seq + new.column1, (SELECT MAX(seq) FROM inputs WHERE game_id = ")
            .push_bind(game_id)
            .push("), new.column2, new.column3, new.column4 FROM last, (");
        batch.push_values(chunk.iter().enumerate(), |mut row, (index, event)| {
            row.push_bind(index as i64 + 1)
                .push_bind(i64::try_from(event.round).unwrap_or(i64::MAX))
                .push_bind(serde_json::to_string(&event.visibility).unwrap_or_default())
                .push_bind(serde_json::to_string(&event.body).unwrap_or_default());
        });
        batch.push(") AS new ORDER BY new.column1;");
    }
}

fn push_posts<'a>(
    batch: &mut QueryBuilder<'a, Sqlite>,
    posts: &[OutboxPost<'a>],
    now: DateTime<Utc>,
) {
    for chunk in posts.chunks(ROWS_PER_INSERT) {
        batch.push(
            "INSERT INTO outbox (audience, body, svg, card, attachment_name, attachment, created_at, next_attempt) ",
        );
        batch.push_values(chunk, |mut row, post| {
            row.push_bind(serde_json::to_string(post.to).unwrap_or_default())
                .push_bind(post.text)
                .push_bind(post.svg)
                .push_bind(post.card.and_then(|card| serde_json::to_string(card).ok()))
                .push_bind(post.file.map(|file| file.name.as_str()))
                .push_bind(post.file.map(|file| file.text.as_str()))
                .push_bind(millis(now))
                .push_bind(millis(now));
        });
        batch.push(";");
    }
}
