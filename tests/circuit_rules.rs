//! 50-Tile Circuit: one test per rule of the seed (rules 0-16), the start tile, the roll-off,
//! the claim prompt, pass triggers, rule 14's wear, leaving and the waitlist.

mod common;

use chrono::{Duration, TimeZone, Utc};
use common::public_text;
use referee::dice::{Dice, Seed};
use referee::games::circuit::colour::Colour;
use referee::games::circuit::effect::{Action, Effect, Trigger};
use referee::games::circuit::state::{Choice, OwnedTile, Plan, Runner, Stage, State};
use referee::games::circuit::{CircuitGame, CIRCUIT, CLAIM_LABEL};
use referee::games::{Ctx, Event, Game, Options, Phase, Player, Rules, Visibility};
use std::collections::BTreeMap;

fn dice() -> Dice {
    Dice::new(Seed::parse("11").unwrap())
}

fn runners(n: usize) -> Vec<Runner> {
    let names = ["ann", "bob", "cat", "dan", "eve", "fay"];
    names
        .iter()
        .zip(Colour::palette())
        .take(n)
        .map(|(name, colour)| Runner::new((*name).to_string(), colour))
        .collect()
}

/// A state in the choosing stage of turn 1 with fixed dice and tiles, nobody owning anything.
fn board(rolls: &[(u8, u8)]) -> State {
    let mut state = State {
        runners: runners(rolls.len()),
        tiles: BTreeMap::new(),
        turn: 1,
        stage: Stage::Choosing,
        effect_words_once: true,
        changer_spared: true,
    };
    for (runner, (tile, roll)) in state.runners.iter_mut().zip(rolls) {
        runner.tile = *tile;
        runner.roll = Some(*roll);
    }
    state
}

fn own(state: &mut State, tile: u8, owner: usize, effect: Option<(Action, Trigger)>) {
    state.tiles.insert(
        tile,
        OwnedTile {
            owner,
            effect: effect.map(|(action, trigger)| Effect { action, trigger }),
            uses: 0,
        },
    );
}

/// Gives every free claimable tile to the last seat, with no effect, so no claim interrupts.
fn fill(state: &mut State) {
    let last = state.runners.len() - 1;
    for tile in 2..50 {
        if !state.tiles.contains_key(&tile) {
            own(state, tile, last, None);
        }
    }
}

fn choices(list: &[(usize, Choice)]) -> BTreeMap<usize, Choice> {
    list.iter().copied().collect()
}

fn players(n: usize) -> Vec<Player> {
    common::seated(&["ann", "bob", "cat", "dan", "eve", "fay", "gus"][..n])
}

fn ctx(dice: &mut Dice) -> Ctx<'_> {
    Ctx {
        now: Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap(),
        dice,
        revision: Ctx::NEWEST,
    }
}

fn game(state: State) -> CircuitGame {
    CircuitGame { state }
}

#[test]
fn rule_0_the_50_tiles_form_a_loop_where_50_is_followed_by_1() {
    let mut state = board(&[(48, 5), (10, 1)]);
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.runners[0].tile, 3);
    assert_eq!(state.runners[0].laps, 1);
}

#[test]
fn rule_1_a_d6_is_rolled_for_every_player_each_turn_and_shown() {
    let mut dice = dice();
    let (game, events) = CIRCUIT
        .setup(&Options::new(), &players(3), &mut ctx(&mut dice))
        .unwrap();
    let draws = dice.take_draws();
    assert_eq!(draws.len(), 3);
    let text = public_text(&events);
    for (draw, name) in draws.iter().zip(["ann", "bob", "cat"]) {
        assert_eq!(draw.sides, 6);
        assert!(text.contains(&format!("{name}: {}", draw.result)), "{text}");
    }
    match game.phase() {
        Phase::Orders { seats, .. } => {
            assert_eq!(seats.into_iter().collect::<Vec<_>>(), vec![0, 1, 2])
        }
        other => panic!("unexpected phase {other:?}"),
    }
}

#[test]
fn rule_1a_moving_advances_by_the_die_and_no_answer_means_move() {
    let mut state = board(&[(5, 4), (5, 2)]);
    state.resolve_choices(
        &choices(&[(0, Choice::Move)]),
        &BTreeMap::new(),
        &mut dice(),
    );
    assert_eq!(state.runners[0].tile, 9);
    assert_eq!(state.runners[1].tile, 7, "bob sent nothing and moved");
}

#[test]
fn rule_1b_staying_activates_the_tile_you_stand_on() {
    let mut state = board(&[(20, 4), (5, 2)]);
    own(&mut state, 20, 1, Some((Action::Back(3), Trigger::Land)));
    state.resolve_choices(
        &choices(&[(0, Choice::Stay)]),
        &BTreeMap::new(),
        &mut dice(),
    );
    assert_eq!(state.runners[0].tile, 17);
}

#[test]
fn rule_2_landing_on_an_unowned_tile_captures_it_and_prompts_the_owner_by_dm() {
    let mut state = board(&[(5, 4), (30, 2)]);
    own(&mut state, 32, 0, None);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.tiles[&9].owner, 0);
    assert!(events
        .iter()
        .any(|e| e.visibility == Visibility::Seat(0) && e.text.contains("You claimed tile 9")));
    let game = game(state);
    assert_eq!(
        game.phase(),
        Phase::Orders {
            seats: [0].into_iter().collect(),
            label: CLAIM_LABEL.to_string()
        }
    );
    assert_eq!(
        game.check_order(0, " Effect  BACK 3  land").unwrap(),
        "effect back 3 land"
    );
    assert!(game.check_order(1, "effect skip land").is_err());
}

