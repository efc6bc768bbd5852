//! How big the database grows per 10,000 messages, and what pruning gives back: on a SQLite
//! file, ten TAG games whose players send 10,000 bids by DM (each applied, logged and
//! receipted), measured compacted (`VACUUM INTO`) right after, then a month on, once the
//! pictures (`database.keep_pictures`) and the message ids (`database.keep_message_ids`) have
//! been pruned. The games' logs (every input, every event) and the delivered posts' texts
//! are kept whole: every game still replays.
//!
//! `cargo bench --bench retention` (RETENTION_MESSAGES sets the count, 10,000 by default).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{file_url, number, play_on, replay_every_game, service, start_time};
use referee::table::{Envelope, Inbound, User};

/// Games played at once.
const GAMES: usize = 10;

/// The size of a compacted copy of the database, in bytes.
async fn compacted_size(store: &referee::store::Store, dir: &std::path::Path, name: &str) -> u64 {
    let copy = dir.join(name);
    store.copy_into(&copy).await.unwrap();
    std::fs::metadata(&copy).unwrap().len()
}

#[tokio::main]
async fn main() {
    let messages: usize = std::env::var("RETENTION_MESSAGES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().unwrap();
    let service = service(&file_url(dir.path())).await;
    let mut setup = String::new();
    for game in 0..GAMES {
        setup.push_str(&format!("gm{game} #t{game}: !new tag\n"));
        for player in ["a", "b", "c"] {
            setup.push_str(&format!("{player}{game} #t{game}: !join\n"));
        }
        setup.push_str(&format!("gm{game} #t{game}: !start\n"));
    }
    play_on(&service, &setup, start_time(), &[]).await;
    let before = compacted_size(service.store(), dir.path(), "setup.db").await;
    // Bids replaced over and over, each read from the player's DM channel with its number
    // there, as Discord gives them: every one applied, logged and receipted.
    for n in 0..messages {
        let player = format!("a{}", n % GAMES);
        let envelope = Envelope {
            id: format!("bid-{n}"),
            place: Some((format!("dm-{player}"), n as i64)),
            sent: Some(start_time()),
            ..Envelope::default()
        };
        let bid = Inbound::Direct {
            user: User::named(&player),
            text: format!("bid {}", 5 + n % 20),
        };
        service.handle(&envelope, &bid, start_time()).await.unwrap();
    }
    let ids = number(&service, "SELECT COUNT(*) FROM inbound").await;
    let after = compacted_size(service.store(), dir.path(), "after.db").await;
    service
        .store()
        .prune(start_time() + chrono::Duration::days(31))
        .await
        .unwrap();
    let ids_kept = number(&service, "SELECT COUNT(*) FROM inbound").await;
    let pruned = compacted_size(service.store(), dir.path(), "pruned.db").await;
    let per = |bytes: u64| bytes as f64 / messages as f64 * 10_000.0 / 1_000_000.0;
    println!(
        "{messages} messages in {GAMES} TAG games (sign-up and start: {:.2} MB)",
        before as f64 / 1e6
    );
    println!(
        "  right after: {:.2} MB ({:.2} MB per 10,000 messages), {ids} message ids",
        after as f64 / 1e6,
        per(after - before)
    );
    println!(
        "  a month on, pruned: {:.2} MB ({:.2} MB per 10,000 messages), {ids_kept} message ids",
        pruned as f64 / 1e6,
        per(pruned.saturating_sub(before))
    );
    replay_every_game(&service).await;
    service.store().close().await;
}
