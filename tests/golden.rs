//! Databases written by earlier versions (tests/golden/<version>/, see its README) still
//! open, play on and replay with this binary: every game replays to its log, every running
//! game is played on to its end by its folder's transcript and replays again, and the audit
//! page of every game has the reader's browser verify every roll and receipt.

mod common;

use common::browser::{dom_after_checks, receipt_checks, roll_checks, tag_of};
use common::referee;
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

/// The audit page of each game of `db` that has begun: its commitment, every roll and
/// every receipt verified by the page's own script in the browser.
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
        assert!(
            receipt_checks(&dom)
                .iter()
                .all(|verified| verified == "yes"),
            "game #{id}"
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
