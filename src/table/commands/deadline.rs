//! `!deadline <duration|time>`: the GM sets the current deadline.

use super::{unreadable, Command, Run, Said, SlashOption, Who};
use crate::chat::parse::parse_deadline;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::table::rounds;
use crate::table::work::Work;

/// `!deadline`.
pub const COMMAND: Command = Command::new(
    "deadline",
    Who::Gm,
    "deadline <duration|time>",
    "GM: sets the current deadline, like 48h or 2026-12-01 18:00 UTC",
    Run::Apply(run),
)
.reads(check)
.slash(&[SlashOption::text("when", "A duration like 48h, or a time").required()])
.looks_back();

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    parse_deadline(args, prefix).map(drop)
}

fn run(work: &mut Work<'_>, _said: &Said<'_>, args: &str) -> Result<bool, Refusal> {
    let spec = parse_deadline(args, &work.env.defaults.prefix).map_err(unreadable)?;
    rounds::set_deadline(work, spec)
}
