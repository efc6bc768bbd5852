//! A whole 2-player Parcheesi game through the real `referee script` binary
//! (tests/transcripts/parcheesi_2p_seed7.txt): the bot rolls, posts the legal steps, refuses
//! illegal ones with the reason, ends turns by itself, and posts the winner.

mod common;

use common::{assert_says, count, referee, replay_file, script_on_file};

#[test]
fn a_whole_two_player_game() {
    let transcript = include_str!("transcripts/parcheesi_2p_seed7.txt");
    let dir = tempfile::tempdir().unwrap();
    let (db, out) = script_on_file(dir.path(), "parcheesi.db", transcript);
    assert_says(
        &out,
        &[
            "#parcheesi <- Parcheesi begins: green alice, red bob.",
            "#parcheesi <- green (alice) rolls 2 and 4.",
            "#parcheesi <- The 2 and the 4 are lost: no pawn can use them: pawns 1, 2, 3, 4 are in the nest and only a 5 brings them out.",
            "#parcheesi <- red (bob) to play 5 1: !enter 1, !enter 2, !enter 3, !enter 4.",
            "#parcheesi <- alice: It is bob's turn, not yours.",
            "#parcheesi <- bob: pawn 1 is in the nest and can only come out with a 5 (enter 1)",
            "#parcheesi <- green (alice) brings pawn 1 out of the nest onto 5 with both dice.",
            "doubles with all pawns out, so also the bottom faces",
        ],
    );
    assert!(
        out.contains("#parcheesi <- red (bob) has all four pawns HOME and wins!")
            || out.contains("red (bob) has all four pawns HOME and wins!")
    );
    assert!(out
        .contains("#parcheesi <- Final ranking:\n#parcheesi <- 1. bob\n#parcheesi <- 2. alice\n"));
    assert!(
        out.contains("#parcheesi <- Parcheesi · Game over: red (bob) first."),
        "!board after the end shows the final board"
    );
    // One post per turn: the steps within a turn come as their lines alone, and the turn's
    // last post sums it up with the board and its picture.
    assert_says(
        &out,
        &[
            "#parcheesi <- red (bob) moves pawn 1 from 23 to 25 with the 2.\n#parcheesi <- red (bob) to play 2: !move 1 2.\n#parcheesi <- red (bob) moves pawn 1 from 25 to 27 with the 2.\n#parcheesi <- red (bob) rolled doubles and rolls again.",
            "#parcheesi <- Turn summary, red (bob): rolled 2 2: pawn 1 23 to 25, pawn 1 25 to 27; rolled 6 5: pawn 1 27 to 33, pawn 1 33 to 38.\n#parcheesi <- green (alice) rolls 6 and 4.",
        ],
    );
    let turns = count(&out, "Turn summary, ");
    let pictures = count(&out, "[picture: ");
    assert!(turns > 50, "{turns} turns");
    assert!(
        pictures <= turns + 3,
        "{pictures} pictures for {turns} turns: one a turn, plus the start, the end and !board"
    );

    replay_file(&db, "1");
}

#[test]
fn the_board_repeats_the_legal_commands_of_the_player_to_move() {
    let transcript = concat!(
        game_started!(new "parcheesi seed=7" in "#parcheesi" by "alice", joined by "alice", "bob"),
        "bob #parcheesi: !board\n",
    );
    let (ok, out, err) = referee(&["script"], Some(transcript));
    assert!(ok, "{err}");
    // The board post of `!board` (the last post) ends with the legal commands.
    let board_post = &out[out.rfind("#parcheesi <- ```\n").expect("the board")..];
    assert!(
        board_post.starts_with("#parcheesi <- ```\n#parcheesi <- red (bob) to play 5 1: !enter 1, !enter 2, !enter 3, !enter 4.\n#parcheesi <- [picture: "),
        "{out}"
    );
}
