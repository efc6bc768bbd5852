//! What a platform hands the table (a message, its envelope, a batch's submission) and what
//! it gets back (the receipt, what was committed).

use crate::chat::parse::clean;
use crate::records::User;
use crate::table::flood::Admission;
use chrono::{DateTime, Utc};

#[cfg(doc)]
use super::Service;

/// A message as it arrives from a platform.
#[derive(Clone, Debug)]
pub enum Inbound {
    /// Posted in a channel.
    Channel {
        /// The channel's id.
        channel: String,
        /// The poster.
        user: User,
        /// Whether the poster is a server admin.
        admin: bool,
        /// The text.
        text: String,
    },
    /// Sent to the bot by direct message.
    Direct {
        /// The sender.
        user: User,
        /// The text.
        text: String,
    },
}

impl Inbound {
    /// Who said it.
    pub fn user(&self) -> &User {
        match self {
            Inbound::Channel { user, .. } | Inbound::Direct { user, .. } => user,
        }
    }

    /// What was said.
    pub fn text(&self) -> &str {
        match self {
            Inbound::Channel { text, .. } | Inbound::Direct { text, .. } => text,
        }
    }

    /// The message with the control characters taken out of its text and its author's
    /// name, so that nothing the table says ever echoes one.
    pub(super) fn cleaned(&self) -> Inbound {
        let user = |user: &User| User {
            id: user.id.clone(),
            name: clean(&user.name),
        };
        match self {
            Inbound::Channel {
                channel,
                user: who,
                admin,
                text,
            } => Inbound::Channel {
                channel: channel.clone(),
                user: user(who),
                admin: *admin,
                text: clean(text),
            },
            Inbound::Direct { user: who, text } => Inbound::Direct {
                user: user(who),
                text: clean(text),
            },
        }
    }
}

/// What the platform says about a message besides its words: its id (the idempotency key)
/// and, where the platform keeps a history the bot can read back after downtime, where the
/// message sits in it and when it was sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Envelope {
    /// The platform's id of the message (or interaction): applied once, however often it
    /// arrives.
    pub id: String,
    /// The channel the message was read from (for a direct message, the DM channel) and its
    /// number there, so a catch-up reads on from the last one applied.
    pub place: Option<(String, i64)>,
    /// When the player sent it: an order sent before the phase it reaches began, or after
    /// its deadline, is refused.
    pub sent: Option<DateTime<Utc>>,
    /// The users the message mentions, with the names the platform gives them (`!replace
    /// @old @new` seats the new player under their name, not their id).
    pub mentioned: Vec<User>,
    /// The server (guild) a channel message was posted on (`None`: a direct message, or the
    /// console): a game is rated on the server it was opened on.
    pub server: Option<String>,
    /// When the message was last edited, where the platform read it back edited (a history
    /// read after downtime gives only the edited text): it is not applied, since what was
    /// sent at `sent` is no longer known, and its sender is told.
    pub edited: Option<DateTime<Utc>>,
}

impl Envelope {
    /// A message known only by its id (the console, transcripts).
    pub fn id(id: impl Into<String>) -> Envelope {
        Envelope {
            id: id.into(),
            ..Envelope::default()
        }
    }
}

/// What became of one inbound message, for the platform's answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Receipt {
    /// False when the message was applied before: nothing was done or said again.
    pub fresh: bool,
    /// Whether it was refused: what it queued only says why, and nothing changed.
    pub refused: bool,
    /// Whether it was a player's secret order posted in the game channel: not taken; the
    /// platform deletes it where it can and then calls [`Service::warn_exposed_order`].
    pub exposed_order: bool,
}

/// One message of a group commit ([`Service::handle_batch`]).
#[derive(Clone, Debug)]
pub struct Submission {
    /// Its id and where it came from.
    pub envelope: Envelope,
    /// Its words.
    pub inbound: Inbound,
    /// Whether the caller delivers the posts it queues itself (the answer to a slash command
    /// or a button): their outbox rows are then listed in [`Committed::posts`].
    pub answers_itself: bool,
    /// Whether its sender is within their limit of commands (see [`Floodgate`](super::flood::Floodgate)): one over it
    /// is set aside, its id claimed (so no catch-up applies it later) but nothing done.
    pub admission: Admission,
}

/// What became of one message of a group commit, once the commit is durable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Committed {
    /// What the platform's answer needs to know.
    pub receipt: Receipt,
    /// The outbox rows the message queued, when its caller answers itself.
    pub posts: Vec<i64>,
}
