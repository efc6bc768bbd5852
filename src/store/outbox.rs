//! The outbox: messages committed with the change that caused them, delivered after commit,
//! each exactly once.

use super::sql::{Row, Statement, Value};
use super::write::OutboxPost;
use super::{Store, StoreError, Tx};
use crate::records::{Attachment, Audience, Card};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

/// Why a direct message was given up when the player's DMs are closed (the `failed` column):
/// such a message is sent again in the player's private thread once they have one.
pub const DMS_CLOSED: &str = "the player does not accept direct messages";

/// A message waiting for delivery.
#[derive(Clone, Debug)]
pub struct OutboxRow {
    /// Its number (delivery order).
    pub id: i64,
    /// Where it goes.
    pub audience: Audience,
    /// The text.
    pub body: String,
    /// A board picture to attach, as SVG (the deliverer renders it to PNG).
    pub svg: Option<String>,
    /// How many deliveries were tried.
    pub attempts: i64,
    /// What a rich platform shows beside the text (title, players, deadline, buttons).
    pub card: Option<Card>,
    /// When the next attempt is due.
    pub next_attempt: DateTime<Utc>,
    /// How many parts of a split text were already sent.
    pub parts_sent: i64,
    /// A file to send with it.
    pub file: Option<Attachment>,
}

/// A post sent whole, as [`Store::delivered_together`] notes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// The post's number.
    pub id: i64,
    /// How many parts it went out in.
    pub parts: i64,
    /// The Discord channel and the id of its last part there, when Discord told it.
    pub posted: Option<(String, i64)>,
}

/// The most posts (or channels) one statement of [`Store::delivered_together`] notes: at
/// most three values each, well under SQLite's 32,766 a statement.
const NOTES_PER_STATEMENT: usize = 500;

/// The newest message of the bot's in each channel among `posts`, one row a channel: one
/// statement may not change a row twice on PostgreSQL.
fn newest_by_channel(posts: &[Delivered]) -> Vec<(&str, i64)> {
    let mut newest: BTreeMap<&str, i64> = BTreeMap::new();
    for (channel, message) in posts.iter().filter_map(|post| post.posted.as_ref()) {
        let kept = newest.entry(channel.as_str()).or_insert(*message);
        *kept = (*kept).max(*message);
    }
    newest.into_iter().collect()
}

/// A post's columns, read from [`ROWS`].
pub(super) const COLUMNS: &str = "o.id, o.audience, o.body, f.svg, o.attempts, o.card, \
     o.next_attempt, o.parts_sent, f.attachment_name, f.attachment";

/// The posts with their pictures and files (kept apart, in `outbox_files`).
pub(super) const ROWS: &str = "outbox o LEFT JOIN outbox_files f ON f.id = o.id";

/// The posts of [`ROWS`] not yet delivered nor given up.
pub(super) const UNDELIVERED_ROWS: &str = "o.delivered_at IS NULL AND o.failed IS NULL";

pub(super) fn read_row(row: &Row) -> Result<OutboxRow, StoreError> {
    let id = row.int(0)?;
    let corrupt = |e: serde_json::Error| StoreError::Corrupt {
        what: format!("outbox row {id}"),
        reason: e.to_string(),
    };
    let audience = serde_json::from_str(row.text(1)?).map_err(corrupt)?;
    let card = match row.opt_text(5)? {
        Some(text) => Some(serde_json::from_str(text).map_err(corrupt)?),
        None => None,
    };
    Ok(OutboxRow {
        id,
        audience,
        body: row.text(2)?.to_string(),
        svg: row.opt_text(3)?.map(str::to_string),
        attempts: row.int(4)?,
        card,
        next_attempt: DateTime::from_timestamp_millis(row.int(6)?).unwrap_or_default(),
        parts_sent: row.int(7)?,
        file: match (row.opt_text(8)?, row.opt_text(9)?) {
            (Some(name), Some(text)) => Some(Attachment {
                name: name.to_string(),
                text: text.to_string(),
            }),
            _ => None,
        },
    })
}

pub(super) fn read_rows(rows: &[Row]) -> Result<Vec<OutboxRow>, StoreError> {
    rows.iter().map(read_row).collect()
}

impl Store {
    /// Undelivered messages whose next attempt is due, oldest first.
    pub async fn pending(
        &self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let rows = self
            .fetch_all(
                Statement::new(format!(
                    "SELECT {COLUMNS} FROM {ROWS} WHERE o.id IN (SELECT id FROM outbox \
                     WHERE delivered_at IS NULL AND failed IS NULL AND next_attempt <= ?) \
                     ORDER BY o.id LIMIT ?"
                ))
                .int(now.timestamp_millis())
                .int(limit),
            )
            .await?;
        read_rows(&rows)
    }

