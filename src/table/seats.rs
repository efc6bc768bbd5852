//! Who sits where, as the commands share it: how many seats a game takes, and a player
//! leaving (by their own `!leave`, the GM's `!kick` or `!replace`, or a concession).

use crate::chat::mention;
use crate::games::{Options, Player, Refusal, Rules};
use crate::records::{Departure, GameRecord, Parting, Seat, Status, User};
use crate::table::rounds;
use crate::table::work::Work;

/// The fewest and most players of a game under `options`, as its rules revision counts them.
pub(crate) fn seats_allowed(
    rules: &dyn Rules,
    options: &Options,
    revision: u32,
) -> (usize, Option<usize>) {
    match revision {
        0 | 1 => rules.players(),
        _ => rules.players_with(options),
    }
}

/// Notes that the player in `seat` leaves the running game, as `how`, with their seat as it
/// was (the ratings and `!stats` count it though the seat may pass to someone else).
pub(crate) fn depart(record: &mut GameRecord, seat: Seat, how: Parting) {
    if record.settings.revision < 5 {
        return;
    }
    if let Some(was) = record.seats.get(seat) {
        record.departed.push(Departure {
            seat,
            was: was.clone(),
            how,
        });
    }
}

/// Takes a player out of the game (`how` they went, for the channel); a seat of a running
/// game with a waitlist goes to the next on it when `refill`.
pub(crate) fn remove(
    work: &mut Work<'_>,
    who: &str,
    by: &User,
    (how, parting): (&str, Parting),
    refill: bool,
) -> Result<bool, Refusal> {
    let id = work.record.id;
    let channel = work.record.channel.clone();
    if work.record.status == Status::Over {
        return Err(rounds::over(&work.record, &work.env.defaults.prefix));
    }
    if let Some(place) = work
        .record
        .waitlist
        .iter()
        .position(|s| s.user.id == who || s.user.name.eq_ignore_ascii_case(who))
    {
        let gone = work.record.waitlist.remove(place);
        work.outcome.channel(
            &channel,
            format!("{} {how}: off the waitlist of game #{id}.", gone.user.name),
        );
        work.outcome.table_event(
            work.record.round,
            format!("{} {how} (waitlist)", gone.user.name),
        );
        return Ok(true);
    }
    let seat = work
        .record
        .seat_of(who)
        .ok_or_else(|| not_playing(who, by, id))?;
    let name = work.record.name(seat);
    if work.record.status == Status::SignUp {
        work.record.seats.remove(seat);
        work.outcome.channel(
            &channel,
            format!("{name} {how}: off the sign-up list of game #{id}."),
        );
        work.outcome
            .table_event(0, format!("{name} {how} before the start"));
        return Ok(true);
    }
    let mut live = work.live()?;
    depart(&mut work.record, seat, parting);
    let replacement = if refill && live.rules.waitlist() && !work.record.waitlist.is_empty() {
        let next = work.record.waitlist.remove(0);
        work.record.seats[seat] = next.clone();
        Some(Player {
            seat,
            name: next.user.name,
            symbol: next.symbol,
            computer: next.computer.is_some(),
        })
    } else {
        if let Some(record) = work.record.seats.get_mut(seat) {
            record.present = false;
        }
        None
    };
    work.record.orders.remove(&seat);
    let mut ctx = work.ctx(&mut live.dice);
    let events = live.game.seat_left(seat, replacement.as_ref(), &mut ctx);
    let mut text = format!("{name} {how}.");
    if let Some(player) = &replacement {
        text.push_str(&format!(
            " {} takes the seat from the waitlist.",
            player.name
        ));
    }
    work.outcome.table_event(work.record.round, text.clone());
    rounds::after_change(work, &mut live, events, Some(text), false)?;
    rounds::resolve_if_all_in(work, &mut live)?;
    Ok(true)
}

/// The refusal of a `!kick` or `!replace` naming `who`, who has no seat in game `id`, said to
/// `by` (who typed it): "you" when they named themselves, never "ben: ben is not playing".
pub(crate) fn not_playing(who: &str, by: &User, id: i64) -> Refusal {
    if who == by.id || who.eq_ignore_ascii_case(&by.name) {
        Refusal::new(format!(
            "you are not playing in game #{id}; name a player who is."
        ))
    } else {
        Refusal::new(format!(
            "{} is not playing in game #{id}; `!who` lists who is.",
            mention::user(who)
        ))
    }
}
