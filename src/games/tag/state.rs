//! The plain data of a TAG game: squares, directions, orders, players and the whole state,
//! plus setup, the bid round and a builder for test positions.

use crate::dice::Dice;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use thiserror::Error;

/// Life points every player starts with.
pub const START_POINTS: i64 = 35;
/// What a teleport costs.
pub const TELEPORT_COST: i64 = 5;
/// What an upgrade (one more move in every later round) costs.
pub const UPGRADE_COST: i64 = 5;
/// What the player who is it pays at the end of every round.
pub const IT_COST: i64 = 4;

/// A square of the grid: column 0 is the west edge (`a`), row 0 the north edge (`1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    /// Column, from 0 at the west.
    pub col: u32,
    /// Row, from 0 at the north.
    pub row: u32,
}

impl Square {
    /// The square at this column and row (both from 0).
    pub fn new(col: u32, row: u32) -> Square {
        Square { col, row }
    }

    /// Reads a written square such as `a1` or `ab12` (case and spaces ignored).
    pub fn parse(text: &str) -> Option<Square> {
        let text = text.trim().to_ascii_lowercase();
        let letters: String = text
            .chars()
            .take_while(|c| c.is_ascii_lowercase())
            .collect();
        let digits = &text[letters.len()..];
        if letters.is_empty() || digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let mut col: u64 = 0;
        for c in letters.chars() {
            col = col * 26 + u64::from(c as u8 - b'a' + 1);
            if col > u64::from(u32::MAX) {
                return None;
            }
        }
        let row: u32 = digits.parse().ok()?;
        if row == 0 {
            return None;
        }
        Some(Square::new(u32::try_from(col - 1).ok()?, row - 1))
    }

    /// The column's letters: a, b, ..., z, aa, ab, ...
    pub fn column_name(col: u32) -> String {
        let mut n = u64::from(col) + 1;
        let mut out = Vec::new();
        while n > 0 {
            let rem = ((n - 1) % 26) as u8;
            out.push((b'a' + rem) as char);
            n = (n - 1) / 26;
        }
        out.iter().rev().collect()
    }

    /// The square one step in `dir`, if it is on a grid of this side.
    pub fn step(self, dir: Dir, side: u32) -> Option<Square> {
        let (dc, dr) = dir.delta();
        let col = i64::from(self.col) + dc;
        let row = i64::from(self.row) + dr;
        let limit = i64::from(side);
        if col < 0 || row < 0 || col >= limit || row >= limit {
            return None;
        }
        Some(Square::new(col as u32, row as u32))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Square::column_name(self.col), self.row + 1)
    }
}

/// A compass direction (north is towards row 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// North.
    N,
    /// North-east.
    NE,
    /// East.
    E,
    /// South-east.
    SE,
    /// South.
    S,
    /// South-west.
    SW,
    /// West.
    W,
    /// North-west.
    NW,
}

impl Dir {
    /// Every direction, clockwise from north.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// Column and row change of one step.
    pub fn delta(self) -> (i64, i64) {
        match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::E => (1, 0),
            Dir::SE => (1, 1),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, -1),
        }
    }

    /// Whether the move is diagonal.
    pub fn is_diagonal(self) -> bool {
        let (dc, dr) = self.delta();
        dc != 0 && dr != 0
    }

    /// The short lowercase name (`n`, `ne`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "n",
            Dir::NE => "ne",
            Dir::E => "e",
            Dir::SE => "se",
            Dir::S => "s",
            Dir::SW => "sw",
            Dir::W => "w",
            Dir::NW => "nw",
        }
    }
}

/// One move of an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    /// One square in a compass direction.
    Go(Dir),
    /// Stay in place.
    Nothing,
    /// Jump to a random free square (5 points; only when eligible).
    Teleport,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Go(dir) => f.write_str(dir.name()),
            Move::Nothing => f.write_str("nothing"),
            Move::Teleport => f.write_str("teleport"),
        }
    }
}

/// The mode of a whole round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    /// Stomp: wins against striders, can tag when it.
    Stomp,
    /// Stride: recovers 1 point in a round without collisions.
    Stride,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Stomp => "stomp",
            Mode::Stride => "stride",
        })
    }
}

/// One player's order for a movement round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveOrder {
    /// One move per move the player has this round, in order.
    pub moves: Vec<Move>,
    /// The mode for the whole round.
    pub mode: Mode,
    /// Whether the player buys one extra move for every later round.
    pub upgrade: bool,
}

impl MoveOrder {
    /// The default order: nothing on every move, striding, no upgrade.
    pub fn idle(moves: usize) -> MoveOrder {
        MoveOrder {
            moves: vec![Move::Nothing; moves],
            mode: Mode::Stride,
            upgrade: false,
        }
    }

