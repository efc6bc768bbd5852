//! What applying one input produces: posts for the outbox and events for the audit log.

use crate::records::{Attachment, Audience, Card, EventBody, LogEvent, LogVisibility};
use serde::{Deserialize, Serialize};

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

impl Post {
    /// `text` to `to`, with nothing beside it (no picture, card or file).
    pub fn text(to: Audience, text: impl Into<String>) -> Post {
        Post {
            to,
            text: text.into(),
            svg: None,
            card: None,
            file: None,
        }
    }

    /// `text` to `to` shown as an embed where the platform has them: `title` over the text
    /// as its description.
    pub fn titled(to: Audience, title: String, text: impl Into<String>) -> Post {
        Post {
            card: Some(Card {
                title: Some(title),
                ..Card::default()
            }),
            ..Post::text(to, text)
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
    /// Whether the input ended a game that had started: its result is kept (and rated)
    /// with it, and the line [`RATINGS_LINE`] in a post becomes the players' rating changes.
    pub ended: bool,
}

/// Where the game-over post shows the players' rating changes: the table writes this line,
/// and the service puts the changes in its place when it keeps the result (or drops it).
pub const RATINGS_LINE: &str = "\u{1}ratings\u{1}";

impl Outcome {
    /// An outcome that only answers `to` with a refusal.
    pub fn refusal(to: Audience, text: impl Into<String>) -> Outcome {
        Outcome {
            posts: vec![Post::text(to, crate::chat::parse::bounded(&text.into()))],
            refused: true,
            ..Outcome::default()
        }
    }

    /// Adds a post to a channel.
    pub fn channel(&mut self, channel: &str, text: impl Into<String>) {
        self.posts
            .push(Post::text(Audience::Channel(channel.to_string()), text));
    }

    /// Adds a direct message.
    pub fn direct(&mut self, user_id: &str, text: impl Into<String>) {
        self.posts
            .push(Post::text(Audience::Direct(user_id.to_string()), text));
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
