//! The moments of a phase's life told to the hooks (`Work::hooks`), each hook in its
//! declared order. The engine calls these; a hook's work stays in the hook's module.

use crate::games::{Refusal, Seat};
use crate::records::User;
use crate::table::work::{Live, Work};

/// `seat`'s answer was taken (`what`, in words); `now`: an answer of now.
pub(super) fn answered(work: &mut Work<'_>, seat: Seat, what: &str, now: bool) {
    for hook in work.hooks {
        hook.answered(work, seat, what, now);
    }
}

/// `seat`'s turn ended: played in time, late, or timed out (`None`).
pub fn turn_ended(work: &mut Work<'_>, seat: Seat, played: Option<bool>) {
    for hook in work.hooks {
        hook.turn_ended(work, seat, played);
    }
}

/// An orders phase is resolving with the orders of `seats`.
pub(super) fn resolving(work: &mut Work<'_>, seats: &[Seat]) {
    for hook in work.hooks {
        hook.resolving(work, seats);
    }
}

/// The ranking the table keeps of the game's own `ranking`.
pub(super) fn final_ranking(work: &Work<'_>, ranking: Vec<Vec<Seat>>) -> Vec<Vec<Seat>> {
    let hooks = work.hooks;
    hooks.iter().fold(ranking, |ranking, hook| {
        hook.final_ranking(&work.record, ranking)
    })
}

/// The lines that stand for the board after a change (a search just asked).
pub(super) fn changed(work: &mut Work<'_>, live: &Live) -> Vec<String> {
    let hooks = work.hooks;
    hooks
        .iter()
        .filter_map(|hook| hook.changed(work, live))
        .collect()
}

/// The lines a new phase begins with.
pub(super) fn phase_begun(work: &mut Work<'_>) -> Vec<String> {
    let hooks = work.hooks;
    hooks
        .iter()
        .filter_map(|hook| hook.phase_begun(work))
        .collect()
}

/// The first hook's own reason for a deadline that passed.
pub(super) fn deadline_reason(work: &Work<'_>) -> Option<String> {
    let hooks = work.hooks;
    hooks.iter().find_map(|hook| hook.deadline_reason(work))
}

/// Whether a hook took the GM's direct message that is no order.
pub(super) fn gm_message(work: &mut Work<'_>, user: &User, text: &str) -> Result<bool, Refusal> {
    for hook in work.hooks {
        if hook.gm_message(work, user, text)? {
            return Ok(true);
        }
    }
    Ok(false)
}
