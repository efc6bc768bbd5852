//! `!audit` (and `/audit`): the finished game's audit page, posted as an HTML file in which
//! a browser checks the seed against its commitment and every roll against the seed.

use super::{Asked, Command, Reply, Run, Who};
use crate::records::{Attachment, Audience, Status};
use crate::table::audit;
use crate::table::outcome::{Outcome, Post};

/// `!audit`.
pub const COMMAND: Command = Command::new(
    "audit",
    Who::Anyone,
    "audit",
    "posts the finished game's audit page: an HTML file in which your browser checks the seed against its commitment and every roll against the seed",
    Run::Answer(answer),
);

fn answer(mut asked: Asked<'_>) -> Reply<'_> {
    Box::pin(async move {
        let record = match asked.channel_game().await? {
            Ok(record) => record,
            Err(refusal) => return Ok(refusal),
        };
        let service = asked.service;
        let id = record.id;
        if record.status != Status::Over {
            let prefix = asked.prefix();
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
                text: audit::page(service, &record, &events, &inputs),
            }),
        });
        Ok(outcome)
    })
}
