//! One input applied to one game: the pure heart of the table. Given the saved record, the
//! input and the time, it returns the new record, the posts and the audit events. It reads no
//! clock and touches no database, so `referee replay` can run it again and compare.

use super::catalogue::Catalogue;
use super::outcome::Outcome;
use super::undo::UndoTarget;
use super::{attendance, endings, lifecycle, rounds, searches, undo, vacation};
use crate::chat::{ChannelCommand, DmCommand};
use crate::dice::Dice;
use crate::games::{Ctx, Game, Refusal, Rules};
use crate::records::Audience;
use crate::records::{GameRecord, Input, User};
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

/// The result of applying one input.
pub struct Applied {
    /// The record to save (`None`: no game, as before).
    pub record: Option<GameRecord>,
    /// Posts and events.
    pub outcome: Outcome,
    /// Whether the input changed the game (and so belongs in the replay log).
    pub changed: bool,
}

/// Work in progress on one record: changes happen on a copy that is kept only on success.
pub(super) struct Work<'a> {
    pub record: GameRecord,
    pub outcome: Outcome,
    pub env: &'a Env<'a>,
}

/// A loaded game with its dice.
pub(super) struct Live {
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

    /// Refuses unless the user is the GM or a server admin.
    pub fn require_gm(&self, user: &User, admin: bool, command: &str) -> Result<(), Refusal> {
        if admin || user.id == self.record.gm.id {
            Ok(())
        } else {
            Err(Refusal::new(format!(
                "Only the GM ({}) or a server admin can use `{}{command}`.",
                self.record.gm.name, self.env.defaults.prefix
            )))
        }
    }
}

/// Applies `input` to the game in `record` (or to no game, for `!new`). `new_id` is the number
/// a game created by this input gets. A refusal changes nothing and answers the sender.
pub fn apply(record: Option<&GameRecord>, input: &Input, new_id: i64, env: &Env<'_>) -> Applied {
    match record {
        None => match without_game(input, new_id, env) {
            Ok(Some((record, outcome))) => Applied {
                record: Some(record),
                outcome,
                changed: true,
            },
            Ok(None) => Applied {
                record: None,
                outcome: Outcome::default(),
                changed: false,
            },
            Err(refusal) => Applied {
                record: None,
                outcome: refused(input, None, refusal),
                changed: false,
            },
        },
        Some(saved) => {
            let mut work = Work {
                record: saved.clone(),
                outcome: Outcome::default(),
                env,
            };
            match dispatch(&mut work, input) {
                Ok(true) => Applied {
                    record: Some(work.record),
                    outcome: work.outcome,
                    changed: true,
                },
                Ok(false) => Applied {
                    record: Some(saved.clone()),
                    outcome: work.outcome,
                    changed: false,
                },
                Err(refusal) => Applied {
                    record: Some(saved.clone()),
                    outcome: refused(input, Some(saved), refusal),
                    changed: false,
                },
            }
        }
    }
}

/// The answer to a refused input: to the channel it came from, or to the sender by DM.
fn refused(input: &Input, record: Option<&GameRecord>, refusal: Refusal) -> Outcome {
    match input {
        Input::Channel { channel, user, .. } => Outcome::refusal(
            Audience::Channel(channel.clone()),
            format!("{}: {}", user.name, refusal.0),
        ),
        Input::Direct { user, .. } => {
            Outcome::refusal(Audience::Direct(user.id.clone()), refusal.0)
        }
        Input::Undo { user, .. } => match record {
            Some(record) => Outcome::refusal(
                Audience::Channel(record.channel.clone()),
                format!("{}: {}", user.name, refusal.0),
            ),
            None => Outcome::default(),
        },
        Input::Deadline | Input::DeadlineMissed | Input::Reminder | Input::Verdict { .. } => {
            match record {
                Some(record) => {
                    Outcome::refusal(Audience::Channel(record.channel.clone()), refusal.0)
                }
                None => Outcome::default(),
            }
        }
    }
}

fn without_game(
    input: &Input,
    new_id: i64,
    env: &Env<'_>,
) -> Result<Option<(GameRecord, Outcome)>, Refusal> {
    let prefix = &env.defaults.prefix;
    match input {
        Input::Channel {
            channel,
            user,
            command: ChannelCommand::New { game, options },
            ..
        } => lifecycle::new_game(new_id, channel, user, game, options, env).map(Some),
        Input::Channel { .. } => Err(Refusal::new(format!(
            "There is no game in this channel. `{prefix}new <game>` opens one; `{prefix}games` lists them."
        ))),
        Input::Direct { .. } => Err(Refusal::new(format!(
            "You are not in any game. Sign up with `{prefix}join` in a game's channel."
        ))),
        Input::Undo { .. } => Err(Refusal::new(format!(
            "There is no game in this channel. `{prefix}new <game>` opens one."
        ))),
        Input::Deadline | Input::DeadlineMissed | Input::Reminder | Input::Verdict { .. } => {
            Ok(None)
        }
    }
}

