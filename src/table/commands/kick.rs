//! `!kick @player`: the GM removes a player from the game.

use super::{unreadable, Command, Run, Said, SlashOption, Who};
use crate::chat::mention;
use crate::chat::parse::mentions;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::records::{Parting, User};
use crate::table::seats::remove;
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
    kick(work, &who, said.user)
}

/// `!kick @player`: out of the game (or its sign-up or waitlist), and told so by DM.
fn kick(work: &mut Work<'_>, who: &str, by: &User) -> Result<bool, Refusal> {
    let id = work.record.id;
    let gone = work
        .record
        .seats
        .iter()
        .chain(work.record.waitlist.iter())
        .find(|s| s.present && (s.user.id == who || s.user.name.eq_ignore_ascii_case(who)))
        .map(|s| s.user.id.clone());
    remove(
        work,
        who,
        by,
        ("was removed by the GM", Parting::Kicked),
        true,
    )?;
    if let Some(gone) = gone {
        work.outcome.direct(
            &gone,
            format!(
                "Game #{id}: the GM removed you from the game in {}; nothing you send for it is taken any more.",
                mention::channel(&work.record.channel)
            ),
        );
    }
    Ok(true)
}
