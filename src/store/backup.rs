//! What a backup needs of the store: a consistent copy of a live SQLite database, SQLite's
//! own check of a file, and the games it holds. (PostgreSQL has `pg_dump` for this.)

use super::sql::Statement;
use super::{Pool, Store, StoreError};
use std::path::Path;

impl Store {
    /// Writes a consistent copy of this SQLite database to `to` with `VACUUM INTO`: one
    /// snapshot, read while the bot goes on writing, compacted. `to` must not exist yet.
    pub async fn copy_into(&self, to: &Path) -> Result<(), StoreError> {
        match &self.pool {
            Pool::Sqlite(pool) => {
                sqlx::query("VACUUM INTO ?")
                    .bind(to.display().to_string())
                    .execute(pool)
                    .await?;
                Ok(())
            }
            Pool::Postgres(_) => Err(StoreError::NoBackup),
        }
    }

    /// SQLite's `PRAGMA integrity_check` of the database: `None` when it finds nothing wrong,
    /// else what it found, in its words.
    pub async fn integrity_problems(&self) -> Result<Option<String>, StoreError> {
        match &self.pool {
            Pool::Sqlite(pool) => {
                let found: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
                    .fetch_all(pool)
                    .await?;
                Ok((found != ["ok"]).then(|| found.join("; ")))
            }
            Pool::Postgres(_) => Ok(None),
        }
    }

    /// The numbers of every game the database holds, oldest first.
    pub async fn game_ids(&self) -> Result<Vec<i64>, StoreError> {
        self.fetch_all(Statement::new("SELECT id FROM games ORDER BY id"))
            .await?
            .iter()
            .map(|row| row.int(0))
            .collect()
    }
}
