//! TAG collision catalogue, in the spirit of Diplomacy's DATC: each case is a small position,
//! the orders, and the expected squares, points and itness after the round.
//!
//! Unless a case says otherwise, players start with 20 points on a 5x5 grid, nobody is it,
//! and the itness queue is the order the players are listed in. Remember the end-of-round
//! bookkeeping: a strider with no collision gains 1, whoever is it at the end pays 4.

use referee::dice::{Dice, Seed};
use referee::games::tag::parse::{parse_order, Order};
use referee::games::tag::resolve::{Kind, RoundReport};
use referee::games::tag::state::{grid_side, Builder, MoveOrder, Stage, TagState};
use std::collections::BTreeMap;

fn dice() -> Dice {
    Dice::new(Seed::parse("7").unwrap())
}

/// Players `(name, square)` with 20 points each on a 5x5 grid.
fn position(players: &[(&str, &str)]) -> Builder {
    let mut b = TagState::builder(5);
    for (name, square) in players {
        b = b.player(name, square, 20);
    }
    b
}

fn order(text: &str) -> MoveOrder {
    match parse_order(text) {
        Ok(Order::Moves(o)) => o,
        other => panic!("not a move order: {text}: {other:?}"),
    }
}

/// Plays one round; every order must be valid for its player.
fn play(state: &mut TagState, orders: &[(usize, &str)]) -> RoundReport {
    let mut map = BTreeMap::new();
    for &(seat, text) in orders {
        let o = order(text);
        state
            .check_move_order(seat, &o)
            .unwrap_or_else(|e| panic!("order {text} refused: {e}"));
        map.insert(seat, o);
    }
    state.resolve_moves(&map, &mut dice())
}

fn at(state: &TagState, seat: usize) -> String {
    state.players[seat]
        .square
        .map(|q| q.to_string())
        .unwrap_or_else(|| "out".to_string())
}

fn points(state: &TagState) -> Vec<i64> {
    state.players.iter().map(|p| p.points).collect()
}

fn squares(state: &TagState) -> Vec<String> {
    (0..state.players.len()).map(|s| at(state, s)).collect()
}

fn kinds(report: &RoundReport) -> Vec<u8> {
    report
        .steps
        .iter()
        .flat_map(|s| s.collisions.iter().map(|c| c.kind.number()))
        .collect()
}

// ---- 1. Plain moves -------------------------------------------------------------------

#[test]
fn c01_standing_striders_recover_one() {
    let mut s = position(&[("a", "c3"), ("b", "a1")]).build();
    play(&mut s, &[(0, "move nothing stride")]);
    assert_eq!(squares(&s), ["c3", "a1"]);
    assert_eq!(
        points(&s),
        [21, 21],
        "the missing order of b defaults to nothing, striding"
    );
}

#[test]
fn c02_free_stomp_moves_without_recovery() {
    let mut s = position(&[("a", "c3")]).build();
    play(&mut s, &[(0, "move n stomp")]);
    assert_eq!(squares(&s), ["c2"]);
    assert_eq!(points(&s), [20]);
}

// ---- 2. Kind 1: trades -----------------------------------------------------------------

#[test]
fn c03_trade_stride_stride_both_stay_minus_3() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    let r = play(&mut s, &[(0, "move e stride"), (1, "move w stride")]);
    assert_eq!(kinds(&r), [1]);
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c04_trade_stomp_stomp_both_stay_minus_3() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    play(&mut s, &[(0, "move e stomp"), (1, "move w stomp")]);
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c05_trade_stomp_vs_stride_damage_applies_but_both_stay() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    play(&mut s, &[(0, "move e stomp"), (1, "move w stride")]);
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [22, 14]);
}

#[test]
fn c06_diagonal_trade_is_kind_1_not_kind_3() {
    let mut s = position(&[("a", "b2"), ("b", "c3")]).build();
    let r = play(&mut s, &[(0, "move se stride"), (1, "move nw stride")]);
    assert_eq!(kinds(&r), [1]);
    assert_eq!(points(&s), [17, 17]);
}

