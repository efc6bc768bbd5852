//! Bad input and bad settings at the edges: every one gets one clear sentence and changes
//! nothing. Time options are bounded, echoes of player text are short and clean, TAG's bids
//! are paid exactly or refused, settings and database errors name their cause, two processes
//! can create one database together, and `referee script` leaves no files behind.

mod common;

use common::{
    assert_says, count, local_console, play, referee, temp_file, unprivileged_referee, TAG_SIGNUP,
};
use std::io::Write;
use std::process::{Command, Stdio};

#[tokio::test]
async fn time_options_past_their_limit_are_refused_and_no_game_opens() {
    let out = play(
        "alice #a: !new tag bid_deadline=31d\n\
         alice #b: !new dicey deadline=10000w\n\
         alice #c: !new carcassonne turn=400d\n\
         alice #d: !new parcheesi turn=99999999999999999999d\n\
         alice #a: !status\n",
    )
    .await;
    assert_says(
        &out,
        &[
            "#a <- alice: `bid_deadline` is at most 30 days; got '31d'",
            "#b <- alice: `deadline` is at most 365 days; got '10000w'",
            "#c <- alice: `turn` is at most 365 days; got '400d'",
            "#d <- alice: `turn` is at most 365 days; got '99999999999999999999d'",
            "#a <- alice: There is no game in this channel.",
        ],
    );
}

#[tokio::test]
async fn a_deadline_more_than_a_year_away_is_refused_and_the_old_one_stands() {
    let out = play(&format!(
        "{TAG_SIGNUP}alice #tag: !deadline 400d\nalice #tag: !deadline 2028-01-01 00:00\nalice #tag: !deadline 97852-01-01 00:00\nalice #tag: !status\n"
    ))
    .await;
    assert_says(
        &out,
        &[
            "#tag <- alice: `!deadline` is at most 365 days away; got '400d'",
            "#tag <- alice: That deadline is more than a year away; give one within a year.",
            "#tag <- alice: `!deadline` takes a duration like 36h or a UTC time like 2026-12-01 18:00 UTC; got '97852-01-01 00:00'",
        ],
    );
    // The bids' own deadline (4 days after the start) still stands.
    assert!(out.contains("Waiting for bids by direct message from alice, bob and carol. Deadline: in 4 days (2026-01-05 00:00 UTC)."), "{out}");
    assert_eq!(count(&out, "The GM set the deadline"), 0);
}

#[test]
fn a_clock_line_too_far_is_refused_on_the_console_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = local_console(&dir.path().join("local.db"), &dir.path().join("pictures"))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "clock +100000000w").unwrap();
    writeln!(input, "alice #t: !games").unwrap();
    drop(input);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains(
        "referee: line 1: `clock +<duration>` moves the clock at most 365 days at a time; got '100000000w'"
    ), "{err}");
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("#t <- Games"),
        "the console went on"
    );
}

#[tokio::test]
async fn a_huge_unknown_command_gets_a_short_answer_with_nothing_echoed_raw() {
    let long = "z".repeat(10_000);
    let out = play(&format!(
        "{TAG_SIGNUP}bob #tag: !{long}\nbob #tag: !\u{1b}[2Jwipe\u{7}\u{0}\nbob dm: bid \u{1b}[31m5\nbob dm: status\n"
    ))
    .await;
    let answer = out
        .lines()
        .find(|line| line.contains("There is no command") && line.contains("zzz"))
        .expect("an answer to the long command");
    assert!(answer.len() < 200, "{} characters: {answer}", answer.len());
    assert!(
        !out.contains(&"z".repeat(61)),
        "never more than 60 characters of it"
    );
    assert!(
        out.contains("#tag <- bob: There is no command `![2jwipe` in tag."),
        "{out}"
    );
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}') && !out.contains('\u{0}'));
    // The bid with an escape sequence is refused, quoted without the escape; nothing taken.
    assert_says(
        &out,
        &[
            "dm bob <- '[31m5' is not a whole number; a bid is like `bid 12`",
            "dm bob <- You have not sent an order yet.",
        ],
    );
}

