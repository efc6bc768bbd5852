//! What a saved game waits for, as the record keeps it: the phase a game reported after its
//! last change, in the table's own terms (a seat's turn, the secret orders awaited, or the
//! end). The table turns the game's phase into this one when it saves the game, so the
//! record holds no type of any game.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A seat at the table: 0 for the first player seated, and so on (seats never renumber).
pub type Seat = usize;

/// The options a game was opened with (`key=value`), and the GM's secret setup.
pub type Options = BTreeMap<String, String>;

/// What the game waits for, as saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// One seat acts, publicly, with commands in the channel.
    Turn {
        /// Whose turn it is.
        seat: Seat,
    },
    /// These seats owe a secret order by DM.
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