#[test]
fn rule_3_landing_on_a_claimed_tile_activates_its_effect() {
    let mut state = board(&[(5, 4), (30, 2)]);
    own(&mut state, 9, 1, Some((Action::Forward(5), Trigger::Land)));
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.runners[0].tile, 14);
    assert_eq!(state.tiles[&9].uses, 1);
}

#[test]
fn rule_4_pass_effects_fire_on_entering_and_on_landing_and_land_effects_only_on_landing() {
    let mut state = board(&[(5, 4), (5, 2)]);
    own(&mut state, 7, 1, Some((Action::Boost, Trigger::Pass)));
    own(&mut state, 8, 1, Some((Action::Skip, Trigger::Land)));
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    // ann passed over 7 (boost) and over 8 (land skip: nothing); bob stopped on 7 (boost).
    assert_eq!(
        state.runners[0].plan,
        Plan::Free,
        "ann was not skipped by passing 8"
    );
    assert_eq!(state.tiles[&7].uses, 2);
    assert_eq!(state.tiles[&8].uses, 0);
}

#[test]
fn pass_triggers_reroll_the_next_die_for_runners_who_entered_the_tile() {
    let mut state = board(&[(5, 4), (5, 2)]);
    own(&mut state, 7, 1, Some((Action::Boost, Trigger::Pass)));
    fill(&mut state);
    let mut dice = dice();
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice);
    let draws = dice.take_draws();
    // Turn 2: ann and bob each roll twice (both entered tile 7: one passing, one landing).
    assert_eq!(
        draws
            .iter()
            .filter(|d| d.purpose.contains("turn 2"))
            .count(),
        4
    );
    assert!(public_text(&events).contains("ann: "));
    assert!(public_text(&events).contains("boost"));
}

#[test]
fn rule_5_effects_moving_more_than_10_tiles_are_refused_but_start_is_allowed() {
    let mut state = board(&[(5, 4), (30, 2)]);
    state.stage = Stage::Claiming {
        claims: [(0, 9)].into_iter().collect(),
    };
    own(&mut state, 9, 0, None);
    let game = game(state);
    let refusal = game.check_order(0, "effect forward 11 land").unwrap_err();
    assert!(
        refusal
            .0
            .starts_with("a tile may move its activator from 1 to 10 tiles"),
        "{refusal}"
    );
    assert!(game
        .check_order(0, "effect back 0 land")
        .unwrap_err()
        .0
        .starts_with("a tile may move its activator from 1 to 10 tiles"));
    assert_eq!(
        game.check_order(0, "effect start land").unwrap(),
        "effect start land"
    );
    assert_eq!(
        game.check_order(0, "effect back 10 land").unwrap(),
        "effect back 10 land"
    );
}

#[test]
fn rule_6_a_player_moved_by_a_tile_does_not_activate_the_tile_it_arrives_on() {
    let mut state = board(&[(5, 4), (30, 2)]);
    own(&mut state, 9, 1, Some((Action::Forward(3), Trigger::Land)));
    own(&mut state, 12, 1, Some((Action::Back(5), Trigger::Land)));
    own(&mut state, 11, 1, Some((Action::Skip, Trigger::Pass)));
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.runners[0].tile, 12);
    assert_eq!(state.tiles[&12].uses, 0);
    assert_eq!(
        state.tiles[&11].uses, 0,
        "tile movement activates no pass effect"
    );
    // Arriving on an unowned tile by a tile's effect claims nothing either.
    let mut state = board(&[(5, 4), (30, 2)]);
    own(&mut state, 9, 1, Some((Action::Forward(3), Trigger::Land)));
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.runners[0].tile, 12);
    assert!(!state.tiles.contains_key(&12), "no claim by a tile's move");
}

#[test]
fn rule_7_neighbours_cannot_share_an_effect_or_send_players_to_the_same_tile() {
    let mut state = board(&[(11, 4), (30, 2)]);
    own(&mut state, 10, 1, Some((Action::Back(2), Trigger::Land)));
    own(&mut state, 12, 1, Some((Action::Skip, Trigger::Pass)));
    own(&mut state, 11, 0, None);
    state.stage = Stage::Claiming {
        claims: [(0, 11)].into_iter().collect(),
    };
    let game = game(state);
    let same_tile = game.check_order(0, "effect back 3 land").unwrap_err();
    assert!(
        same_tile
            .0
            .starts_with("tile 10 next to it already sends players to tile 8"),
        "{same_tile}"
    );
    let same_effect = game.check_order(0, "effect skip land").unwrap_err();
    assert!(
        same_effect
            .0
            .starts_with("tile 12 next to it already has that effect"),
        "{same_effect}"
    );
    assert!(game
        .check_order(0, "effect back 2 land")
        .unwrap_err()
        .0
        .contains("next to it already"));
    assert_eq!(
        game.check_order(0, "effect back 4 land").unwrap(),
        "effect back 4 land"
    );
}

#[test]
fn rule_7_clashing_effects_picked_in_the_same_prompt_are_settled_in_seat_order() {
    let mut state = board(&[(5, 4), (6, 4)]);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert!(public_text(&events).contains("claims tile 10"));
    let mut effects = BTreeMap::new();
    effects.insert(
        0,
        Some(Effect {
            action: Action::Slow,
            trigger: Trigger::Land,
        }),
    );
    effects.insert(
        1,
        Some(Effect {
            action: Action::Slow,
            trigger: Trigger::Pass,
        }),
    );
    let events = state.resolve_claims(&effects, &mut dice());
    assert!(state.tiles[&9].effect.is_some());
    assert_eq!(state.tiles[&10].effect, None);
    // The resolution says which rule settled it, and bob is told by DM, with how to give
    // his tile an effect later: his accepted order is never dropped without a word.
    assert!(public_text(&events).contains(
        "bob's effect slow pass for tile 10 is not applied: tile 9 next to it was given the same effect; seat order decides such clashes, so tile 10 has no effect."
    ), "{}", public_text(&events));
    let dm = events
        .iter()
        .find(|e| e.visibility == Visibility::Seat(1))
        .expect("bob is told");
    assert_eq!(
        dm.text,
        "Your effect slow pass for the tile 10 you claimed was not applied: tile 9 next to it was given the same effect. Clashes within one resolution go by seat order, and the other player's came first. Tile 10 stays yours with no effect; give it one on a later turn with `change 10 <effect>`."
    );
}