    /// The order with these moves and mode, no upgrade.
    pub fn new(moves: &[Move], mode: Mode) -> MoveOrder {
        MoveOrder {
            moves: moves.to_vec(),
            mode,
            upgrade: false,
        }
    }
}

impl fmt::Display for MoveOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("move")?;
        for m in &self.moves {
            write!(f, " {m}")?;
        }
        write!(f, " {}", self.mode)?;
        if self.upgrade {
            f.write_str(" upgrade")?;
        }
        Ok(())
    }
}

/// One player of a TAG game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tagger {
    /// Display name.
    pub name: String,
    /// The symbol shown on the map.
    pub symbol: String,
    /// Life points (may be 0 or below during a round).
    pub points: i64,
    /// The minimum bid drawn at setup.
    pub min_bid: u64,
    /// The bid paid in the bid round, once revealed.
    pub bid: Option<u64>,
    /// Moves per round (1 plus upgrades).
    pub moves: usize,
    /// Where the player stands (none before placement and after elimination).
    pub square: Option<Square>,
    /// Whether the player is still in the game.
    pub alive: bool,
    /// Whether the player teleported in the last round (so may teleport again).
    pub teleported_last_round: bool,
}

/// Where a game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Secret bids are awaited.
    Bids,
    /// Secret movement orders for this round (from 1) are awaited.
    Moves {
        /// The movement round.
        round: u32,
    },
    /// The game is over.
    Over {
        /// Final places, best first, one seat per place.
        ranking: Vec<usize>,
    },
}

/// Why an order does not fit the player's state.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OrderError {
    /// The seat is not a living player of this game.
    #[error("you are not a player still in this game")]
    NotPlaying,
    /// A bid was sent outside the bid round, or moves outside a movement round.
    #[error("{0}")]
    WrongRound(&'static str),
    /// The bid is under the player's minimum.
    #[error("your bid {bid} is below your minimum bid {min}; send `bid {min}` or more")]
    BidTooLow {
        /// The bid sent.
        bid: u64,
        /// The player's minimum bid.
        min: u64,
    },
    /// The order has the wrong number of moves.
    #[error("you have {expected} move{} this round but the order gives {got}; send exactly {expected} (`nothing` to stay)", if *.expected == 1 { "" } else { "s" })]
    MoveCount {
        /// Moves the player has.
        expected: usize,
        /// Moves in the order.
        got: usize,
    },
    /// A teleport while not eligible.
    #[error("you may teleport only in the round right after a tag or right after you teleported, and this round is neither")]
    TeleportNotAllowed,
}

/// The whole state of a TAG game (secrets included: bids are only in orders until revealed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagState {
    /// The players, indexed by seat.
    pub players: Vec<Tagger>,
    /// The side of the square grid.
    pub side: u32,
    /// Where the game stands.
    pub stage: Stage,
    /// The itness queue, front first (living players only).
    pub queue: Vec<usize>,
    /// The player who is it.
    pub it: Option<usize>,
    /// Whether somebody was tagged in the last round (so everybody may teleport).
    pub tagged_last_round: bool,
    /// Eliminated players, one group per round, chronological, each group best first.
    pub out: Vec<Vec<usize>>,
}

/// The grid side for a game that entered the bid round with `players` players.
pub fn grid_side(players: usize) -> u32 {
    let extra = players.saturating_sub(10).div_ceil(5);
    5 + u32::try_from(extra).unwrap_or(u32::MAX - 5)
}

/// A uniformly random square of the grid that is not in `taken` (`None` if the grid is full).
/// Draws a square of the whole grid up to 64 times until a free one comes up (cheap on the
/// sparse grids of the rules), then falls back to picking the k-th free square.
pub fn random_free_square(
    side: u32,
    taken: &HashSet<Square>,
    dice: &mut Dice,
    purpose: Cow<'static, str>,
) -> Option<Square> {
    let cells = u64::from(side) * u64::from(side);
    if taken.len() as u64 >= cells {
        return None;
    }
    let pick_from = |index: u64| {
        Square::new(
            (index % u64::from(side)) as u32,
            (index / u64::from(side)) as u32,
        )
    };
    if let Ok(count) = usize::try_from(cells) {
        if count <= u32::MAX as usize {
            for _ in 0..64 {
                let index = dice.pick(purpose.clone(), count) as u64;
                let square = pick_from(index);
                if !taken.contains(&square) {
                    return Some(square);
                }
            }
        }
    }
    let mut sorted: Vec<u64> = taken
        .iter()
        .map(|s| u64::from(s.row) * u64::from(side) + u64::from(s.col))
        .collect();
    sorted.sort_unstable();
    let free = usize::try_from(cells - sorted.len() as u64).unwrap_or(usize::MAX);
    let mut index = dice.pick(purpose, free) as u64;
    for occupied in sorted {
        if occupied <= index {
            index += 1;
        } else {
            break;
        }
    }
    Some(pick_from(index))
}

