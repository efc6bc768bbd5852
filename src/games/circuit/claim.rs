//! Claims: unowned tiles reached by a move go to their only arrival or to the winner of a
//! roll-off; the claimers then pick their tiles' effects in the claim prompt.

use super::effect::{check_on, wrap, Effect, EffectError, EFFECT_WORDS};
use super::parse::Change;
use super::state::{OwnedTile, Stage, State, MAX_ACTIVATIONS};
use crate::dice::Dice;
use crate::games::{Event, Seat};
use std::collections::BTreeMap;

impl State {
    /// Applies the claimers' effects (a missing seat answered nothing: no effect), then starts
    /// the next turn. Each effect was checked against the board when it was ordered; only
    /// another claimer's effect chosen in the same prompt can clash with it, and then the
    /// stated rule is seat order: the earlier seat's effect stands, the later tile gets none,
    /// and its owner is told why and how to give it one later.
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
            match effects.get(&seat).copied() {
                None => lines.push(format!(
                    "{name} did not answer: tile {tile} stays theirs with no effect; they can give it one on a later turn with `change {tile} <effect>`."
                )),
                Some(None) => lines.push(format!("{name} leaves tile {tile} with no effect.")),
                Some(Some(effect)) => {
                    if let Err(refused) = self.settle(seat, tile, Some(effect), "claimed", &mut lines) {
                        events.push(refused);
                    }
                }
            }
        }
        events.insert(0, Event::public(lines.join("\n")));
        self.stage = Stage::Choosing;
        self.start_turn(dice, &mut events);
        events
    }

    /// Applies the owners' changes of effect ordered with this turn's choices, in seat order;
    /// returns the DMs to owners whose change could not be made.
    pub(super) fn apply_changes(
        &mut self,
        changes: &BTreeMap<Seat, Change>,
        lines: &mut Vec<String>,
    ) -> Vec<Event> {
        let mut refused = Vec::new();
        for (seat, change) in changes {
            let owned = self
                .tiles
                .get(&change.tile)
                .map(|owned| (owned.owner, owned.uses));
            match owned {
                Some((owner, uses)) if owner == *seat && uses < MAX_ACTIVATIONS => {
                    if let Err(dm) =
                        self.settle(*seat, change.tile, change.effect, "changed", lines)
                    {
                        refused.push(dm);
                    }
                }
                // The tile changed hands or wore out during this turn's moves.
                _ => {
                    let text = format!(
                        "Your change of tile {} was not made: the tile is no longer yours to change.",
                        change.tile
                    );
                    lines.push(format!(
                        "{}'s change of tile {} was not made.",
                        self.name(*seat),
                        change.tile
                    ));
                    refused.push(Event::to_seat(*seat, text));
                }
            }
        }
        refused
    }

    /// Gives `tile` the effect its owner in `seat` chose (`how`: claimed or changed), checked
    /// again against the board as it stands now; on a clash with an effect set earlier in
    /// this resolution (seat order) the tile gets none, and the owner's DM saying why comes
    /// back as the error.
    fn settle(
        &mut self,
        seat: Seat,
        tile: u8,
        effect: Option<Effect>,
        how: &str,
        lines: &mut Vec<String>,
    ) -> Result<(), Event> {
        let name = self.name(seat);
        let result = match effect {
            None => {
                lines.push(format!("{name} takes the effect off tile {tile}."));
                Ok(())
            }
            Some(effect) => match check_on(tile, effect, &self.tiles) {
                Ok(()) => {
                    lines.push(format!("{name} gives tile {tile} the effect {effect}."));
                    Ok(())
                }
                Err(error) => {
                    let why = clash(&error);
                    lines.push(format!(
                        "{name}'s effect {effect} for tile {tile} is not applied: {why}; seat order decides such clashes, so tile {tile} has no effect."
                    ));
                    Err(Event::to_seat(
                        seat,
                        format!(
                            "Your effect {effect} for the tile {tile} you {how} was not applied: {why}. Clashes within one resolution go by seat order, and the other player's came first. Tile {tile} stays yours with no effect; give it one on a later turn with `change {tile} <effect>`."
                        ),
                    ))
                }
            },
        };
        if let Some(owned) = self.tiles.get_mut(&tile) {
            owned.effect = effect.filter(|_| result.is_ok());
        }
        result
    }

    /// The DM asking `seat`, a claimer, for its tile's effect: the first explains every
    /// effect word, later ones point to `help effects` for them.
    pub(super) fn claim_prompt(&mut self, seat: Seat, tile: u8) -> String {
        let neighbour = |n: u8| match self.tiles.get(&n).and_then(|owned| owned.effect) {
            Some(effect) => format!("tile {n} has {effect}"),
            None => format!("tile {n} has no effect"),
        };
        let (before, after) = (
            neighbour(wrap(i16::from(tile) - 1)),
            neighbour(wrap(i16::from(tile) + 1)),
        );
        let once = self.effect_words_once;
        let words = match self.runners.get_mut(seat) {
            Some(runner) if once && runner.shown_effects => {
                " `help effects` lists the words. ".to_string()
            }
            runner => {
                if let Some(runner) = runner.filter(|_| once) {
                    runner.shown_effects = true;
                }
                format!(" The words:\n{}\n", EFFECT_WORDS.trim_end())
            }
        };
        format!(
            "You claimed tile {tile} ({before}, {after}). Choose its effect: {}, like `effect back 3 land`, or `effect none`.{words}No answer by the deadline leaves the tile yours with no effect; you can change a tile's effect later with your move (`move change {tile} <effect>`).",
            super::sent("effect"),
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

/// Why an effect clashes with a neighbour set in the same resolution, without telling the
/// player to pick again (the choice is over).
fn clash(error: &EffectError) -> String {
    match error {
        EffectError::SameAsNeighbour { neighbour } => {
            format!("tile {neighbour} next to it was given the same effect")
        }
        EffectError::SameDestination {
            neighbour,
            destination,
        } => format!(
            "tile {neighbour} next to it was given an effect that also sends players to tile {destination}"
        ),
        other => other.to_string(),
    }
}
