//! Databases written by earlier versions (tests/golden/<version>/, see its README) still
//! open, play on and replay with this binary: every game replays to its log, every running
//! game is played on to its end by its folder's transcript and replays again, and the audit
//! page of every game has the reader's browser verify every roll and receipt it logged. A
//! folder holds the newest rules revision of the table and of every game, so a revision
//! raised without a folder written by the version that raised it fails here.

mod common;

use common::browser::{dom_after_checks, receipt_checks, roll_checks, tag_of};
use common::referee;
use referee::table::{Catalogue, REVISION};
use sqlx::Row;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The folders of golden databases, oldest first.
fn versions() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut found: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    found.sort();
    found
}

/// A working copy of `file` in `dir` (the golden file itself is never written).
fn copy_of(file: &Path, dir: &Path) -> PathBuf {
    let copy = dir.join(file.file_name().unwrap());
    std::fs::copy(file, &copy).unwrap();
    copy
}

/// The games of a database: (number, status), as `referee export` reads them.
fn games(db: &Path) -> Vec<(i64, String)> {
    let mut games = Vec::new();
    for id in 1.. {
        let (ok, json, _) = referee(
            &["export", &id.to_string(), "--db", db.to_str().unwrap()],
            None,
        );
        if !ok {
            break;
        }
        let status = json
            .split("\"status\":\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_default()
            .to_string();
        games.push((id, status));
    }
    games
}

/// Every game of `db` replays to its log through `referee replay`.
fn every_game_replays(db: &Path, games: &[(i64, String)]) {
    for (id, _) in games {
        let (ok, said, err) = referee(
            &["replay", &id.to_string(), "--db", db.to_str().unwrap()],
            None,
        );
        assert!(
            ok && said.contains("match the log"),
            "{}: game #{id}: {said}{err}",
            db.display()
        );
    }
}

/// Runs `sql` on the SQLite file `db` and returns its rows.
fn rows(db: &Path, sql: &str) -> Vec<sqlx::sqlite::SqliteRow> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(db)
            .read_only(true);
        let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
        let rows = sqlx::query(sql).fetch_all(&pool).await.unwrap();
        pool.close().await;
        rows
    })
}

/// How many rolls and secret orders game `id` of `db` logged: what its audit page of a
/// finished game must show and verify, every one.
fn logged_rolls_and_orders(db: &Path, id: i64) -> (usize, usize) {
    let count = |kind: &str| {
        let sql = format!(
            "SELECT COUNT(*) FROM events WHERE game_id = {id} AND body LIKE '{{\"{kind}\"%'"
        );
        usize::try_from(rows(db, &sql)[0].get::<i64, _>(0)).unwrap()
    };
    (count("Roll"), count("Order"))
}

/// The newest rules revision among the games of `db`: the table's, and each game's by name.
fn revisions_in(db: &Path) -> (u32, BTreeMap<String, u32>) {
    let mut table = 0;
    let mut games: BTreeMap<String, u32> = BTreeMap::new();
    for row in rows(db, "SELECT game, record FROM games") {
        let record: serde_json::Value = serde_json::from_str(row.get::<&str, _>(1)).unwrap();
        let revision =
            |key: &str| u32::try_from(record["settings"][key].as_u64().unwrap_or(0)).unwrap();
        table = table.max(revision("revision"));
        let game = games.entry(row.get::<String, _>(0)).or_default();
        *game = (*game).max(revision("game_revision"));
    }
    (table, games)
}

