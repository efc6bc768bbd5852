//! `!join [symbol or colour]`: signs the sender up for the channel's game; `!join bot [level]`:
//! the GM seats a computer player.

use super::{Command, Run, Said, SlashOption, Who};
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::table::work::Work;
use crate::table::{computers, lifecycle};

/// `!join`.
pub const COMMAND: Command = Command::new(
    "join",
    Who::Anyone,
    "join [symbol or colour | bot [easy|normal]]",
    "signs you up for the game in this channel; the GM's `!join bot` seats a computer player",
    Run::Apply(run),
)
.reads(check)
.slash(&[SlashOption::text("symbol", "A symbol or colour to play")]);

/// Any words name the symbol or colour asked for.
fn check(_args: &str, _prefix: &str) -> Result<(), ParseError> {
    Ok(())
}

fn run(work: &mut Work<'_>, said: &Said<'_>, args: &str) -> Result<bool, Refusal> {
    let (first, rest) = args.split_once(' ').unwrap_or((args, ""));
    if first.eq_ignore_ascii_case("bot") && computers::known(work) {
        let level = computers::level_named(rest)?;
        return computers::join(work, said.user, said.admin, level, super::dm_help);
    }
    lifecycle::join(
        work,
        said.user,
        (!args.is_empty()).then_some(args),
        super::dm_help,
    )
}
