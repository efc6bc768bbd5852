//! The real `referee run` binary against a Discord-compatible server on 127.0.0.1 (`fake`):
//! what players see in channels, by DM and in interaction responses, when they type, press
//! and use slash commands; what survives a crash and a restart; two processes sharing the
//! games on PostgreSQL, one shard each; and that every game played here replays from its log.

mod bot;
mod busy;
mod catch_up;
mod commands;
mod computers;
mod delivery;
mod endings;
mod fairness;
mod fake;
mod forums;
mod games;
mod health;
mod lifecycle;
#[path = "../common/pg_server.rs"]
mod pg_server;
#[path = "../common/postgres.rs"]
mod postgres;
mod prompts;
mod ratings;
mod shards;
mod strangers;
mod stumbles;
mod threads;
mod toolkit;

use fake::Posted;

/// The game channel of every test.
pub const CHANNEL: u64 = 700;
/// The players: alice is an admin (`discord.admins`).
pub const ALICE: (u64, &str) = (101, "alice");
pub const BOB: (u64, &str) = (102, "bob");
pub const CAROL: (u64, &str) = (103, "carol");
pub const DAVE: (u64, &str) = (104, "dave");
pub const ERIN: (u64, &str) = (105, "erin");

/// Whether a post went to the game channel.
pub fn in_channel(post: &Posted) -> bool {
    post.channel == CHANNEL
}

/// Whether a post went to `user` by DM.
pub fn dm_to(user: (u64, &str)) -> impl Fn(&Posted) -> bool {
    move |post| post.dm_user == Some(user.0)
}

/// How many posts match `pred`.
pub fn count(fake: &fake::FakeDiscord, pred: impl Fn(&Posted) -> bool) -> usize {
    fake.posts().iter().filter(|p| pred(p)).count()
}

/// The words of a `!new` (`tag seed=7 deadline=8s`) split into what is typed in the channel
/// (`tag deadline=8s`) and the seed, which Discord takes only by DM (`setup seed=7`, a
/// practice game), never where the table reads it.
fn seed_apart(words: &str) -> (String, Option<&str>) {
    let seed = words
        .split_whitespace()
        .find_map(|word| word.strip_prefix("seed="));
    let rest: Vec<&str> = words
        .split_whitespace()
        .filter(|word| !word.starts_with("seed="))
        .collect();
    (rest.join(" "), seed)
}

/// Opens a game as its GM does on Discord: `!new <words>` in `channel`, and a `seed=` among
/// the words sent by DM as `setup seed=N` right after. Returns the messages' ids.
pub fn open_game(fake: &fake::FakeDiscord, gm: (u64, &str), channel: u64, words: &str) -> Vec<u64> {
    let (typed, seed) = seed_apart(words);
    let mut ids = vec![fake.say(gm, Some(channel), &format!("!new {typed}"))];
    if let Some(seed) = seed {
        ids.push(fake.say(gm, None, &format!("setup seed={seed}")));
    }
    ids
}

/// Who says what, in turn.
pub type Lines<'a> = &'a [((u64, &'a str), &'a str)];

/// The first turns of the seed-3 Carcassonne transcript, as its two players type them.
pub const CARCASSONNE_SEED3_OPENING: Lines<'static> = &[
    (ALICE, "!join"),
    (BOB, "!join blue"),
    (ALICE, "!start"),
    (ALICE, "!place -1 0 0"),
    (ALICE, "!pass"),
    (BOB, "!place 0 -1 180"),
    (BOB, "!meeple d"),
];

/// Opens a game in `channel` as [`open_game`] does, says `lines` there in turn, and waits
/// until the last is settled.
pub async fn open_and_say(
    fake: &fake::FakeDiscord,
    db: &mut bot::Db,
    gm: (u64, &str),
    channel: u64,
    words: &str,
    lines: Lines<'_>,
) {
    let mut ids = open_game(fake, gm, channel, words);
    ids.extend(
        lines
            .iter()
            .map(|(who, line)| fake.say(*who, Some(channel), line)),
    );
    if let Some(last) = ids.last() {
        db.settled(fake, *last).await;
    }
}

/// A transcript as typed on Discord: a `!new` with a `seed=` becomes the `!new` without it
/// and the GM's `setup seed=N` by DM.
pub fn for_discord(transcript: &str) -> String {
    let mut out = String::new();
    for line in transcript.lines() {
        let opened = line
            .split_once(": !new ")
            .filter(|(head, _)| !head.ends_with(" dm"));
        match opened.map(|(head, words)| (head, seed_apart(words))) {
            Some((head, (words, Some(seed)))) => {
                let name = head.split_whitespace().next().unwrap_or(head);
                out.push_str(&format!(
                    "{head}: !new {words}\n{name} dm: setup seed={seed}\n"
                ));
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}