/// The audit page of each game of `db` that has begun: its commitment, and every roll and
/// every receipt it logged, verified by the page's own script in the browser.
fn every_audit_page_verifies(db: &Path, games: &[(i64, String)], dir: &Path) {
    for (id, status) in games.iter().filter(|(_, status)| status != "signup") {
        let page = dir.join(format!("audit-{id}.html"));
        let (ok, said, err) = referee(
            &[
                "audit",
                &id.to_string(),
                "--db",
                db.to_str().unwrap(),
                "--html",
                page.to_str().unwrap(),
            ],
            None,
        );
        assert!(ok, "{said}{err}");
        let Some(dom) = dom_after_checks(&page) else {
            return;
        };
        assert!(
            tag_of(&dom, "commitment-check").contains("data-verified=\"yes\""),
            "game #{id} ({status}): the seed against its commitment"
        );
        let rolls = roll_checks(&dom);
        assert!(
            rolls.iter().all(|(_, verified)| verified == "yes"),
            "game #{id}: {rolls:?}"
        );
        let receipts = receipt_checks(&dom);
        assert!(
            receipts.iter().all(|verified| verified == "yes"),
            "game #{id}"
        );
        // A page that shows fewer rolls or receipts than the game logged (none at all,
        // say) checks too little.
        let (logged_rolls, logged_orders) = logged_rolls_and_orders(db, *id);
        assert_eq!(
            rolls.len(),
            logged_rolls,
            "game #{id}: the rolls on its page"
        );
        assert_eq!(
            receipts.len(),
            logged_orders,
            "game #{id}: the receipts on its page"
        );
    }
}

#[test]
fn a_golden_folder_holds_the_newest_rules_revision_of_the_table_and_of_every_game() {
    let mut table = 0;
    let mut games: BTreeMap<String, u32> = BTreeMap::new();
    for version in versions() {
        for file in ["finished.db", "running.db"] {
            let (newest, each) = revisions_in(&version.join(file));
            table = table.max(newest);
            for (game, revision) in each {
                let kept = games.entry(game).or_default();
                *kept = (*kept).max(revision);
            }
        }
    }
    assert!(
        table >= REVISION,
        "table rules revision {REVISION} has no golden database (the newest is {table}): add a folder to tests/golden written by this version (see its README)"
    );
    for rules in Catalogue::standard().all() {
        let kept = games.get(rules.name()).copied().unwrap_or(0);
        assert!(
            kept >= rules.revision(),
            "{} rules revision {} has no golden database (the newest is {kept}): add a folder to tests/golden written by this version (see its README)",
            rules.name(),
            rules.revision()
        );
    }
}

#[test]
fn every_golden_database_replays_plays_on_and_verifies() {
    let versions = versions();
    assert!(
        !versions.is_empty(),
        "the golden databases are in tests/golden"
    );
    for version in versions {
        let dir = tempfile::tempdir().unwrap();
        let finished = copy_of(&version.join("finished.db"), dir.path());
        let games_done = games(&finished);
        // One whole game of each of the five at least (a later version may add more).
        assert!(games_done.len() >= 5, "{}", version.display());
        assert!(
            games_done.iter().all(|(_, status)| status == "over"),
            "{games_done:?}"
        );
        every_game_replays(&finished, &games_done);
        every_audit_page_verifies(&finished, &games_done, dir.path());

        let running = copy_of(&version.join("running.db"), dir.path());
        let before = games(&running);
        assert!(
            before.iter().any(|(_, status)| status == "running"),
            "{before:?}"
        );
        assert!(
            before.iter().any(|(_, status)| status == "signup"),
            "{before:?}"
        );
        every_game_replays(&running, &before);
        let transcript = std::fs::read_to_string(version.join("continue.txt")).unwrap();
        let (ok, said, err) = referee(
            &["script", "--db", running.to_str().unwrap()],
            Some(&transcript),
        );
        assert!(ok, "{}: {err}", version.display());
        assert!(!said.contains("There is no game"), "{said}");
        let after = games(&running);
        assert_eq!(after.len(), before.len());
        assert!(
            after.iter().all(|(_, status)| status == "over"),
            "{after:?}\n{said}"
        );
        every_game_replays(&running, &after);
        every_audit_page_verifies(&running, &after, dir.path());
    }
}