#[test]
fn rule_7_a_pick_that_may_clash_with_an_earlier_seats_says_so_in_its_receipt() {
    // ann claims tile 9 and bob tile 10: ann's pick is settled first, so bob is warned.
    let mut state = board(&[(5, 4), (6, 4)]);
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    let game = game(state);
    let order = game.check_order(1, "effect slow pass").unwrap();
    assert_eq!(
        game.order_note(1, &order).as_deref(),
        Some("Tile 9, beside yours, is claimed this turn too, and its effect is settled before yours: if the two clash (the same action, or the same destination), yours is dropped and tile 10 keeps no effect.")
    );
    // ann's own pick comes first: nothing to warn her of; nor of `effect none`.
    let order = game.check_order(0, "effect slow land").unwrap();
    assert_eq!(game.order_note(0, &order), None);
    assert_eq!(game.order_note(1, "effect none"), None);
}

/// The claim prompt `seat` was sent among `events`.
fn claim_prompt(events: &[Event], seat: usize) -> &Event {
    events
        .iter()
        .find(|e| e.visibility == Visibility::Seat(seat) && e.text.starts_with("You claimed"))
        .unwrap_or_else(|| panic!("no claim prompt to seat {seat}"))
}

#[test]
fn a_claim_prompt_explains_the_effect_words_once_then_points_to_help() {
    let mut state = board(&[(5, 4), (30, 2)]);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    let first = claim_prompt(&events, 0);
    assert!(
        first.text.contains("The words:\n- `forward N`"),
        "{}",
        first.text
    );
    // ann claims again a turn later: the words are not repeated.
    state.resolve_claims(&BTreeMap::new(), &mut dice());
    for runner in &mut state.runners {
        runner.roll = Some(3);
    }
    state.runners[1].tile = 40;
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    let second = claim_prompt(&events, 0);
    assert!(
        second.text.starts_with("You claimed tile 12"),
        "{}",
        second.text
    );
    assert!(
        second.text.contains("`help effects` lists the words."),
        "{}",
        second.text
    );
    assert!(!second.text.contains("`anchor`"), "{}", second.text);
    assert!(second.text.chars().count() < first.text.chars().count() / 2);
}

#[test]
fn rule_8_pass_effects_cannot_move_anyone() {
    let mut state = board(&[(5, 4), (30, 2)]);
    own(&mut state, 9, 0, None);
    state.stage = Stage::Claiming {
        claims: [(0, 9)].into_iter().collect(),
    };
    let game = game(state);
    for order in [
        "effect forward 2 pass",
        "effect back 2 pass",
        "effect start pass",
        "effect owner 1 pass",
    ] {
        assert!(
            game.check_order(0, order)
                .unwrap_err()
                .0
                .starts_with("a pass effect cannot move anyone"),
            "{order}"
        );
    }
    assert_eq!(
        game.check_order(0, "effect anchor pass").unwrap(),
        "effect anchor pass"
    );
}

#[test]
fn rule_9_the_claimer_is_not_affected_by_its_tile_the_turn_it_claims_it() {
    let mut state = board(&[(5, 4), (30, 2)]);
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    let mut effects = BTreeMap::new();
    effects.insert(
        0,
        Some(Effect {
            action: Action::Skip,
            trigger: Trigger::Land,
        }),
    );
    state.resolve_claims(&effects, &mut dice());
    assert_eq!(state.runners[0].tile, 9);
    assert_eq!(
        state.runners[0].plan,
        Plan::Free,
        "ann is not skipped by the tile she claimed"
    );
    assert_eq!(state.tiles[&9].uses, 0);
    // The next turn the tile is an ordinary tile for its owner: staying on it activates it.
    fill(&mut state);
    state.resolve_choices(
        &choices(&[(0, Choice::Stay)]),
        &BTreeMap::new(),
        &mut dice(),
    );
    assert_eq!(state.tiles[&9].uses, 1);
    assert!(state.runners[0].plan == Plan::Skipped);
}

#[test]
fn rule_10_no_effect_can_win_or_lose_the_game() {
    let mut state = board(&[(5, 4), (30, 2)]);
    own(&mut state, 9, 0, None);
    state.stage = Stage::Claiming {
        claims: [(0, 9)].into_iter().collect(),
    };
    let game = game(state);
    for order in ["effect win land", "effect lose land", "effect kill pass"] {
        assert!(
            game.check_order(0, order)
                .unwrap_err()
                .0
                .starts_with("no effect may win or lose the game outright"),
            "{order}"
        );
    }
}

#[test]
fn rule_11_effects_outside_the_catalogue_are_refused_with_the_catalogue() {
    let mut state = board(&[(5, 4), (30, 2)]);
    own(&mut state, 9, 0, None);
    state.stage = Stage::Claiming {
        claims: [(0, 9)].into_iter().collect(),
    };
    let refusal = game(state)
        .check_order(0, "effect teleport land")
        .unwrap_err();
    assert!(
        refusal.0.contains("forward N") && refusal.0.contains("effect none"),
        "{refusal}"
    );
}

