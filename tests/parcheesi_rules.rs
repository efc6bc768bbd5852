//! One test per numbered rule and per decision of rules/parcheesi.md, with the cases the
//! issue asks for. Positions are built with `Match::at` and fixed rolls (`FixedRolls`).

use referee::dice::{Dice, Seed};
use referee::games::parcheesi::{
    Colour, FixedRolls, Match, Position, Roll, Seated, Settings, Spot, Stage, PARCHEESI,
};
use referee::games::{Ctx, Event, Game, Options, Phase, Player, Rules};

use Colour::{Blue, Green, Red};
use Spot::{Home, Nest, Ring, Row};

const NAMES: [&str; 4] = ["alice", "bob", "carol", "dave"];

fn seated(n: usize) -> Vec<Seated> {
    Colour::ALL
        .into_iter()
        .take(n)
        .enumerate()
        .map(|(seat, colour)| Seated {
            seat,
            name: NAMES[seat].to_string(),
            colour,
            gone: false,
        })
        .collect()
}

/// A position: every listed pawn (1-based) where it stands, every other pawn in its nest.
fn place(pawns: &[(Colour, usize, Spot)]) -> Position {
    let mut pos = Position::default();
    for (colour, pawn, spot) in pawns {
        pos.pawns[colour.index()][pawn - 1] = *spot;
    }
    pos
}

fn with(
    settings: Settings,
    players: usize,
    pawns: &[(Colour, usize, Spot)],
    to_move: Colour,
    roll: (u8, u8),
    doubles: u8,
    later: &[u8],
) -> (Match, String, FixedRolls) {
    let mut rolls = FixedRolls::new(later);
    let (game, events) = Match::at(
        settings,
        seated(players),
        place(pawns),
        to_move,
        Some(roll),
        doubles,
        &mut rolls,
    );
    (game, said(&events), rolls)
}

fn at(
    pawns: &[(Colour, usize, Spot)],
    to_move: Colour,
    roll: (u8, u8),
    later: &[u8],
) -> (Match, String, FixedRolls) {
    with(Settings::default(), 2, pawns, to_move, roll, 0, later)
}

