//! Load benchmark of the table: 100 concurrent games on a SQLite file (or a PostgreSQL
//! database), every command through the whole path (parse, authorise, apply, commit with
//! events and outbox rows) and through the group commit the bot uses (messages queued while a
//! commit is under way share the next one, each in its own savepoint), against the ceiling of
//! bare one-row transactions on the same database with the same settings (on PostgreSQL
//! through the store's pool of connections, so they also run side by side). Then latency at
//! a steady offered load (200 commands/s by default), from submission to durable commit.
//!
//! Saturation is measured in alternating slices (commands, then bare transactions, and
//! again), so both meet the same write-ahead log: a log that is growing, or being
//! checkpointed, makes every commit slower, and measuring one after the other would hand that
//! cost to one side.
//!
//! `cargo bench --bench table_load` (TABLE_LOAD_COMMANDS sets the commands per game and slice,
//! TABLE_LOAD_SLICES the number of slices, TABLE_LOAD_RATE the offered load in commands/s and
//! TABLE_LOAD_SECONDS how long it is offered). With TABLE_LOAD_BACKEND=postgres it runs on a
//! fresh database of the PostgreSQL server TEST_POSTGRES_URL names.

#[path = "../tests/common/mod.rs"]
mod common;

use chrono::{DateTime, Utc};
use referee::store::Pool;
use referee::table::{Envelope, GroupCommit, Inbound, User};
use std::sync::Arc;
use std::time::{Duration, Instant};

const GAMES: usize = 100;
const PLAYERS: [&str; 3] = ["a", "b", "c"];

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// The `step`-th command of a game: each game plays rounds for ever (`to=1000000`): the three
/// players' secret guesses (the third resolves the round: a die roll, events, the board
/// picture, outbox rows), then the round's roller rolls in the channel, then a player asks for
/// their status.
fn command(game: usize, step: usize) -> Inbound {
    let round = step / 5;
    match step % 5 {
        guesser @ 0..=2 => Inbound::Direct {
            user: User::named(&format!("p{game}{}", PLAYERS[guesser])),
            text: format!("guess {}", (step + round) % 6 + 1),
        },
        3 => Inbound::Channel {
            channel: format!("g{game}"),
            user: User::named(&format!("p{game}{}", PLAYERS[round % 3])),
            admin: false,
            text: "!roll".to_string(),
        },
        _ => Inbound::Direct {
            user: User::named(&format!("p{game}{}", PLAYERS[step % 3])),
            text: "status".to_string(),
        },
    }
}

/// Plays steps `from..to` of every game at once, each game's commands one after the other;
/// returns the wall time and every latency.
async fn commands(
    table: &Arc<GroupCommit>,
    from: usize,
    to: usize,
    now: DateTime<Utc>,
) -> (Duration, Vec<Duration>) {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for game in 0..GAMES {
        let table = table.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(to - from);
            for step in from..to {
                let begun = Instant::now();
                submit(&table, game, step, now).await;
                latencies.push(begun.elapsed());
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("task"));
    }
    (started.elapsed(), latencies)
}

/// Submits step `step` of `game` and waits for its commit.
async fn submit(table: &GroupCommit, game: usize, step: usize, now: DateTime<Utc>) {
    table
        .submit(
            Envelope::id(format!("load-{game}-{step}")),
            command(game, step),
            false,
            now,
        )
        .await
        .expect("command");
}

