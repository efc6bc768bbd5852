//! The direct messages' vocabulary as the parser reads it, and when a deadline falls. The
//! channel's commands are the table's registry (`table::commands`).

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

/// What a direct message to the bot asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DmCommand {
    /// `status`: what I have submitted, and my situation.
    Status,
    /// `help`.
    Help,
    /// `rules <game>` (or `help <game>`): a game's rules for players.
    Rules(String),
    /// GM before the start: `setup key=value ...`, secret options of the game.
    Setup(Vec<(String, String)>),
    /// `vacation 5d`: away for that long (`None`: `vacation off`, back now).
    Vacation(#[serde(with = "crate::duration::optional_duration_serde")] Option<Duration>),
    /// Anything else: a secret order for the game.
    Order(String),
}

/// A direct message: the command and the game it is for, when the sender named one (`#3 bid 5`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dm {
    /// The game id after `#`, if given.
    pub game: Option<i64>,
    /// What the message asks.
    pub command: DmCommand,
}

/// When a deadline falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeadlineSpec {
    /// This long from now.
    In(#[serde(with = "crate::duration::duration_serde")] Duration),
    /// At this instant.
    At(DateTime<Utc>),
}
