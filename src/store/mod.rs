//! sqlx over SQLite: the only place that speaks SQL. WAL, foreign keys, a busy timeout,
//! migrations applied at start-up, and one write transaction per inbound message.

mod log;
mod migrations;
mod outbox;
mod tx;

pub use log::{StoredEvent, StoredInput};
pub use outbox::OutboxRow;
pub use tx::{GameChange, GameRow, OutboxPost, Tx, UserGames};

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;

/// What went wrong in the store.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration could not be applied.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored row does not read back.
    #[error("stored {what} is unreadable: {reason}")]
    Corrupt {
        /// Which row.
        what: String,
        /// Why.
        reason: String,
    },
}

/// How the database is opened.
#[derive(Clone, Debug)]
pub struct StoreSettings {
    /// `sqlite://path/to/file.db` or `sqlite::memory:`.
    pub url: String,
    /// How long a writer waits for a lock before failing.
    pub busy_timeout: Duration,
    /// SQLite's `synchronous` setting: `full` (no committed order lost on power loss) or `normal`.
    pub synchronous: String,
}

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
}

impl Store {
    /// Opens (creating if missing) the database and applies the migrations.
    pub async fn open(settings: &StoreSettings) -> Result<Store, StoreError> {
        let synchronous = match settings.synchronous.to_ascii_lowercase().as_str() {
            "normal" => SqliteSynchronous::Normal,
            "off" => SqliteSynchronous::Off,
            "extra" => SqliteSynchronous::Extra,
            _ => SqliteSynchronous::Full,
        };
        let options = SqliteConnectOptions::from_str(&settings.url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .foreign_keys(true)
            .busy_timeout(settings.busy_timeout)
            .synchronous(synchronous);
        // One connection: every write is serialised anyway, and an in-memory database lives
        // only as long as its connection.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        migrations::run(&pool).await?;
        Ok(Store { pool })
    }

    /// Begins a write transaction (`BEGIN IMMEDIATE`, so it never fails half-way on a lock).
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        Ok(Tx::new(self.pool.begin_with("BEGIN IMMEDIATE").await?))
    }

    /// The pool, for the benchmark's bare-transaction ceiling.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Closes the database cleanly.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}
