//! 50-Tile Circuit's computer player: a seat's `move` or `stay`, or the effect of the tile it
//! claimed, decided from what every player sees (the dice rolled this turn, the runners, the
//! tiles and their effects), never from another seat's choice; randomness of its own.
//!
//! `Easy` always moves and leaves a claimed tile without an effect. `Normal` plays move and
//! stay on copies of the game against imagined choices of the others and keeps the one that
//! leaves it furthest ahead of them on average; a claimed tile gets a toll (`owner N land`:
//! whoever lands there, its owner moves on), the largest the rules allow on that tile.
//! `Hard` moves or stays as `normal` does (each choice tried with the change it would send),
//! and plays its tiles as weapons ([`traps`]): a tile it claims makes whoever passes it lose a
//! turn (late in the lap: sends whoever lands there to the start), and with each choice it
//! sends the one change that keeps its own die off them (a weapon it may soon reach, or meets
//! this turn, becomes a toll, and a weapon again once it is past). A
//! search of move and stay in rollouts against `normal` players won no more than `normal`
//! itself (24.7% of four-seat games): the race is the dice's, and the tiles are where a player
//! can make it otherwise.

use super::effect::{check_on, Action, Effect, Trigger};
use super::parse::{canonical, Change, Order};
use super::state::{Choice, Stage, State, LAPS_TO_WIN, LAST_TILE};
use super::traps;
use super::CircuitGame;
use crate::dice::{Dice, Seed};
use crate::games::{Level, Seat};
use rand_core::RngCore;
use std::collections::BTreeMap;

/// The imagined turns each choice is tried on at `Normal`.
const SAMPLES: usize = 24;

/// The order `seat` sends now (`move`, `stay`, `effect owner 3 land`), or `None` when none
/// is awaited from it.
pub fn decide(state: &State, seat: Seat, level: Level, rng: &mut dyn RngCore) -> Option<String> {
    match &state.stage {
        Stage::Choosing if state.choosers().contains(&seat) => {
            let choice = match level {
                Level::Easy => Choice::Move,
                Level::Normal => normal_choice(state, seat, rng),
                Level::Hard(_) => {
                    let plan = |choice| traps::change(state, seat, choice);
                    let choice = weighed_choice(state, seat, rng, &plan);
                    return Some(canonical(Order::Turn {
                        choice,
                        change: plan(choice),
                    }));
                }
            };
            Some(turn(choice))
        }
        Stage::Claiming { claims } => {
            claims.get(&seat)?;
            let effect = match level {
                Level::Easy => None,
                Level::Normal => toll(state, claims, seat),
                Level::Hard(_) => traps::claimed(state, claims, seat, toll(state, claims, seat)),
            };
            Some(canonical(Order::Effect(effect)))
        }
        _ => None,
    }
}

/// A legal order picked uniformly at random among every order the game accepts now (what a
/// computer player is measured against): `move` or `stay`, each alone or with a `change` of a
/// tile the seat owns to any effect the rules allow there (or to none); for a claimed tile,
/// an effect of the catalogue the tile allows, or none.
pub fn random_order(state: &State, seat: Seat, rng: &mut dyn RngCore) -> Option<String> {
    let mut pick = |n: usize| usize::try_from(rng.next_u32()).unwrap_or_default() % n.max(1);
    match &state.stage {
        Stage::Choosing if state.choosers().contains(&seat) => {
            let table = CircuitGame {
                state: state.clone(),
            };
            let mut changes: Vec<Option<Change>> = vec![None];
            for (&tile, owned) in &state.tiles {
                if owned.owner != seat {
                    continue;
                }
                let effects = catalogue().into_iter().map(Some).chain([None]);
                changes.extend(
                    effects
                        .map(|effect| Change { tile, effect })
                        .filter(|change| table.check_change(seat, *change).is_ok())
                        .map(Some),
                );
            }
            let at = pick(2 * changes.len());
            let choice = [Choice::Move, Choice::Stay][at % 2];
            Some(canonical(Order::Turn {
                choice,
                change: changes[at / 2],
            }))
        }
        Stage::Claiming { claims } => {
            let tile = *claims.get(&seat)?;
            let allowed: Vec<Effect> = catalogue()
                .into_iter()
                .filter(|effect| check_on(tile, *effect, &state.tiles).is_ok())
                .collect();
            Some(canonical(Order::Effect(
                allowed.get(pick(allowed.len() + 1)).copied(),
            )))
        }
        _ => None,
    }
}

