//! What the bot says about its own delivery rather than a game's play: a message it gave up
//! delivering (told to the GM), and an edited message it does not apply.

use super::mention;
use super::parse::{clean, quote};

/// The GM's notice that a direct message to `user` in game `id` was given up, and why.
pub fn gave_up_direct(id: i64, user: &str, reason: &str) -> String {
    format!("Game #{id}: I gave up delivering a message to <@{user}> by direct message: {reason}.")
}

/// The GM's notice that a post to `channel` in game `id` was given up, and how to move the
/// game where it can be played.
pub fn gave_up_channel(id: i64, channel: &str, reason: &str, prefix: &str) -> String {
    format!(
        "Game #{id}: I gave up delivering a message to {}: {reason}. If the game can no longer be played there, type `{prefix}home {id}` in a channel or thread of the server where it can: it moves there as it stands.",
        mention::channel(channel),
    )
}

/// The answer to an edited message: its new text (`content`) changes nothing. In a channel it
/// is addressed to `name`.
pub fn edit_ignored(content: &str, name: Option<&str>) -> String {
    let shown = quote(&clean(content));
    let said = format!(
        "I read messages as they were sent, not their edits, so your edit ('{shown}') changes nothing. Send it again as a new message if you meant it."
    );
    match name {
        Some(name) => format!("{}: {said}", clean(name)),
        None => said,
    }
}
