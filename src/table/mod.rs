//! The game master: sign-ups, seats, GM powers, phases, deadlines, reminders, orders,
//! resolution, the audit log and replay. `apply` is the pure core; `service` wraps it in a
//! database transaction (a savepoint per inbound message), and `group_commit` lets the
//! messages queued meanwhile share one commit.

pub mod apply;
mod attendance;
pub mod card;
pub mod catalogue;
mod chatter;
pub mod commands;
mod computers;
mod endings;
pub mod flood;
mod frame;
pub mod group_commit;
mod legacy;
pub mod lookup;
mod options;
pub mod outcome;
mod private_threads;
pub mod quiet_hours;
pub mod ratings;
mod rounds;
mod searches;
mod seats;
pub mod undo;
mod vacation;
pub mod work;

pub use crate::chat::deadline::format_deadline as deadline_words;
pub use crate::chat::delivery::{edit_ignored, gave_up_channel, gave_up_direct};
pub use crate::chat::mention::forum_of_place;
pub use crate::records::{
    Attachment, Audience, Button, Card, EventBody, Field, GameRecord, Input, LogEvent,
    LogVisibility, Status, User, NAME_LIMIT, VALUE_LIMIT,
};
pub use apply::{apply, Applied};
pub use catalogue::Catalogue;
pub use flood::{Admission, Floodgate};
pub use frame::MAX_BAND_WIDTH;
pub use outcome::{Outcome, Post};
pub use work::REVISION;
pub use work::{table_time, Env, TableDefaults};
pub mod audit;
pub mod service;
pub use group_commit::{GroupCommit, Ticket};
pub use service::{
    Committed, Envelope, Inbound, MoveJob, MoveOwed, PendingWork, Played, Receipt, SearchJob,
    Service, Submission, ThreadJob,
};
