//! `referee replay` and `referee export` from the command line: games played on the real
//! clock (and on a clock with sub-millisecond times) replay exactly, a read-only backup can be
//! verified, and a missing game or a mistyped path is named, with no file created.

mod common;

use common::{
    assert_says, local_console, referee, referee_with_stdout_closed, replay_file,
    unprivileged_referee,
};
use referee::table::audit::replay;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Plays `lines` through `referee local` on `db`, on the real clock, waiting `pause` after
/// each line (so real, uneven time passes between inputs and deadlines fire on their own).
fn play_live(db: &std::path::Path, lines: &[(&str, u64)]) -> String {
    let mut child = local_console(db, &db.with_extension("pictures"))
        .env("REFEREE_TABLE_TICK", "1s")
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    for (line, pause_ms) in lines {
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
        std::thread::sleep(Duration::from_millis(*pause_ms));
    }
    drop(input);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn a_game_on_the_real_clock_replays() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db");
    let out = play_live(
        &db,
        &[
            ("alice #t: !new tag seed=7 deadline=2s", 130),
            ("alice #t: !join", 70),
            ("bob #t: !join", 3),
            ("carol #t: !join", 41),
            ("alice #t: !start", 90),
            ("alice dm: bid 5", 310),
            // Paused with a fraction of a second left, resumed 0.7 s later.
            ("alice #t: !pause", 700),
            ("alice #t: !resume", 3200),
            ("bob dm: move n", 170),
            ("carol dm: move e", 20),
            ("alice #t: !resolve", 200),
        ],
    );
    // The bids deadline fired on the real clock, and the GM forced the first moves round.
    assert_says(
        &out,
        &[
            "#t <- Orders for bids (the deadline passed):",
            "#t <- Orders for moves for round 1 (forced by the GM):",
        ],
    );
    let (ok, said, err) = referee(&["replay", "1", "--db", db.to_str().unwrap()], None);
    assert!(ok, "{said}{err}");
    assert!(
        said.contains("all") && said.contains("match the log"),
        "{said}"
    );
}

#[test]
fn a_clock_with_sub_millisecond_times_replays() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fine.db");
    let db = db.to_str().unwrap();
    let transcript = "alice #t: !new tag seed=7\nalice #t: !join\nbob #t: !join\ncarol #t: !join\nalice #t: !start\nalice dm: bid 5\nclock +90m\nalice #t: !pause\nclock +1h\nalice #t: !resume\nbob dm: bid 3\ncarol dm: bid 4\n";
    let (ok, _, err) = referee(
        &[
            "script",
            "--db",
            db,
            "--start",
            "2026-01-01T00:00:00.000123456Z",
        ],
        Some(transcript),
    );
    assert!(ok, "{err}");
    let (ok, said, err) = referee(&["replay", "1", "--db", db], None);
    assert!(ok, "{said}{err}");
    assert_eq!(
        said.trim(),
        "game #1 (table rules revision 9, tag rules revision 4): replayed 10 inputs; all 18 events, 3 receipts and the final state match the log"
    );
}

#[tokio::test]
async fn a_receipt_that_is_not_the_commitment_of_its_order_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("receipts.db");
    let transcript = "alice #t: !new tag seed=7\nalice #t: !join\nbob #t: !join\ncarol #t: !join\nalice #t: !start\nalice dm: bid 5\nbob dm: bid 3\n";
    let (ok, _, err) = referee(&["script", "--db", db.to_str().unwrap()], Some(transcript));
    assert!(ok, "{err}");
    // bob's receipt is swapped for alice's in the log, as a forger would.
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    let receipt = |seat: i64| {
        format!("SELECT json_extract(body, '$.Order.receipt') FROM events WHERE game_id = 1 AND json_extract(body, '$.Order.seat') = {seat}")
    };
    let alice: String = sqlx::query_scalar(&receipt(0))
        .fetch_one(&pool)
        .await
        .unwrap();
    let bob: String = sqlx::query_scalar(&receipt(1))
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_ne!(alice, bob);
    sqlx::query("UPDATE events SET body = replace(body, ?1, ?2) WHERE game_id = 1")
        .bind(&bob)
        .bind(&alice)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let (ok, said, _) = referee(&["replay", "1", "--db", db.to_str().unwrap()], None);
    assert!(!ok, "{said}");
    assert!(
        said.contains(&format!(
            "game #1: the receipt {alice} of bob's order `bid 3` in round 0 (input 7) is not its commitment under the seed ({bob})"
        )),
        "{said}"
    );
}

