//! Secret orders by DM: checked by the game, stored, receipted with a keyed commitment, and
//! the round resolved (early when every order is in).

use super::change::after_change;
use super::moments;
use super::{describe_phase, phase_name, running};
use crate::chat::deadline::{format_deadline, precise_time};
use crate::games::{Refusal, Seat};
use crate::records::Phase;
use crate::records::{
    EventBody, GameRecord, LogEvent, LogVisibility, Status, StoredOrder, User, STAND_IN_APART_FROM,
};
use crate::table::work::{Live, Work};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The receipt of `seat`'s order `text` in `round`: a keyed commitment under the seed (see
/// [`crate::dice::Seed::receipt`]); in games opened before rules revision 1, the plain hash
/// they began with. `referee replay` checks every logged receipt against it.
pub(crate) fn receipt(record: &GameRecord, round: u64, seat: Seat, text: &str) -> String {
    let message = format!("{}:{round}:{seat}:{text}", record.id);
    match record.settings.revision {
        0 => hex::encode(&Sha256::digest(message)[..4]),
        _ => record.settings.seed.receipt(&message),
    }
}

/// Refuses unless the game takes secret orders now: running, or paused (a pause stops the
/// clock, not the players).
fn taking_orders(work: &Work<'_>) -> Result<(), Refusal> {
    match work.record.status {
        Status::Paused { .. } => Ok(()),
        _ => running(work),
    }
}

/// Refuses an order or action sent outside the current phase, however late it reached the
/// table: sent before the phase began (it was meant for an earlier one), or after the
/// phase's deadline. Both are judged by sent times (the message's, and that of the input
/// that began the phase), so a player who answers promptly is never refused because the bot
/// lagged, was down, or read the message back from the history.
pub(super) fn check_sent_in_time(work: &Work<'_>, what: &str) -> Result<(), Refusal> {
    // A computer's move is taken only for the position it was decided at (from rules
    // revision 6 on: a computer standing in for a silent player plays after the deadline).
    let decided_by_computer =
        work.env.by_computer && work.record.settings.revision >= STAND_IN_APART_FROM;
    let Some(sent) = work.env.sent.filter(|_| !decided_by_computer) else {
        return Ok(());
    };
    let when = |at: DateTime<Utc>| precise_time(at, work.record.settings.tz.as_deref());
    let id = work.record.id;
    let phase = phase_name(&work.record);
    if let Some(started) = work.record.phase_started.filter(|started| sent < *started) {
        return Err(Refusal::new(format!(
            "Game #{id}: your {what} was sent at {}, before the current phase ({phase}) began at {}, so it was not taken. {} Send it again if it still stands.",
            when(sent),
            when(started),
            describe_phase(&work.record)
        )));
    }
    if let Some(deadline) = work.record.deadline.filter(|deadline| sent > *deadline) {
        let instead = match work.record.standing_in.is_empty() {
            true => "the game's default",
            false => "the computer's move for whoever was silent (nmr=bot)",
        };
        return Err(Refusal::new(format!(
            "Game #{id}: your {what} was sent at {}, after the deadline of {phase} ({}), so it was not taken; {phase} resolves with {instead}.",
            when(sent),
            when(deadline)
        )));
    }
    Ok(())
}

/// A player's own order or move for `seat`, sent before the deadline, reached the table after
/// the computer began to stand in for them (the bot lagged, or read it back): it is the
/// player's, and the computer no longer plays for them (from rules revision 6 on).
pub(super) fn answered_in_time(work: &mut Work<'_>, seat: Seat) {
    if !work.env.by_computer && work.record.settings.revision >= STAND_IN_APART_FROM {
        work.record.standing_in.remove(&seat);
    }
}

/// A secret order by DM: checked by the game, stored (replacing an earlier one), receipted;
/// the round resolves when it was the last awaited.
pub fn order(work: &mut Work<'_>, user: &User, text: &str) -> Result<bool, Refusal> {
    taking_orders(work)?;
    let id = work.record.id;
    if work.record.seat_of(&user.id).is_none() {
        if user.id == work.record.gm.id {
            if moments::gm_message(work, user, text)? {
                return Ok(true);
            }
            return Err(Refusal::new(format!(
                "You are the GM of game #{id}, not a player, so '{}' is not an order.",
                crate::chat::parse::quote(text)
            )));
        }
        return Err(Refusal::new(format!("You are not playing in game #{id}.")));
    }
    let mut live = work.live()?;
    accept_order(work, &mut live, user, text, true)?;
    resolve_if_all_in(work, &mut live)?;
    Ok(true)
}

