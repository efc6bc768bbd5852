//! Deadlines and reminders: scheduled around quiet hours, fired once (said so when late or
//! missed while the bot was down), forced by the GM's `!resolve`, moved by `!deadline` (both
//! wait a while for a computer seat's move).

use super::change::after_change;
use super::moments;
use super::orders::resolve_orders;
use super::running;
use crate::chat::deadline::{clock_time, format_deadline};
use crate::chat::lists::names_in_words;
use crate::chat::DeadlineSpec;
use crate::duration::{a_year, format_duration};
use crate::games::Refusal;
use crate::games::Seat;
use crate::records::{EventBody, LogEvent, LogVisibility, NoMoveRule, Status, STAND_IN_APART_FROM};
use crate::records::{GameRecord, Phase};
use crate::table::quiet_hours;
use crate::table::work::{table_time, Live, Work};
use chrono::{DateTime, Utc};

/// Sets the deadline of the current phase and the reminder before it, both out of the game's
/// quiet hours.
pub fn schedule(work: &mut Work<'_>, deadline: Option<DateTime<Utc>>) {
    let now = work.env.now;
    let quiet = work.record.settings.quiet.clone();
    let deadline = deadline.map(|at| quiet_hours::deadline(quiet.as_ref(), at));
    work.record.deadline = deadline;
    work.record.remind_at = deadline.and_then(|at| {
        at.checked_sub_signed(work.record.settings.reminder)
            .filter(|remind| *remind > now)
            .and_then(|remind| quiet_hours::reminder(quiet.as_ref(), remind, at, now))
    });
}

/// The current turn times out: the game applies its default for the silent seat.
fn time_out(work: &mut Work<'_>, live: &mut Live, reason: &str) -> Result<(), Refusal> {
    let Some(Phase::Turn { seat }) = work.record.phase.clone() else {
        return Err(Refusal::new("No turn is running now."));
    };
    let mut ctx = work.ctx(&mut live.dice);
    let events = live.game.timeout(&mut ctx);
    moments::turn_ended(work, seat, None);
    let text = format!("{}'s turn ends ({reason}).", work.record.name(seat));
    work.outcome.events.push(LogEvent {
        round: work.record.round,
        visibility: LogVisibility::Public,
        body: EventBody::Resolution(text.clone()),
    });
    after_change(work, live, events, Some(text), true)
}

fn resolve_now(work: &mut Work<'_>, reason: &str) -> Result<bool, Refusal> {
    let mut live = work.live()?;
    match work.record.phase {
        Some(Phase::Orders { .. }) => resolve_orders(work, &mut live, reason)?,
        Some(Phase::Turn { .. }) => time_out(work, &mut live, reason)?,
        _ => return Err(Refusal::new("There is nothing to resolve.")),
    }
    Ok(true)
}

/// How long a computer seat's move is waited for before the GM may go on without it: a
/// `!resolve`, or a deadline sooner than this, would hand a GM who plays the computer's
/// default instead of its move.
const DECIDES_WITHIN: chrono::Duration = chrono::Duration::minutes(1);

/// The table's rules revision from which the GM's `!resolve` and `!deadline` wait for a
/// computer seat's move ([`still_deciding`]).
const UNHURRIED_FROM: u32 = 9;

/// The computer seats whose move the game waits for now, as a sentence's subject ("Computer
/// 1 is", "Computer 1 and Computer 2 are"), and until when the GM waits for them
/// ([`DECIDES_WITHIN`] from the start of the phase or turn); `None` when none does, or it is
/// that time already. A silent player the computer stands in for is not one: its deadline
/// has passed.
fn still_deciding(record: &GameRecord, now: DateTime<Utc>) -> Option<(String, DateTime<Utc>)> {
    if record.settings.revision < UNHURRIED_FROM {
        return None;
    }
    let until = record.phase_started?.checked_add_signed(DECIDES_WITHIN)?;
    let names: Vec<String> = record
        .computers_owed()
        .into_iter()
        .filter(|(seat, _)| {
            record
                .seats
                .get(*seat)
                .is_some_and(|sat| sat.computer.is_some())
        })
        .map(|(seat, _)| record.name(seat))
        .collect();
    let verb = if names.len() == 1 { "is" } else { "are" };
    (now < until && !names.is_empty())
        .then(|| (format!("{} {verb}", names_in_words(&names)), until))
}