#[tokio::test]
async fn a_game_opened_under_an_older_revision_replays_though_later_versions_reword_its_texts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("old.db");
    let transcript = "alice #t: !new tag seed=7\nalice #t: !join\nbob #t: !join\ncarol #t: !join\nalice #t: !start\nalice dm: bid 5\nbob dm: bid 3\ncarol dm: bid 4\n";
    let (ok, _, err) = referee(&["script", "--db", db.to_str().unwrap()], Some(transcript));
    assert!(ok, "{err}");
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    let run = |statement: &'static str| {
        let pool = pool.clone();
        async move { sqlx::query(statement).execute(&pool).await.unwrap() }
    };
    // The log says it as an older version worded it.
    run("UPDATE events SET body = replace(body, 'bob joined', 'bob signed up') WHERE game_id = 1")
        .await;
    let (ok, said, _) = referee(&["replay", "1", "--db", db.to_str().unwrap()], None);
    assert!(
        !ok,
        "a game of this revision is compared word for word: {said}"
    );
    assert!(said.contains("the log says 'bob signed up'"), "{said}");
    // Opened under revision 1: the wording may have changed since, the rest may not.
    run("UPDATE inputs SET input = replace(input, ' revision=9 ', ' revision=1 ') WHERE game_id = 1").await;
    run("UPDATE games SET record = replace(record, '\"revision\":9', '\"revision\":1') WHERE id = 1").await;
    // A game of revision 1 kept no answer times (revision 5 on) nor the phase last timed.
    run("UPDATE games SET record = json_remove(record, '$.seats[0].attendance.waits', '$.seats[1].attendance.waits', '$.seats[2].attendance.waits', '$.seats[0].attendance.timed', '$.seats[1].attendance.timed', '$.seats[2].attendance.timed') WHERE id = 1").await;
    let (ok, said, err) = referee(&["replay", "1", "--db", db.to_str().unwrap()], None);
    assert!(ok, "{said}{err}");
    assert!(said.contains("match the log (opened under rules revision 1: texts reworded since are compared by kind, not wording)"), "{said}");
    // A roll is never a matter of wording.
    run("UPDATE events SET body = replace(body, '\"result\":22', '\"result\":21') WHERE game_id = 1 AND body LIKE '{\"Roll\"%'").await;
    pool.close().await;
    let (ok, said, _) = referee(&["replay", "1", "--db", db.to_str().unwrap()], None);
    assert!(!ok, "{said}");
}

#[tokio::test]
async fn a_game_opened_under_rules_this_binary_lacks_is_said_to_be_so_not_tampered_with() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("newer.db");
    let transcript = "alice #t: !new tag seed=7\nalice #t: !join\nbob #t: !join\ncarol #t: !join\nalice #t: !start\nalice dm: bid 5\n";
    let (ok, _, err) = referee(&["script", "--db", db.to_str().unwrap()], Some(transcript));
    assert!(ok, "{err}");
    let (ok, said, err) = referee(&["replay", "1", "--db", db.to_str().unwrap()], None);
    assert!(ok, "{err}");
    assert!(
        said.starts_with("game #1 (table rules revision 9, tag rules revision 4): replayed"),
        "{said}"
    );
    // As a later version would have opened it: TAG's rules revision 9.
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    for statement in [
        "UPDATE inputs SET input = replace(input, ' game_revision=4', ' game_revision=9') WHERE game_id = 1",
        "UPDATE games SET record = replace(record, '\"game_revision\":4', '\"game_revision\":9') WHERE id = 1",
    ] {
        sqlx::query(statement).execute(&pool).await.unwrap();
    }
    pool.close().await;
    let (ok, said, err) = referee(&["replay", "1", "--db", db.to_str().unwrap()], None);
    assert!(!ok);
    assert!(said.is_empty(), "{said}");
    assert_eq!(
        err.trim(),
        "referee: game #1 was opened under table rules revision 9, tag rules revision 9, newer than this binary knows (table rules revision 9, tag rules revision 4); replay it with the version that opened it, or a later one"
    );
}

