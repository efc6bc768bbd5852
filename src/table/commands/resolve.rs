//! `!resolve`: the GM resolves the current round or turn now.

use super::{Command, Run, Who};
use crate::table::rounds;

/// `!resolve`.
pub const COMMAND: Command = Command::new(
    "resolve",
    Who::Gm,
    "GM: resolves the current round or turn now (missing orders take the game's default)",
    Run::Apply(|work, _, _| rounds::force(work)),
);
