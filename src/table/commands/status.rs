//! `!status`: shows the phase, who is awaited and the deadline.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::rounds;
use crate::table::work::Work;

/// `!status`.
pub const COMMAND: Command = Command::new(
    "status",
    Who::Anyone,
    "status",
    "shows the phase, who is awaited and the deadline",
    Run::Apply(run),
)
.looks_back();

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    rounds::status(work).map(|()| false)
}
