//! `!play <action>`: one of the game's own public actions, as typed after the prefix; it is
//! there for its slash form, `/play move 1 5`, which Discord needs as one command for every
//! game's actions.

use super::{find, split, Command, Place, Run, SlashOption, Who};
use crate::chat::parse::{quote, ParseError};

/// `!play`.
pub const COMMAND: Command = Command::new(
    "play",
    Who::Player,
    "plays one of the game's own actions, as typed after the prefix (`!play move 1 5` is `!move 1 5`)",
    Run::Action,
)
.usage("play <action>")
.reads(check)
.slash(&[SlashOption::text("action", "The action, like: move 1 5").required()]);

/// An action of the game: not nothing, and not one of the table's commands.
fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    let (word, _) = split(args);
    if word.is_empty() {
        return Err(ParseError(format!(
            "`{prefix}play` takes one of the game's actions, like `{prefix}play move 1 5`; `{prefix}help` lists the game's."
        )));
    }
    match find(&word).map(|command| command.place()) {
        Some(Place::Direct) => Err(ParseError(format!(
            "`{prefix}play` is for the game's own actions; `{}` is said to me by direct message.",
            quote(&word)
        ))),
        Some(Place::Channel | Place::Both) => Err(ParseError(format!(
            "`{prefix}play` is for the game's own actions; `{prefix}{}` is the table's, typed as it is.",
            quote(&word)
        ))),
        None => Ok(()),
    }
}