/// GM `!resolve`.
pub fn force(work: &mut Work<'_>) -> Result<bool, Refusal> {
    running(work)?;
    if work.record.waits_for_search() {
        return Err(Refusal::new(
            "The solver is still judging; the game goes on with its verdict in a moment.",
        ));
    }
    if let Some((who, until)) = still_deciding(&work.record, work.env.now) {
        return Err(Refusal::new(format!(
            "{who} still deciding; the game goes on with its move in a moment. A computer has {} to decide: `{}resolve` goes on without it in {}.",
            format_duration(DECIDES_WITHIN),
            work.env.defaults.prefix,
            format_duration(until - work.env.now),
        )));
    }
    resolve_now(work, "forced by the GM")
}

/// The deadline input: resolves once if the deadline is really due; says why when late
/// (`missed`: it passed while the bot was not running).
pub fn deadline_passed(work: &mut Work<'_>, missed: bool) -> Result<bool, Refusal> {
    let now = work.env.now;
    let due = match work.record.due() {
        Some(at) if at <= now && work.record.status == Status::Running => at,
        _ => return Ok(false),
    };
    let standing_in = !work.record.standing_in.is_empty() || work.record.stand_in_until.is_some();
    if work.record.settings.nmr == NoMoveRule::Bot && !standing_in {
        if let Some(told) = stand_in(work) {
            let channel = work.record.channel.clone();
            work.outcome
                .table_event(work.record.round, told.trim_end_matches('.').to_string());
            work.outcome.channel(&channel, told);
            return Ok(true);
        }
    }
    // Said of the deadline the players were given, also when the computer's time for them
    // ran out after it.
    let when = clock_time(
        work.record.deadline.unwrap_or(due),
        work.record.settings.tz.as_deref(),
    );
    let reason = if let Some(away) = moments::deadline_reason(work) {
        away
    } else if missed {
        format!(
            "the deadline, {when}, passed while the bot was not running; resolved on its return"
        )
    } else if now - due > work.env.defaults.late_after {
        format!(
            "the deadline passed; resolved late: the deadline was {when}, resolved {} after it",
            format_duration(now - due)
        )
    } else {
        "the deadline passed".to_string()
    };
    resolve_now(work, &reason)
}

/// How long the computer has to play for the silent players (`nmr=bot`) before the game's
/// default is used after all: it decides in milliseconds, so only a fault runs it out (a
/// database stalled for minutes included; no player's order is taken meanwhile).
const STAND_IN_TIME: chrono::Duration = chrono::Duration::minutes(10);

/// The same in games opened before rules revision 6, where it moved the deadline itself.
const STAND_IN_TIME_BEFORE: chrono::Duration = chrono::Duration::minutes(1);

/// `nmr=bot` at the deadline: the computer plays the silent players' turn or orders, and the
/// phase resolves when they are in. The deadline stays where it passed (from rules revision
/// 6 on; before, it moved to the stand-in's time), so a player's order sent after it is
/// refused. Returns what the channel is told; `None`: nobody is silent but computer seats
/// (the phase resolves as usual).
fn stand_in(work: &mut Work<'_>) -> Option<String> {
    let silent: Vec<Seat> = work
        .record
        .awaited()
        .into_iter()
        .filter(|seat| {
            work.record
                .seats
                .get(*seat)
                .is_some_and(|sat| sat.present && sat.computer.is_none())
        })
        .collect();
    if silent.is_empty() {
        return None;
    }
    work.record.standing_in = silent.iter().copied().collect();
    match work.record.settings.revision >= STAND_IN_APART_FROM {
        true => work.record.stand_in_until = Some(work.env.now + STAND_IN_TIME),
        false => work.record.deadline = Some(work.env.now + STAND_IN_TIME_BEFORE),
    }
    work.record.remind_at = None;
    let names: Vec<String> = silent.iter().map(|seat| work.record.name(*seat)).collect();
    let what = match (&work.record.phase, names.as_slice()) {
        (Some(Phase::Orders { label, .. }), [name]) => format!("sends {name}'s order for {label}"),
        (Some(Phase::Orders { label, .. }), _) => {
            format!("sends the orders for {label} of {}", names_in_words(&names))
        }
        (_, _) => format!("plays {}'s turn", names_in_words(&names)),
    };
    Some(format!(
        "The deadline passed: the computer {what} (nmr=bot)."
    ))
}

