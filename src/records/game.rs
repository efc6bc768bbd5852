//! What the table remembers about one game, saved as one row: the seats, the GM, the settings,
//! the phase's deadline, the orders in, the dice position and the game's own state.

use crate::dice::Seed;
use crate::duration::duration_serde;
use crate::games::{Options, Phase, Player, Seat};
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A person on the platform: a stable id and a display name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    /// The platform's id (on the console: the name).
    pub id: String,
    /// The name shown in texts.
    pub name: String,
}

impl User {
    /// A console user, whose id is its name.
    pub fn named(name: &str) -> User {
        User {
            id: name.to_string(),
            name: name.to_string(),
        }
    }
}

/// A seat, or a place on the sign-up or waiting list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// Who sits here.
    pub user: User,
    /// The symbol or colour asked for at `!join`.
    pub symbol: Option<String>,
    /// False once the player left or was removed (seats never renumber).
    pub present: bool,
}

/// Where the game is in its life.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// `!new` ran; players `!join`.
    SignUp,
    /// `!start` ran.
    Running,
    /// The GM paused; the deadline's remaining time is kept.
    Paused {
        /// How long the phase had left when paused (`None`: it had no deadline).
        #[serde(with = "optional_seconds")]
        remaining: Option<Duration>,
    },
    /// Finished, by the rules or by the GM.
    Over,
}

impl Status {
    /// The word stored in the `games.status` column.
    pub fn word(&self) -> &'static str {
        match self {
            Status::SignUp => "signup",
            Status::Running => "running",
            Status::Paused { .. } => "paused",
            Status::Over => "over",
        }
    }
}

/// A secret order as stored: canonical text, receipt, time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredOrder {
    /// The canonical text the game returned.
    pub text: String,
    /// The short hash sent back to the author.
    pub receipt: String,
    /// When it was accepted.
    pub at: DateTime<Utc>,
}

/// Table options, set at `!new`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The game's dice seed (secret until the end; its commitment is public from the start).
    pub seed: Seed,
    /// Resolve an orders phase as soon as every awaited order is in.
    pub early: bool,
    /// How long before a deadline silent players get a reminder by DM.
    #[serde(with = "duration_serde")]
    pub reminder: Duration,
    /// A fixed length for every phase, replacing the game's own time limits.
    #[serde(with = "optional_seconds")]
    pub deadline: Option<Duration>,
    /// The most players seated (more go on the waitlist, for games that have one).
    pub max_players: Option<usize>,
}

/// Everything the table keeps about one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number (`#3`).
    pub id: i64,
    /// The channel it is played in.
    pub channel: String,
    /// The game's rules name (`tag`).
    pub game: String,
    /// The user who ran `!new`.
    pub gm: User,
    /// Table options.
    pub settings: Settings,
    /// The game's public options.
    pub options: Options,
    /// The GM's secret setup, sent by DM, revealed at `!start`.
    pub secret_options: Options,
    /// Where the game is in its life.
    pub status: Status,
    /// Seats in seating order (before the start: the sign-up list).
    pub seats: Vec<SeatRecord>,
    /// Sign-ups beyond the table's size, for games with a waitlist.
    pub waitlist: Vec<SeatRecord>,
    /// The round: 0 before the start, then +1 every time a phase ends.
    pub round: u64,
    /// The phase after the last change (what the game waits for).
    pub phase: Option<Phase>,
    /// When the current phase began (`None` in records older than this field): an order sent
    /// before it was meant for an earlier phase.
    #[serde(default)]
    pub phase_started: Option<DateTime<Utc>>,
    /// When the current phase resolves by itself.
    pub deadline: Option<DateTime<Utc>>,
    /// When silent players get their reminder.
    pub remind_at: Option<DateTime<Utc>>,
    /// The secret orders in for the current phase.
    pub orders: BTreeMap<Seat, StoredOrder>,
    /// The dice stream's position.
    pub dice_position: u128,
    /// The game's own state (`None` before the start).
    pub state: Option<serde_json::Value>,
}

impl GameRecord {
    /// The seat of a present player, by user id or (case-insensitive) name.
    pub fn seat_of(&self, who: &str) -> Option<Seat> {
        self.seats.iter().position(|seat| {
            seat.present && (seat.user.id == who || seat.user.name.eq_ignore_ascii_case(who))
        })
    }

    /// The players as the game sees them.
    pub fn players(&self) -> Vec<Player> {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, seat)| seat.present)
            .map(|(seat, record)| Player {
                seat,
                name: record.user.name.clone(),
                symbol: record.symbol.clone(),
            })
            .collect()
    }

    /// The name of a seat's player, for texts.
    pub fn name(&self, seat: Seat) -> String {
        self.seats
            .get(seat)
            .map(|record| record.user.name.clone())
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    /// Every option the game sees: public options, then the secret setup over them.
    pub fn all_options(&self) -> Options {
        let mut options = self.options.clone();
        options.extend(self.secret_options.clone());
        options
    }
}

/// An optional duration as seconds with a millisecond fraction (`90.25`); whole seconds
/// written by earlier versions read back unchanged.
mod optional_seconds {
    use chrono::Duration;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        duration: &Option<Duration>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match duration {
            Some(duration) => {
                serializer.serialize_some(&(duration.num_milliseconds() as f64 / 1000.0))
            }
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Duration>, D::Error> {
        match Option::<f64>::deserialize(deserializer)? {
            Some(seconds) if seconds.is_finite() && seconds.abs() < 1e15 => {
                Duration::try_milliseconds((seconds * 1000.0).round() as i64)
                    .map(Some)
                    .ok_or_else(|| serde::de::Error::custom("duration out of range"))
            }
            Some(_) => Err(serde::de::Error::custom("duration out of range")),
            None => Ok(None),
        }
    }
}
