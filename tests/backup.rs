//! Backups of a SQLite database: `referee backup FILE` through the real binary writes a
//! consistent copy, checks it (integrity and a replay of every game) and says so, refuses to
//! overwrite, and points PostgreSQL at pg_dump; a copy taken while the bot writes replays; a
//! kill -9 mid-backup leaves the earlier backups whole and never a half-written file under a
//! backup's name; a running bot keeps the newest backups and drops the oldest; a backup that
//! cannot be made (a missing folder, a damaged database) says why in one sentence naming the
//! file, and leaves no file behind.

mod common;

use common::{assert_says, play_on, referee, replay_file, script_on_file, start_time, TAG_SIGNUP};
use referee::backup::{back_up, keep_rotating, BackupSettings};
use referee::config;
use referee::store::StoreSettings;
use referee::table::Service;
use std::path::Path;

/// Three whole games, one of each kind that plays by secret orders, turns and a search.
fn games() -> String {
    [
        include_str!("transcripts/tag_3p_seed7.txt"),
        include_str!("transcripts/parcheesi_2p_seed7.txt"),
        include_str!("transcripts/short_circuit_2p_seed9.txt"),
    ]
    .join("\n")
}

/// A service on the SQLite file `path`, as the bot opens it.
async fn service_on(path: &Path) -> (Service, StoreSettings) {
    let config = common::default_config(&format!("sqlite://{}", path.display()));
    (common::standard_service(&config).await, config.store)
}

#[test]
fn referee_backup_writes_a_checked_copy_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = script_on_file(dir.path(), "referee.db", &games());
    let db = db.as_str();
    let copy = dir.path().join("copy.db");
    let copy = copy.to_str().unwrap();
    let (ok, said, err) = referee(&["backup", copy, "--db", db], None);
    assert!(ok, "{err}");
    assert!(
        said.contains("SQLite's integrity check passed, 3 games replay to their logs."),
        "{said}"
    );
    for game in ["1", "2", "3"] {
        replay_file(copy, game);
    }
    // The same destination again: refused, the first backup untouched.
    let before = std::fs::read(copy).unwrap();
    let (ok, _, err) = referee(&["backup", copy, "--db", db], None);
    assert!(!ok);
    assert!(
        err.contains("already exists; give a new file for the backup"),
        "{err}"
    );
    assert_eq!(std::fs::read(copy).unwrap(), before);
    // PostgreSQL is pg_dump's to back up.
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_referee"));
    let output = command
        .args(["backup", dir.path().join("pg.db").to_str().unwrap()])
        .env(
            "REFEREE_DATABASE_URL",
            "postgres://referee@127.0.0.1:1/referee",
        )
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("backed up with pg_dump"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_the_bot_plays_replays_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let (service, settings) = service_on(&dir.path().join("live.db")).await;
    let config = config::load(None, std::iter::empty()).unwrap();
    let playing = {
        let service = service.clone();
        tokio::spawn(async move { play_on(&service, &games(), start_time(), &[]).await })
    };
    // Backups while the games are being played: each is a consistent snapshot.
    let mut made = Vec::new();
    for n in 0..3 {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let to = dir.path().join(format!("during-{n}.db"));
        made.push(
            back_up(service.store(), &settings, &config.table, &to)
                .await
                .unwrap(),
        );
    }
    playing.await.unwrap();
    let last = dir.path().join("after.db");
    let after = back_up(service.store(), &settings, &config.table, &last)
        .await
        .unwrap();
    assert_eq!(after.games, 3);
    assert!(made.iter().all(|backup| backup.games <= 3));
    service.store().close().await;
}

#[test]
fn a_kill_during_a_backup_leaves_the_earlier_backups_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = script_on_file(dir.path(), "referee.db", &games());
    let db = db.as_str();
    let earlier = dir.path().join("earlier.db");
    let (ok, _, err) = referee(&["backup", earlier.to_str().unwrap(), "--db", db], None);
    assert!(ok, "{err}");
    let kept = std::fs::read(&earlier).unwrap();
    let next = dir.path().join("next.db");
    for wait in [5, 40, 120] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
            .args(["backup", next.to_str().unwrap(), "--db", db])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(wait));
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(
            std::fs::read(&earlier).unwrap(),
            kept,
            "killed after {wait} ms"
        );
        // Under the backup's name there is a whole, checked backup or nothing.
        if next.exists() {
            let (ok, said, err) = referee(&["replay", "2", "--db", next.to_str().unwrap()], None);
            assert!(ok, "killed after {wait} ms: {said}{err}");
            std::fs::remove_file(&next).unwrap();
        }
    }
    // A backup after the kills finds the stale partial copy and makes a whole one.
    let (ok, said, err) = referee(&["backup", next.to_str().unwrap(), "--db", db], None);
    assert!(ok, "{err}");
    assert!(said.contains("3 games replay to their logs"), "{said}");
    let leftovers: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().to_string())
        .filter(|name| name.ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_bot_keeps_the_newest_backups() {
    let dir = tempfile::tempdir().unwrap();
    let (service, settings) = service_on(&dir.path().join("live.db")).await;
    play_on(&service, &games(), start_time(), &[]).await;
    let config = config::load(None, std::iter::empty()).unwrap();
    let folder = dir.path().join("backups");
    let rotating = tokio::spawn(keep_rotating(
        service.clone(),
        settings,
        config.table.clone(),
        BackupSettings {
            every: Some(std::time::Duration::from_millis(1100)),
            kept: 2,
            folder: folder.clone(),
        },
    ));
    // Backups at 0, 1.1, 2.2 and 3.3 s: the newest two stay.
    tokio::time::sleep(std::time::Duration::from_millis(4000)).await;
    rotating.abort();
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    for name in &names {
        assert!(
            name.starts_with("referee-") && name.ends_with(".db"),
            "{name}"
        );
        let (ok, said, err) = referee(
            &["replay", "3", "--db", folder.join(name).to_str().unwrap()],
            None,
        );
        assert!(ok, "{said}{err}");
    }
    service.store().close().await;
}

#[test]
fn a_restored_backup_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let start = concat!(tag_signup!(), "alice dm: bid 5\n");
    let (db, _) = script_on_file(dir.path(), "referee.db", start);
    let db = db.as_str();
    let copy = dir.path().join("backup.db");
    let copy = copy.to_str().unwrap();
    let (ok, _, err) = referee(&["backup", copy, "--db", db], None);
    assert!(ok, "{err}");
    // The disk is lost; the backup takes the database's place and the game goes on.
    std::fs::remove_file(db).unwrap();
    let (ok, said, err) = referee(
        &["script", "--db", copy],
        Some("bob dm: bid 3\ncarol dm: bid 4\n"),
    );
    assert!(ok, "{err}");
    assert_says(
        &said,
        &[
            "#tag <- Orders for bids (every order is in):",
            "alice: `bid 5`",
        ],
    );
    replay_file(copy, "1");
}

