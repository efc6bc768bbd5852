//! `!board`: shows the board.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::rounds;
use crate::table::work::Work;

/// `!board`.
pub const COMMAND: Command = Command::new(
    "board",
    Who::Anyone,
    "board",
    "shows the board",
    Run::Apply(run),
)
.looks_back()
.with_buttons();

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    rounds::board(work).map(|()| false)
}
