//! `!start`: the GM starts the game with the players signed up.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `!start`.
pub const COMMAND: Command = Command::new(
    "start",
    Who::Gm,
    "start",
    "GM: starts the game with the players signed up",
    Run::Apply(run),
);

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    lifecycle::start(work)
}
