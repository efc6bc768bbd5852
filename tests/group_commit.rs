//! Group commit on a real SQLite file (and on PostgreSQL when a test server is set): several
//! queued messages share one commit, each in its own savepoint, so a message the database
//! does not take is taken back alone and tried again, with those after it, until it does;
//! every message is applied once, whether it comes twice in one batch or
//! again after its batch; a deadline that passed between two messages of a batch fires
//! between them; and a burst of concurrent submissions through the queue applies each
//! message once, in one commit or several.

mod common;

use common::{
    dicey_waiting_for_guesses, number as count, on_file_and_postgres, play_on, service, start_time,
};
use referee::store::Dialect;
use referee::table::{Admission, Envelope, GroupCommit, Inbound, Service, Submission, User};
use std::sync::Arc;

fn guess(id: &str, user: &str, face: u8) -> Submission {
    Submission {
        envelope: Envelope::id(id),
        inbound: Inbound::Direct {
            user: User::named(user),
            text: format!("guess {face}"),
        },
        answers_itself: false,
        admission: Admission::Taken,
    }
}

/// A trigger that makes the database refuse carol's receipt (a post naming `guess 6`).
const REFUSE_CAROL_SQLITE: &str = "CREATE TRIGGER refuse_carol BEFORE INSERT ON outbox \
     WHEN NEW.body LIKE '%`guess 6`%' BEGIN SELECT RAISE(ABORT, 'disk says no'); END";
const REFUSE_CAROL_POSTGRES: &str = "CREATE FUNCTION refuse_carol() RETURNS trigger AS $$ \
     BEGIN IF NEW.body LIKE '%`guess 6`%' THEN RAISE EXCEPTION 'disk says no'; END IF; \
     RETURN NEW; END $$ LANGUAGE plpgsql; \
     CREATE TRIGGER refuse_carol BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION refuse_carol()";

#[tokio::test]
async fn a_message_the_database_does_not_take_waits_with_those_after_it() {
    on_file_and_postgres(|url| async move { failing_message_waits(&url).await }).await;
}

/// The SQL that makes the database refuse carol's receipt, and the SQL that lifts it.
fn refusing_carol(service: &Service) -> (&'static str, &'static str) {
    match service.store().dialect() {
        Dialect::Sqlite => (REFUSE_CAROL_SQLITE, "DROP TRIGGER refuse_carol"),
        Dialect::Postgres => (REFUSE_CAROL_POSTGRES, "DROP TRIGGER refuse_carol ON outbox"),
    }
}

