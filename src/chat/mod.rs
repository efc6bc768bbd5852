//! The platform-neutral conversation: text -> commands (parser and help), and the words the
//! bot answers with.

pub mod deadline;
pub mod help;
pub mod mention;
pub mod parse;
pub mod typed;

pub use deadline::DeadlineSpec;
pub use parse::ParseError;
