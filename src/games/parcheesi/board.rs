//! The board of the rules page: the 68-square ring, safe squares, entry and turn-off squares,
//! home rows and HOME, the pawns' spots, and whether one pawn may make one move.
//!
//! Everything here is a pure function of a [`Position`]; the rules about whole rolls (every
//! die used, doubles, rewards) live in `engine`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Squares on the ring, numbered 0..67 in the direction of travel.
pub const RING: u8 = 68;
/// Squares in each home row; HOME comes after them.
pub const ROW: u8 = 7;
/// The home-row index that is HOME itself (exact count needed).
pub const HOME_STEP: u8 = ROW + 1;
/// Pawns per colour.
pub const PAWNS: usize = 4;
/// The twelve safe squares of the ring.
pub const SAFE: [u8; 12] = [0, 5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63];
/// Steps a pawn still has to make from its nest to HOME (entering counts as one).
pub const FULL_TRIP: u32 = 72;

/// A colour's whole home row, HOME included, as a home-row mask.
const WHOLE_ROW: u16 = (1 << (HOME_STEP + 1)) - 1;

const SAFE_MASK: u128 = {
    let mut mask = 0u128;
    let mut i = 0;
    while i < SAFE.len() {
        mask |= 1u128 << SAFE[i];
        i += 1;
    }
    mask
};

/// Whether ring square `square` is a safe square.
pub fn is_safe(square: u8) -> bool {
    square < RING && SAFE_MASK & (1u128 << square) != 0
}

/// The four colours, in the order they sit round the board (and take their turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Enters on 5, turns off at 0.
    Green,
    /// Enters on 22, turns off at 17.
    Red,
    /// Enters on 39, turns off at 34.
    Blue,
    /// Enters on 56, turns off at 51.
    Yellow,
}

impl Colour {
    /// All colours in board order.
    pub const ALL: [Colour; 4] = [Colour::Green, Colour::Red, Colour::Blue, Colour::Yellow];

    /// The colours' names, in the order of [`Colour::ALL`]: the game's palette.
    pub const NAMES: [&'static str; 4] = ["green", "red", "blue", "yellow"];

    /// 0 for green .. 3 for yellow.
    pub fn index(self) -> usize {
        match self {
            Colour::Green => 0,
            Colour::Red => 1,
            Colour::Blue => 2,
            Colour::Yellow => 3,
        }
    }

    /// The lowercase name used in texts and at `!join`.
    pub fn name(self) -> &'static str {
        Colour::NAMES[self.index()]
    }

    /// Reads a colour name (or its first letter), forgiving case and spaces.
    pub fn parse(text: &str) -> Option<Colour> {
        let text = text.trim().to_ascii_lowercase();
        Colour::ALL
            .into_iter()
            .find(|c| c.name() == text || c.name()[..1] == text)
    }

    /// The square where this colour's pawns come out of the nest.
    pub fn entry(self) -> u8 {
        self.turn_off() + 5
    }

    /// The last ring square before this colour's home row.
    pub fn turn_off(self) -> u8 {
        17 * self.index() as u8
    }

