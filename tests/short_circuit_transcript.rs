//! Short Circuit through the real binary: the GM's secret setup by DM, placements and
//! refusals, the GM's hint by DM, an impossible call answered by completing the track (by a
//! person and by a computer, several placements in one message), a player losing on time; and `referee solve FILE` on the rules page's position format, with
//! its time budget, a closed output pipe, a byte-order mark and a supply key given twice.

mod common;

use common::{assert_says, referee, referee_with_stdout_closed, temp_file};

const OPENING: &str = "\
gm #duel: !new shortcircuit seed=9
gm dm: setup board=4x4 straight=4 turn=4 cross=0 thunder=0 first=ann impossible=challenge turntime=5m reserve=5m
ann #duel: !join
bob #duel: !join
gm #duel: !start
ann #duel: !place a1 turn 90 b1 straight 90 c1 turn 180
bob #duel: !place a2 straight 0 d1 turn 0
clock +2m
bob #duel: !place a2 straight 0
gm dm: hint
ann dm: hint
ann #duel: !place b3 turn 0
";

#[test]
fn an_impossible_call_answered_by_completing_the_track() {
    let script = format!(
        "{OPENING}ann #duel: !impossible\nbob #duel: !place c2 straight 0\nbob #duel: !place a3 turn 0 b3 straight 90 c3 turn 270\n"
    );
    let (ok, out, err) = referee(&["script"], Some(&script));
    assert!(ok, "{err}");
    assert!(
        !out.split("starts with")
            .next()
            .unwrap()
            .lines()
            .any(|l| l.starts_with("#duel") && l.contains("board=4x4")),
        "the setup is secret before the start"
    );
    assert_says(
        &out,
        &[
            "#duel <- The GM's secret setup: board=4x4",
            "ann moves first (chosen by the GM).",
        ],
    );
    assert!(
        out.contains("#duel <- bob: pieces placed together must stand in one row or one column")
    );
    assert!(out.contains("dm gm <- Game #1: completable"));
    assert!(
        out.contains("dm ann <- No order is awaited from you in game #1 now."),
        "only the GM gets hints"
    );
    assert_says(
        &out,
        &[
            "#duel <- ann: at least one placed piece must touch a piece already on the board (touching is enough: the connections need not match)",
            "#duel <- bob has 1 day to complete the track, placing as often as they like, or to concede.",
            "#duel <- Final ranking:\n#duel <- 1. bob\n#duel <- 2. ann\n",
        ],
    );
}

#[tokio::test]
async fn answering_a_call_several_placements_go_in_one_message_and_one_post() {
    // ann calls impossible on an empty board: bob completes a loop in one message of two
    // placements, after a chain whose second placement is refused took nothing.
    let script = concat!(
        game_started!(new "shortcircuit first=1" in "#duel" by "ann", joined by "ann", "bob"),
        "\
ann #duel: !impossible
clock +1m
bob #duel: !place e5 turn 90 f5 turn 180; a1 turn 0
bob #duel: !place e5 turn 90 f5 turn 180; e6 turn 0 f6 turn 270
cal #bots: !new shortcircuit first=1
cal #bots: !join
cal #bots: !join bot
cal #bots: !start
cal #bots: !impossible
clock +1m
",
    );
    // Played in the process, so both games are replayed from their logs.
    let out = common::play(script).await;
    assert_says(
        &out,
        &[
            "#duel <- bob: placement 2 of 2: at least one placed piece must touch",
            "#duel <- bob places turn 90 on e5, turn 180 on f5; then turn 0 on e6, turn 270 on f6.",
        ],
    );
    assert_eq!(out.matches("#duel <- bob places").count(), 1, "{out}");
    assert!(out.contains("#duel <- 1. bob"), "{out}");
    // The computer's completion is one message too, so one post: a piece a placement.
    assert_eq!(
        out.matches("#bots <- Computer 1 places").count(),
        1,
        "{out}"
    );
    assert!(
        out.lines()
            .any(|line| line.starts_with("#bots <- Computer 1 places")
                && line.matches("; then ").count() >= 3),
        "{out}"
    );
    assert!(out.contains("#bots <- 1. Computer 1"), "{out}");
}

