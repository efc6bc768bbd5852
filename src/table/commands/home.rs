//! `!home <number>`: the GM brings a game to the channel or thread it is typed in, when its
//! own was deleted, or locked for good (a thread a moderator closed). The game goes on there
//! as it stood: its posts, deadlines and orders are unchanged.

use super::{Command, Run, Said, SlashOption, Who};
use crate::chat::mention;
use crate::chat::parse::{quote, ParseError};
use crate::games::Refusal;
use crate::records::{Status, User};
use crate::table::rounds;
use crate::table::work::Work;

/// `!home`.
pub const COMMAND: Command = Command::new(
    "home",
    Who::Gm,
    "home <number>",
    "GM: brings your game of that number to this channel or thread (when its own was deleted or locked); it goes on here as it stood",
    Run::Home(run),
)
.reads(check)
.slash(&[SlashOption::text("game", "Your game's number, like 12").required()]);

/// The game's number (`12` or `#12`).
pub fn number(args: &str, prefix: &str) -> Result<i64, ParseError> {
    args.trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| {
            ParseError(format!(
                "`{prefix}home` takes your game's number, like `{prefix}home 12`; got '{}'",
                quote(args.trim())
            ))
        })
}

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    number(args, prefix).map(drop)
}

fn run(work: &mut Work<'_>, said: &Said<'_>, _args: &str) -> Result<bool, Refusal> {
    move_home(work, said.user, said.admin, said.channel)
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
