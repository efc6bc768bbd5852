//! `!resume`: the GM restarts the clock.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `!resume`.
pub const COMMAND: Command = Command::new(
    "resume",
    Who::Gm,
    "resume",
    "GM: restarts the clock with the time that was left",
    Run::Apply(run),
);

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    lifecycle::resume(work)
}
