//! The platform-neutral conversation: the readers of a command's words, the help about games,
//! and the words the bot answers with. Which commands there are is the table's registry
//! (`table::commands`).

pub mod deadline;
pub mod delivery;
pub mod help;
pub mod lists;
pub mod mention;
pub mod parse;
pub mod typed;

pub use deadline::DeadlineSpec;
pub use parse::ParseError;