#[test]
fn rule_12_a_leaving_player_drops_out_and_its_tiles_revert() {
    let mut state = board(&[(5, 4), (30, 2), (40, 1)]);
    own(&mut state, 9, 1, Some((Action::Skip, Trigger::Land)));
    own(&mut state, 33, 1, None);
    own(&mut state, 20, 2, None);
    let events = state.leave(1, None, &mut dice());
    assert!(public_text(&events).contains("2 tiles revert to unowned"));
    assert_eq!(state.tiles.keys().copied().collect::<Vec<_>>(), vec![20]);
    assert!(!state.runners[1].active);
    assert_eq!(state.choosers(), vec![0, 2]);
    state.leave(2, None, &mut dice());
    assert_eq!(state.stage, Stage::Over { winner: Some(0) });
}

#[test]
fn rule_12_a_waitlisted_player_replaces_the_leaver_on_tile_1_with_0_laps() {
    let mut dice = dice();
    let (mut game, _) = CIRCUIT
        .setup(&Options::new(), &players(2), &mut ctx(&mut dice))
        .unwrap();
    game.resolve(&BTreeMap::new(), &mut ctx(&mut dice)).unwrap();
    let newcomer = Player {
        seat: 1,
        name: "mcdonald".into(),
        symbol: Some("Lime  Green".into()),
        computer: false,
    };
    let events = game.seat_left(1, Some(&newcomer), &mut ctx(&mut dice));
    assert!(public_text(&events)
        .contains("mcdonald (lime green) joins from the waitlist on tile 1 with 0 laps"));
    let status = game.private_status(1);
    assert!(status.contains("tile 1, laps 0/3"), "{status}");
    let board = game.board();
    assert!(
        board
            .text
            .contains("mcdonald (lime green): tile 1, laps 0/3"),
        "{}",
        board.text
    );
}

#[test]
fn rule_13_tiles_1_and_50_cannot_be_claimed() {
    let mut state = board(&[(46, 4), (47, 4)]);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.runners[0].tile, 50);
    assert_eq!(state.runners[1].tile, 1);
    assert!(state.tiles.is_empty());
    assert!(!public_text(&events).contains("claims"));
}

#[test]
fn rule_14_an_effect_acts_on_its_12th_activation_then_is_removed() {
    let mut state = board(&[(20, 4), (30, 2)]);
    own(&mut state, 20, 1, Some((Action::Anchor, Trigger::Land)));
    if let Some(tile) = state.tiles.get_mut(&20) {
        tile.uses = 11;
    }
    fill(&mut state);
    let events = state.resolve_choices(
        &choices(&[(0, Choice::Stay)]),
        &BTreeMap::new(),
        &mut dice(),
    );
    assert_eq!(
        state.runners[0].plan,
        Plan::MustMove,
        "the 12th activation still anchored her"
    );
    assert_eq!(state.tiles[&20].effect, None);
    assert_eq!(state.tiles[&20].owner, 1, "the tile stays owned");
    assert!(public_text(&events).contains("loses its effect after 12 activations"));
}

#[test]
fn rule_15_players_reaching_the_same_tile_roll_off_and_the_highest_claims_it() {
    let mut dice = dice();
    let mut state = board(&[(5, 4), (7, 2), (3, 6)]);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice);
    let draws = dice.take_draws();
    let rolloff: Vec<_> = draws
        .iter()
        .filter(|d| d.purpose.starts_with("roll-off for tile 9"))
        .collect();
    assert!(rolloff.len() >= 3);
    let last_round = &rolloff[rolloff.len() - 3..];
    let best = last_round.iter().map(|d| d.result).max().unwrap();
    assert_eq!(
        last_round.iter().filter(|d| d.result == best).count(),
        1,
        "ties are re-rolled"
    );
    let winner = ["ann", "bob", "cat"]
        .iter()
        .position(|name| {
            last_round
                .iter()
                .any(|d| d.result == best && d.purpose.ends_with(name))
        })
        .unwrap();
    assert_eq!(state.tiles[&9].owner, winner);
    assert!(public_text(&events).contains("Roll-off for tile 9"));
    assert_eq!(
        state.stage,
        Stage::Claiming {
            claims: [(winner, 9)].into_iter().collect()
        }
    );
}

#[test]
fn rule_16_a_player_cannot_stay_twice_in_a_row() {
    let mut state = board(&[(20, 4), (30, 2)]);
    fill(&mut state);
    let events = state.resolve_choices(
        &choices(&[(0, Choice::Stay)]),
        &BTreeMap::new(),
        &mut dice(),
    );
    assert_eq!(state.turn, 2);
    assert_eq!(state.runners[0].plan, Plan::MustMove);
    assert_eq!(state.choosers(), vec![1]);
    assert!(public_text(&events).contains("stayed last turn, so it must move"));
    let ann_roll = state.runners[0].roll.unwrap();
    let game = game(state.clone());
    let refusal = game.check_order(0, "stay").unwrap_err();
    assert!(
        refusal
            .0
            .contains("you stayed last turn, so you move this turn"),
        "{refusal}"
    );
    state.resolve_choices(
        &choices(&[(0, Choice::Stay)]),
        &BTreeMap::new(),
        &mut dice(),
    );
    assert_eq!(state.runners[0].tile, 20 + ann_roll, "ann moved anyway");
    assert_eq!(
        state.runners[0].plan,
        Plan::Free,
        "after moving she may stay again"
    );
    // When both stayed, nobody has a choice next turn: it resolves at once.
    let mut state = board(&[(20, 4), (30, 2)]);
    fill(&mut state);
    state.resolve_choices(
        &choices(&[(0, Choice::Stay), (1, Choice::Stay)]),
        &BTreeMap::new(),
        &mut dice(),
    );
    assert_eq!(state.turn, 3);
    assert_ne!(state.runners[0].tile, 20);
    assert_ne!(state.runners[1].tile, 30);
}

