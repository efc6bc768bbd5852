//! What an operator's health check and dashboard read: whether the database takes writes,
//! the outbox's backlog, and the games by state.

use super::sql::Statement;
use super::{Store, StoreError};
use chrono::{DateTime, Utc};

/// The posts waiting for delivery (neither delivered nor given up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backlog {
    /// How many.
    pub posts: i64,
    /// When the oldest was queued (`None`: nothing waits).
    pub oldest: Option<DateTime<Utc>>,
}

impl Store {
    /// Writes the health check's row: `Ok` proves the database takes writes now (not only
    /// that it answers reads).
    pub async fn prove_writable(&self, now: DateTime<Utc>) -> Result<(), StoreError> {
        self.execute(
            Statement::new(
                "INSERT INTO health_checks (id, checked_at) VALUES (1, ?) \
                 ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
            )
            .int(now.timestamp_millis()),
        )
        .await
        .map(|_| ())
    }

    /// The outbox's backlog.
    pub async fn outbox_backlog(&self) -> Result<Backlog, StoreError> {
        let row = self
            .fetch_optional(Statement::new(
                "SELECT COUNT(*), MIN(created_at) FROM outbox \
                 WHERE delivered_at IS NULL AND failed IS NULL",
            ))
            .await?;
        let Some(row) = row else {
            return Ok(Backlog {
                posts: 0,
                oldest: None,
            });
        };
        Ok(Backlog {
            posts: row.int(0)?,
            oldest: row.opt_int(1)?.and_then(DateTime::from_timestamp_millis),
        })
    }

    /// How many games are in each state (`signup`, `running`, `paused`, `over`), for those
    /// with any.
    pub async fn games_by_status(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = self
            .fetch_all(Statement::new(
                "SELECT status, COUNT(*) FROM games GROUP BY status ORDER BY status",
            ))
            .await?;
        rows.iter()
            .map(|row| Ok((row.text(0)?.to_string(), row.int(1)?)))
            .collect()
    }
}
