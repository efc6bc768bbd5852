//! Keeping results and ratings: when a game ends its result is kept and its server's ratings
//! of that game updated in the same transaction; `referee ratings --rebuild` works every
//! result out again by replaying each finished game's log, and every rating from them.

use super::Service;
use crate::records::{GameRecord, GameResult};
use crate::store::{RatingRow, StoreError, Tx};
use crate::table::audit::rebuild_final;
use crate::table::ratings::{changes_line, result_of, Change, Ratings};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

/// What `referee ratings --rebuild` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rebuilt {
    /// Finished games replayed.
    pub games: usize,
    /// Of those, games that ended with a ranking (rated when two players or more had one).
    pub rated: usize,
    /// Ratings written (one per player, game and server).
    pub ratings: usize,
    /// Games whose log did not replay, with why: each keeps the result kept live, if any.
    pub unreadable: Vec<(i64, String)>,
}

/// Every player's rating in `ratings`, as rows of `game`.
fn rows(game: &str, ratings: &Ratings) -> Vec<RatingRow> {
    ratings
        .players
        .iter()
        .map(|(player, (name, rating))| RatingRow {
            game: game.to_string(),
            player: player.clone(),
            name: name.clone(),
            rating: *rating,
        })
        .collect()
}

/// The changes `changes` made, as rows of `game`.
fn changed_rows(game: &str, changes: &[Change]) -> Vec<RatingRow> {
    changes
        .iter()
        .map(|change| RatingRow {
            game: game.to_string(),
            player: change.id.clone(),
            name: change.name.clone(),
            rating: change.after,
        })
        .collect()
}

/// Keeps `result` and rates it on its server; returns the changes it made. A game that ends
/// after another of its kind on its server that ended later is already rated (two processes)
/// has every rating of that kind worked out again in the order the games ended.
pub(super) async fn keep(tx: &mut Tx, result: &GameResult) -> Result<Vec<Change>, StoreError> {
    let (server, game) = (result.server.as_str(), result.game.as_str());
    tx.lock_ratings(server, game).await?;
    let later = tx
        .rated_after(server, game, result.ended_at, result.game_id)
        .await?;
    tx.put_result(result).await?;
    if !result.ranked() {
        return Ok(Vec::new());
    }
    if later {
        let mut ratings = Ratings::default();
        let mut changes = Vec::new();
        for kept in tx.results_of(server, game).await? {
            let made = ratings.add(&kept);
            if kept.game_id == result.game_id {
                changes = made;
            }
        }
        tx.clear_ratings(server, game).await?;
        tx.put_ratings(server, &rows(game, &ratings)).await?;
        return Ok(changes);
    }
    let ids: Vec<&str> = result.players.iter().map(|p| p.id.as_str()).collect();
    let mut ratings = Ratings::default();
    for row in tx.ratings_of(server, game, &ids).await? {
        ratings.players.insert(row.player, (row.name, row.rating));
    }
    let changes = ratings.add(result);
    tx.put_ratings(server, &changed_rows(game, &changes))
        .await?;
    Ok(changes)
}

/// Keeps the result of the game `record` holds, which ended at `ended_at`, and rates it;
/// returns the game-over post's line of rating changes (`None`: not rated). A practice game
/// (its seed chosen at the table) leaves no result.
pub(super) async fn keep_ended(
    tx: &mut Tx,
    record: &GameRecord,
    ended_at: DateTime<Utc>,
) -> Result<Option<String>, StoreError> {
    if record.settings.practice {
        return Ok(None);
    }
    let result = result_of(record, ended_at);
    let changes = keep(tx, &result).await?;
    Ok((!changes.is_empty()).then(|| changes_line(&result.game, &changes)))
}

/// The work of [`Service::rebuild_ratings`].
pub(super) async fn rebuild_ratings(service: &Service) -> Result<Rebuilt, StoreError> {
    let mut rebuilt = Rebuilt::default();
    let mut results: Vec<GameResult> = Vec::new();
    for id in service.store().finished_games().await? {
        rebuilt.games += 1;
        let replayed = match service.store().game_log(id).await {
            Ok(Some(log)) => rebuild_final(service, &log.game.record, &log.inputs),
            Ok(None) => continue,
            Err(error) => Err(error.to_string()),
        };
        match replayed {
            // A game ended by the GM before it began has no result, live or here; nor
            // has a practice game.
            Ok((record, _)) if record.state.is_none() || record.settings.practice => {}
            Ok((record, ended_at)) => results.push(result_of(&record, ended_at)),
            Err(why) => {
                let mut tx = service.store().begin().await?;
                if let Some(kept) = tx.result_of_game(id).await? {
                    results.push(kept);
                }
                tx.rollback().await?;
                rebuilt.unreadable.push((id, why));
            }
        }
    }
    results.sort_by(|a, b| {
        (&a.server, &a.game, a.ended_at, a.game_id)
            .cmp(&(&b.server, &b.game, b.ended_at, b.game_id))
    });
    let mut by_kind: BTreeMap<(String, String), Ratings> = BTreeMap::new();
    for result in &results {
        if result.ranked() {
            rebuilt.rated += 1;
        }
        by_kind
            .entry((result.server.clone(), result.game.clone()))
            .or_default()
            .add(result);
    }
    let mut tx = service.store().begin().await?;
    tx.clear_all_ratings().await?;
    for result in &results {
        tx.put_result(result).await?;
    }
    for ((server, game), ratings) in &by_kind {
        let rows = rows(game, ratings);
        rebuilt.ratings += rows.len();
        tx.put_ratings(server, &rows).await?;
    }
    tx.commit().await?;
    Ok(rebuilt)
}
