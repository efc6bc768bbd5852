//! `!games`: the games this bot hosts, each in one line with its options, and the games not
//! over on this server with where each lives (a channel, a thread, a forum post).

use super::{Asked, Command, Reply, Run, Who};
use crate::chat::help::games_text;
use crate::chat::mention;
use crate::table::outcome::Outcome;

/// `!games`.
pub const COMMAND: Command = Command::new(
    "games",
    Who::Anyone,
    "lists the games this bot hosts, and those being played on this server with where each lives",
    Run::Answer(answer),
);

/// The most games not over `!games` names.
const LISTED: usize = 15;

fn answer(asked: Asked<'_>) -> Reply<'_> {
    Box::pin(async move {
        let mut outcome = Outcome::default();
        let mut text = games_text(asked.table.catalogue().all(), asked.prefix());
        let open = asked.tx.open_games_on(asked.server, LISTED).await?;
        if !open.is_empty() {
            let listed: Vec<String> = open
                .iter()
                .map(|record| {
                    format!(
                        "#{} {} in {} ({})",
                        record.id,
                        record.game,
                        mention::channel(&record.channel),
                        record.status.word()
                    )
                })
                .collect();
            text.push_str(&format!(
                "\nPlaying here, newest first: {}.",
                listed.join("; ")
            ));
        }
        outcome.channel(asked.channel, text);
        Ok(outcome)
    })
}