/// What the bid round did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidReport {
    /// Every player's bid (seat, bid, whether it was the default), in seat order.
    pub bids: Vec<(usize, u64, bool)>,
    /// Players the bids eliminated, best first.
    pub eliminated: Vec<usize>,
    /// The player who became it.
    pub it: Option<usize>,
}

impl TagState {
    /// A new game in the bid round: minimum bids are a seeded permutation of 1..N.
    pub fn new_game(players: &[(String, String)], dice: &mut Dice) -> TagState {
        let mut mins: Vec<u64> = (1..=players.len() as u64).collect();
        dice.shuffle("minimum bids", &mut mins);
        let players = players
            .iter()
            .zip(mins)
            .map(|((name, symbol), min_bid)| Tagger {
                name: name.clone(),
                symbol: symbol.clone(),
                points: START_POINTS,
                min_bid,
                bid: None,
                moves: 1,
                square: None,
                alive: true,
                teleported_last_round: false,
            })
            .collect::<Vec<_>>();
        TagState {
            side: grid_side(players.len()),
            players,
            stage: Stage::Bids,
            queue: Vec::new(),
            it: None,
            tagged_last_round: false,
            out: Vec::new(),
        }
    }

    /// Seats of the players still in, in seat order.
    pub fn living(&self) -> Vec<usize> {
        (0..self.players.len())
            .filter(|&s| self.players.get(s).is_some_and(|p| p.alive))
            .collect()
    }

    /// Checks a bid for `seat`.
    pub fn check_bid(&self, seat: usize, bid: u64) -> Result<(), OrderError> {
        if self.stage != Stage::Bids {
            return Err(OrderError::WrongRound(
                "bids are over; send your moves (like `move n stride`)",
            ));
        }
        let player = self.players.get(seat).ok_or(OrderError::NotPlaying)?;
        if bid < player.min_bid {
            return Err(OrderError::BidTooLow {
                bid,
                min: player.min_bid,
            });
        }
        Ok(())
    }

    /// Whether `seat` may teleport this round.
    pub fn may_teleport(&self, seat: usize) -> bool {
        self.tagged_last_round
            || self
                .players
                .get(seat)
                .is_some_and(|p| p.teleported_last_round)
    }

    /// Checks a movement order for `seat`.
    pub fn check_move_order(&self, seat: usize, order: &MoveOrder) -> Result<(), OrderError> {
        if !matches!(self.stage, Stage::Moves { .. }) {
            return Err(OrderError::WrongRound(
                "this is not a movement round; send `bid <number>` during the bids",
            ));
        }
        let player = self
            .players
            .get(seat)
            .filter(|p| p.alive)
            .ok_or(OrderError::NotPlaying)?;
        if order.moves.len() != player.moves {
            return Err(OrderError::MoveCount {
                expected: player.moves,
                got: order.moves.len(),
            });
        }
        if order.moves.contains(&Move::Teleport) && !self.may_teleport(seat) {
            return Err(OrderError::TeleportNotAllowed);
        }
        Ok(())
    }

    /// Reveals the bids (missing or too low: the minimum), pays them, builds the queue,
    /// eliminates, names it and places the survivors on random squares.
    pub fn resolve_bids(&mut self, bids: &BTreeMap<usize, u64>, dice: &mut Dice) -> BidReport {
        let mut report_bids = Vec::new();
        for (seat, player) in self.players.iter_mut().enumerate() {
            if !player.alive {
                continue;
            }
            let (bid, defaulted) = match bids.get(&seat) {
                Some(&b) if b >= player.min_bid => (b, false),
                _ => (player.min_bid, true),
            };
            player.bid = Some(bid);
            player.points = player
                .points
                .saturating_sub(i64::try_from(bid).unwrap_or(i64::MAX));
            // Bids are at most i64::MAX (parse::MAX_BID), so this is exact for any score of
            // 0 or more.
            report_bids.push((seat, bid, defaulted));
        }
        let mut queue: Vec<usize> = self.living();
        queue.sort_by_key(|&s| {
            let p = &self.players[s];
            (p.bid.unwrap_or(p.min_bid), p.min_bid)
        });
        let eliminated: Vec<usize> = queue
            .iter()
            .copied()
            .filter(|&s| self.players[s].points <= 0)
            .collect();
        for &s in &eliminated {
            self.players[s].alive = false;
        }
        queue.retain(|&s| self.players[s].alive);
        self.queue = queue;
        if !eliminated.is_empty() {
            self.out.push(eliminated.clone());
        }
        self.it = None;
        if !self.queue.is_empty() {
            let first = self.queue.remove(0);
            self.queue.push(first);
            self.it = Some(first);
        }
        let mut taken = HashSet::new();
        for seat in self.living() {
            let square = random_free_square(self.side, &taken, dice, "placement".into());
            if let Some(sq) = square {
                taken.insert(sq);
            }
            self.players[seat].square = square;
        }
        self.stage = if self.queue.len() <= 1 {
            Stage::Over {
                ranking: self.ranking(),
            }
        } else {
            Stage::Moves { round: 1 }
        };
        BidReport {
            bids: report_bids,
            eliminated,
            it: self.it,
        }
    }