#[test]
fn start_tile_counts_a_lap_only_when_entered_from_tile_50_by_a_move() {
    let mut state = board(&[(49, 2), (3, 2)]);
    own(&mut state, 5, 1, Some((Action::Start, Trigger::Land)));
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!((state.runners[0].tile, state.runners[0].laps), (1, 1));
    assert_eq!(
        (state.runners[1].tile, state.runners[1].laps),
        (1, 0),
        "sent directly: no lap"
    );
    assert!(public_text(&events).contains("ann reaches the start tile: lap 1"));
}

#[test]
fn start_tile_a_forward_effect_over_it_counts_the_lap() {
    let mut state = board(&[(44, 2), (3, 2)]);
    own(&mut state, 46, 1, Some((Action::Forward(6), Trigger::Land)));
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!((state.runners[0].tile, state.runners[0].laps), (2, 1));
}

#[test]
fn start_tile_leaving_it_with_3_laps_wins() {
    let mut state = board(&[(1, 3), (3, 2)]);
    state.runners[0].laps = 3;
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.stage, Stage::Over { winner: Some(0) });
    assert_eq!(state.runners[1].tile, 3, "the game ended before bob moved");
    assert!(public_text(&events).contains("ann leaves the start tile with 3 laps and wins"));
    assert_eq!(
        game(state).phase(),
        Phase::Over {
            ranking: vec![vec![0], vec![1]]
        }
    );
}

#[test]
fn start_tile_passing_over_it_with_the_third_lap_wins() {
    let mut state = board(&[(3, 2), (48, 5)]);
    state.runners[1].laps = 2;
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.stage, Stage::Over { winner: Some(1) });
}

#[test]
fn start_tile_stopping_on_it_with_the_third_lap_wins_on_the_next_move() {
    let mut state = board(&[(48, 3), (3, 2)]);
    state.runners[0].laps = 2;
    fill(&mut state);
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!((state.runners[0].tile, state.runners[0].laps), (1, 3));
    assert_eq!(state.stage, Stage::Choosing);
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.stage, Stage::Over { winner: Some(0) });
}

#[test]
fn start_tile_sent_directly_with_3_laps_does_not_count_again() {
    let mut state = board(&[(6, 2), (30, 2)]);
    state.runners[0].laps = 2;
    own(&mut state, 8, 1, Some((Action::Start, Trigger::Land)));
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!((state.runners[0].tile, state.runners[0].laps), (1, 2));
}

#[test]
fn claim_prompt_timing_out_leaves_the_tile_owned_without_effect() {
    let mut dice = dice();
    let mut game = game(board(&[(5, 4), (30, 2)]));
    game.resolve(&BTreeMap::new(), &mut ctx(&mut dice)).unwrap();
    assert_eq!(game.time_limit(&Options::new()), Some(Duration::hours(24)));
    let options: Options = [("claim".to_string(), "6h".to_string())]
        .into_iter()
        .collect();
    assert_eq!(game.time_limit(&options), Some(Duration::hours(6)));
    let events = game.resolve(&BTreeMap::new(), &mut ctx(&mut dice)).unwrap();
    assert!(public_text(&events).contains(
        "ann did not answer: tile 9 stays theirs with no effect; they can give it one on a later turn with `change 9 <effect>`."
    ));
    assert_eq!(game.state.tiles[&9].effect, None);
    assert_eq!(game.state.tiles[&9].owner, 0);
    assert!(
        matches!(game.phase(), Phase::Orders { label, .. } if label.starts_with("move or stay"))
    );
    assert_eq!(game.time_limit(&Options::new()), Some(Duration::hours(48)));
}

#[test]
fn claim_prompt_answer_sets_the_effect_and_tiles_lists_it() {
    let mut dice = dice();
    let mut game = game(board(&[(5, 4), (30, 2)]));
    game.resolve(&BTreeMap::new(), &mut ctx(&mut dice)).unwrap();
    let order = game.check_order(0, "effect owner 2 land").unwrap();
    game.resolve(&[(0, order)].into_iter().collect(), &mut ctx(&mut dice))
        .unwrap();
    let listing = game.query("tiles", "").unwrap().unwrap();
    assert!(
        listing.contains("🟦 ann: 9 owner 2 land [12 left]"),
        "{listing}"
    );
    assert!(game.query("jump", "").is_none());
    assert!(game.act(1, "jump", "", &mut ctx(&mut dice)).is_err());
}

#[test]
fn owner_toll_moves_the_owner_and_landing_on_your_own_tile_activates_it() {
    let mut state = board(&[(5, 4), (20, 2)]);
    own(&mut state, 9, 1, Some((Action::Owner(3), Trigger::Land)));
    own(&mut state, 22, 1, Some((Action::Anchor, Trigger::Land)));
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    // ann pays the toll: bob moves 20 -> 23 (no activation), then bob moves 2 from 23.
    assert_eq!(state.runners[1].tile, 25);
    let mut state = board(&[(20, 2), (5, 1)]);
    own(&mut state, 22, 0, Some((Action::Anchor, Trigger::Land)));
    fill(&mut state);
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(state.runners[0].plan, Plan::MustStay);
    assert_eq!(state.choosers(), vec![1]);
}

#[test]
fn skip_and_anchor_shape_the_next_turn() {
    let mut state = board(&[(5, 2), (10, 2)]);
    own(&mut state, 7, 1, Some((Action::Skip, Trigger::Land)));
    own(&mut state, 12, 0, Some((Action::Anchor, Trigger::Pass)));
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert!(
        public_text(&events).contains("bob: ")
            && public_text(&events).contains("anchored, so it stays")
    );
    assert!(public_text(&events).contains("ann: loses this turn (skip)"));
    // Nobody had a choice, so turn 2 resolved at once; turn 3 is open to both.
    assert_eq!(state.turn, 3);
    assert_eq!(state.runners[0].tile, 7);
    assert_eq!(state.runners[1].tile, 12);
    assert_eq!(state.runners[1].plan, Plan::MustMove);
}

