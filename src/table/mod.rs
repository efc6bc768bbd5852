//! The game master: sign-ups, seats, GM powers, phases, deadlines, reminders, orders,
//! resolution, the audit log and replay. `apply` is the pure core; `service` wraps it in one
//! database transaction per inbound message.

pub mod apply;
pub mod card;
pub mod catalogue;
mod lifecycle;
pub mod outcome;
pub mod record;
mod rounds;

pub use apply::{apply, table_time, Applied, Env, Input, TableDefaults};
pub use card::{Button, Card, Field};
pub use catalogue::Catalogue;
pub use outcome::{Attachment, Audience, EventBody, LogEvent, LogVisibility, Outcome, Post};
pub use record::{GameRecord, Status, User};
pub mod audit;
pub mod service;
pub use service::{Envelope, Inbound, Receipt, Service};
