//! Everything one message changed, written as a few multi-row statements: the game's record
//! and seat index, its replay input and audit events, and its posts. SQLite runs them as one
//! batch (one call into the database, not one per row); PostgreSQL, whose prepared statements
//! hold one statement each, runs them one after the other in the same transaction.

use super::sql::{Dialect, Statement, Value};
use super::tx::{millis, Tx};
use super::StoreError;
use crate::records::{Attachment, Audience, Card, GameRecord, Input, LogEvent};
use chrono::{DateTime, Utc};

/// Rows per multi-row insert: well under SQLite's limit of 32,766 bound values a statement
/// (and PostgreSQL's 65,535).
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
    /// When the input was sent, where that differs from when it is applied: the platform's
    /// time for a message, the deadline's own time for a deadline that fired. Replay judges
    /// the input against it again.
    pub sent: Option<DateTime<Utc>>,
    /// What the input caused, for the audit log.
    pub events: &'a [LogEvent],
}

impl Tx {
    /// Writes everything one message changed: the game's record and seat index, its replay
    /// input and audit events, and the posts for the outbox, in order. Returns the numbers
    /// the posts got in the outbox, in order.
    pub async fn write(
        &mut self,
        change: Option<&GameChange<'_>>,
        posts: &[OutboxPost<'_>],
        now: DateTime<Utc>,
    ) -> Result<Vec<i64>, StoreError> {
        let mut statements = Vec::new();
        let mut rows = posts.len();
        if let Some(change) = change {
            self.note_due(change.record);
            game(&mut statements, change.record, change.seats_changed, now)?;
            if let Some(input) = change.input {
                input_rows(&mut statements, change.record.id, input, now, change.sent)?;
                events(&mut statements, change.record.id, change.events);
            }
            rows += 1 + change.events.len();
        }
        outbox(&mut statements, posts, now, self.dialect());
        if rows == 0 {
            return Ok(Vec::new());
        }
        // Small writes recur in a few shapes, so their prepared statements are worth keeping;
        // a big one (a round of thousands of events) is prepared once and dropped.
        let persistent = rows <= 16;
        let mut ids = Vec::with_capacity(posts.len());
        match self.dialect() {
            Dialect::Sqlite => {
                let mut batch = Statement::default();
                for statement in statements {
                    batch.append(statement);
                    batch.push(";");
                }
                for row in batch.fetch_all_kept(self.connection(), persistent).await? {
                    ids.push(row.int(0)?);
                }
            }
            Dialect::Postgres => {
                for statement in statements {
                    for row in statement
                        .fetch_all_kept(self.connection(), persistent)
                        .await?
                    {
                        ids.push(row.int(0)?);
                    }
                }
            }
        }
        // The numbers follow the order the posts were given in.
        ids.sort_unstable();
        Ok(ids)
    }
}

/// Since when work beside the table waits in the game (the `searching` column, how the table
/// finds it after a restart too): the oldest search asked, the phase a computer seat owes
/// its move in, or now for a private thread owed; `None`: none waits.
fn beside_since(record: &GameRecord, now: DateTime<Utc>) -> Option<i64> {
    match record.searches.first() {
        Some(search) => Some(millis(search.asked)),
        None if !record.computers_owed().is_empty() => {
            Some(millis(record.phase_started.unwrap_or(now)))
        }
        None if !record.threads_owed().is_empty() => Some(millis(now)),
        None => None,
    }
}

/// The game's row, and its seat index when who sits or waits changed.
fn game<'a>(
    statements: &mut Vec<Statement<'a>>,
    record: &'a GameRecord,
    seats_changed: bool,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let text = serde_json::to_string(record).map_err(|error| StoreError::Corrupt {
        what: format!("game #{}", record.id),
        reason: error.to_string(),
    })?;
    let mut upsert = Statement::new(
        "INSERT INTO games (id, channel, game, gm_id, status, deadline, remind_at, searching, record, created_at, updated_at) VALUES ",
    );
    upsert.push_list([
        Value::Int(Some(record.id)),
        Value::Text(Some(record.channel.as_str())),
        Value::Text(Some(record.game.as_str())),
        Value::Text(Some(record.gm.id.as_str())),
        Value::Text(Some(record.status.word())),
        // When the table acts next for the game by itself (its deadline, or the end of the
        // computer's time to stand in for silent players).
        Value::Int(record.due().map(millis)),
        Value::Int(record.remind_at.map(millis)),
        Value::Int(beside_since(record, now)),
        Value::Owned(Some(text)),
        Value::Int(Some(millis(now))),
        Value::Int(Some(millis(now))),
    ]);
    upsert.push(
        " ON CONFLICT (id) DO UPDATE SET channel = excluded.channel, gm_id = excluded.gm_id, status = excluded.status, \
         deadline = excluded.deadline, remind_at = excluded.remind_at, \
         searching = excluded.searching, record = excluded.record, \
         updated_at = excluded.updated_at",
    );
    statements.push(upsert);
    if seats_changed {
        statements.push(Statement::new("DELETE FROM seats WHERE game_id = ?").int(record.id));
        statements
            .push(Statement::new("DELETE FROM order_threads WHERE game_id = ?").int(record.id));
        let threads: Vec<(&str, &str)> = record.threads().collect();
        for chunk in threads.chunks(ROWS_PER_INSERT) {
            let mut insert =
                Statement::new("INSERT INTO order_threads (thread, game_id, user_id) VALUES ");
            insert.push_rows(chunk, |(user, thread)| {
                vec![
                    Value::Text(Some(*thread)),
                    Value::Int(Some(record.id)),
                    Value::Text(Some(*user)),
                ]
            });
            insert.push(" ON CONFLICT DO NOTHING");
            statements.push(insert);
        }
        let people: Vec<&str> = record
            .seats
            .iter()
            .chain(record.waitlist.iter())
            .filter(|seat| seat.present)
            .map(|seat| seat.user.id.as_str())
            .collect();
        for chunk in people.chunks(ROWS_PER_INSERT) {
            let mut insert = Statement::new("INSERT INTO seats (game_id, user_id) VALUES ");
            insert.push_rows(chunk, |user| {
                vec![Value::Int(Some(record.id)), Value::Text(Some(*user))]
            });
            insert.push(" ON CONFLICT DO NOTHING");
            statements.push(insert);
        }
    }
    Ok(())
}

