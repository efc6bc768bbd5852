//! `!new <game> [key=value ...]`: opens sign-ups for a game in a channel that has none. The
//! table adds the seed (when none is given) and the rules revisions to what is logged.

use super::{Command, Run, SlashOption, Who};
use crate::chat::parse::{parse_options, ParseError};
use crate::games::Refusal;
use crate::records::{GameRecord, User};
use crate::table::lifecycle;
use crate::table::outcome::Outcome;
use crate::table::work::Env;

/// `!new`.
pub const COMMAND: Command = Command::new(
    "new",
    Who::Anyone,
    "new <game> [key=value ...]",
    "opens sign-ups for a game in this channel (one game per channel); `!rules <game>` lists the options",
    Run::Open(run),
)
.reads(check)
.slash(&[
    SlashOption::game("game", "Which game (see /games)").required(),
    SlashOption::text("options", "Options, like deadline=48h"),
]);

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    parse(args, prefix).map(drop)
}

/// The game's name (lowercase) and the options in the order given.
pub fn parse(args: &str, prefix: &str) -> Result<(String, Vec<(String, String)>), ParseError> {
    let mut words = args.split_whitespace();
    let Some(game) = words.next() else {
        return Err(ParseError(format!(
            "`{prefix}new` needs a game, like `{prefix}new tag`; `{prefix}games` lists them"
        )));
    };
    let options = parse_options(words, &format!("{prefix}new"))?;
    Ok((game.to_lowercase(), options))
}

/// The words `!new` is logged with: the game and its options.
pub fn words(game: &str, options: &[(String, String)]) -> String {
    let mut text = format!("{} {game}", COMMAND.name);
    for (key, value) in options {
        text.push_str(&format!(" {key}={value}"));
    }
    text
}

fn run(
    id: i64,
    channel: &str,
    user: &User,
    args: &str,
    env: &Env<'_>,
) -> Result<(GameRecord, Outcome), Refusal> {
    let (game, options) = parse(args, &env.defaults.prefix).map_err(super::unreadable)?;
    lifecycle::new_game(id, channel, user, &game, &options, env)
}
