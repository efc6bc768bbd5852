//! What every handler of the table works with: the surroundings of an input ([`Env`]: the
//! games, the defaults, the time), the record being changed on a copy ([`Work`]), and the
//! loaded game with its dice ([`Live`]), and what the phase engine (`rounds`) tells at each
//! moment of a phase's life ([`PhaseHook`]). Handlers import this; `apply` imports the
//! handlers and declares the hooks, so the table's modules depend one way.

use super::catalogue::Catalogue;
use super::outcome::Outcome;
use crate::dice::Dice;
use crate::games::{Ctx, Game, Refusal, Rules, Seat};
use crate::records::{GameRecord, Input, Recalled, User};
use chrono::{DateTime, Duration, Utc};

/// Table-wide defaults from the configuration.
#[derive(Clone, Debug)]
pub struct TableDefaults {
    /// The command prefix (`!`).
    pub prefix: String,
    /// How long before a deadline reminders go out.
    pub reminder: Duration,
    /// Whether an orders phase resolves as soon as every order is in.
    pub early: bool,
    /// A fixed length for every phase (`None`: each game's own time limits).
    pub deadline: Option<Duration>,
    /// How late a deadline may fire before the channel is told it resolved late.
    pub late_after: Duration,
    /// How many commands one account may send in how long (see [`super::flood`]).
    pub flood: (u32, Duration),
    /// How many games not over one account may run as GM at once (server admins excepted).
    pub games_per_gm: usize,
    /// How many steps a search (Short Circuit's solver, on an impossible call or the GM's
    /// hint) may take before it answers that it cannot tell.
    pub search_steps: u64,
    /// How long a `hard` computer player thinks about one decision.
    pub computer_think: std::time::Duration,
    /// How many rollouts a `hard` computer player plays for one decision at most.
    pub computer_rollouts: u32,
    /// How many rated games a player needs to appear on `!leaderboard`.
    pub leaderboard_games: u32,
}

/// Where an undo returns: the game's record before the first input taken back, and that
/// input (an order that resolved its round is kept in force).
#[derive(Clone, Debug)]
pub struct UndoTarget {
    /// The record before the first input taken back.
    pub before: GameRecord,
    /// The first input taken back.
    pub first: Input,
    /// The `hard` computers' moves taken back, remembered so they are made again.
    pub recalled: Vec<Recalled>,
}

/// What the table knows besides the record: the games, the defaults and the time.
pub struct Env<'a> {
    /// The games on offer.
    pub(crate) catalogue: &'a Catalogue,
    /// Configuration defaults.
    pub(crate) defaults: &'a TableDefaults,
    /// The time of the input, in the table's precision (see [`table_time`]).
    pub(crate) now: DateTime<Utc>,
    /// When the input was sent, where that differs from `now`: the platform's time for a
    /// message (which may reach the table late: the bot lagged, or read it back after
    /// downtime), the deadline's own time for a deadline that fired. A phase begins at the
    /// sent time of the input that began it, and an order sent before its phase began or
    /// after its deadline is refused. Logged with the input, so replay judges it again the
    /// same way. `None`: sent at `now` (the console).
    pub(crate) sent: Option<DateTime<Utc>>,
    /// For an undo (`Input::Undo`): where the game returns, rebuilt from its log by the
    /// caller (the live table, or the replay).
    pub(crate) undo: Option<&'a UndoTarget>,
    /// Whether the computer decided the input (a computer seat's move, or its move for a
    /// silent player, `nmr=bot`): taken for the position it was decided at, never judged
    /// against the deadline (from rules revision 6 on).
    pub(crate) by_computer: bool,
}

