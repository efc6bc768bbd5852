//! `!resume`: the GM restarts the clock.

use super::{Command, Run, Who};
use crate::games::Refusal;
use crate::records::Phase;
use crate::records::Status;
use crate::table::rounds;
use crate::table::work::Work;

/// `!resume`.
pub const COMMAND: Command = Command::new(
    "resume",
    Who::Gm,
    "GM: restarts the clock with the time that was left",
    Run::Apply(|work, _, _| resume(work)),
);

/// `!resume`: the deadline runs again with the time that was left.
fn resume(work: &mut Work<'_>) -> Result<bool, Refusal> {
    let id = work.record.id;
    let Status::Paused { remaining, .. } = work.record.status else {
        return Err(Refusal::new(format!("Game #{id} is not paused.")));
    };
    work.record.status = Status::Running;
    let deadline = remaining.and_then(|r| {
        work.env
            .now
            .checked_add_signed(r.max(chrono::Duration::zero()))
    });
    rounds::schedule(work, deadline);
    work.outcome.table_event(work.record.round, "resumed");
    let text = format!(
        "Game #{id} resumes. {}",
        rounds::describe_phase(&work.record)
    );
    let channel = work.record.channel.clone();
    work.outcome.channel(&channel, text);
    // Orders may have come in while it was paused: the last one may complete the round.
    if matches!(work.record.phase, Some(Phase::Orders { .. })) {
        let mut live = work.live()?;
        rounds::resolve_if_all_in(work, &mut live)?;
    }
    Ok(true)
}
