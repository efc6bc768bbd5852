//! Rounds and turns: secret orders and their receipts, public actions, deadlines, reminders,
//! resolution, and what is posted after every change.

use super::apply::{table_time, Live, Work};
use super::frame::framed;
use super::outcome::Post;
use super::{attendance, endings, quiet_hours, searches, vacation};
use crate::chat::deadline::{clock_time, format_deadline, precise_time};
use crate::chat::DeadlineSpec;
use crate::duration::{a_year, format_duration};
use crate::games::{Event, Phase, Refusal, Seat, Visibility};
use crate::records::{Audience, EventBody, LogEvent, LogVisibility};
use crate::records::{GameRecord, Status, StoredOrder, User};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The seats the game waits for now: the player whose turn it is, or those whose secret
/// order is still missing.
pub fn awaited(record: &GameRecord) -> Vec<Seat> {
    match &record.phase {
        Some(Phase::Turn { seat }) => vec![*seat],
        Some(Phase::Orders { seats, .. }) => seats
            .iter()
            .copied()
            .filter(|seat| !record.orders.contains_key(seat) && !record.excused.contains(seat))
            .collect(),
        _ => Vec::new(),
    }
}

/// A final ranking as "1. ann", "2. ben, cat" (seats sharing a place together).
pub fn places(record: &GameRecord, ranking: &[Vec<Seat>]) -> Vec<String> {
    ranking
        .iter()
        .enumerate()
        .map(|(place, seats)| {
            let names: Vec<String> = seats.iter().map(|s| record.name(*s)).collect();
            format!("{}. {}", place + 1, names.join(", "))
        })
        .collect()
}

