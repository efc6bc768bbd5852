//! Shared test fixtures: "dicey", a small test-only game that has both kinds of phase (secret
//! guesses by DM, then one player's public turn), and helpers that run transcripts through the
//! whole stack (parser, table, SQLite store, outbox).
#![allow(dead_code)]

pub mod browser;
pub mod postgres;

use chrono::{DateTime, Duration, Utc};
use rand_core::RngCore;
use referee::config;
use referee::games::Happened;
use referee::games::{
    Board, CommandHelp, Ctx, Event, Game, GameOption, Kit, LoadError, Options, Phase, Player,
    Refusal, Rules, Seat, Started, Visibility,
};
use referee::local::{Clock, Runner};
use referee::store::{Store, StoreSettings};
use referee::table::{Catalogue, Service};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The lines by which `$gm` opens a game with `!new $new` in `$channel`, the players join in
/// that order (which gives their seats) and `$gm` starts it: a transcript's opening, as a
/// literal for `concat!`.
#[macro_export]
macro_rules! game_started {
    (new $new:literal in $channel:literal by $gm:literal, joined by $($player:literal),+) => {
        concat!(
            $gm, " ", $channel, ": !new ", $new, "\n",
            $($player, " ", $channel, ": !join\n",)+
            $gm, " ", $channel, ": !start\n"
        )
    };
}

/// TAG game #1 in #tag (seed 7, GM alice), alice, bob and carol seated in that order and
/// started, awaiting bids: [`TAG_SIGNUP`] as a literal for `concat!`.
#[macro_export]
macro_rules! tag_signup {
    () => {
        $crate::game_started!(new "tag seed=7" in "#tag" by "alice", joined by "alice", "bob", "carol")
    };
}

/// TAG game #1 in #tag (seed 7, GM alice), alice, bob and carol seated in that order and
/// started, awaiting bids.
pub const TAG_SIGNUP: &str = tag_signup!();

/// Dicey game #1 in #dice (seed 7, GM alice), bob, carol and alice seated in that order and
/// started, waiting for the guesses of round 1.
pub const DICEY_SIGNUP: &str =
    game_started!(new "dicey seed=7" in "#dice" by "alice", joined by "bob", "carol", "alice");

/// The test game's rules: guess the d6; a right guess scores; then the round's leader rolls
/// publicly (`!roll`), scoring on a 6. Two points win (`to=<points>` changes that).
pub struct Dicey;

/// The registered instance.
pub static DICEY: Dicey = Dicey;

#[derive(Clone, Debug, Serialize, Deserialize)]
struct DiceyGame {
    names: Vec<String>,
    present: Vec<bool>,
    points: Vec<u32>,
    round: u32,
    roller: Option<Seat>,
    winner: Option<Seat>,
    #[serde(default = "two")]
    to: u32,
}

fn two() -> u32 {
    2
}

/// The test game, described once.
const DICEY_KIT: Kit = Kit {
    name: "dicey",
    title: "dicey",
    about: "a test game: guess the die by DM, then roll in public",
    summary: "Each round everyone guesses the die by DM; then the roller rolls it in public, and a right guess scores a point.",
    players: (2, Some(4)),
    options: &[
        GameOption::own("turn", "how long a public turn lasts", "turn"),
        GameOption::own("to", "the points that win (default 2)", "to"),
    ],
    commands: &[CommandHelp {
        name: "roll",
        usage: "roll",
        about: "rolls the die on your turn",
        aliases: &[],
    }],
    orders: &[CommandHelp {
        name: "guess",
        usage: "guess <1-6>",
        about: "your secret guess",
        aliases: &[],
    }],
    ..Kit::PLAIN
};

