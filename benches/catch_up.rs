//! Start-up on a big shard, through the real `referee run` binary (this build's release
//! binary) on the project's Discord-compatible server (`tests/discord/fake.rs`): a bot in
//! 2,500 servers keeps 1,000 running TAG games, one per server, each in its own channel (every
//! server also has a channel without a game). It is killed; while it is down players send it
//! bids by DM, ask for a game's status in its channel, and open new games in channels
//! without one; then it starts again with the fake answering 50 requests a second (Discord's
//! global limit for a bot, kept as a proxy keeps it) and the bot's own pace at 50.
//!
//! Measured from the moment the bot's new session is up (READY): the first answer to a live
//! message (a status asked then in a game nothing was missed in, and five bids by DM one
//! second apart), when every missed message has been answered, and when the bot says it has
//! caught up (`referee_caught_up 1` on its `/metrics`); the requests the bot made by kind;
//! that every missed and live message got exactly one answer.
//!
//! `cargo bench --bench catch_up` runs 2,500 servers and 1,000 games of 3 players (the GM
//! plays). CATCH_UP_SERVERS, CATCH_UP_GAMES, CATCH_UP_SEATS and CATCH_UP_PACE change them;
//! CATCH_UP_MISSED the number of games with a missed bid (and as many with a missed status,
//! and a tenth as many new games typed in channels without one); CATCH_UP_LIMIT the seconds
//! waited after the restart (900).

#[allow(dead_code)]
#[path = "../tests/discord/fake.rs"]
mod fake;

#[path = "shared/machine.rs"]
mod machine;

#[path = "shared/bot.rs"]
mod bot;

use bot::{start_bot, tag_games_started, wait_posts};
use fake::{FakeDiscord, Posted};
use machine::load_average;
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// The server `server` (ids kept apart from users, channels and DM channels).
fn guild(server: u64) -> u64 {
    3_000_000 + server
}

/// The channel without a game of server `server`.
fn lounge(server: u64) -> u64 {
    20_000 + server
}

/// The game channel of game `game`.
fn channel(game: u64) -> u64 {
    5_000 + game
}

/// The player in `seat` of game `game` (seat 0 is the GM).
fn player(game: u64, seat: u64) -> (u64, String) {
    (100_000 + game * 10 + seat, format!("g{game}p{seat}"))
}

fn say(fake: &FakeDiscord, who: &(u64, String), channel: Option<u64>, text: &str) -> u64 {
    fake.say((who.0, who.1.as_str()), channel, text)
}

/// A free local address for the bot's operator's listener.
fn free_address() -> String {
    let socket = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    socket.local_addr().unwrap().to_string()
}

/// Whether the bot's metrics say every shard has caught up.
async fn caught_up(health: &str) -> bool {
    match reqwest::get(format!("http://{health}/metrics")).await {
        Ok(answer) => answer
            .text()
            .await
            .is_ok_and(|text| text.lines().any(|line| line == "referee_caught_up 1")),
        Err(_) => false,
    }
}

/// What a post answers, if it answers a message the bench waits for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Answer {
    /// A receipt of the bid of this user.
    Bid(u64),
    /// The status of the game in this channel.
    Status(u64),
    /// A game opened in this channel.
    Opened(u64),
}

fn answer(post: &Posted) -> Option<Answer> {
    match post.dm_user {
        Some(user) if post.content.contains("order received for bids") => Some(Answer::Bid(user)),
        Some(_) => None,
        None if post.content.contains("is open for sign-ups") => Some(Answer::Opened(post.channel)),
        None if post.content.starts_with("Game #") && post.content.contains("(tag)") => {
            Some(Answer::Status(post.channel))
        }
        None => None,
    }
}

