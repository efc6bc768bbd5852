//! Where a post goes, and a file sent with one: what the outbox keeps beside a post's text.

use serde::{Deserialize, Serialize};

/// Where a post goes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Audience {
    /// A channel, by the platform's channel id (console: its name).
    Channel(String),
    /// A direct message to a user, by the platform's user id.
    Direct(String),
}

/// A file sent with a post: its name and its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// The file's name, like `game-3-audit.html`.
    pub name: String,
    /// Its content.
    pub text: String,
}
