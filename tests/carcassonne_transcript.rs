//! A Carcassonne game through the real `referee script` binary: placements and followers by
//! command, refusals with their reasons, then turns timing out (the tile goes to the first
//! legal placement, no follower) until the last tile; final scoring and the ranking.

mod common;

use common::{count, referee};

fn transcript() -> String {
    let mut lines: Vec<String> = [
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
    ]
    .into_iter()
    .map(String::from)
    .collect();
    lines.extend(std::iter::repeat_n("clock +24h".to_string(), 75));
    lines.push("ann #carc: !board".to_string());
    lines.join("\n") + "\n"
}

#[test]
fn a_short_game_plays_to_final_scoring() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("carc.db");
    let db = db.to_str().unwrap();
    let (ok, out, err) = referee(&["script", "--db", db], Some(&transcript()));
    assert!(ok, "{err}");
    assert!(out.contains("#carc <- Carcassonne begins: ann (red), bob (blue)."));
    assert!(out.contains("#carc <- ann's turn: tile A is drawn (70 left after it). Legal placements: (-1,0) at 270; (1,0) at 90; (0,1) at 0 or 90 or 270."));
    assert!(out.contains("#carc <- bob: It is ann's turn, not yours."));
    assert!(out.contains("#carc <- ann: (2,0) touches no tile"));
    assert!(out.contains("#carc <- ann: the west edge is field but (0,0) shows a road there"));
    assert!(out.contains("#carc <- ann places tile A at (1,0) turned 90."));
    assert!(out.contains("#carc <- ann puts a monk on the monastery (c)."));
    assert!(out.contains("#carc <- bob: the north edge is city but (0,0) shows a field there"));
    assert!(
        !out.lines()
            .any(|l| l.starts_with("#carc <- - roll") && l.contains("tile order")),
        "the deck order stays secret"
    );
    assert!(out.contains("turn ends (the deadline passed)"));
    assert!(out.contains("#carc <- Final ranking:"), "{out}");
    assert!(out.contains(
        "#carc <- Seed: `0300000000000000000000000000000000000000000000000000000000000000`"
    ));
    assert!(count(&out, "[picture: ") > 70);

    let (ok, out, err) = referee(&["replay", "1", "--db", db], None);
    assert!(ok, "{out}{err}");
    assert!(out.contains("match the log"));
    let (ok, secret, _) = referee(&["export", "1", "--db", db, "--secret"], None);
    assert!(ok);
    assert!(
        secret.contains("roll d71 for tile order"),
        "the secret export has the sealed draws"
    );
}