#[test]
fn colours_are_unique_and_default_to_the_seed_palette_in_seat_order() {
    let taken = vec!["dark blue".to_string()];
    assert!(CIRCUIT
        .check_symbol(Some("Dark  Blue"), &taken)
        .unwrap_err()
        .0
        .contains("taken"));
    assert!(CIRCUIT.check_symbol(Some("red"), &taken).is_ok());
    assert!(CIRCUIT.check_symbol(Some("r2d2"), &taken).is_err());
    let mut dice = dice();
    let mut seated = players(3);
    seated[0].symbol = Some("purple".into());
    let (game, events) = CIRCUIT
        .setup(&Options::new(), &seated, &mut ctx(&mut dice))
        .unwrap();
    let text = public_text(&events);
    assert!(
        text.contains("ann: purple")
            && text.contains("bob: dark blue")
            && text.contains("cat: grey"),
        "{text}"
    );
    assert!(game.board().text.contains("🟪 ann (purple)"));
}

#[test]
fn options_and_orders_are_checked_with_clear_refusals() {
    let bad: Options = [("turns".to_string(), "2d".to_string())]
        .into_iter()
        .collect();
    assert!(CIRCUIT
        .check_options(&bad)
        .unwrap_err()
        .0
        .contains("turn=<duration>"));
    let bad: Options = [("turn".to_string(), "soon".to_string())]
        .into_iter()
        .collect();
    assert!(CIRCUIT.check_options(&bad).is_err());
    let good: Options = [("turn".to_string(), "1d12h".to_string())]
        .into_iter()
        .collect();
    assert!(CIRCUIT.check_options(&good).is_ok());
    let game = game(board(&[(5, 4), (30, 2)]));
    assert_eq!(game.check_order(0, "  MOVE ").unwrap(), "move");
    assert_eq!(game.time_limit(&good), Some(Duration::hours(36)));
    assert!(game
        .check_order(0, "effect skip land")
        .unwrap_err()
        .0
        .contains("move"));
    assert!(game
        .check_order(0, "dance")
        .unwrap_err()
        .0
        .contains("`move`"));
    assert!(CIRCUIT
        .start(&Options::new(), &players(1), &mut ctx(&mut dice()))
        .is_err());
}

#[test]
fn saved_games_load_back_and_corrupt_ones_are_refused() {
    let mut state = board(&[(5, 4), (30, 2)]);
    own(&mut state, 9, 1, Some((Action::Back(2), Trigger::Land)));
    let saved = game(state.clone()).save();
    let loaded = CIRCUIT.load(&saved).unwrap();
    assert_eq!(loaded.save(), saved);
    assert!(CIRCUIT.load(&serde_json::json!({"runners": 3})).is_err());
    let mut broken = state;
    broken.runners[0].tile = 51;
    assert!(CIRCUIT
        .load(&serde_json::to_value(&broken).unwrap())
        .is_err());
}

#[test]
fn the_board_picture_renders() {
    let mut state = board(&[(5, 4), (30, 2), (9, 1), (1, 3)]);
    own(&mut state, 9, 1, Some((Action::Back(2), Trigger::Land)));
    own(&mut state, 10, 0, Some((Action::Boost, Trigger::Pass)));
    own(&mut state, 26, 2, Some((Action::Owner(2), Trigger::Land)));
    own(&mut state, 40, 3, Some((Action::Anchor, Trigger::Pass)));
    own(&mut state, 41, 3, None);
    let board = game(state).board();
    let png = referee::picture::png_from_svg(board.svg.as_deref().unwrap()).unwrap();
    assert!(png.len() > 1000);
    std::fs::write(std::env::temp_dir().join("circuit-board.png"), png).unwrap();
    assert!(board.text.contains("🏁"));
    assert!(board.text.chars().count() < 2000);
}

#[test]
fn a_six_player_game_with_a_waitlisted_replacement_plays_to_a_winner() {
    let mut dice = dice();
    let (mut game, _) = CIRCUIT
        .setup(&Options::new(), &players(6), &mut ctx(&mut dice))
        .unwrap();
    let mut turns = 0;
    while let Phase::Orders { seats, label } = game.phase() {
        turns += 1;
        assert!(turns < 5_000, "the game should have ended");
        if turns == 10 {
            let newcomer = Player::person(2, "elephant parade");
            game.seat_left(2, Some(&newcomer), &mut ctx(&mut dice));
            assert!(game
                .private_status(2)
                .contains("elephant parade (grey) on tile 1, laps 0/3"));
            continue;
        }
        let word = if label == CLAIM_LABEL {
            "effect boost pass"
        } else {
            "move"
        };
        let orders = seats
            .into_iter()
            .filter_map(|seat| game.check_order(seat, word).ok().map(|order| (seat, order)))
            .collect();
        game.resolve(&orders, &mut ctx(&mut dice)).unwrap();
    }
    let Phase::Over { ranking } = game.phase() else {
        unreachable!()
    };
    let winner = ranking[0][0];
    assert!(
        game.board().text.contains("laps 3/3"),
        "{}",
        game.board().text
    );
    assert!(game.board().text.contains("wins"));
    assert_eq!(ranking.iter().flatten().count(), 6);
    assert!(winner < 6);
}