#[tokio::test]
async fn a_long_symbol_at_join_is_refused_whatever_the_game_allows() {
    let out = play(&format!(
        "gm #duel: !new shortcircuit seed=9\nann #duel: !join {}\ngm #duel: !status\n",
        "z".repeat(30)
    ))
    .await;
    assert!(
        out.contains(&format!(
            "#duel <- ann: a symbol or colour is at most 20 characters; '{}' is longer",
            "z".repeat(30)
        )),
        "{out}"
    );
    assert!(out.contains("Players: none yet."), "{out}");
}

#[tokio::test]
async fn tag_bids_are_paid_exactly_or_refused_and_a_ruinous_bid_is_warned_of() {
    let out = play(&format!(
        "{TAG_SIGNUP}bob dm: bid 18446744073709551615\nbob dm: bid -3\nbob dm: status\nbob dm: bid 40\ncarol dm: bid 35\n"
    ))
    .await;
    assert_says(
        &out,
        &[
            "dm bob <- a bid of 18446744073709551615 is more than any score can hold; bid at most your points to stay in the game",
            "dm bob <- a bid cannot be negative; send `bid <number>` with at least your minimum bid",
        ],
    );
    assert!(
        out.contains("dm bob <- You have not sent an order yet."),
        "nothing was taken: {out}"
    );
    assert_says(
        &out,
        &[
            "dm bob <- Game #1: order received for bids: `bid 40`.",
            "Careful: this bid is at least your 35 points, so paying it puts you out of the game when the bids are revealed.",
        ],
    );
    assert_eq!(
        count(&out, "Careful: this bid is at least your 35 points"),
        2,
        "carol's 35 too"
    );
}

#[test]
fn settings_errors_are_one_sentence_naming_the_setting_or_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[table]\nprefix = \"?\"\nearly = tru\n").unwrap();
    let transcript = dir.path().join("t.txt");
    std::fs::write(&transcript, "alice #t: !games\n").unwrap();
    let run = |config: Option<&std::path::Path>, env: &[(&str, &str)]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
        if let Some(config) = config {
            command.arg("--config").arg(config);
        }
        command.arg("script").arg(&transcript);
        for (key, value) in env {
            command.env(key, value);
        }
        let output = command.output().unwrap();
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        )
    };
    let (ok, _, err) = run(Some(&bad), &[]);
    assert!(!ok);
    assert_eq!(
        err,
        format!(
            "referee: {}:3:9: invalid string expected `\"`, `'`",
            bad.display()
        )
    );
    let (ok, _, err) = run(None, &[("REFEREE_TABLE_EARLY", "maybe")]);
    assert!(!ok);
    assert_eq!(
        err,
        "referee: setting table.early takes true or false (on/off, yes/no, 1/0); got 'maybe'"
    );
    let (ok, _, err) = run(None, &[("REFEREE_LOG_FORMAT", "xml")]);
    assert!(!ok);
    assert_eq!(
        err,
        "referee: setting log.format takes text or json; got 'xml'"
    );
    let (ok, _, err) = run(None, &[("REFEREE_HEALTH_LISTEN", "localhost")]);
    assert!(!ok);
    assert_eq!(
        err,
        "referee: setting health.listen takes an address and port to listen on, like 127.0.0.1:9898; got 'localhost'"
    );
    // A file with some settings keeps the defaults for the rest.
    let some = dir.path().join("some.toml");
    std::fs::write(&some, "[table]\nprefix = \"?\"\n").unwrap();
    std::fs::write(&transcript, "alice #t: ?games\n").unwrap();
    let (ok, out, err) = run(Some(&some), &[]);
    assert!(ok, "{err}");
    assert!(
        out.contains("#t <- Games (start one with `?new <game>`; `?rules <game>` explains it and its options):"),
        "{out}"
    );
}