/// The input, numbered on from the game's last; an undo also marks the inputs it takes back
/// (they stay in the log, marked with its number).
fn input_rows(
    statements: &mut Vec<Statement<'_>>,
    game_id: i64,
    input: &Input,
    at: DateTime<Utc>,
    sent: Option<DateTime<Utc>>,
) -> Result<(), StoreError> {
    let text = serde_json::to_string(input).map_err(|error| StoreError::Corrupt {
        what: "input".to_string(),
        reason: error.to_string(),
    })?;
    let mut insert = Statement::new("INSERT INTO inputs (game_id, seq, at, sent, input) VALUES (");
    insert
        .bind(Value::Int(Some(game_id)))
        .push(", (SELECT COALESCE(MAX(seq), 0) + 1 FROM inputs WHERE game_id = ")
        .bind(Value::Int(Some(game_id)))
        .push("), ")
        .bind(Value::Int(Some(millis(at))))
        .push(", ")
        .bind(Value::Int(sent.map(millis)))
        .push(", ")
        .bind(Value::Owned(Some(text)))
        .push(")");
    statements.push(insert);
    if let Input::Undo { back_to, .. } = input {
        statements.push(
            Statement::new(
                "UPDATE inputs SET undone_by = (SELECT MAX(seq) FROM inputs WHERE game_id = ?) \
                 WHERE game_id = ? AND seq >= ? AND undone_by IS NULL \
                 AND seq < (SELECT MAX(seq) FROM inputs WHERE game_id = ?)",
            )
            .int(game_id)
            .int(game_id)
            .int(*back_to)
            .int(game_id),
        );
    }
    Ok(())
}

