//! An input as the replay log keeps it: everything that changed a game, in order, so that
//! `referee replay` can apply it again.

use super::game::User;
use serde::{Deserialize, Serialize};

/// One input that reached a game, as the replay log keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// A command posted in the game's channel.
    Channel {
        /// The channel.
        channel: String,
        /// Who posted.
        user: User,
        /// Whether the poster is a server admin (GM powers).
        admin: bool,
        /// What was said, after the prefix (`join red`): the table reads it again on replay.
        #[serde(default)]
        text: String,
        /// What was asked, as logs written before the text was kept held it (the parsed
        /// command); the table reads it back as the text it stood for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<serde_json::Value>,
        /// The users the command names, as the platform named them (the new player of
        /// `!replace`); absent in logs written before it was kept.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        mentioned: Vec<User>,
        /// Whether the computer decided it: a computer seat's move, or its move for the silent
        /// player `user` (`nmr=bot`). Taken for the position it was decided at, never judged
        /// against the deadline (from rules revision 6 on).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        computer: bool,
    },
    /// A direct message routed to this game.
    Direct {
        /// Who sent it.
        user: User,
        /// What was said, without the game number in front (`bid 5`).
        #[serde(default)]
        text: String,
        /// What was asked, as logs written before the text was kept held it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<serde_json::Value>,
        /// Whether the computer decided it: a computer seat's order, or its order for the
        /// silent player `user` (`nmr=bot`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        computer: bool,
    },
    /// The GM took back the last resolution or turn (`!undo`): the game is back as it was
    /// before input `back_to`; the inputs from there on stay in the log, marked undone.
    Undo {
        /// Who asked (the GM or a server admin).
        user: User,
        /// Whether the asker is a server admin.
        admin: bool,
        /// The first input taken back.
        back_to: i64,
    },
    /// A search the game or its GM asked for (Short Circuit's solver) came back with its
    /// verdict: applied as it was found, and on replay read from here, never searched again.
    Verdict {
        /// Which search it answers (`impossible`, `hint`).
        key: String,
        /// What the search found, as text.
        verdict: String,
    },
    /// The game opened as a forum post has its post, `channel` (a thread of the forum): it
    /// lives there from now on.
    Homed {
        /// The post's channel.
        channel: String,
    },
    /// The platform refused a direct message to `user` (their DMs are closed): they are to
    /// get a private thread.
    DmsClosed {
        /// Who.
        user: String,
    },
    /// The private thread `channel` of `user` was opened in the game's channel.
    ThreadOpened {
        /// Whose.
        user: String,
        /// The thread.
        channel: String,
    },
    /// The private thread `channel` of `user` can no longer be posted in (deleted, or locked
    /// by a moderator): what the game says to them alone goes by DM again, or to a new thread.
    ThreadLost {
        /// Whose.
        user: String,
        /// The thread.
        channel: String,
    },
    /// The current phase's deadline passed.
    Deadline,
    /// The current phase's deadline passed while the bot was not running; it resolves late,
    /// when the bot is back, and the channel is told why.
    DeadlineMissed,
    /// The reminder time before the deadline passed.
    Reminder,
}

impl Input {
    /// Whether the computer decided this input (a computer seat's, or its move for a silent
    /// player).
    pub fn by_computer(&self) -> bool {
        matches!(
            self,
            Input::Channel { computer: true, .. } | Input::Direct { computer: true, .. }
        )
    }
}