// ---- 3. Kind 2: entering one square -----------------------------------------------------

#[test]
fn c07_two_striders_into_an_empty_square() {
    let mut s = position(&[("a", "b2"), ("b", "d2")]).build();
    let r = play(&mut s, &[(0, "move e stride"), (1, "move w stride")]);
    assert_eq!(kinds(&r), [2]);
    assert_eq!(squares(&s), ["b2", "d2"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c08_two_stompers_into_an_empty_square_both_stay() {
    let mut s = position(&[("a", "b2"), ("b", "d2")]).build();
    play(&mut s, &[(0, "move e stomp"), (1, "move w stomp")]);
    assert_eq!(squares(&s), ["b2", "d2"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c09_stomper_beats_strider_and_takes_the_square() {
    let mut s = position(&[("a", "b2"), ("b", "d2")]).build();
    let r = play(&mut s, &[(0, "move e stomp"), (1, "move w stride")]);
    assert_eq!(squares(&s), ["c2", "d2"]);
    assert_eq!(points(&s), [22, 14]);
    assert_eq!(r.steps[0].collisions[0].winner, Some(0));
}

#[test]
fn c10_strider_into_a_standing_strider() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    play(&mut s, &[(0, "move e stride"), (1, "move nothing stride")]);
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c11_stomper_into_a_standing_strider_damages_but_stays() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    play(&mut s, &[(0, "move e stomp"), (1, "move nothing stride")]);
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [22, 14]);
}

#[test]
fn c12_strider_into_a_standing_stomper() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    play(&mut s, &[(0, "move e stride"), (1, "move nothing stomp")]);
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [14, 22]);
}

#[test]
fn c13_three_striders_into_one_square_collide_pairwise() {
    let mut s = position(&[("a", "b2"), ("b", "d2"), ("c", "c1")]).build();
    let r = play(
        &mut s,
        &[
            (0, "move e stride"),
            (1, "move w stride"),
            (2, "move s stride"),
        ],
    );
    assert_eq!(r.steps[0].collisions.len(), 1);
    assert_eq!(r.steps[0].collisions[0].players.len(), 3);
    assert_eq!(squares(&s), ["b2", "d2", "c1"]);
    assert_eq!(points(&s), [14, 14, 14]);
}

#[test]
fn c14_one_stomper_among_three_wins_against_both() {
    let mut s = position(&[("a", "b2"), ("b", "d2"), ("c", "c1")]).build();
    play(
        &mut s,
        &[
            (0, "move e stomp"),
            (1, "move w stride"),
            (2, "move s stride"),
        ],
    );
    assert_eq!(squares(&s), ["c2", "d2", "c1"]);
    assert_eq!(points(&s), [24, 11, 11]);
}

#[test]
fn c15_two_stompers_and_a_strider_all_stay() {
    let mut s = position(&[("a", "b2"), ("b", "d2"), ("c", "c1")]).build();
    play(
        &mut s,
        &[
            (0, "move e stomp"),
            (1, "move w stomp"),
            (2, "move s stride"),
        ],
    );
    assert_eq!(squares(&s), ["b2", "d2", "c1"]);
    assert_eq!(points(&s), [19, 19, 8]);
}

#[test]
fn c16_four_striders_into_one_square() {
    let mut s = position(&[("a", "b2"), ("b", "d2"), ("c", "c1"), ("d", "c3")]).build();
    play(
        &mut s,
        &[
            (0, "move e stride"),
            (1, "move w stride"),
            (2, "move s stride"),
            (3, "move n stride"),
        ],
    );
    assert_eq!(squares(&s), ["b2", "d2", "c1", "c3"]);
    assert_eq!(points(&s), [11, 11, 11, 11]);
}

#[test]
fn c17_three_entrants_and_a_stander_every_pair_collides() {
    let mut s = position(&[("a", "b2"), ("b", "d2"), ("c", "c1"), ("d", "c2")]).build();
    play(
        &mut s,
        &[
            (0, "move e stride"),
            (1, "move w stride"),
            (2, "move s stride"),
            (3, "move nothing stride"),
        ],
    );
    assert_eq!(squares(&s), ["b2", "d2", "c1", "c2"]);
    assert_eq!(points(&s), [11, 11, 11, 11]);
}

// ---- 4. Kind 3: crossing diagonals ------------------------------------------------------

#[test]
fn c18_crossing_diagonals_stride_stride() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    let r = play(&mut s, &[(0, "move se stride"), (1, "move sw stride")]);
    assert_eq!(kinds(&r), [3]);
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c19_crossing_diagonals_stomp_stomp() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    play(&mut s, &[(0, "move se stomp"), (1, "move sw stomp")]);
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c20_crossing_diagonals_stomper_goes_through() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    play(&mut s, &[(0, "move se stomp"), (1, "move sw stride")]);
    assert_eq!(squares(&s), ["c3", "c2"]);
    assert_eq!(points(&s), [22, 14]);
}

#[test]
fn c21_crossing_in_the_other_direction_also_collides() {
    let mut s = position(&[("a", "c3"), ("b", "b3")]).build();
    let r = play(&mut s, &[(0, "move nw stride"), (1, "move ne stride")]);
    assert_eq!(kinds(&r), [3]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c22_diagonal_between_two_standing_players_is_free() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "b3")]).build();
    let r = play(&mut s, &[(0, "move se stride")]);
    assert!(kinds(&r).is_empty());
    assert_eq!(squares(&s), ["c3", "c2", "b3"]);
    assert_eq!(points(&s), [21, 21, 21]);
}

