//! A post's card: what a platform with rich messages shows beside the text of a post (a
//! title, one field per player, the deadline) and the few options a player picks among,
//! offered as buttons. Kept with the post in the outbox.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The most fields a card carries (Discord allows 25 per embed; one is the deadline).
pub const MAX_FIELDS: usize = 24;
/// The most characters of a card's title, and of a field's name (Discord's limits).
pub const NAME_LIMIT: usize = 256;
/// The most characters of a field's value (Discord's limit).
pub const VALUE_LIMIT: usize = 1024;

/// What a rich platform shows with a post.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// The title (board posts only).
    pub title: Option<String>,
    /// One field per player (board posts only).
    pub fields: Vec<Field>,
    /// When the current phase resolves by itself.
    pub deadline: Option<DateTime<Utc>>,
    /// The game's time zone, when it has one: the deadline is written in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tz: Option<String>,
    /// Options to pick with one press.
    pub buttons: Vec<Button>,
}

/// One named value of a card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// The player (and symbol).
    pub name: String,
    /// Where the player stands in the current phase.
    pub value: String,
}

/// An option offered as a button: pressing it sends `text` as the presser.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Button {
    /// The label.
    pub label: String,
    /// The message it stands for, exactly as typed (`!join`, `!move 1 5`, `move n stride`).
    pub text: String,
    /// Whether the text is a direct message (a secret order) rather than a channel post.
    pub direct: bool,
    /// The only user (by id) who may press it; `None`: anyone.
    pub only: Option<String>,
}

impl Card {
    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.title.is_none() && self.buttons.is_empty()
    }
}