/// `log.format = "json"`: every log line is one JSON object, for a log collector; the
/// program's own sentences (on standard output, and an error's on standard error) stay
/// plain. `referee health` without `health.listen` says what to set.
#[test]
fn logs_can_be_json_lines_for_collectors() {
    let (_dir, transcript) = temp_file(
        "t.txt",
        "alice #t: !new tag
bob #t: !join
",
    );
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("script")
        .arg(&transcript)
        .env("REFEREE_LOG", "debug")
        .env("REFEREE_LOG_FORMAT", "json")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("#t <- bob joins game #1."), "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines.len() > 5, "{stderr}");
    for line in lines {
        let object: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|error| panic!("not a JSON line ({error}): {line}"));
        assert!(
            object["level"].is_string() && object["timestamp"].is_string(),
            "{line}"
        );
    }

    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("health")
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        "referee: health.listen is not set, so the bot serves no health check; set it (like REFEREE_HEALTH_LISTEN=127.0.0.1:9898) or give --url"
    );
}

#[test]
fn database_errors_name_their_cause_in_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let script = "alice #t: !games\n";
    let missing = dir.path().join("no-such-folder").join("games.db");
    let (ok, _, err) = referee(&["script", "--db", missing.to_str().unwrap()], Some(script));
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!(
            "referee: the folder {} does not exist; create it or give another path for the database",
            dir.path().join("no-such-folder").display()
        )
    );
    let text = dir.path().join("notes.db");
    std::fs::write(&text, "shopping list").unwrap();
    let (ok, _, err) = referee(&["script", "--db", text.to_str().unwrap()], Some(script));
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!("referee: {} is not a referee database", text.display())
    );
    assert_eq!(
        std::fs::read_to_string(&text).unwrap(),
        "shopping list",
        "left as it was"
    );
}

#[test]
fn a_read_only_database_is_named_as_such() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let db = dir.path().join("games.db");
    let (ok, _, err) = referee(
        &["script", "--db", db.to_str().unwrap()],
        Some("alice #t: !games\n"),
    );
    assert!(ok, "{err}");
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    let script = dir.path().join("t.txt");
    std::fs::write(&script, "alice #t: !games\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    // Root ignores file modes: the check runs as `nobody` when the tests run as root.
    let output = unprivileged_referee()
        .arg("script")
        .arg(&script)
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        format!(
            "referee: the database {} is read-only; the bot needs to write to it (replay and export only read)",
            db.display()
        )
    );
}

#[test]
fn two_processes_creating_one_database_at_once_both_start() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("t.txt");
    std::fs::write(&script, "alice #t: !games\n").unwrap();
    for round in 0..8 {
        let db = dir.path().join(format!("new-{round}.db"));
        let children: Vec<_> = (0..2)
            .map(|_| {
                Command::new(env!("CARGO_BIN_EXE_referee"))
                    .arg("script")
                    .arg(&script)
                    .arg("--db")
                    .arg(&db)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let output = child.wait_with_output().unwrap();
            assert!(
                output.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }
}

#[test]
fn a_script_without_pictures_leaves_nothing_behind() {
    let (temp, script) = temp_file(
        "t.txt",
        "alice #p: !new parcheesi seed=7\nalice #p: !join\nbob #p: !join\nalice #p: !start\n",
    );
    let scratch = temp.path().join("tmp");
    std::fs::create_dir(&scratch).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("script")
        .arg(&script)
        .current_dir(&scratch)
        .env("TMPDIR", &scratch)
        .output()
        .unwrap();
    assert!(output.status.success());
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        out.contains("#p <- [picture: picture-0007.png, not kept (--pictures DIR keeps it)]"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_dir(&scratch).unwrap().count(),
        0,
        "nothing in the temporary folder"
    );
}