#[test]
fn c23_parallel_diagonals_do_not_collide() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    play(&mut s, &[(0, "move se stride"), (1, "move se stride")]);
    assert_eq!(squares(&s), ["c3", "d3"]);
    assert_eq!(points(&s), [21, 21]);
}

#[test]
fn c24_no_kind_3_with_a_diagonal_already_held_by_kind_2() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "c3")]).build();
    let r = play(
        &mut s,
        &[
            (0, "move se stride"),
            (1, "move sw stride"),
            (2, "move nothing stride"),
        ],
    );
    assert_eq!(kinds(&r), [2], "a is held by c before kind 3 is looked at");
    assert_eq!(squares(&s), ["b2", "b3", "c3"]);
    assert_eq!(points(&s), [17, 21, 17]);
}

// ---- 5. Squares being left, chains ------------------------------------------------------

#[test]
fn c25_moving_into_a_square_being_left_succeeds() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    let r = play(&mut s, &[(0, "move e stride"), (1, "move e stride")]);
    assert!(kinds(&r).is_empty());
    assert_eq!(squares(&s), ["c2", "d2"]);
    assert_eq!(points(&s), [21, 21]);
}

#[test]
fn c26_leaver_held_so_the_follower_bounces_off_it() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("d", "d2")]).build();
    let r = play(
        &mut s,
        &[
            (0, "move e stride"),
            (1, "move e stride"),
            (2, "move nothing stride"),
        ],
    );
    assert_eq!(kinds(&r), [2, 2], "two waves: b into d, then a into held b");
    assert_eq!(squares(&s), ["b2", "c2", "d2"]);
    assert_eq!(points(&s), [17, 14, 17]);
}

#[test]
fn c27_chain_of_four_behind_a_standing_player() {
    let mut s = position(&[("a", "a2"), ("b", "b2"), ("c", "c2"), ("d", "d2")]).build();
    let r = play(
        &mut s,
        &[
            (0, "move e stride"),
            (1, "move e stride"),
            (2, "move e stride"),
            (3, "move nothing stride"),
        ],
    );
    assert_eq!(r.steps[0].collisions.len(), 3);
    assert_eq!(squares(&s), ["a2", "b2", "c2", "d2"]);
    assert_eq!(points(&s), [17, 14, 14, 17]);
}

