//! The migrations, embedded in the binary so it runs anywhere: SQLite's in `migrations/`,
//! PostgreSQL's in `migrations/postgres/` (the same tables in that dialect, numbered on their
//! own).

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::{PgPool, SqlitePool};
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "tables",
        include_str!("../../migrations/0001_tables.sql"),
    ),
    (
        2,
        "outbox cards",
        include_str!("../../migrations/0002_outbox_cards.sql"),
    ),
    (
        3,
        "games gm",
        include_str!("../../migrations/0003_games_gm.sql"),
    ),
    (
        4,
        "inbound channels",
        include_str!("../../migrations/0004_inbound_channels.sql"),
    ),
    (
        5,
        "outbox files",
        include_str!("../../migrations/0005_outbox_files.sql"),
    ),
    (
        6,
        "inputs undone",
        include_str!("../../migrations/0006_inputs_undone.sql"),
    ),
    (
        7,
        "inputs sent",
        include_str!("../../migrations/0007_inputs_sent.sql"),
    ),
    (
        8,
        "outbox lanes",
        include_str!("../../migrations/0008_outbox_lanes.sql"),
    ),
    (
        9,
        "games searching",
        include_str!("../../migrations/0009_games_searching.sql"),
    ),
    (
        10,
        "outbox files",
        include_str!("../../migrations/0010_outbox_files.sql"),
    ),
    (
        11,
        "games channel",
        include_str!("../../migrations/0011_games_channel.sql"),
    ),
    (
        12,
        "health checks",
        include_str!("../../migrations/0012_health_checks.sql"),
    ),
    (
        13,
        "ratings",
        include_str!("../../migrations/0013_ratings.sql"),
    ),
    (
        14,
        "order threads",
        include_str!("../../migrations/0014_order_threads.sql"),
    ),
    (
        15,
        "posted",
        include_str!("../../migrations/0015_posted.sql"),
    ),
];

/// PostgreSQL's migrations.
const POSTGRES: &[(i64, &str, &str)] = &[
    (
        1,
        "tables",
        include_str!("../../migrations/postgres/0001_tables.sql"),
    ),
    (
        2,
        "inputs sent",
        include_str!("../../migrations/postgres/0002_inputs_sent.sql"),
    ),
    (
        3,
        "games searching",
        include_str!("../../migrations/postgres/0003_games_searching.sql"),
    ),
    (
        4,
        "outbox files",
        include_str!("../../migrations/postgres/0004_outbox_files.sql"),
    ),
    (
        5,
        "games channel",
        include_str!("../../migrations/postgres/0005_games_channel.sql"),
    ),
    (
        6,
        "health checks",
        include_str!("../../migrations/postgres/0006_health_checks.sql"),
    ),
    (
        7,
        "ratings",
        include_str!("../../migrations/postgres/0007_ratings.sql"),
    ),
    (
        8,
        "order threads",
        include_str!("../../migrations/postgres/0008_order_threads.sql"),
    ),
    (
        9,
        "posted",
        include_str!("../../migrations/postgres/0009_posted.sql"),
    ),
];

/// One dialect's list of migrations.
#[derive(Debug)]
struct Embedded(&'static [(i64, &'static str, &'static str)]);

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        let list = self.0;
        Box::pin(async move {
            Ok(list
                .iter()
                .map(|(version, description, sql)| {
                    Migration::new(
                        *version,
                        Cow::Borrowed(*description),
                        MigrationType::Simple,
                        Cow::Borrowed(*sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// Applies every SQLite migration not yet applied.
pub async fn run_sqlite(pool: &SqlitePool) -> Result<(), sqlx::migrate::MigrateError> {
    Migrator::new(Embedded(MIGRATIONS)).await?.run(pool).await
}

/// Applies every PostgreSQL migration not yet applied (under sqlx's advisory lock, so
/// processes starting together apply each once).
pub async fn run_postgres(pool: &PgPool) -> Result<(), sqlx::migrate::MigrateError> {
    Migrator::new(Embedded(POSTGRES)).await?.run(pool).await
}