    /// How many squares a pawn of this colour on ring square `square` moves along the ring
    /// before it turns into its home row (0 on the turn-off square itself).
    #[inline]
    pub fn squares_to_turn_off(self, square: u8) -> u8 {
        // The engine asks this for every move it tries: a comparison, not two divisions.
        let square = if square < RING { square } else { square % RING };
        let turn_off = self.turn_off();
        if turn_off >= square {
            turn_off - square
        } else {
            turn_off + RING - square
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where one pawn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Spot {
    /// In its nest, waiting for a 5.
    Nest,
    /// On ring square 0..67.
    Ring(u8),
    /// On square 1..7 of its colour's home row.
    Row(u8),
    /// Arrived.
    Home,
}

impl Spot {
    /// Steps this pawn of `colour` still has to make to reach HOME.
    pub fn distance_left(self, colour: Colour) -> u32 {
        match self {
            Spot::Nest => FULL_TRIP,
            Spot::Ring(square) => {
                u32::from(colour.squares_to_turn_off(square)) + u32::from(HOME_STEP)
            }
            Spot::Row(step) => u32::from(HOME_STEP.saturating_sub(step)),
            Spot::Home => 0,
        }
    }

    /// Whether the spot is on the board (ring or home row): a pawn that can move.
    pub fn on_board(self) -> bool {
        matches!(self, Spot::Ring(_) | Spot::Row(_))
    }

    /// Whether the spot makes sense (squares in range).
    pub fn is_valid(self) -> bool {
        match self {
            Spot::Ring(square) => square < RING,
            Spot::Row(step) => (1..=ROW).contains(&step),
            Spot::Nest | Spot::Home => true,
        }
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spot::Nest => f.write_str("the nest"),
            Spot::Ring(square) => write!(f, "{square}"),
            Spot::Row(step) => write!(f, "home row {step}"),
            Spot::Home => f.write_str("HOME"),
        }
    }
}

/// Every pawn of every colour: `pawns[colour][pawn]`, pawns numbered 0..3 here (1..4 for
/// players). Colours not in the game keep their pawns in the nest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    /// The spots, by colour index then pawn index.
    pub pawns: [[Spot; PAWNS]; 4],
}

impl Default for Position {
    fn default() -> Self {
        Position {
            pawns: [[Spot::Nest; PAWNS]; 4],
        }
    }
}

impl Position {
    /// The spot of one pawn.
    pub fn spot(&self, colour: Colour, pawn: usize) -> Spot {
        self.pawns[colour.index()]
            .get(pawn)
            .copied()
            .unwrap_or(Spot::Nest)
    }

    /// Whether all four pawns of `colour` are out of the nest (HOME counts as out).
    pub fn all_out(&self, colour: Colour) -> bool {
        self.pawns[colour.index()].iter().all(|s| *s != Spot::Nest)
    }

    /// Whether all four pawns of `colour` are HOME.
    pub fn all_home(&self, colour: Colour) -> bool {
        self.pawns[colour.index()].iter().all(|s| *s == Spot::Home)
    }

    /// Steps all pawns of `colour` still have to make.
    pub fn distance_left(&self, colour: Colour) -> u32 {
        self.pawns[colour.index()]
            .iter()
            .map(|s| s.distance_left(colour))
            .sum()
    }

    /// The ring squares and home-row squares occupied, as bit masks. A ring square holds
    /// pawns of one colour only, so each colour's squares give the colour bits at once.
    pub fn occupancy(&self) -> Occupancy {
        let mut occ = Occupancy::default();
        let mut squares = [0u128; 4];
        for (c, pawns) in self.pawns.iter().enumerate() {
            for spot in pawns {
                // Both masks every time, one of them empty: no branch to mispredict.
                let (ring, row) = match *spot {
                    Spot::Ring(square) if square < RING => (1u128 << square, 0),
                    Spot::Row(step) if step <= ROW => (0, 1u16 << step),
                    _ => (0, 0),
                };
                occ.blockades |= squares[c] & ring;
                squares[c] |= ring;
                occ.row_two[c] |= occ.row_one[c] & row;
                occ.row_one[c] |= row;
            }
        }
        occ.any = squares[0] | squares[1] | squares[2] | squares[3];
        occ.low = squares[1] | squares[3];
        occ.high = squares[2] | squares[3];
        occ
    }

    /// The squares whose occupancy decides a move of `count` by pawn `pawn` of `colour` into
    /// its home row or along the ring, as ring and home-row bit masks; a superset: the square
    /// it stands on, those it passes and the one it lands on, and its whole home row when it
    /// goes into it or moves in it. A pawn in the nest or HOME gives every square.
    pub fn footprint(&self, colour: Colour, pawn: usize, count: u8) -> (u128, u16) {
        match self.spot(colour, pawn) {
            Spot::Ring(square) => {
                let to_turn_off = colour.squares_to_turn_off(square);
                if count <= to_turn_off {
                    (ring_span(square, count + 1), 0)
                } else {
                    (ring_span(square, to_turn_off + 1), WHOLE_ROW)
                }
            }
            Spot::Row(_) => (0, WHOLE_ROW),
            Spot::Nest | Spot::Home => (u128::MAX, u16::MAX),
        }
    }

