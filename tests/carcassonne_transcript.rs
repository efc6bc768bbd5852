//! A Carcassonne game through the real `referee script` binary: placements and followers by
//! command, refusals with their reasons, then turns timing out (the tile goes to the first
//! legal placement, no follower) until the last tile; final scoring and the ranking.

mod common;

use common::{assert_says, count, export_file, replay_file, script_on_file, transcript_with_clock};

fn transcript() -> String {
    transcript_with_clock(
        &[
            "ann #carc: !new carcassonne seed=3 bigtop=off",
            "ann #carc: !join",
            "bob #carc: !join blue",
            "ann #carc: !start",
            "bob #carc: !place 1 0 90",
            "ann #carc: !place 2 0 90",
            "ann #carc: !place 1 0 0",
            "ann #carc: !place 1 0 90 meeple c",
            "bob #carc: !place 0 1 0",
            "bob #carc: !place 0 -1 0 meeple city",
            "ann #carc: !log 0",
        ],
        "clock +24h",
        75,
        &["ann #carc: !board"],
    )
}

#[test]
fn a_short_game_plays_to_final_scoring() {
    let dir = tempfile::tempdir().unwrap();
    let (db, out) = script_on_file(dir.path(), "carc.db", &transcript());
    assert_says(
        &out,
        &[
            "#carc <- Carcassonne begins: ann (red), bob (blue).",
            "#carc <- ann's turn: tile A is drawn (70 left after it). Legal placements: (-1,0) at 270; (1,0) at 90; (0,1) at 0 or 90 or 270.",
            "#carc <- bob: It is ann's turn, not yours.",
            "#carc <- ann: (2,0) touches no tile",
            "#carc <- ann: the west edge is field but (0,0) shows a road there",
            "#carc <- ann places tile A at (1,0) turned 90.",
            "#carc <- ann puts a monk on the monastery (c).",
            "#carc <- bob: the north edge is city but (0,0) shows a field there",
        ],
    );
    assert!(
        !out.lines()
            .any(|l| l.starts_with("#carc <- - roll") && l.contains("tile order")),
        "the deck order stays secret"
    );
    assert_says(
        &out,
        &[
            "turn ends (the deadline passed)",
            "#carc <- Final ranking:",
            "#carc <- Seed: `0300000000000000000000000000000000000000000000000000000000000000`",
        ],
    );
    assert!(count(&out, "[picture: ") > 70);

    replay_file(&db, "1");
    let secret = export_file(&db, true);
    assert!(
        secret.contains("roll d71 for tile order"),
        "the secret export has the sealed draws"
    );
}
