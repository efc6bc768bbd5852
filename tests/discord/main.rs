//! The real `referee run` binary against a Discord-compatible server on 127.0.0.1 (`fake`):
//! what players see in channels, by DM and in interaction responses, when they type, press
//! and use slash commands; what survives a crash and a restart; two processes sharing the
//! games on PostgreSQL, one shard each; and that every game played here replays from its log.

mod bot;
mod busy;
mod commands;
mod computers;
mod delivery;
mod fake;
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
