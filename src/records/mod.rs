//! The records that cross between the table and the store: the game record, the inputs of
//! the replay log, the audit log's events, and what the outbox keeps beside a post (its
//! audience, card and file). Both import this module and it imports neither, nor the games
//! or the conversation (a game's state is kept as serialized data; its phase is the shared
//! [`crate::phase::Phase`]), so the arrows run one way: table -> store -> records.

mod card;
mod game;
mod input;
mod log;
mod post;
mod result;

pub use crate::phase::{Options, Phase, Seat};
pub use card::{Button, Card, Field, MAX_FIELDS, NAME_LIMIT, VALUE_LIMIT};
pub use game::{
    default_grace, default_vacation, is_computer_id, Attendance, AwayRule, ComputerLevel,
    Concession, Departure, GameRecord, NoMoveRule, Parting, QuietHours, Recalled, SearchAsked,
    SeatRecord, Settings, Status, StoredOrder, User, STAND_IN_APART_FROM,
};
pub use input::Input;
pub use log::{EventBody, LogEvent, LogVisibility};
pub use post::{Attachment, Audience};
pub use result::{Finish, GameResult, PlayerResult, Rating};
