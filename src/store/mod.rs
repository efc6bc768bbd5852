//! sqlx over SQLite (the default: one process on one file) or PostgreSQL (several processes
//! sharing one database), chosen by the scheme of `database.url`: the only place that speaks
//! SQL. Migrations are applied at start-up, and one write transaction serves each batch of
//! inbound messages (a savepoint each). The table sees one API whichever database is behind
//! it; on PostgreSQL the same API holds across processes: a game read for a write is locked
//! until the commit, a due deadline is claimed by one process, and each audience's posts are
//! leased to one process at a time (`lease`).

mod backup;
mod health;
mod history;
mod lease;
mod log;
mod migrations;
mod outbox;
mod postgres;
mod ratings;
mod savepoint;
mod sql;
mod sqlite;
mod tx;
mod write;

pub use health::Backlog;
pub use history::{Tie, Watched};
pub use log::{GameLog, StoredEvent, StoredInput};
pub use outbox::{Delivered, OutboxRow, DMS_CLOSED};
pub use ratings::RatingRow;
pub use sql::Dialect;
pub use tx::{GameRow, Tx, UserGames};
pub use write::{GameChange, OutboxPost};

use rand_core::{OsRng, RngCore};
use sql::{Connection, Row, Statement};
use sqlx::pool::PoolConnection;
use sqlx::{PgPool, Postgres, Sqlite, SqlitePool};
use std::sync::Arc;
use std::time::Duration;
use thiserror::Error;

/// What went wrong in the store.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The database refused or failed: one sentence, in words of its own for the faults an
    /// operator meets (a full disk, a lock held too long, a file that cannot be written).
    #[error("{}", fault(.0, "the database"))]
    Database(sqlx::Error),
    /// A database failure of the file named (see [`StoreError::naming`]).
    #[error("{}", fault(.error, &format!("the database {}", .file)))]
    InFile {
        /// The database file.
        file: String,
        /// What failed.
        error: sqlx::Error,
    },
    /// A migration could not be applied.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// `database.url` names neither database this program speaks.
    #[error("database.url takes sqlite://FILE, sqlite::memory: or postgres://USER@HOST/DATABASE; got '{0}'")]
    Url(String),
    /// The PostgreSQL server could not be reached.
    #[error("cannot reach the PostgreSQL server at {server}: {reason}")]
    Unreachable {
        /// Where it was looked for (host, port and database; never the password).
        server: String,
        /// Why (connection refused, no such host, timed out, ...).
        reason: String,
    },
    /// The PostgreSQL server answered but would not let the bot in.
    #[error("the PostgreSQL server at {server} refused the bot: {reason}")]
    Refused {
        /// Where (host, port and database).
        server: String,
        /// What the server said.
        reason: String,
    },
    /// The folder the database file would be in does not exist.
    #[error("the folder {0} does not exist; create it or give another path for the database")]
    NoFolder(String),
    /// The database file cannot be written.
    #[error(
        "the database {0} is read-only; the bot needs to write to it (replay and export only read)"
    )]
    ReadOnly(String),
    /// The database was written by a newer version of this program.
    #[error("the database {0} was written by a newer version of referee; run that version")]
    Newer(String),
    /// A command that works on an existing database (`replay`, `export`, `backup`,
    /// `ratings --rebuild`) was pointed at a file that does not exist.
    #[error("there is no database at {0}")]
    Missing(String),
    /// The file exists but cannot be read.
    #[error("cannot read {path}: {reason}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why (permission denied, ...).
        reason: String,
    },
    /// The file is not a database this program wrote.
    #[error("{0} is not a referee database")]
    Foreign(String),
    /// The file is a SQLite database that SQLite finds damaged (a truncated copy, a bad disk):
    /// "the database FILE", or "the database" when it is found in use.
    #[error("{0} is damaged (SQLite finds it malformed); restore it from a backup")]
    Damaged(String),
    /// The group commit this message shared with others failed as a whole: nothing of the
    /// batch was written, so every message of it may be sent again.
    #[error("database error: the messages committed together failed: {0}")]
    Batch(String),
    /// `referee backup` was pointed at a PostgreSQL database, which `pg_dump` backs up.
    #[error("a PostgreSQL database is backed up with pg_dump, not by the bot: pg_dump --format=custom --file=referee.dump DATABASE_URL (README.md, Backups)")]
    NoBackup,
    /// A stored row does not read back.
    #[error("stored {what} is unreadable: {reason}")]
    Corrupt {
        /// Which row.
        what: String,
        /// Why.
        reason: String,
    },
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        // SQLITE_CORRUPT: said as a damaged file, not as one more database error.
        match error.as_database_error().and_then(|e| e.code()).as_deref() {
            Some("11") => StoreError::Damaged("the database".to_string()),
            _ => StoreError::Database(error),
        }
    }
}

