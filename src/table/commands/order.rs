//! An order by direct message (`bid 5`): any message to the bot that is not one of the other
//! words said by DM is an order for the sender's game; `/order` sends one from anywhere.

use super::{Command, Direct, DmHelp, SlashOption, Takes, Who};
use crate::games::Refusal;
use crate::records::User;
use crate::table::rounds;
use crate::table::work::Work;

/// An order by DM: the order alone (`bid 12`), or after the word (`order bid 12`, what
/// `/order` sends).
pub const DIRECT: Direct = Direct::new("<order>", DmHelp::Orders, run)
    .takes(Takes::SomeWords)
    .secret()
    .listed(0);

/// An order.
pub const COMMAND: Command = Command::by_dm_only(
    "order",
    Who::Player,
    "sends a secret order for your game: by DM the order alone, like `bid 12`",
    DIRECT,
)
.slash(&[
    SlashOption::text("order", "The order, like: bid 12").required(),
    SlashOption::my_game("game", "Which of your games, when you play several"),
])
.private();

fn run(work: &mut Work<'_>, user: &User, order: &str) -> Result<bool, Refusal> {
    rounds::order(work, user, order)
}