#[test]
fn rule_1b_staying_activates_a_pass_tile_too() {
    let mut state = board(&[(12, 3), (30, 2)]);
    own(&mut state, 12, 1, Some((Action::Boost, Trigger::Pass)));
    fill(&mut state);
    let events = state.resolve_choices(
        &choices(&[(0, Choice::Stay)]),
        &BTreeMap::new(),
        &mut dice(),
    );
    assert!(
        public_text(&events).contains("Tile 12 (bob's boost pass) acts on ann."),
        "{}",
        public_text(&events)
    );
    assert_eq!(state.tiles[&12].uses, 1);
    assert_eq!(state.runners[0].tile, 12);
    // The boost rerolled ann's next die: two rolls for her in turn 2's log.
    assert!(
        public_text(&events).contains("ann: "),
        "{}",
        public_text(&events)
    );
    assert!(
        public_text(&events).contains("(boost: "),
        "{}",
        public_text(&events)
    );
}

#[test]
fn laps_sent_back_over_the_start_a_lap_is_taken_off_and_counted_again_going_forward() {
    // ann has one lap and lands on tile 3, which sends her back 5 to tile 48.
    let mut state = board(&[(1, 2), (30, 2)]);
    state.runners[0].laps = 1;
    own(&mut state, 3, 1, Some((Action::Back(5), Trigger::Land)));
    fill(&mut state);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    let text = public_text(&events);
    assert!(text.contains("ann is moved back to tile 48."), "{text}");
    assert!(
        text.contains("ann goes back over the start: a lap is taken off (laps 0)."),
        "{text}"
    );
    assert_eq!((state.runners[0].tile, state.runners[0].laps), (48, 0));
    // Going forward over it again gives the lap back: not a free second one.
    state.runners[0].roll = Some(4);
    state.runners[1].roll = Some(1);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert!(public_text(&events).contains("ann reaches the start tile: lap 1."));
    assert_eq!((state.runners[0].tile, state.runners[0].laps), (2, 1));
}

#[test]
fn laps_a_runner_sent_back_over_the_start_before_its_first_lap_owes_the_crossing() {
    let mut state = board(&[(1, 2), (30, 2)]);
    own(&mut state, 3, 1, Some((Action::Back(5), Trigger::Land)));
    fill(&mut state);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert!(public_text(&events).contains(
        "ann goes back over the start with no lap yet: crossing it forwards again will only make up for this."
    ));
    assert_eq!(
        (
            state.runners[0].tile,
            state.runners[0].laps,
            state.runners[0].behind
        ),
        (48, 0, 1)
    );
    state.runners[0].roll = Some(4);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert!(public_text(&events).contains(
        "ann reaches the start tile again: that only makes up for being sent back over it (laps 0)."
    ));
    assert_eq!(
        (
            state.runners[0].tile,
            state.runners[0].laps,
            state.runners[0].behind
        ),
        (2, 0, 0)
    );
    // The next real lap counts.
    state.runners[0].tile = 49;
    state.runners[0].roll = Some(3);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert!(public_text(&events).contains("ann reaches the start tile: lap 1."));
}

#[test]
fn laps_a_start_effect_sends_to_tile_1_without_touching_the_laps() {
    let mut state = board(&[(20, 2), (30, 2)]);
    state.runners[0].laps = 2;
    own(&mut state, 22, 1, Some((Action::Start, Trigger::Land)));
    fill(&mut state);
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!(
        (
            state.runners[0].tile,
            state.runners[0].laps,
            state.runners[0].behind
        ),
        (1, 2, 0)
    );
}

#[test]
fn laps_a_third_lap_taken_off_must_be_won_again_before_leaving_the_start_wins() {
    // ann has 3 laps on tile 2; tile 4 sends her back 4 to tile 50: lap 2.
    let mut state = board(&[(2, 2), (30, 2)]);
    state.runners[0].laps = 3;
    own(&mut state, 4, 1, Some((Action::Back(4), Trigger::Land)));
    fill(&mut state);
    state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    assert_eq!((state.runners[0].tile, state.runners[0].laps), (50, 2));
    assert_eq!(state.stage, Stage::Choosing, "no win yet");
    // Forward over the start: lap 3 again, and leaving tile 1 in the same move wins.
    state.runners[0].roll = Some(3);
    let events = state.resolve_choices(&BTreeMap::new(), &BTreeMap::new(), &mut dice());
    let text = public_text(&events);
    assert!(
        text.contains("ann reaches the start tile: lap 3."),
        "{text}"
    );
    assert!(
        text.contains("ann leaves the start tile with 3 laps and wins the game!"),
        "{text}"
    );
    assert_eq!(state.stage, Stage::Over { winner: Some(0) });
}

#[test]
fn rule_9_an_owner_changes_a_tiles_effect_with_its_turn_checked_like_a_claim() {
    let mut dice = dice();
    let mut state = board(&[(20, 2), (30, 2)]);
    own(&mut state, 12, 0, Some((Action::Slow, Trigger::Land)));
    own(&mut state, 13, 1, Some((Action::Boost, Trigger::Pass)));
    own(&mut state, 24, 0, None);
    fill(&mut state);
    let mut game = game(state);
    // Refused when ordered, with the reason, while ann can still choose.
    assert_eq!(
        game.check_order(0, "move change 12 boost land")
            .unwrap_err()
            .0,
        "tile 13 next to it already has that effect; pick a different action or number"
    );
    assert_eq!(
        game.check_order(0, "stay change 13 skip land")
            .unwrap_err()
            .0,
        "tile 13 is not yours, so you cannot change its effect"
    );
    assert_eq!(
        game.check_order(0, "move change twelve skip land").unwrap_err().0,
        "`change` takes the number of a tile you own, then its new effect, like `move change 12 boost pass`; got 'twelve'"
    );
    game.state.tiles.get_mut(&24).unwrap().uses = 12;
    assert!(game
        .check_order(0, "move change 24 skip land")
        .unwrap_err()
        .0
        .contains("lost its effect for good after 12 activations"));
    // Accepted, and applied at the end of the turn.
    let order = game.check_order(0, "Move Change 12 back 3 land").unwrap();
    assert_eq!(order, "move change 12 back 3 land");
    let events = game
        .resolve(&[(0, order)].into_iter().collect(), &mut ctx(&mut dice))
        .unwrap();
    let text = public_text(&events);
    assert!(
        text.contains("ann gives tile 12 the effect back 3 land."),
        "{text}"
    );
    assert_eq!(
        game.state.tiles[&12].effect,
        Some(Effect {
            action: Action::Back(3),
            trigger: Trigger::Land
        })
    );
    assert_eq!(
        game.state.tiles[&12].uses, 0,
        "a change keeps the tile's count"
    );
    assert_eq!(game.state.runners[0].tile, 22, "ann moved with her order");
}

