//! `!pause`: the GM stops the clock.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `!pause`.
pub const COMMAND: Command = Command::new(
    "pause",
    Who::Gm,
    "pause",
    "GM: stops the clock",
    Run::Apply(run),
);

fn run(work: &mut Work<'_>, said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    lifecycle::pause(work, said.user)
}
