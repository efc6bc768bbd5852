//! How a game ends when the players or the GM end it rather than its own rules: the final
//! board names nobody to move, `!who` keeps everyone who played and how each left, `!lb`
//! answers about the channel's last game, and the final ranking and the ratings place those
//! who left by one rule. Every game played here replays from its log.

mod common;

use common::{play, play_on, replay_every_game, service, start_time};
use referee::records::{Finish, Parting};

/// The lines `place` was told after the first line containing `from`.
fn after<'a>(out: &'a str, from: &str, place: &str) -> Vec<&'a str> {
    let prefix = format!("{place} <- ");
    out.lines()
        .skip_while(|line| !line.contains(from))
        .filter_map(|line| line.strip_prefix(prefix.as_str()))
        .collect()
}

#[tokio::test]
async fn a_draw_leaves_boards_that_name_nobody_to_move() {
    let out = play(
        "ann #c: !new carcassonne\nann #c: !join\nbob #c: !join\nann #c: !start\n\
         ann #c: !draw\nbob #c: !draw\nann #c: !board\n\
         ann #p: !new parcheesi\nann #p: !join\nbob #p: !join\nann #p: !start\n\
         ann #p: !draw\nbob #p: !draw\nann #p: !board\n\
         ann #s: !new shortcircuit\nann #s: !join\nbob #s: !join\nann #s: !start\n\
         ann #s: !draw\nbob #s: !draw\nann #s: !board\n",
    )
    .await;
    for (place, game, moving) in [
        ("#c", 1, ["to place", "to choose a follower"]),
        ("#p", 2, ["to play", "to move reward"]),
        ("#s", 3, ["to move", "may place until"]),
    ] {
        let ended = after(&out, &format!("Game #{game} ends in a draw"), place);
        assert!(
            ended
                .iter()
                .filter(
                    |line| line.contains("The game is over") || line.contains("the game is over")
                )
                .count()
                >= 2,
            "the final board and `!board` say the game is over in {place}:\n{out}"
        );
        for line in &ended {
            assert!(
                moving.iter().all(|words| !line.contains(words)),
                "{place} still names a player to move after the draw: {line}\n{out}"
            );
        }
    }
}

#[tokio::test]
async fn who_keeps_everyone_who_played_and_lb_answers_about_the_last_game() {
    let out = play(
        "ann #c: !new carcassonne\nann #c: !join\nbob #c: !join\ncat #c: !join\ndan #c: !join\n\
         ann #c: !join bot\nann #c: !start\nann #c: !kick cat\ndan #c: !concede\n\
         ann #c: !draw\nbob #c: !draw\nann #c: !who\nann #c: !lb\nann #c: !status\n",
    )
    .await;
    let ended = after(&out, "ends in a draw", "#c");
    for line in [
        "- ann: 0 on time, 0 late, 0 missed; no action yet.",
        "- bob: 0 on time, 0 late, 0 missed; no action yet.",
        "- Computer 1: 0 on time, 0 late, 0 missed; no action yet.",
        "- cat (removed by the GM): 0 on time, 0 late, 0 missed; no action yet.",
        "- dan (conceded): 0 on time, 0 late, 0 missed; no action yet.",
    ] {
        assert!(ended.contains(&line), "`!who` lacks {line:?}:\n{out}");
    }
    assert!(
        !ended
            .iter()
            .any(|line| line.contains("No phase has ended yet")),
        "{out}"
    );
    // `!lb` in the channel of a game that ended names that game's leaderboard.
    assert!(
        ended
            .iter()
            .any(|line| line
                .starts_with("Nobody has 3 rated games of carcassonne on this server yet")),
        "{out}"
    );
    assert!(!out.contains("name a game, like"), "{out}");
    // `!status` says how it ended, never whose turn it was.
    assert!(
        ended.contains(&"Game #1 (carcassonne), GM ann, round 1. Players: ann, bob, Computer 1. The game is over: ann, bob and Computer 1 shared first place."),
        "{out}"
    );
}

#[tokio::test]
async fn the_final_ranking_and_the_ratings_place_those_who_left_alike() {
    // Five in Parcheesi is too many; TAG takes them: eve leaves, dan then bob concede, the
    // last two agree a draw.
    let service = service("sqlite::memory:").await;
    let out = play_on(
        &service,
        "ann #t: !new tag\nann #t: !join\nbob #t: !join\ncat #t: !join\ndan #t: !join\n\
         eve #t: !join\nann #t: !start\neve #t: !leave\ndan #t: !concede\nbob #t: !concede\n\
         ann #t: !draw\ncat #t: !draw\n",
        start_time(),
        &[],
    )
    .await;
    replay_every_game(&service).await;
    let ranking: Vec<&str> = after(&out, "Final ranking:", "#t")
        .into_iter()
        .skip(1)
        .take(4)
        .collect();
    // The later conceder outlasted the earlier one; whoever left otherwise is last.
    assert_eq!(
        ranking,
        ["1. ann, cat", "2. bob", "3. dan", "4. eve"],
        "{out}"
    );
    let results = service.store().every_result().await.unwrap();
    let mut finishes: Vec<(&str, Finish)> = results[0]
        .players
        .iter()
        .map(|p| (p.id.as_str(), p.finish))
        .collect();
    finishes.sort_by_key(|(id, _)| *id);
    assert_eq!(
        finishes,
        [
            ("ann", Finish::Placed(1)),
            ("bob", Finish::Conceded(3)),
            ("cat", Finish::Placed(1)),
            ("dan", Finish::Conceded(4)),
            ("eve", Finish::Departed(Parting::Left)),
        ]
    );
    // Rated in that order: the later conceder loses less than the earlier, who loses less
    // than the one who left.
    let line = after(&out, "Final ranking:", "#t")
        .into_iter()
        .find(|line| line.starts_with("Ratings in tag"))
        .unwrap_or_else(|| panic!("no ratings line:\n{out}"));
    let change = |name: &str| -> f64 {
        let from = line.find(&format!("{name} ")).unwrap() + name.len() + 1;
        let rest = &line[from..];
        let open = rest.find('(').unwrap();
        let close = rest.find(')').unwrap();
        rest[open + 1..close].parse().unwrap()
    };
    assert!(change("bob") > change("dan"), "{line}");
    assert!(change("dan") > change("eve"), "{line}");
    assert!(change("ann") > change("bob"), "{line}");
}

