//! `!replace @old @new|bot [level]`: the GM gives a player's seat to someone else, or to a
//! computer player.

use super::{unreadable, Command, Run, Said, SlashOption, Who};
use crate::chat::parse::mentions;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::records::{ComputerLevel, User};
use crate::table::work::Work;
use crate::table::{computers, lifecycle};

/// `!replace`.
pub const COMMAND: Command = Command::new(
    "replace",
    Who::Gm,
    "replace @old @new|bot [easy|normal]",
    "GM: gives a player's seat to someone else, or to a computer player (`bot`)",
    Run::Apply(run),
)
.reads(check)
.slash(&[
    SlashOption::user("old", "The player leaving"),
    SlashOption::user("new", "The player taking the seat (or give computer)").optional(),
    SlashOption::computer(
        "computer",
        "A computer player takes the seat instead, at this level: easy or normal",
    ),
]);

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    parse(args, prefix).map(drop)
}

/// Who takes a seat over.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Taker {
    /// A player (a mention, or a name on the console).
    Player(String),
    /// A computer player at this level (`bot`, `bot easy`).
    Computer(ComputerLevel),
}

/// The player leaving and who takes the seat.
pub(super) fn parse(args: &str, prefix: &str) -> Result<(String, Taker), ParseError> {
    let is_bot = |word: &str| word.eq_ignore_ascii_case("bot");
    match mentions(args).as_slice() {
        [old, bot] if is_bot(bot) => Ok((old.clone(), Taker::Computer(ComputerLevel::Normal))),
        [old, bot, level] if is_bot(bot) => match ComputerLevel::parse(level) {
            Some(level) => Ok((old.clone(), Taker::Computer(level))),
            None => Err(ParseError(format!(
                "`{level}` is not a computer level; use easy or normal (the default), like `{prefix}replace @bob bot easy`"
            ))),
        },
        [old, new] => Ok((old.clone(), Taker::Player(new.clone()))),
        _ => Err(ParseError(format!(
            "`{prefix}replace` takes two players, the one leaving and the one taking the seat, like `{prefix}replace @bob @carol`, or `bot` for a computer player: `{prefix}replace @bob bot`"
        ))),
    }
}

fn run(work: &mut Work<'_>, said: &Said<'_>, args: &str) -> Result<bool, Refusal> {
    let (old, taker) = parse(args, &work.env.defaults.prefix).map_err(unreadable)?;
    match taker {
        Taker::Computer(level) if computers::known(work) => {
            computers::replace(work, &old, said.user, level, super::dm_help)
        }
        Taker::Computer(_) => {
            let new = User::named("bot");
            lifecycle::replace(work, &old, &new, said.user, super::dm_help)
        }
        Taker::Player(new) => {
            let named = said.mentioned.iter().find(|user| user.id == new);
            let new = named.cloned().unwrap_or_else(|| User::named(&new));
            lifecycle::replace(work, &old, &new, said.user, super::dm_help)
        }
    }
}
