//! `!leave`: takes the player out of the game (before the start: off the sign-up list).

use super::{Command, Run, Who};
use crate::games::Refusal;
use crate::records::{Parting, User};
use crate::table::seats::remove;
use crate::table::work::Work;

/// `!leave`.
pub const COMMAND: Command = Command::new(
    "leave",
    Who::Player,
    "takes you out of the game (before the start: off the sign-up list)",
    Run::Apply(|work, said, _| leave(work, said.user)),
)
.looks_back();

/// Takes `user` out of the game, or off its sign-up list or waiting list.
fn leave(work: &mut Work<'_>, user: &User) -> Result<bool, Refusal> {
    let who = user.id.clone();
    if work.record.seat_of(&who).is_none()
        && !work
            .record
            .waitlist
            .iter()
            .any(|s| s.present && s.user.id == who)
    {
        return Err(Refusal::new(format!(
            "you are not playing in game #{}, so there is nothing to leave.",
            work.record.id
        )));
    }
    remove(work, &who, user, ("left", Parting::Left), true)
}