    /// The pawn of `colour` standing on ring square `square`, if any (the first one).
    pub fn pawn_on(&self, colour: Colour, square: u8) -> Option<usize> {
        self.pawns[colour.index()]
            .iter()
            .position(|s| *s == Spot::Ring(square))
    }

    /// Pairs of pawns of `colour` forming blockades (two on one square, HOME excluded).
    pub fn blockades(&self, colour: Colour) -> Pairs {
        let mut pairs = Pairs::default();
        let pawns = &self.pawns[colour.index()];
        for p in 0..PAWNS {
            for q in p + 1..PAWNS {
                if pawns[p] == pawns[q] && pawns[p].on_board() {
                    pairs.push(p as u8, q as u8, pawns[p]);
                }
            }
        }
        pairs
    }
}

/// Up to two pairs of one colour's pawns with the spot they shared (blockades).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairs {
    /// The pairs: two pawn indices and their spot.
    pub items: [(u8, u8, Option<Spot>); 2],
    /// How many of `items` are in use.
    pub len: u8,
}

impl Pairs {
    /// Adds a pair (ignored beyond two, which four pawns cannot exceed).
    pub fn push(&mut self, p: u8, q: u8, spot: Spot) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = (p, q, Some(spot));
            self.len += 1;
        }
    }

    /// The pairs in use.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize, Spot)> + '_ {
        self.items
            .iter()
            .take(usize::from(self.len))
            .filter_map(|(p, q, s)| s.map(|s| (usize::from(*p), usize::from(*q), s)))
    }

    /// Whether there is no pair.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Who stands where, as bit masks (computed from a [`Position`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Occupancy {
    /// Ring squares holding at least one pawn.
    pub any: u128,
    /// Ring squares holding two pawns (blockades; always of one colour).
    pub blockades: u128,
    /// The colour index of the pawns on each occupied ring square: its low bit...
    pub low: u128,
    /// ...and its high bit.
    pub high: u128,
    /// Home-row squares (bit = step) holding at least one pawn, per colour.
    pub row_one: [u16; 4],
    /// Home-row squares holding two pawns (blockades), per colour.
    pub row_two: [u16; 4],
}

impl Occupancy {
    /// The occupancy after a pawn of `colour` went from `from` as `landing` says (a captured
    /// pawn going back to its nest), without recounting the whole board.
    pub fn after(&self, colour: Colour, from: Spot, landing: &Landing) -> Occupancy {
        let mut occ = *self;
        if let Some((other, _)) = landing.captured {
            occ.remove(other.index(), landing.to);
        }
        occ.remove(colour.index(), from);
        occ.add(colour.index(), landing.to);
        occ
    }

    /// The ring squares holding pawns of colour index `c`.
    pub fn squares_of(&self, c: usize) -> u128 {
        let low = if c & 1 != 0 { self.low } else { !self.low };
        let high = if c & 2 != 0 { self.high } else { !self.high };
        self.any & low & high
    }

    /// The colour index (0..3) of the pawns on ring square `square` (meaningful if occupied).
    pub fn owner(&self, square: u8) -> usize {
        ((((self.high >> square) & 1) << 1) | ((self.low >> square) & 1)) as usize
    }

    fn add_ring(&mut self, c: usize, square: u8) {
        let bit = 1u128 << square;
        if self.any & bit != 0 {
            self.blockades |= bit;
        } else {
            self.any |= bit;
        }
        self.low = (self.low & !bit) | if c & 1 != 0 { bit } else { 0 };
        self.high = (self.high & !bit) | if c & 2 != 0 { bit } else { 0 };
    }

    fn remove(&mut self, c: usize, spot: Spot) {
        match spot {
            Spot::Ring(square) if square < RING => {
                let bit = 1u128 << square;
                if self.blockades & bit != 0 {
                    self.blockades &= !bit;
                } else {
                    self.any &= !bit;
                    self.low &= !bit;
                    self.high &= !bit;
                }
            }
            Spot::Row(step) if step <= ROW => {
                let bit = 1u16 << step;
                if self.row_two[c] & bit != 0 {
                    self.row_two[c] &= !bit;
                } else {
                    self.row_one[c] &= !bit;
                }
            }
            _ => {}
        }
    }

