//! Opening a PostgreSQL database: one connection first, so that a server that cannot be
//! reached or will not let the bot in is said in one sentence at once (the pool would retry
//! for half a minute), then the pool and the migrations (sqlx takes an advisory lock for
//! them, so processes starting together migrate once); or an existing database read-only.

use super::{migrations, StoreError, StoreSettings};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Connection, PgPool};
use std::str::FromStr;
use std::time::Duration;

/// Connections per process: one writer (the table's turn) and a few readers (delivery,
/// interactions).
const CONNECTIONS: u32 = 8;
/// How long the first connection may take before the server counts as unreachable.
const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// Where the URL points, as said in errors: host, port and database, never the password.
fn server(options: &PgConnectOptions) -> String {
    format!(
        "{}:{}/{}",
        options.get_host(),
        options.get_port(),
        options.get_database().unwrap_or(options.get_username())
    )
}

/// The settings' URL as connection options, or why it cannot be read (without echoing it:
/// it may hold a password).
fn options(settings: &StoreSettings) -> Result<PgConnectOptions, StoreError> {
    let options = PgConnectOptions::from_str(&settings.url)
        .map_err(|_| StoreError::Url("an unreadable postgres:// address".to_string()))?;
    Ok(options.application_name("referee"))
}

/// The first connection's failure, in one sentence.
fn refused(server: String, error: sqlx::Error) -> StoreError {
    match error {
        sqlx::Error::Io(error) => StoreError::Unreachable {
            server,
            reason: match error.kind() {
                std::io::ErrorKind::ConnectionRefused => "connection refused".to_string(),
                _ => error.to_string(),
            },
        },
        sqlx::Error::Database(error) => {
            let reason = match error.code().as_deref() {
                // invalid_catalog_name
                Some("3D000") => format!("{}; create it first (createdb)", error.message()),
                _ => error.message().to_string(),
            };
            StoreError::Refused { server, reason }
        }
        other => StoreError::Refused {
            server,
            reason: other.to_string(),
        },
    }
}

/// Checks that the server can be reached and lets the bot in, with one connection.
async fn check(options: &PgConnectOptions) -> Result<(), StoreError> {
    let shown = server(options);
    match tokio::time::timeout(CONNECT_WAIT, options.connect()).await {
        Err(_) => Err(StoreError::Unreachable {
            server: shown,
            reason: format!("no answer in {} s", CONNECT_WAIT.as_secs()),
        }),
        Ok(Err(error)) => Err(refused(shown, error)),
        Ok(Ok(connection)) => {
            let _ = connection.close().await;
            Ok(())
        }
    }
}

/// An error migrating, in one sentence: a database holding other tables of the same names,
/// or one written by a newer version.
fn migrating(server: String, error: sqlx::migrate::MigrateError) -> StoreError {
    use sqlx::migrate::MigrateError;
    match error {
        MigrateError::VersionMissing(_) => StoreError::Newer(server),
        MigrateError::ExecuteMigration(sqlx::Error::Database(e), _)
            if e.message().contains("already exists") =>
        {
            StoreError::Foreign(server)
        }
        other => StoreError::Migrate(other),
    }
}

/// A pool of at most `connections` connections to the database `options` name, once the
/// server answers.
async fn connect(options: &PgConnectOptions, connections: u32) -> Result<PgPool, StoreError> {
    check(options).await?;
    PgPoolOptions::new()
        .max_connections(connections)
        .acquire_timeout(CONNECT_WAIT)
        // No reaper task (see `sqlite::open`): connections live as long as the pool.
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(options.clone())
        .await
        .map_err(|error| refused(server(options), error))
}

/// Connects to the database (which must exist) and applies the migrations.
pub(super) async fn open(settings: &StoreSettings) -> Result<PgPool, StoreError> {
    let options = options(settings)?;
    let pool = connect(&options, CONNECTIONS).await?;
    migrations::run_postgres(&pool)
        .await
        .map_err(|error| migrating(server(&options), error))?;
    Ok(pool)
}

/// Connects to an existing referee database in read-only transactions: nothing is created,
/// migrated or written.
pub(super) async fn open_read_only(settings: &StoreSettings) -> Result<PgPool, StoreError> {
    let options = options(settings)?.options([("default_transaction_read_only", "on")]);
    let pool = connect(&options, 2).await?;
    let tables: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM information_schema.tables \
         WHERE table_schema = current_schema() AND table_name IN ('games', 'inputs', 'events')",
    )
    .fetch_one(&pool)
    .await?;
    if tables == 3 {
        Ok(pool)
    } else {
        pool.close().await;
        Err(StoreError::Foreign(server(&options)))
    }
}
