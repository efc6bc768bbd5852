//! `!concede`: the player leaves, ranked last among those still in.

use super::{Command, Run, Who};
use crate::table::endings;

/// `!concede`.
pub const COMMAND: Command = Command::new(
    "concede",
    Who::Player,
    "you leave the game, ranked last among the players still in",
    Run::Apply(|work, said, _| endings::concede(work, said.user)),
)
.aliases(&["resign"])
.looks_back();
