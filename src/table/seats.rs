//! Who sits where, as the commands that seat and unseat players share it: a seat's symbol or
//! colour, how many seats a game takes, the welcome by DM, and a player leaving (by their
//! own `!leave`, the GM's `!kick` or `!replace`, or a concession).

use crate::chat::mention;
use crate::games::{Options, Player, Refusal, Rules};
use crate::records::{Departure, GameRecord, Parting, Seat, Status, User};
use crate::table::rounds;
use crate::table::work::Work;

/// The longest symbol or colour a player may ask for at `!join` (every game may set less).
pub(crate) const MAX_SYMBOL: usize = 20;

/// Refuses a colour outside the game's palette, naming the colours there are (a game with
/// no palette takes any symbol its own check allows).
pub(crate) fn in_palette(rules: &dyn Rules, wanted: Option<&str>) -> Result<(), Refusal> {
    let palette = rules.palette();
    let Some(wanted) = wanted.filter(|_| !palette.is_empty()) else {
        return Ok(());
    };
    let name = wanted
        .split_whitespace()
        .map(|word| word.to_lowercase().replace("gray", "grey"))
        .collect::<Vec<_>>()
        .join(" ");
    if palette.contains(&name.as_str()) {
        return Ok(());
    }
    Err(Refusal::new(format!(
        "'{}' is not one of the colours of {}; choose one of {}.",
        crate::chat::parse::quote(wanted),
        rules.name(),
        palette.join(", ")
    )))
}

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

/// A player who signs up is written to at once: the welcome says what goes by DM (secret
/// orders, `status`, `help`), and a player whose DMs are closed is found now (the platform
/// then tells the channel), not when the first secret phase or reminder comes.
pub(crate) fn welcome(work: &mut Work<'_>, rules: &dyn Rules, user: &User, dm_help: DmHelpText) {
    // A player whose private thread is coming is welcomed there.
    if work.record.settings.orders_in_threads {
        return;
    }
    let how = if rules.orders().is_empty() {
        format!(
            "You play in the channel with `{}` commands; I write to you here with reminders.",
            work.env.defaults.prefix
        )
    } else {
        "I take your secret orders here, by direct message.".to_string()
    };
    let text = format!(
        "Welcome to game #{} ({}) in {}. {how}\n{}",
        work.record.id,
        rules.name(),
        mention::channel(&work.record.channel),
        dm_help(Some(rules))
    );
    work.outcome.direct(&user.id, text);
}

/// The help by direct message for a game's player (the registry's, `commands::dm_help`),
/// handed in by the command that welcomes one.
pub(crate) type DmHelpText = fn(Option<&dyn Rules>) -> String;

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

/// The players as the game sees them: each present seat with its name and the symbol or
/// colour asked for.
pub(crate) fn seated(record: &GameRecord) -> Vec<Player> {
    record
        .seats
        .iter()
        .enumerate()
        .filter(|(_, seat)| seat.present)
        .map(|(seat, sat)| Player {
            seat,
            name: sat.user.name.clone(),
            symbol: sat.symbol.clone(),
            computer: sat.computer.is_some(),
        })
        .collect()
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
