//! Vacations: a player away for a while (`vacation 5d` by DM, within the allowance the game
//! set at `!new`, `vacation=14d` by default). As the game's `away` option says, a deadline
//! that falls while an awaited player is away moves once, for everyone, to the end of the
//! vacation (`away=extend`), or the player's default order is used and their turns are played
//! by the game's default (`away=default`). The channel is told either way.
//!
//! A vacation costs what it gives (from rules revision 1 on): a player back early
//! (`vacation off`) brings a deadline held for them back to the later of its first time and
//! the game's grace after their return, and spends the time away, or the hold that remains,
//! whichever is longer: never less. So taking a long vacation and coming back at once holds
//! nothing, and no player can hold the game longer than their allowance.

use super::rounds::{describe_phase, resolve_if_all_in, schedule};
use super::work::{PhaseHook, Work};
use crate::chat::deadline::{clock_time, format_instant};
use crate::chat::lists::names_in_words;
use crate::duration::{duration_as_typed, format_duration};
use crate::games::{Refusal, Seat};
use crate::records::Phase;
use crate::records::{AwayRule, User};
use chrono::{DateTime, Duration, Utc};

/// The seats away at `now` among `seats`.
fn away_among(work: &Work<'_>, seats: &[Seat]) -> Vec<Seat> {
    let now = work.env.now;
    seats
        .iter()
        .copied()
        .filter(|seat| {
            work.record
                .seats
                .get(*seat)
                .is_some_and(|record| record.present && record.away_at(now))
        })
        .collect()
}

