//! Carcassonne, the base game (72 tiles, third-edition farmers) with the Under the Big Top
//! expansion (circus and acrobat tiles, animal tokens, the Big Top, ringmasters), played by post
//! (rules: docs/rules/carcassonne.md and docs/rules/carcassonne-tiles.md).
//!
//! The bot draws each tile (seeded), shows it with its legal placements, and the player answers
//! `!place <x> <y> <rotation>` then `!meeple <feature>`, `!ringmaster <feature>`,
//! `!acrobat <x> <y>`, `!pyramid <x> <y>` or `!pass` (or all in one line).
//!
//! Decisions where the rules page is silent:
//! - Coordinates: x grows to the east, y to the south (JCZ); the start tile D is at (0,0).
//!   Rotations are 0, 90, 180, 270 degrees clockwise. The same axes are used in texts, pictures
//!   and commands.
//! - Colours: red, blue, green, yellow, black by seat, or the colour chosen at `!join`.
//! - Option `bigtop`: `on` (the default) adds Under the Big Top's 20 tiles to the deck, the 16
//!   animal tokens (face down in the box: when a circus tile is about to be placed, the token
//!   that goes under the Big Top is drawn from those left with a sealed roll) and one ringmaster
//!   per player, and allows a sixth player (grey, with 7
//!   followers like the others); `off` is the plain base game for 2 to 5 players.
//! - The token under the Big Top is in no public text or picture; the audit log keeps its roll
//!   and the token as sealed events (secret exports only) and shows both publicly when the
//!   circus is scored and the token revealed.
//! - The choice after placing offers everything that applies (meeple, ringmaster, acrobat,
//!   pyramid); when nothing applies the turn ends at once. A completed pyramid may be scored
//!   by a player with an empty supply.
//! - End of game: the circus is scored one last time, then unfinished features and fields
//!   (ringmasters earn their bonus after their feature), then every acrobat at 5.
//! - Option `turn`: the turn time limit (`24h` by default; `90m`, `2d`, `36h` style).
//! - A turn whose deadline passes: the tile goes where a careful player would put it, with no
//!   follower: the legal placement scoring most for the seat, then giving the others least,
//!   then nearest the centre (see [`play::Match::careful_placement`]).
//! - A seat that leaves is skipped from then on; if it was its turn, its tile goes to the first
//!   legal placement in reading order. Its followers stay on the map and its points count in
//!   the ranking.
//! - Rules revisions ([`crate::games::Rules::revision`]): 2, a timed-out tile is placed
//!   carefully (before: the first legal placement in reading order, which grew the map in a
//!   spine to the north).
//! - The saved state is the deck order and the list of moves; loading replays them, so a
//!   corrupt save is refused rather than trusted.

// The pieces: the tiles and the map with its features (tiles, map) on a grid of cells and
// open spots (grid), scoring (scoring), the circus (circus), a match's moves and stages (play),
// players' words (parse), pictures (render); and for the table: options and set-up (rules),
// the game contract (game), the turn flow (turn) and the texts (texts).
pub mod circus;
mod grid;
pub mod map;
pub mod parse;
pub mod play;
pub mod render;
pub mod scoring;
pub mod tiles;

mod game;
mod rules;
mod texts;
mod turn;

pub use texts::placements_text;

use self::circus::Animal;
use self::play::Match;
use serde::{Deserialize, Serialize};

/// The colours seats take, in order (grey only with Under the Big Top's sixth player).
pub const COLOURS: [&str; 6] = ["red", "blue", "green", "yellow", "black", "grey"];

/// The rules of Carcassonne, for the table's registry.
pub struct Carcassonne;

/// The registered value.
pub static CARCASSONNE_RULES: Carcassonne = Carcassonne;

/// One recorded move, replayed when a saved game is loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Move {
    /// The drawn tile went to (x, y) turned `rot` quarter turns.
    Place(i32, i32, u8),
    /// A follower on this part of the tile just placed, or none.
    Follower(Option<u8>),
    /// The ringmaster on this part of the tile just placed.
    Ringmaster(u8),
    /// An acrobat on the acrobat tile at (x, y).
    Acrobat(i32, i32),
    /// The completed pyramid at (x, y) was scored.
    Pyramid(i32, i32),
    /// The turn timed out.
    Timeout,
    /// A seat left.
    Left(usize),
}

/// What the store keeps of a game: the players, the deck order, the tokens and every move;
/// loading replays the moves.
#[derive(Serialize, Deserialize)]
struct Saved {
    names: Vec<String>,
    colours: Vec<String>,
    deck: Vec<u8>,
    moves: Vec<Move>,
    #[serde(default)]
    bigtop: bool,
    #[serde(default)]
    tokens: Vec<Animal>,
    #[serde(default)]
    token_rolls: Vec<TokenRoll>,
}

/// The sealed roll that drew a token from the box: `result` counts the `sides` tokens then
/// left, in the box's order (elephant first, flea last).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct TokenRoll {
    sides: u32,
    result: u32,
}

/// A game of Carcassonne in progress.
#[derive(Clone, Debug)]
pub struct CarcassonneGame {
    names: Vec<String>,
    colours: Vec<String>,
    deck: Vec<u8>,
    tokens: Option<Vec<Animal>>,
    token_rolls: Vec<TokenRoll>,
    moves: Vec<Move>,
    play: Match,
}
