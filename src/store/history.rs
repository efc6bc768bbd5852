//! What a catch-up after downtime needs: the channels and people of the games not over (or
//! lately over), and how far each channel's history was already applied.

use super::sql::{Statement, Value};
use super::{Store, StoreError};
use chrono::{DateTime, Utc};

/// A place whose history may hold messages the bot missed, and from when to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watched {
    /// A channel id, or a user id (whose direct messages are read).
    pub id: String,
    /// When the oldest game not over that concerns it was opened: nothing older matters.
    pub since: DateTime<Utc>,
}

/// A place a catch-up reads, with the game it concerns: games that share a place (a channel,
/// a player) are caught up together, in the order their messages were sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tie {
    /// The game.
    pub game: i64,
    /// The place, and from when it matters to that game.
    pub watched: Watched,
    /// Whether the place is a person (whose direct messages are read) rather than a channel
    /// or thread.
    pub person: bool,
    /// Whether the place is read back: not for the people of a game over, who are tied to
    /// it only so that what they send waits for its channel (a `!new` typed there).
    pub read: bool,
}

/// The key of a shard's mark in `meta`: a mark holds for one way of sharding only.
fn mark_key(shard: u32, total: u32) -> String {
    format!("caught-up-{shard}-of-{total}")
}

impl Store {
    /// Every place a catch-up at `now` reads, each with the game it concerns: the channels
    /// of the games that are not over, and of those that ended within
    /// `database.keep_message_ids` before `now` (a `!new` or `!audit` may follow a game's end),
    /// the players' private threads of the games not over, and the players (seated or
    /// waiting) and GMs of the games not over, everyone who may send the bot a direct message
    /// that matters; and, not to be read, the players and GMs of those that ended. A place
    /// that concerns several games comes once for each.
    pub async fn catch_up_ties(&self, now: DateTime<Utc>) -> Result<Vec<Tie>, StoreError> {
        let rows = self
            .fetch_all(
                Statement::new(
                    "SELECT id, channel, 0, created_at FROM games \
                     WHERE status <> 'over' OR updated_at >= ? \
                     UNION ALL \
                     SELECT games.id, order_threads.thread, 0, games.created_at FROM order_threads \
                     JOIN games ON games.id = order_threads.game_id WHERE games.status <> 'over' \
                     UNION ALL \
                     SELECT games.id, seats.user_id, 1, games.created_at FROM seats \
                     JOIN games ON games.id = seats.game_id WHERE games.status <> 'over' \
                     UNION ALL \
                     SELECT id, gm_id, 1, created_at FROM games WHERE status <> 'over' AND gm_id <> '' \
                     UNION ALL \
                     SELECT games.id, seats.user_id, 2, games.created_at FROM seats \
                     JOIN games ON games.id = seats.game_id \
                     WHERE games.status = 'over' AND games.updated_at >= ? \
                     UNION ALL \
                     SELECT id, gm_id, 2, created_at FROM games \
                     WHERE status = 'over' AND updated_at >= ? AND gm_id <> '' \
                     ORDER BY 1, 3, 2",
                )
                .int(self.read_back_from(now).timestamp_millis())
                .int(self.read_back_from(now).timestamp_millis())
                .int(self.read_back_from(now).timestamp_millis()),
            )
            .await?;
        rows.iter()
            .map(|row| {
                Ok(Tie {
                    game: row.int(0)?,
                    watched: Watched {
                        id: row.text(1)?.to_string(),
                        since: DateTime::from_timestamp_millis(row.int(3)?).unwrap_or_default(),
                    },
                    person: row.int(2)? != 0,
                    read: row.int(2)? != 2,
                })
            })
            .collect()
    }

    /// The oldest time a catch-up at `now` reads back to: message ids are kept this long, so
    /// nothing older can be told apart from what was applied already.
    pub fn read_back_from(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        now.checked_sub_signed(self.keep_message_ids)
            .unwrap_or_default()
    }

