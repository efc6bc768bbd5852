//! Rounds and turns, one idea per module: [`orders`] (secret orders and their receipts, and
//! a round's resolution), [`actions`] (public actions in the channel), [`deadlines`]
//! (deadlines, reminders, `!resolve` and `!deadline`), [`status`] (`!board`, `!status` and
//! `status` by DM), and [`change`] (what follows every change: the log, the next phase, the
//! board, the end). Here, what they all read: who is awaited, the phase in words, the
//! ranking, the seed's reveal.

mod actions;
mod change;
mod deadlines;
mod moments;
mod orders;
mod status;

pub use actions::act;
pub use change::{after_change, game_over, post_board};
pub use deadlines::{deadline_passed, force, remind, schedule, set_deadline};
pub use moments::turn_ended;
pub(crate) use orders::receipt;
pub use orders::{accept_order, order, resolve_if_all_in};
pub use status::{board, board_post, dm_status, status};

use super::work::Work;
use crate::chat::deadline::format_deadline;
use crate::chat::lists::names_in_words;
use crate::games::Refusal;
use crate::records::Phase;
use crate::records::{GameRecord, Status};

/// The phase in words, naming only the players still awaited, with the deadline.
pub fn describe_phase(record: &GameRecord) -> String {
    if record.ended_by_gm() {
        return "The game is over: the GM ended it.".to_string();
    }
    let mut text = match &record.phase {
        None => "Sign-ups are open.".to_string(),
        Some(Phase::Turn { seat }) => format!("It is {}'s turn.", record.name(*seat)),
        Some(Phase::Orders { label, .. }) => {
            let names: Vec<String> = record.awaited().iter().map(|s| record.name(*s)).collect();
            if names.is_empty() {
                format!("All orders for {label} are in; they resolve at the deadline.")
            } else {
                format!(
                    "Waiting for {label} by direct message from {}.",
                    names_in_words(&names)
                )
            }
        }
        Some(Phase::Over { ranking }) => {
            let first: Vec<String> = ranking
                .first()
                .into_iter()
                .flatten()
                .map(|seat| record.name(*seat))
                .collect();
            match first.len() {
                0 => "The game is over.".to_string(),
                1 => format!("The game is over: {} won.", first[0]),
                _ => format!(
                    "The game is over: {} shared first place.",
                    names_in_words(&first)
                ),
            }
        }
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

/// What a practice game says wherever it is shown (sign-ups, start, `!status`, the end): its
/// seed was chosen at the table.
pub const PRACTICE: &str = "Practice game: its dice seed was chosen at the table, not drawn by me, so its dice can be known in advance; it is not rated.";

/// The end-of-game reveal of the seed, with a check of the commitment anyone can run: the
/// commitment hashes the seed's 32 bytes, not the 64 hex digits they are written in.
pub fn seed_reveal(record: &GameRecord, prefix: &str) -> String {
    let settings = &record.settings;
    let hex = settings.seed.to_hex();
    let (shown, bytes, hashed) = match &settings.salt {
        Some(salt) => (
            format!("`{hex}`, and its salt `{}`", salt.to_hex()),
            "these 32 bytes followed by the salt's 32",
            format!("{hex}{}", salt.to_hex()),
        ),
        None => (format!("`{hex}`"), "these 32 bytes", hex.clone()),
    };
    format!(
        "Seed: {shown}. The commitment posted at the start is the SHA-256 of {bytes} (not of the hex text): `printf {hashed} | xxd -r -p | sha256sum` prints `{commitment}`. Every roll can be checked on the page `{prefix}audit` posts (the bot's operator can also run `referee replay {id}`).",
        commitment = settings.commitment(),
        id = record.id,
    )
}

/// Refuses unless the game is running; a paused game says by whom, and what a player may
/// still do.
pub(super) fn running(work: &Work<'_>) -> Result<(), Refusal> {
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
        Status::Over => Err(over(record, &work.env.defaults.prefix)),
    }
}

/// The one answer to a command that would change game `record` after it ended: that it is
/// over, and what still answers about it.
pub fn over(record: &GameRecord, prefix: &str) -> Refusal {
    Refusal::new(format!(
        "Game #{} ({}) is over: `{prefix}audit` posts its page, `{prefix}who` says who played and how each left, and `{prefix}new <game>` opens another here.",
        record.id, record.game
    ))
}

/// The current phase in a few words, for a refusal that judges an order against it:
/// "moves for round 2", "bob's turn, round 12".
pub(super) fn phase_name(record: &GameRecord) -> String {
    match &record.phase {
        Some(Phase::Orders { label, .. }) => label.clone(),
        Some(Phase::Turn { seat }) => format!(
            "{}'s turn{}",
            record.name(*seat),
            crate::table::card::round_words(record)
        ),
        Some(Phase::Over { .. }) => "the end of the game".to_string(),
        None => "sign-ups".to_string(),
    }
}
