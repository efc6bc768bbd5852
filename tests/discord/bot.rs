//! The real `referee run` binary against the fake server, on a database that outlives the
//! process (a restart keeps the games), and what the tests read back from that database:
//! whether a message was applied, whether the outbox is empty, and that every game replays.

use crate::fake::{FakeDiscord, DM_BASE, GUILD, TOKEN};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};
use sqlx::Row;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The user with admin powers in every test.
pub const ADMIN: u64 = 101;

/// The bot's settings for one run.
#[derive(Clone, Copy)]
pub struct Settings {
    /// The first wait before retrying a post that failed for a passing reason.
    pub retry: &'static str,
    /// How many attempts a post gets.
    pub attempts: u32,
    /// How many commands one account may send in how long (`table.flood`), or `None` for the
    /// bot's own default. Tests type at a machine's pace, far faster than people do, so
    /// unless a test is about that limit it is out of the way.
    pub flood: Option<&'static str>,
    /// How long the database may stop answering before those waiting are told.
    pub outage_notice: &'static str,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            retry: "1s",
            attempts: 8,
            flood: Some("100000/1s"),
            outage_notice: "1m",
        }
    }
}

/// A `referee run` process; killed (SIGKILL) if a test ends without stopping it.
pub struct Bot {
    child: Child,
}

impl Bot {
    /// Starts the bot on `db` with the default settings.
    pub fn start(fake: &FakeDiscord, db: &Path) -> Bot {
        Bot::start_with(fake, db, Settings::default())
    }

    /// Starts the bot on `db` with `settings`; deadlines are checked every second.
    pub fn start_with(fake: &FakeDiscord, db: &Path, settings: Settings) -> Bot {
        Bot::start_with_env(fake, db, settings, &[])
    }

    /// Starts the bot on `db` with `settings` and, on top of them, the settings `env` gives
    /// as environment variables (`REFEREE_HEALTH_LISTEN`, ...).
    pub fn start_with_env(
        fake: &FakeDiscord,
        db: &Path,
        settings: Settings,
        env: &[(&str, &str)],
    ) -> Bot {
        let mut command = Bot::command(fake, settings);
        command
            .args(["run", "--db"])
            .arg(db)
            .envs(env.iter().copied());
        Bot {
            child: command.spawn().unwrap(),
        }
    }

    /// Starts one of the bot's processes on the PostgreSQL database `url`, holding
    /// `shard_ids` (like `1..1`) of `shards` gateway shards; a process that dies loses its
    /// claim on the posts it was delivering after `lease`.
    pub fn start_shards(
        fake: &FakeDiscord,
        url: &str,
        shards: u32,
        shard_ids: &str,
        lease: &str,
    ) -> Bot {
        let mut command = Bot::command(fake, Settings::default());
        command
            .args([
                "run",
                "--shards",
                &shards.to_string(),
                "--shard-ids",
                shard_ids,
            ])
            .env("REFEREE_DATABASE_URL", url)
            .env("REFEREE_DATABASE_LEASE", lease);
        Bot {
            child: command.spawn().unwrap(),
        }
    }

    /// The process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `referee` with the settings every test uses: the fake's address, the token, the
    /// guild, deadlines checked every second.
    fn command(fake: &FakeDiscord, settings: Settings) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
        if let Some(flood) = settings.flood {
            command.env("REFEREE_TABLE_FLOOD", flood);
        }
        command
            .env("DISCORD_TOKEN", TOKEN)
            .env("REFEREE_DISCORD_API_URL", &fake.url)
            .env("REFEREE_DISCORD_GUILDS", GUILD.to_string())
            .env("REFEREE_DISCORD_RETRY", settings.retry)
            .env("REFEREE_DISCORD_ATTEMPTS", settings.attempts.to_string())
            .env("REFEREE_DISCORD_OUTAGE_NOTICE", settings.outage_notice)
            .env("REFEREE_DISCORD_ADMINS", ADMIN.to_string())
            .env("REFEREE_TABLE_TICK", "1s")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        command
    }

    /// SIGTERM, then the exit status must be success.
    pub fn stop(mut self) {
        let pid = self.child.id().to_string();
        let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(killed.success());
        for _ in 0..400 {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "referee run exited with {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        panic!("referee run did not stop on SIGTERM");
    }

    /// Kills the bot at once (SIGKILL), as a crash or a power cut would.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The real bot connected to a fresh fake Discord, on a fresh database: the server, the
/// database's folder (removed when dropped), the database as the tests read it, and the bot.
pub async fn connected() -> (FakeDiscord, tempfile::TempDir, Db, Bot) {
    connected_with(Settings::default()).await
}

/// The same, the bot started with `settings`.
pub async fn connected_with(settings: Settings) -> (FakeDiscord, tempfile::TempDir, Db, Bot) {
    let (fake, dir, db, bot) = started_with(settings, &[]).await;
    fake.wait_ready().await;
    (fake, dir, db, bot)
}

/// The same, the bot started with the default settings and, on top of them, those `env`
/// gives as environment variables (see [`Bot::start_with_env`]).
pub async fn connected_with_env(env: &[(&str, &str)]) -> (FakeDiscord, tempfile::TempDir, Db, Bot) {
    let (fake, dir, db, bot) = started_with(Settings::default(), env).await;
    fake.wait_ready().await;
    (fake, dir, db, bot)
}

/// The real bot started on a fresh fake Discord and a fresh database, as [`connected`] gives
/// them, but not waited for: what a test does first may reach Discord before the bot does.
pub async fn started() -> (FakeDiscord, tempfile::TempDir, Db, Bot) {
    started_with(Settings::default(), &[]).await
}

/// The same, the bot started with `settings` and the settings `env` gives on top of them.
async fn started_with(
    settings: Settings,
    env: &[(&str, &str)],
) -> (FakeDiscord, tempfile::TempDir, Db, Bot) {
    let fake = FakeDiscord::start().await;
    let (dir, path) = fresh_database();
    let db = Db::at(&path);
    let bot = Bot::start_with_env(&fake, &path, settings, env);
    (fake, dir, db, bot)
}

/// A folder for a test's database (removed when the test ends) and the database's path.
pub fn fresh_database() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    (dir, db)
}

