//! `!log [round]`: the public audit log of a round (the current one by default): every roll
//! and resolution that is public now.

use super::{Answers, Asked, Command, Reply, SlashOption, Who, Words};
use crate::chat::parse::{quote, ParseError};
use crate::records::{GameRecord, LogVisibility};
use crate::store::{StoreError, Tx};
use crate::table::outcome::Outcome;

/// `!log`.
pub const COMMAND: Command = Command::answering::<Round>(
    "log",
    Who::Anyone,
    "log [round]",
    "shows the audit log of a round: every roll and resolution",
)
.slash(&[SlashOption::text("round", "The round")]);

/// The round asked for (`None`: the current one).
struct Round(Option<u64>);

impl Words for Round {
    fn read(args: &str, prefix: &str) -> Result<Round, ParseError> {
        match args {
            "" => Ok(Round(None)),
            round => round.parse::<u64>().map(|round| Round(Some(round))).map_err(|_| {
                ParseError(format!(
                    "`{prefix}log` takes a round number like 3, or nothing for the current round; got '{}'",
                    quote(round)
                ))
            }),
        }
    }
}

impl Answers for Round {
    fn answer(self, mut asked: Asked<'_>) -> Reply<'_> {
        let Round(round) = self;
        Box::pin(async move {
            let record = match asked.channel_game().await? {
                Ok(record) => record,
                Err(refusal) => return Ok(refusal),
            };
            let mut outcome = Outcome::default();
            let text = log_text(asked.tx, &record, round).await?;
            outcome.channel(asked.channel, text);
            Ok(outcome)
        })
    }
}

/// `!log`'s text: the public events of `round` (the current one, or the one before
/// when it has none yet).
async fn log_text(
    tx: &mut Tx,
    record: &GameRecord,
    round: Option<u64>,
) -> Result<String, StoreError> {
    let mut wanted = round.unwrap_or(record.round);
    let mut events = tx.events(record.id, Some(wanted)).await?;
    if round.is_none()
        && events
            .iter()
            .all(|e| e.event.visibility != LogVisibility::Public)
        && wanted > 0
    {
        wanted -= 1;
        events = tx.events(record.id, Some(wanted)).await?;
    }
    let lines: Vec<String> = events
        .iter()
        .filter(|e| e.event.visibility == LogVisibility::Public)
        .map(|e| match e.undone {
            true => format!("- (undone by the GM) {}", e.event.line()),
            false => format!("- {}", e.event.line()),
        })
        .collect();
    Ok(if lines.is_empty() {
        format!(
            "Game #{}, round {wanted}: nothing public in the log.",
            record.id
        )
    } else {
        format!("Game #{}, round {wanted}:\n{}", record.id, lines.join("\n"))
    })
}
