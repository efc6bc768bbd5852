//! Who delivers which posts. On PostgreSQL several processes deliver from one outbox: each
//! audience (a channel, a user's direct messages) is leased to one process at a time, so its
//! posts go out once and in order. A lease runs out unless its process renews it, so the
//! posts of a process that died are taken over by another once its leases expire (the post
//! it may have sent just before dying carries the same nonce again, and Discord does not
//! repeat it). Lease times are the database's clock, not the processes'. On SQLite the one
//! process delivers everything and nothing is leased.

use super::outbox::{read_rows, COLUMNS, ROWS, UNDELIVERED_ROWS};
use super::sql::{Connection, Statement, Value};
use super::tx::millis;
use super::{OutboxRow, Pool, Store, StoreError};
use crate::records::Audience;
use chrono::{DateTime, Utc};

/// The database's clock in unix milliseconds (PostgreSQL).
const DATABASE_NOW: &str = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

/// The posts not yet delivered nor given up.
const UNDELIVERED: &str = "delivered_at IS NULL AND failed IS NULL";

/// The oldest undelivered post of each audience, found through the index of undelivered
/// posts (never by reading the delivered ones): `o`.
const HEADS: &str =
    "(SELECT MIN(id) AS head FROM outbox WHERE delivered_at IS NULL AND failed IS NULL \
     GROUP BY audience) AS h JOIN outbox o ON o.id = h.head";

impl Store {
    /// The audiences this process may deliver to now, oldest first: those whose oldest
    /// undelivered post is due at `due` (any time when `None`). On PostgreSQL only the
    /// audiences whose lease this process holds, after it took every lease that is free or
    /// expired (skipping any another process is taking at this moment) and renewed its own;
    /// on SQLite every audience.
    pub async fn due_audiences(
        &self,
        due: Option<DateTime<Utc>>,
    ) -> Result<Vec<Audience>, StoreError> {
        let due = due.map(millis);
        let rows = match &self.pool {
            Pool::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                Statement::new(format!(
                    "INSERT INTO outbox_leases (audience) \
                     SELECT DISTINCT audience FROM outbox WHERE {UNDELIVERED} ORDER BY audience \
                     ON CONFLICT DO NOTHING"
                ))
                .execute(Connection::Postgres(&mut tx))
                .await?;
                Statement::new(format!(
                    "UPDATE outbox_leases SET leased_by = ?, lease_until = {DATABASE_NOW} + ? \
                     WHERE audience IN (SELECT audience FROM outbox_leases \
                         WHERE (leased_by = ? OR lease_until <= {DATABASE_NOW}) \
                         AND audience IN (SELECT audience FROM outbox WHERE {UNDELIVERED}) \
                         ORDER BY audience FOR UPDATE SKIP LOCKED)"
                ))
                .text(&*self.owner)
                .int(self.lease.num_milliseconds())
                .text(&*self.owner)
                .execute(Connection::Postgres(&mut tx))
                .await?;
                tx.commit().await?;
                self.fetch_all(
                    Statement::new(format!(
                        "SELECT o.audience FROM {HEADS} WHERE (? IS NULL OR o.next_attempt <= ?) \
                         AND o.audience IN (SELECT audience FROM outbox_leases WHERE leased_by = ?) \
                         ORDER BY o.id"
                    ))
                    .int(due)
                    .int(due)
                    .text(&*self.owner),
                )
                .await?
            }
            Pool::Sqlite(_) => {
                self.fetch_all(
                    Statement::new(format!(
                        "SELECT o.audience FROM {HEADS} WHERE (? IS NULL OR o.next_attempt <= ?) ORDER BY o.id"
                    ))
                    .int(due)
                    .int(due),
                )
                .await?
            }
        };
        rows.iter()
            .map(|row| {
                serde_json::from_str(row.text(0)?).map_err(|error| StoreError::Corrupt {
                    what: "an outbox audience".to_string(),
                    reason: error.to_string(),
                })
            })
            .collect()
    }

    /// Up to `limit` undelivered posts of `audience`, oldest first.
    pub async fn undelivered_of(
        &self,
        audience: &Audience,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let audience = serde_json::to_string(audience).unwrap_or_default();
        let rows = self
            .fetch_all(
                Statement::new(format!(
                    "SELECT {COLUMNS} FROM {ROWS} WHERE o.audience = ? AND {UNDELIVERED_ROWS} \
                     ORDER BY o.id LIMIT ?"
                ))
                .text(audience.as_str())
                .int(limit),
            )
            .await?;
        read_rows(&rows)
    }

    /// Renews this process's lease on `audience` before one of its posts goes out: `false`
    /// when another process has taken the lease over (its posts are then that process's to
    /// send). Always `true` on SQLite.
    pub async fn renew_lease(&self, audience: &Audience) -> Result<bool, StoreError> {
        if !matches!(self.pool, Pool::Postgres(_)) {
            return Ok(true);
        }
        let audience = serde_json::to_string(audience).unwrap_or_default();
        let renewed = self
            .execute(
                Statement::new(format!(
                    "UPDATE outbox_leases SET lease_until = {DATABASE_NOW} + ? \
                     WHERE audience = ? AND leased_by = ?"
                ))
                .int(self.lease.num_milliseconds())
                .text(audience.as_str())
                .text(&*self.owner),
            )
            .await?;
        Ok(renewed == 1)
    }

    /// Gives up every lease this process holds (at shutdown), so another process takes its
    /// audiences over at once rather than when the leases run out.
    pub async fn release_leases(&self) -> Result<(), StoreError> {
        if matches!(self.pool, Pool::Postgres(_)) {
            self.execute(
                Statement::new(
                    "UPDATE outbox_leases SET leased_by = '', lease_until = 0 WHERE leased_by = ?",
                )
                .text(&*self.owner),
            )
            .await?;
        }
        Ok(())
    }

    /// Hands posts kept back by [`super::Tx::hold_posts`] to the deliverers at once (their
    /// caller answered them, or could not): those not delivered become due `now`.
    pub async fn unhold_posts(&self, ids: &[i64], now: DateTime<Utc>) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut statement = Statement::new("UPDATE outbox SET next_attempt = ");
        statement.bind(Value::Int(Some(millis(now))));
        statement.push(&format!(" WHERE {UNDELIVERED} AND id IN "));
        statement.push_list(ids.iter().map(|id| Value::Int(Some(*id))));
        self.execute(statement).await?;
        Ok(())
    }
}