    fn add(&mut self, c: usize, spot: Spot) {
        match spot {
            Spot::Ring(square) if square < RING => self.add_ring(c, square),
            Spot::Row(step) if step <= ROW => {
                let bit = 1u16 << step;
                if self.row_one[c] & bit != 0 {
                    self.row_two[c] |= bit;
                } else {
                    self.row_one[c] |= bit;
                }
            }
            _ => {}
        }
    }
}

/// Ring squares `from`, `from + 1`, ... (`len` of them, wrapping after 67) as a bit mask: the
/// first `len` bits, rotated by `from` within the ring's 68.
#[inline]
fn ring_span(from: u8, len: u8) -> u128 {
    const WHOLE_RING: u128 = (1u128 << RING) - 1;
    let from = u32::from(from % RING);
    let first = (1u128 << len.min(RING)) - 1;
    ((first << from) | (first >> (u32::from(RING) - from))) & WHOLE_RING
}

/// The 64 ring squares from `from` on, in the order of travel, as a mask of `mask`'s squares:
/// bit `k` is square `from + k` (wrapping after 67). `mask` holds ring squares only.
#[inline]
fn ring_ahead(mask: u128, from: u8) -> u64 {
    let from = u32::from(from % RING);
    ((mask >> from) | (mask << (u32::from(RING) - from))) as u64
}

/// The first square of `mask` (ring squares only) met in the `len` ring squares from `from`
/// on, in the order of travel.
#[inline]
fn first_ahead(mask: u128, from: u8, len: u8) -> Option<u8> {
    if len == 0 {
        return None;
    }
    if len > 64 {
        let passed = ring_span(from, len) & mask;
        return (passed != 0).then(|| first_in_travel(passed, from));
    }
    let hits = ring_ahead(mask, from) & (u64::MAX >> (64 - u32::from(len)));
    (hits != 0).then(|| ((u32::from(from % RING) + hits.trailing_zeros()) % u32::from(RING)) as u8)
}

/// The lowest set square of a ring mask, in the order of travel from `from`.
fn first_in_travel(mask: u128, from: u8) -> u8 {
    let from = from % RING;
    let high = mask & !((1u128 << from) - 1);
    let bits = if high != 0 { high } else { mask };
    bits.trailing_zeros() as u8
}

/// Why one pawn cannot make one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The pawn is in its nest: it can only enter.
    InNest,
    /// The pawn is already HOME.
    AtHome,
    /// `enter` for a pawn that is not in the nest.
    NotInNest,
    /// The move would go beyond HOME; it needs this exact count (or less).
    Overshoot {
        /// The largest count the pawn can still move: the squares to HOME.
        most: u8,
        /// Whether the pawn is already in its home row.
        in_row: bool,
    },
    /// `around` asked for a move that does not pass the turn-off square.
    NotPastTurnOff,
    /// A blockade stands on the way.
    Blockade {
        /// Where the blockade stands.
        at: Spot,
    },
    /// Another colour's blockade stands on the landing square.
    LandOnBlockade {
        /// The landing square.
        at: Spot,
    },
    /// Two own pawns already stand on the landing square.
    Full {
        /// The landing square.
        at: Spot,
    },
    /// An opposing pawn stands on the safe landing square.
    SafeTaken {
        /// The safe square.
        at: u8,
        /// The colour of the pawn on it.
        by: Colour,
    },
}

