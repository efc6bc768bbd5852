//! `!rules [game]`: a game's rules for players, with every option `!new` takes and its
//! default (the channel's game when none is named); by DM, `rules <game>`.

use super::{Asked, Command, Direct, DmHelp, Reply, Run, SlashOption, Takes, Who};
use crate::chat::parse::ParseError;
use crate::table::outcome::Outcome;
use crate::table::service::Service;

/// `!rules`.
pub const COMMAND: Command = Command::new(
    "rules",
    Who::Anyone,
    "rules [game]",
    "the rules of a game and its options (`!rules options`: the options every game takes)",
    Run::Answer(answer),
)
.reads(check)
.slash(&[SlashOption::game(
    "game",
    "Which game (the one in this channel if none)",
)])
.private()
.by_dm(
    Direct::answer("rules <game>", DmHelp::Listed("`rules <game>`"), by_dm)
        .takes(Takes::AtMostOneWord),
);

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

/// `rules <game>` by DM (a message of more words is an order).
pub(super) fn by_dm(service: &Service, args: &str) -> Option<Result<String, String>> {
    Some(service.rules_answer(Some(&args.to_lowercase()), "rules"))
}