#[test]
fn c28_chain_from_a_trade() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "c3")]).build();
    let r = play(
        &mut s,
        &[
            (0, "move e stride"),
            (1, "move w stride"),
            (2, "move n stride"),
        ],
    );
    assert_eq!(kinds(&r), [1, 2]);
    assert_eq!(squares(&s), ["b2", "c2", "c3"]);
    assert_eq!(points(&s), [17, 14, 17]);
}

#[test]
fn c29_chain_through_kind_3() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "a2")]).build();
    let r = play(
        &mut s,
        &[
            (0, "move se stride"),
            (1, "move sw stride"),
            (2, "move e stride"),
        ],
    );
    assert_eq!(kinds(&r), [3, 2], "c waits for a, then bounces off it");
    assert_eq!(squares(&s), ["b2", "c2", "a2"]);
    assert_eq!(points(&s), [14, 17, 17]);
}

#[test]
fn c30_stomper_winner_stopped_by_a_later_wave() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "d2"), ("d", "c1")]).build();
    play(
        &mut s,
        &[
            (0, "move e stomp"),
            (1, "move n stride"),
            (2, "move w stride"),
            (3, "move nothing stride"),
        ],
    );
    assert_eq!(squares(&s), ["b2", "c2", "d2", "c1"]);
    assert_eq!(points(&s), [24, 11, 14, 17]);
}

#[test]
fn c31_stomper_winning_a_crossing_then_bouncing_off_a_player_held_in_the_same_batch() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("e", "c3"), ("f", "d3")]).build();
    let r = play(
        &mut s,
        &[
            (0, "move se stomp"),
            (1, "move sw stride"),
            (2, "move se stride"),
            (3, "move sw stride"),
        ],
    );
    // Two crossings in one kind 3 batch: a wins its own, but e (leaving a's target) is held
    // by its crossing with f, so a then collides with e (kind 2) and stays.
    assert_eq!(kinds(&r), [3, 3, 2]);
    assert_eq!(squares(&s), ["b2", "c2", "c3", "d3"]);
    assert_eq!(points(&s), [24, 14, 11, 17]);
}

// ---- 6. Rotations ------------------------------------------------------------------------

#[test]
fn c32_rotation_of_three_all_move() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "b3")]).build();
    let r = play(
        &mut s,
        &[
            (0, "move e stride"),
            (1, "move sw stride"),
            (2, "move n stride"),
        ],
    );
    assert!(kinds(&r).is_empty());
    assert_eq!(squares(&s), ["c2", "b3", "b2"]);
    assert_eq!(points(&s), [21, 21, 21]);
}

#[test]
fn c33_rotation_of_four_all_move() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "c3"), ("d", "b3")]).build();
    play(
        &mut s,
        &[
            (0, "move e stomp"),
            (1, "move s stomp"),
            (2, "move w stomp"),
            (3, "move n stomp"),
        ],
    );
    assert_eq!(squares(&s), ["c2", "c3", "b3", "b2"]);
    assert_eq!(points(&s), [20, 20, 20, 20]);
}

#[test]
fn c34_rotation_broken_by_an_intruder_chains_around_the_cycle() {
    let mut s = position(&[
        ("a", "b2"),
        ("b", "c2"),
        ("c", "c3"),
        ("d", "b3"),
        ("e", "d2"),
    ])
    .build();
    let r = play(
        &mut s,
        &[
            (0, "move e stride"),
            (1, "move s stride"),
            (2, "move w stride"),
            (3, "move n stride"),
            (4, "move w stride"),
        ],
    );
    assert_eq!(r.steps[0].collisions.len(), 4);
    assert_eq!(squares(&s), ["b2", "c2", "c3", "b3", "d2"]);
    assert_eq!(points(&s), [14, 17, 14, 14, 17]);
}

// ---- 7. Off the grid ---------------------------------------------------------------------

#[test]
fn c35_move_off_the_grid_stays_without_damage() {
    let mut s = position(&[("a", "a1")]).build();
    let r = play(&mut s, &[(0, "move nw stride")]);
    assert_eq!(r.steps[0].off_grid, [0]);
    assert_eq!(squares(&s), ["a1"]);
    assert_eq!(points(&s), [21], "an off-grid attempt is no collision");
}

