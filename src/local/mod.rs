//! The console table (`referee local`) and the transcript runner (`referee script`): how a GM
//! tries a game without Discord, and how tests drive the whole stack.

pub mod runner;
mod times;
pub mod transcript;

pub use runner::{Clock, RunError, Runner};
