//! Several processes on one PostgreSQL database, as the bot runs when it is sharded: each
//! "process" here is a table with a store of its own (its own pool, its own name in the
//! leases). A message two processes claim at once is applied by one; a due deadline is
//! resolved once however many processes fire deadlines, and a resolution that dies half-way
//! leaves nothing and is done by another; two processes writing one game apply one after the
//! other; each audience's posts are delivered by one process at a time. These run only when
//! a test server is set (`TEST_POSTGRES_URL`).

mod common;

use chrono::{DateTime, Duration, Utc};
use common::postgres::{self, TestDatabase};
use common::{number, play_on, replay_every_game, service, start_time};
use referee::records::Audience;
use referee::store::{OutboxPost, Store};
use referee::table::{Admission, Envelope, GroupCommit, Inbound, Service, Submission, User};
use std::sync::Arc;

/// `games` dicey games (channel `#g<n>`, GM `gm<n>`, players `a<n>`, `b<n>`, `c<n>`)
/// waiting for their guesses.
fn signups(games: usize) -> String {
    let mut lines = String::new();
    for game in 0..games {
        lines.push_str(&format!(
            "gm{game} #g{game}: !new dicey seed={game} to=1000\na{game} #g{game}: !join\nb{game} #g{game}: !join\nc{game} #g{game}: !join\ngm{game} #g{game}: !start\n"
        ));
    }
    lines
}

fn guess(id: &str, user: &str, face: u8) -> (Envelope, Inbound) {
    (
        Envelope::id(id),
        Inbound::Direct {
            user: User::named(user),
            text: format!("guess {face}"),
        },
    )
}

/// Two processes on one fresh database with `games` games waiting for guesses, or `None`
/// when no test server is set.
async fn two_processes(games: usize) -> Option<(TestDatabase, Service, Service)> {
    let database = postgres::fresh().await?;
    let first = service(&database.url).await;
    let second = service(&database.url).await;
    play_on(&first, &signups(games), start_time(), &[]).await;
    Some((database, first, second))
}