/// SQLite's primary result code of a failure SQLite reported (the low byte of an extended
/// one); `None` for PostgreSQL's and for failures that are not the database's answer.
fn sqlite_code(error: &sqlx::Error) -> Option<u32> {
    let error = error.as_database_error()?;
    if error
        .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
        .is_some()
    {
        return None;
    }
    Some(error.code()?.parse::<u32>().ok()? & 0xff)
}

/// A database failure in one sentence about `subject` ("the database", or the database
/// named): the faults an operator can act on in words of their own, anything else as
/// "database error:" and the database's words.
fn fault(error: &sqlx::Error, subject: &str) -> String {
    match sqlite_code(error) {
        Some(13) => format!("the disk holding {subject} is full; free some room, then try again (what failed was not written)"),
        Some(5 | 6) => format!("{subject} is locked by another program for longer than database.busy_timeout; try again once it lets go"),
        Some(10) => format!("the disk failed to read or write {subject} (an I/O error); check the disk, then try again"),
        Some(8) => format!("{subject} is read-only; the bot needs to write to it"),
        Some(14) => format!("{subject} cannot be opened; check that its folder exists and may be written"),
        _ => match error {
            sqlx::Error::PoolTimedOut => format!("{subject} did not answer in time"),
            other => format!("database error: {other}"),
        },
    }
}

impl StoreError {
    /// The same failure naming the database file it happened in, for the program's edge
    /// where the file is known (`referee local`): other errors are left as they are.
    pub fn naming(self, file: &std::path::Path) -> StoreError {
        match self {
            StoreError::Database(error) => StoreError::InFile {
                file: file.display().to_string(),
                error,
            },
            other => other,
        }
    }

    /// Whether the disk holding the database (or a copy being written) is full.
    pub fn is_disk_full(&self) -> bool {
        let (StoreError::Database(error) | StoreError::InFile { error, .. }) = self else {
            return false;
        };
        let postgres_full = error
            .as_database_error()
            .and_then(|error| error.try_downcast_ref::<sqlx::postgres::PgDatabaseError>())
            .is_some_and(|error| error.code() == "53100");
        postgres_full || sqlite_code(error) == Some(13)
    }

    /// Whether the transaction lost a race with another process on the same database (a
    /// deadlock PostgreSQL broke by failing this side): nothing of it was kept, and the
    /// same work tried again in a new transaction goes through.
    pub fn is_conflict(&self) -> bool {
        let StoreError::Database(sqlx::Error::Database(error)) = self else {
            return false;
        };
        // deadlock_detected, serialization_failure
        matches!(error.code().as_deref(), Some("40P01") | Some("40001"))
    }

    /// Whether the database failed for a passing reason, so the same work tried again later
    /// may go through: the connection or the server went away, it ran out of room, memory
    /// or connections, a lock was held too long, a transaction lost a race, a statement was
    /// cancelled; SQLite busy, locked, full or failing to read or write its file. Any other
    /// failure (a constraint, a row that cannot be read) may well repeat.
    pub fn is_transient(&self) -> bool {
        let StoreError::Database(failure) = self else {
            return false;
        };
        match failure {
            sqlx::Error::Io(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => true,
            sqlx::Error::Database(error) => {
                let code = error.code().unwrap_or_default();
                match error.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
                    // PostgreSQL's classes: connection exception, insufficient resources,
                    // operator intervention, transaction rollback; lock not available,
                    // query canceled.
                    Some(_) => {
                        ["08", "53", "57P", "40"]
                            .iter()
                            .any(|class| code.starts_with(class))
                            || matches!(code.as_ref(), "55P03" | "57014")
                    }
                    // SQLite's BUSY, LOCKED, NOMEM, IOERR, FULL, CANTOPEN.
                    None => matches!(sqlite_code(failure), Some(5 | 6 | 7 | 10 | 13 | 14)),
                }
            }
            _ => false,
        }
    }
}

