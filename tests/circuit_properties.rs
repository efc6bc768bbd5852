//! 50-Tile Circuit: random games with random choices, random effects (legal or not) and
//! random leavers never panic, never break rules 5, 7, 8, 13 or 16, and end with a winner.
//!
//! Why the games end: every turn each runner that is not skipped or anchored moves at least
//! one tile, and no runner stays twice in a row, so each runner moves at least every other
//! turn. Everything that holds a runner back is a tile activation (back, start, skip, anchor,
//! slow), and a claimable tile's effect is chosen once and removed after 12 activations
//! (rule 14): at most 48 x 12 = 576 activations per set of owners. Each game below has at most
//! two leavers, so at most 3 x 576 activations, each costing at most 49 tiles or one turn:
//! a runner completes its 3 laps (150 tiles) within 2 x (150 + 1728 x 50) turns, under
//! 175,000. The loop runs to that bound and asserts that the game is over; in practice games
//! end after a few hundred turns.

use chrono::{TimeZone, Utc};
use proptest::prelude::*;
use referee::dice::{Dice, Seed};
use referee::games::circuit::effect::{Action, Trigger};
use referee::games::circuit::state::{Plan, Stage, State, LAST_TILE};
use referee::games::circuit::CIRCUIT;
use referee::games::{Ctx, Game, Options, Phase, Player, Rules};
use std::collections::BTreeMap;

/// The bound on resolutions explained in the module docs.
const MAX_RESOLUTIONS: usize = 175_000;

/// Words a player might send during a claim prompt: the catalogue, and a few bad ones.
fn effect_words() -> Vec<String> {
    let mut words = vec![
        "effect none".to_string(),
        "effect win land".into(),
        "effect back 11 land".into(),
    ];
    for trigger in ["land", "pass"] {
        for n in 1..=10 {
            words.push(format!("effect forward {n} {trigger}"));
            words.push(format!("effect back {n} {trigger}"));
        }
        for n in 1..=3 {
            words.push(format!("effect owner {n} {trigger}"));
        }
        for action in ["start", "skip", "anchor", "boost", "slow"] {
            words.push(format!("effect {action} {trigger}"));
        }
    }
    words
}

fn state_of(game: &dyn Game) -> State {
    serde_json::from_value(game.save()).expect("the saved state reads back")
}

/// Rules 5, 7, 8, 13 and 16 on the current state.
fn check_invariants(state: &State) {
    for (tile, owned) in &state.tiles {
        assert!(*tile > 1 && *tile < LAST_TILE, "tile {tile} is owned");
        let Some(effect) = owned.effect else { continue };
        if let Action::Forward(n) | Action::Back(n) = effect.action {
            assert!((1..=10).contains(&n), "tile {tile} has {effect}");
        }
        if effect.trigger == Trigger::Pass {
            assert!(!effect.action.moves_someone(), "tile {tile} has {effect}");
        }
        assert!(owned.uses < 12, "tile {tile} still acts after 12 uses");
        let next = tile + 1;
        if let Some(other) = state.tiles.get(&next).and_then(|t| t.effect) {
            assert_ne!(effect.action, other.action, "tiles {tile} and {next}");
            let mine = effect.action.destination(*tile);
            assert!(
                mine.is_none() || mine != other.action.destination(next),
                "tiles {tile} and {next} send to the same tile"
            );
        }
    }
    if state.stage == Stage::Choosing {
        for runner in state.runners.iter().filter(|r| r.active) {
            assert!(
                !runner.stayed_last || matches!(runner.plan, Plan::MustMove | Plan::Skipped),
                "{} may stay twice",
                runner.name
            );
        }
    }
    for runner in &state.runners {
        assert!((1..=LAST_TILE).contains(&runner.tile));
    }
}

fn play(seed: u64, choice_seed: u64, count: usize) {
    let mut dice = Dice::new(Seed::parse(&seed.to_string()).unwrap());
    let mut chooser = Dice::new(Seed::parse(&choice_seed.to_string()).unwrap());
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let players: Vec<Player> = (0..count)
        .map(|seat| Player::person(seat, format!("p{seat}")))
        .collect();
    let (mut game, _) = CIRCUIT
        .setup(
            &Options::new(),
            &players,
            &mut Ctx {
                now,
                dice: &mut dice,
                revision: Ctx::NEWEST,
            },
        )
        .unwrap();
    let words = effect_words();
    let mut leavers = 0;
    for round in 0..MAX_RESOLUTIONS {
        let state = state_of(game.as_ref());
        check_invariants(&state);
        let Phase::Orders { seats, label } = game.phase() else {
            break;
        };
        let mut orders = BTreeMap::new();
        for seat in seats {
            if chooser.roll("silent?", 6) == 1 {
                continue;
            }
            let text = if label.starts_with("effects") {
                let mut accepted = "effect none".to_string();
                for _ in 0..4 {
                    let index = chooser.pick("effect", words.len());
                    if let Ok(canonical) = game.check_order(seat, &words[index]) {
                        accepted = canonical;
                        break;
                    }
                }
                accepted
            } else {
                let word = if chooser.roll("stay?", 3) == 1 {
                    " STAY "
                } else {
                    "move"
                };
                game.check_order(seat, word)
                    .expect("a chooser may move or stay")
            };
            orders.insert(seat, text);
        }
        if leavers < 2 && round > 0 && chooser.roll("leave?", 200) == 1 {
            leavers += 1;
            let seat = chooser.pick("who leaves", count);
            let newcomer = Player::person(seat, format!("w{leavers}"));
            let replacement = (chooser.roll("replaced?", 2) == 1).then_some(&newcomer);
            game.seat_left(
                seat,
                replacement,
                &mut Ctx {
                    now,
                    dice: &mut dice,
                    revision: Ctx::NEWEST,
                },
            );
            orders.remove(&seat);
            check_invariants(&state_of(game.as_ref()));
            if matches!(game.phase(), Phase::Over { .. }) {
                break;
            }
            let Phase::Orders { seats, .. } = game.phase() else {
                break;
            };
            orders.retain(|seat, _| seats.contains(seat));
        }
        game.resolve(
            &orders,
            &mut Ctx {
                now,
                dice: &mut dice,
                revision: Ctx::NEWEST,
            },
        )
        .unwrap();
        let board = game.board();
        assert!(board.text.chars().count() < 2000, "{}", board.text);
        assert!(state_of(game.as_ref()).tiles_listing().chars().count() < 2000);
    }
    let state = state_of(game.as_ref());
    match game.phase() {
        Phase::Over { ranking } => {
            let winner = ranking.first().and_then(|group| group.first()).copied();
            assert!(matches!(state.stage, Stage::Over { winner: Some(w) } if Some(w) == winner));
        }
        other => panic!("the game did not end: {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_games_keep_the_rules_and_end_with_a_winner(
        seed in any::<u64>(),
        choice_seed in any::<u64>(),
        count in 2usize..=6,
    ) {
        play(seed, choice_seed, count);
    }
}
