//! Opening a SQLite database: WAL, foreign keys, a busy timeout, one connection, and the
//! migrations; or an existing file read-only. Errors about the file are said in one sentence.

use super::{migrations, StoreError, StoreSettings};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::str::FromStr;

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

/// Whether the file at `path` begins as every SQLite database does: one SQLite calls "not a
/// database" is then a damaged one, not a stranger.
fn looks_like_sqlite(path: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut header))
        .is_ok_and(|()| &header == b"SQLite format 3\0")
}

/// An error opening or first reading the file, in one sentence: a damaged database (SQLite
/// finds it malformed, or no database behind a database's header) is told from a file that
/// is no database at all.
fn opening(path: &Path, error: sqlx::Error) -> StoreError {
    let shown = path.display().to_string();
    let code = error.as_database_error().and_then(|e| e.code());
    match code.as_deref() {
        // SQLITE_CORRUPT
        Some("11") => StoreError::Damaged(format!("the database {shown}")),
        // SQLITE_NOTADB
        Some("26") if looks_like_sqlite(path) => {
            StoreError::Damaged(format!("the database {shown}"))
        }
        Some("26") => StoreError::Foreign(shown),
        // SQLITE_READONLY, SQLITE_CANTOPEN
        Some("8") | Some("14") => StoreError::ReadOnly(shown),
        _ => StoreError::from(error),
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

/// Opens the database (creating it if missing when `create`, else refusing a missing file)
/// and applies the migrations. Processes opening one file at the same moment take turns (an
/// exclusive lock on its folder while the journal mode is set and the migrations run), so a
/// new database is migrated once.
pub(super) async fn open(settings: &StoreSettings, create: bool) -> Result<SqlitePool, StoreError> {
    let synchronous = match settings.synchronous.to_ascii_lowercase().as_str() {
        "normal" => SqliteSynchronous::Normal,
        "off" => SqliteSynchronous::Off,
        "extra" => SqliteSynchronous::Extra,
        _ => SqliteSynchronous::Full,
    };
    let options = SqliteConnectOptions::from_str(&settings.url)?
        .create_if_missing(create)
        .journal_mode(SqliteJournalMode::Wal)
        .foreign_keys(true)
        .busy_timeout(settings.busy_timeout)
        .synchronous(synchronous);
    let path = options.get_filename().to_path_buf();
    let in_memory = settings.url.contains(":memory:");
    if !create && !in_memory && !path.is_file() {
        return Err(StoreError::Missing(path.display().to_string()));
    }
    let _turn = if in_memory {
        None
    } else {
        Some(take_turn(&path)?)
    };
    // One connection: every write is serialised anyway, and an in-memory database lives
    // only as long as its connection. No idle timeout nor lifetime, so sqlx runs no reaper
    // task: sqlx 0.8's reaper can read an underflowed idle count and spin a core for good
    // (sqlx issue 3645; a `referee backup` hung at exit that way).
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(options)
        .await
        .map_err(|error| opening(&path, error))?;
    migrations::run_sqlite(&pool)
        .await
        .map_err(|error| migrating(&path, error))?;
    Ok(pool)
}

/// Opens an existing database for reading only: nothing is created, migrated or written.
/// Where SQLite cannot even create its shared memory file beside the database (a read-only
/// folder), the file is read as immutable.
pub(super) async fn open_read_only(settings: &StoreSettings) -> Result<SqlitePool, StoreError> {
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
    match read_only_pool(options.clone()).await {
        Ok(Some(pool)) => Ok(pool),
        Ok(None) => Err(StoreError::Foreign(path.display().to_string())),
        Err(error @ sqlx::Error::Database(_)) => match opening(&path, error) {
            damaged @ (StoreError::Damaged(_) | StoreError::Foreign(_)) => Err(damaged),
            // No shared memory file beside it (a read-only folder): read it as immutable.
            _ => match read_only_pool(options.immutable(true)).await {
                Ok(Some(pool)) => Ok(pool),
                Ok(None) => Err(StoreError::Foreign(path.display().to_string())),
                Err(error) => Err(opening(&path, error)),
            },
        },
        Err(error) => Err(StoreError::from(error)),
    }
}

/// A one-connection pool on `options`, or `None` when the file has no referee tables.
async fn read_only_pool(options: SqliteConnectOptions) -> Result<Option<SqlitePool>, sqlx::Error> {
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(options)
        .await?;
    let tables: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('games', 'inputs', 'events')",
    )
    .fetch_one(&pool)
    .await?;
    if tables == 3 {
        Ok(Some(pool))
    } else {
        pool.close().await;
        Ok(None)
    }
}