/// The words of a [`StepError`] for pawn number `pawn` (1-based).
pub fn explain(error: StepError, pawn: usize) -> String {
    match error {
        StepError::InNest => {
            format!("pawn {pawn} is in the nest and can only come out with a 5 (enter {pawn})")
        }
        StepError::AtHome => format!("pawn {pawn} is already HOME"),
        StepError::NotInNest => format!("pawn {pawn} is not in the nest"),
        StepError::Overshoot { most, in_row: true } => {
            format!("pawn {pawn} would overshoot HOME (it can move at most {most} in its home row)")
        }
        StepError::Overshoot {
            most,
            in_row: false,
        } => format!(
            "pawn {pawn} would overshoot HOME: it is {most} square{} from HOME",
            if most == 1 { "" } else { "s" }
        ),
        StepError::NotPastTurnOff => {
            format!("pawn {pawn} does not pass its turn-off square with that die, so it cannot go around")
        }
        StepError::Blockade { at } => format!("pawn {pawn} cannot pass the blockade on {at}"),
        StepError::LandOnBlockade { at } => {
            format!("pawn {pawn} cannot land on the blockade on {at}")
        }
        StepError::Full { at } => {
            format!("pawn {pawn} cannot land on {at}: two of your pawns already stand there")
        }
        StepError::SafeTaken { at, by } => {
            format!("pawn {pawn} cannot land on safe square {at}: a {by} pawn stands there")
        }
    }
}

/// What one legal move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Landing {
    /// Where the pawn ends.
    pub to: Spot,
    /// The opposing pawn (colour, 0-based pawn) sent back to its nest, if any.
    pub captured: Option<(Colour, u8)>,
}

impl Landing {
    /// Whether the move brings the pawn HOME.
    pub fn home(&self) -> bool {
        self.to == Spot::Home
    }
}

#[inline]
fn land_on_ring(
    pos: &Position,
    occ: &Occupancy,
    colour: Colour,
    square: u8,
    entering: bool,
) -> Result<Landing, StepError> {
    let bit = 1u128 << square;
    let me = colour.index();
    if occ.any & bit != 0 {
        let owner = occ.owner(square);
        if occ.blockades & bit != 0 {
            return Err(if owner == me {
                StepError::Full {
                    at: Spot::Ring(square),
                }
            } else {
                StepError::LandOnBlockade {
                    at: Spot::Ring(square),
                }
            });
        }
        if owner != me {
            let other = Colour::ALL.get(owner).copied().unwrap_or(colour);
            if is_safe(square) && !entering {
                return Err(StepError::SafeTaken {
                    at: square,
                    by: other,
                });
            }
            let captured = pos.pawn_on(other, square).map(|p| (other, p as u8));
            return Ok(Landing {
                to: Spot::Ring(square),
                captured,
            });
        }
    }
    Ok(Landing {
        to: Spot::Ring(square),
        captured: None,
    })
}

/// Whether pawn `pawn` of `colour` may come out of its nest onto its entry square (the dice
/// are checked by the caller). A single opposing pawn there is captured (rule 12's exception).
pub fn try_enter(
    pos: &Position,
    occ: &Occupancy,
    colour: Colour,
    pawn: usize,
) -> Result<Landing, StepError> {
    if pos.spot(colour, pawn) != Spot::Nest {
        return Err(StepError::NotInNest);
    }
    land_on_ring(pos, occ, colour, colour.entry(), true)
}

/// Whether pawn `pawn` of `colour` may move `count` squares, into its home row when it passes
/// its turn-off square (or round the ring again when `around`).
#[inline]
pub fn try_move(
    pos: &Position,
    occ: &Occupancy,
    colour: Colour,
    pawn: usize,
    count: u8,
    around: bool,
) -> Result<Landing, StepError> {
    let me = colour.index();
    match pos.spot(colour, pawn) {
        Spot::Nest => Err(StepError::InNest),
        Spot::Home => Err(StepError::AtHome),
        Spot::Row(step) => {
            if around {
                return Err(StepError::NotPastTurnOff);
            }
            row_move(occ, me, step, count)
        }
        Spot::Ring(square) => {
            let to_turn_off = colour.squares_to_turn_off(square);
            if count <= to_turn_off || around {
                if around && count <= to_turn_off {
                    return Err(StepError::NotPastTurnOff);
                }
                if let Some(at) = first_ahead(occ.blockades, square + 1, count.saturating_sub(1)) {
                    return Err(StepError::Blockade { at: Spot::Ring(at) });
                }
                land_on_ring(pos, occ, colour, (square + count) % RING, false)
            } else {
                let step = count - to_turn_off;
                if step > HOME_STEP {
                    return Err(StepError::Overshoot {
                        most: to_turn_off + HOME_STEP,
                        in_row: false,
                    });
                }
                if let Some(at) = first_ahead(occ.blockades, square + 1, to_turn_off) {
                    return Err(StepError::Blockade { at: Spot::Ring(at) });
                }
                row_move(occ, me, 0, step)
            }
        }
    }
}

