//! `!draw [no]`: a vote for a draw, or taking it back.

use super::{unreadable, Command, Run, Said, SlashOption, Who};
use crate::chat::parse::quote;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::table::endings;
use crate::table::work::Work;

/// `!draw`.
pub const COMMAND: Command = Command::new(
    "draw",
    Who::Player,
    "draw [no]",
    "votes for a draw (`!draw no` takes it back); the game ends in a draw when every player still in has voted",
    Run::Apply(run),
)
.reads(check)
.slash(&[SlashOption::text("vote", "no: take your vote back")])
.looks_back();

fn check(args: &str, prefix: &str) -> Result<(), ParseError> {
    parse(args, prefix).map(drop)
}

/// `true`: a vote for the draw; `false`: the vote taken back.
fn parse(args: &str, prefix: &str) -> Result<bool, ParseError> {
    match args.to_lowercase().as_str() {
        "" | "yes" => Ok(true),
        "no" | "off" => Ok(false),
        _ => Err(ParseError(format!(
            "`{prefix}draw` votes for a draw and `{prefix}draw no` takes the vote back; got '{}'",
            quote(args)
        ))),
    }
}

fn run(work: &mut Work<'_>, said: &Said<'_>, args: &str) -> Result<bool, Refusal> {
    let vote = parse(args, &work.env.defaults.prefix).map_err(unreadable)?;
    endings::draw(work, said.user, vote)
}
