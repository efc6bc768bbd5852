//! The outbox: messages committed with the change that caused them, delivered after commit,
//! each exactly once.

use super::{Store, StoreError};
use crate::records::{Attachment, Audience, Card};
use chrono::{DateTime, Utc};
use sqlx::Row;

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

const COLUMNS: &str =
    "id, audience, body, svg, attempts, card, next_attempt, parts_sent, attachment_name, attachment";

fn read_row(row: &sqlx::sqlite::SqliteRow) -> Result<OutboxRow, StoreError> {
    let id: i64 = row.get(0);
    let corrupt = |e: serde_json::Error| StoreError::Corrupt {
        what: format!("outbox row {id}"),
        reason: e.to_string(),
    };
    let audience = serde_json::from_str(row.get::<&str, _>(1)).map_err(corrupt)?;
    let card = match row.get::<Option<&str>, _>(5) {
        Some(text) => Some(serde_json::from_str(text).map_err(corrupt)?),
        None => None,
    };
    Ok(OutboxRow {
        id,
        audience,
        body: row.get(2),
        svg: row.get(3),
        attempts: row.get(4),
        card,
        next_attempt: DateTime::from_timestamp_millis(row.get(6)).unwrap_or_default(),
        parts_sent: row.get(7),
        file: match (
            row.get::<Option<String>, _>(8),
            row.get::<Option<String>, _>(9),
        ) {
            (Some(name), Some(text)) => Some(Attachment { name, text }),
            _ => None,
        },
    })
}

impl Store {
    /// Undelivered messages whose next attempt is due, oldest first.
    pub async fn pending(
        &self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM outbox \
             WHERE delivered_at IS NULL AND failed IS NULL AND next_attempt <= ? ORDER BY id LIMIT ?"
        ))
        .bind(now.timestamp_millis())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_row).collect()
    }

    /// Every undelivered message not given up, due or not, oldest first: a deliverer keeps
    /// the order per audience by holding back what follows a message that is not due yet.
    pub async fn undelivered(&self, limit: i64) -> Result<Vec<OutboxRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM outbox \
             WHERE delivered_at IS NULL AND failed IS NULL ORDER BY id LIMIT ?"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_row).collect()
    }

    /// Undelivered messages numbered after `after` (what one inbound message just queued).
    pub async fn undelivered_after(&self, after: i64) -> Result<Vec<OutboxRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM outbox \
             WHERE delivered_at IS NULL AND failed IS NULL AND id > ? ORDER BY id"
        ))
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_row).collect()
    }

    /// The outbox messages among `ids` still to deliver, in order (what an interaction
    /// answers itself).
    pub async fn undelivered_rows(&self, ids: &[i64]) -> Result<Vec<OutboxRow>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = sqlx::QueryBuilder::<sqlx::Sqlite>::new(format!(
            "SELECT {COLUMNS} FROM outbox WHERE delivered_at IS NULL AND failed IS NULL AND id IN ("
        ));
        let mut list = query.separated(", ");
        for id in ids {
            list.push_bind(*id);
        }
        query.push(") ORDER BY id");
        let rows = query.build().fetch_all(&self.pool).await?;
        rows.iter().map(read_row).collect()
    }

    /// The number of the newest outbox message (0 when there is none).
    pub async fn last_outbox_id(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COALESCE(MAX(id), 0) FROM outbox")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.get(0))
    }

    /// One outbox message, delivered or not (a pressed button looks up its card).
    pub async fn outbox_row(&self, id: i64) -> Result<Option<OutboxRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM outbox WHERE id = ?"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(read_row).transpose()
    }

    /// Records that the first `parts` parts of a split message were sent.
    pub async fn parts_sent(&self, id: i64, parts: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET parts_sent = ? WHERE id = ?")
            .bind(parts)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Marks a message delivered: it is never sent again.
    pub async fn delivered(&self, id: i64, now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?")
            .bind(now.timestamp_millis())
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Schedules another attempt after a passing error.
    pub async fn retry_later(&self, id: i64, at: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET attempts = attempts + 1, next_attempt = ? WHERE id = ?")
            .bind(at.timestamp_millis())
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Holds a message back until `at` without counting an attempt (Discord asked the bot to
    /// wait: a rate limit is not a failure of the message).
    pub async fn wait_until(&self, id: i64, at: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET next_attempt = ? WHERE id = ?")
            .bind(at.timestamp_millis())
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Drops the pictures and files of posts delivered before `before` (their text, card and
    /// buttons stay): the database keeps what was said, not every board drawn. Returns how
    /// many posts lost theirs.
    pub async fn forget_files(&self, before: DateTime<Utc>) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE outbox SET svg = NULL, attachment_name = NULL, attachment = NULL \
             WHERE delivered_at IS NOT NULL AND delivered_at < ? \
             AND (svg IS NOT NULL OR attachment IS NOT NULL)",
        )
        .bind(before.timestamp_millis())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Gives up on a message after a permanent error.
    pub async fn give_up(&self, id: i64, error: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET attempts = attempts + 1, failed = ? WHERE id = ?")
            .bind(error)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
