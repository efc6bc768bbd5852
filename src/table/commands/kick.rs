//! `!kick @player`: the GM removes a player from the game.

use super::{Applies, Command, Said, SlashOption, Who, Words};
use crate::chat::mention;
use crate::chat::parse::mentions;
use crate::chat::parse::ParseError;
use crate::games::Refusal;
use crate::records::{Parting, User};
use crate::table::seats::remove;
use crate::table::work::Work;

/// `!kick`.
pub const COMMAND: Command = Command::applying::<Kicked>(
    "kick",
    Who::Gm,
    "kick @player",
    "GM: removes a player from the game",
)
.slash(&[SlashOption::user("player", "The player")]);

/// The player named.
struct Kicked(String);

impl Words for Kicked {
    fn read(args: &str, prefix: &str) -> Result<Kicked, ParseError> {
        match mentions(args).as_slice() {
            [who] => Ok(Kicked(who.clone())),
            _ => Err(ParseError(format!(
                "`{prefix}kick` takes one player, like `{prefix}kick @bob`"
            ))),
        }
    }
}

impl Applies for Kicked {
    fn apply(self, work: &mut Work<'_>, said: &Said<'_>) -> Result<bool, Refusal> {
        kick(work, &self.0, said.user)
    }
}

/// `!kick @player`: out of the game (or its sign-up or waitlist), and told so by DM.
fn kick(work: &mut Work<'_>, who: &str, by: &User) -> Result<bool, Refusal> {
    let id = work.record.id;
    let gone = work
        .record
        .seats
        .iter()
        .chain(work.record.waitlist.iter())
        .find(|s| s.present && (s.user.id == who || s.user.name.eq_ignore_ascii_case(who)))
        .map(|s| s.user.id.clone());
    remove(
        work,
        who,
        by,
        ("was removed by the GM", Parting::Kicked),
        true,
    )?;
    if let Some(gone) = gone {
        work.outcome.direct(
            &gone,
            format!(
                "Game #{id}: the GM removed you from the game in {}; nothing you send for it is taken any more.",
                mention::channel(&work.record.channel)
            ),
        );
    }
    Ok(true)
}