/// Names in a sentence: "ann", "ann and ben", "ann, ben and cat".
pub fn names_in_words(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The phase in words, naming only the players still awaited, with the deadline.
pub fn describe_phase(record: &GameRecord) -> String {
    let mut text = match &record.phase {
        None => "Sign-ups are open.".to_string(),
        Some(Phase::Turn { seat }) => format!("It is {}'s turn.", record.name(*seat)),
        Some(Phase::Orders { label, .. }) => {
            let names: Vec<String> = awaited(record).iter().map(|s| record.name(*s)).collect();
            if names.is_empty() {
                format!("All orders for {label} are in; they resolve at the deadline.")
            } else {
                format!(
                    "Waiting for {label} by direct message from {}.",
                    names_in_words(&names)
                )
            }
        }
        Some(Phase::Over { .. }) => "The game is over.".to_string(),
    };
    match (&record.status, record.deadline) {
        (Status::Paused { .. }, _) => text.push_str(" The game is paused."),
        (_, Some(at)) => text.push_str(&format!(
            " Deadline: {}.",
            format_deadline(at, record.settings.tz.as_deref())
        )),
        _ => {}
    }
    text
}

/// The end-of-game reveal of the seed, with a check of the commitment anyone can run: the
/// commitment hashes the seed's 32 bytes, not the 64 hex digits they are written in.
pub fn seed_reveal(record: &GameRecord, prefix: &str) -> String {
    let seed = record.settings.seed;
    format!(
        "Seed: `{hex}`. The commitment posted at the start is the SHA-256 of these 32 bytes (not of the hex text): `printf {hex} | xxd -r -p | sha256sum` prints `{commitment}`. Every roll can be checked with `referee replay {id}` or on the page of `{prefix}audit`.",
        hex = seed.to_hex(),
        commitment = seed.commitment(),
        id = record.id,
    )
}

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

/// Everything that follows a change of the game: dice draws and game events into the log and
/// the channel (or DMs), the next phase with its deadline, the board, and the end.
pub fn after_change(
    work: &mut Work<'_>,
    live: &mut Live,
    events: Vec<Event>,
    heading: Option<String>,
    round_ends: bool,
) -> Result<(), Refusal> {
    let round = work.record.round;
    let channel = work.record.channel.clone();
    let awaited_before = awaited(&work.record);
    for draw in live.dice.take_draws() {
        let visibility = if draw.sealed {
            LogVisibility::Sealed
        } else {
            LogVisibility::Public
        };
        work.outcome.events.push(LogEvent {
            round,
            visibility,
            body: EventBody::Roll(draw),
        });
    }
    let mut public: Vec<String> = heading.into_iter().collect();
    let mut direct: Vec<(String, String)> = Vec::new();
    let something_happened = !events.is_empty();
    for event in events {
        let visibility = match event.visibility {
            Visibility::Public => {
                public.push(event.text.clone());
                LogVisibility::Public
            }
            Visibility::Seat(seat) => {
                if let Some(record) = work.record.seats.get(seat).filter(|s| s.present) {
                    direct.push((
                        record.user.id.clone(),
                        format!("Game #{}: {}", work.record.id, event.text),
                    ));
                }
                LogVisibility::Seat(seat)
            }
            Visibility::Sealed => LogVisibility::Sealed,
        };
        work.outcome.events.push(LogEvent {
            round,
            visibility,
            body: EventBody::Game(event.text),
        });
    }
    let phase = live.game.phase();
    let new_phase = round_ends || !same_phase(work.record.phase.as_ref(), &phase);
    if new_phase {
        work.record.round = match (&phase, live.game.round()) {
            (Phase::Over { .. }, _) => work.record.round,
            (_, Some(round)) => round,
            (Phase::Turn { seat }, None) if work.record.settings.revision >= 3 => {
                round_of_turn(&mut work.record, *seat)
            }
            (_, None) => work.record.round + 1,
        };
        work.record.orders.clear();
        work.record.excused.clear();
        work.record.held = false;
        work.record.extended = false;
        work.record.extended_from = None;
        work.record.phase_started = Some(work.env.when_sent());
    }
    let phase = match phase {
        Phase::Over { ranking } => Phase::Over {
            ranking: endings::final_ranking(&work.record, ranking),
        },
        phase => phase,
    };
    work.record.phase = Some(phase.clone());
    work.keep(live);
    let search = searches::note_pending(work, live);
    if let Phase::Over { ranking } = &phase {
        public.extend(game_over(work, ranking));
    } else if new_phase && work.record.status == Status::Running {
        let limit = work
            .record
            .settings
            .deadline
            .or_else(|| live.game.time_limit(&work.record.all_options()));
        let deadline = limit.and_then(|limit| work.env.now.checked_add_signed(limit));
        schedule(work, deadline);
        work.record.first_deadline = work.record.deadline;
        if let Some(text) = vacation::on_new_phase(work) {
            public.push(text);
        }
        public.push(describe_phase(&work.record));
    } else if work.record.status == Status::Running && awaited(&work.record) != awaited_before {
        // The same phase, waiting for fewer (a player left or was removed): say for whom.
        public.push(describe_phase(&work.record));
    }
    public.extend(search);
    if !public.is_empty() {
        let board = live.game.board();
        let show_board = new_phase || (something_happened && !live.game.board_when_turn_passes());
        let text = if show_board {
            format!("{}\n{}", public.join("\n"), board.text)
        } else {
            public.join("\n")
        };
        work.outcome.posts.push(Post {
            to: Audience::Channel(channel),
            text,
            svg: board
                .svg
                .filter(|_| show_board)
                .map(|svg| framed(&svg, &work.record, &live.game.marks())),
            card: None,
            file: None,
        });
    }
    for (user, text) in direct {
        work.outcome.direct(&user, text);
    }
    Ok(())
}

/// The game is over with `ranking`: no more deadlines; the final ranking and the seed's
/// reveal, to post.
pub fn game_over(work: &mut Work<'_>, ranking: &[Vec<Seat>]) -> Vec<String> {
    work.record.status = Status::Over;
    work.record.deadline = None;
    work.record.remind_at = None;
    let places = places(&work.record, ranking);
    work.outcome.table_event(
        work.record.round,
        format!("game over: {}", places.join("; ")),
    );
    vec![
        format!("Final ranking:\n{}", places.join("\n")),
        seed_reveal(&work.record, &work.env.defaults.prefix),
    ]
}

/// Whether `next` continues `current`: the same turn, or the same orders round (its set of
/// awaited seats may shrink when a player leaves).
/// The round of a new turn of `seat` in a game of turns: the current one, or the next when
/// `seat` has had its turn in it already or the phase before was not a turn (a round is
/// every seat's turn, whoever began it, so a bonus turn or a seat that left changes nothing).
fn round_of_turn(record: &mut GameRecord, seat: Seat) -> u64 {
    let after_a_turn = matches!(record.phase, Some(Phase::Turn { .. }));
    if !after_a_turn || record.turns_this_round.contains(&seat) {
        record.turns_this_round.clear();
        record.turns_this_round.push(seat);
        record.round + 1
    } else {
        record.turns_this_round.push(seat);
        record.round
    }
}

fn same_phase(current: Option<&Phase>, next: &Phase) -> bool {
    match (current, next) {
        (Some(Phase::Turn { seat: a }), Phase::Turn { seat: b }) => a == b,
        (Some(Phase::Orders { label: a, .. }), Phase::Orders { label: b, .. }) => a == b,
        (Some(Phase::Over { .. }), Phase::Over { .. }) => true,
        _ => false,
    }
}

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

/// Refuses unless the game is running; a paused game says by whom, and what a player may
/// still do.
fn running(work: &Work<'_>) -> Result<(), Refusal> {
    let record = &work.record;
    match &record.status {
        Status::Running => Ok(()),
        Status::SignUp => Err(Refusal::new(format!(
            "Game #{} has not started yet.",
            record.id
        ))),
        Status::Paused { by, .. } => {
            let orders = match &record.phase {
                Some(Phase::Orders { .. }) => {
                    " Secret orders by direct message are still taken meanwhile."
                }
                _ => "",
            };
            Err(Refusal::new(format!(
                "Game #{} is paused by {}: nothing is played or resolved until the GM types `{}resume`.{orders} `{}status` and `{}board` still answer.",
                record.id,
                by.as_deref().unwrap_or("the GM"),
                work.env.defaults.prefix,
                work.env.defaults.prefix,
                work.env.defaults.prefix
            )))
        }
        Status::Over => Err(Refusal::new(format!("Game #{} is over.", record.id))),
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

/// The current phase in a few words, for a refusal that judges an order against it:
/// "moves for round 2", "bob's turn, round 12".
fn phase_name(record: &GameRecord) -> String {
    match &record.phase {
        Some(Phase::Orders { label, .. }) => label.clone(),
        Some(Phase::Turn { seat }) => format!(
            "{}'s turn{}",
            record.name(*seat),
            super::card::round_words(record)
        ),
        Some(Phase::Over { .. }) => "the end of the game".to_string(),
        None => "sign-ups".to_string(),
    }
}

/// Refuses an order or action sent outside the current phase, however late it reached the
/// table: sent before the phase began (it was meant for an earlier one), or after the
/// phase's deadline. Both are judged by sent times (the message's, and that of the input
/// that began the phase), so a player who answers promptly is never refused because the bot
/// lagged, was down, or read the message back from the history.
fn check_sent_in_time(work: &Work<'_>, what: &str) -> Result<(), Refusal> {
    let Some(sent) = work.env.sent else {
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
        return Err(Refusal::new(format!(
            "Game #{id}: your {what} was sent at {}, after the deadline of {phase} ({}), so it was not taken; {phase} resolves without it.",
            when(sent),
            when(deadline)
        )));
    }
    Ok(())
}

/// A secret order by DM: checked by the game, stored (replacing an earlier one), receipted;
/// the round resolves when it was the last awaited.
pub fn order(work: &mut Work<'_>, user: &User, text: &str) -> Result<bool, Refusal> {
    taking_orders(work)?;
    let id = work.record.id;
    if work.record.seat_of(&user.id).is_none() {
        if user.id == work.record.gm.id {
            if searches::ask(work, user, text)? {
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
    let note = live
        .game
        .order_note(seat, &canonical)
        .map(|note| format!(" {note}"))
        .unwrap_or_default();
    let receipt = receipt(&work.record, work.record.round, seat, &canonical);
    let replaced = work.record.orders.contains_key(&seat);
    work.record.orders.insert(
        seat,
        StoredOrder {
            text: canonical.clone(),
            receipt: receipt.clone(),
            at: work.env.when_sent(),
        },
    );
    work.record.excused.remove(&seat);
    attendance::note(work, seat, &format!("order for {label}"));
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
        work.outcome.direct(
            &user.id,
            format!(
                "Game #{id}: {} for {label}: `{canonical}`. Receipt `{receipt}`: keep this code, the reveal will show the same one with your order. You can replace it until the deadline{}.{note}",
                if replaced { "order replaced" } else { "order received" },
                work.record.deadline.map(|at| format!(", {}", format_deadline(at, work.record.settings.tz.as_deref()))).unwrap_or_default()
            ),
        );
    }
    Ok(())
}

/// Posts `text` to the game's channel with the board, as text and as a picture.
pub fn post_board(work: &mut Work<'_>, live: &Live, text: String) {
    let board = live.game.board();
    work.outcome.posts.push(Post {
        to: Audience::Channel(work.record.channel.clone()),
        text: format!("{text}\n{}", board.text),
        svg: board
            .svg
            .map(|svg| framed(&svg, &work.record, &live.game.marks())),
        card: None,
        file: None,
    });
}

/// Resolves the orders phase now if the table allows early resolution and every order is in.
pub fn resolve_if_all_in(work: &mut Work<'_>, live: &mut Live) -> Result<(), Refusal> {
    let all_in = matches!(&work.record.phase, Some(Phase::Orders { .. }))
        && awaited(&work.record).is_empty();
    if work.record.settings.early
        && !work.record.held
        && all_in
        && work.record.status == Status::Running
    {
        resolve_orders(work, live, "every order is in")?;
    }
    Ok(())
}

/// Resolves the current orders phase: reveals every order, lets the game resolve, posts.
fn resolve_orders(work: &mut Work<'_>, live: &mut Live, reason: &str) -> Result<(), Refusal> {
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
                Some(order) => format!("{name}: `{}` (receipt `{}`)", order.text, order.receipt),
                None if work.record.excused.contains(seat) => {
                    format!("{name}: no order (on vacation: the game's default)")
                }
                None => format!("{name}: no order (the game's default)"),
            }
        })
        .collect();
    attendance::count_orders(work, seats.iter().copied());
    work.outcome.events.push(LogEvent {
        round,
        visibility: LogVisibility::Public,
        body: EventBody::Resolution(format!("{label} ({reason}); {}", revealed.join("; "))),
    });
    let mut lines = vec![format!("Orders for {label} ({reason}):")];
    lines.extend(revealed.iter().map(|line| format!("- {line}")));
    after_change(work, live, events, Some(lines.join("\n")), true)
}

/// The current turn times out: the game applies its default for the silent seat.
fn time_out(work: &mut Work<'_>, live: &mut Live, reason: &str) -> Result<(), Refusal> {
    let Some(Phase::Turn { seat }) = work.record.phase.clone() else {
        return Err(Refusal::new("No turn is running now."));
    };
    let mut ctx = work.ctx(&mut live.dice);
    let events = live.game.timeout(&mut ctx);
    attendance::count_turn(work, seat, None);
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

/// GM `!resolve`.
pub fn force(work: &mut Work<'_>) -> Result<bool, Refusal> {
    running(work)?;
    if searches::game_waits(&work.record) {
        return Err(Refusal::new(
            "The solver is still judging; the game goes on with its verdict in a moment.",
        ));
    }
    resolve_now(work, "forced by the GM")
}

/// The deadline input: resolves once if the deadline is really due; says why when late
/// (`missed`: it passed while the bot was not running).
pub fn deadline_passed(work: &mut Work<'_>, missed: bool) -> Result<bool, Refusal> {
    let now = work.env.now;
    let due = match work.record.deadline {
        Some(at) if at <= now && work.record.status == Status::Running => at,
        _ => return Ok(false),
    };
    let when = clock_time(due, work.record.settings.tz.as_deref());
    let reason = if let Some(away) = vacation::due_for_vacation(work) {
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

/// The reminder input: a DM to every awaited player who has not acted.
pub fn remind(work: &mut Work<'_>) -> Result<bool, Refusal> {
    let now = work.env.now;
    match work.record.remind_at {
        Some(at) if at <= now && work.record.status == Status::Running => {}
        _ => return Ok(false),
    }
    work.record.remind_at = None;
    let waiting = awaited(&work.record);
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

/// `status` by DM: the player's own situation and stored order.
pub fn dm_status(work: &mut Work<'_>, user: &User) -> Result<(), Refusal> {
    let id = work.record.id;
    let seat = work
        .record
        .seat_of(&user.id)
        .ok_or_else(|| Refusal::new(format!("You are not playing in game #{id}.")))?;
    let mut text = format!(
        "Game #{id} ({}). {}",
        work.record.game,
        describe_phase(&work.record)
    );
    if work.record.state.is_some() {
        let live = work.live()?;
        text.push('\n');
        text.push_str(&live.game.private_status(seat));
    }
    match work.record.orders.get(&seat) {
        Some(order) => text.push_str(&format!(
            "\nYour order: `{}` (receipt `{}`).",
            order.text, order.receipt
        )),
        None if matches!(&work.record.phase, Some(Phase::Orders { seats, .. }) if seats.contains(&seat)) => {
            text.push_str("\nYou have not sent an order yet.")
        }
        None => {}
    }
    work.outcome.direct(&user.id, text);
    Ok(())
}

/// `!board`.
pub fn board(work: &mut Work<'_>) -> Result<(), Refusal> {
    let post = board_post(work, true)?;
    work.outcome.posts.push(post);
    Ok(())
}

/// The board as posted in the channel, text and framed picture, with the prompt of the
/// player to move under it when `prompt` (not for a game that just ended).
pub fn board_post(work: &Work<'_>, prompt: bool) -> Result<Post, Refusal> {
    let live = work.live()?;
    let board = live.game.board();
    let text = match live.game.prompt().filter(|_| prompt) {
        Some(prompt) => format!("{}\n{prompt}", board.text),
        None => board.text,
    };
    let svg = board
        .svg
        .map(|svg| framed(&svg, &work.record, &live.game.marks()));
    Ok(Post {
        to: Audience::Channel(work.record.channel.clone()),
        text,
        svg,
        card: None,
        file: None,
    })
}

/// `!status`.
pub fn status(work: &mut Work<'_>) -> Result<(), Refusal> {
    let record = &work.record;
    let seated: Vec<String> = record
        .seats
        .iter()
        .filter(|s| s.present)
        .map(|s| s.user.name.clone())
        .collect();
    let mut text = format!(
        "Game #{} ({}), GM {}{}. Players: {}.",
        record.id,
        record.game,
        record.gm.name,
        super::card::round_words(record),
        if seated.is_empty() {
            "none yet".to_string()
        } else {
            seated.join(", ")
        }
    );
    if !record.waitlist.is_empty() {
        let names: Vec<&str> = record
            .waitlist
            .iter()
            .map(|s| s.user.name.as_str())
            .collect();
        text.push_str(&format!(" Waitlist: {}.", names.join(", ")));
    }
    text.push(' ');
    text.push_str(&describe_phase(record));
    let channel = record.channel.clone();
    work.outcome.channel(&channel, text);
    Ok(())
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
    schedule(work, Some(at));
    let text = format!(
        "The GM set the deadline: {}.",
        format_deadline(at, work.record.settings.tz.as_deref())
    );
    work.outcome.table_event(work.record.round, text.clone());
    let channel = work.record.channel.clone();
    work.outcome.channel(&channel, text);
    Ok(true)
}

/// A public action of the game (`!move ...`) by the player whose turn it is.
pub fn act(work: &mut Work<'_>, user: &User, word: &str, args: &str) -> Result<bool, Refusal> {
    if work.record.state.is_some() {
        let live = work.live()?;
        if let Some(answer) = live.game.query(word, args) {
            let channel = work.record.channel.clone();
            work.outcome.channel(&channel, answer?);
            return Ok(false);
        }
    }
    running(work)?;
    let id = work.record.id;
    let prefix = work.env.defaults.prefix.clone();
    let rules = work.env.catalogue.find(&work.record.game);
    if !rules.is_some_and(|rules| rules.commands().iter().any(|c| c.name == word)) {
        return Err(Refusal::new(format!(
            "There is no command `{prefix}{}` in {}. `{prefix}help` lists them.",
            crate::chat::parse::quote(word),
            work.record.game
        )));
    }
    let seat = work
        .record
        .seat_of(&user.id)
        .ok_or_else(|| Refusal::new(format!("You are not playing in game #{id}.")))?;
    match &work.record.phase {
        Some(Phase::Turn { seat: turn }) if *turn == seat => {}
        Some(Phase::Turn { seat: turn }) => {
            return Err(Refusal::new(format!(
                "It is {}'s turn, not yours.",
                work.record.name(*turn)
            )))
        }
        Some(Phase::Orders { label, .. }) => {
            return Err(Refusal::new(format!(
                "This round's {label} go to me by direct message, not in the channel."
            )))
        }
        _ => return Err(Refusal::new("Nothing can be played now.")),
    }
    check_sent_in_time(
        work,
        &format!(
            "`{prefix}{}`",
            crate::chat::parse::quote(format!("{word} {args}").trim())
        ),
    )?;
    let mut live = work.live()?;
    let mut ctx = work.ctx(&mut live.dice);
    let events = live.game.act(seat, word, args, &mut ctx)?;
    let round = work.record.round;
    attendance::note(work, seat, &format!("`{prefix}{word}`"));
    work.outcome.events.push(LogEvent {
        round,
        visibility: LogVisibility::Public,
        body: EventBody::Table(format!(
            "{} played `{prefix}{word} {args}`",
            work.record.name(seat)
        )),
    });
    let turn_before = (work.record.round, work.record.phase.clone());
    let in_time = attendance::in_time(work);
    after_change(work, &mut live, events, None, false)?;
    if (work.record.round, work.record.phase.clone()) != turn_before {
        attendance::count_turn(work, seat, Some(in_time));
    }
    Ok(true)
}
