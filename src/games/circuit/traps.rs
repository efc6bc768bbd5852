//! `Hard`'s plan in 50-Tile Circuit: its tiles as weapons. A tile that makes whoever passes
//! it lose its next turn (`skip pass`) costs every runner a turn each lap, and a runner cannot
//! step round it: staying only puts the passing off. Late in the lap, a tile that sends whoever
//! lands there back to the start costs a whole lap's way (a runner can stay rather than land
//! there, but not when it stayed last turn). Its owner is no different, unless it changes the
//! tile: the dice are known before anyone chooses, and the tile an owner changes does not act
//! on it that turn (rule 9, from Circuit's rules revision 3). One change a turn cannot spare
//! it from two weapons in one move, nor in a turn it must move, stay or lose (no choice, so
//! no change), so a weapon within reach ahead becomes a toll before its die can get there,
//! and a weapon again once it is past; a weapon its move would meet all the same (carried
//! there by a toll, say) becomes a toll as it passes. In games of older revisions a change
//! acts from the end of its turn and spares nobody. Everything here is worked out from the
//! public board.
use super::effect::{check_on, wrap, Action, Effect, Trigger};
use super::parse::Change;
use super::state::{Choice, State, Tiles, LAST_TILE, MAX_ACTIVATIONS};
use crate::games::Seat;
use std::collections::BTreeMap;

/// The weapon of a tile before [`SEND_BACK_FROM`]: whoever passes into or over it loses its
/// next turn.
const SKIP: Effect = Effect {
    action: Action::Skip,
    trigger: Trigger::Pass,
};

/// The weapon of a tile from here on: whoever lands there goes back to the start, no lap.
const SEND_BACK: Effect = Effect {
    action: Action::Start,
    trigger: Trigger::Land,
};

/// The first tile whose weapon sends back to the start (the way lost is the tile's number
/// less one; before it, a lost turn costs more on average than a landing risked now and then).
const SEND_BACK_FROM: u8 = 40;

/// How near ahead of its owner a weapon is turned into a toll: a die's reach, and as much
/// again for the tolls that may carry the owner forward before its next turn (10, 12 and 14
/// won alike in 1,000 four-seat games against `normal` players; 6 let it fall into its own
/// traps three times as often and won less. Since rule 9 spares it from the weapon it meets
/// first, 4 to 12 win alike: 36.6-38.0% of 2,000 games each).
const SAFE_DISTANCE: u8 = 12;

/// How far ahead of `from` the tile `to` lies, going forward round the loop (1..=50; a tile
/// is 50 ahead of itself: a whole lap).
fn ahead(from: u8, to: u8) -> u8 {
    match (i16::from(to) - i16::from(from)).rem_euclid(i16::from(LAST_TILE)) {
        0 => LAST_TILE,
        // In 1..50, so it fits.
        gap => gap as u8,
    }
}

/// The weapon `tile` carries when its owner is away from it.
fn weapon(tile: u8) -> Effect {
    match tile >= SEND_BACK_FROM {
        true => SEND_BACK,
        false => SKIP,
    }
}

/// The largest toll the rules allow on `tile` (whoever lands there, its owner moves on), or
/// none.
fn toll_on(tile: u8, tiles: &Tiles) -> Option<Effect> {
    (1..=3)
        .rev()
        .map(|n| Effect {
            action: Action::Owner(n),
            trigger: Trigger::Land,
        })
        .find(|effect| check_on(tile, *effect, tiles).is_ok())
}

/// The effect `seat` gives the tile it claimed: its weapon, when the rules allow it there and
/// nothing holds the seat on the tile next turn (an anchor picked up on the way: staying
/// fires the tile's effect on whoever stays); otherwise `toll` (what a `normal` player would
/// set).
pub fn claimed(
    state: &State,
    claims: &BTreeMap<Seat, u8>,
    seat: Seat,
    toll: Option<Effect>,
) -> Option<Effect> {
    let held = state
        .runners
        .get(seat)
        .is_none_or(|runner| runner.pending.anchor);
    match claims.get(&seat) {
        Some(&tile) if !held && check_on(tile, weapon(tile), &state.tiles).is_ok() => {
            Some(weapon(tile))
        }
        _ => toll,
    }
}