fn turn(choice: Choice) -> String {
    canonical(Order::Turn {
        choice,
        change: None,
    })
}

/// Every effect of the catalogue, each with each trigger.
fn catalogue() -> Vec<Effect> {
    let mut actions = vec![
        Action::Start,
        Action::Skip,
        Action::Anchor,
        Action::Boost,
        Action::Slow,
    ];
    for n in 1..=10 {
        actions.push(Action::Forward(n));
        actions.push(Action::Back(n));
    }
    for n in 1..=3 {
        actions.push(Action::Owner(n));
    }
    actions
        .into_iter()
        .flat_map(|action| [Trigger::Land, Trigger::Pass].map(|trigger| Effect { action, trigger }))
        .collect()
}

/// The largest toll the rules allow on the tile `seat` claimed: whoever lands there (its
/// owner too), the owner moves on; else no effect. The claimers before it in seat order are
/// taken to have set theirs (their effects are settled first, so a neighbour's toll of the
/// same size would make this one's fail).
fn toll(state: &State, claims: &BTreeMap<Seat, u8>, seat: Seat) -> Option<Effect> {
    let mut tiles = state.tiles.clone();
    for (&claimer, &tile) in claims {
        let largest = (1..=3).rev().map(Action::Owner).find_map(|action| {
            let effect = Effect {
                action,
                trigger: Trigger::Land,
            };
            check_on(tile, effect, &tiles).ok().map(|()| effect)
        });
        if claimer == seat {
            return largest;
        }
        if let (Some(owned), Some(effect)) = (tiles.get_mut(&tile), largest) {
            owned.effect = Some(effect);
        }
    }
    None
}

/// How far round `seat` has come: laps and tiles, what waits for its next turn, and the end.
fn progress(state: &State, seat: Seat) -> f64 {
    let Some(runner) = state.runners.get(seat) else {
        return 0.0;
    };
    if let Stage::Over { winner } = state.stage {
        return if winner == Some(seat) { 1e6 } else { -1e6 };
    }
    // A runner sent back over the start with no lap to lose owes a lap first.
    let laps = f64::from(runner.laps) - f64::from(runner.behind);
    let mut value = laps * f64::from(LAST_TILE) + f64::from(runner.tile);
    let pending = runner.pending;
    value -= if pending.skip { 3.5 } else { 0.0 };
    value -= if pending.anchor { 2.0 } else { 0.0 };
    value -= if pending.slow { 1.0 } else { 0.0 };
    value += if pending.boost { 1.0 } else { 0.0 };
    if runner.laps >= LAPS_TO_WIN {
        value += 25.0;
    }
    value
}

/// `seat`'s progress ahead of the average of the others still in.
fn lead(state: &State, seat: Seat) -> f64 {
    let others: Vec<f64> = (0..state.runners.len())
        .filter(|&other| other != seat && state.active(other).is_some())
        .map(|other| progress(state, other))
        .collect();
    let average = match others.len() {
        0 => 0.0,
        n => others.iter().sum::<f64>() / n as f64,
    };
    progress(state, seat) - average
}

/// Move or stay, whichever leads by more on average over [`SAMPLES`] imagined turns (the
/// others moving four times in five, as a player mostly does).
fn normal_choice(state: &State, seat: Seat, rng: &mut dyn RngCore) -> Choice {
    weighed_choice(state, seat, rng, &|_| None)
}

