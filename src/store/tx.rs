//! One write transaction: the game row, its seats, the replay log, the audit log, the outbox
//! and the inbound message id, committed together or not at all. On PostgreSQL, where other
//! processes write too, every read of a game's record locks its row until the commit, so two
//! messages for one game (a DM on one shard, the channel on another) apply one after the
//! other; a due deadline is claimed with `SKIP LOCKED`, so one process resolves it.

use super::savepoint::{Name, Owed};
use super::sql::{Connection, Dialect, Row, Statement, Value};
use super::StoreError;
use crate::records::{Audience, GameRecord};
use chrono::{DateTime, Utc};
use sqlx::{Postgres, Sqlite, Transaction};

/// The games not over in which a user (bound twice) is the GM, sits or waits: one definition
/// for the lookups that route direct messages.
const OPEN_GAMES_OF_USER: &str = "status <> 'over' AND id IN (\
     SELECT id FROM games WHERE gm_id = ? AND status <> 'over' \
     UNION SELECT game_id FROM seats WHERE user_id = ?)";

/// The lock PostgreSQL transactions take to number a new game: two processes opening games
/// at once would otherwise both count the same next number. (An arbitrary constant, the
/// same in every process.)
const NEW_GAME_LOCK: i64 = 0x7265_6665_7265_6501;

/// A game as stored: its number and its record.
pub struct GameRow {
    /// The game's number.
    pub id: i64,
    /// The table's record.
    pub record: GameRecord,
}

/// A user's games, as a direct message needs them.
pub enum UserGames {
    /// Exactly one game: its number, and the game read (or why its record is unreadable).
    Only(i64, Box<Result<GameRow, StoreError>>),
    /// No game, or several: their numbers.
    Numbers(Vec<i64>),
}

/// The transaction of either database.
enum Inner {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
}

/// A write transaction.
pub struct Tx {
    inner: Inner,
    /// How long posts answered by their own caller are kept from the deliverers.
    lease: chrono::Duration,
    /// SQLite: the savepoint statements owed, run with the next statement (see [`Owed`]).
    owed: Owed,
    /// The savepoint of the message being applied, if one is (see [`Tx::begin_message`]).
    savepoint: Option<Name>,
    /// The name the next message's savepoint takes.
    next_savepoint: Name,
    /// SQLite: no running game is due (its deadline or reminder) before this time, in
    /// milliseconds, as far as this transaction knows (`None`: unknown). SQLite's write
    /// transaction has the database to itself, and every game it writes lowers the mark, so
    /// a message need not ask again whether a deadline passed before it was sent.
    due_floor: Option<i64>,
}

