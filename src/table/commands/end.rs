//! `!end`: the GM ends the game now.

use super::{Command, Run, Who};
use crate::games::Refusal;
use crate::records::Status;
use crate::table::rounds;
use crate::table::work::Work;

/// `!end`.
pub const COMMAND: Command = Command::new(
    "end",
    Who::Gm,
    "GM: ends the game now and reveals the seed",
    Run::Apply(|work, _, _| end(work)),
);

/// `!end`: the GM ends the game now; the seed is revealed.
fn end(work: &mut Work<'_>) -> Result<bool, Refusal> {
    let id = work.record.id;
    if work.record.status == Status::Over {
        return Err(Refusal::new(format!("Game #{id} is already over.")));
    }
    let channel = work.record.channel.clone();
    let mut text = format!("The GM ended game #{id}.");
    if work.record.state.is_some() {
        text.push(' ');
        text.push_str(&rounds::seed_reveal(
            &work.record,
            &work.env.defaults.prefix,
        ));
    }
    work.record.status = Status::Over;
    work.record.deadline = None;
    work.record.remind_at = None;
    work.record.end_stand_in();
    // A game that had begun counts in the players' records, unrated.
    work.outcome.ended = work.record.state.is_some();
    work.outcome
        .table_event(work.record.round, "ended by the GM");
    work.outcome.channel(&channel, text);
    Ok(true)
}