impl<'a> Env<'a> {
    /// The surroundings of an input arriving at `now` (cut to the table's precision).
    pub fn new(
        catalogue: &'a Catalogue,
        defaults: &'a TableDefaults,
        now: DateTime<Utc>,
    ) -> Env<'a> {
        Env {
            catalogue,
            defaults,
            now: table_time(now),
            sent: None,
            undo: None,
            by_computer: false,
        }
    }

    /// The same, for an undo returning to `target`.
    pub fn undoing(self, target: Option<&'a UndoTarget>) -> Env<'a> {
        Env {
            undo: target,
            ..self
        }
    }

    /// The same, for an input sent at `sent` (cut to the table's precision, and never after
    /// `now`: a platform's clock a little ahead of ours does not put a message in the future).
    pub fn sent_at(self, sent: Option<DateTime<Utc>>) -> Env<'a> {
        Env {
            sent: sent.map(|sent| table_time(sent).min(self.now)),
            ..self
        }
    }

    /// When the input was sent: the platform's or the deadline's time, else `now`.
    pub(crate) fn when_sent(&self) -> DateTime<Utc> {
        self.sent.unwrap_or(self.now)
    }
}

/// A time as the table keeps it: whole milliseconds. The replay log stores each input's time
/// in milliseconds, so every time that enters a game (an input's, a deadline set by the GM) is
/// cut to that precision at the door: a game then replays to the same deadlines and order
/// times whatever clock it was played on.
pub fn table_time(at: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(at.timestamp_millis()).unwrap_or(at)
}

/// Work in progress on one record: changes happen on a copy that is kept only on success.
pub(crate) struct Work<'a> {
    pub record: GameRecord,
    pub outcome: Outcome,
    pub env: &'a Env<'a>,
    /// The table ends the game right after this change (the last player in after a
    /// concession): the change is logged, but the channel is told no next turn.
    pub ending: bool,
    /// What else happens at the moments of a phase's life, in the order they are called.
    pub hooks: &'static [&'static dyn PhaseHook],
}

/// What else must happen at a moment of a phase's life, beside the phase engine's own work
/// (`rounds`: begin, await, remind, deadline, resolve, end): attendance, vacations,
/// searches, endings. The engine calls every hook at each moment, in the order `apply`
/// declares them; a hook may import the engine, the engine never imports a hook. A moment
/// a hook does not implement changes nothing.
pub(crate) trait PhaseHook: Sync {
    /// `seat`'s answer was taken: an order, or a public action (`what`, in words). `now`:
    /// an answer of now (not an order an undo put back in force).
    fn answered(&self, _work: &mut Work<'_>, _seat: Seat, _what: &str, _now: bool) {}

    /// `seat`'s turn ended: played in time (`Some(true)`), late (`Some(false)`), or timed
    /// out (`None`).
    fn turn_ended(&self, _work: &mut Work<'_>, _seat: Seat, _played: Option<bool>) {}

    /// An orders phase is resolving with the orders of `seats` (sent or missing).
    fn resolving(&self, _work: &mut Work<'_>, _seats: &[Seat]) {}

    /// The game ended with `ranking`, the game's own: the ranking the table keeps.
    fn final_ranking(&self, _record: &GameRecord, ranking: Vec<Vec<Seat>>) -> Vec<Vec<Seat>> {
        ranking
    }

    /// The game changed and its state is kept: a line for the channel that stands for the
    /// board (a search just asked, whose verdict shows the next board).
    fn changed(&self, _work: &mut Work<'_>, _live: &Live) -> Option<String> {
        None
    }

    /// A new phase began and its deadline is set: a line for the channel.
    fn phase_begun(&self, _work: &mut Work<'_>) -> Option<String> {
        None
    }

    /// The deadline passed: why the phase resolves, where a hook has a reason of its own.
    fn deadline_reason(&self, _work: &Work<'_>) -> Option<String> {
        None
    }

    /// A direct message from the game's GM that is no order: `Ok(true)` when a hook took it.
    fn gm_message(&self, _work: &mut Work<'_>, _user: &User, _text: &str) -> Result<bool, Refusal> {
        Ok(false)
    }
}

/// A loaded game with its dice.
pub(crate) struct Live {
    pub rules: &'static dyn Rules,
    pub game: Box<dyn Game>,
    pub dice: Dice,
}

impl Work<'_> {
    /// Loads the game's state (a corrupt row is a refusal that changes nothing).
    pub fn live(&self) -> Result<Live, Refusal> {
        let record = &self.record;
        let rules = self.env.catalogue.find(&record.game).ok_or_else(|| {
            Refusal::new(format!(
                "Game #{} is a '{}' game, which this bot no longer hosts.",
                record.id, record.game
            ))
        })?;
        let state = record
            .state
            .as_ref()
            .ok_or_else(|| Refusal::new(format!("Game #{} has not started yet.", record.id)))?;
        let game = rules.load(state).map_err(|error| {
            Refusal::new(format!(
                "Game #{}'s saved state is unreadable ({error}); nothing was changed. \
                 The GM can inspect it with `referee export {} --secret`.",
                record.id, record.id
            ))
        })?;
        let dice = Dice::resume(record.settings.seed, record.dice_position);
        Ok(Live { rules, game, dice })
    }

    /// Whether the input was sent before the current phase's first deadline (however late
    /// the bot got round to it).
    pub fn sent_in_time(&self) -> bool {
        self.record
            .first_deadline
            .is_none_or(|deadline| self.env.when_sent() <= deadline)
    }

    /// Saves the game's state and dice position into the record.
    pub fn keep(&mut self, live: &Live) {
        self.record.state = Some(live.game.save());
        self.record.dice_position = live.dice.position();
    }

    /// A context for the game at this input's time.
    pub fn ctx<'d>(&self, dice: &'d mut Dice) -> Ctx<'d> {
        Ctx {
            now: self.env.now,
            dice,
            revision: self.record.settings.game_revision,
        }
    }

