//! Load benchmark of the table: 100 concurrent games on a SQLite file, every command through
//! the whole path (parse, authorise, apply, commit with events and outbox rows), against the
//! ceiling of bare one-row SQLite transactions on the same file with the same settings.
//!
//! `cargo bench --bench table_load` (set TABLE_LOAD_COMMANDS to change the commands per game).

#[path = "../tests/common/mod.rs"]
mod common;

use chrono::Utc;
use referee::table::{Inbound, User};
use std::time::{Duration, Instant};

const GAMES: usize = 100;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let per_game: usize = std::env::var("TABLE_LOAD_COMMANDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(60);
    let dir = tempfile::tempdir().expect("temp dir");
    let url = common::file_url(dir.path());
    let service = common::service(&url).await;
    let now = Utc::now();

    // Set up 100 games of 3 players each.
    for game in 0..GAMES {
        let channel = format!("g{game}");
        let mut lines = vec![(
            format!("gm{game}"),
            "!new dicey seed=1 early=on".to_string(),
        )];
        for player in ["a", "b", "c"] {
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
                .handle(&format!("setup-{game}-{index}"), &inbound, now)
                .await
                .expect("setup");
        }
    }

    // The load: each game's players send orders (replacing them; every third completes a
    // round, which resolves it with dice, events, the board picture and outbox rows) and ask
    // for their status, all games at once.
    let started = Instant::now();
    let mut tasks = Vec::new();
    for game in 0..GAMES {
        let service = service.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(per_game);
            for step in 0..per_game {
                let player = ["a", "b", "c"][step % 3];
                let text = if step % 7 == 6 {
                    "status".to_string()
                } else {
                    format!("guess {}", step % 6 + 1)
                };
                let inbound = Inbound::Direct {
                    user: User::named(&format!("p{game}{player}")),
                    text,
                };
                let begun = Instant::now();
                service
                    .handle(&format!("load-{game}-{step}"), &inbound, now)
                    .await
                    .expect("command");
                latencies.push(begun.elapsed());
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("task"));
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let commands = latencies.len();
    let rate = commands as f64 / elapsed.as_secs_f64();

    // The ceiling: bare one-row transactions on the same file, same settings, same concurrency.
    sqlx::query("CREATE TABLE bench (n INTEGER)")
        .execute(service.store().pool())
        .await
        .expect("table");
    let started = Instant::now();
    let mut tasks = Vec::new();
    for game in 0..GAMES {
        let store = service.store().clone();
        tasks.push(tokio::spawn(async move {
            for step in 0..per_game {
                let mut tx = store
                    .pool()
                    .begin_with("BEGIN IMMEDIATE")
                    .await
                    .expect("begin");
                sqlx::query("INSERT INTO bench (n) VALUES (?)")
                    .bind((game * per_game + step) as i64)
                    .execute(&mut *tx)
                    .await
                    .expect("insert");
                tx.commit().await.expect("commit");
            }
        }));
    }
    for task in tasks {
        task.await.expect("task");
    }
    let ceiling = (GAMES * per_game) as f64 / started.elapsed().as_secs_f64();

    println!("table_load: {GAMES} games, {commands} commands through the whole path");
    println!("  commands/s: {rate:.0}");
    println!(
        "  latency p50: {:.2} ms, p99: {:.2} ms",
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3
    );
    println!("  ceiling (bare one-row transactions, same file and settings): {ceiling:.0}/s");
    println!(
        "  ratio: {:.0}% of the ceiling (target: at least 50%)",
        rate / ceiling * 100.0
    );
}