#[tokio::main]
async fn main() {
    let servers = setting("CATCH_UP_SERVERS", 2_500);
    let games = setting("CATCH_UP_GAMES", 1_000).min(servers);
    let seats = setting("CATCH_UP_SEATS", 3).max(3);
    let pace = setting("CATCH_UP_PACE", 50);
    let missed_games = setting("CATCH_UP_MISSED", 100).min(games / 2);
    let limit = Duration::from_secs(setting("CATCH_UP_LIMIT", 900));
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");

    // Every server has a lounge with a message; the first `games` have a game channel too.
    for server in 0..servers {
        fake.put_channel_in(lounge(server), guild(server));
        say(&fake, &player(server, 9), Some(lounge(server)), "hello");
    }
    for game in 0..games {
        fake.put_channel_in(channel(game), guild(game));
    }
    let setup_started = Instant::now();
    let health = free_address();
    let mut bot = start_bot(&fake, &db, 5_000, &[("REFEREE_HEALTH_LISTEN", &health)]);
    fake.wait_ready().await;
    tag_games_started(&fake, (games, seats), channel, player).await;
    println!(
        "{servers} servers, {games} running TAG games of {seats} players: set up in {:.0} s",
        setup_started.elapsed().as_secs_f64()
    );
    // The shard goes on for a while (the bot's mark, every message applied until ten seconds
    // before, moves every ten seconds past the games' last posts), with some chatter, then
    // the bot dies.
    tokio::time::sleep(Duration::from_secs(25)).await;
    for server in 0..servers.min(20) {
        say(
            &fake,
            &player(server, 9),
            Some(lounge(server)),
            "still here",
        );
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let _ = bot.kill();
    let _ = bot.wait();
    fake.wait_disconnected().await;

    // While the bot is down: a bid by DM in the first `missed_games` games, a status asked in
    // the next as many, and a new game in the lounges of a tenth as many servers without one.
    let mut awaited: HashMap<Answer, usize> = HashMap::new();
    for game in 0..missed_games {
        say(&fake, &player(game, 1), None, "bid 10");
        awaited.insert(Answer::Bid(player(game, 1).0), 0);
        let other = missed_games + game;
        say(&fake, &player(other, 2), Some(channel(other)), "!status");
        awaited.insert(Answer::Status(channel(other)), 0);
    }
    for server in (games..servers).take((missed_games / 10) as usize) {
        say(&fake, &player(server, 9), Some(lounge(server)), "!new tag");
        awaited.insert(Answer::Opened(lounge(server)), 0);
    }
    let missed = awaited.len();

    // Back up, at Discord's pace.
    fake.pace(pace);
    let requests_before = fake.requests();
    let before = load_average();
    let skip = fake.post_count();
    let mut bot = start_bot(&fake, &db, pace, &[("REFEREE_HEALTH_LISTEN", &health)]);
    fake.wait_ready().await;
    let up = Instant::now();
    // Asked at once: the status of a game nothing was missed in.
    let asked = channel(games - 10);
    say(&fake, &player(games - 10, 1), Some(asked), "!status");
    let mut sent = HashMap::from([(Answer::Status(asked), Instant::now())]);
    awaited.insert(Answer::Status(asked), 0);
    let catching_up = tokio::spawn({
        let health = health.clone();
        async move {
            while !caught_up(&health).await {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            up.elapsed()
        }
    });
    // Live bids, one a second, from players of games nothing was missed in.
    let probes: Vec<(u64, String)> = (0..5).map(|n| player(games - 1 - n, 2)).collect();
    for (n, probe) in probes.iter().enumerate() {
        if let Some(wait) =
            (up + Duration::from_secs(n as u64)).checked_duration_since(Instant::now())
        {
            tokio::time::sleep(wait).await;
        }
        say(&fake, probe, None, "bid 7");
        sent.insert(Answer::Bid(probe.0), Instant::now());
        awaited.insert(Answer::Bid(probe.0), 0);
    }
    let answered: std::cell::RefCell<HashMap<Answer, Instant>> = Default::default();
    let total = awaited.len();
    let all = wait_posts(
        &fake,
        (skip, limit),
        |post| {
            if let Some(what) = answer(post) {
                if let Some(count) = awaited.get_mut(&what) {
                    *count += 1;
                    answered.borrow_mut().entry(what).or_insert(post.at);
                }
            }
        },
        || answered.borrow().len() == total,
    )
    .await;
    let caught_up = tokio::time::timeout(limit.saturating_sub(up.elapsed()), catching_up)
        .await
        .ok()
        .and_then(Result::ok)
        .map_or(f64::NAN, |took| took.as_secs_f64());
    let requests_after = fake.requests();
    let after = load_average();
    let _ = bot.kill();
    let _ = bot.wait();

    let answered = answered.into_inner();
    let since_up = |at: &Instant| at.duration_since(up).as_secs_f64();
    let first_live = sent
        .keys()
        .filter_map(|what| answered.get(what))
        .min()
        .map_or(f64::NAN, since_up);
    let mut live: Vec<f64> = sent
        .iter()
        .filter_map(|(what, at)| {
            answered
                .get(what)
                .map(|done| done.duration_since(*at).as_secs_f64() * 1000.0)
        })
        .collect();
    live.sort_by(f64::total_cmp);
    let last_missed = answered
        .iter()
        .filter(|(what, _)| !sent.contains_key(*what))
        .map(|(_, at)| since_up(at))
        .fold(0.0, f64::max);
    let lost = awaited.values().filter(|count| **count == 0).count();
    let doubled = awaited.values().filter(|count| **count > 1).count();
    println!(
        "restart at {pace} requests/s: {missed} missed messages, {} live messages (a status asked at once, then a bid by DM a second){}",
        sent.len(),
        if all { "" } else { " (timed out waiting for the rest)" }
    );
    println!("  first answer to a live message: {first_live:.2} s after the session was up");
    println!(
        "  live message -> answer: {} ms",
        live.iter()
            .map(|ms| format!("{ms:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("  the last missed message answered {last_missed:.1} s after the session was up; catch-up complete (referee_caught_up 1) after {caught_up:.1} s");
    println!("  lost {lost}, answered twice {doubled}");
    let made: Vec<String> = requests_after
        .iter()
        .map(|(kind, count)| {
            let made = count - requests_before.get(kind).copied().unwrap_or(0);
            format!("{kind} {made}")
        })
        .collect();
    println!("  requests after the restart: {}", made.join(", "));
    println!("  load average before {before}, after {after}");
}
