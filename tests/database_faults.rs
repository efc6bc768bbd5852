//! Database faults an operator meets, through the real binary where it can be made to meet
//! them: each is one sentence naming the file (and the game, for a row that does not read),
//! the other games play on, and no command creates a database it was asked to work on.

mod common;

use common::{assert_says, referee, service, start_time};
use referee::local::RunError;
use referee::store::Pool;
use sqlx::Connection;
use std::path::Path;

/// Two TAG games on channels #a (game #1) and #b (game #2), started, awaiting bids.
const TWO_GAMES: &str = concat!(
    game_started!(new "tag seed=7" in "#a" by "alice", joined by "alice", "bob", "carol"),
    game_started!(new "tag seed=8" in "#b" by "dan", joined by "dan", "eve", "fay"),
);

/// Runs `sql` on the SQLite file `path`, as another program would.
async fn tamper(path: &Path, sql: &str) {
    let mut connection = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    sqlx::query(sql).execute(&mut connection).await.unwrap();
    connection.close().await.unwrap();
}

#[test]
fn ratings_rebuild_on_a_missing_file_refuses_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("typo.db");
    let (ok, said, err) = referee(
        &["ratings", "--rebuild", "--db", typo.to_str().unwrap()],
        None,
    );
    assert!(!ok, "{said}");
    assert_eq!(
        err.trim(),
        format!("referee: there is no database at {}", typo.display())
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn a_game_row_that_is_not_utf8_is_named_and_the_other_games_play_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let db_arg = db.to_str().unwrap();
    let (ok, _, err) = referee(&["script", "--db", db_arg], Some(TWO_GAMES));
    assert!(ok, "{err}");
    tamper(
        &db,
        "UPDATE games SET record = CAST(X'FF7B' AS TEXT) WHERE id = 1",
    )
    .await;
    // Game #1's channel and players are told which game does not read; game #2 goes on, its
    // deadline fires though game #1's (due at the same time) cannot.
    let (ok, said, err) = referee(
        &["script", "--db", db_arg, "--start", "2026-01-01T01:00:00Z"],
        Some("alice #a: !board\nalice dm: bid 3\neve dm: bid 2\nclock +5d\ndan #b: !status\n"),
    );
    assert!(ok, "{err}");
    assert_says(
        &said,
        &[
            "#a <- alice: the saved game #1 is unreadable (its text is not valid UTF-8); nothing was changed.",
            "dm alice <- The saved game #1 is unreadable (its text is not valid UTF-8); nothing was changed.",
            "dm eve <- Game #2: order received for bids: `bid 2`.",
        ],
    );
    let status = said
        .lines()
        .rfind(|line| line.starts_with("#b <- Game #2"))
        .unwrap_or_default();
    assert!(status.contains("Waiting for moves"), "{said}");
    assert!(!said.contains("decoding"), "{said}");
}

#[tokio::test]
async fn a_full_disk_under_the_console_is_one_sentence_naming_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let service = service(&format!("sqlite://{}", db.display())).await;
    // SQLite's own limit on the file's size stands in for a disk with no room left: it
    // answers exactly as a full disk does (SQLITE_FULL).
    let Pool::Sqlite(pool) = service.store().pool() else {
        unreachable!("a SQLite store");
    };
    let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
        .fetch_one(pool)
        .await
        .unwrap();
    sqlx::query(&format!("PRAGMA max_page_count = {}", pages + 1))
        .execute(pool)
        .await
        .unwrap();
    let mut runner = common::runner_on(&service, start_time(), &[], None).await;
    let mut failed = None;
    for (number, line) in TWO_GAMES.lines().cycle().take(200).enumerate() {
        if let Err(error) = runner.line(line, number + 1).await {
            failed = Some(error);
            break;
        }
    }
    let Some(RunError::Store(error)) = failed else {
        panic!("the database never filled up: {failed:?}");
    };
    assert!(error.is_disk_full(), "{error}");
    assert_eq!(
        error.naming(&db).to_string(),
        format!(
            "the disk holding the database {} is full; free some room, then try again (what failed was not written)",
            db.display()
        )
    );
    service.store().close().await;
}
