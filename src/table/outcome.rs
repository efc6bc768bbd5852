//! What applying one input produces: posts for the outbox and events for the audit log.

use super::card::Card;
use crate::dice::Draw;
use crate::games::Seat;
use serde::{Deserialize, Serialize};

/// Where a post goes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Audience {
    /// A channel, by the platform's channel id (console: its name).
    Channel(String),
    /// A direct message to a user, by the platform's user id.
    Direct(String),
}

/// One message to send, after commit, through the outbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Post {
    /// Where it goes.
    pub to: Audience,
    /// The text (the outbox splits it for platforms with a length limit).
    pub text: String,
    /// A board picture to attach, as SVG (rendered to PNG when the post is stored).
    pub svg: Option<String>,
    /// What a platform with rich messages shows beside the text (set when the post is queued).
    pub card: Option<Card>,
    /// A file sent with the post (the audit page).
    pub file: Option<Attachment>,
}

/// A file sent with a post: its name and its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// The file's name, like `game-3-audit.html`.
    pub name: String,
    /// Its content.
    pub text: String,
}

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

/// Everything one input produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Messages to send.
    pub posts: Vec<Post>,
    /// Audit-log events.
    pub events: Vec<LogEvent>,
    /// Whether the input was refused: its posts only say why, and nothing changed.
    pub refused: bool,
    /// Whether the input was a player's secret order posted in the game channel: not taken,
    /// and the platform warns the channel (deleting the message where it can).
    pub exposed_order: bool,
}

impl Outcome {
    /// An outcome that only answers `to` with a refusal.
    pub fn refusal(to: Audience, text: impl Into<String>) -> Outcome {
        Outcome {
            posts: vec![Post {
                to,
                text: text.into(),
                svg: None,
                card: None,
                file: None,
            }],
            refused: true,
            ..Outcome::default()
        }
    }

    /// Adds a post to a channel.
    pub fn channel(&mut self, channel: &str, text: impl Into<String>) {
        self.posts.push(Post {
            to: Audience::Channel(channel.to_string()),
            text: text.into(),
            svg: None,
            card: None,
            file: None,
        });
    }

    /// Adds a direct message.
    pub fn direct(&mut self, user_id: &str, text: impl Into<String>) {
        self.posts.push(Post {
            to: Audience::Direct(user_id.to_string()),
            text: text.into(),
            svg: None,
            card: None,
            file: None,
        });
    }

    /// Adds a public table event to the log.
    pub fn table_event(&mut self, round: u64, text: impl Into<String>) {
        self.events.push(LogEvent {
            round,
            visibility: LogVisibility::Public,
            body: EventBody::Table(text.into()),
        });
    }
}
