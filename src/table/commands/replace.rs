//! `!replace @old @new|bot [level]`: the GM gives a player's seat to someone else, or to a
//! computer player.

use super::{Applies, Command, Said, SlashOption, Who, Words};
use crate::chat::mention;
use crate::chat::parse::mentions;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::records::ComputerLevel;
use crate::records::Phase;
use crate::records::{Attendance, Parting, Status, User};
use crate::table::computers::{self, next_computer};
use crate::table::rounds;
use crate::table::seats::{depart, not_playing};
use crate::table::work::Work;

/// `!replace`.
pub const COMMAND: Command = Command::applying::<Replacement>(
    "replace",
    Who::Gm,
    "replace @old @new|bot [easy|normal|hard]",
    "GM: gives a player's seat to someone else, or to a computer player (`bot`)",
)
.slash(&[
    SlashOption::user("old", "The player leaving"),
    SlashOption::user("new", "The player taking the seat (or give computer)").optional(),
    SlashOption::computer(
        "computer",
        "A computer player takes the seat instead, at this level: easy, normal or hard",
    ),
]);

/// Who takes a seat over.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Taker {
    /// A player (a mention, or a name on the console).
    Player(String),
    /// A computer player at this level (`bot`, `bot easy`).
    Computer(ComputerLevel),
}

/// The player leaving and who takes the seat.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Replacement {
    /// The player leaving.
    pub old: String,
    /// Who takes the seat.
    pub taker: Taker,
}

impl Words for Replacement {
    fn read(args: &str, prefix: &str) -> Result<Replacement, ParseError> {
        let is_bot = |word: &str| word.eq_ignore_ascii_case("bot");
        let named = mentions(args);
        let (old, taker) = match named.as_slice() {
            [old, bot] if is_bot(bot) => (old, Taker::Computer(ComputerLevel::Normal)),
            [old, bot, level] if is_bot(bot) => match ComputerLevel::parse(level) {
                Some(level) => (old, Taker::Computer(level)),
                None => return Err(ParseError(format!(
                    "`{level}` is not a computer level; use easy, normal (the default) or hard, like `{prefix}replace @bob bot easy`"
                ))),
            },
            [old, new] => (old, Taker::Player(new.clone())),
            _ => return Err(ParseError(format!(
                "`{prefix}replace` takes two players, the one leaving and the one taking the seat, like `{prefix}replace @bob @carol`, or `bot` for a computer player: `{prefix}replace @bob bot`"
            ))),
        };
        Ok(Replacement {
            old: old.clone(),
            taker,
        })
    }
}

impl Applies for Replacement {
    fn apply(self, work: &mut Work<'_>, said: &Said<'_>) -> Result<bool, Refusal> {
        let old = &self.old;
        match self.taker {
            Taker::Computer(level) if computers::known(work) => {
                replace_by_computer(work, old, said.user, level)
            }
            Taker::Computer(_) => replace(work, old, &User::named("bot"), said.user),
            Taker::Player(new) => {
                let named = said.mentioned.iter().find(|user| user.id == new);
                let new = named.cloned().unwrap_or_else(|| User::named(&new));
                replace(work, old, &new, said.user)
            }
        }
    }
}

/// `!replace @old @new`: the seat goes to another user; the game keeps its state. The new
/// player is told by DM what they now hold.
fn replace(work: &mut Work<'_>, old: &str, user: &User, by: &User) -> Result<bool, Refusal> {
    let id = work.record.id;
    let seat = work
        .record
        .seat_of(old)
        .ok_or_else(|| not_playing(old, by, id))?;
    if work.record.seat_of(&user.id).is_some() {
        return Err(Refusal::new(format!(
            "{} already plays in game #{id}.",
            user.name
        )));
    }
    let old_name = work.record.name(seat);
    let departs = work.record.status != Status::SignUp;
    if departs {
        depart(&mut work.record, seat, Parting::Replaced);
    }
    // The new player's deadlines are their own (from rules revision 5 on).
    let fresh = departs && work.record.settings.revision >= 5;
    let symbol = work.record.seats.get(seat).and_then(|s| s.symbol.clone());
    let replaced = work.record.seats.get(seat).map(|s| s.user.id.clone());
    if let Some(record) = work.record.seats.get_mut(seat) {
        record.user = user.clone();
        record.computer = None;
        if fresh {
            record.attendance = Attendance::default();
        }
    }
    work.record.standing_in.remove(&seat);
    // The new player makes the seat's secret order: one the old player left is not theirs
    // (from rules revision 1 on).
    if work.record.settings.revision > 0 {
        work.record.orders.remove(&seat);
    }
    let mut situation = String::new();
    if work.record.state.is_some() {
        let mut live = work.live()?;
        live.game.rename(seat, &user.name);
        situation = format!("\n{}", live.game.private_status(seat));
        work.keep(&live);
    }
    let channel = work.record.channel.clone();
    let text = format!("{} takes over {old_name}'s seat in game #{id}.", user.name);
    work.outcome.table_event(work.record.round, text.clone());
    match work.record.state.is_some() {
        true => {
            let live = work.live()?;
            let text = format!("{text}\n{}", rounds::describe_phase(&work.record));
            rounds::post_board(work, &live, text);
        }
        false => work.outcome.channel(&channel, text),
    }
    if let Some(before) = replaced {
        work.outcome.direct(
            &before,
            format!(
                "Game #{id}: the GM gave your seat in {} to {}; nothing you send for it is taken any more.",
                mention::channel(&channel),
                user.name
            ),
        );
    }
    let rules = work.env.catalogue.find(&work.record.game);
    let owed = if work.record.awaited().contains(&seat) {
        match &work.record.phase {
            Some(Phase::Orders { label, .. }) => {
                format!(" Your order for {label} is awaited: send it to me here.")
            }
            _ => format!(" It is your turn: play in {}.", mention::channel(&channel)),
        }
    } else {
        String::new()
    };
    work.outcome.direct(
        &user.id,
        format!(
            "The GM gave you {old_name}'s seat (seat {}{}) in game #{id} ({}) in {}. {}{owed}{situation}\n{}",
            seat + 1,
            symbol.map(|s| format!(", {s}")).unwrap_or_default(),
            work.record.game,
            mention::channel(&channel),
            rounds::describe_phase(&work.record),
            super::dm_help(rules),
        ),
    );
    Ok(true)
}

/// `!replace @player bot [level]`: the GM hands a seat to a computer player mid-game.
fn replace_by_computer(
    work: &mut Work<'_>,
    old: &str,
    by: &User,
    level: ComputerLevel,
) -> Result<bool, Refusal> {
    let computer = next_computer(&work.record);
    let replaced = replace(work, old, &computer, by)?;
    if let Some(seat) = work.record.seat_of(&computer.id) {
        if let Some(sat) = work.record.seats.get_mut(seat) {
            sat.computer = Some(level);
        }
    }
    Ok(replaced)
}
