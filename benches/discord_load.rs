//! The whole path under load, through the real `referee run` binary (this build's release
//! binary) on the project's Discord-compatible server (`tests/discord/fake.rs`): N TAG games
//! of 5 players, each game in its own channel, started; then every player sends a bid by DM,
//! all within 5 seconds, in a random order. Measured: each bid's latency from the message
//! (dispatched on the gateway) to its receipt (created on the server) at p50, p99 and max;
//! the board posts the last bids resolve, per second; and that every bid got exactly one
//! receipt and every game exactly one resolution. With the load average of the machine
//! before and after.
//!
//! `cargo bench --bench discord_load` runs N = 50 and 200 at the bot's default pace (50
//! requests a second: Discord's global limit for a bot) and again at a pace the fake allows
//! (`DISCORD_LOAD_PACE`, 2000 by default): the first shows what a bot under Discord's
//! default limit can give, the second what the bot itself can. DISCORD_LOAD_GAMES="50 200"
//! and DISCORD_LOAD_PACES="50 2000" choose the runs; DISCORD_LOAD_WINDOW the seconds the
//! bids are spread over (5). Also printed: the receipts' p50 and p99 by the second of the
//! window the bid was sent in (a delay that grows shows a throughput the bot lacks), the
//! bot's CPU time over the bids (user + system, from /proc) and its resident memory at the
//! end and at its peak.

#[allow(dead_code)]
#[path = "../tests/discord/fake.rs"]
mod fake;

#[path = "shared/machine.rs"]
mod machine;

#[path = "shared/bot.rs"]
mod bot;

use bot::{start_bot, tag_games_started, wait_posts};
use fake::FakeDiscord;
use machine::load_average;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Players per game.
const SEATS: u64 = 5;

fn setting(name: &str, default: &str) -> Vec<u64> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_string())
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect()
}

/// The game channel of game `game`.
fn channel(game: u64) -> u64 {
    5_000 + game
}

/// The player in `seat` of game `game` (seat 0 is the GM).
fn player(game: u64, seat: u64) -> (u64, String) {
    let id = 10_000 + game * 10 + seat;
    (id, format!("g{game}p{seat}"))
}

/// The bot's CPU seconds so far (user + system), read from /proc.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's name (which is in parentheses and may hold spaces):
    // utime and stime are the 12th and 13th of them, in clock ticks (100 a second on Linux).
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|n| n.parse::<u64>().ok())
        .sum();
    ticks as f64 / 100.0
}

