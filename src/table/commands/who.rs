//! `!who`: each player's attendance and last action.

use super::{Command, Run, Said, Who};
use crate::games::Refusal;
use crate::table::attendance;
use crate::table::work::Work;

/// `!who`.
pub const COMMAND: Command = Command::new(
    "who",
    Who::Anyone,
    "shows each player's orders and turns on time, late and missed, and their last action",
    Run::Apply(run),
)
.looks_back();

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    let channel = work.record.channel.clone();
    let text = attendance::who(&work.record, work.env.now);
    work.outcome.channel(&channel, text);
    Ok(false)
}