fn said(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| e.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn play(game: &mut Match, rolls: &mut FixedRolls, line: &str) -> String {
    let seat = game.mover().map(|s| s.seat).unwrap_or(0);
    let (word, args) = line.split_once(' ').unwrap_or((line, ""));
    match game.act(seat, word, args, rolls) {
        Ok(events) => said(&events),
        Err(refusal) => panic!("{line} was refused: {refusal}"),
    }
}

fn refuse(game: &mut Match, rolls: &mut FixedRolls, line: &str) -> String {
    let before = game.clone();
    let seat = game.mover().map(|s| s.seat).unwrap_or(0);
    let (word, args) = line.split_once(' ').unwrap_or((line, ""));
    match game.act(seat, word, args, rolls) {
        Ok(events) => panic!("{line} was accepted: {}", said(&events)),
        Err(refusal) => {
            assert_eq!(*game, before, "a refusal changed the game");
            refusal.0
        }
    }
}

fn legal(game: &Match) -> Vec<String> {
    game.legal()
        .as_slice()
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn spot(game: &Match, colour: Colour, pawn: usize) -> Spot {
    game.pos.spot(colour, pawn - 1)
}

#[test]
fn rule_01_the_bot_rolls_two_dice_and_posts_the_roll_and_the_legal_steps() {
    let players: Vec<Player> = (0..2)
        .map(|seat| Player::person(seat, NAMES[seat]))
        .collect();
    let mut dice = Dice::new(Seed::parse("7").unwrap());
    let mut ctx = Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let (game, events) = PARCHEESI
        .setup(&Options::new(), &players, &mut ctx)
        .unwrap();
    let text = said(&events);
    assert!(text.contains("green (alice) rolls"), "{text}");
    let draws = dice.take_draws();
    assert!(draws.len() >= 2);
    assert_eq!(draws[0].purpose, "green roll, die 1");
    assert_eq!(draws[0].sides, 6);
    assert!(matches!(game.phase(), Phase::Turn { .. }));
}

#[test]
fn rule_02_only_pawns_out_of_the_nest_move() {
    let (mut game, _, mut rolls) = at(&[(Green, 1, Ring(10))], Green, (3, 4), &[]);
    let why = refuse(&mut game, &mut rolls, "move 2 3");
    assert!(why.contains("pawn 2 is in the nest"), "{why}");
    play(&mut game, &mut rolls, "move 1 3");
    assert_eq!(spot(&game, Green, 1), Ring(13));
}

#[test]
fn rule_03_enter_with_a_five_on_one_die() {
    let (mut game, text, mut rolls) = at(&[], Green, (5, 2), &[]);
    assert!(text.contains("!enter 1"), "{text}");
    play(&mut game, &mut rolls, "enter 1");
    assert_eq!(spot(&game, Green, 1), Ring(5));
    play(&mut game, &mut rolls, "move 1 2");
    assert_eq!(spot(&game, Green, 1), Ring(7));
}

#[test]
fn rule_03_enter_with_one_and_four_uses_both_dice() {
    let (mut game, prompt, mut rolls) = at(&[], Green, (1, 4), &[5, 1]);
    // The prompt says the entry takes both dice.
    assert!(
        prompt.contains("to play 1 4: !enter 1 (uses 1+4)"),
        "{prompt}"
    );
    let text = play(&mut game, &mut rolls, "enter 2");
    assert_eq!(spot(&game, Green, 2), Ring(5));
    assert!(text.contains("with both dice"), "{text}");
    assert_eq!(game.colour(), Red, "both dice are used, so the turn passes");
}

#[test]
fn rule_03_enter_with_two_and_three_uses_both_dice() {
    let (mut game, _, mut rolls) = at(&[], Green, (3, 2), &[5, 1]);
    play(&mut game, &mut rolls, "enter 1");
    assert_eq!(spot(&game, Green, 1), Ring(5));
    assert_eq!(game.colour(), Red);
}

#[test]
fn rule_03_double_fives_bring_two_pawns_out() {
    let (mut game, _, mut rolls) = at(&[], Green, (5, 5), &[6, 1]);
    play(&mut game, &mut rolls, "enter 1");
    play(&mut game, &mut rolls, "enter 2");
    assert_eq!(spot(&game, Green, 1), Ring(5));
    assert_eq!(spot(&game, Green, 2), Ring(5));
    assert_eq!(game.colour(), Green, "doubles roll again");
}

#[test]
fn rule_03_no_five_no_entry() {
    let (mut game, _, mut rolls) = at(&[(Green, 1, Ring(20))], Green, (3, 4), &[]);
    let why = refuse(&mut game, &mut rolls, "enter 2");
    assert!(why.contains("only with a 5"), "{why}");
}

#[test]
fn rule_04_one_pawn_per_die_or_one_pawn_for_both_and_no_move_loses_the_turn() {
    let (mut game, _, mut rolls) = at(
        &[(Green, 1, Ring(10)), (Green, 2, Ring(30))],
        Green,
        (3, 4),
        &[],
    );
    play(&mut game, &mut rolls, "move 1 3");
    play(&mut game, &mut rolls, "move 2 4");
    assert_eq!(
        (spot(&game, Green, 1), spot(&game, Green, 2)),
        (Ring(13), Ring(34))
    );
    let (game, text, _) = at(&[], Green, (3, 4), &[]);
    assert!(
        text.contains("The 3 and the 4 are lost: no pawn can use them"),
        "{text}"
    );
    assert_eq!(game.colour(), Red, "no move possible: the turn is lost");
}

#[test]
fn rule_05_a_pawn_moved_by_both_dice_captures_on_the_intermediate_square() {
    let (mut game, _, mut rolls) = at(
        &[(Green, 1, Ring(8)), (Red, 1, Ring(10))],
        Green,
        (2, 2),
        &[],
    );
    let text = play(&mut game, &mut rolls, "move 1 2");
    assert!(text.contains("captures red pawn 1 on 10"), "{text}");
    assert_eq!(spot(&game, Red, 1), Nest);
    play(&mut game, &mut rolls, "move 1 2");
    assert_eq!(spot(&game, Green, 1), Ring(12));
    assert_eq!(game.stage, Stage::Rewards);
    assert_eq!(game.rewards, vec![20]);
}

#[test]
fn rule_06_every_die_must_be_used() {
    // The 6 can only be used by pawn 1 (home row 2 + 6 = HOME); pawn 2 cannot pass 14.
    let pawns = [
        (Green, 1, Row(2)),
        (Green, 2, Ring(10)),
        (Red, 1, Ring(14)),
        (Red, 2, Ring(14)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (6, 3), &[]);
    assert_eq!(legal(&game), vec!["move 1 6", "move 2 3"]);
    let why = refuse(&mut game, &mut rolls, "move 1 3");
    assert_eq!(
        why,
        "move 1 3 is not allowed: this leaves the 6 unused, and another play uses it: every die must be used; legal now: !move 1 6, !move 2 3"
    );
    play(&mut game, &mut rolls, "move 2 3");
    play(&mut game, &mut rolls, "move 1 6");
    assert_eq!(
        (spot(&game, Green, 1), spot(&game, Green, 2)),
        (Home, Ring(13))
    );
}

#[test]
fn rule_07_when_one_die_must_be_given_up_it_is_the_lower() {
    let (mut game, _, mut rolls) = at(&[(Green, 1, Row(5))], Green, (1, 3), &[]);
    assert_eq!(legal(&game), vec!["move 1 3"]);
    let why = refuse(&mut game, &mut rolls, "move 1 1");
    assert_eq!(
        why,
        "move 1 1 is not allowed: this leaves the 3 unused; when only one of the two dice can be used, the higher must be played; legal now: !move 1 3"
    );
    let text = play(&mut game, &mut rolls, "move 1 3");
    assert_eq!(spot(&game, Green, 1), Home);
    assert!(text.contains("The 1 is lost"), "{text}");
    assert!(text.contains("it is the higher"), "{text}");
}

#[test]
fn rule_08_all_dice_before_any_reward() {
    let (mut game, _, mut rolls) = at(
        &[(Green, 1, Ring(8)), (Red, 1, Ring(10))],
        Green,
        (2, 3),
        &[],
    );
    play(&mut game, &mut rolls, "move 1 2");
    let why = refuse(&mut game, &mut rolls, "reward 1");
    assert!(why.contains("after all dice"), "{why}");
    let text = play(&mut game, &mut rolls, "move 1 3");
    assert!(text.contains("to move a reward"), "{text}");
    play(&mut game, &mut rolls, "reward 1");
    assert_eq!(spot(&game, Green, 1), Ring(33));
}

#[test]
fn rule_09_doubles_with_all_pawns_out_are_fourteen_squares() {
    let pawns = [
        (Green, 1, Ring(10)),
        (Green, 2, Ring(20)),
        (Green, 3, Ring(40)),
        (Green, 4, Ring(50)),
    ];
    let (mut game, text, mut rolls) = at(&pawns, Green, (2, 2), &[1, 2]);
    assert!(text.contains("bottom faces 5 and 5 (14 squares)"), "{text}");
    assert_eq!(
        game.roll,
        Roll {
            faces: [2, 2, 5, 5],
            count: 4,
            used: 0
        }
    );
    for line in ["move 1 2", "move 1 5", "move 2 2", "move 2 5"] {
        play(&mut game, &mut rolls, line);
    }
    assert_eq!(
        (spot(&game, Green, 1), spot(&game, Green, 2)),
        (Ring(17), Ring(27))
    );
}

#[test]
fn rule_09_doubles_with_a_pawn_in_the_nest_are_only_the_top_faces() {
    let pawns = [
        (Green, 1, Ring(10)),
        (Green, 2, Ring(20)),
        (Green, 3, Ring(40)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (2, 2), &[]);
    assert_eq!(game.roll.count, 2);
    let why = refuse(&mut game, &mut rolls, "move 1 5");
    assert!(why.contains("there is no 5"), "{why}");
}

#[test]
fn rule_09_decision_a_pawn_at_home_counts_as_out() {
    let pawns = [
        (Green, 1, Ring(10)),
        (Green, 2, Home),
        (Green, 3, Home),
        (Green, 4, Ring(40)),
    ];
    let (game, _, _) = at(&pawns, Green, (6, 6), &[]);
    assert_eq!(game.roll.faces, [6, 6, 1, 1]);
    assert_eq!(game.roll.count, 4);
}

#[test]
fn rule_10_after_doubles_the_player_rolls_again() {
    let (mut game, _, mut rolls) = at(&[(Green, 1, Ring(10))], Green, (3, 3), &[1, 2]);
    play(&mut game, &mut rolls, "move 1 3");
    let text = play(&mut game, &mut rolls, "move 1 3");
    assert!(text.contains("rolls again"), "{text}");
    assert!(text.contains("green (alice) rolls 1 and 2"), "{text}");
    assert_eq!(game.colour(), Green);
}

#[test]
fn rule_11_a_pawn_ending_on_a_single_opponent_captures_it() {
    let (mut game, _, mut rolls) = at(
        &[(Green, 1, Ring(20)), (Red, 3, Ring(24))],
        Green,
        (4, 1),
        &[],
    );
    let text = play(&mut game, &mut rolls, "move 1 4");
    assert!(text.contains("captures red pawn 3 on 24"), "{text}");
    assert_eq!(spot(&game, Red, 3), Nest);
    assert_eq!(game.rewards, vec![20]);
}

#[test]
fn rule_12_no_landing_on_an_opponent_on_a_safe_square() {
    let (mut game, _, mut rolls) = at(
        &[(Green, 1, Ring(10)), (Red, 1, Ring(12))],
        Green,
        (2, 6),
        &[],
    );
    let why = refuse(&mut game, &mut rolls, "move 1 2");
    assert_eq!(
        why,
        "pawn 1 cannot land on safe square 12: a red pawn stands there"
    );
}

#[test]
fn rule_12_entering_captures_a_single_opponent_on_the_entry_square() {
    let (mut game, _, mut rolls) = at(&[(Red, 2, Ring(5))], Green, (5, 1), &[]);
    let text = play(&mut game, &mut rolls, "enter 1");
    assert!(text.contains("captures red pawn 2 on 5"), "{text}");
    assert_eq!(spot(&game, Red, 2), Nest);
    assert_eq!(spot(&game, Green, 1), Ring(5));
}

#[test]
fn rule_13_a_blockade_stops_its_owner() {
    let pawns = [
        (Green, 1, Ring(14)),
        (Green, 2, Ring(14)),
        (Green, 3, Ring(10)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (6, 1), &[]);
    let why = refuse(&mut game, &mut rolls, "move 3 6");
    assert_eq!(why, "pawn 3 cannot pass the blockade on 14");
}

#[test]
fn rule_13_a_blockade_stops_other_players() {
    let pawns = [
        (Green, 1, Ring(34)),
        (Green, 2, Ring(34)),
        (Red, 2, Ring(30)),
        (Red, 3, Ring(50)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Red, (6, 4), &[]);
    let why = refuse(&mut game, &mut rolls, "move 2 6");
    assert_eq!(why, "pawn 2 cannot pass the blockade on 34");
    let why = refuse(&mut game, &mut rolls, "move 2 4");
    assert!(why.contains("cannot land on the blockade on 34"), "{why}");
}

#[test]
fn rule_13_no_pawn_comes_out_onto_an_opponents_blockade() {
    let (game, text, _) = at(&[(Red, 1, Ring(5)), (Red, 2, Ring(5))], Green, (5, 3), &[]);
    assert!(
        text.contains("a blockade stands on green's entry square 5"),
        "{text}"
    );
    assert_eq!(game.colour(), Red);
}

#[test]
fn rule_13_a_blockade_may_not_move_forward_together_on_doubles() {
    let pawns = [
        (Green, 1, Ring(20)),
        (Green, 2, Ring(20)),
        (Green, 3, Home),
        (Green, 4, Home),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (3, 3), &[]);
    play(&mut game, &mut rolls, "move 1 3");
    play(&mut game, &mut rolls, "move 1 4");
    play(&mut game, &mut rolls, "move 2 3");
    let why = refuse(&mut game, &mut rolls, "move 2 4");
    assert!(why.contains("may not move forward together"), "{why}");
    play(&mut game, &mut rolls, "move 1 4");
    assert_eq!(
        (spot(&game, Green, 1), spot(&game, Green, 2)),
        (Ring(31), Ring(23))
    );
}

#[test]
fn rule_14_a_pawn_may_pass_its_turn_off_and_go_round_again() {
    let (mut game, text, mut rolls) = at(&[(Green, 1, Ring(66))], Green, (6, 1), &[]);
    assert!(text.contains("!move 1 6 around"), "{text}");
    play(&mut game, &mut rolls, "move 1 6 around");
    assert_eq!(spot(&game, Green, 1), Ring(4));
    let (mut game, _, mut rolls) = at(&[(Green, 1, Ring(66))], Green, (6, 1), &[]);
    play(&mut game, &mut rolls, "move 1 6");
    assert_eq!(spot(&game, Green, 1), Row(4));
}

#[test]
fn rule_14_the_total_roll_can_force_a_pawn_round_again() {
    let pawns = [
        (Green, 1, Ring(66)),
        (Green, 2, Home),
        (Green, 3, Home),
        (Green, 4, Home),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (6, 5), &[]);
    assert_eq!(legal(&game), vec!["move 1 6 around", "move 1 5 around"]);
    let why = refuse(&mut game, &mut rolls, "move 1 6");
    assert_eq!(
        why,
        "move 1 6 is not allowed: it leaves the 5 unused, and going round uses every die: !move 1 6 around; legal now: !move 1 6 around, !move 1 5 around"
    );
    play(&mut game, &mut rolls, "move 1 6 around");
    play(&mut game, &mut rolls, "move 1 5");
    assert_eq!(spot(&game, Green, 1), Ring(9));
}

#[test]
fn rule_15_rewards_not_taken_when_the_next_player_rolls_are_lost() {
    // The capture earns 20, but 11 + 20 would pass the red blockade on 25.
    let pawns = [
        (Green, 1, Ring(8)),
        (Red, 1, Ring(10)),
        (Red, 2, Ring(25)),
        (Red, 3, Ring(25)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (2, 1), &[]);
    play(&mut game, &mut rolls, "move 1 2");
    let text = play(&mut game, &mut rolls, "move 1 1");
    assert!(text.contains("The reward of 20 is lost"), "{text}");
    assert_eq!(game.colour(), Red);
    assert!(game.rewards.is_empty());
}

#[test]
fn rule_16_capturing_earns_twenty_moved_whole_by_one_pawn() {
    let pawns = [
        (Green, 1, Ring(8)),
        (Green, 2, Ring(40)),
        (Red, 1, Ring(10)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (2, 1), &[5, 1]);
    play(&mut game, &mut rolls, "move 1 2");
    play(&mut game, &mut rolls, "move 2 1");
    let why = refuse(&mut game, &mut rolls, "move 2 3");
    assert!(why.contains("reward"), "{why}");
    play(&mut game, &mut rolls, "reward 2");
    assert_eq!(spot(&game, Green, 2), Ring(61));
    assert_eq!(game.colour(), Red);
}

#[test]
fn rule_16_reaching_home_earns_ten() {
    let pawns = [(Green, 1, Row(5)), (Green, 2, Ring(40))];
    let (mut game, _, mut rolls) = at(&pawns, Green, (3, 1), &[]);
    let text = play(&mut game, &mut rolls, "move 1 3");
    assert!(text.contains("Pawn 1 is HOME: a reward of 10"), "{text}");
    play(&mut game, &mut rolls, "move 2 1");
    play(&mut game, &mut rolls, "reward 2");
    assert_eq!(spot(&game, Green, 2), Ring(51));
}

#[test]
fn decision_home_needs_an_exact_count() {
    let pawns = [(Green, 1, Row(5)), (Green, 2, Ring(40))];
    let (mut game, _, mut rolls) = at(&pawns, Green, (4, 1), &[]);
    let why = refuse(&mut game, &mut rolls, "move 1 4");
    assert_eq!(
        why,
        "pawn 1 would overshoot HOME (it can move at most 3 in its home row)"
    );
}

#[test]
fn decision_a_capture_made_with_a_reward_earns_a_further_reward() {
    let pawns = [
        (Green, 1, Ring(8)),
        (Green, 2, Ring(40)),
        (Red, 1, Ring(10)),
        (Red, 2, Ring(60)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (2, 1), &[]);
    play(&mut game, &mut rolls, "move 1 2");
    play(&mut game, &mut rolls, "move 1 1");
    let text = play(&mut game, &mut rolls, "reward 2");
    assert!(text.contains("captures red pawn 2 on 60"), "{text}");
    assert_eq!(game.rewards, vec![20]);
    play(&mut game, &mut rolls, "reward 1");
    assert_eq!(spot(&game, Green, 1), Ring(31));
}

#[test]
fn decision_rewards_are_lost_when_no_pawn_can_use_them() {
    // Pawn 1 comes HOME (10); the only other pawn sits in its home row, 10 would overshoot.
    let pawns = [(Green, 1, Row(6)), (Green, 2, Row(1))];
    let (game, _, mut rolls) = at(&pawns, Green, (2, 1), &[]);
    let mut game = game;
    play(&mut game, &mut rolls, "move 1 2");
    let text = play(&mut game, &mut rolls, "move 2 1");
    assert!(text.contains("The reward of 10 is lost"), "{text}");
}

#[test]
fn decision_third_doubles_sends_the_most_advanced_pawn_home_to_the_nest() {
    let pawns = [(Green, 1, Ring(30)), (Green, 2, Row(3)), (Green, 3, Home)];
    let (game, text, _) = with(Settings::default(), 2, &pawns, Green, (4, 4), 2, &[5, 1]);
    assert!(text.contains("third doubles in a row"), "{text}");
    assert_eq!(
        game.pos.spot(Green, 1),
        Nest,
        "the home-row pawn is the most advanced"
    );
    assert_eq!(game.pos.spot(Green, 0), Ring(30));
    assert_eq!(game.colour(), Red);
}

#[test]
fn decision_three_doubles_off_plays_the_third_doubles() {
    let settings = Settings {
        three_doubles: false,
        ..Settings::default()
    };
    let (game, text, _) = with(settings, 2, &[(Green, 1, Ring(30))], Green, (4, 4), 2, &[]);
    assert!(!text.contains("third doubles"), "{text}");
    assert_eq!(game.colour(), Green);
    assert_eq!(game.pos.spot(Green, 0), Ring(30));
}

#[test]
fn decision_the_first_with_four_pawns_home_wins_and_the_rest_rank_by_distance() {
    let pawns = [
        (Green, 1, Home),
        (Green, 2, Home),
        (Green, 3, Home),
        (Green, 4, Row(6)),
        (Red, 1, Row(1)),
        (Blue, 1, Ring(30)),
    ];
    let (mut game, _, mut rolls) = with(Settings::default(), 3, &pawns, Green, (2, 1), 0, &[]);
    let text = play(&mut game, &mut rolls, "move 4 2");
    assert!(text.contains("wins"), "{text}");
    assert_eq!(game.stage, Stage::Over(vec![vec![0], vec![1], vec![2]]));
    let wrapped = referee::games::parcheesi::ParcheesiGame(game);
    let board = wrapped.board();
    assert!(
        board.text.contains("Game over: green (alice) first."),
        "{}",
        board.text
    );
    if let Ok(dir) = std::env::var("PARCHEESI_PNG") {
        let png = referee::picture::png_from_svg(board.svg.as_deref().unwrap()).unwrap();
        std::fs::write(format!("{dir}/parcheesi-over.png"), png).unwrap();
    }
    assert_eq!(
        wrapped.phase(),
        Phase::Over {
            ranking: vec![vec![0], vec![1], vec![2]]
        }
    );
}

#[test]
fn decision_colours_go_in_seat_order_or_as_chosen_at_join() {
    assert!(PARCHEESI.check_symbol(Some("Blue"), &[]).is_ok());
    let why = PARCHEESI
        .check_symbol(Some("red"), &["red".to_string()])
        .unwrap_err();
    assert!(why.0.contains("red is taken"), "{why}");
    assert!(PARCHEESI.check_symbol(Some("purple"), &[]).is_err());
    let players = vec![
        Player::person(0, "alice"),
        Player {
            seat: 1,
            name: "bob".into(),
            symbol: Some("green".into()),
            computer: false,
        },
    ];
    let mut dice = Dice::new(Seed::parse("3").unwrap());
    let mut ctx = Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let (game, events) = PARCHEESI
        .setup(&Options::new(), &players, &mut ctx)
        .unwrap();
    assert!(said(&events).starts_with("Parcheesi begins: green bob, red alice."));
    assert!(game.board().text.contains("green  bob"));
}

#[test]
fn decision_timeout_skip_loses_the_turn() {
    let (mut game, _, mut rolls) = at(&[(Green, 1, Ring(10))], Green, (3, 4), &[5, 1]);
    let text = said(&game.timeout(&mut rolls));
    assert!(text.contains("loses the turn"), "{text}");
    assert_eq!(spot(&game, Green, 1), Ring(10));
    assert_eq!(game.colour(), Red);
}

#[test]
fn decision_timeout_auto_moves_the_rearmost_pawn_furthest() {
    let settings = Settings {
        auto: true,
        ..Settings::default()
    };
    let pawns = [(Green, 1, Ring(10)), (Green, 2, Ring(40))];
    let (mut game, _, mut rolls) = with(settings, 2, &pawns, Green, (3, 4), 0, &[5, 1]);
    let text = said(&game.timeout(&mut rolls));
    assert!(text.contains("the bot plays the turn"), "{text}");
    assert_eq!(
        (spot(&game, Green, 1), spot(&game, Green, 2)),
        (Ring(17), Ring(40))
    );
    assert_eq!(game.colour(), Red);
}

#[test]
fn decision_blockade_limit_forces_a_stale_blockade_to_break() {
    let settings = Settings {
        blockade_limit: Some(1),
        ..Settings::default()
    };
    let pawns = [
        (Green, 1, Ring(20)),
        (Green, 2, Ring(20)),
        (Green, 3, Ring(40)),
    ];
    // Green plays 3 and 4 with pawn 3, keeping its blockade; red's turn; then green again.
    let (mut game, _, mut rolls) = with(settings, 2, &pawns, Green, (3, 4), 0, &[1, 2, 4, 3]);
    play(&mut game, &mut rolls, "move 3 3");
    let text = play(&mut game, &mut rolls, "move 3 4");
    assert_eq!(game.colour(), Green, "red could not move");
    assert!(
        text.contains("The blockade on 20 has stood its limit"),
        "{text}"
    );
    play(&mut game, &mut rolls, "move 3 4");
    assert_eq!(legal(&game), vec!["move 1 3", "move 2 3"]);
    let why = refuse(&mut game, &mut rolls, "move 3 3");
    assert!(why.contains("blockade_limit"), "{why}");
    play(&mut game, &mut rolls, "move 2 3");
    assert_eq!(spot(&game, Green, 2), Ring(23));
}

#[test]
fn decision_options_and_turn_deadline() {
    let mut options = Options::new();
    assert!(PARCHEESI.check_options(&options).is_ok());
    options.insert("three_doubles".into(), "off".into());
    options.insert("timeout".into(), "auto".into());
    options.insert("blockade_limit".into(), "3".into());
    options.insert("turn".into(), "90m".into());
    assert!(PARCHEESI.check_options(&options).is_ok());
    let (game, _, _) = at(&[], Green, (1, 2), &[]);
    let wrapped = referee::games::parcheesi::ParcheesiGame(game);
    assert_eq!(
        wrapped.time_limit(&options),
        Some(chrono::Duration::minutes(90))
    );
    assert_eq!(
        wrapped.time_limit(&Options::new()),
        Some(chrono::Duration::hours(24))
    );
    let mut bad = Options::new();
    bad.insert("speed".into(), "fast".into());
    assert!(PARCHEESI
        .check_options(&bad)
        .unwrap_err()
        .0
        .contains("no option 'speed'"));
    bad.clear();
    bad.insert("timeout".into(), "never".into());
    assert!(PARCHEESI.check_options(&bad).is_err());
}

#[test]
fn decision_only_the_player_to_move_acts_and_saved_games_load_back() {
    let (mut game, _, mut rolls) = at(&[(Green, 1, Ring(10))], Green, (3, 4), &[]);
    let why = game.act(1, "move", "1 3", &mut rolls).unwrap_err();
    assert!(why.0.contains("it is green (alice)'s turn"), "{why}");
    let wrapped = referee::games::parcheesi::ParcheesiGame(game.clone());
    let loaded = PARCHEESI.load(&wrapped.save()).unwrap();
    assert_eq!(loaded.board(), wrapped.board());
    assert!(PARCHEESI.load(&serde_json::json!({"seated": 3})).is_err());
    let mut broken = wrapped.save();
    broken["current"] = serde_json::json!(9);
    assert!(PARCHEESI.load(&broken).is_err());
}

#[test]
fn decision_the_board_lists_each_colours_pawns_and_draws_the_cross() {
    let pawns = [
        (Green, 1, Ring(10)),
        (Green, 2, Row(3)),
        (Green, 3, Home),
        (Red, 1, Ring(10 + 17)),
    ];
    let (game, _, _) = at(&pawns, Green, (3, 4), &[]);
    let wrapped = referee::games::parcheesi::ParcheesiGame(game);
    let board = wrapped.board();
    assert!(
        board
            .text
            .contains("green  alice        1 on 10 · 2 home row 3 · 3 HOME · 4 nest"),
        "{}",
        board.text
    );
    let png = referee::picture::png_from_svg(board.svg.as_deref().unwrap()).unwrap();
    assert!(png.len() > 1000);
    if let Ok(dir) = std::env::var("PARCHEESI_PNG") {
        std::fs::write(format!("{dir}/parcheesi-board.png"), png).unwrap();
    }
}

#[test]
fn decision_a_player_who_leaves_takes_its_pawns_off_and_is_ranked_last() {
    let pawns = [
        (Green, 1, Ring(10)),
        (Red, 1, Ring(30)),
        (Blue, 1, Ring(50)),
    ];
    let (mut game, _, mut rolls) = with(Settings::default(), 3, &pawns, Green, (3, 4), 0, &[5, 1]);
    let text = said(&game.seat_left(0, &mut rolls));
    assert!(text.contains("green (alice) has left"), "{text}");
    assert_eq!(spot(&game, Green, 1), Nest);
    assert_eq!(game.colour(), Red, "the leaver's turn passes");
    let text = said(&game.seat_left(2, &mut rolls));
    assert!(text.contains("Only one player is left"), "{text}");
    assert_eq!(game.stage, Stage::Over(vec![vec![1], vec![0, 2]]));
}

#[test]
fn rule_14_a_blocked_home_row_points_to_going_round_again() {
    let pawns = [(Green, 1, Ring(66)), (Green, 2, Row(2)), (Green, 3, Row(2))];
    let (mut game, _, mut rolls) = at(&pawns, Green, (5, 1), &[]);
    let why = refuse(&mut game, &mut rolls, "move 1 5");
    assert_eq!(
        why,
        "pawn 1 cannot pass the blockade on home row 2; say move 1 5 around to go round again"
    );
    play(&mut game, &mut rolls, "move 1 5 around");
    assert_eq!(spot(&game, Green, 1), Ring(3));
}

/// Green pawn 1 on ring 60 captures red on 62 with the 2; its reward of 20 can only be used
/// by going round (into the home row 20 would overshoot HOME).
fn capture_near_home() -> (Match, String, FixedRolls) {
    let pawns = [
        (Green, 1, Ring(60)),
        (Green, 2, Home),
        (Green, 3, Home),
        (Green, 4, Home),
        (Red, 1, Ring(62)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (2, 1), &[6, 3]);
    play(&mut game, &mut rolls, "move 1 2");
    let text = play(&mut game, &mut rolls, "move 1 1");
    (game, text, rolls)
}

#[test]
fn rule_16_a_reward_only_going_round_could_use_is_offered_not_forced() {
    let (mut game, text, mut rolls) = capture_near_home();
    assert_eq!(spot(&game, Green, 1), Ring(63));
    assert!(
        text.contains("green (alice) to move a reward: reward 20, only by going round: !reward 1 20 around, or !reward skip 20 to decline it."),
        "{text}"
    );
    // Into the home row it would overshoot: the refusal names the squares to HOME and the
    // way round.
    let why = refuse(&mut game, &mut rolls, "reward 1 20");
    assert_eq!(
        why,
        "pawn 1 would overshoot HOME: it is 13 squares from HOME; say reward 1 20 around to go round again (or reward skip to decline it)"
    );
    // Declined: the reward is lost, the pawn keeps its place, the turn passes.
    let text = play(&mut game, &mut rolls, "reward skip");
    assert!(text.contains("green (alice) declines the reward of 20: only going round the board could use it, and going round is forced only by the dice. The reward is lost."), "{text}");
    assert_eq!(spot(&game, Green, 1), Ring(63));
    assert!(
        text.contains("red (bob) rolls 6 and 3"),
        "the turn passed: {text}"
    );
}

#[test]
fn rule_16_the_player_may_take_such_a_reward_round_the_board() {
    let (mut game, _, mut rolls) = capture_near_home();
    play(&mut game, &mut rolls, "reward 1 20 around");
    assert_eq!(spot(&game, Green, 1), Ring(15));
}

#[test]
fn rule_16_a_reward_some_pawn_can_move_without_going_round_cannot_be_declined() {
    let pawns = [
        (Green, 1, Ring(8)),
        (Green, 2, Ring(40)),
        (Red, 1, Ring(10)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (2, 1), &[]);
    play(&mut game, &mut rolls, "move 1 2");
    play(&mut game, &mut rolls, "move 2 1");
    let why = refuse(&mut game, &mut rolls, "reward skip");
    assert_eq!(
        why,
        "the reward of 20 can be moved without going round (reward 1 20), so it must be moved; only a reward that needs going round can be declined"
    );
}

#[test]
fn rule_16_the_automatic_turn_declines_a_reward_only_going_round_could_use() {
    let settings = Settings {
        auto: true,
        ..Settings::default()
    };
    let pawns = [
        (Green, 1, Ring(60)),
        (Green, 2, Home),
        (Green, 3, Home),
        (Green, 4, Home),
        (Red, 1, Ring(62)),
    ];
    let (mut game, _, mut rolls) = with(settings, 2, &pawns, Green, (2, 1), 0, &[6, 3, 6, 3]);
    play(&mut game, &mut rolls, "move 1 2");
    play(&mut game, &mut rolls, "move 1 1");
    let text = said(&game.timeout(&mut rolls));
    assert!(text.contains("declines the reward of 20"), "{text}");
    assert_eq!(spot(&game, Green, 1), Ring(63), "not sent round the board");
}

#[test]
fn rule_13_two_rewards_may_not_carry_a_blockade_forward_together_on_doubles() {
    // Doubles 1-1 with all pawns out: faces 1, 1, 6, 6. Pawns 3 and 4 each capture with a 1
    // (two rewards of 20), then use the 6s; the blockade of pawns 1 and 2 on 20 stays.
    let pawns = [
        (Green, 1, Ring(20)),
        (Green, 2, Ring(20)),
        (Green, 3, Ring(30)),
        (Green, 4, Ring(40)),
        (Red, 1, Ring(31)),
        (Red, 2, Ring(41)),
    ];
    let (mut game, _, mut rolls) = at(&pawns, Green, (1, 1), &[6, 3]);
    play(&mut game, &mut rolls, "move 3 1");
    play(&mut game, &mut rolls, "move 4 1");
    play(&mut game, &mut rolls, "move 3 6");
    let text = play(&mut game, &mut rolls, "move 4 6");
    assert_eq!(game.rewards, vec![20, 20], "{text}");
    play(&mut game, &mut rolls, "reward 1 20");
    assert_eq!(spot(&game, Green, 1), Ring(40));
    let why = refuse(&mut game, &mut rolls, "reward 2 20");
    assert_eq!(
        why,
        "pawn 2 cannot take the reward of 20 onto its partner: the two pawns of a blockade may not move forward together on a roll of doubles, by dice or by rewards"
    );
    play(&mut game, &mut rolls, "reward 3 20");
    assert_eq!(spot(&game, Green, 3), Ring(57));
    assert_eq!(spot(&game, Green, 2), Ring(20));
}

#[test]
fn the_board_repeats_the_legal_commands_of_the_player_to_move() {
    let mut dice = Dice::new(Seed::parse("7").unwrap());
    let options = Options::new();
    let players: Vec<Player> = (0..2)
        .map(|seat| Player::person(seat, NAMES[seat]))
        .collect();
    let mut ctx = Ctx {
        now: chrono::DateTime::UNIX_EPOCH,
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let (game, _) = PARCHEESI.setup(&options, &players, &mut ctx).unwrap();
    let prompt = game.prompt().expect("a player is to move");
    assert!(prompt.contains(" to play "), "{prompt}");
}
