//! `!pause`: the GM stops the clock.

use super::{Command, Run, Who};
use crate::duration::format_duration;
use crate::games::Refusal;
use crate::records::Phase;
use crate::records::{Status, User, STAND_IN_APART_FROM};
use crate::table::work::Work;

/// `!pause`.
pub const COMMAND: Command = Command::new(
    "pause",
    Who::Gm,
    "GM: stops the clock",
    Run::Apply(|work, said, _| pause(work, said.user)),
);

/// `!pause`: the deadline stops; the time left is kept.
fn pause(work: &mut Work<'_>, user: &User) -> Result<bool, Refusal> {
    let id = work.record.id;
    if work.record.status != Status::Running {
        return Err(Refusal::new(format!(
            "Game #{id} is not running, so it cannot be paused."
        )));
    }
    let remaining = work.record.deadline.map(|at| at - work.env.now);
    // A computer standing in for silent players stops with the clock: at `!resume` the
    // deadline has passed, and it stands in again for whoever is still silent.
    let remaining = match work.record.settings.revision >= STAND_IN_APART_FROM {
        true => remaining.map(|left| left.max(chrono::Duration::zero())),
        false => remaining,
    };
    work.record.stand_in_until = None;
    if work.record.settings.revision >= STAND_IN_APART_FROM {
        work.record.standing_in.clear();
    }
    let by = (work.record.settings.revision > 0).then(|| user.name.clone());
    work.record.status = Status::Paused { remaining, by };
    work.record.deadline = None;
    work.record.remind_at = None;
    let channel = work.record.channel.clone();
    let orders = match &work.record.phase {
        Some(Phase::Orders { .. }) => {
            " Secret orders by direct message are still taken and can be changed meanwhile."
        }
        _ => "",
    };
    let text = format!(
        "The GM paused game #{id}{}. Nothing resolves until `{}resume`.{orders}",
        remaining
            .map(|r| format!(" with {} left on the clock", format_duration(r)))
            .unwrap_or_default(),
        work.env.defaults.prefix
    );
    work.outcome.table_event(work.record.round, "paused");
    work.outcome.channel(&channel, text);
    Ok(true)
}