/// Checks and stores a player's order for the current phase; with `tell`, the player gets
/// the receipt by DM (an order put back in force by an undo is not receipted again).
pub fn accept_order(
    work: &mut Work<'_>,
    live: &mut Live,
    user: &User,
    text: &str,
    tell: bool,
) -> Result<(), Refusal> {
    let id = work.record.id;
    let seat = work
        .record
        .seat_of(&user.id)
        .ok_or_else(|| Refusal::new(format!("You are not playing in game #{id}.")))?;
    let label = match &work.record.phase {
        Some(Phase::Orders { seats, label }) if seats.contains(&seat) => label.clone(),
        _ => {
            return Err(Refusal::new(format!(
                "No order is awaited from you in game #{id} now. {}",
                describe_phase(&work.record)
            )))
        }
    };
    check_sent_in_time(
        work,
        &format!("order `{}`", crate::chat::parse::quote(text)),
    )?;
    let canonical = live.game.check_order(seat, text)?;
    if tell {
        answered_in_time(work, seat);
    }
    let note = live
        .game
        .order_note(seat, &canonical)
        .map(|note| format!(" {note}"))
        .unwrap_or_default();
    let receipt = receipt(&work.record, work.record.round, seat, &canonical);
    let replaced = work.record.orders.contains_key(&seat);
    let stand_in = work.env.by_computer
        && work.record.standing_in.contains(&seat)
        && work.record.settings.revision >= STAND_IN_APART_FROM;
    work.record.orders.insert(
        seat,
        StoredOrder {
            text: canonical.clone(),
            receipt: receipt.clone(),
            at: work.env.when_sent(),
            stand_in,
        },
    );
    work.record.excused.remove(&seat);
    // An order an undo puts back in force is not an answer of now.
    moments::answered(work, seat, &format!("order for {label}"), tell);
    work.outcome.events.push(LogEvent {
        round: work.record.round,
        visibility: LogVisibility::Sealed,
        body: EventBody::Order {
            seat,
            text: canonical.clone(),
            receipt: receipt.clone(),
        },
    });
    if tell {
        let tz = work.record.settings.tz.as_deref();
        // The computer's order for a silent player, or one read back after downtime: the
        // deadline is behind us, so it can no longer be replaced.
        let until = match work.record.deadline {
            _ if stand_in => {
                "You sent no order by the deadline, so the computer sent this one for you."
                    .to_string()
            }
            Some(at) if at <= work.env.now => format!(
                "It came before the deadline, {}, which has passed since; it stands as sent.",
                format_deadline(at, tz)
            ),
            Some(at) => format!(
                "You can replace it until the deadline, {}.",
                format_deadline(at, tz)
            ),
            None => "You can replace it until the deadline.".to_string(),
        };
        work.outcome.direct(
            &user.id,
            format!(
                "Game #{id}: {} for {label}: `{canonical}`. Receipt `{receipt}`: keep this code, the reveal will show the same one with your order. {until}{note}",
                if replaced { "order replaced" } else { "order received" },
            ),
        );
    }
    Ok(())
}

/// Resolves the orders phase now if every order is in and either the table allows early
/// resolution, or the deadline has passed and the computer sent the silent players' orders
/// (`nmr=bot`).
pub fn resolve_if_all_in(work: &mut Work<'_>, live: &mut Live) -> Result<(), Refusal> {
    let all_in = matches!(&work.record.phase, Some(Phase::Orders { .. }))
        && work.record.awaited().is_empty();
    if !all_in || work.record.status != Status::Running {
        return Ok(());
    }
    if !work.record.standing_in.is_empty() {
        resolve_orders(
            work,
            live,
            "the deadline passed; the computer sent the silent players' orders",
        )?;
    } else if work.record.stand_in_until.is_some() {
        // Every order the computer was to send came in from the players themselves, sent
        // before the deadline.
        resolve_orders(work, live, "the deadline passed")?;
    } else if work.record.settings.early && !work.record.held {
        resolve_orders(work, live, "every order is in")?;
    }
    Ok(())
}

/// Resolves the current orders phase: reveals every order, lets the game resolve, posts.
pub(super) fn resolve_orders(
    work: &mut Work<'_>,
    live: &mut Live,
    reason: &str,
) -> Result<(), Refusal> {
    let Some(Phase::Orders { seats, label }) = work.record.phase.clone() else {
        return Err(Refusal::new("No orders are awaited now."));
    };
    let orders: BTreeMap<Seat, String> = work
        .record
        .orders
        .iter()
        .filter(|(seat, _)| seats.contains(seat))
        .map(|(seat, order)| (*seat, order.text.clone()))
        .collect();
    let mut ctx = work.ctx(&mut live.dice);
    let events = live.game.resolve(&orders, &mut ctx)?;
    let round = work.record.round;
    let revealed: Vec<String> = seats
        .iter()
        .map(|seat| {
            let name = work.record.name(*seat);
            match work.record.orders.get(seat) {
                Some(order) if work.record.stood_in(*seat) => format!(
                    "{name}: `{}` (receipt `{}`; sent by the computer, nmr=bot)",
                    order.text, order.receipt
                ),
                Some(order) => format!("{name}: `{}` (receipt `{}`)", order.text, order.receipt),
                None if work.record.excused.contains(seat) => {
                    format!("{name}: no order (on vacation: the game's default)")
                }
                None => format!("{name}: no order (the game's default)"),
            }
        })
        .collect();
    moments::resolving(work, &seats.iter().copied().collect::<Vec<_>>());
    work.outcome.events.push(LogEvent {
        round,
        visibility: LogVisibility::Public,
        body: EventBody::Resolution(format!("{label} ({reason}); {}", revealed.join("; "))),
    });
    let mut lines = vec![format!("Orders for {label} ({reason}):")];
    lines.extend(revealed.iter().map(|line| format!("- {line}")));
    after_change(work, live, events, Some(lines.join("\n")), true)
}