/// A finished short game in `dir/game.db`, for the read-only checks.
fn finished_game(dir: &std::path::Path) -> std::path::PathBuf {
    let db = dir.join("game.db");
    let transcript = "alice #t: !new tag seed=7\nalice #t: !join\nbob #t: !join\nalice #t: !start\nalice #t: !end\n";
    let (ok, _, err) = referee(&["script", "--db", db.to_str().unwrap()], Some(transcript));
    assert!(ok, "{err}");
    db
}

#[test]
fn a_read_only_backup_is_verified_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let db = finished_game(dir.path());
    let backup_dir = dir.path().join("backup");
    std::fs::create_dir(&backup_dir).unwrap();
    let backup = backup_dir.join("game.db");
    std::fs::copy(&db, &backup).unwrap();
    let before = std::fs::read(&backup).unwrap();
    let set_mode = |path: &std::path::Path, mode: u32| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    set_mode(&backup, 0o444);
    set_mode(&backup_dir, 0o555);
    for args in [["replay", "1"], ["export", "1"]] {
        let output = unprivileged_referee()
            .args(args)
            .arg("--db")
            .arg(&backup)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{args:?}: {said}{err}");
    }
    let names: Vec<String> = std::fs::read_dir(&backup_dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["game.db"]);
    assert_eq!(std::fs::read(&backup).unwrap(), before);
    set_mode(&backup_dir, 0o755);
}

#[test]
fn a_missing_game_and_a_mistyped_path_are_named_and_nothing_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let db = finished_game(dir.path());
    let db = db.to_str().unwrap();
    for command in ["replay", "export"] {
        let (ok, said, err) = referee(&[command, "7", "--db", db], None);
        assert!(!ok, "{said}");
        assert_eq!(err.trim(), "referee: there is no game #7");
        let typo = dir.path().join("gmae.db");
        let (ok, _, err) = referee(&[command, "1", "--db", typo.to_str().unwrap()], None);
        assert!(!ok);
        assert_eq!(
            err.trim(),
            format!("referee: there is no database at {}", typo.display())
        );
        assert!(!typo.exists(), "{command} created {}", typo.display());
    }
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a database").unwrap();
    let (ok, _, err) = referee(&["replay", "1", "--db", text.to_str().unwrap()], None);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!("referee: {} is not a referee database", text.display())
    );
}

#[tokio::test]
async fn a_ten_thousand_event_export_streams_in_bounded_memory() {
    use referee::table::Input;
    let dir = tempfile::tempdir().unwrap();
    let url = common::file_url(dir.path());
    let service = common::service(&url).await;
    common::play_on(
        &service,
        include_str!("transcripts/tag_3p_seed7.txt"),
        common::start_time(),
        &[],
    )
    .await;
    // A long game's log: 10,000 more events, each a line of a few hundred characters.
    let store = service.store();
    let record = store.game(1).await.unwrap().unwrap().record;
    let events = common::public_log_events(
        10_000,
        |n| 100 + n / 10,
        |n| format!("event {n}: {}", "the long story of a move ".repeat(12)),
    );
    let mut tx = store.begin().await.unwrap();
    let change = common::change_logging(&record, Some(&Input::Reminder), &events);
    tx.write(Some(&change), &[], common::start_time())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    store.close().await;
    let db = dir.path().join("referee.db");
    if !Path::new("/usr/bin/time").is_file() {
        let why = "the export's memory test reads its peak with GNU time: install Debian's `time` package (as `bash .ci/run` does)";
        assert!(std::env::var_os("REQUIRE_TEST_TOOLS").is_none(), "{why}");
        eprintln!("skipped: {why}");
        return;
    }
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(env!("CARGO_BIN_EXE_referee"))
        .args(["export", "1", "--secret", "--db"])
        .arg(&db)
        .output()
        .expect("GNU time (Debian's `time` package, which `bash .ci/run` installs)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let exported: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let shown = exported["events"].as_array().unwrap();
    assert!(shown.len() > 10_000, "{}", shown.len());
    assert!(shown.last().unwrap()["text"]
        .as_str()
        .unwrap()
        .starts_with("event 9999: "));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let peak_kb: u64 = stderr
        .trim()
        .lines()
        .last()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        peak_kb < 50 * 1024,
        "the export of {} bytes peaked at {peak_kb} KB",
        output.stdout.len()
    );
}

