//! One input applied to one game: the pure heart of the table. Given the saved record, the
//! input and the time, it returns the new record, the posts and the audit events. It reads no
//! clock and touches no database, so `referee replay` can run it again and compare.

use super::attendance::Attendance;
use super::commands::{self, DirectRun, Run, Said};
use super::endings::Endings;
use super::outcome::Outcome;
use super::searches::Searches;
use super::vacation::Vacations;
use super::work::{Env, PhaseHook, Work};
use super::{legacy, private_threads, rounds, searches};
use crate::games::Refusal;
use crate::records::Audience;
use crate::records::{GameRecord, Input};

/// What else happens at the moments of a phase's life, in the order the phase engine calls
/// them at each moment: attendance, vacations, searches, endings.
const PHASE_HOOKS: &[&dyn PhaseHook] = &[&Attendance, &Vacations, &Searches, &Endings];

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
    let env = &Env {
        by_computer: input.by_computer(),
        ..*env
    };
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
                ending: false,
                hooks: PHASE_HOOKS,
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
        Input::Deadline
        | Input::DeadlineMissed
        | Input::Reminder
        | Input::Verdict { .. }
        | Input::Homed { .. }
        | Input::DmsClosed { .. }
        | Input::ThreadOpened { .. }
        | Input::ThreadLost { .. } => match record {
            Some(record) => Outcome::refusal(Audience::Channel(record.channel.clone()), refusal.0),
            None => Outcome::default(),
        },
    }
}

fn without_game(
    input: &Input,
    new_id: i64,
    env: &Env<'_>,
) -> Result<Option<(GameRecord, Outcome)>, Refusal> {
    let prefix = &env.defaults.prefix;
    if let Input::Channel {
        channel,
        user,
        text,
        command,
        ..
    } = input
    {
        let said = legacy::said(text, command.as_ref(), false);
        let (word, args) = commands::split(&said);
        if let Some(Run::Open(open)) = commands::find(&word).map(|command| &command.run) {
            return open(new_id, channel, user, args, env).map(Some);
        }
    }
    match input {
        Input::Channel { .. } => Err(Refusal::new(format!(
            "There is no game in this channel. `{prefix}new <game>` opens one; `{prefix}games` lists them."
        ))),
        Input::Direct { .. } => Err(Refusal::new(format!(
            "You are not in any game. Sign up with `{prefix}join` in a game's channel."
        ))),
        Input::Undo { .. } => Err(Refusal::new(format!(
            "There is no game in this channel. `{prefix}new <game>` opens one."
        ))),
        Input::Deadline
        | Input::DeadlineMissed
        | Input::Reminder
        | Input::Verdict { .. }
        | Input::Homed { .. }
        | Input::DmsClosed { .. }
        | Input::ThreadOpened { .. }
        | Input::ThreadLost { .. } => Ok(None),
    }
}

/// Routes an input to the part of the table that handles it. `Ok(true)`: the game changed.
fn dispatch(work: &mut Work<'_>, input: &Input) -> Result<bool, Refusal> {
    match input {
        Input::Deadline => rounds::deadline_passed(work, false),
        Input::DeadlineMissed => rounds::deadline_passed(work, true),
        Input::Reminder => rounds::remind(work),
        Input::Verdict { key, verdict } => searches::verdict(work, key, verdict),
        Input::Homed { channel } => commands::homed(work, channel),
        Input::DmsClosed { user } => private_threads::dms_closed(work, user),
        Input::ThreadOpened { user, channel } => private_threads::opened(work, user, channel),
        Input::ThreadLost { user, channel } => private_threads::lost(work, user, channel),
        Input::Undo { user, admin, .. } => {
            let undo = &commands::UNDO;
            work.require_gm(user, *admin, undo.name)?;
            let said = Said {
                user,
                channel: None,
                admin: *admin,
                mentioned: &[],
            };
            match undo.run {
                Run::Rebuild(run) => run(work, &said, ""),
                _ => Ok(false),
            }
        }
        Input::Direct {
            user,
            text,
            command,
            ..
        } => {
            let said = legacy::said(text, command.as_ref(), true);
            let read = commands::read_direct(&said).map_err(commands::unreadable)?;
            match read.direct.run {
                DirectRun::Apply { apply, .. } => apply(work, user, read.args),
                DirectRun::Answer(_) => Err(Refusal::new(format!(
                    "`{}` is answered before a game is loaded.",
                    read.command.name
                ))),
            }
        }
        Input::Channel {
            channel,
            user,
            admin,
            text,
            command,
            mentioned,
            ..
        } => {
            let said_text = legacy::said(text, command.as_ref(), false);
            let (word, args) = commands::split(&said_text);
            let said = Said {
                user,
                channel: Some(channel),
                admin: *admin,
                mentioned,
            };
            let Some(command) = commands::find(&word) else {
                return rounds::act(work, user, &word, args);
            };
            commands::apply(command, work, &said, *admin, args)
        }
    }
}
