//! `!home <number>`: the GM brings a game to the channel or thread it is typed in, when its
//! own was deleted, or locked for good (a thread a moderator closed). The game goes on there
//! as it stood: its posts, deadlines and orders are unchanged.

use super::{
    unreadable_save, Command, Preparation, Prepared, Preparing, Run, SlashOption, Who, Words,
};
use crate::chat::mention;
use crate::chat::parse::{quote, ParseError};
use crate::games::Refusal;
use crate::records::{Audience, Status, User};
use crate::store::StoreError;
use crate::table::rounds;
use crate::table::work::Work;

/// `!home`.
pub const COMMAND: Command = Command::new(
    "home",
    Who::Gm,
    "GM: brings your game of that number to this channel or thread (when its own was deleted or locked); it goes on here as it stood",
    Run::Apply(|work, said, _| move_home(work, said.user, said.admin, said.channel)),
)
.usage("home <number>")
.reading::<Number>()
.prepared(prepare)
.slash(&[SlashOption::text("game", "Your game's number, like 12").required()]);

/// The game's number (`12` or `#12`).
struct Number(i64);

impl Words for Number {
    fn read(args: &str, prefix: &str) -> Result<Number, ParseError> {
        args.trim()
            .trim_start_matches('#')
            .parse::<i64>()
            .ok()
            .filter(|id| *id > 0)
            .map(Number)
            .ok_or_else(|| {
                ParseError(format!(
                    "`{prefix}home` takes your game's number, like `{prefix}home 12`; got '{}'",
                    quote(args.trim())
                ))
            })
    }
}

/// The game of that number, to a channel that has none, on its own server; what was still
/// to be posted at its old home follows it.
fn prepare(mut preparing: Preparing<'_>) -> Preparation<'_> {
    Box::pin(async move {
        let prefix = &preparing.table.defaults().prefix;
        if let Some(here) = &preparing.game {
            return Ok(Err(format!(
                "this channel has its own game (#{}); `{prefix}home` brings a game to a channel or thread that has none.",
                here.id
            )));
        }
        let id = match Number::read(preparing.args, prefix) {
            Ok(Number(id)) => id,
            Err(error) => return Ok(Err(error.0)),
        };
        let record = match preparing.tx.game(id).await {
            Ok(Some(game)) => game.record,
            Ok(None) => return Ok(Err(format!("there is no game #{id}."))),
            Err(StoreError::Corrupt { what, reason }) => {
                return Ok(Err(unreadable_save(&what, &reason)))
            }
            Err(error) => return Err(error),
        };
        let here = preparing.server().await?;
        if record.server.as_ref().is_some_and(|home| *home != here) {
            return Ok(Err(format!(
                "game #{id} belongs to another server; it can only move within its own."
            )));
        }
        let moved_from = Some(Audience::Channel(record.channel.clone()));
        Ok(Ok(Prepared {
            input: preparing.said(format!("{} {id}", COMMAND.name)),
            game: Some(record),
            undo: None,
            moved_from,
        }))
    })
}

/// `!home <number>`: the GM brings the game to the channel it is typed in (its own was deleted
/// or locked): it goes on there as it stood, and says so there with its board.
fn move_home(
    work: &mut Work<'_>,
    by: &User,
    admin: bool,
    here: Option<&str>,
) -> Result<bool, Refusal> {
    work.require_gm(by, admin, "home")?;
    let id = work.record.id;
    let Some(here) = here else {
        return Err(Refusal::new(
            "`home` is typed in the channel the game goes to.",
        ));
    };
    if work.record.status == Status::Over {
        return Err(rounds::over(&work.record, &work.env.defaults.prefix));
    }
    if work.record.channel == here {
        return Err(Refusal::new(format!("Game #{id} already lives here.")));
    }
    let from = std::mem::replace(&mut work.record.channel, here.to_string());
    // A forum post's tags and the old channel's private threads stay behind: the players
    // owed a thread get one beside the new home.
    work.record.forum = None;
    for seat in work
        .record
        .seats
        .iter_mut()
        .chain(work.record.waitlist.iter_mut())
    {
        seat.thread = None;
    }
    // A game whose forum post was never made comes from the forum.
    let was = match mention::forum_of_place(&from) {
        Some(forum) => mention::channel(&forum.to_string()),
        None => mention::channel(&from),
    };
    let text = format!(
        "Game #{id} ({}) lives here now: the GM brought it from {was}, where it can no longer be played. It goes on as it stood. {}",
        work.record.game,
        rounds::describe_phase(&work.record)
    );
    work.outcome.table_event(
        work.record.round,
        format!(
            "the GM brought the game from {was} to {}",
            mention::channel(here)
        ),
    );
    match work.record.state {
        Some(_) => {
            let live = work.live()?;
            rounds::post_board(work, &live, text);
        }
        None => work.outcome.channel(here, text),
    }
    Ok(true)
}

/// The game opened as a forum post has its post, `to`: it lives there from now on.
pub(crate) fn homed(work: &mut Work<'_>, to: &str) -> Result<bool, Refusal> {
    if mention::forum_of_place(&work.record.channel).is_none() {
        return Ok(false);
    }
    work.record.channel = to.to_string();
    work.outcome.table_event(
        work.record.round,
        format!("the game's post is {}", mention::channel(to)),
    );
    Ok(true)
}