/// The events, numbered on from the game's last and tied to its last input (the one this
/// write just appended).
fn events(statements: &mut Vec<Statement<'_>>, game_id: i64, events: &[LogEvent]) {
    for chunk in events.chunks(ROWS_PER_INSERT) {
        let mut insert = Statement::new(
            "WITH last (seq) AS (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ",
        );
        insert
            .bind(Value::Int(Some(game_id)))
            .push(") INSERT INTO events (game_id, seq, input_seq, round, visibility, body) SELECT ")
            .bind(Value::Int(Some(game_id)))
            .push(", last.seq + added.column1, (SELECT MAX(seq) FROM inputs WHERE game_id = ")
            .bind(Value::Int(Some(game_id)))
            .push("), added.column2, added.column3, added.column4 FROM last, (VALUES ");
        insert.push_rows(chunk.iter().enumerate(), |(index, event)| {
            vec![
                Value::Int(Some(index as i64 + 1)),
                Value::Int(Some(i64::try_from(event.round).unwrap_or(i64::MAX))),
                Value::Owned(Some(
                    serde_json::to_string(&event.visibility).unwrap_or_default(),
                )),
                Value::Owned(Some(serde_json::to_string(&event.body).unwrap_or_default())),
            ]
        });
        insert.push(") AS added ORDER BY added.column1");
        statements.push(insert);
    }
}

/// The posts, in order; each statement gives back the numbers its rows got. Posts without a
/// picture or file go many to a statement; one with them goes alone, followed by its row of
/// `outbox_files` under the number it just got.
fn outbox<'a>(
    statements: &mut Vec<Statement<'a>>,
    posts: &[OutboxPost<'a>],
    now: DateTime<Utc>,
    dialect: Dialect,
) {
    let has_files = |post: &OutboxPost<'_>| post.svg.is_some() || post.file.is_some();
    let mut rest = posts;
    while !rest.is_empty() {
        let plain = rest
            .iter()
            .take(ROWS_PER_INSERT)
            .take_while(|post| !has_files(post))
            .count();
        let (taken, next) = rest.split_at(plain.max(1));
        rest = next;
        let mut insert = Statement::default();
        if plain == 0 && dialect == Dialect::Postgres {
            insert.push("WITH post AS (");
        }
        insert.push("INSERT INTO outbox (audience, body, card, created_at, next_attempt) VALUES ");
        insert.push_rows(taken, |post| {
            vec![
                Value::Owned(Some(serde_json::to_string(post.to).unwrap_or_default())),
                Value::Text(Some(post.text)),
                Value::Owned(post.card.and_then(|card| serde_json::to_string(card).ok())),
                Value::Int(Some(millis(now))),
                Value::Int(Some(millis(now))),
            ]
        });
        insert.push(" RETURNING id");
        if plain > 0 {
            statements.push(insert);
            continue;
        }
        let post = &taken[0];
        let files = [
            Value::Text(post.svg),
            Value::Text(post.file.map(|file| file.name.as_str())),
            Value::Text(post.file.map(|file| file.text.as_str())),
        ];
        match dialect {
            Dialect::Postgres => {
                insert.push(
                    "), file AS (INSERT INTO outbox_files (id, svg, attachment_name, attachment) \
                     SELECT id, ",
                );
                insert.bind_all(files);
                insert.push(" FROM post) SELECT id FROM post");
                statements.push(insert);
            }
            Dialect::Sqlite => {
                statements.push(insert);
                let mut file = Statement::new(
                    "INSERT INTO outbox_files (id, svg, attachment_name, attachment) VALUES (last_insert_rowid(), ",
                );
                file.bind_all(files);
                file.push(")");
                statements.push(file);
            }
        }
    }
}
