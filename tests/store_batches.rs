//! The store's batched writes (a change, posts noted delivered together), its direct-message
//! lookup and what the health check reads, on a real database: an in-memory SQLite database,
//! and PostgreSQL when a test server is set.

mod common;

use chrono::Utc;
use referee::records::{Audience, Input, Status, User};
use referee::store::{Delivered, OutboxPost, UserGames};
use referee::table::{Envelope, Inbound, Service};

async fn table_with_one_game(url: &str) -> Service {
    let service = common::standard_service(&common::default_config(url)).await;
    let new = Inbound::Channel {
        channel: "tag-channel".to_string(),
        user: User::named("gm"),
        admin: false,
        text: "!new tag seed=1".to_string(),
    };
    service
        .handle(&Envelope::id("m1"), &new, Utc::now())
        .await
        .unwrap();
    service
}

#[tokio::test]
async fn a_change_of_thousands_of_rows_keeps_their_order_and_numbers() {
    for database in common::databases("sqlite::memory:").await {
        thousands_of_rows(&database.url).await;
    }
}

async fn thousands_of_rows(url: &str) {
    let service = table_with_one_game(url).await;
    let store = service.store();
    let before = store.events(1, None).await.unwrap().len();
    let outbox_before = store.last_outbox_id().await.unwrap();
    let mut tx = store.begin().await.unwrap();
    let record = tx.game(1).await.unwrap().unwrap().record;
    let events = common::public_log_events(2_500, |_| 0, |n| format!("event {n}"));
    let to = Audience::Channel("tag-channel".to_string());
    let texts: Vec<String> = (0..1_200).map(|n| format!("post {n}")).collect();
    let posts: Vec<OutboxPost> = texts.iter().map(|t| OutboxPost::text(&to, t)).collect();
    let change = common::change_logging(&record, Some(&Input::Deadline), &events);
    let ids = tx.write(Some(&change), &posts, Utc::now()).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(ids.len(), 1_200);
    assert!(ids.windows(2).all(|pair| pair[0] + 1 == pair[1]), "{ids:?}");
    assert!(ids[0] > outbox_before);

    let inputs = store.inputs(1).await.unwrap();
    let last_input = inputs.last().unwrap().seq;
    let stored = store.events(1, None).await.unwrap();
    assert_eq!(stored.len(), before + 2_500);
    for (n, event) in stored[before..].iter().enumerate() {
        assert_eq!(event.event.line(), format!("event {n}"));
        assert_eq!(event.input_seq, last_input);
    }
    let queued = store.undelivered_after(outbox_before).await.unwrap();
    let bodies: Vec<&str> = queued.iter().map(|row| row.body.as_str()).collect();
    let expected: Vec<&str> = texts.iter().map(String::as_str).collect();
    assert_eq!(bodies, expected);
    store.close().await;
}

#[tokio::test]
async fn posts_noted_delivered_together_go_out_once_and_keep_the_newest_own_message() {
    for database in common::databases("sqlite::memory:").await {
        noted_together(&database.url).await;
    }
}

async fn noted_together(url: &str) {
    let service = table_with_one_game(url).await;
    let store = service.store();
    let before = store.last_outbox_id().await.unwrap();
    let to = Audience::Channel("tag-channel".to_string());
    let texts = ["first", "second", "third"];
    let posts: Vec<OutboxPost> = texts.iter().map(|t| OutboxPost::text(&to, t)).collect();
    let mut tx = store.begin().await.unwrap();
    let ids = tx.write(None, &posts, Utc::now()).await.unwrap();
    tx.commit().await.unwrap();

    // Two of the three sent, the later one noted first: the newer message id is kept.
    let sent = [
        Delivered {
            id: ids[1],
            parts: 2,
            posted: Some(("9001".to_string(), 77)),
        },
        Delivered {
            id: ids[0],
            parts: 1,
            posted: Some(("9001".to_string(), 70)),
        },
    ];
    store.delivered_together(&sent, Utc::now()).await.unwrap();
    store.delivered_together(&[], Utc::now()).await.unwrap();

    let left = common::undelivered_texts(store, before).await;
    assert_eq!(left, ["third"]);
    assert_eq!(store.newest_posted("9001").await.unwrap(), Some(77));
    let noted = store.outbox_row(ids[1]).await.unwrap().unwrap();
    assert_eq!((noted.parts_sent, noted.attempts), (2, 1));
    let noted = store.outbox_row(ids[0]).await.unwrap().unwrap();
    assert_eq!((noted.parts_sent, noted.attempts), (1, 1));
    store.close().await;
}