impl Rules for Dicey {
    fn kit(&self) -> &'static Kit {
        &DICEY_KIT
    }
    fn check_options(&self, options: &Options) -> Result<(), Refusal> {
        match options
            .keys()
            .find(|key| !["turn", "to"].contains(&key.as_str()))
        {
            Some(key) => Err(Refusal::new(format!("dicey has no option '{key}'"))),
            None => Ok(()),
        }
    }
    fn check_symbol(&self, _wanted: Option<&str>, _taken: &[String]) -> Result<(), Refusal> {
        Ok(())
    }
    fn setup(&self, options: &Options, players: &[Player], _ctx: &mut Ctx<'_>) -> Started {
        let to = match options.get("to").map(|to| to.parse::<u32>()) {
            None => 2,
            Some(Ok(to)) if to > 0 => to,
            Some(_) => return Err(Refusal::new("`to` is a number of points, at least 1")),
        };
        let game = DiceyGame {
            names: players.iter().map(|p| p.name.clone()).collect(),
            present: vec![true; players.len()],
            points: vec![0; players.len()],
            round: 1,
            roller: None,
            winner: None,
            to,
        };
        Ok((
            Box::new(game),
            vec![Event::public("Guess the die: DM me `guess <1-6>`.")],
        ))
    }
    fn load(&self, saved: &serde_json::Value) -> Result<Box<dyn Game>, LoadError> {
        serde_json::from_value::<DiceyGame>(saved.clone())
            .map(|game| Box::new(game) as Box<dyn Game>)
            .map_err(|e| LoadError {
                game: "dicey",
                reason: e.to_string(),
            })
    }
}

impl DiceyGame {
    fn check_winner(&mut self) {
        self.winner = self.points.iter().position(|p| *p >= self.to);
    }
}