#[test]
fn a_backup_during_a_burst_of_a_thousand_orders_is_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let mut burst = String::from(TAG_SIGNUP);
    for n in 0..1000 {
        let who = ["alice", "bob", "carol"][n % 3];
        burst.push_str(&format!("{who} dm: bid {}\n", 5 + n % 9));
    }
    let transcript = dir.path().join("burst.txt");
    std::fs::write(&transcript, burst).unwrap();
    // The bot plays the burst in one process; backups are taken from another meanwhile.
    let mut playing = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["script", "--db", db.to_str().unwrap()])
        .arg(&transcript)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut taken = Vec::new();
    for n in 0..20 {
        std::thread::sleep(std::time::Duration::from_millis(150));
        if !db.exists() {
            continue;
        }
        let copy = dir.path().join(format!("during-{n}.db"));
        let (ok, said, err) = referee(
            &[
                "backup",
                copy.to_str().unwrap(),
                "--db",
                db.to_str().unwrap(),
            ],
            None,
        );
        // The database may not be a referee database for its first instants (being created).
        if ok {
            assert!(said.contains("SQLite's integrity check passed"), "{said}");
            taken.push(copy);
        } else {
            assert!(!err.contains("replay"), "{err}");
        }
        if playing.try_wait().unwrap().is_some() {
            break;
        }
    }
    assert!(playing.wait().unwrap().success());
    // On a busy machine the first copies may come before the game was opened: those have
    // no game #1. From the first copy that has it on, every copy has it and replays whole.
    let mut opened = false;
    for copy in &taken {
        let (ok, said, err) = referee(&["replay", "1", "--db", copy.to_str().unwrap()], None);
        if !opened && !ok && err.contains("there is no game #1") {
            continue;
        }
        opened = true;
        assert!(
            ok && said.contains("match the log"),
            "{}: {said}{err}",
            copy.display()
        );
    }
    assert!(opened, "no backup taken during the burst held the game");
}

#[test]
fn a_backup_that_cannot_be_made_says_why_in_one_sentence_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = script_on_file(dir.path(), "referee.db", TAG_SIGNUP);
    let db = db.as_str();
    // The live database's own write-ahead log and index (which SQLite may leave for a moment
    // after the process that wrote it ends) are not the backup's.
    let files = || {
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().to_string())
            .filter(|name| name != "referee.db-wal" && name != "referee.db-shm")
            .collect();
        names.sort();
        names
    };

    // Into a folder that does not exist.
    let folder = dir.path().join("no-such-folder");
    let into = folder.join("backup.db");
    let (ok, _, err) = referee(&["backup", into.to_str().unwrap(), "--db", db], None);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!(
            "referee: the folder {} does not exist; create it or give another path for the backup",
            folder.display()
        )
    );
    assert_eq!(files(), ["referee.db"]);

    // Of a database damaged past its first pages (a bad disk): the copy fails half-way.
    let damaged = dir.path().join("damaged.db");
    let mut bytes = std::fs::read(db).unwrap();
    let half = bytes.len() / 2;
    let end = (half + 16384).min(bytes.len());
    bytes[half..end].fill(0xde);
    std::fs::write(&damaged, bytes).unwrap();
    let into = dir.path().join("backup.db");
    let (ok, _, err) = referee(
        &[
            "backup",
            into.to_str().unwrap(),
            "--db",
            damaged.to_str().unwrap(),
        ],
        None,
    );
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!(
            "referee: the database {} is damaged (SQLite finds it malformed); restore it from a backup",
            damaged.display()
        )
    );
    let left = files();
    assert!(
        left.iter()
            .all(|name| !name.contains("backup") && !name.ends_with(".partial")),
        "{left:?}"
    );
}
