//! The platform-neutral conversation: text -> commands (parser and help), and the words the
//! bot answers with.

pub mod command;
pub mod deadline;
pub mod help;
pub mod mention;
pub mod parse;
pub mod typed;

pub use command::{ChannelCommand, DeadlineSpec, Dm, DmCommand};
pub use parse::{parse_channel, parse_dm, ParseError};
