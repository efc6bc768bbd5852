//! `referee ratings --rebuild` over 10,000 finished games: on a SQLite file, games of four
//! kinds on ten servers are played to their end through the table (rated live as each ends),
//! then every result and rating is worked out again from the logs, in this process and by
//! the real binary under GNU time for its peak memory. The rebuild must give exactly what the
//! live table kept.
//!
//! `cargo bench --bench ratings` (RATINGS_GAMES=N for another number of games).

#[path = "../tests/common/mod.rs"]
mod common;

use chrono::{DateTime, Utc};
use referee::table::{Admission, Envelope, Inbound, Submission, User};
use std::time::Instant;

/// Messages applied in one commit while the games are played.
const BATCH: usize = 200;
/// Servers the games are spread over.
const SERVERS: usize = 10;
/// Players on each server.
const PLAYERS: usize = 12;

/// The messages of game `game`, played to its end: Short Circuit conceded, Parcheesi won by
/// the last player left after a kick and a leave, Carcassonne and TAG drawn.
fn game_messages(game: usize) -> Vec<Submission> {
    let server = game % SERVERS;
    let player = |k: usize| format!("p{server}-{}", (game / SERVERS + k * 5) % PLAYERS);
    let (a, b, c) = (player(0), player(1), player(2));
    let mut n = 0;
    let mut said = |user: &str, text: String| {
        n += 1;
        Submission {
            envelope: Envelope {
                server: Some(format!("s{server}")),
                ..Envelope::id(format!("g{game}-{n}"))
            },
            inbound: Inbound::Channel {
                channel: format!("c{game}"),
                user: User::named(user),
                admin: false,
                text,
            },
            answers_itself: false,
            admission: Admission::Taken,
        }
    };
    match game % 4 {
        0 => vec![
            said(&a, "!new shortcircuit".into()),
            said(&a, "!join".into()),
            said(&b, "!join".into()),
            said(&a, "!start".into()),
            said(
                if game.is_multiple_of(8) { &a } else { &b },
                "!concede".into(),
            ),
        ],
        1 => vec![
            said(&a, "!new parcheesi".into()),
            said(&a, "!join".into()),
            said(&b, "!join".into()),
            said(&c, "!join".into()),
            said(&a, "!start".into()),
            said(&a, format!("!kick {c}")),
            said(&b, "!leave".into()),
        ],
        kind => {
            let name = if kind == 2 { "carcassonne" } else { "tag" };
            vec![
                said(&a, format!("!new {name}")),
                said(&a, "!join".into()),
                said(&b, "!join".into()),
                said(&c, "!join".into()),
                said(&a, "!start".into()),
                said(&a, "!draw".into()),
                said(&b, "!draw".into()),
                said(&c, "!draw".into()),
            ]
        }
    }
}

/// GNU time's report of `referee ratings --rebuild` on `file`: wall seconds and peak KB.
fn binary_rebuild(file: &std::path::Path) -> Option<(String, String)> {
    let output = std::process::Command::new("/usr/bin/time")
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_referee"))
        .args(["ratings", "--rebuild", "--db"])
        .arg(file)
        .output()
        .ok()?;
    let report = String::from_utf8_lossy(&output.stderr).into_owned();
    let field = |name: &str| {
        report
            .lines()
            .find_map(|line| line.trim().strip_prefix(name))
            .map(|value| value.trim().to_string())
    };
    println!(
        "  binary said: {}",
        String::from_utf8_lossy(&output.stdout).trim()
    );
    Some((
        field("Elapsed (wall clock) time (h:mm:ss or m:ss):")?,
        field("Maximum resident set size (kbytes):")?,
    ))
}

#[tokio::main]
async fn main() {
    let games: usize = std::env::var("RATINGS_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().expect("folder");
    let file = dir.path().join("referee.db");
    let service = common::service(&common::file_url(dir.path())).await;
    let messages: Vec<Submission> = (0..games).flat_map(game_messages).collect();
    let start: DateTime<Utc> = common::start_time();
    let played = Instant::now();
    for (index, batch) in messages.chunks(BATCH).enumerate() {
        let now = start + chrono::Duration::seconds(index as i64);
        for result in service.handle_batch(batch, now).await {
            result.expect("a game's message");
        }
    }
    println!(
        "{games} games ({} messages) played to their end and rated live in {:.1} s",
        messages.len(),
        played.elapsed().as_secs_f64()
    );
    let live = service.store().every_rating().await.expect("ratings");
    let rebuilt_at = Instant::now();
    let rebuilt = service.rebuild_ratings().await.expect("rebuild");
    println!(
        "rebuild in this process: {} games replayed, {} rated, {} ratings, in {:.2} s ({:.0} games/s)",
        rebuilt.games,
        rebuilt.rated,
        rebuilt.ratings,
        rebuilt_at.elapsed().as_secs_f64(),
        rebuilt.games as f64 / rebuilt_at.elapsed().as_secs_f64()
    );
    assert_eq!(rebuilt.games, games);
    assert!(rebuilt.unreadable.is_empty(), "{:?}", rebuilt.unreadable);
    assert_eq!(
        service.store().every_rating().await.expect("ratings"),
        live,
        "the rebuild differs from the live ratings"
    );
    service.store().close().await;
    match binary_rebuild(&file) {
        Some((wall, peak)) => {
            println!("`referee ratings --rebuild` (the binary): {wall} wall clock, peak {peak} KB")
        }
        None => {
            println!("GNU time (/usr/bin/time) is not installed: the binary's peak is not measured")
        }
    }
}
