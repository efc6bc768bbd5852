//! The words the games and the records share: a seat, a game's options, and what a game
//! waits for. A game reports its [`Phase`] and the record keeps that same value, so the
//! record holds no type of any game and the saved phase is the phase the game said.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A place at the table, counted from 0 in seating order. Seats never renumber: a player who
/// leaves keeps its seat number (and a replacement takes it over).
pub type Seat = usize;

/// Game options from `!new <game> key=value ...` (and, for secret setups, the GM's DM).
pub type Options = BTreeMap<String, String>;

/// What the game is waiting for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// One seat acts, publicly, with commands in the channel.
    Turn {
        /// Whose turn it is.
        seat: Seat,
    },
    /// These seats owe a secret order by DM; the round resolves when the deadline passes,
    /// when all are in (if the table allows early resolution), or when the GM forces it.
    Orders {
        /// The seats whose orders are awaited.
        seats: BTreeSet<Seat>,
        /// What is being ordered, for the players ("bids", "moves for round 3").
        label: String,
    },
    /// The game is over.
    Over {
        /// Final places, best first; seats sharing a place stand in one group.
        ranking: Vec<Vec<Seat>>,
    },
}
