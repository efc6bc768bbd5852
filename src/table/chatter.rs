//! Lines typed in a game channel that are not commands (no prefix), as the table reads them:
//! chatter, except a player's secret order typed in the open (not taken, and the channel
//! warned) or the move of the player whose turn it is typed without the prefix (not played,
//! and the player shown the line to type).

use super::catalogue::Catalogue;
use crate::chat::parse::QUOTED;
use crate::dice::Dice;
use crate::games::Ctx;
use crate::records::Phase;
use crate::records::{GameRecord, Status, User};
use chrono::{DateTime, Utc};

/// Whether `text`, posted in the game channel by `user`, is one of the player's secret orders:
/// a word of the game's orders after the prefix (`!bid 4`), or without it a whole valid order
/// for the phase awaiting the player (`bid 4`). Such a post is not taken; the channel is warned.
pub fn is_exposed_order(
    record: &GameRecord,
    catalogue: &Catalogue,
    user: &User,
    text: &str,
    prefix: &str,
) -> bool {
    let (Status::Running, Some(seat), Some(rules)) = (
        &record.status,
        record.seat_of(&user.id),
        catalogue.find(&record.game),
    ) else {
        return false;
    };
    let (prefixed, order) = match text.trim().strip_prefix(prefix) {
        Some(rest) => (true, rest.trim()),
        None => (false, text.trim()),
    };
    let word = order
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let is_order_word = rules.orders().iter().any(|order| order.name == word);
    if !is_order_word || rules.commands().iter().any(|command| command.is(&word)) {
        return false;
    }
    if prefixed {
        return true;
    }
    let awaited =
        matches!(&record.phase, Some(Phase::Orders { seats, .. }) if seats.contains(&seat));
    awaited
        && catalogue
            .load(record)
            .is_some_and(|game| game.check_order(seat, order).is_ok())
}

/// The warning after a secret order was posted in the channel: deleted there where the
/// platform could, otherwise public from now on; not taken either way.
pub fn exposed_order_warning(name: &str, deleted: bool) -> String {
    if deleted {
        format!(
            "{name}: secret orders go to me by direct message, never in the channel. I deleted your message so it stays secret; it was not taken. Send it to me by direct message."
        )
    } else {
        format!(
            "{name}: secret orders go to me by direct message, never in the channel. I could not delete your message, so that order is now public, and it was not taken. Send your order to me by direct message."
        )
    }
}

/// The answer to a line from the player whose turn it is that would be one of their legal
/// actions with the prefix (`place 0 -1 180` for `!place 0 -1 180`): the line to type. The
/// line is not played: chatter stays chatter, and `None` for anything else (someone else's
/// line, a word that is no action of the game, an action that would be refused, a line to
/// type longer than [`QUOTED`] characters).
/// The action is tried at `now`, the time the message is handled, on a copy that is dropped.
pub fn missing_prefix(
    record: &GameRecord,
    catalogue: &Catalogue,
    user: &User,
    text: &str,
    prefix: &str,
    now: DateTime<Utc>,
) -> Option<String> {
    let (Status::Running, Some(seat), Some(Phase::Turn { seat: turn }), Some(rules)) = (
        &record.status,
        record.seat_of(&user.id),
        &record.phase,
        catalogue.find(&record.game),
    ) else {
        return None;
    };
    let line = text.trim();
    if seat != *turn || line.contains('\n') {
        return None;
    }
    let (word, args) = match line.split_once(char::is_whitespace) {
        Some((word, args)) => (word.to_lowercase(), args.trim()),
        None => (line.to_lowercase(), ""),
    };
    // Only a name, typed without the prefix, is taken for a move: a short alias (`e`) is too
    // often a word of chatter.
    let command = rules
        .commands()
        .iter()
        .find(|command| command.name == word)?;
    let typed = match args {
        "" => format!("{prefix}{word}"),
        args => format!("{prefix}{word} {args}"),
    };
    // A line to type is offered only whole: a longer one is no missed move (`concede` takes
    // any words after it), and quoting it would repeat a long input.
    if typed.chars().count() > QUOTED {
        return None;
    }
    // Tried on a copy of the game and its dice, which are then dropped: nothing changes.
    let mut game = catalogue.load(record)?;
    let mut dice = Dice::resume(record.settings.seed, record.dice_position);
    let mut ctx = Ctx {
        now,
        dice: &mut dice,
        revision: record.settings.game_revision,
    };
    game.act(seat, command.name, args, &mut ctx).ok()?;
    Some(format!(
        "{}: did you mean `{typed}`? Actions start with `{prefix}`; that line was not played.",
        user.name
    ))
}