#[test]
fn c36_player_stuck_at_the_edge_is_an_obstacle() {
    let mut s = position(&[("a", "a1"), ("b", "b1")]).build();
    play(&mut s, &[(0, "move n stride"), (1, "move w stride")]);
    assert_eq!(squares(&s), ["a1", "b1"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c37_off_grid_cancels_the_later_moves() {
    let mut s = position(&[("a", "a1")]).moves(2).build();
    play(&mut s, &[(0, "move n e stride")]);
    assert_eq!(squares(&s), ["a1"]);
}

// ---- 8. Several moves --------------------------------------------------------------------

#[test]
fn c38_two_free_moves() {
    let mut s = position(&[("a", "b2")]).moves(2).build();
    play(&mut s, &[(0, "move e e stride")]);
    assert_eq!(squares(&s), ["d2"]);
    assert_eq!(points(&s), [21]);
}

#[test]
fn c39_early_failure_cancels_later_moves() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).build();
    s.players[0].moves = 2;
    let r = play(&mut s, &[(0, "move e s stride")]);
    assert_eq!(r.steps[1].collisions.len(), 0);
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c40_player_doing_nothing_who_is_run_into_keeps_its_later_moves() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).moves(2).build();
    play(
        &mut s,
        &[(0, "move e stride"), (1, "move nothing s stride")],
    );
    assert_eq!(squares(&s), ["b2", "c3"]);
    assert_eq!(
        points(&s),
        [17, 17],
        "no recovery after a collision in any step"
    );
}

#[test]
fn c41_player_without_a_second_move_stands_as_an_obstacle_in_step_2() {
    let mut s = position(&[("a", "b2"), ("b", "d2")]).build();
    s.players[0].moves = 2;
    let b = 1;
    let r = play(
        &mut s,
        &[(0, "move e e stride"), (b, "move nothing stride")],
    );
    assert!(r.steps[0].collisions.is_empty());
    assert_eq!(r.steps[1].collisions.len(), 1);
    assert_eq!(squares(&s), ["c2", "d2"]);
    assert_eq!(points(&s), [17, 17]);
}

#[test]
fn c42_following_a_player_over_two_steps() {
    let mut s = TagState::builder(5)
        .player("a", "a2", 20)
        .moves(2)
        .player("b", "b2", 20)
        .moves(2)
        .build();
    play(&mut s, &[(0, "move e e stomp"), (1, "move e e stomp")]);
    assert_eq!(squares(&s), ["c2", "d2"]);
}

// ---- 9. Teleport ---------------------------------------------------------------------------

#[test]
fn c43_teleport_refused_without_a_tag_last_round() {
    let s = position(&[("a", "b2")]).build();
    let err = s.check_move_order(0, &order("move teleport")).unwrap_err();
    assert!(err.to_string().contains("teleport"));
}

#[test]
fn c44_teleport_after_a_tag_costs_5_and_lands_on_a_free_square() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "d2")])
        .tagged_last_round()
        .build();
    let r = play(&mut s, &[(0, "move teleport")]);
    assert_eq!(r.steps[0].teleports.len(), 1);
    assert_ne!(at(&s, 0), "c2");
    assert_ne!(at(&s, 0), "d2");
    assert_eq!(
        points(&s),
        [16, 21, 21],
        "-5, and a teleport is no collision (+1)"
    );
    assert!(s.players[0].teleported_last_round);
    assert!(
        s.may_teleport(0) && !s.may_teleport(1),
        "only a is eligible next round"
    );
}

#[test]
fn c45_teleport_allowed_after_own_teleport() {
    let s = position(&[("a", "b2"), ("b", "c2")]).teleported().build();
    assert!(s.check_move_order(1, &order("move teleport")).is_ok());
    assert!(s.check_move_order(0, &order("move teleport")).is_err());
}