/// The bot's resident memory now and at its peak, in MiB (VmRSS and VmHWM in /proc).
fn resident_mib(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(0.0, |kib| kib / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

async fn run(games: u64, pace: u64, window: Duration) {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let mut bot = start_bot(&fake, &dir.path().join("referee.db"), pace, &[]);
    fake.wait_ready().await;
    let before = load_average();

    // Every game opened, joined and started; then the start posts delivered.
    tag_games_started(&fake, (games, SEATS), channel, player).await;

    // Every player bids, spread over the window in a random order.
    let mut order: Vec<(u64, u64)> = (0..games)
        .flat_map(|game| (0..SEATS).map(move |seat| (game, seat)))
        .collect();
    // Seeded, so every run sends the bids in the same order.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0xb1d5 ^ games);
    for index in (1..order.len()).rev() {
        let pick = (rng.next_u64() % (index as u64 + 1)) as usize;
        order.swap(index, pick);
    }
    let cpu_before = cpu_seconds(bot.id());
    let begun = Instant::now();
    let step = window / order.len() as u32;
    let mut sent: HashMap<u64, Instant> = HashMap::new();
    for (index, (game, seat)) in order.iter().enumerate() {
        let due = begun + step * index as u32;
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            tokio::time::sleep(wait).await;
        }
        let who = player(*game, *seat);
        sent.insert(who.0, Instant::now());
        fake.say((who.0, who.1.as_str()), None, "bid 10");
    }

    let mut receipts: HashMap<u64, Vec<Instant>> = HashMap::new();
    let mut boards: Vec<Instant> = Vec::new();
    let receipts_in = std::cell::Cell::new(0);
    let boards_in = std::cell::Cell::new(0);
    let all = wait_posts(
        &fake,
        (0, Duration::from_secs(600)),
        |post| {
            if let Some(user) = post.dm_user {
                if post.content.contains("order received for bids") {
                    receipts.entry(user).or_default().push(post.at);
                    receipts_in.set(receipts_in.get() + 1);
                }
            } else if post.text().contains("Orders for bids (every order is in)") {
                boards.push(post.at);
                boards_in.set(boards_in.get() + 1);
            }
        },
        || receipts_in.get() == sent.len() && boards_in.get() == games as usize,
    )
    .await;
    let after = load_average();
    let cpu = cpu_seconds(bot.id()) - cpu_before;
    let busy = begun.elapsed().as_secs_f64();
    let (rss, peak) = resident_mib(bot.id());
    let _ = bot.kill();
    let _ = bot.wait();

    let mut latencies: Vec<Duration> = sent
        .iter()
        .filter_map(|(user, at)| {
            receipts
                .get(user)
                .and_then(|times| times.first())
                .map(|receipt| receipt.duration_since(*at))
        })
        .collect();
    latencies.sort();
    let doubled = receipts.values().filter(|times| times.len() > 1).count();
    let lost = sent.len() - receipts.len();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{games} games x {SEATS} players, bids over {:.0} s, pace {pace} requests/s: {} bids, {} receipts{}",
        window.as_secs_f64(),
        sent.len(),
        latencies.len(),
        if all { "" } else { " (timed out waiting for the rest)" }
    );
    if !latencies.is_empty() {
        println!(
            "  DM -> receipt delivered: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; lost {lost}, doubled {doubled}",
            ms(percentile(&latencies, 0.5)),
            ms(percentile(&latencies, 0.99)),
            ms(latencies[latencies.len() - 1])
        );
    }
    // The same by the second of the window the bid was sent in: a delay that grows through
    // the window is a throughput the bot lacks, one that comes and goes a stall.
    let mut by_second: Vec<Vec<Duration>> = Vec::new();
    for (user, at) in &sent {
        let Some(receipt) = receipts.get(user).and_then(|times| times.first()) else {
            continue;
        };
        let second = at.duration_since(begun).as_secs() as usize;
        if by_second.len() <= second {
            by_second.resize(second + 1, Vec::new());
        }
        by_second[second].push(receipt.duration_since(*at));
    }
    let seconds: Vec<String> = by_second
        .iter_mut()
        .filter(|latencies| !latencies.is_empty())
        .map(|latencies| {
            latencies.sort();
            format!(
                "{:.0}/{:.0}",
                ms(percentile(latencies, 0.5)),
                ms(percentile(latencies, 0.99))
            )
        })
        .collect();
    println!(
        "  p50/p99 ms by the second the bid was sent in: {}",
        seconds.join(", ")
    );
    if let (Some(first), Some(last)) = (boards.iter().min(), boards.iter().max()) {
        let span = last.duration_since(begun).max(Duration::from_millis(1));
        println!(
            "  board posts: {} resolutions in {:.1} s from the first bid ({:.1} a second; the last {:.1} s after the first bid, the first {:.1} s)",
            boards.len(),
            span.as_secs_f64(),
            boards.len() as f64 / span.as_secs_f64(),
            last.duration_since(begun).as_secs_f64(),
            first.duration_since(begun).as_secs_f64()
        );
    }
    println!(
        "  bot: {cpu:.1} s CPU over the {busy:.1} s from the first bid to the last post ({:.0}% of one core); resident {rss:.0} MiB at the end, {peak:.0} MiB at its peak",
        100.0 * cpu / busy.max(1e-9)
    );
    println!("  load average before {before}, after {after}");
}

#[tokio::main]
async fn main() {
    let games = setting("DISCORD_LOAD_GAMES", "50 200");
    let fast = std::env::var("DISCORD_LOAD_PACE").unwrap_or_else(|_| "2000".to_string());
    let paces = setting("DISCORD_LOAD_PACES", &format!("50 {fast}"));
    let window = Duration::from_secs(*setting("DISCORD_LOAD_WINDOW", "5").first().unwrap_or(&5));
    for pace in &paces {
        for count in &games {
            run(*count, *pace, window).await;
        }
    }
}
