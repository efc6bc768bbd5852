//! `!games`: the games this bot hosts, each in one line with its options.

use super::{Asked, Command, Reply, Run, Who};
use crate::chat::help::games_text;
use crate::table::outcome::Outcome;

/// `!games`.
pub const COMMAND: Command = Command::new(
    "games",
    Who::Anyone,
    "games",
    "lists the games this bot hosts",
    Run::Answer(answer),
);

fn answer(asked: Asked<'_>) -> Reply<'_> {
    Box::pin(async move {
        let mut outcome = Outcome::default();
        let text = games_text(asked.service.catalogue().all(), asked.prefix());
        outcome.channel(asked.channel, text);
        Ok(outcome)
    })
}
