//! `!deadline <duration|time>`: the GM sets the current deadline.

use super::{Applies, Command, Said, SlashOption, Who, Words};
use crate::chat::deadline::DeadlineSpec;
use crate::chat::parse::parse_deadline;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::table::rounds;
use crate::table::work::Work;

/// `!deadline`.
pub const COMMAND: Command = Command::applying::<When>(
    "deadline",
    Who::Gm,
    "deadline <duration|time>",
    "GM: sets the current deadline, like 48h or 2026-12-01 18:00 UTC",
)
.slash(&[SlashOption::text("when", "A duration like 48h, or a time").required()])
.looks_back();

/// When the deadline falls.
struct When(DeadlineSpec);

impl Words for When {
    fn read(args: &str, prefix: &str) -> Result<When, ParseError> {
        parse_deadline(args, prefix).map(When)
    }
}

impl Applies for When {
    fn apply(self, work: &mut Work<'_>, _said: &Said<'_>) -> Result<bool, Refusal> {
        rounds::set_deadline(work, self.0)
    }
}
