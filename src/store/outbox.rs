//! The outbox: messages committed with the change that caused them, delivered after commit,
//! each exactly once.

use super::{Store, StoreError};
use crate::table::Audience;
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
}

impl Store {
    /// Undelivered messages whose next attempt is due, oldest first.
    pub async fn pending(
        &self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, audience, body, svg, attempts FROM outbox \
             WHERE delivered_at IS NULL AND failed IS NULL AND next_attempt <= ? ORDER BY id LIMIT ?",
        )
        .bind(now.timestamp_millis())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let id: i64 = row.get(0);
                let audience = serde_json::from_str(row.get::<&str, _>(1)).map_err(|e| {
                    StoreError::Corrupt {
                        what: format!("outbox row {id}"),
                        reason: e.to_string(),
                    }
                })?;
                Ok(OutboxRow {
                    id,
                    audience,
                    body: row.get(2),
                    svg: row.get(3),
                    attempts: row.get(4),
                })
            })
            .collect()
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
