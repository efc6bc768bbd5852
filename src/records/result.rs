//! A finished game as the ratings and `!stats` see it (who played, how each finished, how
//! they kept the deadlines), and a player's rating. The table derives a result from the
//! game's final record, which the replay log reproduces; the store keeps both.

use super::game::{ComputerLevel, Parting};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// How one player's part in a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Finish {
    /// Ranked by the game: 1 is first; players who share a place share its number.
    Placed(usize),
    /// Left before the end (a loss, whatever the game's ranking would have said).
    Departed(Parting),
    /// Conceded, and placed as the final ranking places a conceder (table rules revision 8
    /// on): below everyone who was still in then, above those already out.
    Conceded(usize),
    /// The GM ended the game before it had a ranking: not rated.
    Stopped,
}

/// One player of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerResult {
    /// Who: the platform's id, or `computer:<level>` for a computer player (all computers
    /// of one level are rated as one player).
    pub id: String,
    /// The name shown.
    pub name: String,
    /// The computer's level, for a computer seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerLevel>,
    /// How they finished.
    pub finish: Finish,
    /// Their orders and turns in before the first deadline of their phase.
    pub on_time: u32,
    /// In after it.
    pub late: u32,
    /// Missed.
    pub missed: u32,
    /// Seconds from each phase's start to their first order or move in it.
    pub waits: Vec<u64>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The game's number.
    pub game_id: i64,
    /// The server it was played on (empty: the console, or not known).
    pub server: String,
    /// The game's rules name (`tag`).
    pub game: String,
    /// The channel it was played in.
    pub channel: String,
    /// When it ended: results are rated in this order (then by number).
    pub ended_at: DateTime<Utc>,
    /// Everyone who played, the last holder of each seat and everyone who left one.
    pub players: Vec<PlayerResult>,
}

impl GameResult {
    /// Whether the game ended with a ranking (and so is rated).
    pub fn ranked(&self) -> bool {
        self.players
            .iter()
            .any(|player| matches!(player.finish, Finish::Placed(_)))
    }
}

/// A player's rating in one game on one server (Weng-Lin: a mean and its uncertainty).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The estimated skill.
    pub mu: f64,
    /// How unsure the estimate is.
    pub sigma: f64,
    /// How many rated games it rests on.
    pub games: u32,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            mu: 25.0,
            sigma: 25.0 / 3.0,
            games: 0,
        }
    }
}

impl Rating {
    /// The figure shown and ranked by: the skill the player has with 99.7% confidence
    /// (mean minus three uncertainties), 0 for a newcomer.
    pub fn shown(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}
