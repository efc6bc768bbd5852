//! `!end`: the GM ends the game now.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::lifecycle;
use crate::table::work::Work;

/// `!end`.
pub const COMMAND: Command = Command::new(
    "end",
    Who::Gm,
    "end",
    "GM: ends the game now and reveals the seed",
    Run::Apply(run),
);

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    lifecycle::end(work)
}
