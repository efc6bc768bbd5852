//! The audit log's events: what happened in a game, who may read it, and the line `!log`
//! shows for it.

use crate::dice::Draw;
use crate::phase::Seat;
use serde::{Deserialize, Serialize};

/// Who may read an event of the audit log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LogVisibility {
    /// Everyone (`!log`, public exports).
    Public,
    /// One seat (what it was sent by DM).
    Seat(Seat),
    /// Secret until revealed (an order before its round resolves, a face-down token): only
    /// secret exports show it.
    Sealed,
}

/// What an audit-log event says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventBody {
    /// A die was rolled.
    Roll(Draw),
    /// The game reported something.
    Game(String),
    /// The table did something (sign-up, start, deadline, GM power).
    Table(String),
    /// A secret order was accepted.
    Order {
        /// From which seat.
        seat: Seat,
        /// Its canonical text.
        text: String,
        /// Its receipt.
        receipt: String,
    },
    /// A round or turn was resolved; the text says how (deadline, early, GM).
    Resolution(String),
}

/// One audit-log event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEvent {
    /// The round it belongs to.
    pub round: u64,
    /// Who may read it.
    pub visibility: LogVisibility,
    /// What it says.
    pub body: EventBody,
}

impl LogEvent {
    /// The event as one line of `!log`.
    pub fn line(&self) -> String {
        match &self.body {
            EventBody::Roll(draw) => {
                format!("roll d{} for {}: {}", draw.sides, draw.purpose, draw.result)
            }
            EventBody::Game(text) | EventBody::Table(text) => text.clone(),
            EventBody::Order {
                seat,
                text,
                receipt,
            } => format!("order from seat {seat}: {text} (receipt {receipt})"),
            EventBody::Resolution(text) => format!("resolution: {text}"),
        }
    }
}