/// Routes an input to the part of the table that handles it. `Ok(true)`: the game changed.
fn dispatch(work: &mut Work<'_>, input: &Input) -> Result<bool, Refusal> {
    let prefix = work.env.defaults.prefix.clone();
    match input {
        Input::Deadline => rounds::deadline_passed(work, false),
        Input::DeadlineMissed => rounds::deadline_passed(work, true),
        Input::Reminder => rounds::remind(work),
        Input::Verdict { key, verdict } => searches::verdict(work, key, verdict),
        Input::Undo { user, admin, .. } => {
            work.require_gm(user, *admin, "undo")?;
            let target = work.env.undo;
            undo::undo(work, target)
        }
        Input::Direct { user, command } => match command {
            DmCommand::Status => rounds::dm_status(work, user).map(|()| false),
            DmCommand::Help => {
                let rules = work.env.catalogue.find(&work.record.game);
                work.outcome
                    .direct(&user.id, crate::chat::help::dm_help(rules));
                Ok(false)
            }
            DmCommand::Setup(options) => lifecycle::secret_setup(work, user, options),
            DmCommand::Rules(_) => Err(Refusal::new(
                "`rules <game>` is answered before a game is loaded.",
            )),
            DmCommand::Order(text) => rounds::order(work, user, text),
            DmCommand::Vacation(length) => vacation::take(work, user, *length),
        },
        Input::Channel {
            user,
            admin,
            command,
            mentioned,
            ..
        } => {
            let admin = *admin;
            match command {
                ChannelCommand::New { .. } => Err(Refusal::new(format!(
                    "There is already a game in this channel (#{}, {}). One game per channel: \
                     the GM can `{prefix}end` it first.",
                    work.record.id, work.record.game
                ))),
                ChannelCommand::Join(symbol) => lifecycle::join(work, user, symbol.as_deref()),
                ChannelCommand::Leave => lifecycle::leave(work, user),
                ChannelCommand::Start => {
                    work.require_gm(user, admin, "start")?;
                    lifecycle::start(work)
                }
                ChannelCommand::Board => rounds::board(work).map(|()| false),
                ChannelCommand::Status => rounds::status(work).map(|()| false),
                ChannelCommand::Resolve => {
                    work.require_gm(user, admin, "resolve")?;
                    rounds::force(work)
                }
                ChannelCommand::Deadline(spec) => {
                    work.require_gm(user, admin, "deadline")?;
                    rounds::set_deadline(work, *spec)
                }
                ChannelCommand::Kick(who) => {
                    work.require_gm(user, admin, "kick")?;
                    lifecycle::kick(work, who, user)
                }
                ChannelCommand::Replace(old, new) => {
                    work.require_gm(user, admin, "replace")?;
                    let named = mentioned.iter().find(|user| user.id == *new);
                    let new = named.cloned().unwrap_or_else(|| User::named(new));
                    lifecycle::replace(work, old, &new, user)
                }
                ChannelCommand::Pause => {
                    work.require_gm(user, admin, "pause")?;
                    lifecycle::pause(work, user)
                }
                ChannelCommand::Resume => {
                    work.require_gm(user, admin, "resume")?;
                    lifecycle::resume(work)
                }
                ChannelCommand::End => {
                    work.require_gm(user, admin, "end")?;
                    lifecycle::end(work)
                }
                ChannelCommand::Game { word, args } => rounds::act(work, user, word, args),
                ChannelCommand::Who => {
                    let channel = work.record.channel.clone();
                    let text = attendance::who(&work.record, work.env.now);
                    work.outcome.channel(&channel, text);
                    Ok(false)
                }
                ChannelCommand::Concede => endings::concede(work, user),
                ChannelCommand::Draw(vote) => endings::draw(work, user, *vote),
                ChannelCommand::Undo => Err(Refusal::new(format!(
                    "`{prefix}undo` is worked out from the game's log before it is applied."
                ))),
                ChannelCommand::Games
                | ChannelCommand::Help(_)
                | ChannelCommand::Rules(_)
                | ChannelCommand::Log(_)
                | ChannelCommand::Audit => Err(Refusal::new(format!(
                    "`{prefix}games`, `{prefix}help`, `{prefix}rules`, `{prefix}log` and `{prefix}audit` are answered before a game is loaded."
                ))),
            }
        }
    }
}