/// How the database is opened.
#[derive(Clone, Debug)]
pub struct StoreSettings {
    /// `sqlite://path/to/file.db`, `sqlite::memory:` or `postgres://user@host/database`.
    pub url: String,
    /// SQLite: how long a writer waits for a lock before failing.
    pub busy_timeout: Duration,
    /// SQLite's `synchronous` setting: `full` (no committed order lost on power loss) or `normal`.
    pub synchronous: String,
    /// How long a delivered post keeps its picture or file.
    pub keep_pictures: chrono::Duration,
    /// How long the id of an applied message is kept (each channel's last stays, for
    /// catch-up): past it the platform delivers the message no more.
    pub keep_message_ids: chrono::Duration,
    /// PostgreSQL: how long a process's claim on an audience's posts lasts unrenewed; after
    /// that, another process takes over the posts of one that died.
    pub lease: chrono::Duration,
}

/// What [`Store::prune`] dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruned {
    /// Posts that lost their picture or file.
    pub pictures: u64,
    /// Message ids forgotten.
    pub message_ids: u64,
}

/// The connection pool behind a store, for the benchmark and tests that measure or inspect
/// the database itself.
#[derive(Clone, Debug)]
pub enum Pool {
    /// SQLite: one connection (every write is serialised anyway).
    Sqlite(SqlitePool),
    /// PostgreSQL: a few connections.
    Postgres(PgPool),
}

/// One connection taken from the pool.
enum Pooled {
    Sqlite(PoolConnection<Sqlite>),
    Postgres(PoolConnection<Postgres>),
}

impl Pooled {
    fn connection(&mut self) -> Connection<'_> {
        match self {
            Pooled::Sqlite(connection) => Connection::Sqlite(connection),
            Pooled::Postgres(connection) => Connection::Postgres(connection),
        }
    }
}

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: Pool,
    keep_pictures: chrono::Duration,
    keep_message_ids: chrono::Duration,
    lease: chrono::Duration,
    /// This process's name in the leases it takes: its process id and a random part.
    owner: Arc<str>,
}

/// The SQLite file `url` names (`None`: an in-memory database, or not SQLite), to name in
/// what an operator reads.
pub fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    if dialect_of(url).ok()? != Dialect::Sqlite || url.contains(":memory:") {
        return None;
    }
    let options = <sqlx::sqlite::SqliteConnectOptions as std::str::FromStr>::from_str(url).ok()?;
    Some(options.get_filename().to_path_buf())
}

/// Which database a URL names, or why it names none.
fn dialect_of(url: &str) -> Result<Dialect, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(Dialect::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Dialect::Postgres)
    } else {
        // Only the scheme: the rest may hold a password.
        let shown: String = url
            .split("://")
            .next()
            .unwrap_or_default()
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect();
        Err(StoreError::Url(format!("{shown}://...")))
    }
}

impl Store {
    /// Opens (creating if missing) the database and applies the migrations. Processes
    /// opening one database at the same moment take turns, so a new database is migrated once.
    pub async fn open(settings: &StoreSettings) -> Result<Store, StoreError> {
        Store::open_creating(settings, true).await
    }

    /// Opens an existing database to write to it (`referee ratings --rebuild`), applying the
    /// migrations: a SQLite file that does not exist is refused, never created, so a
    /// mistyped path says so instead of working on an empty database.
    pub async fn open_existing(settings: &StoreSettings) -> Result<Store, StoreError> {
        Store::open_creating(settings, false).await
    }

    async fn open_creating(settings: &StoreSettings, create: bool) -> Result<Store, StoreError> {
        let pool = match dialect_of(&settings.url)? {
            Dialect::Sqlite => Pool::Sqlite(sqlite::open(settings, create).await?),
            Dialect::Postgres => Pool::Postgres(postgres::open(settings).await?),
        };
        Ok(Store::over(pool, settings))
    }

    /// Opens an existing database for reading only (replay, export, the audit page): nothing
    /// is created, migrated or written, so a backup on read-only media can be checked and a
    /// mistyped path leaves no empty file behind.
    pub async fn open_read_only(settings: &StoreSettings) -> Result<Store, StoreError> {
        let pool = match dialect_of(&settings.url)? {
            Dialect::Sqlite => Pool::Sqlite(sqlite::open_read_only(settings).await?),
            Dialect::Postgres => Pool::Postgres(postgres::open_read_only(settings).await?),
        };
        Ok(Store::over(pool, settings))
    }