#[test]
fn c46_square_left_by_a_teleporter_can_be_entered() {
    let mut s = position(&[("a", "b2"), ("b", "c2")])
        .tagged_last_round()
        .build();
    play(&mut s, &[(0, "move e stride"), (1, "move teleport")]);
    assert_eq!(at(&s, 0), "c2");
    assert_ne!(at(&s, 1), "c2");
    assert_eq!(points(&s), [21, 16]);
}

#[test]
fn c47_teleport_cancelled_by_an_earlier_failure_is_free() {
    let mut s = position(&[("a", "b2"), ("b", "c2")])
        .tagged_last_round()
        .build();
    s.players[0].moves = 2;
    let r = play(&mut s, &[(0, "move e teleport stride")]);
    assert!(r.steps[1].teleports.is_empty());
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [17, 17]);
    assert!(!s.players[0].teleported_last_round);
}

#[test]
fn c48_each_teleport_costs_5() {
    let mut s = position(&[("a", "b2")])
        .moves(2)
        .tagged_last_round()
        .build();
    play(&mut s, &[(0, "move teleport teleport stride")]);
    assert_eq!(points(&s), [11]);
}

// ---- 10. Upgrades --------------------------------------------------------------------------

#[test]
fn c49_upgrade_costs_5_and_gives_a_move_from_next_round() {
    let mut s = position(&[("a", "b2"), ("b", "e5")]).build();
    assert!(s
        .check_move_order(0, &order("move e e stride upgrade"))
        .is_err());
    play(&mut s, &[(0, "move e stride upgrade")]);
    assert_eq!(squares(&s), ["c2", "e5"]);
    assert_eq!(points(&s), [16, 21]);
    assert_eq!(s.players[0].moves, 2);
    assert!(s.check_move_order(0, &order("move e stride")).is_err());
    play(&mut s, &[(0, "move e e stride")]);
    assert_eq!(squares(&s), ["e2", "e5"]);
}

// ---- 11. Tags and itness --------------------------------------------------------------------

#[test]
fn c50_it_stomping_into_a_player_tags_it() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "e5")])
        .it(0)
        .build();
    let r = play(&mut s, &[(0, "move e stomp"), (1, "move nothing stride")]);
    assert_eq!(r.steps[0].tag, Some((0, 1)));
    assert_eq!(s.it, Some(1));
    assert_eq!(s.queue, [0, 2, 1], "the tagged player goes to the back");
    assert_eq!(
        points(&s),
        [22, 10, 21],
        "b: -6 and -4 for being it at the end"
    );
    assert!(s.tagged_last_round);
}

#[test]
fn c51_striding_it_never_tags() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).it(0).build();
    play(&mut s, &[(0, "move e stride")]);
    assert_eq!(s.it, Some(0));
    assert_eq!(points(&s), [13, 17]);
    assert!(!s.tagged_last_round);
}

#[test]
fn c52_stomper_running_into_it_is_no_tag() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).it(1).build();
    play(&mut s, &[(0, "move e stomp"), (1, "move nothing stride")]);
    assert_eq!(s.it, Some(1));
    assert_eq!(points(&s), [22, 10]);
}

#[test]
fn c53_it_standing_still_while_stomping_tags_who_runs_into_it() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).it(1).build();
    play(&mut s, &[(0, "move e stride"), (1, "move nothing stomp")]);
    assert_eq!(s.it, Some(0));
    assert_eq!(points(&s), [10, 22]);
}

#[test]
fn c54_friendly_tag_through_crossing_paths() {
    let mut s = position(&[("a", "b2"), ("b", "c2")]).it(0).build();
    let r = play(&mut s, &[(0, "move se stomp"), (1, "move sw stride")]);
    assert_eq!(r.steps[0].tag, Some((0, 1)));
    assert_eq!(squares(&s), ["c3", "c2"]);
    assert_eq!(s.it, Some(1));
}

