//! Who keeps the deadlines (`!who`): per player, the orders and turns in before their phase's
//! first deadline, in after it (the deadline had been extended, or the phase resolved late),
//! and missed, with the player's last action. A GM of a month-long game sees at a glance who
//! is late and how often.

use super::work::{PhaseHook, Work};
use crate::chat::deadline::{format_deadline, format_instant};
use crate::games::Seat;
use crate::records::{GameRecord, Parting, Status};

/// The phase engine's hook that keeps each player's attendance: answers timed and noted,
/// turns and orders counted on time, late or missed.
pub(crate) struct Attendance;

impl PhaseHook for Attendance {
    fn answered(&self, work: &mut Work<'_>, seat: Seat, what: &str, now: bool) {
        if now {
            time_answer(work, seat);
        }
        note(work, seat, what);
    }

    fn turn_ended(&self, work: &mut Work<'_>, seat: Seat, played: Option<bool>) {
        count_turn(work, seat, played);
    }

    fn resolving(&self, work: &mut Work<'_>, seats: &[Seat]) {
        count_orders(work, seats);
    }
}

/// Notes `what` as the last action of `seat`, when it was sent (not when the computer acts
/// for a silent player: that is not the player's action).
fn note(work: &mut Work<'_>, seat: Seat, what: &str) {
    if work.record.standing_in.contains(&seat) {
        return;
    }
    let sent = work.env.when_sent();
    if let Some(record) = work.record.seats.get_mut(seat) {
        record.attendance.last = Some((sent, what.to_string()));
    }
}

/// Times the player's answer, when it is their first order or move in the current phase:
/// from the phase's start to when it was sent (kept from rules revision 5 on; never for the
/// computer standing in for a silent player).
fn time_answer(work: &mut Work<'_>, seat: Seat) {
    let started = work
        .record
        .phase_started
        .filter(|_| work.record.settings.revision >= 5);
    let Some(started) = started else { return };
    if work.record.standing_in.contains(&seat) {
        return;
    }
    let sent = work.env.when_sent();
    if let Some(record) = work.record.seats.get_mut(seat) {
        let attendance = &mut record.attendance;
        if attendance.timed != Some(started) {
            attendance.timed = Some(started);
            let wait = (sent - started).num_seconds().max(0);
            attendance
                .waits
                .push(u64::try_from(wait).unwrap_or_default());
        }
    }
}

/// Counts the orders phase about to resolve: each of `seats` sent its order on time, late, or
/// not at all (the computer sent it for them: `nmr=bot`).
fn count_orders(work: &mut Work<'_>, seats: &[Seat]) {
    let first = work.record.first_deadline;
    for &seat in seats {
        let sent = match work.record.stood_in(seat) {
            true => None,
            false => work.record.orders.get(&seat).map(|order| order.at),
        };
        if let Some(record) = work.record.seats.get_mut(seat) {
            let attendance = &mut record.attendance;
            match sent {
                Some(at) if first.is_none_or(|deadline| at <= deadline) => attendance.on_time += 1,
                Some(_) => attendance.late += 1,
                None => attendance.missed += 1,
            }
        }
    }
}

/// Counts a turn that ended: played in time (`Some(true)`), late (`Some(false)`), or timed
/// out (`None`).
fn count_turn(work: &mut Work<'_>, seat: Seat, played: Option<bool>) {
    if let Some(record) = work.record.seats.get_mut(seat) {
        let attendance = &mut record.attendance;
        match played {
            Some(true) => attendance.on_time += 1,
            Some(false) => attendance.late += 1,
            None => attendance.missed += 1,
        }
    }
}

/// `!who`: one line per player, those still seated first, then everyone who left the game
/// and how.
pub fn who(record: &GameRecord, now: chrono::DateTime<chrono::Utc>) -> String {
    let mut lines = vec![format!(
        "Game #{}: orders and turns on time, late (after the first deadline) and missed:",
        record.id
    )];
    let seated = record
        .seats
        .iter()
        .filter(|seat| seat.present)
        .map(|seat| (seat, None));
    let departed = record.departed.iter().map(|d| (&d.was, Some(d.how)));
    // A seat left in a game whose record kept no departures (rules revision 4 or less).
    let unrecorded = record
        .seats
        .iter()
        .enumerate()
        .filter(|(at, seat)| {
            !seat.present
                && !record
                    .departed
                    .iter()
                    .any(|d| d.seat == *at && d.was.user.id == seat.user.id)
        })
        .map(|(_, seat)| (seat, Some(Parting::Left)));
    for (seat, gone) in seated.chain(departed).chain(unrecorded) {
        let a = &seat.attendance;
        let name = match gone {
            Some(how) => format!("{} ({})", seat.user.name, how.words()),
            None => seat.user.name.clone(),
        };
        let mut line = format!(
            "- {name}: {} on time, {} late, {} missed; ",
            a.on_time, a.late, a.missed
        );
        match &a.last {
            Some((at, what)) => line.push_str(&format!(
                "last action {}: {what}",
                format_deadline(*at, record.settings.tz.as_deref())
            )),
            None => line.push_str("no action yet"),
        }
        if let Some(until) = seat
            .away_until
            .filter(|until| *until > now && gone.is_none())
        {
            line.push_str(&format!(
                "; on vacation until {}",
                format_instant(until, record.settings.tz.as_deref())
            ));
        }
        line.push('.');
        lines.push(line);
    }
    let total: u32 = record
        .seats
        .iter()
        .map(|s| s.attendance.on_time + s.attendance.late + s.attendance.missed)
        .sum();
    if total == 0 && record.status != Status::Over {
        lines.push("No phase has ended yet.".to_string());
    }
    lines.join("\n")
}
