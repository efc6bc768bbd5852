//! `!log [round]`: the public audit log of a round (the current one by default): every roll
//! and resolution that is public now.

use super::{Asked, Command, Reply, Run, SlashOption, Who};
use crate::chat::parse::{quote, ParseError};
use crate::table::outcome::Outcome;

/// `!log`.
pub const COMMAND: Command = Command::new(
    "log",
    Who::Anyone,
    "log [round]",
    "shows the audit log of a round: every roll and resolution",
    Run::Answer(answer),
)
.reads(check)
.slash(&[SlashOption::text("round", "The round")]);

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    parse(args, prefix).map(drop)
}

/// The round asked for (`None`: the current one).
fn parse(args: &str, prefix: &str) -> Result<Option<u64>, ParseError> {
    match args {
        "" => Ok(None),
        round => round.parse::<u64>().map(Some).map_err(|_| {
            ParseError(format!(
                "`{prefix}log` takes a round number like 3, or nothing for the current round; got '{}'",
                quote(round)
            ))
        }),
    }
}

fn answer(mut asked: Asked<'_>) -> Reply<'_> {
    Box::pin(async move {
        let round = match parse(asked.args, asked.prefix()) {
            Ok(round) => round,
            Err(error) => return Ok(asked.refuse(error)),
        };
        let record = match asked.channel_game().await? {
            Ok(record) => record,
            Err(refusal) => return Ok(refusal),
        };
        let service = asked.service;
        let mut outcome = Outcome::default();
        let text = service.log_text(asked.tx, &record, round).await?;
        outcome.channel(asked.channel, text);
        Ok(outcome)
    })
}
