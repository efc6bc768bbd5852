//! Private threads for players: a player whose DMs are closed (the platform says so), or every
//! player of a game opened with `orders=thread`, gets a thread of the game's channel that only
//! they and the bot read (and the server's moderators, who may read every thread). What the
//! game says to them alone goes there, and they send their secret orders there, as by DM.
//! The platform opens the thread ([`crate::records::GameRecord::threads_owed`] says who is
//! owed one) and tells the table ([`opened`]).

use super::work::Work;
use crate::chat::mention;
use crate::games::Refusal;
use crate::records::{GameRecord, SeatRecord};

/// The platform refused a direct message to `user`: their seat is owed a private thread.
pub fn dms_closed(work: &mut Work<'_>, user: &str) -> Result<bool, Refusal> {
    let mut changed = false;
    for seat in work
        .record
        .seats
        .iter_mut()
        .chain(work.record.waitlist.iter_mut())
        .filter(|seat| seat.present && seat.user.id == user && !seat.dms_closed)
    {
        seat.dms_closed = true;
        changed = true;
    }
    Ok(changed)
}

/// The private thread `thread` of `user` was opened: what the game says to them alone goes
/// there from now on, and they are told where in the thread and in the game's channel.
pub fn opened(work: &mut Work<'_>, user: &str, thread: &str) -> Result<bool, Refusal> {
    let id = work.record.id;
    let Some(seat) = seat_of(&mut work.record, user, |seat| seat.thread.is_none()) else {
        return Ok(false);
    };
    seat.thread = Some(thread.to_string());
    let why = match seat.dms_closed {
        true => "your direct messages are closed to me, so ",
        false => "",
    };
    let player = mention::user(user);
    work.outcome.channel(
        thread,
        format!(
            "{player}, this thread is yours in game #{id}: only you and I read it (and the server's moderators, who may read every thread). Send me your secret orders here as you would by direct message, like `{}`, or `status`; your receipts, reminders and what the game tells you alone come here.",
            orders_example(work)
        ),
    );
    let channel = work.record.channel.clone();
    work.outcome.channel(
        &channel,
        format!(
            "{player}: {why}what game #{id} says to you alone, and your secret orders, go in your private thread {}.",
            mention::channel(thread)
        ),
    );
    work.outcome.table_event(
        work.record.round,
        format!(
            "{}'s private thread is {}",
            mention::user(user),
            mention::channel(thread)
        ),
    );
    Ok(true)
}

/// The private thread `thread` of `user` can no longer be posted in: their seat forgets it,
/// so what the game says to them alone goes by DM, or to a new thread where they are owed one,
/// and they are told in the game's channel.
pub fn lost(work: &mut Work<'_>, user: &str, thread: &str) -> Result<bool, Refusal> {
    let id = work.record.id;
    let Some(seat) = seat_of(&mut work.record, user, |seat| {
        seat.thread.as_deref() == Some(thread)
    }) else {
        return Ok(false);
    };
    seat.thread = None;
    let dms_closed = seat.dms_closed;
    let instead = match work.record.settings.orders_in_threads || dms_closed {
        true => "I am opening you a new one",
        false => "what the game says to you alone goes by direct message again",
    };
    let player = mention::user(user);
    let channel = work.record.channel.clone();
    work.outcome.channel(
        &channel,
        format!(
            "{player}: I can no longer post in your private thread for game #{id} (deleted, or locked by a moderator), so {instead}."
        ),
    );
    work.outcome.table_event(
        work.record.round,
        format!(
            "{}'s private thread {} can no longer be posted in",
            mention::user(user),
            mention::channel(thread)
        ),
    );
    Ok(true)
}

/// The seat (or place on the waiting list) of `user`, still in the game, that `matches`.
fn seat_of<'a>(
    record: &'a mut GameRecord,
    user: &str,
    matches: impl Fn(&SeatRecord) -> bool,
) -> Option<&'a mut SeatRecord> {
    record
        .seats
        .iter_mut()
        .chain(record.waitlist.iter_mut())
        .find(|seat| seat.present && seat.user.id == user && matches(seat))
}

/// An order of the game as a player types it, for the thread's first words.
fn orders_example(work: &Work<'_>) -> String {
    work.env
        .catalogue
        .find(&work.record.game)
        .and_then(|rules| rules.orders().first().map(|order| order.usage.to_string()))
        .unwrap_or_else(|| "status".to_string())
}