    fn over(pool: Pool, settings: &StoreSettings) -> Store {
        Store {
            pool,
            keep_pictures: settings.keep_pictures,
            keep_message_ids: settings.keep_message_ids,
            lease: settings.lease,
            owner: format!("{}-{:08x}", std::process::id(), OsRng.next_u32()).into(),
        }
    }

    /// Which database this is.
    pub fn dialect(&self) -> Dialect {
        match self.pool {
            Pool::Sqlite(_) => Dialect::Sqlite,
            Pool::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Begins a write transaction: on SQLite `BEGIN IMMEDIATE` (so it never fails half-way
    /// on a lock), on PostgreSQL a read-committed transaction whose reads of games lock them.
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        Ok(match &self.pool {
            Pool::Sqlite(pool) => Tx::sqlite(pool.begin_with("BEGIN IMMEDIATE").await?, self.lease),
            Pool::Postgres(pool) => Tx::postgres(pool.begin().await?, self.lease),
        })
    }

    /// The pool, for the benchmark's bare-transaction ceiling and tests that look inside.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    async fn acquire(&self) -> Result<Pooled, StoreError> {
        Ok(match &self.pool {
            Pool::Sqlite(pool) => Pooled::Sqlite(pool.acquire().await?),
            Pool::Postgres(pool) => Pooled::Postgres(pool.acquire().await?),
        })
    }

    /// Runs one statement on a pooled connection; returns how many rows it changed.
    async fn execute(&self, statement: Statement<'_>) -> Result<u64, StoreError> {
        let mut connection = self.acquire().await?;
        Ok(statement.execute(connection.connection()).await?)
    }

    /// Runs one statement on a pooled connection and reads its rows.
    async fn fetch_all(&self, statement: Statement<'_>) -> Result<Vec<Row>, StoreError> {
        let mut connection = self.acquire().await?;
        Ok(statement.fetch_all(connection.connection()).await?)
    }

    /// Runs one statement on a pooled connection and reads its first row, if any.
    async fn fetch_optional(&self, statement: Statement<'_>) -> Result<Option<Row>, StoreError> {
        let mut connection = self.acquire().await?;
        Ok(statement.fetch_optional(connection.connection()).await?)
    }

    /// Runs one statement on a pooled connection and reads the number its first row begins
    /// with (`None`: no row, or no number).
    async fn fetch_number(&self, statement: Statement<'_>) -> Result<Option<i64>, StoreError> {
        match self.fetch_optional(statement).await? {
            Some(row) => row.opt_int(0),
            None => Ok(None),
        }
    }

    /// Drops what the database no longer needs: the pictures and files of posts delivered
    /// longer ago than `database.keep_pictures`, and the ids of messages applied longer ago
    /// than `database.keep_message_ids` (each channel's last stays: catch-up reads on from
    /// it). Returns how many of each went.
    pub async fn prune(&self, now: chrono::DateTime<chrono::Utc>) -> Result<Pruned, StoreError> {
        let pictures = match now.checked_sub_signed(self.keep_pictures) {
            Some(before) => self.forget_files(before).await?,
            None => 0,
        };
        let message_ids = match now.checked_sub_signed(self.keep_message_ids) {
            Some(before) => self.forget_message_ids(before).await?,
            None => 0,
        };
        Ok(Pruned {
            pictures,
            message_ids,
        })
    }

    /// Closes the database cleanly. On SQLite the write-ahead log is first copied into the
    /// database file and emptied, so the file alone holds every game once the process ends
    /// (a copy of it is a whole backup) even when the last connection's own checkpoint
    /// does not get to run.
    pub async fn close(&self) {
        match &self.pool {
            Pool::Sqlite(pool) => {
                // A read-only database refuses this, and has nothing to write back anyway.
                let _ = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                    .execute(pool)
                    .await;
                pool.close().await
            }
            Pool::Postgres(pool) => pool.close().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_of_another_database_is_refused_without_echoing_it(
    ) -> Result<(), Box<dyn std::error::Error>> {
        assert_eq!(dialect_of("sqlite://referee.db")?, Dialect::Sqlite);
        assert_eq!(dialect_of("sqlite::memory:")?, Dialect::Sqlite);
        assert_eq!(dialect_of("postgres://bot@db/referee")?, Dialect::Postgres);
        let refused = dialect_of("mysql://root:secret@db/referee").unwrap_err();
        assert_eq!(
            refused.to_string(),
            "database.url takes sqlite://FILE, sqlite::memory: or postgres://USER@HOST/DATABASE; got 'mysql://...'"
        );
        Ok(())
    }
}