fn row_move(occ: &Occupancy, me: usize, from: u8, count: u8) -> Result<Landing, StepError> {
    let to = from + count;
    if to > HOME_STEP {
        return Err(StepError::Overshoot {
            most: HOME_STEP - from,
            in_row: true,
        });
    }
    // Squares strictly between `from` and `to` (home-row steps 1..7).
    let between: u16 = ((1u16 << to) - 1) & !((2u16 << from) - 1);
    let passed = between & occ.row_two[me];
    if passed != 0 {
        return Err(StepError::Blockade {
            at: Spot::Row(passed.trailing_zeros() as u8),
        });
    }
    if to == HOME_STEP {
        return Ok(Landing {
            to: Spot::Home,
            captured: None,
        });
    }
    if occ.row_two[me] & (1 << to) != 0 {
        return Err(StepError::Full { at: Spot::Row(to) });
    }
    Ok(Landing {
        to: Spot::Row(to),
        captured: None,
    })
}

/// One pawn playing several dice in a row, forward only (never round again): where it ends and
/// the squares its moves depend on (the union of [`Position::footprint`] over its moves). On
/// the ring they are one stretch, kept as its first square and length: the engine asks of a
/// few squares whether they lie in it, which is cheaper than building a mask.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// The first ring square the moves depend on (the pawn's own, 0 to 67)...
    pub ring_from: u8,
    /// ...and how many, in the order of travel (0 for a pawn in its home row).
    pub ring_len: u8,
    /// Home-row squares the moves depend on.
    pub row: u16,
    /// Where the pawn ends.
    pub end: Spot,
}

impl Run {
    /// Whether the moves depend on what stands on `spot` (nothing in a nest or at HOME).
    #[inline]
    pub fn depends_on(&self, spot: Spot) -> bool {
        match spot {
            Spot::Ring(square) if square < RING => {
                let ahead = if square >= self.ring_from {
                    square - self.ring_from
                } else {
                    square + RING - self.ring_from
                };
                ahead < self.ring_len
            }
            Spot::Row(step) if step <= HOME_STEP => self.row & (1 << step) != 0,
            _ => false,
        }
    }
}

