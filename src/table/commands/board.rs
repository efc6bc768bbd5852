//! `!board`: shows the board.

use super::{Command, Run, Who};
use crate::table::rounds;

/// `!board`.
pub const COMMAND: Command = Command::new(
    "board",
    Who::Anyone,
    "shows the board",
    Run::Apply(|work, _, _| rounds::board(work).map(|()| false)),
)
.looks_back()
.with_buttons();
