//! `!leave`: takes the player out of the game (before the start: off the sign-up list).

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `!leave`.
pub const COMMAND: Command = Command::new(
    "leave",
    Who::Player,
    "leave",
    "takes you out of the game (before the start: off the sign-up list)",
    Run::Apply(run),
)
.looks_back();

fn run(work: &mut Work<'_>, said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    lifecycle::leave(work, said.user)
}