/// Whether pawn `pawn` of `colour` can play `dice` one after another in this order, each move
/// forward along the ring or into its home row; its [`Run`] if so.
///
/// Every move is judged on `occ`, the occupancy before the first: a pawn going forward only
/// changes the squares it leaves and lands on (and sends a captured pawn from a landing square
/// to its nest), which lie behind the squares its later moves pass and land on. So the whole
/// run is one pass over its path: no blockade on the ring squares it passes or lands on, no
/// opposing pawn on a safe square it lands on, no own blockade in its home row, and no
/// overshoot of HOME. Only dice of a roll make a run (at most four, each 1 to 6); other dice
/// give none.
#[inline]
pub fn try_run(
    pos: &Position,
    occ: &Occupancy,
    colour: Colour,
    pawn: usize,
    dice: &[u8],
) -> Option<Run> {
    if dice.len() > 4 || dice.iter().any(|die| !(1..=6).contains(die)) {
        return None;
    }
    let me = colour.index();
    let total: u8 = dice.iter().sum();
    // The end of `steps` squares in the home row from step `from`, if every square passed or
    // landed on (HOME aside) is free of an own blockade.
    let row_path = |from: u8, steps: u8| -> Option<Spot> {
        let to = from.checked_add(steps).filter(|to| *to <= HOME_STEP)?;
        let path: u16 = ((2u16 << to.min(ROW)) - 1) & !((2u16 << from) - 1);
        if path & occ.row_two[me] != 0 {
            return None;
        }
        Some(if to == HOME_STEP {
            Spot::Home
        } else {
            Spot::Row(to)
        })
    };
    match pos.spot(colour, pawn) {
        Spot::Row(from) => Some(Run {
            ring_from: 0,
            ring_len: 0,
            row: WHOLE_ROW,
            end: row_path(from, total)?,
        }),
        Spot::Ring(square) => {
            let to_turn_off = colour.squares_to_turn_off(square);
            let on_ring = total.min(to_turn_off);
            // Bit `k`: the square `k` ahead of the pawn. The dice checked above (at most four,
            // each 1 to 6) keep a run within 24 squares, so every shift below fits 64 bits.
            if on_ring > 0 {
                let passed = (u64::MAX >> (64 - u32::from(on_ring))) << 1;
                if ring_ahead(occ.blockades, square) & passed != 0 {
                    return None;
                }
            }
            let mut landings = 0u64;
            let mut sum = 0u8;
            for &die in dice {
                sum += die;
                if sum <= to_turn_off {
                    landings |= 1u64 << sum;
                }
            }
            let taken_safe = SAFE_MASK & occ.any & !occ.squares_of(me);
            if landings & ring_ahead(taken_safe, square) != 0 {
                return None;
            }
            let (end, row) = if total <= to_turn_off {
                (Spot::Ring((square + total) % RING), 0)
            } else {
                (row_path(0, total - to_turn_off)?, WHOLE_ROW)
            };
            Some(Run {
                ring_from: square % RING,
                ring_len: on_ring + 1,
                row,
                end,
            })
        }
        Spot::Nest | Spot::Home => None,
    }
}

