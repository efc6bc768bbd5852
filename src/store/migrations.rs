//! The migrations in `migrations/`, embedded in the binary so it runs anywhere.

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::SqlitePool;
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
];

#[derive(Debug)]
struct Embedded;

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async {
            Ok(MIGRATIONS
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

/// Applies every migration not yet applied.
pub async fn run(pool: &SqlitePool) -> Result<(), sqlx::migrate::MigrateError> {
    Migrator::new(Embedded).await?.run(pool).await
}