pub(super) fn millis(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

fn read_record(id: i64, text: &str) -> Result<GameRow, StoreError> {
    let record = serde_json::from_str(text).map_err(|error| StoreError::Corrupt {
        what: format!("game #{id}"),
        reason: error.to_string(),
    })?;
    Ok(GameRow { id, record })
}

/// A row of `id, record`; a record that does not read (not even as text) names its game.
pub(super) fn game_row(row: &Row) -> Result<GameRow, StoreError> {
    let id = row.int(0)?;
    let text = row.text(1).map_err(|error| match error {
        StoreError::Corrupt { reason, .. } => StoreError::Corrupt {
            what: format!("game #{id}"),
            reason,
        },
        other => other,
    })?;
    read_record(id, text)
}

impl Tx {
    pub(super) fn sqlite(tx: Transaction<'static, Sqlite>, lease: chrono::Duration) -> Tx {
        Tx {
            inner: Inner::Sqlite(tx),
            lease,
            owed: Owed::default(),
            savepoint: None,
            next_savepoint: Name::A,
            due_floor: None,
        }
    }

    pub(super) fn postgres(tx: Transaction<'static, Postgres>, lease: chrono::Duration) -> Tx {
        Tx {
            inner: Inner::Postgres(tx),
            lease,
            owed: Owed::default(),
            savepoint: None,
            next_savepoint: Name::A,
            due_floor: None,
        }
    }

    pub(super) fn dialect(&self) -> Dialect {
        match self.inner {
            Inner::Sqlite(_) => Dialect::Sqlite,
            Inner::Postgres(_) => Dialect::Postgres,
        }
    }

    /// The transaction's connection for the next statement, which runs the savepoint
    /// statements owed first.
    pub(super) fn connection(&mut self) -> Connection<'_> {
        let owed = std::mem::take(&mut self.owed);
        match &mut self.inner {
            Inner::Sqlite(tx) => match owed.sql() {
                "" => Connection::Sqlite(tx),
                first => Connection::SqliteAfter(tx, first),
            },
            Inner::Postgres(tx) => Connection::Postgres(tx),
        }
    }

    /// A read of game records, locking the rows it reads on PostgreSQL (SQLite's write
    /// transaction holds the whole database already).
    fn for_update(&self, sql: &'static str) -> Statement<'static> {
        match self.dialect() {
            Dialect::Sqlite => Statement::new(sql),
            Dialect::Postgres => Statement::new(format!("{sql} FOR UPDATE")),
        }
    }

    /// Claims an inbound message id for this transaction: `false` when it was applied already
    /// (then nothing is to be done). The claim commits or rolls back with everything else. On
    /// PostgreSQL a claim of an id another transaction holds waits for that transaction: if
    /// it commits, this one sees the id taken. `channel` and `position` say where the platform
    /// keeps the message in its history (a channel and the message's number there), so a
    /// catch-up after downtime knows where to read on from.
    pub async fn claim(
        &mut self,
        message_id: &str,
        place: Option<(&str, i64)>,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        // Whether it was claimed is read from the row it returns, so the claim (a message's
        // first statement) carries the savepoint statements owed in the same call.
        let claimed = Statement::new(
            "INSERT INTO inbound (message_id, received_at, channel, position) VALUES (?, ?, ?, ?) \
             ON CONFLICT DO NOTHING RETURNING 1",
        )
        .text(message_id)
        .int(millis(now))
        .text(place.map(|(channel, _)| channel))
        .int(place.map(|(_, position)| position))
        .fetch_optional(self.connection())
        .await?;
        Ok(claimed.is_some())
    }

    /// The game of a channel that is not over, if any.
    pub async fn game_in_channel(&mut self, channel: &str) -> Result<Option<GameRow>, StoreError> {
        let row = self
            .for_update("SELECT id, record FROM games WHERE channel = ? AND status <> 'over'")
            .text(channel)
            .fetch_optional(self.connection())
            .await?;
        row.as_ref().map(game_row).transpose()
    }

    /// The most recent game of a channel, over or not (for `!log` and `!board` after the end).
    pub async fn last_game_in_channel(
        &mut self,
        channel: &str,
    ) -> Result<Option<GameRow>, StoreError> {
        let row = self
            .for_update("SELECT id, record FROM games WHERE channel = ? ORDER BY id DESC LIMIT 1")
            .text(channel)
            .fetch_optional(self.connection())
            .await?;
        row.as_ref().map(game_row).transpose()
    }

    /// The server a channel is on, as its last game says (empty: no game there says, as on
    /// the console).
    pub async fn channel_server(&mut self, channel: &str) -> Result<String, StoreError> {
        Ok(self
            .last_game_in_channel(channel)
            .await?
            .and_then(|last| last.record.server)
            .unwrap_or_default())
    }

    /// A game by number.
    pub async fn game(&mut self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let row = self
            .for_update("SELECT id, record FROM games WHERE id = ?")
            .int(id)
            .fetch_optional(self.connection())
            .await?;
        row.as_ref().map(game_row).transpose()
    }

    /// The earliest game whose deadline or reminder time is at or before `now`, locked for
    /// this transaction; on PostgreSQL a game another process is resolving is skipped, so
    /// each due deadline is resolved by one process, once. A game whose row does not read is
    /// passed over (named in the log), so the other games' deadlines still fire. `None`:
    /// nothing is due. On SQLite a time before the earliest deadline this transaction knows
    /// of ([`Tx::due_floor`]) is answered without asking the database.
    pub async fn claim_due(&mut self, now: DateTime<Utc>) -> Result<Option<GameRow>, StoreError> {
        if self.dialect() == Dialect::Sqlite {
            if self.due_floor.is_none() {
                self.due_floor = Some(self.earliest_due().await?);
            }
            if self.due_floor.is_some_and(|floor| millis(now) < floor) {
                return Ok(None);
            }
            // Something is due: what it fires moves the mark, which is read again.
            self.due_floor = None;
        }
        let mut unreadable: Vec<i64> = Vec::new();
        loop {
            let mut statement = Statement::new(
                "SELECT id, record FROM games WHERE status = 'running' AND (deadline <= ? OR remind_at <= ?)",
            )
            .int(millis(now))
            .int(millis(now));
            if !unreadable.is_empty() {
                statement.push(" AND id NOT IN ");
                statement.push_list(unreadable.iter().map(|id| Value::Int(Some(*id))));
            }
            statement.push(match self.dialect() {
                Dialect::Sqlite => {
                    " ORDER BY MIN(COALESCE(deadline, remind_at), COALESCE(remind_at, deadline)), id LIMIT 1"
                }
                Dialect::Postgres => {
                    " ORDER BY LEAST(deadline, remind_at), id LIMIT 1 FOR UPDATE SKIP LOCKED"
                }
            });
            let Some(row) = statement.fetch_optional(self.connection()).await? else {
                return Ok(None);
            };
            match game_row(&row) {
                Err(error @ StoreError::Corrupt { .. }) => {
                    tracing::warn!(%error, "a due game does not read; its deadline waits until it is restored");
                    unreadable.push(row.int(0)?);
                }
                read => return read.map(Some),
            }
        }
    }

    /// The earliest deadline or reminder of a running game, in milliseconds (`i64::MAX`:
    /// none has one), each read through its index.
    async fn earliest_due(&mut self) -> Result<i64, StoreError> {
        let row = Statement::new(
            "SELECT MIN(COALESCE(d, r), COALESCE(r, d)) FROM (SELECT \
             (SELECT deadline FROM games WHERE status = 'running' AND deadline IS NOT NULL \
              ORDER BY deadline LIMIT 1) AS d, \
             (SELECT remind_at FROM games WHERE status = 'running' AND remind_at IS NOT NULL \
              ORDER BY remind_at LIMIT 1) AS r)",
        )
        .fetch_one(self.connection())
        .await?;
        Ok(row.opt_int(0)?.unwrap_or(i64::MAX))
    }

    /// Lowers the mark of [`Tx::due_floor`] to the deadline and reminder of `record`, written
    /// in this transaction, so a deadline it sets is never passed over. Today a deadline set
    /// while a batch is applied falls after the batch's time, and so after every message of
    /// it, but the mark does not count on that. A game not running has nothing due (the
    /// deadlines fired are running games').
    pub(super) fn note_due(&mut self, record: &GameRecord) {
        if let (Some(floor), "running") = (self.due_floor.as_mut(), record.status.word()) {
            for at in [record.due(), record.remind_at].into_iter().flatten() {
                *floor = (*floor).min(millis(at));
            }
        }
    }

    /// The numbers of the games (not over) in which this user sits, waits, or is the GM.
    pub async fn games_of_user(&mut self, user_id: &str) -> Result<Vec<i64>, StoreError> {
        let rows = Statement::new(format!(
            "SELECT id FROM games WHERE {OPEN_GAMES_OF_USER} ORDER BY id"
        ))
        .text(user_id)
        .text(user_id)
        .fetch_all(self.connection())
        .await?;
        rows.iter().map(|row| row.int(0)).collect()
    }

    /// The games (not over) in which this user sits, waits, or is the GM, read in one query:
    /// the game itself when there is only one (the usual case for a direct message), else
    /// their numbers. On PostgreSQL the games read are locked.
    pub async fn games_of_user_or_only(&mut self, user_id: &str) -> Result<UserGames, StoreError> {
        let sql = match self.dialect() {
            Dialect::Sqlite => {
                format!("SELECT id, record FROM games WHERE {OPEN_GAMES_OF_USER} ORDER BY id")
            }
            Dialect::Postgres => format!(
                "SELECT id, record FROM games WHERE {OPEN_GAMES_OF_USER} ORDER BY id FOR UPDATE"
            ),
        };
        let rows = Statement::new(sql)
            .text(user_id)
            .text(user_id)
            .fetch_all(self.connection())
            .await?;
        Ok(match rows.as_slice() {
            [row] => UserGames::Only(row.int(0)?, Box::new(game_row(row))),
            rows => UserGames::Numbers(
                rows.iter()
                    .map(|row| row.int(0))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    /// The games not over, newest first, at most `limit` of them on `server` (as each was
    /// logged at `!new`; the console's have none): what `!games` lists with where each lives.
    pub async fn open_games_on(
        &mut self,
        server: &str,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let rows =
            Statement::new("SELECT id, record FROM games WHERE status <> 'over' ORDER BY id DESC")
                .fetch_all(self.connection())
                .await?;
        let mut found = Vec::new();
        for row in &rows {
            // An unreadable game is left out of the list; its own channel says why.
            let Ok(game) = game_row(row) else {
                continue;
            };
            if game.record.server.as_deref().unwrap_or_default() == server {
                found.push(game.record);
                if found.len() == limit {
                    break;
                }
            }
        }
        Ok(found)
    }

    /// The game and the player whose private thread `channel` is, if it is one.
    pub async fn thread_owner(
        &mut self,
        channel: &str,
    ) -> Result<Option<(i64, String)>, StoreError> {
        let row = Statement::new("SELECT game_id, user_id FROM order_threads WHERE thread = ?")
            .text(channel)
            .fetch_optional(self.connection())
            .await?;
        row.map(|row| Ok((row.int(0)?, row.text(1)?.to_string())))
            .transpose()
    }

    /// Sends the posts to `from` not delivered yet to `to` instead (a game that moved).
    pub async fn readdress(&mut self, from: &Audience, to: &Audience) -> Result<(), StoreError> {
        let text = |audience: &Audience| {
            serde_json::to_string(audience).map_err(|error| StoreError::Corrupt {
                what: "an audience".to_string(),
                reason: error.to_string(),
            })
        };
        let (to, from) = (text(to)?, text(from)?);
        Statement::new(
            "UPDATE outbox SET audience = ? WHERE audience = ? AND delivered_at IS NULL AND failed IS NULL",
        )
        .text(to.as_str())
        .text(from.as_str())
        .execute(self.connection())
        .await?;
        Ok(())
    }

    /// The numbers of the games not over this user runs as GM.
    pub async fn open_games_of_gm(&mut self, user_id: &str) -> Result<Vec<i64>, StoreError> {
        let rows =
            Statement::new("SELECT id FROM games WHERE gm_id = ? AND status <> 'over' ORDER BY id")
                .text(user_id)
                .fetch_all(self.connection())
                .await?;
        rows.iter().map(|row| row.int(0)).collect()
    }

    /// The numbers of the games (in sign-up) this user runs as GM, for the secret setup by DM.
    pub async fn games_in_signup_of_gm(&mut self, user_id: &str) -> Result<Vec<i64>, StoreError> {
        let rows = Statement::new(
            "SELECT id FROM games WHERE gm_id = ? AND status <> 'over' AND status = 'signup' ORDER BY id",
        )
        .text(user_id)
        .fetch_all(self.connection())
        .await?;
        rows.iter().map(|row| row.int(0)).collect()
    }

    /// The number the next new game gets. On PostgreSQL this transaction then holds the right
    /// to number games until it ends, so two processes never give out one number twice.
    pub async fn next_game_id(&mut self) -> Result<i64, StoreError> {
        if self.dialect() == Dialect::Postgres {
            Statement::new("SELECT pg_advisory_xact_lock(?)")
                .int(NEW_GAME_LOCK)
                .execute(self.connection())
                .await?;
        }
        let row = Statement::new("SELECT COALESCE(MAX(id), 0) + 1 FROM games")
            .fetch_one(self.connection())
            .await?;
        row.int(0)
    }

    /// A game's events, optionally one round's (for `!log`).
    pub async fn events(
        &mut self,
        game_id: i64,
        round: Option<u64>,
    ) -> Result<Vec<super::StoredEvent>, StoreError> {
        super::log::events(self.connection(), game_id, round).await
    }

    /// Every input of a game, in order (inside this transaction).
    pub async fn inputs(&mut self, game_id: i64) -> Result<Vec<super::StoredInput>, StoreError> {
        super::log::inputs(self.connection(), game_id).await
    }

    /// Keeps the posts `ids` (just queued by a caller that answers them itself) from every
    /// deliverer for the lease time, or until [`super::Store::unhold_posts`]: written with
    /// the posts, so no deliverer (of this process, which reads the outbox beside the table,
    /// or of another) can take them between the commit and the caller's answer.
    pub async fn hold_posts(&mut self, ids: &[i64], now: DateTime<Utc>) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let until = now.checked_add_signed(self.lease).unwrap_or(now);
        let mut statement = Statement::new("UPDATE outbox SET next_attempt = ");
        statement.bind(Value::Int(Some(millis(until))));
        statement.push(" WHERE id IN ");
        statement.push_list(ids.iter().map(|id| Value::Int(Some(*id))));
        // Its text grows with the posts: not worth a place among the prepared statements.
        statement.execute_kept(self.connection(), false).await?;
        Ok(())
    }

    /// Opens a savepoint for one message of a group commit: [`Tx::keep_message`] keeps what
    /// the message wrote, [`Tx::undo_message`] takes it back, and either way the transaction
    /// goes on with the next message. Messages do not nest: each is kept or taken back before
    /// the next begins. On SQLite the savepoint opens with the message's first statement
    /// ([`Owed`]).
    pub async fn begin_message(&mut self) -> Result<(), StoreError> {
        let name = self.next_savepoint;
        self.next_savepoint = name.other();
        self.savepoint = Some(name);
        if self.dialect() == Dialect::Postgres {
            return self.run(name.open()).await;
        }
        if self.owed.open.is_some() {
            // A savepoint already owed opens now: each message has its own.
            self.settle().await?;
        }
        self.owed.open = Some(name);
        Ok(())
    }

    /// Keeps what the message since [`Tx::begin_message`] wrote. On SQLite its savepoint is
    /// released with the next statement, or by the commit.
    pub async fn keep_message(&mut self) -> Result<(), StoreError> {
        let Some(name) = self.savepoint.take() else {
            return Ok(());
        };
        if self.dialect() == Dialect::Postgres {
            return self.run(name.release()).await;
        }
        if self.owed.open == Some(name) {
            // The message ran no statement: its savepoint never opened, and its name goes to
            // the next message, so the names still alternate after a release owed.
            self.owed.open = None;
            self.next_savepoint = name;
            return Ok(());
        }
        if self.owed.release.is_some() {
            self.settle().await?;
        }
        self.owed.release = Some(name);
        Ok(())
    }

    /// Takes back everything the message since [`Tx::begin_message`] wrote (and, on
    /// PostgreSQL, the locks it took). Fails when the database has already rolled back the
    /// whole transaction (a full disk, an I/O error): then nothing of the batch can commit.
    pub async fn undo_message(&mut self) -> Result<(), StoreError> {
        let Some(name) = self.savepoint.take() else {
            return Ok(());
        };
        // What the message wrote is taken back, so the deadline mark it may have moved is
        // read again.
        self.due_floor = None;
        if self.owed.open == Some(name) {
            // The message ran no statement: there is nothing to take back, and its name goes
            // to the next message.
            self.owed.open = None;
            self.next_savepoint = name;
            return Ok(());
        }
        self.run(name.roll_back()).await?;
        self.run(name.release()).await
    }

    /// Runs a statement of no values (after whatever is owed).
    async fn run(&mut self, sql: &'static str) -> Result<(), StoreError> {
        Statement::new(sql).execute(self.connection()).await?;
        Ok(())
    }

    /// Runs what is owed now, alone.
    async fn settle(&mut self) -> Result<(), StoreError> {
        let owed = std::mem::take(&mut self.owed);
        if let (Inner::Sqlite(tx), false) = (&mut self.inner, owed.is_nothing()) {
            Statement::new(owed.sql())
                .execute(Connection::Sqlite(tx))
                .await?;
        }
        Ok(())
    }

    /// Commits everything.
    pub async fn commit(self) -> Result<(), StoreError> {
        match self.inner {
            Inner::Sqlite(tx) => tx.commit().await?,
            Inner::Postgres(tx) => tx.commit().await?,
        }
        Ok(())
    }

    /// Takes everything back at once (and, on PostgreSQL, releases every lock it took).
    pub async fn rollback(self) -> Result<(), StoreError> {
        match self.inner {
            Inner::Sqlite(tx) => tx.rollback().await?,
            Inner::Postgres(tx) => tx.rollback().await?,
        }
        Ok(())
    }
}
