//! `!audit [number]` (and `/audit`): a finished game's audit page (the channel's last game,
//! or an earlier game of the channel by its number, as `!stats` lists them), posted as an
//! HTML file in which a browser checks the seed against its commitment and every roll
//! against the seed. A game is audited only in its own channel: whoever may read a channel
//! may read its games' logs, nobody else.

use super::{Asked, Command, Reply, Run, SlashOption, Who};
use crate::chat::parse::{quote, ParseError};
use crate::records::{Attachment, Audience, Status};
use crate::table::outcome::{Outcome, Post};

/// `!audit`.
pub const COMMAND: Command = Command::new(
    "audit",
    Who::Anyone,
    "audit [number]",
    "posts a finished game's audit page (this channel's last game, or an earlier one by number), in which your browser checks the seed and every roll",
    Run::Answer(answer),
)
.reads(check)
.slash(&[SlashOption::text(
    "game",
    "A finished game's number (this channel's last game if none)",
)]);

/// The game's number asked for, if one is (`12` or `#12`).
fn number(args: &str, prefix: &str) -> Result<Option<i64>, ParseError> {
    let args = args.trim();
    if args.is_empty() {
        return Ok(None);
    }
    args.trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .map(Some)
        .ok_or_else(|| {
            ParseError(format!(
                "`{prefix}audit` takes a game's number, like `{prefix}audit 12`, or nothing for this channel's last game; got '{}'",
                quote(args)
            ))
        })
}

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    number(args, prefix).map(drop)
}

fn answer(mut asked: Asked<'_>) -> Reply<'_> {
    Box::pin(async move {
        let prefix = asked.prefix().to_string();
        let asked_for = match number(asked.args, &prefix) {
            Ok(asked_for) => asked_for,
            Err(error) => return Ok(asked.refuse(error.0)),
        };
        let record = match asked_for {
            None => match asked.channel_game().await? {
                Ok(record) => record,
                Err(refusal) => return Ok(refusal),
            },
            Some(id) => match asked.tx.game(id).await? {
                Some(game) if game.record.channel == asked.channel => game.record,
                _ => {
                    return Ok(asked.refuse(format!(
                        "there is no game #{id} in this channel; a game's audit page is posted in its own channel."
                    )))
                }
            },
        };
        let id = record.id;
        if record.status != Status::Over {
            return Ok(asked.refuse(format!(
                "game #{id} is still running; its audit page is posted once it is over. `{prefix}log` shows what is public now."
            )));
        }
        let events = asked.tx.events(id, None).await?;
        let inputs = asked.tx.inputs(id).await?;
        let mut outcome = Outcome::default();
        outcome.posts.push(Post {
            to: Audience::Channel(asked.channel.to_string()),
            text: format!(
                "Game #{id}: the audit page. Open it in a browser: with nothing from the network it checks the seed against the commitment posted at the start, and every roll against the seed."
            ),
            svg: None,
            card: None,
            file: Some(Attachment {
                name: format!("game-{id}-audit.html"),
                text: asked.table.audit_page(&record, &events, &inputs),
            }),
        });
        Ok(outcome)
    })
}
