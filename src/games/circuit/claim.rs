//! Claims: unowned tiles reached by a move go to their only arrival or to the winner of a
//! roll-off; the claimers then pick their tiles' effects in the claim prompt.

use super::effect::{check_on, wrap, Effect};
use super::state::{OwnedTile, Stage, State};
use crate::dice::Dice;
use crate::games::{Event, Seat};
use std::collections::BTreeMap;

impl State {
    /// Applies the claimers' effects (a missing seat answered nothing: no effect), then starts
    /// the next turn. Each effect is checked again in seat order, since two claimers may have
    /// picked clashing effects for neighbouring tiles.
    pub fn resolve_claims(
        &mut self,
        effects: &BTreeMap<Seat, Option<Effect>>,
        dice: &mut Dice,
    ) -> Vec<Event> {
        let mut events = Vec::new();
        let Stage::Claiming { claims } = &self.stage else {
            return events;
        };
        let claims = claims.clone();
        let mut lines = Vec::new();
        for (seat, tile) in claims {
            let name = self.name(seat);
            let answer = effects.get(&seat).copied();
            let effect = match answer {
                None => {
                    lines.push(format!(
                        "{name} did not answer: tile {tile} stays owned with no effect."
                    ));
                    None
                }
                Some(None) => {
                    lines.push(format!("{name} leaves tile {tile} with no effect."));
                    None
                }
                Some(Some(effect)) => match check_on(tile, effect, &self.tiles) {
                    Ok(()) => {
                        lines.push(format!("{name} gives tile {tile} the effect {effect}."));
                        Some(effect)
                    }
                    Err(error) => {
                        lines.push(format!(
                            "{name}'s effect {effect} for tile {tile} is refused ({error}); the tile has no effect."
                        ));
                        None
                    }
                },
            };
            if let Some(owned) = self.tiles.get_mut(&tile) {
                owned.effect = effect;
                owned.uses = 0;
            }
        }
        events.push(Event::public(lines.join("\n")));
        self.stage = Stage::Choosing;
        self.start_turn(dice, &mut events);
        events
    }

    /// The DM asking a claimer for its tile's effect.
    pub(super) fn claim_prompt(&self, tile: u8) -> String {
        let neighbour = |n: u8| match self.tiles.get(&n).and_then(|owned| owned.effect) {
            Some(effect) => format!("tile {n} has {effect}"),
            None => format!("tile {n} has no effect"),
        };
        format!(
            "You claimed tile {tile} ({}, {}). Choose its effect: `effect <action> [N] <land|pass>` with forward N or back N (1-10, land), start (land), skip, anchor, boost, slow, owner N (1-3, land); or `effect none`.",
            neighbour(wrap(i16::from(tile) - 1)),
            neighbour(wrap(i16::from(tile) + 1))
        )
    }

    /// Gives each unowned tile reached this turn to its only arrival, or to the winner of a
    /// roll-off (d6, ties re-rolled) between several. Returns claimer -> tile.
    pub(super) fn claim(
        &mut self,
        arrivals: BTreeMap<u8, Vec<Seat>>,
        dice: &mut Dice,
        lines: &mut Vec<String>,
    ) -> BTreeMap<Seat, u8> {
        let mut claims = BTreeMap::new();
        for (tile, seats) in arrivals {
            if self.tiles.contains_key(&tile) {
                continue;
            }
            let owner = match seats.as_slice() {
                [] => continue,
                [only] => *only,
                _ => self.roll_off(tile, seats, dice, lines),
            };
            lines.push(format!("{} claims tile {tile}.", self.name(owner)));
            self.tiles.insert(
                tile,
                OwnedTile {
                    owner,
                    effect: None,
                    uses: 0,
                },
            );
            claims.insert(owner, tile);
        }
        claims
    }

    /// Opposing d6 between `seats` for `tile`, re-rolled among the tied highest.
    fn roll_off(
        &self,
        tile: u8,
        mut seats: Vec<Seat>,
        dice: &mut Dice,
        lines: &mut Vec<String>,
    ) -> Seat {
        let fallback = seats.first().copied().unwrap_or_default();
        loop {
            let rolls: Vec<(Seat, u32)> = seats
                .iter()
                .map(|seat| {
                    (
                        *seat,
                        dice.roll(format!("roll-off for tile {tile}: {}", self.name(*seat)), 6),
                    )
                })
                .collect();
            let best = rolls.iter().map(|(_, roll)| *roll).max().unwrap_or(0);
            let shown: Vec<String> = rolls
                .iter()
                .map(|(seat, roll)| format!("{} {roll}", self.name(*seat)))
                .collect();
            seats = rolls
                .iter()
                .filter(|(_, roll)| *roll == best)
                .map(|(seat, _)| *seat)
                .collect();
            match seats.as_slice() {
                [winner] => {
                    lines.push(format!("Roll-off for tile {tile}: {}.", shown.join(", ")));
                    return *winner;
                }
                [] => return fallback,
                _ => lines.push(format!(
                    "Roll-off for tile {tile}: {} — tie, re-roll.",
                    shown.join(", ")
                )),
            }
        }
    }
}
