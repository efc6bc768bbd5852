//! The real bot for the benchmarks that run it on the project's Discord-compatible server
//! (`tests/discord/fake.rs`, which each such benchmark includes as `fake`): started as
//! `referee run` (this build's release binary), and the posts it makes, read as they come.

use crate::fake::{FakeDiscord, Posted, TOKEN};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The bot on the database `db`, at `pace` requests a second, with `env` besides.
pub fn start_bot(
    fake: &FakeDiscord,
    db: &std::path::Path,
    pace: u64,
    env: &[(&str, &str)],
) -> Child {
    Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["run", "--db"])
        .arg(db)
        .env("DISCORD_TOKEN", TOKEN)
        .env("REFEREE_DISCORD_API_URL", &fake.url)
        .env("REFEREE_DISCORD_GUILDS", crate::fake::GUILD.to_string())
        .env("REFEREE_DISCORD_REQUESTS_PER_SECOND", pace.to_string())
        .env("REFEREE_TABLE_TICK", "1s")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the release binary runs")
}

/// Waits until `done` holds of the posts after the first `seen` (read as they come), or
/// `limit` passes; whether it did.
pub async fn wait_posts(
    fake: &FakeDiscord,
    (mut seen, limit): (usize, Duration),
    mut take: impl FnMut(&Posted),
    done: impl Fn() -> bool,
) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        let fresh = fake.posts_after(seen);
        seen += fresh.len();
        fresh.iter().for_each(&mut take);
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

/// Opens, fills and starts `games` TAG games of `seats` players, game `n` in
/// `channel(n)` with the players `player(n, seat)` (seat 0 the GM, who plays); waits until
/// every game awaits its bids and the bot has posted nothing new for two seconds (the
/// welcomes and boards of the start have gone out).
pub async fn tag_games_started(
    fake: &FakeDiscord,
    (games, seats): (u64, u64),
    channel: fn(u64) -> u64,
    player: fn(u64, u64) -> (u64, String),
) {
    for game in 0..games {
        let gm = player(game, 0);
        fake.say((gm.0, gm.1.as_str()), Some(channel(game)), "!new tag");
        for seat in 0..seats {
            let who = player(game, seat);
            fake.say((who.0, who.1.as_str()), Some(channel(game)), "!join");
        }
        fake.say((gm.0, gm.1.as_str()), Some(channel(game)), "!start");
    }
    let started = std::cell::Cell::new(0);
    let ready = wait_posts(
        fake,
        (0, Duration::from_secs(1_200)),
        |post| {
            if post.text().contains("(bids awaited)") {
                started.set(started.get() + 1);
            }
        },
        || started.get() == games,
    )
    .await;
    assert!(ready, "only {} of {games} games started", started.get());
    let mut posted = fake.post_count();
    loop {
        tokio::time::sleep(Duration::from_secs(2)).await;
        let now = fake.post_count();
        if now == posted {
            return;
        }
        posted = now;
    }
}
