//! `!home <number>`: the GM brings a game to the channel or thread it is typed in, when its
//! own was deleted, or locked for good (a thread a moderator closed). The game goes on there
//! as it stood: its posts, deadlines and orders are unchanged.

use super::{Command, Run, Said, SlashOption, Who};
use crate::chat::parse::{quote, ParseError};
use crate::games::Refusal;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `!home`.
pub const COMMAND: Command = Command::new(
    "home",
    Who::Gm,
    "home <number>",
    "GM: brings your game of that number to this channel or thread (when its own was deleted or locked); it goes on here as it stood",
    Run::Home(run),
)
.reads(check)
.slash(&[SlashOption::text("game", "Your game's number, like 12").required()]);

/// The game's number (`12` or `#12`).
pub fn number(args: &str, prefix: &str) -> Result<i64, ParseError> {
    args.trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| {
            ParseError(format!(
                "`{prefix}home` takes your game's number, like `{prefix}home 12`; got '{}'",
                quote(args.trim())
            ))
        })
}

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    number(args, prefix).map(drop)
}

fn run(work: &mut Work<'_>, said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    lifecycle::move_home(work, said.user, said.admin, said.channel)
}