#[tokio::test]
async fn a_message_two_processes_claim_at_once_is_applied_by_one() {
    let Some((_database, first, second)) = two_processes(1).await else {
        return;
    };
    let now = start_time();
    // The first process holds the message's claim in a transaction not yet committed; the
    // second, given the same message, waits for it...
    let mut held = first.store().begin().await.unwrap();
    assert!(held.claim("m-1", None, now).await.unwrap());
    let (envelope, inbound) = guess("m-1", "a0", 3);
    let waiting = {
        let second = second.clone();
        let (envelope, inbound) = (envelope.clone(), inbound.clone());
        tokio::spawn(async move { second.handle(&envelope, &inbound, now).await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !waiting.is_finished(),
        "the second claim waits for the first"
    );
    // ...and once the first commits, it sees the message applied and does nothing.
    held.commit().await.unwrap();
    let receipt = waiting.await.unwrap().unwrap();
    assert!(!receipt.fresh);
    // A claim taken back (the first process failed) leaves the message to the other.
    let mut held = first.store().begin().await.unwrap();
    assert!(held.claim("m-2", None, now).await.unwrap());
    let (envelope, inbound) = guess("m-2", "b0", 4);
    let waiting = {
        let second = second.clone();
        tokio::spawn(async move { second.handle(&envelope, &inbound, now).await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    held.rollback().await.unwrap();
    assert!(waiting.await.unwrap().unwrap().fresh);
    let receipts = common::outbox_texts(&second).await;
    assert_eq!(
        common::posts_containing(&receipts, "order received for guesses"),
        1,
        "only b0's order was applied: {receipts:#?}"
    );
    replay_every_game(&second).await;
}

#[tokio::test]
async fn each_due_deadline_is_resolved_once_by_processes_firing_at_once() {
    let Some((_database, first, second)) = two_processes(12).await else {
        return;
    };
    // Two days on, every game's 48-hour deadline is due; both processes fire at once.
    let later = start_time() + Duration::days(2);
    let (one, other) = tokio::join!(first.fire_due(later), second.fire_due(later));
    let fired = one.unwrap() + other.unwrap();
    assert_eq!(
        fired, 12,
        "each game's deadline fired once, by one process or the other"
    );
    assert_eq!(
        number(
            &first,
            "SELECT COUNT(*) FROM inputs WHERE input = '\"Deadline\"'"
        )
        .await,
        12
    );
    let posted = common::outbox_texts(&first).await;
    let resolutions = common::posts_starting_with(&posted, "Orders for guesses for round 1");
    assert_eq!(resolutions, 12);
    assert_eq!(first.fire_due(later).await.unwrap(), 0);
    replay_every_game(&first).await;
}

#[tokio::test]
async fn a_resolution_that_dies_half_way_leaves_nothing_and_another_process_does_it() {
    let Some((_database, first, second)) = two_processes(1).await else {
        return;
    };
    let later = start_time() + Duration::days(2);
    // The first process claims the due game and writes part of its resolution...
    let mut dying = first.store().begin().await.unwrap();
    let game = dying
        .claim_due(later)
        .await
        .unwrap()
        .expect("the game is due");
    let to = Audience::Channel(game.record.channel.clone());
    dying
        .write(None, &[OutboxPost::text(&to, "half a resolution")], later)
        .await
        .unwrap();
    // ...meanwhile the other process leaves the game to it...
    assert_eq!(second.fire_due(later).await.unwrap(), 0);
    // ...and the first dies: its claim and its half resolution go with it.
    drop(dying);
    first.store().close().await;
    // The server lets go of a dead connection's locks when it notices the connection gone,
    // which on a busy machine may be a moment after the pool closed.
    let mut fired = 0;
    for _ in 0..100 {
        fired = second.fire_due(later).await.unwrap();
        if fired > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(fired, 1);
    let posted = common::outbox_texts(&second).await;
    assert!(!posted.iter().any(|body| body == "half a resolution"));
    assert_eq!(
        common::posts_starting_with(&posted, "Orders for guesses for round 1"),
        1
    );
    replay_every_game(&second).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_writing_the_same_games_apply_one_message_after_the_other() {
    let Some((_database, first, second)) = two_processes(10).await else {
        return;
    };
    let now = start_time();
    let queues = [
        Arc::new(GroupCommit::new(first.clone())),
        Arc::new(GroupCommit::new(second.clone())),
    ];
    // Every player of every game guesses at once, the three players of a game split over
    // the two processes (as a DM on shard 0 and a channel on shard 1 would be).
    let mut tasks = Vec::new();
    for game in 0..10 {
        for (n, player) in ["a", "b", "c"].into_iter().enumerate() {
            let queue = queues[(game + n) % 2].clone();
            let (envelope, inbound) =
                guess(&format!("g{game}{player}"), &format!("{player}{game}"), 2);
            tasks.push(tokio::spawn(async move {
                queue.submit(envelope, inbound, false, now).await
            }));
        }
    }
    for task in tasks {
        assert!(task.await.unwrap().unwrap().receipt.fresh);
    }
    // No order was lost to a concurrent write of its game: every round resolved, once, with
    // its three guesses.
    let posted = common::outbox_texts(&first).await;
    assert_eq!(
        common::posts_starting_with(
            &posted,
            "Orders for guesses for round 1 (every order is in)"
        ),
        10,
        "{posted:#?}"
    );
    replay_every_game(&first).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batches_locking_games_in_opposite_orders_both_commit() {
    let Some((_database, first, second)) = two_processes(2).await else {
        return;
    };
    let now = start_time();
    // One process takes game 0 then game 1, the other game 1 then game 0, over and over: a
    // deadlock, when it happens, is broken by the database and the losing batch applied
    // again.
    for round in 0..8 {
        let batch = |order: [usize; 2], player: &str| -> Vec<Submission> {
            order
                .iter()
                .map(|game| {
                    let (envelope, inbound) = guess(
                        &format!("r{round}-{player}{game}"),
                        &format!("{player}{game}"),
                        1 + (round % 6) as u8,
                    );
                    Submission {
                        envelope,
                        inbound,
                        answers_itself: false,
                        admission: Admission::Taken,
                    }
                })
                .collect()
        };
        let (forward, backward) = (batch([0, 1], "a"), batch([1, 0], "b"));
        let (one, other) = tokio::join!(
            first.handle_batch(&forward, now),
            second.handle_batch(&backward, now),
        );
        for result in one.iter().chain(other.iter()) {
            assert!(result.as_ref().unwrap().receipt.fresh, "{result:?}");
        }
    }
    replay_every_game(&first).await;
}

/// A store on `url` whose leases last `lease`.
async fn store_with_lease(url: &str, lease: Duration) -> Store {
    let mut settings = common::default_config(url).store;
    settings.lease = lease;
    Store::open(&settings).await.unwrap()
}

/// Queues `posts` texts to `to`, in order.
async fn queue(store: &Store, to: &Audience, posts: &[&str], now: DateTime<Utc>) {
    let mut tx = store.begin().await.unwrap();
    let posts: Vec<OutboxPost> = posts
        .iter()
        .map(|text| OutboxPost::text(to, text))
        .collect();
    tx.write(None, &posts, now).await.unwrap();
    tx.commit().await.unwrap();
}

/// The bodies of the posts `store`'s process may deliver, oldest audience first, each
/// audience's in order.
async fn leased(store: &Store) -> Vec<String> {
    let mut bodies = Vec::new();
    for audience in store.due_audiences(None).await.unwrap() {
        for row in store.undelivered_of(&audience, 100).await.unwrap() {
            bodies.push(row.body);
        }
    }
    bodies
}

#[tokio::test]
async fn each_audience_is_delivered_by_one_process_at_a_time() {
    let Some(database) = postgres::fresh().await else {
        return;
    };
    let first = store_with_lease(&database.url, Duration::seconds(1)).await;
    let second = store_with_lease(&database.url, Duration::seconds(1)).await;
    let now = Utc::now();
    let channel = Audience::Channel("c".to_string());
    let player = Audience::Direct("p".to_string());
    queue(&first, &channel, &["c1", "c2"], now).await;
    // The first process leases the channel's posts; the second gets none of them, only
    // what is queued for another audience afterwards.
    let taken = leased(&first).await;
    assert_eq!(taken, ["c1", "c2"]);
    queue(&first, &player, &["p1"], now).await;
    let other = leased(&second).await;
    assert_eq!(other, ["p1"]);
    assert!(first.renew_lease(&channel).await.unwrap());
    assert!(!second.renew_lease(&channel).await.unwrap());
    // The first process stops renewing (it died): once its lease runs out, the second takes
    // the channel's posts over, in order, and the first may no longer send them.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let taken_over = leased(&second).await;
    assert_eq!(taken_over, ["c1", "c2", "p1"]);
    assert!(!first.renew_lease(&channel).await.unwrap());
    // A process that stops cleanly gives its leases up at once.
    second.release_leases().await.unwrap();
    let back = leased(&first).await;
    assert_eq!(back, ["c1", "c2", "p1"]);
    first.close().await;
    second.close().await;
}

#[tokio::test]
async fn an_unreachable_server_is_said_in_one_sentence() {
    // Port 9 (discard), where nothing listens; no test server is needed for this.
    let config = common::default_config("postgres://referee:secret@127.0.0.1:9/referee");
    let opened = Store::open(&config.store).await;
    let error = opened.err().expect("nothing listens there").to_string();
    assert_eq!(
        error,
        "cannot reach the PostgreSQL server at 127.0.0.1:9/referee: connection refused"
    );
    assert!(!error.contains("secret"));
}