    /// The GMs of the games that are not over (each once): who runs a game the bot keeps.
    pub async fn open_game_masters(&self) -> Result<Vec<String>, StoreError> {
        let rows = self
            .fetch_all(Statement::new(
                "SELECT DISTINCT gm_id FROM games WHERE status <> 'over' AND gm_id <> '' \
                 ORDER BY gm_id",
            ))
            .await?;
        rows.iter()
            .map(|row| Ok(row.text(0)?.to_string()))
            .collect()
    }

    /// The number of the last message applied from `channel` (`None`: none yet).
    pub async fn last_position(&self, channel: &str) -> Result<Option<i64>, StoreError> {
        self.fetch_number(
            Statement::new("SELECT MAX(position) FROM inbound WHERE channel = ?").text(channel),
        )
        .await
    }

    /// The newest message the bot posted in `channel` (`None`: none known).
    pub async fn newest_posted(&self, channel: &str) -> Result<Option<i64>, StoreError> {
        self.fetch_number(
            Statement::new("SELECT message FROM posted WHERE channel = ?").text(channel),
        )
        .await
    }

    /// The mark of gateway shard `shard` of `total`: every message sent on it before this
    /// message number reached the bot and was applied (`None`: no such mark yet).
    pub async fn caught_up_mark(&self, shard: u32, total: u32) -> Result<Option<i64>, StoreError> {
        let key = mark_key(shard, total);
        let row = self
            .fetch_optional(
                Statement::new("SELECT value FROM meta WHERE key = ?").text(key.as_str()),
            )
            .await?;
        match row {
            Some(row) => Ok(row.text(0)?.parse().ok()),
            None => Ok(None),
        }
    }

    /// Sets the mark of shard `shard` of `total` (see [`Store::caught_up_mark`]).
    pub async fn mark_caught_up(
        &self,
        shard: u32,
        total: u32,
        mark: i64,
    ) -> Result<(), StoreError> {
        let (key, value) = (mark_key(shard, total), mark.to_string());
        self.execute(
            Statement::new(
                "INSERT INTO meta (key, value) VALUES (?, ?) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            )
            .text(key.as_str())
            .text(value.as_str()),
        )
        .await?;
        Ok(())
    }

    /// The number of the last message applied from any of `channels` (`None`: none yet),
    /// in one query: where a catch-up knows the bot last saw a server.
    pub async fn last_position_among(
        &self,
        channels: &[String],
    ) -> Result<Option<i64>, StoreError> {
        if channels.is_empty() {
            return Ok(None);
        }
        let mut statement = Statement::new("SELECT MAX(position) FROM inbound WHERE channel IN ");
        statement.push_list(
            channels
                .iter()
                .map(|channel| Value::Text(Some(channel.as_str()))),
        );
        self.fetch_number(statement).await
    }

    /// Forgets the ids of messages applied before `before`, but for each channel's last
    /// (catch-up reads on from it); returns how many went.
    pub(super) async fn forget_message_ids(
        &self,
        before: DateTime<Utc>,
    ) -> Result<u64, StoreError> {
        self.execute(
            Statement::new(
                "DELETE FROM inbound WHERE received_at < ? AND (channel IS NULL OR position IS NULL                  OR position < (SELECT MAX(newest.position) FROM inbound newest WHERE newest.channel = inbound.channel))",
            )
            .int(before.timestamp_millis()),
        )
        .await
    }

    /// This database's random name (drawn by its first migration), which makes the nonces of
    /// its posts its own.
    pub async fn instance(&self) -> Result<String, StoreError> {
        let row = self
            .fetch_optional(Statement::new(
                "SELECT value FROM meta WHERE key = 'instance'",
            ))
            .await?
            .ok_or(sqlx::Error::RowNotFound)?;
        Ok(row.text(0)?.to_string())
    }
}
