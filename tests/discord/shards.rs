//! Two `referee run` processes on one PostgreSQL database, each holding one of the bot's two
//! gateway shards: a game in a server on shard 0 and one in a server on shard 1, secret orders
//! by DM (shard 0) for both. Every message is applied once whichever process receives it;
//! then one process is killed while it is delivering a channel's posts (one of them sent but
//! not acknowledged) and with both games' deadlines pending, and the other resolves each
//! deadline once and sends each post once, in order. Needs a PostgreSQL server (`TEST_POSTGRES_URL`, which `.ci/run` sets).

use crate::bot::Bot;
use crate::commands::open_tag;
use crate::fake::{FakeDiscord, Posted};
use crate::postgres;
use crate::{count, dm_to, ALICE, BOB, CAROL, CHANNEL, DAVE, ERIN};
use sqlx::PgPool;
use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

/// A server whose events Discord sends on shard 1 of 2 (`(id >> 22) % 2 == 1`).
const OTHER_SERVER: u64 = 3 << 22;
/// The game channel in that server.
const OTHER_CHANNEL: u64 = 701;
const FRANK: (u64, &str) = (106, "frank");

/// The bot's database, read beside its processes.
struct Shared {
    pool: PgPool,
}

impl Shared {
    async fn number(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sql).fetch_one(&self.pool).await.unwrap()
    }

    async fn applied(&self, id: u64) -> bool {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM inbound WHERE message_id = $1")
            .bind(id.to_string())
            .fetch_one(&self.pool)
            .await
            .unwrap()
            == 1
    }

    /// Waits until every message of `ids` is applied.
    async fn all_applied(&self, ids: &[u64]) {
        for _ in 0..2000 {
            let mut all = true;
            for id in ids {
                all &= self.applied(*id).await;
            }
            if all {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("messages {ids:?} were not all applied");
    }

    async fn undelivered(&self) -> i64 {
        self.number("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL")
            .await
    }

    /// Waits (up to a minute) until every queued post is delivered.
    async fn settled(&self, fake: &FakeDiscord) {
        for _ in 0..6000 {
            if self.undelivered().await == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let queued: Vec<(i64, String, String, i64, i64)> = sqlx::query_as(
            "SELECT id, audience, body, next_attempt, attempts FROM outbox \
             WHERE delivered_at IS NULL AND failed IS NULL ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await
        .unwrap();
        let leases: Vec<(String, String, i64)> =
            sqlx::query_as("SELECT audience, leased_by, lease_until FROM outbox_leases")
                .fetch_all(&self.pool)
                .await
                .unwrap();
        panic!(
            "posts are still queued: {queued:#?}\nleases: {leases:#?}\nposted: {:#?}",
            fake.posts()
        );
    }

    /// Who holds the lease on a channel's posts: the pid in `leased_by`.
    async fn lease_holder(&self, channel: u64) -> Option<u32> {
        let audience = format!("{{\"Channel\":\"{channel}\"}}");
        let holder: Option<String> =
            sqlx::query_scalar("SELECT leased_by FROM outbox_leases WHERE audience = $1")
                .bind(audience)
                .fetch_optional(&self.pool)
                .await
                .unwrap();
        holder?.split('-').next()?.parse().ok()
    }

    /// Each audience's delivered outbox rows, in order.
    async fn delivered_rows(&self) -> BTreeMap<String, Vec<i64>> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT audience, id FROM outbox WHERE delivered_at IS NOT NULL ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await
        .unwrap();
        let mut by_audience: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        for (audience, id) in rows {
            by_audience.entry(audience).or_default().push(id);
        }
        by_audience
    }
}

/// The outbox row of a post, from its nonce (`instance-row-part`).
fn row_of(post: &Posted) -> i64 {
    let nonce = post.nonce.as_deref().expect("every post carries a nonce");
    nonce.split('-').nth(1).unwrap().parse().unwrap()
}

/// The outbox rows posted to `channel`, in the order Discord got them, one per row (a row
/// split into parts counts once, at its first part).
fn posted_rows(fake: &FakeDiscord, channel: u64) -> Vec<i64> {
    let mut rows: Vec<i64> = Vec::new();
    for post in fake.posts().iter().filter(|post| post.channel == channel) {
        let row = row_of(post);
        if rows.last() != Some(&row) {
            rows.push(row);
        }
    }
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_apply_each_message_once_and_one_finishes_the_work_of_the_other() {
    let Some(database) = postgres::fresh().await else {
        return;
    };
    let fake = FakeDiscord::start().await;
    fake.put_channel_in(OTHER_CHANNEL, OTHER_SERVER);
    let mut first = Some(Bot::start_shards(&fake, &database.url, 2, "0..0", "8s"));
    let mut second = Some(Bot::start_shards(&fake, &database.url, 2, "1..1", "8s"));
    fake.wait("both shards' sessions", || {
        fake.shards() == [0, 1] && !fake.commands().is_empty()
    })
    .await;
    let shared = Shared {
        pool: PgPool::connect(&database.url).await.unwrap(),
    };

    // A game on each shard, opened at once; then bids by DM (shard 0) for both games, one
    // of them delivered twice, while the channel on shard 1 is busy too.
    // No seed (a practice seed goes by DM, on shard 0), so the minimum bids are drawn: every
    // bid here is at least 3, the highest minimum among three players.
    let mut ids = open_tag(&fake, CHANNEL, [ALICE, BOB, CAROL], "");
    ids.extend(open_tag(&fake, OTHER_CHANNEL, [DAVE, ERIN, FRANK], ""));
    shared.all_applied(&ids).await;
    let bob_bid = fake.message(fake.id(), BOB, None, "bid 4");
    fake.send_message(bob_bid.clone());
    fake.dispatch("MESSAGE_CREATE", bob_bid.clone());
    let mut more = vec![
        bob_bid["id"].as_str().unwrap().parse().unwrap(),
        fake.say(ALICE, None, "bid 5"),
        fake.say(DAVE, None, "bid 3"),
        fake.say(ERIN, Some(OTHER_CHANNEL), "!status"),
        fake.say(FRANK, None, "bid 6"),
    ];
    shared.all_applied(&more).await;
    ids.append(&mut more);
    // Each channel's posts go out at most five in five seconds, so the last sign-up of a
    // busy channel may reach Discord after the receipts by DM.
    let joins = |channel: u64| {
        count(&fake, |p| {
            p.channel == channel && p.content.contains("joins game #")
        })
    };
    fake.wait_for("every post", Duration::from_secs(30), || {
        count(&fake, |p| p.content.contains("order received for bids")) == 4
            && joins(CHANNEL) >= 3
            && joins(OTHER_CHANNEL) >= 3
    })
    .await;
    // Each message applied once: one receipt for bob's bid sent twice; each game's sign-ups
    // answered once, on the channel of its own shard.
    assert_eq!(
        count(&fake, |p| dm_to(BOB)(p)
            && p.content.contains("order received for bids: `bid 4`")),
        1
    );
    for (channel, players) in [(CHANNEL, 3), (OTHER_CHANNEL, 3)] {
        assert_eq!(
            count(&fake, |p| p.channel == channel
                && p.content.contains("joins game #")),
            players,
            "{:#?}",
            fake.posts()
        );
    }
    assert_eq!(
        shared.number("SELECT COUNT(*) FROM inbound").await,
        ids.len() as i64
    );

    // The next post to the channel on shard 1 reaches Discord but its sender never hears
    // back; more posts queue behind it, and both games' deadlines are set to come due in ten
    // seconds. Then the process delivering that channel is killed. (Every earlier post is out
    // first, so the stall catches the answer to erin's `!status`, and the wait is for a post
    // to that channel: a slow machine may still be drawing an earlier board.)
    shared.settled(&fake).await;
    fake.stall_next_post_to(OTHER_CHANNEL);
    let posts_before = fake.posts().len();
    let stalled = fake.say(ERIN, Some(OTHER_CHANNEL), "!status");
    shared.all_applied(&[stalled]).await;
    fake.wait("the post that never gets its answer", || {
        fake.posts()
            .iter()
            .skip(posts_before)
            .any(|post| post.channel == OTHER_CHANNEL)
    })
    .await;
    let queued = [
        fake.say(FRANK, Some(OTHER_CHANNEL), "!status"),
        fake.say(DAVE, Some(OTHER_CHANNEL), "!log"),
        fake.say(DAVE, Some(OTHER_CHANNEL), "!deadline 10s"),
        fake.say(ALICE, Some(CHANNEL), "!deadline 10s"),
    ];
    shared.all_applied(&queued).await;
    let holder = shared
        .lease_holder(OTHER_CHANNEL)
        .await
        .expect("a process holds the channel's lease");
    let (killed, survivor) = if first.as_ref().map(Bot::pid) == Some(holder) {
        (first.take(), second.take())
    } else {
        (second.take(), first.take())
    };
    let (killed, survivor) = (killed.unwrap(), survivor.unwrap());
    assert_eq!(killed.pid(), holder);
    assert!(shared.undelivered().await >= 2, "posts are pending");
    assert_eq!(
        shared
            .number("SELECT COUNT(*) FROM inputs WHERE input = '\"Deadline\"'")
            .await,
        0,
        "both deadlines are pending"
    );
    killed.kill();

    // The survivor resolves each game's deadline once and, once the dead process's lease
    // has run out, sends the channel's posts: the stalled one again under its nonce (Discord
    // keeps one), then the rest, in order.
    fake.wait_for("both deadlines", Duration::from_secs(60), || {
        count(&fake, |p| {
            p.text().contains("Orders for bids (the deadline passed)")
        }) == 2
    })
    .await;
    shared.settled(&fake).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    for channel in [CHANNEL, OTHER_CHANNEL] {
        assert_eq!(
            count(&fake, |p| p.channel == channel
                && p.text().contains("Orders for bids (the deadline passed)")),
            1,
            "channel {channel}: {:#?}",
            fake.posts()
        );
    }
    assert_eq!(
        shared
            .number(
                "SELECT COUNT(*) FROM inputs WHERE input IN ('\"Deadline\"', '\"DeadlineMissed\"')"
            )
            .await,
        2,
        "one deadline input for each game"
    );
    assert!(fake.deduplicated() >= 1, "the stalled post was sent again");
    // Every delivered row reached Discord once, each channel's in the order of the outbox.
    let delivered = shared.delivered_rows().await;
    for channel in [CHANNEL, OTHER_CHANNEL] {
        let audience = format!("{{\"Channel\":\"{channel}\"}}");
        assert_eq!(
            posted_rows(&fake, channel),
            delivered[&audience],
            "channel {channel}"
        );
    }
    let mut nonces: Vec<String> = fake.posts().into_iter().filter_map(|p| p.nonce).collect();
    let all = nonces.len();
    nonces.sort_unstable();
    nonces.dedup();
    assert_eq!(nonces.len(), all, "no post twice: {:#?}", fake.posts());

    survivor.stop();
    for game in [1, 2] {
        let output = Command::new(env!("CARGO_BIN_EXE_referee"))
            .args(["replay", &game.to_string()])
            .env("REFEREE_DATABASE_URL", &database.url)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && said.contains("match the log"),
            "game #{game}: {said}{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    shared.pool.close().await;
}
