//! Finished games' results and the players' ratings: written when a game ends (in the
//! transaction that ends it) and by `referee ratings --rebuild`, read by `!stats` and
//! `!leaderboard`.

use super::sql::{Dialect, Row, Statement, Value};
use super::tx::{millis, Tx};
use super::{Store, StoreError};
use crate::records::{GameResult, Rating};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

/// A player's rating in one game on one server, as kept.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The game's rules name.
    pub game: String,
    /// The player's id.
    pub player: String,
    /// The name they were last rated under.
    pub name: String,
    /// The rating.
    pub rating: Rating,
}

fn corrupt(what: &str, error: impl ToString) -> StoreError {
    StoreError::Corrupt {
        what: what.to_string(),
        reason: error.to_string(),
    }
}

/// A float kept exactly: its bits.
fn bits(value: f64) -> i64 {
    i64::from_ne_bytes(value.to_bits().to_ne_bytes())
}

fn float(bits: i64) -> f64 {
    f64::from_bits(u64::from_ne_bytes(bits.to_ne_bytes()))
}

fn read_result(row: &Row, at: usize) -> Result<GameResult, StoreError> {
    serde_json::from_str(row.text(at)?).map_err(|e| corrupt("a finished game's result", e))
}

fn read_rating(row: &Row) -> Result<RatingRow, StoreError> {
    Ok(RatingRow {
        game: row.text(0)?.to_string(),
        player: row.text(1)?.to_string(),
        name: row.text(2)?.to_string(),
        rating: Rating {
            mu: float(row.int(3)?),
            sigma: float(row.int(4)?),
            games: u32::try_from(row.int(5)?).unwrap_or_default(),
        },
    })
}

/// The lock that puts one server's ratings of one game in one writer's hands at a time
/// (PostgreSQL; SQLite has one writer anyway).
fn lock_key(server: &str, game: &str) -> i64 {
    let digest = Sha256::new()
        .chain_update(b"referee ratings\0")
        .chain_update(server.as_bytes())
        .chain_update(b"\0")
        .chain_update(game.as_bytes())
        .finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(first)
}

const RATING_COLUMNS: &str = "game, player, name, mu, sigma, games";

impl Tx {
    /// Keeps one server's ratings of one game for this transaction alone until it ends, so
    /// two processes never rate from the same old figures.
    pub async fn lock_ratings(&mut self, server: &str, game: &str) -> Result<(), StoreError> {
        if self.dialect() == Dialect::Postgres {
            Statement::new("SELECT pg_advisory_xact_lock(?)")
                .int(lock_key(server, game))
                .execute(self.connection())
                .await?;
        }
        Ok(())
    }

    /// Keeps a finished game's result (replacing one kept before for the same game).
    pub async fn put_result(&mut self, result: &GameResult) -> Result<(), StoreError> {
        let body = serde_json::to_string(result).map_err(|e| corrupt("a result", e))?;
        Statement::new("DELETE FROM results WHERE game_id = ?")
            .int(result.game_id)
            .execute(self.connection())
            .await?;
        Statement::new(
            "INSERT INTO results (game_id, server, game, ended_at, result) VALUES (?, ?, ?, ?, ?)",
        )
        .int(result.game_id)
        .text(result.server.as_str())
        .text(result.game.as_str())
        .int(millis(result.ended_at))
        .text(body.as_str())
        .execute(self.connection())
        .await?;
        let mut players: Vec<&str> = result.players.iter().map(|p| p.id.as_str()).collect();
        players.sort_unstable();
        players.dedup();
        if players.is_empty() {
            return Ok(());
        }
        let mut statement = Statement::new("INSERT INTO result_players (game_id, player) VALUES ");
        statement.push_rows(players, |player| {
            vec![Value::Int(Some(result.game_id)), Value::Text(Some(player))]
        });
        statement.execute(self.connection()).await?;
        Ok(())
    }

    /// Whether a game of `game` on `server` that ended after `ended_at` (or at the same time
    /// with a higher number than `game_id`) is rated already.
    pub async fn rated_after(
        &mut self,
        server: &str,
        game: &str,
        ended_at: DateTime<Utc>,
        game_id: i64,
    ) -> Result<bool, StoreError> {
        let at = millis(ended_at);
        let row = Statement::new(
            "SELECT COUNT(*) FROM results WHERE server = ? AND game = ? AND (ended_at > ? OR (ended_at = ? AND game_id > ?))",
        )
        .text(server)
        .text(game)
        .int(at)
        .int(at)
        .int(game_id)
        .fetch_one(self.connection())
        .await?;
        Ok(row.int(0)? > 0)
    }

    /// Every result of `game` on `server`, in the order they are rated; a row that does not
    /// read is left out (and logged), so one bad row never keeps a game from ending.
    pub async fn results_of(
        &mut self,
        server: &str,
        game: &str,
    ) -> Result<Vec<GameResult>, StoreError> {
        let rows = Statement::new(
            "SELECT result, game_id FROM results WHERE server = ? AND game = ? ORDER BY ended_at, game_id",
        )
        .text(server)
        .text(game)
        .fetch_all(self.connection())
        .await?;
        let mut results = Vec::with_capacity(rows.len());
        for row in &rows {
            match read_result(row, 0) {
                Ok(result) => results.push(result),
                Err(error) => {
                    tracing::warn!(game = row.int(1)?, %error, "a kept result does not read; it is not rated")
                }
            }
        }
        Ok(results)
    }