/// Rewrites game 1's log in `db` as versions before searches ran beside the table wrote it:
/// the game was opened before rules revisions were kept (revision 0, whose record kept no
/// answer times nor turns of the round), and the solver's verdict on an impossible call was
/// worked out within the call's own input, so the verdict's events belong to the call and
/// there is no verdict input. `revision` false keeps the revision the game was opened under.
async fn as_written_before_searches(db: &std::path::Path, revision: bool) {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    let row =
        sqlx::query("SELECT seq FROM inputs WHERE game_id = 1 AND input LIKE '{\"Verdict\"%'")
            .fetch_one(&pool)
            .await
            .unwrap();
    let verdict: i64 = sqlx::Row::get(&row, 0);
    let mut statements = vec![
        "UPDATE events SET input_seq = input_seq - 1 WHERE game_id = 1 AND input_seq >= ?1",
        "DELETE FROM inputs WHERE game_id = 1 AND seq = ?1",
        "UPDATE inputs SET seq = seq + 1000000 WHERE game_id = 1 AND seq > ?1",
        "UPDATE inputs SET seq = seq - 1000001 WHERE game_id = 1 AND seq > 1000000",
    ];
    if revision {
        statements.extend([
            "UPDATE inputs SET input = replace(input, ' revision=9 ', ' revision=0 ') WHERE game_id = 1 AND ?1 > 0",
            "UPDATE games SET record = replace(record, '\"revision\":9', '\"revision\":0') WHERE id = 1 AND ?1 > 0",
            "UPDATE games SET record = json_remove(record, '$.seats[0].attendance.waits', '$.seats[1].attendance.waits', '$.seats[0].attendance.timed', '$.seats[1].attendance.timed', '$.turns_this_round') WHERE id = 1 AND ?1 > 0",
        ]);
    }
    for statement in statements {
        sqlx::query(statement)
            .bind(verdict)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
}

/// A Short Circuit match in solver mode on a 4x4 board, ann and bob seated and ann to move.
macro_rules! solver_match_started {
    () => {
        "\
gm #duel: !new shortcircuit seed=9
gm dm: setup board=4x4 straight=4 turn=4 cross=0 thunder=0 first=ann impossible=solver turntime=5m reserve=5m
ann #duel: !join
bob #duel: !join
gm #duel: !start
"
    };
}

/// Ann calls impossible at her first turn, on an empty board the supply can still close:
/// the solver's verdict ends the match, bob the winner.
const FIRST_TURN_CALL: &str = concat!(solver_match_started!(), "ann #duel: !impossible\n");

#[tokio::test]
async fn an_impossible_call_judged_within_its_input_by_an_older_version_replays() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("call.txt");
    std::fs::write(&transcript, FIRST_TURN_CALL).unwrap();
    let transcript = transcript.to_str().unwrap();
    let db = dir.path().join("call.db");
    let db_arg = db.to_str().unwrap();
    let (ok, out, err) = referee(&["script", transcript, "--db", db_arg], None);
    assert!(ok, "{err}");
    assert!(
        out.contains("bob wins: the solver shows the circuit can still be completed"),
        "{out}"
    );
    // Today the verdict is an input of its own, which the replay reads...
    replay_file(db_arg, "1");
    let (ok, secret, _) = referee(&["export", "1", "--secret", "--db", db_arg], None);
    assert!(ok && secret.contains("\"Verdict\""), "{secret}");
    // ...a log of this revision without it is a game still waiting for the verdict, never
    // judged on replay (a player may concede meanwhile: the verdict never comes)...
    let copy = dir.path().join("unjudged.db");
    std::fs::copy(&db, &copy).unwrap();
    as_written_before_searches(&copy, false).await;
    let (ok, said, _) = referee(&["replay", "1", "--db", copy.to_str().unwrap()], None);
    assert!(!ok, "{said}");
    assert!(
        said.contains("the log says 'bob wins: the solver shows the circuit can still be completed.' (input 6), the replay has no such event"),
        "{said}"
    );
    // ...and the log of a game opened before revisions were kept, with the verdict inside
    // the call, replays by searching again, as the table did when it was written.
    as_written_before_searches(&db, true).await;
    let (ok, secret, _) = referee(&["export", "1", "--secret", "--db", db_arg], None);
    assert!(ok && !secret.contains("\"Verdict\""), "{secret}");
    let said = replay_file(db_arg, "1");
    assert!(said.contains("table rules revision 0"), "{said}");
}

