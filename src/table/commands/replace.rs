//! `!replace @old @new`: the GM gives a player's seat to someone else.

use super::{unreadable, Command, Run, Said, SlashOption, Who};
use crate::chat::parse::mentions;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::records::User;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `!replace`.
pub const COMMAND: Command = Command::new(
    "replace",
    Who::Gm,
    "replace @old @new",
    "GM: gives a player's seat to someone else",
    Run::Apply(run),
)
.reads(check)
.slash(&[
    SlashOption::user("old", "The player leaving"),
    SlashOption::user("new", "The player taking the seat"),
]);

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    parse(args, prefix).map(drop)
}

/// The player leaving and the one taking the seat.
pub(super) fn parse(args: &str, prefix: &str) -> Result<(String, String), ParseError> {
    match mentions(args).as_slice() {
        [old, new] => Ok((old.clone(), new.clone())),
        _ => Err(ParseError(format!(
            "`{prefix}replace` takes two players, the one leaving and the one taking the seat, like `{prefix}replace @bob @carol`"
        ))),
    }
}

fn run(work: &mut Work<'_>, said: &Said<'_>, args: &str) -> Result<bool, Refusal> {
    let (old, new) = parse(args, &work.env.defaults.prefix).map_err(unreadable)?;
    let named = said.mentioned.iter().find(|user| user.id == new);
    let new = named.cloned().unwrap_or_else(|| User::named(&new));
    lifecycle::replace(work, &old, &new, said.user, super::dm_help)
}