/// `vacation <length>` (or `vacation off`) by DM from a player of the game.
pub fn take(work: &mut Work<'_>, user: &User, length: Option<Duration>) -> Result<bool, Refusal> {
    let id = work.record.id;
    let now = work.env.now;
    let seat = work
        .record
        .seat_of(&user.id)
        .ok_or_else(|| Refusal::new(format!("You are not playing in game #{id}.")))?;
    if !matches!(
        work.record.status,
        crate::records::Status::Running | crate::records::Status::Paused { .. }
    ) {
        return Err(Refusal::new(format!(
            "Game #{id} is not running: a vacation counts only during the game."
        )));
    }
    let allowance = work.record.settings.vacation;
    let Some(record) = work.record.seats.get(seat) else {
        return Err(Refusal::new(format!("You are not playing in game #{id}.")));
    };
    let name = record.user.name.clone();
    let current = record.away_until.filter(|until| *until > now);
    let taken = record.away_taken;
    let Some(length) = length else {
        let Some(until) = current else {
            return Err(Refusal::new(format!(
                "You are not on vacation in game #{id}."
            )));
        };
        let since = record.away_since;
        let mut back = String::new();
        let away_taken = match (work.record.settings.revision, since) {
            // Before rules revision 1 the days not used were given back, whatever the
            // deadline did meanwhile.
            (0, _) | (_, None) => (taken - (until - now)).max(Duration::zero()),
            // Since, a deadline held for the player comes back, and what the vacation cost
            // (the time away, or the hold that remains, the longer) is spent.
            (_, Some(since)) => {
                let hold = match come_back(work, seat) {
                    Some((deadline, hold)) => {
                        back = format!(
                            " The deadline moves back to {}.",
                            format_instant(deadline, work.record.settings.tz.as_deref())
                        );
                        hold
                    }
                    None => Duration::zero(),
                };
                let planned = until - since;
                (taken - planned).max(Duration::zero()) + (now - since).max(hold)
            }
        };
        if let Some(record) = work.record.seats.get_mut(seat) {
            record.away_until = None;
            record.away_since = None;
            record.away_taken = away_taken;
        }
        work.record.excused.remove(&seat);
        let left = (allowance - away_taken).max(Duration::zero());
        let text = format!(
            "{name} is back from vacation ({} in this game).{back} {}",
            vacation_left(left),
            describe_phase(&work.record)
        );
        work.outcome
            .table_event(work.record.round, format!("{name} is back from vacation"));
        let channel = work.record.channel.clone();
        work.outcome.channel(&channel, text);
        return Ok(true);
    };
    if allowance <= Duration::zero() {
        return Err(Refusal::new(format!(
            "Game #{id} allows no vacations (the GM set vacation=0 at `!new`)."
        )));
    }
    let until = now
        .checked_add_signed(length)
        .ok_or_else(|| Refusal::new("That vacation ends past the end of the calendar."))?;
    // A vacation taken while away replaces the rest of the current one.
    let already = current.map_or(Duration::zero(), |until| until - now);
    let total = taken - already + length;
    if total > allowance {
        let left = (allowance - (taken - already)).max(Duration::zero());
        return Err(Refusal::new(format!(
            "Game #{id} allows {} of vacation per player and you have {} left; send `vacation {}` or less.",
            format_duration(allowance),
            if left > Duration::zero() { format_duration(left) } else { "none".to_string() },
            if left > Duration::zero() { duration_as_typed(left) } else { "0".to_string() }
        )));
    }
    let revised = work.record.settings.revision > 0;
    if let Some(record) = work.record.seats.get_mut(seat) {
        record.away_until = Some(until);
        record.away_taken = total;
        if revised {
            record.away_since = Some(now);
        }
    }
    let left = allowance - total;
    let mut text = format!(
        "{name} is on vacation for {}, until {}; {} in this game.",
        format_duration(length),
        format_instant(until, work.record.settings.tz.as_deref()),
        vacation_left(left)
    );
    work.outcome.table_event(
        work.record.round,
        format!(
            "{name} is on vacation until {}",
            clock_time(until, work.record.settings.tz.as_deref())
        ),
    );
    let running = work.record.status == crate::records::Status::Running;
    let awaited_now = work.record.awaited().contains(&seat);
    match work.record.settings.away {
        AwayRule::Extend => {
            text.push_str(" A deadline that falls while they are away moves once, for everyone, to the end of their vacation.");
            if running && awaited_now {
                if let Some(moved) = extend(work) {
                    text.push(' ');
                    text.push_str(&moved);
                }
            }
        }
        AwayRule::Default => {
            text.push_str(" Meanwhile their default order is used and their turns are played by the game's default.");
            if running && awaited_now {
                excuse_now(work, seat);
            }
        }
    }
    let channel = work.record.channel.clone();
    work.outcome.channel(&channel, text);
    work.outcome.direct(
        &user.id,
        format!(
            "Game #{id}: you are on vacation until {}; the channel is told. `vacation off` when you are back.",
            format_instant(until, work.record.settings.tz.as_deref())
        ),
    );
    if running && work.record.settings.away == AwayRule::Default && awaited_now {
        let mut live = work.live()?;
        resolve_if_all_in(work, &mut live)?;
    }
    Ok(true)
}

/// The current deadline moved, once, to the end of the latest vacation among the awaited
/// players it falls in (`away=extend`); what the channel is told, if it moved.
fn extend(work: &mut Work<'_>) -> Option<String> {
    let deadline = work.record.deadline?;
    if work.record.extended {
        return None;
    }
    let waiting = work.record.awaited();
    let away = away_among(work, &waiting);
    let (names, until) = away
        .iter()
        .filter_map(|seat| {
            let record = work.record.seats.get(*seat)?;
            let until = record.away_until?;
            (until >= deadline).then(|| (record.user.name.clone(), until))
        })
        .fold(
            (Vec::new(), None::<DateTime<Utc>>),
            |(mut names, latest), (name, until)| {
                names.push(name);
                (names, Some(latest.map_or(until, |l| l.max(until))))
            },
        );
    let until = until?;
    schedule(work, Some(until));
    work.record.extended = true;
    if work.record.settings.revision > 0 {
        work.record.extended_from = Some(deadline);
    }
    let moved_to = work.record.deadline?;
    Some(format!(
        "The deadline moves to {} for {}'s vacation.",
        format_instant(moved_to, work.record.settings.tz.as_deref()),
        names_in_words(&names)
    ))
}