#[tokio::test]
async fn a_concession_while_the_solver_judges_a_call_ends_the_game_and_replays() {
    use referee::local::transcript::{parse_line, Line};
    use referee::table::{Envelope, Inbound, User};
    let service = common::service("sqlite::memory:").await;
    let now = common::start_time();
    let say = |n: usize, text: &str| {
        let inbound = match parse_line(text, n).unwrap() {
            Line::Channel {
                user,
                channel,
                text,
                ..
            } => Inbound::Channel {
                channel,
                user: User::named(&user),
                admin: false,
                text,
            },
            Line::Direct { user, text, .. } => Inbound::Direct {
                user: User::named(&user),
                text,
            },
            other => panic!("not a message: {other:?}"),
        };
        (Envelope::id(format!("line-{n}")), inbound)
    };
    for (n, line) in FIRST_TURN_CALL.lines().enumerate() {
        let (envelope, inbound) = say(n, line);
        service.handle(&envelope, &inbound, now).await.unwrap();
    }
    // The solver takes the call beside the table; meanwhile bob concedes.
    let mut jobs = service.pending_work().await.unwrap().searches;
    assert_eq!(jobs.len(), 1, "ann's call waits for the solver");
    let job = jobs.remove(0);
    let before = service.store().last_outbox_id().await.unwrap();
    let (envelope, inbound) = say(99, "bob #duel: !concede");
    service.handle(&envelope, &inbound, now).await.unwrap();
    let posted = common::undelivered_texts(service.store(), before).await;
    assert!(
        posted.iter().any(|body| body.contains("bob concedes")),
        "{posted:?}"
    );
    assert!(
        posted.iter().any(|body| body.contains("ann wins")),
        "{posted:?}"
    );
    assert!(service.pending_work().await.unwrap().searches.is_empty());
    // The verdict that comes back after the end changes nothing: bob does not win it.
    let before = service.store().last_outbox_id().await.unwrap();
    let verdict = (job.work)();
    assert!(verdict.starts_with("completable"), "{verdict}");
    service
        .apply_verdict(job.game, &job.key, verdict, now)
        .await
        .unwrap();
    assert!(service
        .store()
        .undelivered_after(before)
        .await
        .unwrap()
        .is_empty());
    // The log holds the call and the concession, no verdict, and replays as it was played.
    let report = replay(&service, 1).await.unwrap();
    assert!(report.matches(), "{:?}", report.differences);
}

/// A Short Circuit match in solver mode where bob calls impossible on a position ann can
/// still complete (a3, b3 and c3 close the loop).
const SOLVER_DUEL: &str = concat!(
    solver_match_started!(),
    "\
ann #duel: !place a1 turn 90 b1 straight 90 c1 turn 180
bob #duel: !place a2 straight 0
ann #duel: !place c2 straight 0
bob #duel: !impossible
ann #duel: !place a3 turn 0 b3 straight 90 c3 turn 270
"
);

