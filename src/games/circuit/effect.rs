//! The closed catalogue of tile effects, how they are written, and the constraints of the seed
//! (rules 5, 7, 8 and 10) checked when an owner picks one.

use super::state::{Tiles, FIRST_TILE, LAST_TILE};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most tiles a `forward`/`back` effect may move its activator (rule 5).
pub const MAX_STEP: u8 = 10;
/// The most tiles an `owner` effect moves the tile's owner.
pub const MAX_TOLL: u8 = 3;

/// Every effect word in one line each, for players choosing one (the claim prompt) and for
/// `!rules circuit`.
pub const EFFECT_WORDS: &str = include_str!("effect_words.md");

/// When an effect fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trigger {
    /// The activator ends a move on the tile, or stays on it.
    Land,
    /// The activator enters the tile during a move (passing over it or stopping there).
    Pass,
}

/// What an effect does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// The activator moves forward this many tiles.
    Forward(u8),
    /// The activator moves back this many tiles.
    Back(u8),
    /// The activator goes directly to tile 1 (no lap).
    Start,
    /// The activator loses its next turn.
    Skip,
    /// The activator must stay on its next turn.
    Anchor,
    /// The activator's next roll is rerolled once, keeping the higher result.
    Boost,
    /// The activator's next roll is rerolled once, keeping the lower result.
    Slow,
    /// The tile's owner moves forward this many tiles.
    Owner(u8),
}

impl Action {
    /// Whether this action moves somebody (forbidden on `pass` tiles by rule 8).
    pub fn moves_someone(self) -> bool {
        matches!(
            self,
            Action::Forward(_) | Action::Back(_) | Action::Start | Action::Owner(_)
        )
    }

    /// Where the activator of this action on `tile` is sent, if it sends the activator anywhere.
    pub fn destination(self, tile: u8) -> Option<u8> {
        match self {
            Action::Forward(n) => Some(wrap(i16::from(tile) + i16::from(n))),
            Action::Back(n) => Some(wrap(i16::from(tile) - i16::from(n))),
            Action::Start => Some(FIRST_TILE),
            _ => None,
        }
    }
}

/// A tile's effect: an action and its trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// What it does.
    pub action: Action,
    /// When it fires.
    pub trigger: Trigger,
}

/// The tile number `n` steps away on the loop (1..=50).
pub fn wrap(n: i16) -> u8 {
    let size = i16::from(LAST_TILE);
    let zero_based = (n - 1).rem_euclid(size);
    // zero_based is in 0..50, so the cast cannot truncate.
    (zero_based + 1) as u8
}

impl fmt::Display for Trigger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Trigger::Land => "land",
            Trigger::Pass => "pass",
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Forward(n) => write!(f, "forward {n}"),
            Action::Back(n) => write!(f, "back {n}"),
            Action::Start => f.write_str("start"),
            Action::Skip => f.write_str("skip"),
            Action::Anchor => f.write_str("anchor"),
            Action::Boost => f.write_str("boost"),
            Action::Slow => f.write_str("slow"),
            Action::Owner(n) => write!(f, "owner {n}"),
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.action, self.trigger)
    }
}

/// Why an effect cannot be put on a tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EffectError {
    /// The words are not an effect of the catalogue.
    Unknown(String),
    /// An action without `land` or `pass` after it, to say when it acts.
    NoTrigger(String),
    /// Rule 5: moves the activator more than 10 tiles (or a number out of range).
    TooFar(Action),
    /// An `owner` toll outside 1..=3.
    TollOutOfRange(u8),
    /// Rule 7: the neighbour holds the same effect.
    SameAsNeighbour {
        /// The neighbouring tile.
        neighbour: u8,
    },
    /// Rule 7: the neighbour sends its activator to the same tile.
    SameDestination {
        /// The neighbouring tile.
        neighbour: u8,
        /// The tile both would send the activator to.
        destination: u8,
    },
    /// Rule 8: a `pass` effect that moves someone.
    PassMoves(Action),
    /// Rule 10: an effect that wins or loses the game.
    InstantEnd(String),
}

impl fmt::Display for EffectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EffectError::Unknown(words) => write!(
                f,
                "'{words}' is not an effect; write {} with an action among forward N, back N (N from 1 to 10), start, skip, anchor, boost, slow, owner N (N from 1 to 3), or `effect none`",
                super::sent("effect")
            ),
            EffectError::NoTrigger(words) => write!(
                f,
                "say when '{words}' acts: `effect {words} land` (on the player who lands on the tile) or `effect {words} pass` (on the player who passes it)"
            ),
            EffectError::TooFar(action) => write!(
                f,
                "a tile may move its activator from 1 to {MAX_STEP} tiles (or straight to the start), so `{action}` is not allowed"
            ),
            EffectError::TollOutOfRange(n) => write!(
                f,
                "an owner toll moves the owner 1 to {MAX_TOLL} tiles, so `owner {n}` is not allowed"
            ),
            EffectError::SameAsNeighbour { neighbour } => write!(
                f,
                "tile {neighbour} next to it already has that effect; pick a different action or number"
            ),
            EffectError::SameDestination {
                neighbour,
                destination,
            } => write!(
                f,
                "tile {neighbour} next to it already sends players to tile {destination}; pick an effect that leads elsewhere"
            ),
            EffectError::PassMoves(action) => write!(
                f,
                "a pass effect cannot move anyone, so `{action} pass` is not allowed; use `land`, or skip, anchor, boost or slow"
            ),
            EffectError::InstantEnd(word) => write!(
                f,
                "no effect may win or lose the game outright, so '{word}' is not allowed"
            ),
        }
    }
}

/// Checks an effect on its own: rules 5 and 8 and the catalogue's ranges.
pub fn check_alone(effect: Effect) -> Result<(), EffectError> {
    match effect.action {
        Action::Forward(n) | Action::Back(n) if n == 0 || n > MAX_STEP => {
            return Err(EffectError::TooFar(effect.action))
        }
        Action::Owner(n) if n == 0 || n > MAX_TOLL => return Err(EffectError::TollOutOfRange(n)),
        _ => {}
    }
    if effect.trigger == Trigger::Pass && effect.action.moves_someone() {
        return Err(EffectError::PassMoves(effect.action));
    }
    Ok(())
}

/// Checks an effect for `tile` against the board: everything of [`check_alone`] plus rule 7
/// against both neighbours on the loop.
pub fn check_on(tile: u8, effect: Effect, tiles: &Tiles) -> Result<(), EffectError> {
    check_alone(effect)?;
    let neighbours = [wrap(i16::from(tile) - 1), wrap(i16::from(tile) + 1)];
    for neighbour in neighbours {
        let Some(other) = tiles.get(&neighbour).and_then(|owned| owned.effect) else {
            continue;
        };
        if other.action == effect.action {
            return Err(EffectError::SameAsNeighbour { neighbour });
        }
        if let (Some(mine), Some(theirs)) = (
            effect.action.destination(tile),
            other.action.destination(neighbour),
        ) {
            if mine == theirs {
                return Err(EffectError::SameDestination {
                    neighbour,
                    destination: mine,
                });
            }
        }
    }
    Ok(())
}

/// Whether `tile` may be claimed at all (rule 13: not tile 1 nor tile 50).
pub fn claimable(tile: u8) -> bool {
    tile > FIRST_TILE && tile < LAST_TILE
}
