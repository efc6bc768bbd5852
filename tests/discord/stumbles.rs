//! The database stumbles under the real binary: another program holds SQLite's write lock
//! longer than the bot waits for it, with the bot running on, or killed while it waits; a
//! PostgreSQL server stops for half a minute during a burst. Every message the bot received
//! is applied once when the database answers again, in order, and every game replays. Those
//! kept waiting, the GM and the admins hear of it when it lasts.

use crate::bot::{fresh_database, started, Bot, Db, Settings, ADMIN};
use crate::fake::FakeDiscord;
use crate::pg_server::PrivateServer;
use crate::{count, dm_to, in_channel, ALICE, BOB, CAROL, CHANNEL};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::Connection;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Another program's connection to the bot's SQLite file, holding its write lock.
async fn hold_write_lock(path: &Path) -> SqliteConnection {
    let options = SqliteConnectOptions::new()
        .filename(path)
        .busy_timeout(Duration::from_secs(30));
    let mut connection = SqliteConnection::connect_with(&options).await.unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut connection)
        .await
        .unwrap();
    connection
}

async fn let_go(mut connection: SqliteConnection) {
    sqlx::query("COMMIT")
        .execute(&mut connection)
        .await
        .unwrap();
    connection.close().await.unwrap();
}

fn bobs_receipts(fake: &FakeDiscord) -> usize {
    count(fake, |p| {
        dm_to(BOB)(p) && p.content.contains("order received for bids: `bid 3`")
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_sent_while_another_program_holds_the_database_is_applied_when_it_lets_go() {
    let fake = FakeDiscord::start().await;
    let (_dir, path) = fresh_database();
    let mut db = Db::at(&path);
    // Those waiting are told after 3 s (a minute by default).
    let told_soon = Settings {
        outage_notice: "3s",
        ..Settings::default()
    };
    let bot = Bot::start_with(&fake, &path, told_soon);
    fake.wait_ready().await;
    // carol is the GM; alice is the bot's admin.
    crate::commands::open_tag(&fake, CHANNEL, [CAROL, ALICE, BOB], "seed=7");
    let ready = fake.say(ALICE, Some(CHANNEL), "!status");
    db.settled(&fake, ready).await;
    // The bot reads who runs games while the database answers.
    tokio::time::sleep(Duration::from_secs(2)).await;

    // Another program holds the write lock for 10 s, twice the bot's wait for it; bob bids.
    let lock = hold_write_lock(&path).await;
    let held = Instant::now();
    let bid = fake.say(BOB, None, "bid 3");
    tokio::time::sleep(Duration::from_secs(10).saturating_sub(held.elapsed())).await;
    assert_eq!(bobs_receipts(&fake), 0, "nothing can be written yet");
    // bob, whose bid waits, is told it is kept; the GM (carol) and the admin are told why.
    let kept = |p: &crate::fake::Posted| p.content.contains("My database has not answered since");
    assert_eq!(
        count(&fake, |p| dm_to(BOB)(p) && kept(p)),
        1,
        "{:#?}",
        fake.posts()
    );
    assert_eq!(count(&fake, kept), 1, "only where a message waits");
    let why = |p: &crate::fake::Posted| {
        p.content
            .contains("The bot's database has not answered since")
            && p.content.contains("messages from 1 place are waiting")
    };
    assert_eq!(count(&fake, |p| dm_to(CAROL)(p) && why(p)), 1);
    assert_eq!(count(&fake, |p| dm_to((ADMIN, "admin"))(p) && why(p)), 1);
    assert_eq!(count(&fake, why), 2, "not the players");
    let_go(lock).await;
    let released = Instant::now();
    db.settled(&fake, bid).await;
    fake.wait_dm(CAROL, "The bot's database answers again")
        .await;
    let receipt = fake.wait_dm(BOB, "order received for bids").await;
    assert!(receipt.at >= released);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(bobs_receipts(&fake), 1, "{:#?}", fake.posts());
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_waiting_for_the_database_when_the_bot_is_killed_is_applied_after_the_restart() {
    let (fake, _dir, mut db, bot) = started().await;
    let path = db.path().to_path_buf();
    crate::commands::start_tag_for_three(&fake).await;
    let ready = fake.say(ALICE, Some(CHANNEL), "!status");
    db.settled(&fake, ready).await;

    // The bot has tried bob's bid and waits to try again when it is killed.
    let lock = hold_write_lock(&path).await;
    fake.say(BOB, None, "bid 3");
    tokio::time::sleep(Duration::from_secs(7)).await;
    bot.kill();
    fake.wait_disconnected().await;
    let_go(lock).await;

    let bot = Bot::start(&fake, &path);
    fake.wait_ready().await;
    fake.wait_dm(BOB, "order received for bids").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(bobs_receipts(&fake), 1, "{:#?}", fake.posts());
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_sent_while_the_postgresql_server_is_down_is_applied_once_when_it_is_back() {
    let Some(server) = PrivateServer::start() else {
        return;
    };
    let url = server.url();
    let fake = FakeDiscord::start().await;
    let bot = Bot::start_shards(&fake, &url, 1, "0..0", "30s");
    crate::commands::start_tag_for_three(&fake).await;
    fake.wait("the start's posts", || {
        count(&fake, |p| {
            in_channel(p) && p.text().contains("Waiting for bids")
        }) >= 1
    })
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;

    // The server stops; a burst comes meanwhile; after 30 s it is back.
    server.stop();
    let players = [ALICE, BOB, CAROL];
    const BURST: usize = 30;
    for n in 1..=BURST {
        fake.say(players[n % 3], Some(CHANNEL), &format!("!zz{n}"));
    }
    fake.say(BOB, None, "bid 3");
    tokio::time::sleep(Duration::from_secs(30)).await;
    assert_eq!(count(&fake, |p| p.content.contains("!zz")), 0);
    server.resume();

    let answer = |n: usize| format!("There is no command `!zz{n}` in tag.");
    fake.wait_for("every answer", Duration::from_secs(90), || {
        (1..=BURST).all(|n| count(&fake, |p| p.content.contains(&answer(n))) >= 1)
            && bobs_receipts(&fake) >= 1
    })
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    for n in 1..=BURST {
        assert_eq!(
            count(&fake, |p| p.content.contains(&answer(n))),
            1,
            "!zz{n}"
        );
    }
    assert_eq!(bobs_receipts(&fake), 1);
    // In the order they were sent.
    let order: Vec<usize> = fake
        .posts()
        .iter()
        .filter_map(|p| {
            let rest = p.content.split("There is no command `!zz").nth(1)?;
            rest.split('`').next()?.parse().ok()
        })
        .collect();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(order, sorted);
    bot.stop();
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["replay", "1"])
        .env("REFEREE_DATABASE_URL", &url)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && said.contains("match the log"),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
