//! One input applied to one game: the pure heart of the table. Given the saved record, the
//! input and the time, it returns the new record, the posts and the audit events. It reads no
//! clock and touches no database, so `referee replay` can run it again and compare.

use super::outcome::Outcome;
use super::work::{Env, Work};
use super::{attendance, endings, lifecycle, rounds, searches, undo, vacation};
use crate::chat::{ChannelCommand, DmCommand};
use crate::games::Refusal;
use crate::records::Audience;
use crate::records::{GameRecord, Input, User};

/// The result of applying one input.
pub struct Applied {
    /// The record to save (`None`: no game, as before).
    pub record: Option<GameRecord>,
    /// Posts and events.
    pub outcome: Outcome,
    /// Whether the input changed the game (and so belongs in the replay log).
    pub changed: bool,
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