    /// Refuses unless the user is the GM or a server admin. The command is named without
    /// its prefix: the refusal answers `/nudge` as well as `!nudge`.
    pub fn require_gm(&self, user: &User, admin: bool, command: &str) -> Result<(), Refusal> {
        if admin || user.id == self.record.gm.id {
            Ok(())
        } else {
            Err(Refusal::new(format!(
                "Only the GM ({}) or a server admin can use `{command}`.",
                self.record.gm.name
            )))
        }
    }
}

/// The table's rules revision, logged with every `!new` (as `revision=`, which the table
/// sets, never the GM): raised whenever a change would make an older game's log give other
/// events on replay, so each game keeps the rules it began under.
/// - 1: receipts are keyed commitments (64 bits of HMAC-SHA-256 under a key of the seed) in
///   place of 32 bits of a plain SHA-256 of the order, which anyone could try orders against.
/// - 2: the most seats follow the game's options ([`Rules::players_with`]: base Carcassonne
///   takes a fifth sign-up, not a sixth it could not start with).
/// - 3: a round of a game of turns is every seat's turn (Parcheesi's three players' 60th
///   turn is round 20, not round 60); texts reworded (durations in words, times in the
///   game's zone, Carcassonne's prompts).
/// - 4: computer players: `!join bot` and `!replace @player bot` seat one (before, `bot` was
///   a symbol asked for, or a console user's name).
/// - 5: the record keeps who left a running game and how, and how long each player took to
///   answer each phase (for the ratings and `!stats`).
/// - 6: the computer standing in for silent players (`nmr=bot`) has a time of its own and
///   leaves the deadline where it passed, so a player's order sent after it is refused and
///   one sent before it is the player's; a turn that comes back to the same player after
///   the others' turns played themselves is a new turn, with its own deadline and post.
/// - 7: a computer player is called "Computer 1" (before: "Bot 1 (computer)", whose brackets
///   nested inside the games' own: "green (Bot 1 (computer))").
/// - 8: one rule ranks those who left, in the final ranking and in the ratings alike: a
///   conceder is placed below everyone still in when it conceded; whoever left otherwise
///   (left, removed by the GM) shares the last place, whatever the game's own ranking said;
///   two computer seats of one level are rated once, as the better of them, never against
///   each other.
/// - 9: the GM waits for a computer seat's move: while one is owed, for a minute from the
///   start of its phase or turn, `!resolve` is refused and so is a deadline sooner than that
///   (before, a GM who plays could hand the computer the game's default instead of its move).
pub const REVISION: u32 = 9;
