//! sqlx over SQLite: the only place that speaks SQL. WAL, foreign keys, a busy timeout,
//! migrations applied at start-up, and one write transaction per batch of inbound messages
//! (a savepoint each).

mod history;
mod log;
mod migrations;
mod outbox;
mod tx;

pub use history::Watched;
pub use log::{StoredEvent, StoredInput};
pub use outbox::OutboxRow;
pub use tx::{GameChange, GameRow, OutboxPost, Tx, UserGames};

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
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
    /// `referee replay` or `export` was pointed at a file that does not exist.
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
    /// The group commit this message shared with others failed as a whole: nothing of the
    /// batch was written, so every message of it may be sent again.
    #[error("database error: the messages committed together failed: {0}")]
    Batch(String),
    /// A stored row does not read back.
    #[error("stored {what} is unreadable: {reason}")]
    Corrupt {
        /// Which row.
        what: String,
        /// Why.
        reason: String,
    },
}

/// Takes this process's turn at opening a database in the folder of `path`: an exclusive
/// lock on the folder (not on the file, whose locks are SQLite's), held until the returned
/// handle is dropped. A missing folder or a database file that cannot be written is said
/// plainly.
fn take_turn(path: &Path) -> Result<std::fs::File, StoreError> {
    let shown = path.display().to_string();
    let folder = match path.parent().filter(|f| !f.as_os_str().is_empty()) {
        Some(folder) => folder,
        None => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(StoreError::NoFolder(folder.display().to_string()));
    }
    let unreadable = |error: std::io::Error| StoreError::Unreadable {
        path: shown.clone(),
        reason: error.kind().to_string(),
    };
    if path.exists() {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|error| match error.kind() {
                std::io::ErrorKind::PermissionDenied => StoreError::ReadOnly(shown.clone()),
                _ => unreadable(error),
            })?;
    }
    let turn = std::fs::File::open(folder).map_err(unreadable)?;
    turn.lock().map_err(unreadable)?;
    Ok(turn)
}

/// An error opening the file, in one sentence.
fn opening(path: &Path, error: sqlx::Error) -> StoreError {
    let shown = path.display().to_string();
    match error.as_database_error().and_then(|e| e.code()).as_deref() {
        // SQLITE_NOTADB
        Some("26") => StoreError::Foreign(shown),
        // SQLITE_READONLY, SQLITE_CANTOPEN
        Some("8") | Some("14") => StoreError::ReadOnly(shown),
        _ => StoreError::Database(error),
    }
}

/// An error migrating the file, in one sentence: a file that is SQLite but not this program's
/// (its tables clash) or one written by a newer version.
fn migrating(path: &Path, error: sqlx::migrate::MigrateError) -> StoreError {
    let shown = path.display().to_string();
    use sqlx::migrate::MigrateError;
    match error {
        MigrateError::VersionMissing(_) => StoreError::Newer(shown),
        MigrateError::ExecuteMigration(sqlx::Error::Database(e), _)
            if e.message().contains("already exists") =>
        {
            StoreError::Foreign(shown)
        }
        MigrateError::Execute(error) | MigrateError::ExecuteMigration(error, _) => {
            opening(path, error)
        }
        other => StoreError::Migrate(other),
    }
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
    /// How long a delivered post keeps its picture or file.
    pub keep_pictures: chrono::Duration,
}

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
    keep_pictures: chrono::Duration,
}

impl Store {
    /// Opens (creating if missing) the database and applies the migrations. Processes
    /// opening one file at the same moment take turns (an exclusive lock on the file while
    /// the journal mode is set and the migrations run), so a new database is migrated once.
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
        let path = options.get_filename().to_path_buf();
        let in_memory = settings.url.contains(":memory:");
        let _turn = if in_memory {
            None
        } else {
            Some(take_turn(&path)?)
        };
        // One connection: every write is serialised anyway, and an in-memory database lives
        // only as long as its connection.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await
            .map_err(|error| opening(&path, error))?;
        migrations::run(&pool)
            .await
            .map_err(|error| migrating(&path, error))?;
        Ok(Store {
            pool,
            keep_pictures: settings.keep_pictures,
        })
    }

    /// Opens an existing database for reading only (replay, export, the audit page): nothing
    /// is created, migrated or written, so a backup on read-only media can be checked and a
    /// mistyped path leaves no empty file behind. Where SQLite cannot even create its shared
    /// memory file beside the database (a read-only folder), the file is read as immutable.
    pub async fn open_read_only(settings: &StoreSettings) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::from_str(&settings.url)?
            .read_only(true)
            .create_if_missing(false)
            .busy_timeout(settings.busy_timeout);
        let path = options.get_filename().to_path_buf();
        let in_memory = settings.url.contains(":memory:");
        if !in_memory && !path.is_file() {
            return Err(StoreError::Missing(path.display().to_string()));
        }
        if !in_memory {
            std::fs::File::open(&path).map_err(|error| StoreError::Unreadable {
                path: path.display().to_string(),
                reason: error.kind().to_string(),
            })?;
        }
        let opened = match Store::read_only_pool(options.clone()).await {
            Ok(pool) => Ok(pool),
            Err(_) => Store::read_only_pool(options.immutable(true)).await,
        };
        let pool = opened.map_err(|_| StoreError::Foreign(path.display().to_string()))?;
        Ok(Store {
            pool,
            keep_pictures: settings.keep_pictures,
        })
    }

    /// A one-connection pool on `options` that holds the referee tables.
    async fn read_only_pool(options: SqliteConnectOptions) -> Result<SqlitePool, sqlx::Error> {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await?;
        let tables: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('games', 'inputs', 'events')",
        )
        .fetch_one(&pool)
        .await?;
        if tables == 3 {
            Ok(pool)
        } else {
            pool.close().await;
            Err(sqlx::Error::RowNotFound)
        }
    }

    /// Begins a write transaction (`BEGIN IMMEDIATE`, so it never fails half-way on a lock).
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        Ok(Tx::new(self.pool.begin_with("BEGIN IMMEDIATE").await?))
    }

    /// The pool, for the benchmark's bare-transaction ceiling.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Drops the pictures and files of posts delivered longer ago than the retention setting
    /// (`database.keep_pictures`); returns how many posts lost theirs.
    pub async fn forget_old_pictures(
        &self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<u64, StoreError> {
        match now.checked_sub_signed(self.keep_pictures) {
            Some(before) => self.forget_files(before).await,
            None => Ok(0),
        }
    }

    /// Closes the database cleanly.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}
