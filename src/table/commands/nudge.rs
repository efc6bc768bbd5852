//! `!nudge`: the GM sends a direct message to each player the game is waiting for now (the
//! player whose turn it is, or those whose secret order is missing), once a phase, so a quiet
//! table can be woken up without the GM writing to everyone by hand.

use super::{Command, Run, Said, Who};
use crate::chat::deadline::format_deadline;
use crate::chat::lists::names_in_words;
use crate::chat::mention;
use crate::games::Refusal;
use crate::records::Phase;
use crate::records::Status;
use crate::table::work::Work;

/// `!nudge`.
pub const COMMAND: Command = Command::new(
    "nudge",
    Who::Gm,
    "GM: sends a direct message to each player the game is waiting for now (once a phase)",
    Run::Apply(run),
)
.once_a_phase();

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    let record = &work.record;
    let id = record.id;
    match &record.status {
        Status::SignUp => return Err(Refusal::new(format!("Game #{id} has not started yet."))),
        Status::Over => {
            return Err(crate::table::rounds::over(
                record,
                &work.env.defaults.prefix,
            ))
        }
        Status::Paused { .. } => {
            return Err(Refusal::new(format!(
                "Game #{id} is paused: its clock is stopped, so nobody is nudged until `{}resume`.",
                work.env.defaults.prefix
            )))
        }
        Status::Running => {}
    }
    let now = work.env.now;
    let (away, nudged): (Vec<_>, Vec<_>) = record
        .awaited()
        .into_iter()
        .filter(|seat| {
            record
                .seats
                .get(*seat)
                .is_some_and(|s| s.present && s.computer.is_none())
        })
        .partition(|seat| record.seats[*seat].away_at(now));
    let away_names: Vec<String> = away.iter().map(|seat| record.name(*seat)).collect();
    if nudged.is_empty() {
        return Err(Refusal::new(match away_names.is_empty() {
            true => format!("Nobody is awaited in game #{id} now."),
            false => format!(
                "The only players awaited in game #{id} are on vacation: {}.",
                names_in_words(&away_names)
            ),
        }));
    }
    let what = match &record.phase {
        Some(Phase::Orders { label, .. }) => format!("your order for {label} is awaited"),
        _ => "it is your turn".to_string(),
    };
    let deadline = match record.deadline {
        Some(at) => format!(
            " Deadline: {}.",
            format_deadline(at, record.settings.tz.as_deref())
        ),
        None => String::new(),
    };
    let text = format!(
        "The GM of game #{id} in {} nudges you: {what}.{deadline}",
        mention::channel(&record.channel)
    );
    let users: Vec<String> = nudged
        .iter()
        .map(|seat| record.seats[*seat].user.id.clone())
        .collect();
    let names: Vec<String> = nudged.iter().map(|seat| record.name(*seat)).collect();
    let channel = record.channel.clone();
    let round = record.round;
    for user in &users {
        work.outcome.direct(user, text.clone());
    }
    let mut said = format!("Nudged by DM: {}.", names_in_words(&names));
    if !away_names.is_empty() {
        said.push_str(&format!(
            " Not nudged, on vacation: {}.",
            names_in_words(&away_names)
        ));
    }
    work.outcome.channel(&channel, said);
    work.outcome
        .table_event(round, format!("the GM nudged {}", names.join(", ")));
    Ok(true)
}