/// Runs `referee` with `args`, the solver allowed `steps` search steps (`None`: the
/// default): whether it succeeded, and what it printed and said.
fn referee_searching(args: &[&str], steps: Option<&str>) -> (bool, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command.args(args);
    if let Some(steps) = steps {
        command.env("REFEREE_TABLE_SEARCH_STEPS", steps);
    }
    let output = command.output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn an_impossible_call_replays_the_same_whatever_the_solver_may_search_later() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("duel.txt");
    std::fs::write(&transcript, SOLVER_DUEL).unwrap();
    let transcript = transcript.to_str().unwrap();
    let short = dir.path().join("short.db");
    let full = dir.path().join("full.db");
    let (short, full) = (short.to_str().unwrap(), full.to_str().unwrap());

    // Allowed a single step, the solver cannot tell, so the call is played out and ann wins
    // by completing the track; with the default budget it shows the completion at once.
    let (ok, out, err) = referee_searching(&["script", transcript, "--db", short], Some("1"));
    assert!(ok, "{err}");
    assert_says(
        &out,
        &[
            "The solver cannot settle this position within its time, so the call is played out as a challenge.",
            "ann wins: the circuit is complete.",
        ],
    );
    let (ok, out, err) = referee_searching(&["script", transcript, "--db", full], None);
    assert!(ok, "{err}");
    assert!(
        out.contains("ann wins: the solver shows the circuit can still be completed"),
        "{out}"
    );

    // Each replays to its log under the other budget, and under a third: the verdict is read
    // from the log, never searched again.
    for (db, steps) in [
        (short, None),
        (short, Some("50")),
        (full, Some("1")),
        (full, Some("50")),
    ] {
        let (ok, said, err) = referee_searching(&["replay", "1", "--db", db], steps);
        assert!(
            ok && said.contains("match the log"),
            "{db} {steps:?}: {said}{err}"
        );
    }

    // A witness forged consistently in the input and the events (the bottom row drawn one
    // square longer, with a straight the supply did not hold) replays event for event, but
    // is no completion of the position: the replay says so.
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{full}"))
        .await
        .unwrap();
    for statement in [
        "UPDATE inputs SET input = REPLACE(input, '└ ─ ┘ .', '└ ─ ─ ┘')",
        "UPDATE events SET body = REPLACE(body, '└ ─ ┘ .', '└ ─ ─ ┘')",
    ] {
        let changed = sqlx::query(statement).execute(&pool).await.unwrap();
        assert!(changed.rows_affected() > 0, "{statement}");
    }
    pool.close().await;
    let (ok, said, err) = referee_searching(&["replay", "1", "--db", full], None);
    assert!(!ok);
    assert_eq!(
        said,
        "game #1: input 10: the logged verdict of `impossible` does not hold: the witness places straight=2 turn=2 cross=0 thunder=0 where the supply holds straight=1 turn=2 cross=0 thunder=0\n"
    );
    assert!(
        err.contains("game #1 does not replay to its log (1 difference)"),
        "{err}"
    );
}

/// Plays the Parcheesi transcript into game #1 through `referee local` (on the database
/// `db`, or the configured one when `None` and `url` names it), one line every `pause`, on
/// a thread of its own.
fn writer(
    db: Option<&std::path::Path>,
    url: Option<&str>,
    pause: Duration,
) -> std::thread::JoinHandle<()> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command.arg("local");
    if let Some(db) = db {
        command.arg("--db").arg(db);
    }
    let pictures = tempfile::tempdir().unwrap();
    command
        .arg("--pictures")
        .arg(pictures.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(url) = url {
        command.env("REFEREE_DATABASE_URL", url);
    }
    let mut child = command.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        for line in include_str!("transcripts/parcheesi_2p_seed7.txt").lines() {
            if writeln!(input, "{line}").is_err() {
                break;
            }
            std::thread::sleep(pause);
        }
        drop(input);
        let _ = child.wait();
        drop(pictures);
    })
}

/// Replays game #1 `times` times in a row while `writing` plays it, each run to pass.
fn replays_pass_while_written(times: usize, args: &[&str], url: Option<&str>) {
    let mut runs = 0;
    while runs < times {
        let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
        command.args(["replay", "1"]).args(args);
        if let Some(url) = url {
            command.env("REFEREE_DATABASE_URL", url);
        }
        let output = command.output().unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        let err = String::from_utf8_lossy(&output.stderr);
        let not_yet = [
            "there is no game #1",
            "no database at",
            "is not a referee database",
        ];
        if runs == 0 && not_yet.iter().any(|said| err.contains(said)) {
            // The writer has not opened the game yet.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        assert!(
            output.status.success() && said.contains("match the log"),
            "run {runs}: {said}{err}"
        );
        runs += 1;
    }
}

