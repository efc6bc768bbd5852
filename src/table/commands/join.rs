//! `!join [symbol or colour]`: signs the sender up for the channel's game.

use super::{Command, Run, Said, SlashOption, Who};
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `!join`.
pub const COMMAND: Command = Command::new(
    "join",
    Who::Anyone,
    "join [symbol or colour]",
    "signs you up for the game in this channel",
    Run::Apply(run),
)
.reads(check)
.slash(&[SlashOption::text("symbol", "A symbol or colour to play")]);

/// Any words name the symbol or colour asked for.
fn check(_args: &str, _prefix: &str) -> Result<(), ParseError> {
    Ok(())
}

fn run(work: &mut Work<'_>, said: &Said<'_>, args: &str) -> Result<bool, Refusal> {
    lifecycle::join(
        work,
        said.user,
        (!args.is_empty()).then_some(args),
        super::dm_help,
    )
}