/// The reminder input: a DM to every awaited player who has not acted.
pub fn remind(work: &mut Work<'_>) -> Result<bool, Refusal> {
    let now = work.env.now;
    match work.record.remind_at {
        Some(at) if at <= now && work.record.status == Status::Running => {}
        _ => return Ok(false),
    }
    work.record.remind_at = None;
    let waiting = work.record.awaited();
    let deadline = work
        .record
        .deadline
        .map(|at| format_deadline(at, work.record.settings.tz.as_deref()))
        .unwrap_or_default();
    for seat in &waiting {
        if let Some(record) = work.record.seats.get(*seat).filter(|s| s.present) {
            let what = match &work.record.phase {
                Some(Phase::Orders { label, .. }) => {
                    format!("your order for {label} is still missing")
                }
                _ => "it is still your turn".to_string(),
            };
            work.outcome.direct(
                &record.user.id,
                format!(
                    "Reminder for game #{} in {}: {what}. Deadline: {deadline}.",
                    work.record.id,
                    crate::chat::mention::channel(&work.record.channel)
                ),
            );
        }
    }
    let names: Vec<String> = waiting.iter().map(|s| work.record.name(*s)).collect();
    work.outcome.table_event(
        work.record.round,
        format!("reminder sent to {}", names.join(", ")),
    );
    Ok(true)
}

/// GM `!deadline`.
pub fn set_deadline(work: &mut Work<'_>, spec: DeadlineSpec) -> Result<bool, Refusal> {
    running(work)?;
    if matches!(work.record.phase, Some(Phase::Over { .. }) | None) {
        return Err(Refusal::new("There is no phase to set a deadline for."));
    }
    let far = || Refusal::new("That deadline is more than a year away; give one within a year.");
    let at = match spec {
        DeadlineSpec::In(duration) => work.env.now.checked_add_signed(duration).ok_or_else(far)?,
        DeadlineSpec::At(at) => table_time(at),
    };
    if work
        .env
        .now
        .checked_add_signed(a_year())
        .is_none_or(|limit| at > limit)
    {
        return Err(far());
    }
    if at <= work.env.now {
        return Err(Refusal::new(format!(
            "{} is already past; give a later time.",
            clock_time(at, work.record.settings.tz.as_deref())
        )));
    }
    if let Some((who, until)) = still_deciding(&work.record, work.env.now) {
        if at < until {
            return Err(Refusal::new(format!(
                "{who} still deciding, and a computer has {} to decide: give a deadline at least {} away.",
                format_duration(DECIDES_WITHIN),
                format_duration(until - work.env.now),
            )));
        }
    }
    schedule(work, Some(at));
    // The silent players the computer was playing for have this time again, and the orders
    // it sent for them are withdrawn (a turn it began stays played).
    let mut withdrawn = String::new();
    let standing_in = !work.record.standing_in.is_empty() || work.record.stand_in_until.is_some();
    if work.record.settings.revision >= STAND_IN_APART_FROM && standing_in {
        let stood_in: Vec<Seat> = work
            .record
            .orders
            .iter()
            .filter(|(_, order)| order.stand_in)
            .map(|(seat, _)| *seat)
            .collect();
        for seat in &stood_in {
            work.record.orders.remove(seat);
        }
        let names: Vec<String> = work
            .record
            .standing_in
            .iter()
            .map(|seat| work.record.name(*seat))
            .collect();
        if !names.is_empty() {
            withdrawn = format!(
                " The computer no longer plays for {}: they may play until then{}.",
                names_in_words(&names),
                if stood_in.is_empty() {
                    ""
                } else {
                    ", and the orders it sent for them are withdrawn"
                }
            );
        }
        work.record.end_stand_in();
    }
    let text = format!(
        "The GM set the deadline: {}.{withdrawn}",
        format_deadline(at, work.record.settings.tz.as_deref())
    );
    work.outcome.table_event(work.record.round, text.clone());
    let channel = work.record.channel.clone();
    work.outcome.channel(&channel, text);
    Ok(true)
}