impl Game for DiceyGame {
    fn phase(&self) -> Phase {
        if let Some(winner) = self.winner {
            let mut ranking = vec![vec![winner]];
            ranking.extend(
                (0..self.names.len())
                    .filter(|s| *s != winner)
                    .map(|s| vec![s]),
            );
            return Phase::Over { ranking };
        }
        match self.roller {
            Some(seat) => Phase::Turn { seat },
            None => Phase::Orders {
                seats: (0..self.names.len())
                    .filter(|s| self.present[*s])
                    .collect::<BTreeSet<_>>(),
                label: format!("guesses for round {}", self.round),
            },
        }
    }
    fn time_limit(&self, options: &Options) -> Option<Duration> {
        match self.roller {
            Some(_) => options
                .get("turn")
                .and_then(|t| referee::duration::parse_duration(t))
                .or(Some(Duration::hours(24))),
            None => Some(Duration::hours(48)),
        }
    }
    fn check_order(&self, _seat: Seat, text: &str) -> Result<String, Refusal> {
        let words: Vec<String> = text.split_whitespace().map(|w| w.to_lowercase()).collect();
        match words.as_slice() {
            [guess, n] if guess == "guess" => match n.parse::<u32>() {
                Ok(n) if (1..=6).contains(&n) => Ok(format!("guess {n}")),
                _ => Err(Refusal::new(format!(
                    "a guess is a number from 1 to 6; got '{n}'"
                ))),
            },
            _ => Err(Refusal::new("an order is `guess <1-6>`, like `guess 4`")),
        }
    }
    fn resolve(&mut self, orders: &BTreeMap<Seat, String>, ctx: &mut Ctx<'_>) -> Happened {
        let target = ctx.dice.roll("the target", 6);
        let mut events = vec![Event::public(format!("The die shows {target}."))];
        for seat in (0..self.names.len()).filter(|s| self.present[*s]) {
            let guess = orders.get(&seat).map(String::as_str).unwrap_or("guess 1");
            if guess == format!("guess {target}") {
                self.points[seat] += 1;
                events.push(Event::public(format!(
                    "{} guessed right: {} points.",
                    self.names[seat], self.points[seat]
                )));
            }
        }
        self.check_winner();
        if self.winner.is_none() {
            let count = self.names.len() as u32;
            let seat = ((self.round - 1) % count) as usize;
            self.roller = Some(seat);
            events.push(Event::to_seat(
                seat,
                "You roll next: `!roll` in the channel.",
            ));
        }
        Ok(events)
    }
    fn act(&mut self, seat: Seat, word: &str, args: &str, ctx: &mut Ctx<'_>) -> Happened {
        if word != "roll" || !args.is_empty() {
            return Err(Refusal::new("on your turn, type `!roll`"));
        }
        let roll = ctx.dice.roll(format!("{}'s roll", self.names[seat]), 6);
        let mut events = vec![Event::public(format!("{} rolls {roll}.", self.names[seat]))];
        if roll == 6 {
            self.points[seat] += 1;
            events.push(Event::public(format!(
                "{} scores: {} points.",
                self.names[seat], self.points[seat]
            )));
        }
        self.roller = None;
        self.round += 1;
        self.check_winner();
        Ok(events)
    }
    fn timeout(&mut self, _ctx: &mut Ctx<'_>) -> Vec<Event> {
        let seat = self.roller.take().unwrap_or_default();
        self.round += 1;
        vec![Event::public(format!(
            "{} did not roll; no score.",
            self.names[seat]
        ))]
    }
    fn seat_left(&mut self, seat: Seat, _heir: Option<&Player>, _ctx: &mut Ctx<'_>) -> Vec<Event> {
        self.present[seat] = false;
        if self.roller == Some(seat) {
            self.roller = None;
            self.round += 1;
        }
        let left: Vec<Seat> = (0..self.names.len()).filter(|s| self.present[*s]).collect();
        if let [last] = left.as_slice() {
            self.winner = Some(*last);
        }
        vec![Event::public(format!(
            "{} is out of the game.",
            self.names[seat]
        ))]
    }
    fn rename(&mut self, seat: Seat, name: &str) {
        if let Some(slot) = self.names.get_mut(seat) {
            *slot = name.to_string();
        }
    }
    fn board(&self) -> Board {
        let lines: Vec<String> = self
            .names
            .iter()
            .zip(&self.points)
            .map(|(name, points)| format!("{name}: {points}"))
            .collect();
        Board {
            text: format!("Scores: {}", lines.join(", ")),
            svg: Some(format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><rect width="200" height="40" fill="white"/><text x="5" y="25" font-size="14">{}</text></svg>"#,
                referee::picture::escape(&lines.join(" "))
            )),
        }
    }
    fn private_status(&self, seat: Seat) -> String {
        format!("You have {} points.", self.points[seat])
    }
    fn computer(
        &self,
        seat: Seat,
        _level: referee::games::Level,
        rng: &mut dyn RngCore,
    ) -> Option<referee::games::Decision> {
        let present = self.present.get(seat).copied().unwrap_or(false);
        (present && self.winner.is_none())
            .then(|| referee::games::Decision::Order(format!("guess {}", 1 + rng.next_u32() % 6)))
    }
    fn save(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// The players `names`, seated in that order (seat 0 first), for a game set up directly.
pub fn seated(names: &[&str]) -> Vec<Player> {
    names
        .iter()
        .enumerate()
        .map(|(seat, name)| Player::person(seat, *name))
        .collect()
}

/// The public texts of `events`, one a line: what the channel reads of them.
pub fn public_text(events: &[Event]) -> String {
    events
        .iter()
        .filter(|event| event.visibility == Visibility::Public)
        .map(|event| event.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A property's configuration: `default_cases` cases, or as many as `PROPTEST_CASES` asks
/// for (CI runs the defaults; a longer run raises them).
pub fn proptest_config(default_cases: u32) -> proptest::prelude::ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default_cases);
    proptest::prelude::ProptestConfig::with_cases(cases)
}

/// The time every transcript starts at.
pub fn start_time() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// A table service on `url` hosting the test game (plus the standard games).
pub async fn service(url: &str) -> Service {
    service_with(url, &[]).await
}

/// [`service`] with these settings, as the environment gives them
/// (`("REFEREE_TABLE_COMPUTER_ROLLOUTS", "24")`).
pub async fn service_with(url: &str, settings: &[(&str, &str)]) -> Service {
    let settings = settings
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()));
    let config = config::load(None, settings).unwrap();
    let store = Store::open(&StoreSettings {
        url: url.to_string(),
        ..config.store.clone()
    })
    .await
    .unwrap();
    let mut games = Catalogue::standard().all().to_vec();
    games.push(&DICEY);
    Service::new(store, Catalogue::new(games), config.table.clone())
}

/// The settings the bot loads with no file and no environment, its store on the database `url`.
pub fn default_config(url: &str) -> config::Config {
    let mut config = config::load(None, std::iter::empty()).unwrap();
    config.store.url = url.to_string();
    config
}

/// A service of the standard games (no dicey) as the bot opens it with `config`.
pub async fn standard_service(config: &config::Config) -> Service {
    let store = Store::open(&config.store).await.unwrap();
    Service::new(store, Catalogue::standard(), config.table.clone())
}

