//! `!audit [number]` (and `/audit`): a finished game's audit page (the channel's last game,
//! or an earlier game of the channel by its number, as `!stats` lists them), posted as an
//! HTML file in which a browser checks the seed against its commitment and every roll
//! against the seed. A game is audited only in its own channel: whoever may read a channel
//! may read its games' logs, nobody else.

use super::{Answers, Asked, Command, Reply, SlashOption, Who, Words};
use crate::chat::parse::{quote, ParseError};
use crate::records::{Attachment, Audience, Status};
use crate::table::outcome::{Outcome, Post};

/// `!audit`.
pub const COMMAND: Command = Command::answering::<Which>(
    "audit",
    Who::Anyone,
    "audit [number]",
    "posts a finished game's audit page (this channel's last game, or an earlier one by number), in which your browser checks the seed and every roll",
)
.slash(&[SlashOption::text(
    "game",
    "A finished game's number (this channel's last game if none)",
)]);

/// The game's number asked for, if one is (`12` or `#12`).
struct Which(Option<i64>);

impl Words for Which {
    fn read(args: &str, prefix: &str) -> Result<Which, ParseError> {
        let args = args.trim();
        if args.is_empty() {
            return Ok(Which(None));
        }
        args.trim_start_matches('#')
            .parse::<i64>()
            .ok()
            .filter(|id| *id > 0)
            .map(|id| Which(Some(id)))
            .ok_or_else(|| {
                ParseError(format!(
                    "`{prefix}audit` takes a game's number, like `{prefix}audit 12`, or nothing for this channel's last game; got '{}'",
                    quote(args)
                ))
            })
    }
}

impl Answers for Which {
    fn answer(self, mut asked: Asked<'_>) -> Reply<'_> {
        let asked_for = self.0;
        Box::pin(async move {
            let prefix = asked.prefix().to_string();
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
            let to = Audience::Channel(asked.channel.to_string());
            outcome.posts.push(Post {
                file: Some(Attachment {
                    name: format!("game-{id}-audit.html"),
                    text: asked.table.audit_page(&record, &events, &inputs),
                }),
                ..Post::text(to, format!(
                    "Game #{id}: the audit page. Open it in a browser: with nothing from the network it checks the seed against the commitment posted at the start, and every roll against the seed."
                ))
            });
            Ok(outcome)
        })
    }
}
