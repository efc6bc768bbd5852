//! What one command costs as a bot grows: on a SQLite file holding 100, 1,000 and 10,000
//! games of the test game "dicey", each with 10 board posts delivered (its start board and
//! nine more, pictures kept), the time of a command (`!status`, then a player's `status` by
//! DM) through the table, plus what the Discord adapter's deliverers do for it: find the
//! audiences with posts due, read the audience's posts, mark each delivered. It should not
//! grow with the posts ever sent: undelivered posts are found through their index, and the
//! pictures are kept apart from the posts polled.
//!
//! `cargo bench --bench command_cost` (COMMAND_COST_GAMES="100 1000 10000" chooses the sizes,
//! COMMAND_COST_COMMANDS the commands timed at each size, 2,000 by default).

#[path = "../tests/common/mod.rs"]
mod common;

use chrono::{DateTime, Utc};
use referee::records::Audience;
use referee::store::OutboxPost;
use referee::table::{Admission, Envelope, Inbound, Service, Submission, User};
use std::time::Instant;

/// Board posts each game has delivered.
const BOARDS: usize = 10;
/// Messages applied in one commit while the games are set up.
const SETUP_BATCH: usize = 200;

fn setting(name: &str, default: &str) -> Vec<usize> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_string())
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect()
}

fn channel(game: usize) -> String {
    format!("g{game}")
}

/// `!new`, three `!join` and `!start` of every game, as messages.
fn setup_messages(games: usize) -> Vec<Submission> {
    let mut messages = Vec::with_capacity(games * 5);
    for game in 0..games {
        let said = |n: usize, user: &str, text: &str| Submission {
            envelope: Envelope::id(format!("setup-{game}-{n}")),
            inbound: Inbound::Channel {
                channel: channel(game),
                user: User::named(&format!("{user}{game}")),
                admin: false,
                text: text.to_string(),
            },
            answers_itself: false,
            admission: Admission::Taken,
        };
        messages.push(said(0, "a", "!new dicey"));
        for (n, user) in ["a", "b", "c"].iter().enumerate() {
            messages.push(said(n + 1, user, "!join"));
        }
        messages.push(said(4, "a", "!start"));
    }
    messages
}

/// Opens `games` games, gives each ten delivered board posts, and returns the service.
async fn grown(url: &str, games: usize, now: DateTime<Utc>) -> Service {
    let service = common::service(url).await;
    for batch in setup_messages(games).chunks(SETUP_BATCH) {
        for result in service.handle_batch(batch, now).await {
            result.expect("set-up message");
        }
    }
    let store = service.store();
    let picture = store
        .outbox_row(
            store
                .pending(now, 1_000_000)
                .await
                .expect("posts")
                .into_iter()
                .find(|row| row.svg.is_some())
                .expect("a start board")
                .id,
        )
        .await
        .expect("row")
        .expect("row")
        .svg
        .expect("picture");
    // Nine more boards a game, as a game's rounds would post them.
    let audiences: Vec<Audience> = (0..games).map(|g| Audience::Channel(channel(g))).collect();
    for chunk in audiences.chunks(100) {
        let posts: Vec<OutboxPost> = chunk
            .iter()
            .flat_map(|to| {
                (1..BOARDS).map(|_| OutboxPost {
                    to,
                    text: "The die shows 4.",
                    svg: Some(&picture),
                    card: None,
                    file: None,
                })
            })
            .collect();
        let mut tx = store.begin().await.expect("transaction");
        tx.write(None, &posts, now).await.expect("posts");
        tx.commit().await.expect("commit");
    }
    // Everything so far went out.
    loop {
        let rows = store.pending(now, 10_000).await.expect("posts");
        if rows.is_empty() {
            break;
        }
        for row in rows {
            store.delivered(row.id, now).await.expect("delivered");
        }
    }
    service
}

/// One command and what the deliverers do for it: the audiences due, their posts, each
/// marked delivered.
async fn command(service: &Service, n: usize, games: usize, now: DateTime<Utc>) {
    let game = (n * 7919) % games;
    let inbound = match n % 2 {
        0 => Inbound::Channel {
            channel: channel(game),
            user: User::named(&format!("b{game}")),
            admin: false,
            text: "!status".to_string(),
        },
        _ => Inbound::Direct {
            user: User::named(&format!("c{game}")),
            text: "status".to_string(),
        },
    };
    service
        .handle(&Envelope::id(format!("cost-{n}")), &inbound, now)
        .await
        .expect("command");
    let store = service.store();
    for audience in store.due_audiences(Some(now)).await.expect("audiences") {
        for row in store.undelivered_of(&audience, 20).await.expect("posts") {
            store.delivered(row.id, now).await.expect("delivered");
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let sizes = setting("COMMAND_COST_GAMES", "100 1000 10000");
    let commands = *setting("COMMAND_COST_COMMANDS", "2000")
        .first()
        .unwrap_or(&2000);
    let now = common::start_time();
    let mut costs = Vec::new();
    for games in sizes {
        let dir = tempfile::tempdir().expect("folder");
        let url = common::file_url(dir.path());
        let built = Instant::now();
        let service = grown(&url, games, now).await;
        let size = std::fs::metadata(dir.path().join("referee.db"))
            .map(|m| m.len())
            .unwrap_or(0);
        // A few commands first, so every size starts warm.
        for n in 0..50 {
            command(&service, commands + n, games, now).await;
        }
        let started = Instant::now();
        for n in 0..commands {
            command(&service, n, games, now).await;
        }
        let per_command = started.elapsed() / commands as u32;
        println!(
            "{games} games, {} board posts delivered ({} MB file, built in {:.0} s): {:.3} ms a command with its delivery",
            games * BOARDS,
            size / 1_000_000,
            built.elapsed().as_secs_f64(),
            per_command.as_secs_f64() * 1000.0
        );
        costs.push(per_command);
        service.store().close().await;
    }
    if let (Some(least), Some(most)) = (costs.iter().min(), costs.iter().max()) {
        let spread = most.as_secs_f64() / least.as_secs_f64().max(f64::MIN_POSITIVE);
        println!(
            "largest over smallest cost: {spread:.2} ({})",
            if spread <= 1.2 {
                "flat within 20%"
            } else {
                "not flat"
            }
        );
    }
}
