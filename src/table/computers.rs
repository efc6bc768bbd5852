//! Computer players at the table. A computer seat (`!join bot`, `!replace @p bot`) is a seat
//! like another whose moves a game's computer player decides. The record says which seats owe
//! one now ([`GameRecord::computers_owed`]); whoever runs the table (the Discord adapter on a
//! thread of its own, the console at once) decides beside the table, from the game as the seat
//! sees it, and brings the decision back as the seat's own input (a secret order by DM, an
//! action in the channel), logged like a person's, so a replay never decides again.

use super::catalogue::Catalogue;
use super::work::Work;
use crate::dice::Seed;
use crate::games::search::{Budget, TimeUp};
use crate::games::{Decision, Game, Level, Refusal, Seat};
use crate::records::{ComputerLevel, GameRecord, Input, Recalled, User};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};
use std::time::{Duration, Instant};

/// How long a `hard` computer thinks about a decision, and how many rollouts it plays at
/// most (the table's `computer_think` and `computer_rollouts`).
#[derive(Clone, Copy, Debug)]
pub struct Think {
    /// Its time, from when it begins.
    pub time: Duration,
    /// Its rollouts.
    pub rollouts: u32,
}

/// The games' level for a seat's; `hard` thinks as `think` says, its time counted from now.
pub fn level(level: ComputerLevel, think: Think) -> Level {
    match level {
        ComputerLevel::Easy => Level::Easy,
        ComputerLevel::Normal => Level::Normal,
        ComputerLevel::Hard => {
            let began = Instant::now();
            Level::Hard(Budget {
                rollouts: think.rollouts,
                time_up: TimeUp::when(move || began.elapsed() >= think.time),
            })
        }
    }
}

/// The level named after `bot` (`normal` when none is); a refusal names the levels.
pub fn level_named(words: &str) -> Result<ComputerLevel, Refusal> {
    match words.trim() {
        "" => Ok(ComputerLevel::Normal),
        word => ComputerLevel::parse(word).ok_or_else(|| {
            Refusal::new(format!(
                "`{word}` is not a computer level; use easy, normal (the default) or hard"
            ))
        }),
    }
}

/// The next computer player of the game: one past the highest numbered among those who sit,
/// sat or wait in it (so no two ever share a number).
pub(crate) fn next_computer(record: &GameRecord) -> User {
    let highest = record
        .seats
        .iter()
        .chain(&record.waitlist)
        .filter_map(|seat| seat.user.computer_number())
        .max()
        .unwrap_or(0);
    let n = highest + 1;
    let name = match record.settings.revision >= PLAIN_NAMES_FROM {
        true => format!("Computer {n}"),
        false => format!("Bot {n} (computer)"),
    };
    User::computer(n, name)
}

/// The table's rules revision from which a computer player is called "Computer 1": a name
/// nobody takes for a person's, with no brackets of its own to nest in a game's text (before:
/// "Bot 1 (computer)").
const PLAIN_NAMES_FROM: u32 = 7;

/// Whether the game was opened under the table's rules that know computer players (an older
/// game reads `bot` as it did then: a symbol, or a console user's name).
pub fn known(work: &Work<'_>) -> bool {
    work.record.settings.revision >= COMPUTERS_FROM
}

/// The table's rules revision that brought computer players.
const COMPUTERS_FROM: u32 = 4;

/// The position a decision is taken for: the round, the phase and the game's state. A
/// decision brought back once the game has moved on is dropped.
pub fn position(record: &GameRecord) -> String {
    format!(
        "{}|{:?}|{}",
        record.round,
        record.phase,
        record
            .state
            .as_ref()
            .map(|state| state.to_string())
            .unwrap_or_default()
    )
}

/// Where a computer decides, as a move taken back remembers it ([`Recalled::at`]): the round,
/// the phase and what of the game's state a decision reads ([`Game::position`]), as a digest.
fn recall_key(record: &GameRecord, game: &dyn Game) -> String {
    let position = format!("{}|{:?}|{}", record.round, record.phase, game.position());
    hex::encode(Sha256::digest(position.as_bytes()))
}

/// The move the `hard` computer in `seat` made where `game` stands before an undo took it
/// back, if it did: it makes it again, so the GM's undo gets no second opinion from it.
pub fn recalled(record: &GameRecord, game: &dyn Game, seat: Seat) -> Option<Decision> {
    let sat = record.seats.get(seat)?;
    if record.recalled.is_empty() || sat.computer != Some(ComputerLevel::Hard) {
        return None;
    }
    let at = recall_key(record, game);
    record
        .recalled
        .iter()
        .find(|recalled| recalled.seat == seat && recalled.user == sat.user.id && recalled.at == at)
        .map(|recalled| match recalled.order {
            true => Decision::Order(recalled.text.clone()),
            false => Decision::Action(recalled.text.clone()),
        })
}

/// The move `input` is, applied to `before` (the game `catalogue` loads), when a `hard`
/// computer seat decided it: what an undo that takes it back remembers.
pub fn to_recall(catalogue: &Catalogue, before: &GameRecord, input: &Input) -> Option<Recalled> {
    let (user, order, text) = match input {
        Input::Direct {
            user,
            text,
            computer: true,
            ..
        } => (user, true, text),
        Input::Channel {
            user,
            text,
            computer: true,
            ..
        } => (user, false, text),
        _ => return None,
    };
    let seat = before.seat_of(&user.id)?;
    if before.seats[seat].computer != Some(ComputerLevel::Hard) {
        return None;
    }
    let game = catalogue.load(before)?;
    Some(Recalled {
        seat,
        user: user.id.clone(),
        at: recall_key(before, game.as_ref()),
        order,
        text: text.clone(),
    })
}

/// The computer's own random stream for `seat` at `position` in a game of seed `seed`: fixed
/// by where it decides (the same position gets the same decision), never drawn from the
/// game's dice, and keyed by the secret seed, so its choices tell nobody anything about the
/// position's hidden part (which `position` holds) before the seed is revealed.
fn stream(seed: &Seed, seat: Seat, position: &str) -> ChaCha8Rng {
    let key: [u8; 32] = Sha256::new()
        .chain_update(b"referee computer player")
        .chain_update(seed.0)
        .chain_update(seat.to_le_bytes())
        .chain_update(position.as_bytes())
        .finalize()
        .into();
    ChaCha8Rng::from_seed(key)
}

/// What the computer in `seat` at `strength` (`hard` thinking for `think`) decides in a game
/// of seed `seed` at `position`.
pub fn decide(
    game: &dyn Game,
    seed: &Seed,
    seat: Seat,
    (strength, think): (ComputerLevel, Think),
    position: &str,
) -> Option<Decision> {
    game.computer(
        seat,
        level(strength, think),
        &mut stream(seed, seat, position),
    )
}

/// The seat's input carrying `decision`: its secret order by DM, or its action in the channel,
/// marked as the computer's.
pub fn input(record: &GameRecord, seat: Seat, decision: Decision) -> Option<Input> {
    let user = record.seats.get(seat)?.user.clone();
    Some(match decision {
        Decision::Order(text) => Input::Direct {
            user,
            text,
            command: None,
            computer: true,
        },
        Decision::Action(text) => Input::Channel {
            channel: record.channel.clone(),
            user,
            admin: false,
            text,
            command: None,
            mentioned: Vec::new(),
            computer: true,
        },
    })
}