#[tokio::test]
async fn a_deadline_a_transaction_writes_is_due_in_it_once_it_passes() {
    for database in common::databases("sqlite::memory:").await {
        deadline_written(&database.url).await;
    }
}

/// A transaction that found nothing due, then wrote a running game with a deadline in five
/// minutes, finds that game due at six minutes: on SQLite it keeps the earliest deadline it
/// knows of instead of asking before every message, and what it writes moves that mark.
async fn deadline_written(url: &str) {
    let service = table_with_one_game(url).await;
    let now = Utc::now();
    let mut tx = service.store().begin().await.unwrap();
    assert!(tx.claim_due(now).await.unwrap().is_none());
    let mut record = tx.game(1).await.unwrap().unwrap().record;
    record.status = Status::Running;
    record.deadline = Some(now + chrono::Duration::minutes(5));
    let change = common::change_logging(&record, None, &[]);
    tx.write(Some(&change), &[], now).await.unwrap();
    let before = tx
        .claim_due(now + chrono::Duration::minutes(4))
        .await
        .unwrap();
    assert!(before.is_none());
    let due = tx
        .claim_due(now + chrono::Duration::minutes(6))
        .await
        .unwrap();
    assert_eq!(due.map(|game| game.id), Some(1));
    tx.rollback().await.unwrap();
}

#[tokio::test]
async fn a_gm_who_does_not_play_finds_their_game_by_direct_message() {
    for database in common::databases("sqlite::memory:").await {
        gm_by_direct_message(&database.url).await;
    }
}

async fn gm_by_direct_message(url: &str) {
    let service = table_with_one_game(url).await;
    let mut tx = service.store().begin().await.unwrap();
    let gm = User::named("gm");
    match tx.games_of_user_or_only(&gm.id).await.unwrap() {
        UserGames::Only(id, game) => {
            assert_eq!(id, 1);
            assert_eq!(game.unwrap().record.channel, "tag-channel");
        }
        UserGames::Numbers(ids) => panic!("expected the GM's one game, got {ids:?}"),
    }
    match tx.games_of_user_or_only("someone-else").await.unwrap() {
        UserGames::Numbers(ids) => assert!(ids.is_empty()),
        UserGames::Only(id, _) => panic!("a stranger was routed to game #{id}"),
    }
}

#[tokio::test]
async fn the_health_check_writes_and_reads_the_backlog_and_the_games() {
    for database in common::databases("sqlite::memory:").await {
        health_check(&database.url).await;
    }
}

async fn health_check(url: &str) {
    let service = table_with_one_game(url).await;
    let store = service.store();
    let now = Utc::now();
    // Twice: the second write replaces the first.
    store.prove_writable(now).await.unwrap();
    store.prove_writable(now).await.unwrap();
    assert_eq!(
        common::number(&service, "SELECT COUNT(*) FROM health_checks").await,
        1
    );
    assert_eq!(
        store.games_by_status().await.unwrap(),
        [("signup".to_string(), 1)]
    );
    let backlog = store.outbox_backlog().await.unwrap();
    let oldest = common::number(
        &service,
        "SELECT MIN(created_at) FROM outbox WHERE delivered_at IS NULL",
    )
    .await;
    assert!(backlog.posts >= 1, "{backlog:?}");
    assert_eq!(backlog.oldest.map(|at| at.timestamp_millis()), Some(oldest));
}