/// Plays a move already found legal: the pawn lands, a captured pawn goes to its nest.
pub fn apply(pos: &mut Position, colour: Colour, pawn: usize, landing: Landing) {
    if let Some(slot) = pos.pawns[colour.index()].get_mut(pawn) {
        *slot = landing.to;
    }
    if let Some((other, p)) = landing.captured {
        if let Some(slot) = pos.pawns[other.index()].get_mut(usize::from(p)) {
            *slot = Spot::Nest;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_enter_and_turn_off_where_the_table_says() {
        let expected = [(5, 0), (22, 17), (39, 34), (56, 51)];
        for (c, (entry, off)) in Colour::ALL.into_iter().zip(expected) {
            assert_eq!((c.entry(), c.turn_off()), (entry, off));
        }
        assert_eq!(Spot::Ring(5).distance_left(Colour::Green), 71);
        assert_eq!(Spot::Ring(0).distance_left(Colour::Green), 8);
        assert_eq!(Spot::Ring(0).distance_left(Colour::Red), 25);
        assert_eq!(SAFE.iter().filter(|s| is_safe(**s)).count(), 12);
        assert!(!is_safe(6));
    }

    /// The ring squares a run depends on, as a mask.
    fn ring_squares(run: &Run) -> u128 {
        ring_span(run.ring_from, run.ring_len)
    }

    /// A spot as ring and home-row bit masks (nothing for the nest and HOME).
    fn bits(spot: Spot) -> (u128, u16) {
        match spot {
            Spot::Ring(square) if square < RING => (1 << square, 0),
            Spot::Row(step) if step <= HOME_STEP => (0, 1 << step),
            _ => (0, 0),
        }
    }

    /// `try_run` the slow way: one `try_move` after another (each judged on the occupancy
    /// before the run, as `try_run` says is exact), the footprints of the moves joined.
    fn run_step_by_step(
        pos: &Position,
        occ: &Occupancy,
        colour: Colour,
        pawn: usize,
        dice: &[u8],
    ) -> Option<(u128, u16, Spot)> {
        let mut pos = *pos;
        let (mut ring, mut row) = (0u128, 0u16);
        for &die in dice {
            let (r, w) = pos.footprint(colour, pawn, die);
            ring |= r;
            row |= w;
            let landing = try_move(&pos, occ, colour, pawn, die, false).ok()?;
            apply(&mut pos, colour, pawn, landing);
        }
        Some((ring, row, pos.spot(colour, pawn)))
    }

    #[test]
    fn a_run_worked_out_in_one_pass_is_the_run_played_move_by_move() {
        let mut seed = 0x5851_f42d_4c95_7f2du64;
        let mut below = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut runs, mut refusals) = (0, 0);
        for case in 0..20_000 {
            // Pawns crowded near one colour's turn-off, so runs meet blockades, safe squares
            // and the home row.
            let colour = Colour::ALL[case % 4];
            let mut pos = Position::default();
            let mut ring = [(None::<Colour>, 0u8); 68];
            for c in Colour::ALL {
                let mut rows = [0u8; 8];
                for pawn in 0..PAWNS {
                    for _ in 0..20 {
                        if below(6) == 0 {
                            let step = 1 + below(7);
                            if rows[step] < 2 {
                                rows[step] += 1;
                                pos.pawns[c.index()][pawn] = Spot::Row(step as u8);
                                break;
                            }
                            continue;
                        }
                        let square = (usize::from(colour.turn_off()) + 68 - 20 + below(24)) % 68;
                        let (owner, count) = ring[square];
                        if count == 0 || (owner == Some(c) && count < 2) {
                            ring[square] = (Some(c), count + 1);
                            pos.pawns[c.index()][pawn] = Spot::Ring(square as u8);
                            break;
                        }
                    }
                }
            }
            let occ = pos.occupancy();
            let dice: Vec<u8> = (0..1 + below(4)).map(|_| 1 + below(6) as u8).collect();
            for pawn in 0..PAWNS {
                let fast = try_run(&pos, &occ, colour, pawn, &dice);
                assert_eq!(
                    fast.map(|run| (ring_squares(&run), run.row, run.end)),
                    run_step_by_step(&pos, &occ, colour, pawn, &dice),
                    "case {case}: {colour} pawn {pawn} dice {dice:?} in {pos:?}"
                );
                // Asking of a spot gives what the masks give, for every spot there is.
                if let Some(run) = fast {
                    let ring = (0..RING).map(Spot::Ring);
                    let row = (0..=HOME_STEP).map(Spot::Row);
                    for spot in ring.chain(row).chain([Spot::Nest, Spot::Home]) {
                        let (ring, row) = bits(spot);
                        assert_eq!(
                            run.depends_on(spot),
                            ring_squares(&run) & ring != 0 || run.row & row != 0,
                            "case {case}: {spot:?} against {run:?}"
                        );
                    }
                }
                if fast.is_some() {
                    runs += 1;
                } else {
                    refusals += 1;
                }
            }
        }
        // Both answers come up often, so the agreement means something.
        assert!(
            runs > 10_000 && refusals > 10_000,
            "{runs} runs, {refusals} refusals"
        );
    }

    #[test]
    fn the_first_blockade_ahead_is_the_first_met_in_the_span_travelled() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let whole_ring = (1u128 << RING) - 1;
        let mut found = 0;
        for _ in 0..300 {
            // Sparse masks, like the blockades of a board, and dense ones.
            let mut mask = (u128::from(next()) << 64 | u128::from(next())) & whole_ring;
            if next() % 2 == 0 {
                mask &= (u128::from(next()) << 64 | u128::from(next())) & whole_ring;
                mask &= u128::from(next()) << 64 | u128::from(next());
            }
            for from in 0..=RING {
                for len in 0..=RING {
                    let span = ring_span(from, len) & mask;
                    let slow = (span != 0).then(|| first_in_travel(span, from));
                    assert_eq!(
                        first_ahead(mask, from, len),
                        slow,
                        "{mask:#x} from {from} len {len}"
                    );
                    found += usize::from(slow.is_some());
                }
            }
        }
        assert!(found > 300_000, "{found} spans met a square");
    }

    #[test]
    fn ring_spans_wrap_after_67() {
        assert_eq!(ring_span(66, 4), 1 << 66 | 1 << 67 | 1 | 2);
        assert_eq!(first_in_travel(1 | 1 << 67, 66), 67);
    }
}