/// Offers `rate` commands a second for `seconds`, spread over the games (each game's next
/// step), whatever the table's pace; returns the latency of each, submission to commit.
async fn offered_load(
    table: &Arc<GroupCommit>,
    rate: usize,
    seconds: usize,
    first_step: usize,
    now: DateTime<Utc>,
) -> Vec<Duration> {
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate.max(1) as f64));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let mut tasks = Vec::new();
    for n in 0..rate * seconds {
        tick.tick().await;
        let table = table.clone();
        let (game, step) = (n % GAMES, first_step + n / GAMES);
        tasks.push(tokio::spawn(async move {
            let begun = Instant::now();
            submit(&table, game, step, now).await;
            begun.elapsed()
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.push(task.await.expect("task"));
    }
    latencies.sort();
    latencies
}

/// Commits `per_game` bare one-row transactions for each of the games at once, on the
/// service's own pool; returns the wall time.
async fn bare_transactions(table: &GroupCommit, per_game: usize, first: usize) -> Duration {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for game in 0..GAMES {
        let pool = table.service().store().pool().clone();
        tasks.push(tokio::spawn(async move {
            for step in 0..per_game {
                let n = (first + game * per_game + step) as i64;
                match &pool {
                    Pool::Sqlite(pool) => {
                        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await.expect("begin");
                        sqlx::query("INSERT INTO bench (n) VALUES (?)")
                            .bind(n)
                            .execute(&mut *tx)
                            .await
                            .expect("insert");
                        tx.commit().await.expect("commit");
                    }
                    Pool::Postgres(pool) => {
                        let mut tx = pool.begin().await.expect("begin");
                        sqlx::query("INSERT INTO bench (n) VALUES ($1)")
                            .bind(n)
                            .execute(&mut *tx)
                            .await
                            .expect("insert");
                        tx.commit().await.expect("commit");
                    }
                }
            }
        }));
    }
    for task in tasks {
        task.await.expect("task");
    }
    started.elapsed()
}

// The runtime the bot runs on (`referee run` and `local` use a current-thread runtime).
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let per_slice = setting("TABLE_LOAD_COMMANDS", 20);
    let slices = setting("TABLE_LOAD_SLICES", 5);
    let rate = setting("TABLE_LOAD_RATE", 200);
    let seconds = setting("TABLE_LOAD_SECONDS", 10);
    let dir = tempfile::tempdir().expect("temp dir");
    let backend = std::env::var("TABLE_LOAD_BACKEND").unwrap_or_default();
    let postgres = match backend.as_str() {
        "" | "sqlite" => None,
        "postgres" => Some(
            common::postgres::fresh()
                .await
                .expect("TABLE_LOAD_BACKEND=postgres needs TEST_POSTGRES_URL"),
        ),
        other => panic!("TABLE_LOAD_BACKEND is sqlite or postgres, not {other}"),
    };
    let url = match &postgres {
        Some(database) => database.url.clone(),
        None => common::file_url(dir.path()),
    };
    let service = common::service(&url).await;
    let now = Utc::now();

    // Set up 100 games of 3 players each.
    for game in 0..GAMES {
        let channel = format!("g{game}");
        let mut lines = vec![(
            format!("gm{game}"),
            "!new dicey early=on to=1000000".to_string(),
        )];
        for player in PLAYERS {
            lines.push((format!("p{game}{player}"), "!join".to_string()));
        }
        lines.push((format!("gm{game}"), "!start".to_string()));
        for (index, (user, text)) in lines.into_iter().enumerate() {
            let inbound = Inbound::Channel {
                channel: channel.clone(),
                user: User::named(&user),
                admin: false,
                text,
            };
            service
                .handle(
                    &Envelope::id(format!("setup-{game}-{index}")),
                    &inbound,
                    now,
                )
                .await
                .expect("setup");
        }
    }
    common::execute(&service, "CREATE TABLE bench (n BIGINT)").await;
    let table = Arc::new(GroupCommit::new(service.clone()));

    let mut load_time = Duration::ZERO;
    let mut ceiling_time = Duration::ZERO;
    let mut latencies = Vec::new();
    for slice in 0..slices {
        let from = slice * per_slice;
        let (took, mut more) = commands(&table, from, from + per_slice, now).await;
        load_time += took;
        latencies.append(&mut more);
        ceiling_time += bare_transactions(&table, per_slice, from * GAMES).await;
    }
    latencies.sort();
    let commands = latencies.len();
    let throughput = commands as f64 / load_time.as_secs_f64();
    let ceiling = commands as f64 / ceiling_time.as_secs_f64();
    let steady = offered_load(&table, rate, seconds, slices * per_slice, now).await;
    // How many commands changed a game (the five set-up inputs of each game aside; the rest
    // are answers: status, or a refusal).
    let changed = common::number(&service, "SELECT COUNT(*) FROM inputs WHERE seq > 5").await;

    println!(
        "table_load on {}: {GAMES} games, {commands} commands through the whole path, in {slices} slices alternating with as many bare transactions",
        match postgres {
            Some(_) => "PostgreSQL",
            None => "SQLite",
        }
    );
    println!("  of which changed a game (orders, resolutions, rolls): {changed}");
    println!("  commands/s at saturation (group commit): {throughput:.0}");
    println!(
        "  latency p50: {:.2} ms, p99: {:.2} ms (100 games queueing for one writer)",
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3
    );
    println!("  ceiling (bare one-row transactions, same database and settings): {ceiling:.0}/s");
    println!(
        "  ratio: {:.0}% of the ceiling (target: at least 50%)",
        throughput / ceiling * 100.0
    );
    println!(
        "  at {rate} commands/s offered for {seconds} s ({} commands): latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (target: p99 under 5 ms)",
        steady.len(),
        percentile(&steady, 0.5).as_secs_f64() * 1e3,
        percentile(&steady, 0.99).as_secs_f64() * 1e3,
        steady.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
}
