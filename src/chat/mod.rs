//! The platform-neutral conversation: text -> commands (parser and help), and the words the
//! bot answers with.

pub mod command;
pub mod deadline;
pub mod help;
pub mod mention;
pub mod parse;
pub mod typed;

pub use command::{DeadlineSpec, Dm, DmCommand};
pub use parse::{parse_dm, parse_dm_command, ParseError};
