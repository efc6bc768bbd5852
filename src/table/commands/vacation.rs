//! `vacation 5d` by DM: the player is away for that long (`vacation off`: back now); the
//! table holds or plays for them as the game's `away` option says (`table::vacation`).

use super::{Command, Direct, DirectApplies, DmHelp, SlashOption, Who, Words};
use crate::chat::parse::{quote, ParseError};
use crate::duration::{a_year, parse_duration_within, TimeError};
use crate::games::Refusal;
use crate::records::User;
use crate::table::vacation;
use crate::table::work::Work;
use chrono::Duration;

/// `vacation`.
pub const COMMAND: Command = Command::by_dm_only(
    "vacation",
    Who::Player,
    "tells the table you are away for a while, or back: `vacation 5d`, `vacation off`",
    Direct::applying::<Length>(
        "vacation <length> | off",
        DmHelp::Sentence(
            "Away for a while? `vacation 5d` tells the table (`vacation off` when you are back).",
        ),
    )
    .listed(4),
)
.slash(&[
    SlashOption::text(
        "length",
        "How long you are away, like 5d; or off when you are back",
    )
    .required(),
    SlashOption::my_game("game", "Which of your games, when you play several"),
])
.private();

/// How long: a length within a year, or `off` (`over`, `end`) for back now (`None`).
struct Length(Option<Duration>);

impl Words for Length {
    fn read(args: &str, _prefix: &str) -> Result<Length, ParseError> {
        let args = args.split_whitespace().collect::<Vec<_>>().join(" ");
        let args = args.as_str();
        if matches!(args.to_lowercase().as_str(), "off" | "over" | "end") {
            return Ok(Length(None));
        }
        match parse_duration_within(args, a_year()) {
            Ok(length) => Ok(Length(Some(length))),
            Err(TimeError::TooLong(_)) => Err(ParseError(format!(
                "a vacation is at most a year; got '{}'",
                quote(args)
            ))),
            Err(TimeError::Unreadable) => Err(ParseError(format!(
                "`vacation` takes how long you are away, like `vacation 5d`, or `vacation off` when you are back; got '{}'",
                quote(args)
            ))),
        }
    }
}

impl DirectApplies for Length {
    fn apply(self, work: &mut Work<'_>, user: &User) -> Result<bool, Refusal> {
        vacation::take(work, user, self.0)
    }
}