    /// Undelivered messages numbered after `after` (what one inbound message just queued).
    pub async fn undelivered_after(&self, after: i64) -> Result<Vec<OutboxRow>, StoreError> {
        let rows = self
            .fetch_all(
                Statement::new(format!(
                    "SELECT {COLUMNS} FROM {ROWS} WHERE {UNDELIVERED_ROWS} AND o.id > ? ORDER BY o.id"
                ))
                .int(after),
            )
            .await?;
        read_rows(&rows)
    }

    /// The outbox messages among `ids` still to deliver, in order (what an interaction
    /// answers itself).
    pub async fn undelivered_rows(&self, ids: &[i64]) -> Result<Vec<OutboxRow>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut statement = Statement::new(format!(
            "SELECT {COLUMNS} FROM {ROWS} WHERE {UNDELIVERED_ROWS} AND o.id IN "
        ));
        statement.push_list(ids.iter().map(|id| Value::Int(Some(*id))));
        statement.push(" ORDER BY o.id");
        let rows = self.fetch_all(statement).await?;
        read_rows(&rows)
    }

    /// The number of the newest outbox message (0 when there is none).
    pub async fn last_outbox_id(&self) -> Result<i64, StoreError> {
        let row = self
            .fetch_optional(Statement::new("SELECT COALESCE(MAX(id), 0) FROM outbox"))
            .await?;
        match row {
            Some(row) => row.int(0),
            None => Ok(0),
        }
    }

    /// One outbox message, delivered or not (a pressed button looks up its card).
    pub async fn outbox_row(&self, id: i64) -> Result<Option<OutboxRow>, StoreError> {
        let row = self
            .fetch_optional(
                Statement::new(format!("SELECT {COLUMNS} FROM {ROWS} WHERE o.id = ?")).int(id),
            )
            .await?;
        row.as_ref().map(read_row).transpose()
    }

    /// Records that the first `parts` parts of a split message were sent.
    pub async fn parts_sent(&self, id: i64, parts: i64) -> Result<(), StoreError> {
        self.execute(
            Statement::new("UPDATE outbox SET parts_sent = ? WHERE id = ?")
                .int(parts)
                .int(id),
        )
        .await?;
        Ok(())
    }

    /// Marks a message delivered: it is never sent again.
    pub async fn delivered(&self, id: i64, now: DateTime<Utc>) -> Result<(), StoreError> {
        self.update_at(
            "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?",
            now,
            id,
        )
        .await
    }

    /// Marks posts delivered in one transaction, so a burst of posts sent side by side
    /// costs one durable write rather than one each: every part of each is sent, it is never
    /// sent again, and the newest message of the bot's in its channel is noted. A hundred
    /// posts are two statements, not two each: under a burst the one connection the table
    /// writes on is the scarce thing, and each statement is a turn on it.
    pub async fn delivered_together(
        &self,
        posts: &[Delivered],
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        if posts.is_empty() {
            return Ok(());
        }
        let mut tx = self.begin().await?;
        for chunk in posts.chunks(NOTES_PER_STATEMENT) {
            let mut delivered = Statement::new("UPDATE outbox SET delivered_at = ");
            delivered.bind(Value::Int(Some(now.timestamp_millis())));
            delivered.push(", attempts = attempts + 1, parts_sent = CASE id");
            for post in chunk {
                delivered.push(" WHEN ");
                delivered.bind(Value::Int(Some(post.id)));
                delivered.push(" THEN ");
                delivered.bind(Value::Int(Some(post.parts)));
            }
            delivered.push(" END WHERE id IN ");
            delivered.push_list(chunk.iter().map(|post| Value::Int(Some(post.id))));
            delivered.execute_kept(tx.connection(), false).await?;
        }
        let newest = newest_by_channel(posts);
        for chunk in newest.chunks(NOTES_PER_STATEMENT) {
            let mut posted = Statement::new("INSERT INTO posted (channel, message) VALUES ");
            posted.push_rows(chunk.iter(), |(channel, message)| {
                vec![Value::Text(Some(channel)), Value::Int(Some(*message))]
            });
            // An older message of the bot's, noted late, leaves the newer one in place.
            posted.push(
                " ON CONFLICT (channel) DO UPDATE SET message = excluded.message \
                 WHERE excluded.message > posted.message",
            );
            posted.execute_kept(tx.connection(), false).await?;
        }
        tx.commit().await
    }

    /// Marks several messages delivered at once (a page the console printed).
    pub async fn delivered_all(&self, ids: &[i64], now: DateTime<Utc>) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut statement = Statement::new("UPDATE outbox SET delivered_at = ");
        statement.bind(Value::Int(Some(now.timestamp_millis())));
        statement.push(", attempts = attempts + 1 WHERE id IN ");
        statement.push_list(ids.iter().map(|id| Value::Int(Some(*id))));
        self.execute(statement).await?;
        Ok(())
    }

    /// Runs `update`, an `UPDATE` of one outbox row taking an instant then the row's id.
    async fn update_at(
        &self,
        update: &'static str,
        at: DateTime<Utc>,
        id: i64,
    ) -> Result<(), StoreError> {
        let statement = Statement::new(update).int(at.timestamp_millis()).int(id);
        self.execute(statement).await?;
        Ok(())
    }

    /// Schedules another attempt after a passing error.
    pub async fn retry_later(&self, id: i64, at: DateTime<Utc>) -> Result<(), StoreError> {
        self.update_at(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt = ? WHERE id = ?",
            at,
            id,
        )
        .await
    }

    /// Holds a message back until `at` without counting an attempt (Discord asked the bot to
    /// wait: a rate limit is not a failure of the message).
    pub async fn wait_until(&self, id: i64, at: DateTime<Utc>) -> Result<(), StoreError> {
        self.update_at("UPDATE outbox SET next_attempt = ? WHERE id = ?", at, id)
            .await
    }

    /// Drops the pictures and files of posts delivered before `before` (their text, card and
    /// buttons stay): the database keeps what was said, not every board drawn. Returns how
    /// many posts lost theirs.
    pub async fn forget_files(&self, before: DateTime<Utc>) -> Result<u64, StoreError> {
        self.execute(
            Statement::new(
                "DELETE FROM outbox_files WHERE id IN (SELECT f.id FROM outbox_files f \
                 JOIN outbox o ON o.id = f.id \
                 WHERE o.delivered_at IS NOT NULL AND o.delivered_at < ?)",
            )
            .int(before.timestamp_millis()),
        )
        .await
    }

    /// Keeps only a message's text (and file): its card and picture go. For a post the
    /// platform refused as malformed, sent again in its plainest form.
    pub async fn strip_to_text(&self, id: i64) -> Result<(), StoreError> {
        self.execute(Statement::new("UPDATE outbox SET card = NULL WHERE id = ?").int(id))
            .await?;
        self.execute(Statement::new("UPDATE outbox_files SET svg = NULL WHERE id = ?").int(id))
            .await?;
        Ok(())
    }

    /// Gives up on a message after a permanent error.
    pub async fn give_up(&self, id: i64, error: &str) -> Result<(), StoreError> {
        self.execute(
            Statement::new("UPDATE outbox SET attempts = attempts + 1, failed = ? WHERE id = ?")
                .text(error)
                .int(id),
        )
        .await?;
        Ok(())
    }
}

