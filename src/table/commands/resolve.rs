//! `!resolve`: the GM resolves the current round or turn now.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::rounds;
use crate::table::work::Work;

/// `!resolve`.
pub const COMMAND: Command = Command::new(
    "resolve",
    Who::Gm,
    "resolve",
    "GM: resolves the current round or turn now (missing orders take the game's default)",
    Run::Apply(run),
);

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    rounds::force(work)
}