    /// The result kept for game `game_id`, if one is (and reads).
    pub async fn result_of_game(&mut self, game_id: i64) -> Result<Option<GameResult>, StoreError> {
        let row = Statement::new("SELECT result FROM results WHERE game_id = ?")
            .int(game_id)
            .fetch_optional(self.connection())
            .await?;
        Ok(row.and_then(|row| read_result(&row, 0).ok()))
    }

    /// The results of every game `player` played on `server`, oldest first.
    pub async fn results_of_player(
        &mut self,
        server: &str,
        player: &str,
    ) -> Result<Vec<GameResult>, StoreError> {
        let rows = Statement::new(
            "SELECT r.result FROM result_players p JOIN results r ON r.game_id = p.game_id \
             WHERE p.player = ? AND r.server = ? ORDER BY r.ended_at, r.game_id",
        )
        .text(player)
        .text(server)
        .fetch_all(self.connection())
        .await?;
        rows.iter().map(|row| read_result(row, 0)).collect()
    }

    /// The ratings in `game` on `server` of `players` (a player never rated has none).
    pub async fn ratings_of(
        &mut self,
        server: &str,
        game: &str,
        players: &[&str],
    ) -> Result<Vec<RatingRow>, StoreError> {
        if players.is_empty() {
            return Ok(Vec::new());
        }
        let mut statement = Statement::new(format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE server = ? AND game = ? AND player IN "
        ))
        .text(server)
        .text(game);
        statement.push_list(players.iter().map(|player| Value::Text(Some(player))));
        let rows = statement.fetch_all(self.connection()).await?;
        rows.iter().map(read_rating).collect()
    }

    /// Every rating on `server`, of one game or of all.
    pub async fn ratings_on(
        &mut self,
        server: &str,
        game: Option<&str>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let statement = match game {
            Some(game) => Statement::new(format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE server = ? AND game = ? ORDER BY game, player"
            ))
            .text(server)
            .text(game),
            None => Statement::new(format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE server = ? ORDER BY game, player"
            ))
            .text(server),
        };
        let rows = statement.fetch_all(self.connection()).await?;
        rows.iter().map(read_rating).collect()
    }

    /// The ratings of `player` on `server`, one per game they were rated in.
    pub async fn ratings_of_player(
        &mut self,
        server: &str,
        player: &str,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let rows = Statement::new(format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE server = ? AND player = ? ORDER BY game"
        ))
        .text(server)
        .text(player)
        .fetch_all(self.connection())
        .await?;
        rows.iter().map(read_rating).collect()
    }

    /// Writes these ratings of `server`, each over the one kept before.
    pub async fn put_ratings(
        &mut self,
        server: &str,
        rows: &[RatingRow],
    ) -> Result<(), StoreError> {
        for chunk in rows.chunks(500) {
            let mut statement = Statement::new(
                "INSERT INTO ratings (server, game, player, name, mu, sigma, games) VALUES ",
            );
            statement.push_rows(chunk, |row| {
                vec![
                    Value::Text(Some(server)),
                    Value::Text(Some(&row.game)),
                    Value::Text(Some(&row.player)),
                    Value::Text(Some(&row.name)),
                    Value::Int(Some(bits(row.rating.mu))),
                    Value::Int(Some(bits(row.rating.sigma))),
                    Value::Int(Some(i64::from(row.rating.games))),
                ]
            });
            statement.push(
                " ON CONFLICT (server, game, player) DO UPDATE SET name = excluded.name, \
                 mu = excluded.mu, sigma = excluded.sigma, games = excluded.games",
            );
            statement.execute(self.connection()).await?;
        }
        Ok(())
    }

    /// Forgets every rating of `game` on `server` (before they are worked out again).
    pub async fn clear_ratings(&mut self, server: &str, game: &str) -> Result<(), StoreError> {
        Statement::new("DELETE FROM ratings WHERE server = ? AND game = ?")
            .text(server)
            .text(game)
            .execute(self.connection())
            .await?;
        Ok(())
    }

    /// Forgets every result and rating (`referee ratings --rebuild` writes them again).
    pub async fn clear_all_ratings(&mut self) -> Result<(), StoreError> {
        for table in ["ratings", "result_players", "results"] {
            Statement::new(format!("DELETE FROM {table}"))
                .execute(self.connection())
                .await?;
        }
        Ok(())
    }
}

impl Store {
    /// The numbers of every game that is over, in order.
    pub async fn finished_games(&self) -> Result<Vec<i64>, StoreError> {
        let mut connection = self.acquire().await?;
        let rows = Statement::new("SELECT id FROM games WHERE status = 'over' ORDER BY id")
            .fetch_all(connection.connection())
            .await?;
        rows.iter().map(|row| row.int(0)).collect()
    }

    /// Every rating kept, on every server, in one order (server, game, player): what a
    /// rebuild is compared with.
    pub async fn every_rating(&self) -> Result<Vec<(String, RatingRow)>, StoreError> {
        let mut connection = self.acquire().await?;
        let rows = Statement::new(format!(
            "SELECT {RATING_COLUMNS}, server FROM ratings ORDER BY server, game, player"
        ))
        .fetch_all(connection.connection())
        .await?;
        rows.iter()
            .map(|row| Ok((row.text(6)?.to_string(), read_rating(row)?)))
            .collect()
    }

    /// Every result kept, by game number.
    pub async fn every_result(&self) -> Result<Vec<GameResult>, StoreError> {
        let mut connection = self.acquire().await?;
        let rows = Statement::new("SELECT result FROM results ORDER BY game_id")
            .fetch_all(connection.connection())
            .await?;
        rows.iter().map(|row| read_result(row, 0)).collect()
    }
}