/// Where `seat`'s runner stands once `choice` is played, as far as its own tile decides it:
/// a move ends by the die, and the tile it lands on (or stays on) may send it on (`forward`,
/// `back`, `start`) or, being its own toll, carry it forward. What the others' moves do to it
/// meanwhile (their landings on its tolls) is left to [`SAFE_DISTANCE`].
fn ends_on(state: &State, seat: Seat, choice: Choice) -> Option<u8> {
    let runner = state.runners.get(seat)?;
    let tile = match choice {
        Choice::Move => wrap(i16::from(runner.tile) + i16::from(runner.roll.unwrap_or(0))),
        Choice::Stay => runner.tile,
    };
    let fired = state.tiles.get(&tile).and_then(|owned| {
        let effect = match choice {
            Choice::Move => owned.effect_on(Trigger::Land),
            Choice::Stay => owned.effect,
        }?;
        match effect.action {
            Action::Owner(n) if owned.owner == seat => Some(wrap(i16::from(tile) + i16::from(n))),
            action => action.destination(tile),
        }
    });
    Some(fired.unwrap_or(tile))
}

/// The tiles of `seat`'s own weapons that `choice` would make act on it, in the order met:
/// each tile its die move enters (a `land` weapon only where the move ends), or the tile it
/// stays on.
fn weapons_met(state: &State, seat: Seat, choice: Choice) -> Vec<u8> {
    let Some(runner) = state.runners.get(seat) else {
        return Vec::new();
    };
    let own_weapon = |tile: u8| {
        state
            .tiles
            .get(&tile)
            .filter(|owned| owned.owner == seat && owned.effect == Some(weapon(tile)))
            .is_some()
    };
    match choice {
        Choice::Stay => Vec::from_iter(Some(runner.tile).filter(|&tile| own_weapon(tile))),
        Choice::Move => {
            let roll = runner.roll.unwrap_or(0);
            let step = |n: u8| wrap(i16::from(runner.tile) + i16::from(n));
            (1..=roll)
                .map(step)
                .filter(|&tile| {
                    own_weapon(tile)
                        && (weapon(tile).trigger == Trigger::Pass || tile == step(roll))
                })
                .collect()
        }
    }
}

/// Whether `effect` is a toll: its owner is paid by whoever lands on the tile.
fn is_toll(effect: &Effect) -> bool {
    effect.trigger == Trigger::Land && matches!(effect.action, Action::Owner(_))
}