async fn failing_message_waits(url: &str) {
    let service = dicey_waiting_for_guesses(url).await;
    let inputs_before = count(&service, "SELECT COUNT(*) FROM inputs").await;
    // The database refuses carol's receipt: her message fails after writing her order, the
    // game's record and her input, which her savepoint must take back.
    let (refuse, lift) = refusing_carol(&service);
    common::execute(&service, refuse).await;
    let batch = [
        guess("m-bob", "bob", 2),
        guess("m-carol", "carol", 6),
        guess("m-alice", "alice", 3),
    ];
    let results = service.handle_batch(&batch, start_time()).await;
    assert!(results[0].as_ref().unwrap().receipt.fresh);
    let failure = results[1].as_ref().unwrap_err().to_string();
    assert!(failure.contains("disk says no"), "{failure}");
    // alice's message, after carol's, was not applied either: it waits behind hers, so
    // nothing overtakes a message the database did not take.
    let behind = results[2].as_ref().unwrap_err().to_string();
    assert!(behind.contains("disk says no"), "{behind}");
    // bob's order is in and answered; carol's and alice's left no trace, not even their
    // message ids, and the round still waits for them.
    let posted = common::outbox_texts(&service).await;
    assert!(posted
        .iter()
        .any(|b| b.contains("order received for guesses for round 1: `guess 2`")));
    assert!(!posted.iter().any(|b| b.contains("`guess 3`")));
    assert!(!posted.iter().any(|b| b.contains("`guess 6`")));
    assert!(!posted.iter().any(|b| b.contains("Orders for guesses")));
    assert_eq!(
        count(&service, "SELECT COUNT(*) FROM inputs").await,
        inputs_before + 1
    );
    assert_eq!(
        count(
            &service,
            "SELECT COUNT(*) FROM inbound WHERE message_id IN ('m-carol', 'm-alice')"
        )
        .await,
        0
    );
    // Once the database accepts it, carol's message (the same id) is applied, once, then
    // alice's, and the round resolves; bob's message sent again changes nothing.
    common::execute(&service, lift).await;
    let again = [
        guess("m-carol", "carol", 6),
        guess("m-alice", "alice", 3),
        guess("m-bob", "bob", 5),
    ];
    let results = service.handle_batch(&again, start_time()).await;
    assert!(results[0].as_ref().unwrap().receipt.fresh);
    assert!(results[1].as_ref().unwrap().receipt.fresh);
    assert!(!results[2].as_ref().unwrap().receipt.fresh);
    let posted = common::outbox_texts(&service).await;
    assert_eq!(
        common::posts_containing(&posted, "Orders for guesses for round 1"),
        1
    );
    assert!(posted.iter().any(|b| b.contains("- carol: `guess 6`")));
    assert!(posted.iter().any(|b| b.contains("- bob: `guess 2`")));
    assert!(posted.iter().any(|b| b.contains("- alice: `guess 3`")));
    common::replay_every_game(&service).await;
    service.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_tries_a_message_the_database_did_not_take_until_it_does() {
    on_file_and_postgres(|url| async move { queue_tries_again(&url).await }).await;
}

async fn queue_tries_again(url: &str) {
    let service = dicey_waiting_for_guesses(url).await;
    let (refuse, lift) = refusing_carol(&service);
    common::execute(&service, refuse).await;
    let table = Arc::new(GroupCommit::new(service.clone()));
    // carol's guess meets the fault in its savepoint; bob's, queued after it, waits behind.
    let carol = table.enqueue(guess("m-carol", "carol", 6), start_time());
    let bob = table.enqueue(guess("m-bob", "bob", 2), start_time());
    let waiting = {
        let table = table.clone();
        tokio::spawn(async move { (table.wait(carol).await, table.wait(bob).await) })
    };
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert!(
        !waiting.is_finished(),
        "the messages wait while the fault lasts"
    );
    assert!(table
        .stall()
        .is_some_and(|stall| stall.reason.contains("disk says no")));
    assert_eq!(
        count(
            &service,
            "SELECT COUNT(*) FROM inbound WHERE message_id IN ('m-carol', 'm-bob')"
        )
        .await,
        0
    );
    // The fault clears: both are applied, once and in order, and nobody was asked to send
    // anything again.
    common::execute(&service, lift).await;
    let (carol, bob) = waiting.await.unwrap();
    assert!(carol.unwrap().receipt.fresh);
    assert!(bob.unwrap().receipt.fresh);
    assert!(table.stall().is_none());
    let posted = common::outbox_texts(&service).await;
    assert!(
        !posted.iter().any(|b| b.contains("Send it again")),
        "{posted:#?}"
    );
    let receipts = |order: &str| common::posts_containing(&posted, order);
    assert_eq!(
        receipts("order received for guesses for round 1: `guess 6`"),
        1
    );
    assert_eq!(
        receipts("order received for guesses for round 1: `guess 2`"),
        1
    );
    let at = |order: &str| posted.iter().position(|b| b.contains(order));
    assert!(
        at("`guess 6`") < at("`guess 2`"),
        "carol's first: {posted:#?}"
    );
    common::replay_every_game(&service).await;
    service.store().close().await;
}

#[tokio::test]
async fn a_message_twice_in_one_batch_is_applied_once() {
    on_file_and_postgres(|url| async move { twice_in_one_batch(&url).await }).await;
}

async fn twice_in_one_batch(url: &str) {
    let service = dicey_waiting_for_guesses(url).await;
    let batch = [
        guess("m-1", "bob", 2),
        guess("m-1", "bob", 4),
        guess("m-2", "carol", 5),
    ];
    let results = service.handle_batch(&batch, start_time()).await;
    let fresh: Vec<bool> = results
        .iter()
        .map(|r| r.as_ref().unwrap().receipt.fresh)
        .collect();
    assert_eq!(fresh, [true, false, true]);
    let posted = common::outbox_texts(&service).await;
    assert!(posted.iter().any(|b| b.contains("`guess 2`")));
    assert!(!posted.iter().any(|b| b.contains("`guess 4`")));
    common::replay_every_game(&service).await;
    service.store().close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_burst_through_the_queue_shares_commits_and_applies_each_message_once() {
    on_file_and_postgres(|url| async move { burst_through_the_queue(&url).await }).await;
}

async fn burst_through_the_queue(url: &str) {
    let service = service(url).await;
    // Twenty games, each with its GM and three players.
    let mut signups = String::new();
    for game in 0..20 {
        signups.push_str(&format!(
            "gm{game} #g{game}: !new dicey seed={game} to=1000\na{game} #g{game}: !join\nb{game} #g{game}: !join\nc{game} #g{game}: !join\ngm{game} #g{game}: !start\n"
        ));
    }
    play_on(&service, &signups, start_time(), &[]).await;
    let inputs_before = count(&service, "SELECT COUNT(*) FROM inputs").await;
    let table = Arc::new(GroupCommit::new(service.clone()));
    // Every player of every game guesses at once (some messages delivered twice).
    let mut tasks = Vec::new();
    for game in 0..20 {
        for (n, player) in ["a", "b", "c"].into_iter().enumerate() {
            for _copy in 0..2 {
                let table = table.clone();
                let user = format!("{player}{game}");
                tasks.push(tokio::spawn(async move {
                    let committed = table
                        .submit(
                            Envelope::id(format!("guess-{game}-{player}")),
                            Inbound::Direct {
                                user: User::named(&user),
                                text: format!("guess {}", n + 1),
                            },
                            false,
                            start_time(),
                        )
                        .await
                        .unwrap();
                    committed.receipt.fresh
                }));
            }
        }
    }
    let mut fresh = 0;
    for task in tasks {
        fresh += usize::from(task.await.unwrap());
    }
    assert_eq!(fresh, 60, "each of the 60 messages applied once");
    assert!(
        table.commits() <= 30,
        "120 submissions took {} commits: queued messages share them",
        table.commits()
    );
    // Each game's round resolved once, with its three guesses.
    let posted = common::outbox_texts(&service).await;
    assert_eq!(
        posted
            .iter()
            .filter(|b| b.starts_with("Orders for guesses for round 1 (every order is in)"))
            .count(),
        20
    );
    assert_eq!(
        count(&service, "SELECT COUNT(*) FROM inputs").await,
        inputs_before + 60
    );
    common::replay_every_game(&service).await;
    service.store().close().await;
}

#[tokio::test]
async fn a_deadline_passed_between_two_messages_of_a_batch_fires_between_them() {
    on_file_and_postgres(|url| async move { deadline_within_a_batch(&url).await }).await;
}

/// A guess sent at `minutes` after the start.
fn guess_at(id: &str, user: &str, face: u8, minutes: i64) -> Submission {
    let mut submission = guess(id, user, face);
    submission.envelope.sent = Some(start_time() + chrono::Duration::minutes(minutes));
    submission
}

/// Messages read back after downtime, applied in one batch at 80 hours: bob's guess, sent a
/// minute in, counts for round 1; carol's, sent at 49 hours, comes after round 1's deadline
/// (48 hours), which fires between the two: round 1 resolves with bob's guess, and carol's
/// finds bob's turn to roll, where no guess is awaited.
async fn deadline_within_a_batch(url: &str) {
    let service = dicey_waiting_for_guesses(url).await;
    let batch = [
        guess_at("bob-1m", "bob", 4, 1),
        guess_at("carol-49h", "carol", 5, 49 * 60),
    ];
    let now = start_time() + chrono::Duration::hours(80);
    let results = service.handle_batch(&batch, now).await;
    assert!(results.iter().all(|result| result.is_ok()), "{results:?}");
    let posted = common::outbox_texts(&service).await;
    let at = |needle: &str| {
        posted
            .iter()
            .position(|body| body.contains(needle))
            .unwrap_or_else(|| panic!("no post says {needle:?}: {posted:#?}"))
    };
    let receipt = at("order received for guesses for round 1: `guess 4`");
    let round_1 = at("Orders for guesses for round 1 (the deadline passed");
    let late = at("No order is awaited from you in game #1 now. It is bob's turn.");
    assert!(receipt < round_1 && round_1 < late, "{posted:#?}");
    assert!(
        posted[round_1].contains("- bob: `guess 4`"),
        "{}",
        posted[round_1]
    );
    assert!(
        posted[round_1].contains("- carol: no order"),
        "{}",
        posted[round_1]
    );
    common::replay_every_game(&service).await;
}