#[test]
fn c55_it_hitting_several_tags_the_first_in_the_queue() {
    let mut s = position(&[("a", "b2"), ("b", "c1"), ("c", "d2")])
        .it(0)
        .queue(&[2, 1, 0])
        .build();
    play(
        &mut s,
        &[
            (0, "move e stomp"),
            (1, "move s stride"),
            (2, "move w stride"),
        ],
    );
    assert_eq!(s.it, Some(2));
    assert_eq!(s.queue, [1, 0, 2]);
    assert_eq!(at(&s, 0), "c2");
}

#[test]
fn c56_one_tag_per_step_not_even_the_new_it_tags() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "c3")])
        .it(0)
        .build();
    let r = play(
        &mut s,
        &[
            (0, "move e stomp"),
            (1, "move w stomp"),
            (2, "move n stride"),
        ],
    );
    assert_eq!(r.steps[0].tag, Some((0, 1)));
    assert_eq!(s.it, Some(1));
    assert_eq!(points(&s), [17, 15, 14]);
}

#[test]
fn c57_new_it_can_tag_back_in_the_next_step() {
    let mut s = TagState::builder(5)
        .player("a", "b2", 20)
        .moves(2)
        .player("b", "c2", 20)
        .moves(2)
        .it(0)
        .build();
    let r = play(
        &mut s,
        &[(0, "move e nothing stomp"), (1, "move nothing w stomp")],
    );
    assert_eq!(r.steps[0].tag, Some((0, 1)));
    assert_eq!(
        r.steps[1].tag,
        Some((1, 0)),
        "b stood still in step 1 and keeps its move"
    );
    assert_eq!(s.it, Some(0));
    assert_eq!(squares(&s), ["b2", "c2"]);
    assert_eq!(points(&s), [10, 14]);
}

// ---- 12. Eliminations ------------------------------------------------------------------------

#[test]
fn c58_it_eliminated_hands_over_to_the_front_of_the_queue() {
    let mut s = TagState::builder(5)
        .player("a", "a1", 3)
        .player("b", "c3", 20)
        .player("c", "e5", 20)
        .it(0)
        .build();
    let r = play(&mut s, &[]);
    assert_eq!(r.eliminated, [0]);
    assert_eq!(r.handover, Some(1));
    assert_eq!(s.it, Some(1));
    assert_eq!(s.queue, [2, 1]);
    assert_eq!(
        points(&s),
        [0, 21, 21],
        "the new it does not pay this round"
    );
    assert_eq!(at(&s, 0), "out");
    assert!(!s.tagged_last_round, "a hand-over is no tag");
}

#[test]
fn c59_two_eliminations_in_one_round_ranked_by_starting_points() {
    let mut s = TagState::builder(5)
        .player("a", "a1", 20)
        .player("b", "b3", 2)
        .player("c", "d3", 3)
        .player("d", "e5", 20)
        .build();
    let r = play(&mut s, &[(1, "move e stride"), (2, "move w stride")]);
    assert_eq!(r.eliminated, [2, 1], "c started with more points");
    assert_eq!(s.queue, [0, 3]);
    assert_eq!(s.stage, Stage::Moves { round: 2 });
}

#[test]
fn c60_last_elimination_ends_the_game_with_a_ranking() {
    let mut s = TagState::builder(5)
        .player("a", "a1", 3)
        .player("b", "b3", 2)
        .player("c", "c3", 20)
        .it(0)
        .build();
    play(&mut s, &[(1, "move e stride"), (2, "move nothing stride")]);
    match &s.stage {
        Stage::Over { ranking } => assert_eq!(ranking, &vec![2, 0, 1]),
        other => panic!("game should be over: {other:?}"),
    }
}

// ---- 13. Bids and setup ------------------------------------------------------------------------