/// The names of the games the test service hosts, as the bot lists them ("tag, circuit, ...,
/// dicey"), so a test of the list does not keep one of its own.
pub fn game_names() -> String {
    let mut names: Vec<&str> = Catalogue::standard()
        .all()
        .iter()
        .map(|rules| rules.name())
        .collect();
    names.push(DICEY.name());
    names.join(", ")
}

/// A console runner on `service`, started, whose clock moves only when a line says so, from
/// `start`; `admins` are server admins, and pictures are kept in `pictures` (none: drawn but
/// not kept).
pub async fn runner_on(
    service: &Service,
    start: DateTime<Utc>,
    admins: &[&str],
    pictures: Option<PathBuf>,
) -> Runner<Vec<u8>> {
    let mut runner = Runner::new(
        service.clone(),
        Clock::Manual(start),
        admins.iter().map(|a| a.to_string()).collect(),
        pictures,
        Vec::new(),
    );
    runner.start().await.unwrap();
    runner
}

/// Plays `transcript` on `service` from `start` with `admins`, returning every output line.
pub async fn play_on(
    service: &Service,
    transcript: &str,
    start: DateTime<Utc>,
    admins: &[&str],
) -> String {
    let pictures = Some(std::env::temp_dir().join("referee-test-pictures"));
    let mut runner = runner_on(service, start, admins, pictures).await;
    for (index, line) in transcript.lines().enumerate() {
        runner.line(line, index + 1).await.unwrap();
    }
    String::from_utf8(runner.into_output()).unwrap()
}

/// Plays a transcript on a fresh in-memory database, then replays every game it played
/// from its seed and inputs: each must give the logged events and the stored state.
pub async fn play(transcript: &str) -> String {
    let service = service("sqlite::memory:").await;
    let out = play_on(&service, transcript, start_time(), &[]).await;
    replay_every_game(&service).await;
    out
}

/// Plays a transcript like [`play`] on a service with these settings ([`service_with`]).
pub async fn play_with(transcript: &str, settings: &[(&str, &str)]) -> String {
    let service = service_with("sqlite::memory:", settings).await;
    let out = play_on(&service, transcript, start_time(), &[]).await;
    replay_every_game(&service).await;
    out
}

/// Plays a transcript like [`play`], on an in-memory SQLite database and again on a fresh
/// PostgreSQL database when a test server is set: both must say the same, line for line, and
/// replay. Returns what was said.
pub async fn play_on_both(transcript: &str) -> String {
    let out = play(transcript).await;
    if let Some(database) = postgres::fresh().await {
        let service = service(&database.url).await;
        let on_postgres = play_on(&service, transcript, start_time(), &[]).await;
        replay_every_game(&service).await;
        service.store().close().await;
        assert_eq!(
            out, on_postgres,
            "SQLite and PostgreSQL said different things"
        );
    }
    out
}

/// A database a test runs on, and what keeps it until the test ends.
pub struct Database {
    /// Its URL.
    pub url: String,
    /// The PostgreSQL database, dropped with this.
    _postgres: Option<postgres::TestDatabase>,
}

/// The databases a test runs on: the SQLite database `sqlite` names, then a fresh PostgreSQL
/// database when a test server is set.
pub async fn databases(sqlite: &str) -> Vec<Database> {
    let mut all = vec![Database {
        url: sqlite.to_string(),
        _postgres: None,
    }];
    if let Some(database) = postgres::fresh().await {
        all.push(Database {
            url: database.url.clone(),
            _postgres: Some(database),
        });
    }
    all
}

/// Runs `check` with the URL of a fresh SQLite file database, then of a fresh PostgreSQL
/// database when a test server is set: for what must hold on every kind of database.
pub async fn on_file_and_postgres<F, Fut>(check: F)
where
    F: Fn(String) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let dir = tempfile::tempdir().unwrap();
    for database in databases(&file_url(dir.path())).await {
        check(database.url.clone()).await;
    }
}

/// A service on `url` with a dicey game of bob, carol and alice waiting for their guesses
/// ([`DICEY_SIGNUP`]).
pub async fn dicey_waiting_for_guesses(url: &str) -> Service {
    let service = service(url).await;
    play_on(&service, DICEY_SIGNUP, start_time(), &[]).await;
    service
}

/// Runs a statement that gives one whole number (a count) on the database behind `service`,
/// whichever it is.
pub async fn number(service: &Service, sql: &str) -> i64 {
    use referee::store::Pool;
    match service.store().pool() {
        Pool::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await.unwrap(),
        Pool::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await.unwrap(),
    }
}

