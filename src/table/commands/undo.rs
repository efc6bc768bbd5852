//! `!undo`: the GM takes back the last resolution or turn. The game is rebuilt from its log
//! to find where it returns (before it is applied, so the pure table gets the target); what
//! was undone stays in the log, marked undone; the dice are not rolled back.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::undo;
use crate::table::work::Work;

/// `!undo`.
pub const COMMAND: Command = Command::new(
    "undo",
    Who::Gm,
    "undo",
    "GM: takes back the last resolution or turn (it stays in the log, marked undone; the dice are not rolled back)",
    Run::Rebuild(run),
)
.looks_back();

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    let target = work.env.undo;
    undo::undo(work, target, order_in)
}

/// The order a direct message says, if it is one.
fn order_in(said: &str) -> Option<&str> {
    super::read_direct(said)
        .ok()
        .filter(|read| read.command.name == super::ORDER.name)
        .map(|read| read.args)
}