#[test]
fn c61_bids_build_the_queue_and_kill_the_hasty() {
    let names: Vec<(String, String)> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| (n.to_string(), n.to_uppercase()))
        .collect();
    let mut s = TagState::new_game(&names, &mut dice());
    let mut mins: Vec<u64> = s.players.iter().map(|p| p.min_bid).collect();
    mins.sort();
    assert_eq!(mins, [1, 2, 3, 4], "minimum bids are a permutation of 1..N");
    let min = |seat: usize| s.players[seat].min_bid;
    let bids: BTreeMap<usize, u64> = [(0, 35), (1, 10), (2, 10)]
        .into_iter()
        .map(|(seat, bid)| (seat, bid.max(min(seat))))
        .collect();
    let d_min = min(3);
    let report = s.resolve_bids(&bids, &mut dice());
    assert_eq!(report.eliminated, [0], "a bid 35 and is knocked out");
    assert!(!s.players[0].alive);
    assert_eq!(
        s.players[3].points,
        35 - d_min as i64,
        "no bid means the minimum"
    );
    assert_eq!(s.it, Some(3), "d's minimum (at most 4) is the lowest bid");
    assert_eq!(s.queue.last(), Some(&3), "it moves to the back");
    let squares: std::collections::HashSet<String> = (1..4).map(|seat| at(&s, seat)).collect();
    assert_eq!(squares.len(), 3, "placed on distinct squares");
}

#[test]
fn c62_grid_side_follows_the_formula() {
    assert_eq!(grid_side(3), 5);
    assert_eq!(grid_side(10), 5);
    assert_eq!(grid_side(11), 6);
    assert_eq!(grid_side(15), 6);
    assert_eq!(grid_side(16), 7);
    assert_eq!(grid_side(1000), 203);
    assert_eq!(grid_side(10_000), 2003);
}

#[test]
fn c63_collision_reports_name_kind_and_damage() {
    let mut s = position(&[("a", "b2"), ("b", "d2")]).build();
    let r = play(&mut s, &[(0, "move e stomp"), (1, "move w stride")]);
    let c = &r.steps[0].collisions[0];
    assert_eq!(c.kind, Kind::Enter);
    assert_eq!(c.square.to_string(), "c2");
    assert_eq!(c.changes, [(0, 2), (1, -6)]);
}

#[test]
fn c64_everybody_eliminated_at_once_take_places_by_points_then_queue() {
    let mut s = TagState::builder(5)
        .player("a", "a1", 3)
        .player("b", "b3", 2)
        .player("c", "d3", 3)
        .it(0)
        .build();
    let r = play(&mut s, &[(1, "move e stride"), (2, "move w stride")]);
    assert_eq!(r.eliminated, [0, 2, 1]);
    assert!(s.living().is_empty());
    assert_eq!(
        s.stage,
        Stage::Over {
            ranking: vec![0, 2, 1]
        }
    );
}

#[test]
fn c65_bids_that_leave_one_player_end_the_game_at_once() {
    let names: Vec<(String, String)> = ["a", "b", "c"]
        .iter()
        .map(|n| (n.to_string(), n.to_string()))
        .collect();
    let mut s = TagState::new_game(&names, &mut dice());
    let bids: BTreeMap<usize, u64> = [(0, 35), (1, 40)].into_iter().collect();
    let report = s.resolve_bids(&bids, &mut dice());
    assert_eq!(report.eliminated, [0, 1], "the lower bid ranks higher");
    assert_eq!(
        s.stage,
        Stage::Over {
            ranking: vec![2, 0, 1]
        }
    );
}

#[test]
fn c66_stomper_winner_follows_a_leaver_that_gets_away() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "d2")]).build();
    play(
        &mut s,
        &[
            (0, "move e stomp"),
            (1, "move n stride"),
            (2, "move w stride"),
        ],
    );
    assert_eq!(squares(&s), ["c2", "c1", "d2"]);
    assert_eq!(points(&s), [22, 21, 14]);
}

#[test]
fn c67_two_striders_into_a_standing_stomper() {
    let mut s = position(&[("a", "b2"), ("b", "c2"), ("c", "d2")]).build();
    play(
        &mut s,
        &[
            (0, "move e stride"),
            (1, "move nothing stomp"),
            (2, "move w stride"),
        ],
    );
    assert_eq!(squares(&s), ["b2", "c2", "d2"]);
    assert_eq!(points(&s), [11, 24, 11]);
}
