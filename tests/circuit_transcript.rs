//! A whole 50-Tile Circuit game through the real `referee script` binary: six players and a
//! waitlist, secret move/stay choices by DM, a claim answered and others timing out, a player
//! leaving and a waitlisted player taking the seat, deadlines on the manual clock, the winner
//! posted; then `referee replay` and `referee export` on the kept database.

mod common;

use common::{
    assert_says, export_file, referee, replay_file, script_on_file, transcript_with_clock,
};

fn transcript() -> String {
    transcript_with_clock(
        &[
            "gm #circuit: !new circuit seed=11",
            "ann #circuit: !join blue",
            "ben #circuit: !join purple",
            "cat #circuit: !join grey",
            "dan #circuit: !join red",
            "eve #circuit: !join green",
            "fay #circuit: !join teal",
            "gus #circuit: !join salmon",
            "hal #circuit: !join white",
            "ann dm: stay",
            "ann dm: move",
            "ben dm: stay",
            "ben dm: stay",
            "gm #circuit: !resolve",
            "ann dm: effect back 3 land",
            "dan dm: effect boost pass",
            "clock +24h",
            "gm #circuit: !tiles",
            "ben #circuit: !leave",
        ],
        "clock +48h",
        160,
        &["ann #circuit: !tiles"],
    )
}

#[test]
fn a_six_player_game_with_a_waitlist_plays_to_its_winner() {
    let dir = tempfile::tempdir().unwrap();
    let (db, out) = script_on_file(dir.path(), "circuit.db", &transcript());
    assert!(out.contains("#circuit <- fay joins game #1 as teal. 6 players signed up."));
    assert!(out.contains("#circuit <- Game #1 (circuit) starts with ann (blue), ben (purple), cat (grey), dan (red), eve (green), fay (teal)."), "the table starts itself when full");
    assert_says(
        &out,
        &[
            "#circuit <- gus is on the waitlist for game #1 as salmon (number 1).",
            "#circuit <- hal is on the waitlist for game #1 as white (number 2).",
            "dm ann <- Game #1: order replaced for move or stay for turn 1: `move`.",
            "#circuit <- Orders for move or stay for turn 1 (forced by the GM):",
            "#circuit <- - ben: `stay` (receipt `",
            "#circuit <- - cat: no order (the game's default)",
            "#circuit <- ann claims tile 3.",
            "#circuit <- Roll-off for tile 7: cat 2, dan 3.",
            "dm ann <- Game #1: order received for effects for claimed tiles: `effect back 3 land`.",
            "#circuit <- eve did not answer: tile 5 stays theirs with no effect; they can give it one on a later turn with `change 5 <effect>`.",
            "#circuit <- 💙 ann: 3 back 3 land [12 left]",
            "#circuit <- ben left. gus takes the seat from the waitlist.",
        ],
    );
    assert!(
        out.contains("#circuit <- Final ranking:"),
        "the game ends with a winner"
    );
    assert!(out.contains(
        "#circuit <- Seed: `0b00000000000000000000000000000000000000000000000000000000000000`"
    ));
    let ranking: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("Final ranking:"))
        .skip(1)
        .take(6)
        .collect();
    assert!(ranking[0].starts_with("#circuit <- 1. "), "{ranking:?}");

    let out = replay_file(&db, "1");
    assert!(
        out.contains("game #1 (table rules revision 9, circuit rules revision 3): replayed"),
        "{out}"
    );

    let out = export_file(&db, false);
    let export: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(export["game"], "circuit");
    assert_eq!(export["status"], "over");
    assert_eq!(export["waitlist"], serde_json::json!(["hal"]));
    assert!(
        export.get("inputs").is_none(),
        "the public export has no inputs"
    );
    let secret = export_file(&db, true);
    assert!(secret.contains("effect back 3 land"));
}

#[test]
fn the_cli_refuses_bad_transcripts_and_unknown_games_clearly() {
    let (ok, _, err) = referee(&["script"], Some("bob bid 5\n"));
    assert!(!ok);
    assert!(err.contains("referee: line 1: expected `user #channel: text`, `user dm: text` or `clock +<duration>`"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("empty.db");
    let (ok, _, err) = referee(&["replay", "4", "--db", db.to_str().unwrap()], None);
    assert!(!ok);
    assert!(err.contains("there is no database at"), "{err}");
    assert!(!db.exists());
}

#[test]
fn an_owner_who_missed_the_claim_prompt_gives_the_tile_an_effect_later_with_a_change() {
    let transcript = "\
gm #circuit: !new circuit seed=11 max=3
ann #circuit: !join blue
ben #circuit: !join purple
cat #circuit: !join grey
ann dm: move
ben dm: move
cat dm: move
ann dm: effect boost pass
gm #circuit: !resolve
ben dm: move change 4 slow pass
ann dm: stay
cat dm: move
";
    let (ok, out, err) = referee(&["script"], Some(transcript));
    assert!(ok, "{err}");
    // ben and cat let the claim prompt pass: their tiles stay theirs with no effect.
    assert!(out.contains(
        "#circuit <- ben did not answer: tile 4 stays theirs with no effect; they can give it one on a later turn with `change 4 <effect>`."
    ), "{out}");
    // Next turn ben changes it with his move; it applies at the end of the turn.
    assert_says(
        &out,
        &[
            "dm ben <- Game #1: order received for move or stay for turn 2: `move change 4 slow pass`.",
            "#circuit <- - ben: `move change 4 slow pass`",
            "#circuit <- ben gives tile 4 the effect slow pass.",
            "#circuit <- 🟪 ben: slow pass 4; no effect 8",
        ],
    );
    // ann stays on her boost pass tile, and it acts (seed rule 1B).
    assert!(out.contains("#circuit <- Tile 3 (ann's boost pass) acts on ann."));
}
