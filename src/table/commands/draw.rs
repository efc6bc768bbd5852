//! `!draw [no]`: a vote for a draw, or taking it back.

use super::{Applies, Command, Said, SlashOption, Who, Words};
use crate::chat::parse::quote;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::table::endings;
use crate::table::work::Work;

/// `!draw`.
pub const COMMAND: Command = Command::applying::<Vote>(
    "draw",
    Who::Player,
    "draw [no]",
    "votes for a draw (`!draw no` takes it back); the game ends in a draw when every player still in has voted",
)
.slash(&[SlashOption::text("vote", "no: take your vote back")])
.looks_back();

/// `true`: a vote for the draw; `false`: the vote taken back.
struct Vote(bool);

impl Words for Vote {
    fn read(args: &str, prefix: &str) -> Result<Vote, ParseError> {
        match args.to_lowercase().as_str() {
            "" | "yes" => Ok(Vote(true)),
            "no" | "off" => Ok(Vote(false)),
            _ => Err(ParseError(format!(
                "`{prefix}draw` votes for a draw and `{prefix}draw no` takes the vote back; got '{}'",
                quote(args)
            ))),
        }
    }
}

impl Applies for Vote {
    fn apply(self, work: &mut Work<'_>, said: &Said<'_>) -> Result<bool, Refusal> {
        endings::draw(work, said.user, self.0)
    }
}