#[test]
fn replay_passes_every_time_while_another_process_plays_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("busy.db");
    let playing = writer(Some(&db), None, Duration::from_millis(80));
    replays_pass_while_written(200, &["--db", db.to_str().unwrap()], None);
    playing.join().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_passes_every_time_while_another_process_plays_the_game_on_postgresql() {
    let Some(database) = common::postgres::fresh().await else {
        return;
    };
    let url = database.url.clone();
    tokio::task::spawn_blocking(move || {
        let playing = writer(None, Some(&url), Duration::from_millis(80));
        replays_pass_while_written(200, &[], Some(&url));
        playing.join().unwrap();
    })
    .await
    .unwrap();
}

#[test]
fn a_reader_that_stops_reading_is_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.db");
    let db = db.to_str().unwrap();
    let (ok, _, err) = referee(
        &["script", "--db", db],
        Some(include_str!("transcripts/tag_3p_seed7.txt")),
    );
    assert!(ok, "{err}");
    let page = dir.path().join("audit.html");
    for args in [
        vec!["replay", "1", "--db", db],
        vec!["export", "1", "--secret", "--db", db],
        vec!["audit", "1", "--db", db, "--html", page.to_str().unwrap()],
    ] {
        // `referee ... | head -0`: the reader is gone before anything is written.
        let (ok, err) = referee_with_stdout_closed(&args);
        assert!(ok, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_damaged_database_is_said_damaged_once_and_a_stranger_not_ours() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.db");
    let (ok, _, err) = referee(
        &["script", "--db", db.to_str().unwrap()],
        Some(include_str!("transcripts/tag_3p_seed7.txt")),
    );
    assert!(ok, "{err}");
    // A copy cut short, as a full disk or an interrupted copy leaves it.
    let cut = dir.path().join("cut.db");
    let bytes = std::fs::read(&db).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 10]).unwrap();
    let cut = cut.to_str().unwrap();
    let said_once = |err: &str| {
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.starts_with("referee: the database"), "{err}");
        assert_eq!(
            err.matches("is damaged (SQLite finds it malformed); restore it from a backup")
                .count(),
            1,
            "{err}"
        );
    };
    let (ok, _, err) = referee(&["replay", "1", "--db", cut], None);
    assert!(!ok);
    said_once(&err);
    // Opened to play on, it is named.
    let (ok, _, err) = referee(&["script", "--db", cut], Some(""));
    assert!(!ok);
    said_once(&err);
    assert!(err.contains(cut), "{err}");
    // A file that is no database at all is not ours.
    let stranger = dir.path().join("notes.db");
    std::fs::write(&stranger, "shopping: eggs, milk, flour\n".repeat(200)).unwrap();
    let stranger = stranger.to_str().unwrap();
    let (ok, _, err) = referee(&["replay", "1", "--db", stranger], None);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!("referee: {stranger} is not a referee database")
    );
}

#[test]
fn the_console_killed_while_it_answers_prints_no_post_twice() {
    for wait in [300, 600, 900] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("console.db");
        let pictures = dir.path().join("pictures");
        let run = |input: &str, kill_after: Option<u64>| {
            let mut child = local_console(&db, &pictures)
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(input.as_bytes()).unwrap();
            match kill_after {
                Some(ms) => {
                    std::thread::sleep(Duration::from_millis(ms));
                    child.kill().unwrap();
                }
                None => drop(stdin),
            }
            let output = child.wait_with_output().unwrap();
            String::from_utf8_lossy(&output.stdout).into_owned()
        };
        // Killed (SIGKILL) while it works through a whole game, then started again.
        let first = run(include_str!("transcripts/tag_3p_seed7.txt"), Some(wait));
        let again = run("", None);
        // Each board post prints its picture's file, named by its post: none comes twice.
        let pictures_of = |out: &str| -> Vec<String> {
            out.lines()
                .filter_map(|line| line.split("[picture: ").nth(1))
                .map(str::to_string)
                .collect()
        };
        let (before, after) = (pictures_of(&first), pictures_of(&again));
        assert!(
            !before.is_empty(),
            "killed after {wait} ms: nothing was printed"
        );
        for picture in &after {
            assert!(
                !before.contains(picture),
                "killed after {wait} ms, {picture} was printed twice"
            );
        }
    }
}
