//! `!kick @player`: the GM removes a player from the game.

use super::{unreadable, Command, Run, Said, SlashOption, Who};
use crate::chat::parse::mentions;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `!kick`.
pub const COMMAND: Command = Command::new(
    "kick",
    Who::Gm,
    "kick @player",
    "GM: removes a player from the game",
    Run::Apply(run),
)
.reads(check)
.slash(&[SlashOption::user("player", "The player")]);

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    parse(args, prefix).map(drop)
}

/// The player named.
fn parse(args: &str, prefix: &str) -> Result<String, ParseError> {
    match mentions(args).as_slice() {
        [who] => Ok(who.clone()),
        _ => Err(ParseError(format!(
            "`{prefix}kick` takes one player, like `{prefix}kick @bob`"
        ))),
    }
}

fn run(work: &mut Work<'_>, said: &Said<'_>, args: &str) -> Result<bool, Refusal> {
    let who = parse(args, &work.env.defaults.prefix).map_err(unreadable)?;
    lifecycle::kick(work, &who, said.user)
}
