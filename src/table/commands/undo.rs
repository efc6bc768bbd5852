//! `!undo`: the GM takes back the last resolution or turn. The game is rebuilt from its log
//! to find where it returns (before it is applied, so the pure table gets the target); what
//! was undone stays in the log, marked undone; the dice are not rolled back.

use super::{Command, Preparation, Prepared, Preparing, Run, Said, Who};
use crate::games::Refusal;
use crate::records::{Input, Status};
use crate::table::undo;
use crate::table::work::Work;

/// `!undo`.
pub const COMMAND: Command = Command::new(
    "undo",
    Who::Gm,
    "GM: takes back the last resolution or turn (it stays in the log, marked undone; the dice are not rolled back)",
    Run::Rebuild(run),
)
.prepared(prepare)
.looks_back();

/// The GM's undo: the game rebuilt from its log to find where it returns. Anyone else's is
/// refused by the table as every GM power is, so it is not worth the rebuilding.
fn prepare(preparing: Preparing<'_>) -> Preparation<'_> {
    Box::pin(async move {
        let Preparing {
            table,
            tx,
            user,
            admin,
            game,
            ..
        } = preparing;
        let Some(game) = game else {
            return Ok(Err("there is no game in this channel.".to_string()));
        };
        let gm = admin || user.id == game.gm.id;
        let target = match gm && game.status != Status::Over {
            true => table.undo_target(&game, &tx.inputs(game.id).await?),
            false => None,
        };
        let input = Input::Undo {
            user: user.clone(),
            admin,
            back_to: target.as_ref().map_or(0, |(back_to, _)| *back_to),
        };
        Ok(Ok(Prepared {
            game: Some(game),
            input,
            undo: target.map(|(_, target)| target),
            moved_from: None,
        }))
    })
}

fn run(work: &mut Work<'_>, _said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    let target = work.env.undo;
    undo::undo(work, target, order_in)
}

/// The order a direct message says, if it is one.
fn order_in(said: &str) -> Option<&str> {
    super::read_direct(said)
        .ok()
        .filter(|read| read.command.name == super::ORDER.name)
        .map(|read| read.args)
}