#[test]
fn a_player_whose_reserve_runs_out_loses() {
    let script = format!("{OPENING}clock +11m\n");
    let (ok, out, err) = referee(&["script"], Some(&script));
    assert!(ok, "{err}");
    assert_says(
        &out,
        &[
            "#duel <- ann's turn ends (the deadline passed).",
            "#duel <- Final ranking:\n#duel <- 1. bob\n#duel <- 2. ann\n",
        ],
    );
}

#[test]
fn solve_reads_the_position_format_and_prints_a_witness() {
    let (_dir, position) = temp_file(
        "position.txt",
        "size 6x6\nsupply straight=3 turn=4 cross=1 thunder=0\n. . . . . .\n. ┌ ─ ┐ . .\n. │ . │ . .\n. └ ─ ┼ ─ ┐\n. . . │ . │\n. . . └ ─ ┘\n",
    );
    let (ok, out, err) = referee(&["solve", position.to_str().unwrap()], None);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("completable\nsize 6x6\n"),
        "the rules page's example is already one loop: {out}"
    );
    std::fs::write(
        &position,
        "size 3x3\nsupply straight=0 turn=0 cross=0 thunder=0\n┌ . .\n. . .\n. . .\n",
    )
    .unwrap();
    let (ok, out, _) = referee(&["solve", position.to_str().unwrap()], None);
    assert!(ok);
    assert!(out.starts_with("impossible"), "{out}");
    std::fs::write(&position, "size 3x3\nthis is not a board\n").unwrap();
    let (ok, _, err) = referee(&["solve", position.to_str().unwrap()], None);
    assert!(!ok);
    assert!(
        err.contains("is not a position in the text format"),
        "{err}"
    );
}

#[test]
fn solve_keeps_to_its_budget_and_its_reader() {
    let dir = tempfile::tempdir().unwrap();
    let position = dir.path().join("position.txt");
    let example = "size 6x6\nsupply straight=3 turn=4 cross=1 thunder=0\n. . . . . .\n. ┌ ─ ┐ . .\n. │ . │ . .\n. └ ─ ┼ ─ ┐\n. . . │ . │\n. . . └ ─ ┘\n";
    std::fs::write(&position, format!("\u{feff}{example}")).unwrap();
    let (ok, out, err) = referee(&["solve", position.to_str().unwrap()], None);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("completable\n"),
        "a byte-order mark is read: {out}"
    );

    // A reader that stops reading is no reason to panic.
    let (ok, err) = referee_with_stdout_closed(&["solve", position.to_str().unwrap()]);
    assert!(ok && !err.contains("panicked"), "{err}");

    std::fs::write(
        &position,
        example.replace("straight=3", "straight=3 straight=4"),
    )
    .unwrap();
    let (ok, _, err) = referee(&["solve", position.to_str().unwrap()], None);
    assert!(!ok);
    assert!(
        err.contains("the supply line gives `straight` twice; give each kind once"),
        "{err}"
    );

    // A wall with a crossroad, a thunder piece and too few straights to get round it: the
    // solver needs far longer than a millisecond to prove it impossible.
    let mut wall = "size 13x16\nsupply straight=2 turn=13 cross=1 thunder=2\n".to_string();
    for row in 0..16 {
        let line = match row {
            7 => "┌ ┼ ─ ─ ─ ─ ─ ─ ─ ─ ─ ⚡ ┐",
            _ => ". . . . . . . . . . . . .",
        };
        wall.push_str(line);
        wall.push('\n');
    }
    std::fs::write(&position, wall).unwrap();
    let (ok, out, err) = referee(
        &["solve", "--budget", "1ms", position.to_str().unwrap()],
        None,
    );
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "undecided: the solver did not settle this position within 1ms\n\n"
    );
    std::fs::write(&position, example).unwrap();
    let (ok, out, _) = referee(
        &["solve", "--budget", "5s", position.to_str().unwrap()],
        None,
    );
    assert!(ok);
    assert!(out.starts_with("completable\n"), "{out}");
    let (ok, _, err) = referee(
        &["solve", "--budget", "soon", position.to_str().unwrap()],
        None,
    );
    assert!(!ok);
    assert!(err.contains("--budget soon is not a time"), "{err}");
}