/// The bot's database, read beside it (SQLite's write-ahead log lets a reader in).
pub struct Db {
    path: PathBuf,
    pool: Option<SqlitePool>,
}

impl Db {
    /// The database at `path` (opened when first read: the bot creates it).
    pub fn at(path: &Path) -> Db {
        Db {
            path: path.to_path_buf(),
            pool: None,
        }
    }

    /// Where it is: a test that restarts the bot starts it there again.
    pub fn path(&self) -> &Path {
        &self.path
    }

    async fn pool(&mut self) -> &SqlitePool {
        if self.pool.is_none() {
            let options = SqliteConnectOptions::new()
                .filename(&self.path)
                .read_only(true);
            self.pool = Some(SqlitePool::connect_with(options).await.unwrap());
        }
        self.pool.as_ref().unwrap()
    }

    /// Whether the message or interaction `id` was applied.
    pub async fn applied(&mut self, id: u64) -> bool {
        let row = sqlx::query("SELECT COUNT(*) FROM inbound WHERE message_id = ?")
            .bind(id.to_string())
            .fetch_one(self.pool().await)
            .await
            .unwrap();
        row.get::<i64, _>(0) == 1
    }

    /// Whether every queued post was delivered (or given up).
    pub async fn delivered(&mut self) -> bool {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL",
        )
        .fetch_one(self.pool().await)
        .await
        .unwrap();
        row.get::<i64, _>(0) == 0
    }

    /// The number a query counting rows gives (`SELECT COUNT(*) ...`).
    pub async fn number(&mut self, sql: &str) -> i64 {
        let row = sqlx::query(sql).fetch_one(self.pool().await).await.unwrap();
        row.get::<i64, _>(0)
    }

    /// Runs `sql` (statements separated by `;`) on the database, writing beside the bot.
    pub async fn execute(&mut self, sql: &str) {
        let options = SqliteConnectOptions::new().filename(&self.path);
        let pool = SqlitePool::connect_with(options).await.unwrap();
        sqlx::raw_sql(sql).execute(&pool).await.unwrap();
        pool.close().await;
    }

    /// The numbers of the games in the database.
    pub async fn games(&mut self) -> Vec<i64> {
        sqlx::query("SELECT id FROM games ORDER BY id")
            .fetch_all(self.pool().await)
            .await
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect()
    }

    /// Waits until message `id` is applied and every post it caused is delivered.
    pub async fn settled(&mut self, fake: &FakeDiscord, id: u64) {
        for _ in 0..1000 {
            if self.applied(id).await && self.delivered().await {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!(
            "message {id} was not applied and answered; last posts: {:#?}",
            fake.posts().iter().rev().take(5).collect::<Vec<_>>()
        );
    }

    /// Stops `bot` ([`Bot::stop`]), then replays every game ([`Db::replay_all`]). Returns how
    /// many games were replayed.
    pub async fn stop_and_replay(&mut self, bot: Bot) -> usize {
        bot.stop();
        self.replay_all().await
    }

    /// Runs `referee replay` on every game of the database (the bot stopped): each must
    /// rebuild to its log. Returns how many games were replayed.
    pub async fn replay_all(&mut self) -> usize {
        let games = self.games().await;
        for game in &games {
            let output = Command::new(env!("CARGO_BIN_EXE_referee"))
                .args(["replay", &game.to_string(), "--db"])
                .arg(&self.path)
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&output.stdout);
            assert!(
                output.status.success(),
                "game #{game} does not replay: {said}{}",
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(said.contains("match the log"), "{said}");
        }
        games.len()
    }
}

/// Players of a transcript as Discord users: each name gets an id, in order of appearance,
/// from 101 (so the first name has admin powers, like the console's GM needs none).
#[derive(Default)]
pub struct Users {
    ids: HashMap<String, u64>,
}

impl Users {
    /// The Discord user called `name`.
    pub fn get<'a>(&mut self, name: &'a str) -> (u64, &'a str) {
        let next = 101 + self.ids.len() as u64;
        let id = *self.ids.entry(name.to_string()).or_insert(next);
        (id, name)
    }
}

/// One line of a transcript as typed on Discord.
pub enum Typed<'a> {
    /// `name #channel: text`: in the game's channel.
    Channel(&'a str, &'a str),
    /// `name dm: text`: a direct message to the bot.
    Direct(&'a str, &'a str),
}

/// Reads a transcript line (`None`: a comment or blank). The real clock cannot jump, so a
/// transcript typed on Discord has no `clock` lines.
pub fn typed_line(line: &str) -> Option<Typed<'_>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    assert!(
        !line.starts_with("clock"),
        "no clock lines on the real clock: {line}"
    );
    let (head, text) = line.split_once(": ").unwrap();
    let (name, place) = head.split_once(' ').unwrap();
    Some(if place == "dm" {
        Typed::Direct(name, text.trim())
    } else {
        Typed::Channel(name, text.trim())
    })
}

/// The DM channel of `user`.
pub fn dm_channel(user: u64) -> u64 {
    user + DM_BASE
}