/// The change of its tiles `seat` sends with `choice` this turn, if any: the first of its
/// weapons the choice meets becomes a toll (rule 9 spares it meanwhile); else a weapon on the
/// tile where the choice leaves it or within [`SAFE_DISTANCE`] ahead becomes a toll (the
/// nearest first); else a tile away from it gets its weapon back (the one farthest ahead
/// first: the one it has just passed, which the runners behind it reach soonest). Tiles with
/// an effect of another kind (its player's, before a replacement) and worn-out tiles are left
/// alone.
pub fn change(state: &State, seat: Seat, choice: Choice) -> Option<Change> {
    if state.changer_spared {
        if let Some(&tile) = weapons_met(state, seat, choice).first() {
            return Some(Change {
                tile,
                effect: toll_on(tile, &state.tiles),
            });
        }
    }
    let at = ends_on(state, seat, choice)?;
    // The tile it ends on is a whole lap ahead, but staying there next turn would fire it.
    let near = |tile: u8| ahead(at, tile) <= SAFE_DISTANCE || tile == at;
    let toll_kept = |tile: u8| {
        let kept = state.tiles.get(&tile).and_then(|owned| owned.effect);
        kept.filter(is_toll).or_else(|| toll_on(tile, &state.tiles))
    };
    let wanted = |tile: u8| match near(tile) || check_on(tile, weapon(tile), &state.tiles).is_err()
    {
        true => toll_kept(tile),
        false => Some(weapon(tile)),
    };
    let managed = state.tiles.iter().filter(|(&tile, owned)| {
        owned.owner == seat
            && owned.uses < MAX_ACTIVATIONS
            && owned
                .effect
                .is_none_or(|effect| effect == weapon(tile) || is_toll(&effect))
    });
    managed
        .filter(|(&tile, owned)| owned.effect != wanted(tile))
        .min_by_key(|(&tile, owned)| {
            let armed = owned.effect == Some(weapon(tile));
            match near(tile) && armed {
                true => (0, ahead(at, tile)),
                false => (1, LAST_TILE - ahead(at, tile)),
            }
        })
        .map(|(&tile, _)| Change {
            tile,
            effect: wanted(tile),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Seed};
    use crate::games::circuit::colour::Colour;
    use crate::games::circuit::state::{OwnedTile, Runner};

    const TOLL: Option<Effect> = Some(Effect {
        action: Action::Owner(3),
        trigger: Trigger::Land,
    });

    fn race() -> State {
        let runners = ["ann", "bob"]
            .iter()
            .zip(Colour::palette())
            .map(|(name, colour)| Runner::new(name.to_string(), colour))
            .collect();
        State::start(runners, &mut Dice::new(Seed([3; 32]))).0
    }

    fn own(state: &mut State, owner: Seat, tile: u8, effect: Option<Effect>) {
        state.tiles.insert(
            tile,
            OwnedTile {
                owner,
                effect,
                uses: 0,
            },
        );
    }

    fn at(state: &mut State, tile: u8, roll: u8) {
        state.runners[0].tile = tile;
        state.runners[0].roll = Some(roll);
    }

    #[test]
    fn a_weapon_becomes_a_toll_before_its_owner_can_reach_it_and_a_weapon_again_once_past() {
        let mut state = race();
        own(&mut state, 0, 30, Some(SKIP));
        // From 16 (moving 2 from 14) the trap is 14 ahead: out of reach, it stays.
        at(&mut state, 14, 2);
        assert_eq!(change(&state, 0, Choice::Move), None);
        // Moving 5 to 19 it is 11 ahead: a toll from the end of this turn; staying on 14
        // (16 ahead) it may wait.
        at(&mut state, 14, 5);
        assert_eq!(change(&state, 0, Choice::Stay), None);
        let toll = Some(Change {
            tile: 30,
            effect: TOLL,
        });
        assert_eq!(change(&state, 0, Choice::Move), toll);
        // A toll it stays while the owner is near, and is a trap again on the turn the
        // owner passes it (the change acts once it is past).
        own(&mut state, 0, 30, TOLL);
        at(&mut state, 25, 4);
        assert_eq!(change(&state, 0, Choice::Move), None);
        at(&mut state, 25, 6);
        let trap = Some(Change {
            tile: 30,
            effect: Some(SKIP),
        });
        assert_eq!(change(&state, 0, Choice::Move), trap);
    }

    #[test]
    fn the_nearest_weapon_is_made_safe_first_and_the_tile_just_passed_armed_first() {
        let mut state = race();
        own(&mut state, 0, 20, Some(SKIP));
        own(&mut state, 0, 24, Some(SKIP));
        own(&mut state, 0, 44, TOLL);
        // At 13 after its move, both traps are near: the nearer goes first.
        at(&mut state, 10, 3);
        let safe = |tile| Some(Change { tile, effect: TOLL });
        assert_eq!(change(&state, 0, Choice::Move), safe(20));
        own(&mut state, 0, 20, TOLL);
        assert_eq!(change(&state, 0, Choice::Move), safe(24));
        // Both safe: tile 44, far ahead, gets the weapon of the lap's late tiles.
        own(&mut state, 0, 24, TOLL);
        assert_eq!(
            change(&state, 0, Choice::Move),
            Some(Change {
                tile: 44,
                effect: Some(SEND_BACK)
            })
        );
        own(&mut state, 0, 44, Some(SEND_BACK));
        // Past both (at 31, 44 still 13 ahead): 24 was passed last, so the runners behind
        // reach it first.
        at(&mut state, 30, 1);
        assert_eq!(
            change(&state, 0, Choice::Move),
            Some(Change {
                tile: 24,
                effect: Some(SKIP)
            })
        );
    }

    #[test]
    fn a_claim_gets_its_weapon_unless_the_rules_forbid_it_there() {
        let mut state = race();
        let claims = BTreeMap::from([(0, 30)]);
        assert_eq!(claimed(&state, &claims, 0, TOLL), Some(SKIP));
        assert_eq!(
            claimed(&state, &BTreeMap::from([(0, 45)]), 0, TOLL),
            Some(SEND_BACK)
        );
        // Rule 7: the same action as a neighbour's is not allowed.
        own(&mut state, 1, 31, Some(SKIP));
        assert_eq!(claimed(&state, &claims, 0, TOLL), TOLL);
        // Another player's tiles, tiles of another effect and worn-out tiles are never
        // changed, though each is a tile it would make a toll or a trap.
        state.tiles.clear();
        own(&mut state, 1, 8, Some(SKIP));
        own(
            &mut state,
            0,
            12,
            Some(Effect {
                action: Action::Boost,
                trigger: Trigger::Pass,
            }),
        );
        own(&mut state, 0, 30, None);
        state.tiles.get_mut(&30).unwrap().uses = MAX_ACTIVATIONS;
        at(&mut state, 2, 1);
        assert_eq!(change(&state, 0, Choice::Move), None);
        state.tiles.get_mut(&30).unwrap().uses = MAX_ACTIVATIONS - 1;
        assert_eq!(
            change(&state, 0, Choice::Move),
            Some(Change {
                tile: 30,
                effect: Some(SKIP)
            })
        );
    }

    #[test]
    fn where_the_runner_ends_counts_the_tile_it_lands_on_and_the_tile_it_stays_on() {
        let mut state = race();
        own(&mut state, 0, 40, Some(SEND_BACK));
        // Landing on 20, someone's `back 10` sends it to 10: tile 15 ahead is a trap to make
        // safe although from 20 it would be behind.
        own(
            &mut state,
            1,
            20,
            Some(Effect {
                action: Action::Back(10),
                trigger: Trigger::Land,
            }),
        );
        own(&mut state, 0, 15, Some(SKIP));
        at(&mut state, 14, 6);
        assert_eq!(
            change(&state, 0, Choice::Move),
            Some(Change {
                tile: 15,
                effect: TOLL
            })
        );
        // Staying on its own trap would fire it: the trap is made safe, and the computer
        // claims no weapon where an anchor holds it next turn.
        state.tiles.remove(&20);
        at(&mut state, 15, 2);
        assert_eq!(weapons_met(&state, 0, Choice::Stay), vec![15]);
        assert_eq!(
            change(&state, 0, Choice::Stay),
            Some(Change {
                tile: 15,
                effect: TOLL
            })
        );
        let claims = BTreeMap::from([(0, 30)]);
        state.runners[0].pending.anchor = true;
        assert_eq!(claimed(&state, &claims, 0, TOLL), TOLL);
    }

    #[test]
    fn the_weapon_a_move_meets_becomes_a_toll_as_it_passes_where_rule_9_spares_its_owner() {
        let mut state = race();
        own(&mut state, 0, 30, Some(SKIP));
        own(&mut state, 0, 33, Some(SKIP));
        own(&mut state, 0, 45, Some(SEND_BACK));
        // Carried by a toll to 28, moving 6 over 30 and 33: the first is changed this turn.
        at(&mut state, 28, 6);
        assert_eq!(weapons_met(&state, 0, Choice::Move), vec![30, 33]);
        let toll = |tile| Some(Change { tile, effect: TOLL });
        assert_eq!(change(&state, 0, Choice::Move), toll(30));
        // A `land` weapon meets it only where the move ends.
        at(&mut state, 41, 3);
        assert!(weapons_met(&state, 0, Choice::Move).is_empty());
        at(&mut state, 41, 4);
        assert_eq!(change(&state, 0, Choice::Move), toll(45));
        // Where a change spares nobody (older games), only what lies ahead of where the move
        // ends is changed: tile 45, within reach of 34.
        state.changer_spared = false;
        at(&mut state, 28, 6);
        assert_eq!(change(&state, 0, Choice::Move), toll(45));
    }
}