/// Runs statements that give nothing back on the database behind `service`.
pub async fn execute(service: &Service, sql: &str) {
    use referee::store::Pool;
    use sqlx::Executor;
    match service.store().pool() {
        Pool::Sqlite(pool) => pool.execute(sql).await.map(|_| ()).unwrap(),
        Pool::Postgres(pool) => pool.execute(sql).await.map(|_| ()).unwrap(),
    }
}

/// Runs a statement that gives texts (one column) on the database behind `service`.
pub async fn texts(service: &Service, sql: &str) -> Vec<String> {
    use referee::store::Pool;
    match service.store().pool() {
        Pool::Sqlite(pool) => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
        Pool::Postgres(pool) => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
    }
}

/// `count` public game events for a game's log, the n-th in round `round(n)` saying `text(n)`.
pub fn public_log_events(
    count: u64,
    round: impl Fn(u64) -> u64,
    text: impl Fn(u64) -> String,
) -> Vec<referee::records::LogEvent> {
    use referee::records::{EventBody, LogEvent, LogVisibility};
    (0..count)
        .map(|n| LogEvent {
            round: round(n),
            visibility: LogVisibility::Public,
            body: EventBody::Game(text(n)),
        })
        .collect()
}

/// A change that leaves `record` as it is given and logs `events` for `input` (none: a
/// housekeeping change), the seats unchanged and the input applied when it was sent.
pub fn change_logging<'a>(
    record: &'a referee::records::GameRecord,
    input: Option<&'a referee::records::Input>,
    events: &'a [referee::records::LogEvent],
) -> referee::store::GameChange<'a> {
    referee::store::GameChange {
        record,
        seats_changed: false,
        sent: None,
        input,
        events,
    }
}

/// The texts of the posts in `store`'s outbox not yet delivered, after the post `after`.
pub async fn undelivered_texts(store: &Store, after: i64) -> Vec<String> {
    store
        .undelivered_after(after)
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.body)
        .collect()
}