    /// Final places so far: the living (in itness-queue order), then the eliminated, the
    /// latest eliminated first.
    pub fn ranking(&self) -> Vec<usize> {
        let mut ranking: Vec<usize> = self.queue.clone();
        for group in self.out.iter().rev() {
            ranking.extend(group.iter().copied());
        }
        ranking
    }

    /// A builder for a test or puzzle position, already in movement round 1.
    pub fn builder(side: u32) -> Builder {
        Builder {
            state: TagState {
                players: Vec::new(),
                side,
                stage: Stage::Moves { round: 1 },
                queue: Vec::new(),
                it: None,
                tagged_last_round: false,
                out: Vec::new(),
            },
        }
    }
}

impl TagState {
    /// Takes a leaving player out at once (next place down, it hand-over); returns who
    /// became it by the hand-over.
    pub fn remove(&mut self, seat: usize) -> Option<usize> {
        let alive = self.players.get(seat).is_some_and(|p| p.alive);
        if !alive || matches!(self.stage, Stage::Over { .. }) {
            return None;
        }
        if let Some(p) = self.players.get_mut(seat) {
            p.alive = false;
            p.square = None;
        }
        self.queue.retain(|&s| s != seat);
        self.out.push(vec![seat]);
        let mut handover = None;
        if self.it == Some(seat) {
            self.it = None;
            if !self.queue.is_empty() && self.stage != Stage::Bids {
                let first = self.queue.remove(0);
                self.queue.push(first);
                self.it = Some(first);
                handover = Some(first);
            }
        }
        let left = if self.stage == Stage::Bids {
            self.living().len()
        } else {
            self.queue.len()
        };
        if left <= 1 {
            let mut ranking: Vec<usize> = self.living();
            ranking.extend(
                self.ranking()
                    .into_iter()
                    .filter(|s| self.players.get(*s).is_some_and(|p| !p.alive)),
            );
            self.stage = Stage::Over { ranking };
        }
        handover
    }
}

/// Builds a position in a movement round without bids (for tests and examples). Players
/// get seats in the order they are added; the itness queue is that order unless set.
#[derive(Clone, Debug)]
pub struct Builder {
    state: TagState,
}

impl Builder {
    /// Adds a player (symbol = name) on `square` (written like `c3`) with `points`.
    /// A square that does not parse leaves the player off the grid.
    pub fn player(mut self, name: &str, square: &str, points: i64) -> Builder {
        let seat = self.state.players.len();
        self.state.players.push(Tagger {
            name: name.to_string(),
            symbol: name.to_string(),
            points,
            min_bid: seat as u64 + 1,
            bid: Some(seat as u64 + 1),
            moves: 1,
            square: Square::parse(square),
            alive: true,
            teleported_last_round: false,
        });
        self.state.queue.push(seat);
        self
    }

    /// Gives the last added player this many moves per round.
    pub fn moves(mut self, moves: usize) -> Builder {
        if let Some(p) = self.state.players.last_mut() {
            p.moves = moves;
        }
        self
    }

    /// Marks the last added player as having teleported last round.
    pub fn teleported(mut self) -> Builder {
        if let Some(p) = self.state.players.last_mut() {
            p.teleported_last_round = true;
        }
        self
    }

    /// Makes `seat` it.
    pub fn it(mut self, seat: usize) -> Builder {
        self.state.it = Some(seat);
        self
    }

    /// Sets the itness queue (front first).
    pub fn queue(mut self, queue: &[usize]) -> Builder {
        self.state.queue = queue.to_vec();
        self
    }

    /// Records that somebody was tagged last round.
    pub fn tagged_last_round(mut self) -> Builder {
        self.state.tagged_last_round = true;
        self
    }

    /// The finished position.
    pub fn build(self) -> TagState {
        self.state
    }
}