#[tokio::test]
async fn a_levels_computer_seats_are_rated_once_never_against_each_other() {
    let service = service("sqlite::memory:").await;
    let out = play_on(
        &service,
        "ann #t: !new tag\nann #t: !join\nbob #t: !join\nann #t: !join bot\nann #t: !join bot\n\
         ann #t: !start\nann #t: !draw\nbob #t: !draw\n",
        start_time(),
        &[],
    )
    .await;
    replay_every_game(&service).await;
    let results = service.store().every_result().await.unwrap();
    let computers: Vec<(&str, Finish)> = results[0]
        .players
        .iter()
        .filter(|p| p.computer.is_some())
        .map(|p| (p.id.as_str(), p.finish))
        .collect();
    assert_eq!(computers, [("computer:normal", Finish::Placed(1))], "{out}");
    // Four seats sharing first place: three rated players tie, nobody gains or loses.
    let line = out
        .lines()
        .find(|line| line.contains("Ratings in tag"))
        .unwrap_or_else(|| panic!("no ratings line:\n{out}"));
    assert_eq!(line.matches("Computer (normal)").count(), 1, "{line}");
}

#[tokio::test]
async fn the_concession_that_leaves_one_player_ends_the_game_with_no_next_turn() {
    let out = play(
        "ann #c: !new carcassonne\nann #c: !join\nbob #c: !join\ncat #c: !join\nann #c: !start\n\
         bob #c: !concede\nann #c: !concede\n\
         ann #p: !new parcheesi\nann #p: !join\nbob #p: !join\ncat #p: !join\nann #p: !start\n\
         bob #p: !concede\nann #p: !concede\n",
    )
    .await;
    // Parcheesi names the one left, and leaves the ranking to the table's, which places
    // the conceders in the order they went (not sharing a place by squares to go).
    let ended = after(&out, "#p <- ann concedes", "#p");
    assert_eq!(
        &ended[2..7],
        [
            "Only one player is left, so the game ends: blue (cat) wins.",
            "Final ranking:",
            "1. cat",
            "2. ann",
            "3. bob"
        ],
        "{out}"
    );
    // ann concedes on her own turn: the channel reads that, then the end; cat's turn, which
    // the game began meanwhile, is never announced.
    let ended = after(&out, "#c <- ann concedes", "#c");
    assert_eq!(
        ended.get(1),
        Some(&"Game #1 is over: cat is the last player in."),
        "{out}"
    );
    assert!(
        !ended.iter().any(|line| line.contains("It is cat's turn")
            || line.contains("cat's turn: tile")
            || line.contains("cat to place")),
        "{out}"
    );
}

#[tokio::test]
async fn a_computer_seat_has_stats_by_the_name_the_gm_is_told_and_its_leaderboard_line_is_explained(
) {
    let mut transcript = String::new();
    for channel in ["a", "b", "c"] {
        transcript.push_str(&format!(
            "ann #{channel}: !new carcassonne\nann #{channel}: !join\nbob #{channel}: !join\n\
             ann #{channel}: !join bot\nann #{channel}: !start\nann #{channel}: !draw\n\
             bob #{channel}: !draw\n"
        ));
    }
    transcript.push_str("ann #c: !stats bot1\nbob #c: !stats Computer 1\nann #c: !lb\n");
    let out = play(&transcript).await;
    let answers = after(&out, "Game #3 ends in a draw", "#c");
    assert_eq!(
        answers
            .iter()
            .filter(|line| **line == "Computer (normal)'s record on this server:")
            .count(),
        2,
        "{out}"
    );
    assert!(answers.contains(&"- carcassonne: 3 played, 0 won, 3 drawn, 0 conceded, 0 abandoned; no deadline yet; rating 4.4 (3 rated games)"), "{out}");
    assert!(answers.contains(&"Every computer seat of this level on this server counts here: they are rated as one player."), "{out}");
    assert!(answers.contains(&"A computer's line stands for every computer seat of its level on this server: they are rated as one player."), "{out}");
    assert!(!out.contains("takes one player at most"), "{out}");
}