/// Hands `service` the message `inbound` (envelope `id`) sent at `sent` and read at `now`;
/// returns the texts of the posts it caused.
pub async fn handle_sent_at(
    service: &Service,
    id: &str,
    inbound: &referee::table::Inbound,
    sent: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Vec<String> {
    let before = service.store().last_outbox_id().await.unwrap();
    let envelope = referee::table::Envelope {
        id: id.to_string(),
        place: None,
        sent: Some(sent),
        ..referee::table::Envelope::default()
    };
    service.handle(&envelope, inbound, now).await.unwrap();
    undelivered_texts(service.store(), before).await
}

/// The text of every post in the outbox of the database behind `service`, in order.
pub async fn outbox_texts(service: &Service) -> Vec<String> {
    texts(service, "SELECT body FROM outbox ORDER BY id").await
}

/// How many of `posts` contain `needle`.
pub fn posts_containing(posts: &[String], needle: &str) -> usize {
    posts.iter().filter(|post| post.contains(needle)).count()
}

/// How many of `posts` start with `prefix`.
pub fn posts_starting_with(posts: &[String], prefix: &str) -> usize {
    posts.iter().filter(|post| post.starts_with(prefix)).count()
}

/// Replays every game on `service` (numbered from 1) and asserts each matches its log.
pub async fn replay_every_game(service: &Service) {
    let mut id = 1;
    while let Ok(report) = referee::table::audit::replay(service, id).await {
        assert!(
            report.matches(),
            "game #{id} does not replay: {:?}",
            report.differences
        );
        id += 1;
    }
}

/// A SQLite URL for a file in `dir`.
pub fn file_url(dir: &Path) -> String {
    format!("sqlite://{}", dir.join("referee.db").display())
}

/// Counts the output lines containing `needle`.
pub fn count(output: &str, needle: &str) -> usize {
    output.lines().filter(|line| line.contains(needle)).count()
}

/// Asserts that `out` contains each of `expected`, naming the one missing and showing `out`.
#[track_caller]
pub fn assert_says(out: &str, expected: &[&str]) {
    for line in expected {
        assert!(out.contains(line), "expected {line:?} in:\n{out}");
    }
}

/// Runs the real `referee` binary with `args` (and the transcript `script`, if given, as its
/// file argument), returning (exit success, stdout, stderr).
pub fn referee(args: &[&str], script: Option<&str>) -> (bool, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_referee"));
    command.args(args);
    if let Some(script) = script {
        let path = dir.path().join("transcript.txt");
        std::fs::write(&path, script).unwrap();
        command.arg(&path);
        command.arg("--pictures").arg(dir.path().join("pictures"));
    }
    let output = command.output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The real `referee` binary run as a user file modes apply to: root ignores them, so as root
/// it runs as `nobody`.
pub fn unprivileged_referee() -> std::process::Command {
    use std::process::Command;
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if root {
        let mut command = Command::new("setpriv");
        command.args(["--reuid=65534", "--regid=65534", "--clear-groups"]);
        command.arg(env!("CARGO_BIN_EXE_referee"));
        command
    } else {
        Command::new(env!("CARGO_BIN_EXE_referee"))
    }
}

/// The real `referee local` console on the database file `db`, keeping its pictures in
/// `pictures`, with its input and output piped (standard error is the caller's to set).
pub fn local_console(db: &Path, pictures: &Path) -> std::process::Command {
    use std::process::Stdio;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_referee"));
    command
        .args(["local", "--db"])
        .arg(db)
        .arg("--pictures")
        .arg(pictures)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    command
}

/// Runs the real `referee` with `args`, its reader gone before anything is written (like
/// `referee ... | head -0`); returns whether it succeeded and what it said on standard error.
pub fn referee_with_stdout_closed(args: &[&str]) -> (bool, String) {
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A transcript of `opening`, then the line `clock` `times` times (deadlines passing), then
/// `closing`: a long game played out on the manual clock.
pub fn transcript_with_clock(
    opening: &[&str],
    clock: &str,
    times: usize,
    closing: &[&str],
) -> String {
    let mut lines = opening.to_vec();
    lines.extend(std::iter::repeat_n(clock, times));
    lines.extend_from_slice(closing);
    lines.join("\n") + "\n"
}

/// Runs `transcript` through `referee script` on the new SQLite file `name` in `dir`, asserting
/// it succeeds; returns the file's path (for the commands that follow) and what was posted.
#[track_caller]
pub fn script_on_file(dir: &Path, name: &str, transcript: &str) -> (String, String) {
    let db = dir.join(name).to_str().unwrap().to_string();
    let (ok, out, err) = referee(&["script", "--db", &db], Some(transcript));
    assert!(ok, "{err}");
    (db, out)
}

/// Runs `referee replay <game>` on the database file `db`, asserting the game matches its
/// log; returns what it said.
#[track_caller]
pub fn replay_file(db: &str, game: &str) -> String {
    let (ok, said, err) = referee(&["replay", game, "--db", db], None);
    assert!(ok && said.contains("match the log"), "{said}{err}");
    said
}

/// Runs `referee export 1` on the database file `db` (with `--secret` when `secret`),
/// asserting it succeeds; returns the export.
#[track_caller]
pub fn export_file(db: &str, secret: bool) -> String {
    let mut args = vec!["export", "1", "--db", db];
    if secret {
        args.push("--secret");
    }
    let (ok, export, err) = referee(&args, None);
    assert!(ok, "{err}");
    export
}

/// A fresh temporary folder holding the file `name` with `contents`: the folder (removed when
/// dropped) and the file's path.
pub fn temp_file(name: &str, contents: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, contents).unwrap();
    (dir, file)
}

/// Compares `svg` with the snapshot `name` in tests/snapshots/ (looked at as PNG when it was
/// written): UPDATE_SNAPSHOTS=1 rewrites it after an intended change, SNAPSHOT_PNG_DIR=<folder>
/// writes the PNG to look at. The PNG must stay under Discord's 8 MB.
pub fn check_snapshot(name: &str, svg: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(&path, svg).unwrap();
    }
    let png = referee::picture::png_from_svg(svg).unwrap();
    if let Ok(dir) = std::env::var("SNAPSHOT_PNG_DIR") {
        std::fs::write(Path::new(&dir).join(name.replace(".svg", ".png")), &png).unwrap();
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(stored == svg, "{name} differs from its snapshot; look at the new picture and rerun with UPDATE_SNAPSHOTS=1 if intended");
    assert!(png.len() < 8 * 1024 * 1024, "under Discord's 8 MB");
}