impl Tx {
    /// Sends the direct messages to `user` given up because their DMs are closed again, in
    /// order, to `place` (their private thread), after what this transaction queued so far;
    /// the rows given up say where they went.
    pub async fn resend_refused_dms(
        &mut self,
        user: &str,
        place: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let direct = serde_json::to_string(&Audience::Direct(user.to_string())).unwrap_or_default();
        let rows = Statement::new(format!(
            "SELECT {COLUMNS} FROM {ROWS} WHERE o.audience = ? AND o.failed = ? ORDER BY o.id"
        ))
        .text(direct.as_str())
        .text(DMS_CLOSED)
        .fetch_all(self.connection())
        .await?;
        let rows = read_rows(&rows)?;
        if rows.is_empty() {
            return Ok(());
        }
        let to = Audience::Channel(place.to_string());
        let posts: Vec<OutboxPost> = rows
            .iter()
            .map(|row| OutboxPost {
                to: &to,
                text: &row.body,
                svg: row.svg.as_deref(),
                card: row.card.as_ref(),
                file: row.file.as_ref(),
            })
            .collect();
        self.write(None, &posts, now).await?;
        let note = format!("{DMS_CLOSED}; sent again in <#{place}>");
        let mut moved =
            Statement::new("UPDATE outbox SET failed = ? WHERE id IN ").text(note.as_str());
        moved.push_list(rows.iter().map(|row| Value::Int(Some(row.id))));
        moved.execute(self.connection()).await?;
        Ok(())
    }
}