/// Move or stay, weighed as [`normal_choice`] weighs them, each played with the change `plan`
/// sends with it.
fn weighed_choice(
    state: &State,
    seat: Seat,
    rng: &mut dyn RngCore,
    plan: &dyn Fn(Choice) -> Option<Change>,
) -> Choice {
    let mut worlds = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let mut choices = BTreeMap::new();
        for other in state.choosers().into_iter().filter(|other| *other != seat) {
            let choice = match rng.next_u32() % 5 {
                0 => Choice::Stay,
                _ => Choice::Move,
            };
            choices.insert(other, choice);
        }
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        worlds.push((choices, seed));
    }
    let mut best = (f64::MIN, Choice::Move);
    for choice in [Choice::Move, Choice::Stay] {
        let changes = BTreeMap::from_iter(plan(choice).map(|change| (seat, change)));
        let mut total = 0.0;
        for (choices, seed) in &worlds {
            let mut choices = choices.clone();
            choices.insert(seat, choice);
            let mut after = state.clone();
            after.resolve_choices(&choices, &changes, &mut Dice::new(Seed(*seed)));
            total += lead(&after, seat);
        }
        if total > best.0 {
            best = (total, choice);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::circuit::colour::Colour;
    use crate::games::circuit::parse::parse_order;
    use crate::games::circuit::state::{OwnedTile, Runner};
    use crate::games::Game;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    /// A race of these runners, started with dice seeded with `seed` (every byte).
    fn started(names: &[&str], seed: u8) -> (State, Dice) {
        let runners = names
            .iter()
            .zip(Colour::palette())
            .map(|(name, colour)| Runner::new(name.to_string(), colour))
            .collect();
        let mut dice = Dice::new(Seed([seed; 32]));
        let (state, _) = State::start(runners, &mut dice);
        (state, dice)
    }

    #[test]
    fn its_orders_are_the_games_and_a_claimed_tile_gets_a_toll() {
        let (mut state, mut dice) = started(&["ann", "bob", "cat"], 9);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut claims = 0;
        for _ in 0..400 {
            let owed: Vec<Seat> = match &state.stage {
                Stage::Choosing => state.choosers(),
                Stage::Claiming { claims } => claims.keys().copied().collect(),
                Stage::Over { .. } => break,
            };
            let mut orders = BTreeMap::new();
            for seat in owed {
                let text = decide(&state, seat, Level::Normal, &mut rng).unwrap_or_default();
                let order = parse_order(&text);
                assert!(order.is_ok(), "{text}");
                if let Ok(Order::Effect(effect)) = order {
                    claims += 1;
                    assert!(
                        effect.is_none_or(|e| matches!(e.action, Action::Owner(_))),
                        "{text}"
                    );
                }
                orders.insert(seat, order);
            }
            match &state.stage {
                Stage::Claiming { .. } => {
                    let effects = orders
                        .into_iter()
                        .filter_map(|(seat, order)| match order {
                            Ok(Order::Effect(effect)) => Some((seat, effect)),
                            _ => None,
                        })
                        .collect();
                    state.resolve_claims(&effects, &mut dice);
                }
                _ => {
                    let choices = orders
                        .into_iter()
                        .filter_map(|(seat, order)| match order {
                            Ok(Order::Turn { choice, .. }) => Some((seat, choice)),
                            _ => None,
                        })
                        .collect();
                    state.resolve_choices(&choices, &BTreeMap::new(), &mut dice);
                }
            }
        }
        assert!(
            matches!(state.stage, Stage::Over { winner: Some(_) }),
            "the race ends"
        );
        assert!(claims > 0, "tiles were claimed");
    }

    #[test]
    fn the_random_seat_changes_its_tiles_as_often_as_the_rules_offer() {
        let (mut state, _) = started(&["ann", "bob"], 4);
        state.tiles.insert(
            12,
            OwnedTile {
                owner: 0,
                effect: None,
                uses: 0,
            },
        );
        let table = CircuitGame {
            state: state.clone(),
        };
        let mut seen: BTreeMap<String, u32> = BTreeMap::new();
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for _ in 0..14_000 {
            let text = random_order(&state, 0, &mut rng).unwrap_or_default();
            assert!(table.check_order(0, &text).is_ok(), "{text}");
            *seen.entry(text).or_default() += 1;
        }
        // Move or stay, each alone or changing tile 12 (no effect yet) to one of the 32 effects
        // the rules allow on a tile with no neighbours owned: 28 on landing (forward and back
        // 1 to 10, start, skip, anchor, boost, slow, owner 1 to 3) and the 4 on passing that
        // move nobody (rule 8); not to none, which it has: 66 orders, each drawn about 212
        // times.
        assert_eq!(seen.len(), 66, "{:?}", seen.keys());
        assert!(seen.contains_key("stay change 12 skip pass"));
        assert!(!seen.keys().any(|order| order.contains("forward 3 pass")));
        assert!(
            seen.values().all(|count| (130..270).contains(count)),
            "{seen:?}"
        );
    }
}
