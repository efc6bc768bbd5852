//! `!rules [game]`: a game's rules for players, with every option `!new` takes and its
//! default (the channel's game when none is named).

use super::{Asked, Command, Reply, Run, SlashOption, Who};
use crate::chat::parse::ParseError;
use crate::table::outcome::Outcome;

/// `!rules`.
pub const COMMAND: Command = Command::new(
    "rules",
    Who::Anyone,
    "rules [game]",
    "the rules of a game for players, with every option `!new` takes and its default",
    Run::Answer(answer),
)
.reads(check)
.slash(&[SlashOption::game(
    "game",
    "Which game (the one in this channel if none)",
)])
.private();

/// Any game name is read (an unknown one is answered with the list).
fn check(_args: &str, _prefix: &str) -> Result<(), ParseError> {
    Ok(())
}

fn answer(asked: Asked<'_>) -> Reply<'_> {
    Box::pin(async move {
        let named = asked.args.split_whitespace().next().map(str::to_lowercase);
        let name = named.or_else(|| asked.game.map(|game| game.record.game.clone()));
        let typed = format!("{}rules", asked.prefix());
        Ok(match asked.service.rules_answer(name.as_deref(), &typed) {
            Ok(text) => {
                let mut outcome = Outcome::default();
                outcome.channel(asked.channel, text);
                outcome
            }
            Err(text) => asked.refuse(text),
        })
    })
}
