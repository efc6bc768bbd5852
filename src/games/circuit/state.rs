//! The game's state as plain data: runners, owned tiles, the stage of the turn.

use super::colour::Colour;
use super::effect::{Effect, Trigger};
use crate::games::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The start tile.
pub const FIRST_TILE: u8 = 1;
/// The last tile of the loop (after it comes tile 1).
pub const LAST_TILE: u8 = 50;
/// Laps needed before leaving the start tile wins.
pub const LAPS_TO_WIN: u8 = 3;
/// Activations after which a tile's effect is removed (rule 14).
pub const MAX_ACTIVATIONS: u8 = 12;

/// An owned tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnedTile {
    /// Its owner.
    pub owner: Seat,
    /// Its effect, if the owner picked one and it has not worn out.
    pub effect: Option<Effect>,
    /// How many times the effect has been activated.
    pub uses: u8,
}

impl OwnedTile {
    /// The effect if it fires on this trigger.
    pub fn effect_on(&self, trigger: Trigger) -> Option<Effect> {
        self.effect.filter(|effect| effect.trigger == trigger)
    }

    /// Activations left before the effect is removed (rule 14).
    pub fn uses_left(&self) -> u8 {
        MAX_ACTIVATIONS.saturating_sub(self.uses)
    }
}

/// Owned tiles by number; a tile not in the map is unowned.
pub type Tiles = BTreeMap<u8, OwnedTile>;

/// Effects waiting for a runner's next turn or next roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Loses its next turn.
    pub skip: bool,
    /// Must stay on its next turn.
    pub anchor: bool,
    /// Next roll: reroll once, keep the higher.
    pub boost: bool,
    /// Next roll: reroll once, keep the lower.
    pub slow: bool,
}

/// What a runner may do this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Plan {
    /// It chooses to move or stay.
    Free,
    /// It stayed last turn, so it must move (rule 16).
    MustMove,
    /// An anchor holds it in place.
    MustStay,
    /// It loses this turn.
    Skipped,
}

/// A runner's choice for the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Choice {
    /// Advance by the die.
    Move,
    /// Activate the tile it stands on.
    Stay,
}

/// One seat's runner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Runner {
    /// Display name.
    pub name: String,
    /// Its colour.
    pub colour: Colour,
    /// The tile it stands on (1..=50).
    pub tile: u8,
    /// Laps counted by the start tile (net progress round the loop, never below 0).
    pub laps: u8,
    /// Times it was sent backwards over the start with no lap to take off: its next forward
    /// crossings make up for them before they count laps again.
    #[serde(default)]
    pub behind: u8,
    /// Still in the game (false once it left with no replacement).
    pub active: bool,
    /// Whether it stayed last turn (rule 16).
    pub stayed_last: bool,
    /// Effects waiting for its next turn.
    pub pending: Pending,
    /// This turn's die, once rolled (`None` when skipped).
    pub roll: Option<u8>,
    /// What it may do this turn.
    pub plan: Plan,
    /// Whether a claim showed its player every effect word: later claims point to
    /// `help effects` instead of explaining them again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shown_effects: bool,
}

impl Runner {
    /// A runner on the start tile with no laps.
    pub fn new(name: String, colour: Colour) -> Runner {
        Runner {
            name,
            colour,
            tile: FIRST_TILE,
            laps: 0,
            behind: 0,
            active: true,
            stayed_last: false,
            pending: Pending::default(),
            roll: None,
            plan: Plan::Free,
            shown_effects: false,
        }
    }
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Dice are rolled; runners with a choice send `move` or `stay`.
    Choosing,
    /// Claimers pick the effects of the tiles they claimed (seat -> tile).
    Claiming {
        /// The tile each claimer claimed this turn.
        claims: BTreeMap<Seat, u8>,
    },
    /// The game is over.
    Over {
        /// Who won, if anyone (`None` when everybody left).
        winner: Option<Seat>,
    },
}

/// The whole state of a 50-Tile Circuit game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Runners by seat.
    pub runners: Vec<Runner>,
    /// Owned tiles.
    pub tiles: Tiles,
    /// The turn number, from 1.
    pub turn: u32,
    /// Where the turn stands.
    pub stage: Stage,
    /// Whether a player's first claim prompt alone explains the effect words (rules revision
    /// 2 on; before, every prompt did).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub effect_words_once: bool,
    /// Whether an owner who orders a change of a tile's effect is not affected by that tile
    /// during the turn (rule 9; rules revision 3 on; before, the tile's old effect acted on
    /// its owner like on anyone).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub changer_spared: bool,
}

impl State {
    /// Checks the invariants a loaded state must hold, so no later step can index out of range.
    pub fn validate(&self) -> Result<(), String> {
        if self.runners.is_empty() {
            return Err("no runners".into());
        }
        for (seat, runner) in self.runners.iter().enumerate() {
            if !(FIRST_TILE..=LAST_TILE).contains(&runner.tile) {
                return Err(format!("seat {seat} stands on tile {}", runner.tile));
            }
        }
        for (tile, owned) in &self.tiles {
            if !super::effect::claimable(*tile) {
                return Err(format!("tile {tile} cannot be owned"));
            }
            if self
                .runners
                .get(owned.owner)
                .is_none_or(|runner| !runner.active)
            {
                return Err(format!("tile {tile} has no active owner"));
            }
        }
        match &self.stage {
            Stage::Claiming { claims } => {
                for (seat, tile) in claims {
                    if self.tiles.get(tile).map(|owned| owned.owner) != Some(*seat) {
                        return Err(format!("seat {seat} claims tile {tile} it does not own"));
                    }
                }
            }
            Stage::Over { winner: Some(seat) } if self.runners.get(*seat).is_none() => {
                return Err(format!("winner seat {seat} does not exist"));
            }
            _ => {}
        }
        Ok(())
    }

    /// The runner in `seat`, if that seat exists and is still in the game.
    pub fn active(&self, seat: Seat) -> Option<&Runner> {
        self.runners.get(seat).filter(|runner| runner.active)
    }
}
