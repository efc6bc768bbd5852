//! The typed commands of the vocabulary in DESIGN.md, as the parser produces them.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

/// A command posted in a game channel (after the prefix).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChannelCommand {
    /// `!games`: the games the bot hosts.
    Games,
    /// `!help [command]`.
    Help(Option<String>),
    /// `!rules [game]`: a game's rules for players, with its options (the channel's game
    /// when none is named).
    Rules(Option<String>),
    /// `!new <game> [key=value ...]`: open sign-ups in this channel.
    New {
        /// The game's name.
        game: String,
        /// The options in the order given.
        options: Vec<(String, String)>,
    },
    /// `!join [symbol/colour]`.
    Join(Option<String>),
    /// `!leave`.
    Leave,
    /// `!start`.
    Start,
    /// `!board`.
    Board,
    /// `!status`: the phase, who is awaited, the deadline.
    Status,
    /// `!log [round]`.
    Log(Option<u64>),
    /// `!audit`: the finished game's audit page, as a file.
    Audit,
    /// GM: `!resolve`, resolve the current phase now.
    Resolve,
    /// GM: `!deadline <duration|time>`.
    Deadline(DeadlineSpec),
    /// GM: `!kick @player`.
    Kick(String),
    /// GM: `!replace @old @new`.
    Replace(String, String),
    /// GM: `!pause`.
    Pause,
    /// GM: `!resume`.
    Resume,
    /// GM: `!end`.
    End,
    /// GM: `!undo`, take back the last resolution or turn.
    Undo,
    /// `!who`: each player's orders and turns on time, late and missed, and last action.
    Who,
    /// `!concede`: the player leaves, ranked last among those still in.
    Concede,
    /// `!draw` (a vote for a draw) or `!draw no` (withdrawn).
    Draw(bool),
    /// Any other word: a public action of the game (`!move 2 5`).
    Game {
        /// The command word, lowercase, without prefix.
        word: String,
        /// The rest of the line, trimmed.
        args: String,
    },
}

/// What a direct message to the bot asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DmCommand {
    /// `status`: what I have submitted, and my situation.
    Status,
    /// `help`.
    Help,
    /// `rules <game>` (or `help <game>`): a game's rules for players.
    Rules(String),
    /// GM before the start: `setup key=value ...`, secret options of the game.
    Setup(Vec<(String, String)>),
    /// `vacation 5d`: away for that long (`None`: `vacation off`, back now).
    Vacation(#[serde(with = "crate::duration::optional_duration_serde")] Option<Duration>),
    /// Anything else: a secret order for the game.
    Order(String),
}

/// A direct message: the command and the game it is for, when the sender named one (`#3 bid 5`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dm {
    /// The game id after `#`, if given.
    pub game: Option<i64>,
    /// What the message asks.
    pub command: DmCommand,
}

/// When a deadline falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeadlineSpec {
    /// This long from now.
    In(#[serde(with = "crate::duration::duration_serde")] Duration),
    /// At this instant.
    At(DateTime<Utc>),
}
