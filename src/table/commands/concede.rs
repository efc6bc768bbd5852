//! `!concede`: the player leaves, ranked last among those still in.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::endings;
use crate::table::work::Work;

/// `!concede`.
pub const COMMAND: Command = Command::new(
    "concede",
    Who::Player,
    "concede",
    "you leave the game, ranked last among the players still in",
    Run::Apply(run),
)
.aliases(&["resign"])
.looks_back();

fn run(work: &mut Work<'_>, said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    endings::concede(work, said.user)
}