/// A player back from vacation early: a deadline held for them comes back to the later of
/// its first time, the grace the game gives after their return, and the end of the
/// vacation of any other awaited player still away. Returns the deadline and how long it
/// stays held past its first time, when it moved.
fn come_back(work: &mut Work<'_>, seat: Seat) -> Option<(DateTime<Utc>, Duration)> {
    let original = work.record.extended_from?;
    let deadline = work.record.deadline?;
    let now = work.env.now;
    let waiting = work.record.awaited();
    let others: Vec<Seat> = away_among(work, &waiting)
        .into_iter()
        .filter(|other| *other != seat)
        .collect();
    let still_held = others
        .iter()
        .filter_map(|other| work.record.seats.get(*other)?.away_until)
        .filter(|until| *until >= original)
        .max();
    let grace_end = now.checked_add_signed(work.record.settings.grace)?;
    let back = original.max(grace_end).max(still_held.unwrap_or(original));
    if back >= deadline {
        return None;
    }
    schedule(work, Some(back));
    if still_held.is_none() {
        work.record.extended_from = None;
    }
    let moved_to = work.record.deadline?;
    Some((moved_to, (moved_to - original).max(Duration::zero())))
}

/// An away player's order is not awaited this phase: the game's default is used.
fn excuse_now(work: &mut Work<'_>, seat: Seat) {
    match &work.record.phase {
        Some(Phase::Orders { .. }) => {
            work.record.excused.insert(seat);
        }
        Some(Phase::Turn { seat: mover }) if *mover == seat => {
            // Their turn is due now: the deadline input plays it with the game's default.
            let now = work.env.now;
            work.record.deadline = Some(now);
            work.record.remind_at = None;
        }
        _ => {}
    }
}

/// The phase engine's hook for vacations: a new phase gives the players away what their
/// `away=` rule says, and a deadline brought forward for them says why it resolved.
pub(crate) struct Vacations;

impl PhaseHook for Vacations {
    fn phase_begun(&self, work: &mut Work<'_>) -> Option<String> {
        on_new_phase(work)
    }

    fn deadline_reason(&self, work: &Work<'_>) -> Option<String> {
        due_for_vacation(work)
    }
}

/// What a new phase owes to the players away now: under `away=extend` the deadline moved
/// once to the end of their vacation, under `away=default` their orders excused and their
/// turn due at once. Returns what the channel is told.
fn on_new_phase(work: &mut Work<'_>) -> Option<String> {
    let waiting = work.record.awaited();
    let away = away_among(work, &waiting);
    if away.is_empty() {
        return None;
    }
    match work.record.settings.away {
        AwayRule::Extend => extend(work),
        AwayRule::Default => {
            let names: Vec<String> = away.iter().map(|s| work.record.name(*s)).collect();
            for seat in away {
                excuse_now(work, seat);
            }
            if work.record.awaited().is_empty() {
                let now = work.env.now;
                work.record.deadline = Some(now);
                work.record.remind_at = None;
            }
            Some(format!(
                "{} on vacation: the game's default plays for {}.",
                names_in_words(&names),
                if names.len() == 1 { "them" } else { "each" }
            ))
        }
    }
}

/// Why a deadline resolves now when it was brought forward for a player on vacation.
fn due_for_vacation(work: &Work<'_>) -> Option<String> {
    if work.record.settings.away != AwayRule::Default {
        return None;
    }
    let seats: Vec<Seat> = match &work.record.phase {
        Some(Phase::Turn { seat }) => vec![*seat],
        Some(Phase::Orders { seats, .. }) => seats.iter().copied().collect(),
        _ => return None,
    };
    let away = away_among(work, &seats);
    let names: Vec<String> = away.iter().map(|s| work.record.name(*s)).collect();
    (!names.is_empty()).then(|| {
        format!(
            "{} on vacation; the game's default plays",
            names_in_words(&names)
        )
    })
}

/// The vacation a player has left, in words: "14 days of vacation left", "no vacation left".
fn vacation_left(left: Duration) -> String {
    match left > Duration::zero() {
        true => format!("{} of vacation left", format_duration(left)),
        false => "no vacation left".to_string(),
    }
}
