//! `!status`: shows the phase, who is awaited and the deadline; `status` by DM: what the
//! sender has sent and where they stand.

use super::{Command, Direct, DmHelp, Run, Takes, Who};
use crate::games::Refusal;
use crate::records::User;
use crate::table::rounds;
use crate::table::work::Work;

/// `!status`.
pub const COMMAND: Command = Command::new(
    "status",
    Who::Anyone,
    "shows the phase, who is awaited and the deadline",
    Run::Apply(|work, _, _| rounds::status(work).map(|()| false)),
)
.looks_back()
.by_dm(
    Direct::new(
        "status",
        DmHelp::Listed("`status` (where you stand and what you have sent)"),
        by_dm,
    )
    .takes(Takes::Alone)
    .listed(1),
);

fn by_dm(work: &mut Work<'_>, user: &User, _args: &str) -> Result<bool, Refusal> {
    rounds::dm_status(work, user).map(|()| false)
}