#[test]
fn rule_9_a_changed_tile_acts_on_nobody_the_turn_it_changes() {
    let mut dice = dice();
    // bob lands on ann's tile 12 this turn; ann changes it to `back 5 land` with her move.
    let mut state = board(&[(20, 2), (10, 2)]);
    own(&mut state, 12, 0, None);
    fill(&mut state);
    let mut game = game(state);
    let order = game.check_order(0, "move change 12 back 5 land").unwrap();
    game.resolve(&[(0, order)].into_iter().collect(), &mut ctx(&mut dice))
        .unwrap();
    assert_eq!(
        game.state.runners[1].tile, 12,
        "bob is not sent back this turn"
    );
    assert!(game.state.tiles[&12].effect.is_some());
}

/// ann owns a `skip pass` tile 12; ann moves 3 from 10 and bob 3 from 11, both over it, while
/// ann changes it.
fn both_pass_ann_changes(revision_3: bool) -> (CircuitGame, String) {
    let mut dice = dice();
    let mut state = board(&[(10, 3), (11, 3)]);
    state.changer_spared = revision_3;
    own(&mut state, 12, 0, Some((Action::Skip, Trigger::Pass)));
    fill(&mut state);
    let mut game = game(state);
    let order = game.check_order(0, "move change 12 owner 3 land").unwrap();
    let events = game
        .resolve(&[(0, order)].into_iter().collect(), &mut ctx(&mut dice))
        .unwrap();
    (game, public_text(&events))
}

#[test]
fn rule_9_the_owner_who_changes_a_tile_is_not_affected_by_it_that_turn() {
    let (game, text) = both_pass_ann_changes(true);
    assert!(
        text.contains("Tile 12 does not act on ann, who changes it this turn."),
        "{text}"
    );
    assert!(
        !game.state.runners[0].pending.skip,
        "ann keeps her next turn"
    );
    assert_eq!(game.state.runners[0].plan, Plan::Free);
    // The tile's old effect still acts on everyone else this turn.
    assert!(
        text.contains("Tile 12 (ann's skip pass) acts on bob."),
        "{text}"
    );
    assert_eq!(
        game.state.runners[1].plan,
        Plan::Skipped,
        "bob loses his turn"
    );
    assert_eq!(
        game.state.tiles[&12].effect,
        Some(Effect {
            action: Action::Owner(3),
            trigger: Trigger::Land
        }),
        "the change is made at the end of the turn"
    );
}

#[test]
fn rule_9_before_rules_revision_3_the_old_effect_acted_on_its_owner_too() {
    let (game, text) = both_pass_ann_changes(false);
    assert!(
        text.contains("Tile 12 (ann's skip pass) acts on ann."),
        "{text}"
    );
    // Both lose the next turn, which then resolves on its own.
    assert!(text.contains("ann loses this turn."), "{text}");
    assert!(text.contains("bob loses this turn."), "{text}");
    assert_eq!(game.state.turn, 3);
}

#[test]
fn rule_9_a_change_must_give_the_tile_another_effect() {
    let mut state = board(&[(10, 3), (11, 3)]);
    own(&mut state, 12, 0, Some((Action::Skip, Trigger::Pass)));
    own(&mut state, 20, 0, None);
    fill(&mut state);
    let mut game = game(state);
    assert_eq!(
        game.check_order(0, "move change 12 skip pass")
            .unwrap_err()
            .0,
        "tile 12 already has skip pass; a change gives it another effect"
    );
    assert_eq!(
        game.check_order(0, "stay change 20 none").unwrap_err().0,
        "tile 20 already has no effect; a change gives it another effect"
    );
    // A game of an older revision accepted it (and the tile went on acting on its owner).
    game.state.changer_spared = false;
    assert_eq!(
        game.check_order(0, "move change 12 skip pass").unwrap(),
        "move change 12 skip pass"
    );
}

#[test]
fn rule_9_two_changes_that_clash_go_by_seat_order_and_the_later_owner_is_told() {
    let mut dice = dice();
    let mut state = board(&[(20, 2), (30, 2)]);
    own(&mut state, 14, 0, None);
    own(&mut state, 15, 1, None);
    fill(&mut state);
    let mut game = game(state);
    let ann = game.check_order(0, "move change 14 back 2 land").unwrap();
    let bob = game.check_order(1, "move change 15 back 3 land").unwrap();
    let events = game
        .resolve(
            &[(0, ann), (1, bob)].into_iter().collect(),
            &mut ctx(&mut dice),
        )
        .unwrap();
    assert!(game.state.tiles[&14].effect.is_some());
    assert_eq!(game.state.tiles[&15].effect, None);
    let dm = events
        .iter()
        .find(|e| e.visibility == Visibility::Seat(1))
        .expect("bob is told");
    assert!(dm.text.starts_with("Your effect back 3 land for the tile 15 you changed was not applied: tile 14 next to it was given an effect that also sends players to tile 12."), "{}", dm.text);
}
