//! The exact completion solver: can the board be completed with the remaining supply?
//!
//! The search walks the squares in row-major order and keeps a frontier: for each column the
//! strand end (if any) crossing from the rows above into the square being decided, plus the
//! end coming from its west neighbour. Ends are labelled so that the two ends of one partial
//! path share a label. Given which of the north and west ends are present, a square has at
//! most two possibilities (e.g. both present: `┘` joins them or `┼` carries both on), so the
//! branching is small. A `┘` joining the two ends of one path closes a loop, which is a
//! solution only if no other end is open and no piece of the board lies further on.
//!
//! Pruning: ends may not point off the board; board pieces must fit exactly; board thunder
//! pieces take any reading for free; each open end pointing at an empty square needs a piece,
//! so the supply must cover them; a state (square, frontier) that failed with some supply
//! fails with any smaller supply (memoised with this dominance); and a thunder piece from the
//! supply is used for a shape only when that shape's own kind has run out (a thunder can do
//! everything another piece can, so keeping it is never worse).
//!
//! Reaching the completion by legal turns: the solver judges the final configuration only.
//! That suffices, because on a non-empty board the pieces a completion adds lie on one
//! connected loop with the board's pieces, so they can be placed one at a time, each touching
//! a piece already there; on an empty board the first piece may go anywhere (and any loop needs
//! at least four pieces, the four turns of a 2x2 square). Should an earlier placement of that
//! sequence already complete a circuit (a thunder piece read another way can close a smaller
//! loop), the circuit is completed all the same.

use super::circuit;
use super::piece::{Dir, Kind, Piece};
use super::position::{Grid, Position, Square, Supply};
use std::collections::HashMap;

/// Where a piece of a witness comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// It was on the board already (a thunder piece there gets a reading).
    Board,
    /// It is placed from the supply, using a piece of this kind.
    Supply(Kind),
}

/// A completed board: every square's concrete reading and where each piece comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The board with every piece concrete (thunder pieces replaced by their reading).
    pub grid: Grid,
    /// For each piece of `grid`, in row-major order: its square, its reading, where it comes
    /// from, and whether it is a thunder piece.
    pub pieces: Vec<(Square, Piece, Source, bool)>,
    /// The supply left over after the completion.
    pub supply_left: Supply,
}

impl Witness {
    /// Whether the witness's board passes the concrete completion test.
    pub fn check(&self) -> Result<(), circuit::Fault> {
        circuit::check_loop(&self.grid)
    }

    /// The witness in the position text format, with comment lines naming the thunder
    /// readings and the pieces to place.
    pub fn to_text(&self) -> String {
        let mut out = Position {
            grid: self.grid.clone(),
            supply: self.supply_left,
        }
        .to_text();
        for (square, piece, source, thunder) in &self.pieces {
            match source {
                Source::Board if *thunder => {
                    out.push_str(&format!("# thunder on {square} reads {}\n", piece.glyph()));
                }
                Source::Board => {}
                Source::Supply(Kind::Thunder) => out.push_str(&format!(
                    "# place thunder on {square}, read as {}\n",
                    piece.glyph()
                )),
                Source::Supply(_) => {
                    out.push_str(&format!("# place {square} {}\n", piece.describe()))
                }
            }
        }
        out
    }
}

/// The solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// The circuit can be completed; the witness shows how.
    Completable(Witness),
    /// No placement of the remaining supply completes the circuit.
    Impossible,
}

impl Solution {
    /// `completable` and the witness, or `impossible`: what `referee solve` and the GM's hint
    /// print.
    pub fn to_text(&self) -> String {
        match self {
            Solution::Completable(witness) => format!("completable\n{}", witness.to_text()),
            Solution::Impossible => "impossible\n".to_string(),
        }
    }
}

/// Decides exactly whether `grid` can be completed with `supply`, with a witness if so.
pub fn solve(grid: &Grid, supply: &Supply) -> Solution {
    solve_within(grid, supply, u64::MAX).unwrap_or(Solution::Impossible)
}

/// Search steps the game allows itself when it consults the solver during a match (a few
/// seconds at most; the positions of the benchmark need a few thousand at worst).
pub const MATCH_BUDGET: u64 = 3_000_000;

/// Like [`solve`], but gives up (`None`) after `steps` search steps, so a match never waits
/// long on a huge, contrived position.
pub fn solve_within(grid: &Grid, supply: &Supply, steps: u64) -> Option<Solution> {
    if grid.cols() > super::position::MAX_SIDE || grid.cells().len() != grid.cols() * grid.rows() {
        return Some(Solution::Impossible);
    }
    if !statically_possible(grid, supply) {
        return Some(Solution::Impossible);
    }
    let symmetry = Symmetry::best(grid);
    let turned = symmetry.grid(grid);
    let mut search = Search::new(&turned, steps);
    let counts = [
        clamp(supply.straight),
        clamp(supply.turn),
        clamp(supply.cross),
        clamp(supply.thunder),
    ];
    let front = [0u8; SLOTS];
    if !search.dfs(0, front, counts) {
        return (search.steps_left > 0).then_some(Solution::Impossible);
    }
    let mut done = grid.clone();
    let mut pieces = Vec::new();
    let mut left = *supply;
    for square in grid.squares() {
        let there = symmetry.square(square, grid.cols(), grid.rows());
        let choice = search
            .choice
            .get(there.row * search.cols + there.col)
            .copied()
            .flatten();
        if let Some((piece, source)) = choice {
            let piece = symmetry.undo_piece(piece);
            done.set(square, Some(piece));
            let thunder = match source {
                Source::Board => grid.get(square) == Some(Piece::Thunder),
                Source::Supply(kind) => {
                    let count = left.count_mut(kind);
                    *count = count.saturating_sub(1);
                    kind == Kind::Thunder
                }
            };
            pieces.push((square, piece, source, thunder));
        }
    }
    Some(Solution::Completable(Witness {
        grid: done,
        pieces,
        supply_left: left,
    }))
}

/// One of the eight symmetries of the rectangle: the search runs on the turned board whose
/// first board piece comes earliest in row-major order (then the narrowest), so that little
/// empty space is explored before the pieces constrain the search.
#[derive(Clone, Copy, Debug)]
struct Symmetry {
    flip_cols: bool,
    flip_rows: bool,
    transpose: bool,
}

impl Symmetry {
    fn all() -> impl Iterator<Item = Symmetry> {
        (0..8).map(|bits| Symmetry {
            flip_cols: bits & 1 != 0,
            flip_rows: bits & 2 != 0,
            transpose: bits & 4 != 0,
        })
    }

    fn best(grid: &Grid) -> Symmetry {
        let score = |symmetry: &Symmetry| {
            let (cols, _) = symmetry.size(grid);
            let first = grid
                .squares()
                .filter(|square| grid.get(*square).is_some())
                .map(|square| {
                    let there = symmetry.square(square, grid.cols(), grid.rows());
                    there.row * cols + there.col
                })
                .min()
                .unwrap_or(0);
            (first, cols)
        };
        Symmetry::all().min_by_key(score).unwrap_or(Symmetry {
            flip_cols: false,
            flip_rows: false,
            transpose: false,
        })
    }

    fn size(self, grid: &Grid) -> (usize, usize) {
        if self.transpose {
            (grid.rows(), grid.cols())
        } else {
            (grid.cols(), grid.rows())
        }
    }

    fn square(self, square: Square, cols: usize, rows: usize) -> Square {
        let col = if self.flip_cols {
            cols - 1 - square.col
        } else {
            square.col
        };
        let row = if self.flip_rows {
            rows - 1 - square.row
        } else {
            square.row
        };
        if self.transpose {
            Square { col: row, row: col }
        } else {
            Square { col, row }
        }
    }

    fn dir(self, side: Dir) -> Dir {
        let side = match side {
            Dir::East | Dir::West if self.flip_cols => side.opposite(),
            Dir::North | Dir::South if self.flip_rows => side.opposite(),
            _ => side,
        };
        if !self.transpose {
            return side;
        }
        match side {
            Dir::North => Dir::West,
            Dir::West => Dir::North,
            Dir::South => Dir::East,
            Dir::East => Dir::South,
        }
    }

    fn piece(self, piece: Piece) -> Piece {
        let Some(ends) = piece.ends() else {
            return piece;
        };
        let turned = Dir::ALL
            .into_iter()
            .filter(|side| ends & side.bit() != 0)
            .fold(0, |mask, side| mask | self.dir(side).bit());
        Piece::SHAPES
            .into_iter()
            .find(|shape| shape.ends() == Some(turned))
            .unwrap_or(piece)
    }

    fn undo_piece(self, turned: Piece) -> Piece {
        Piece::SHAPES
            .into_iter()
            .find(|piece| self.piece(*piece) == turned)
            .unwrap_or(turned)
    }

    fn grid(self, grid: &Grid) -> Grid {
        let (cols, rows) = self.size(grid);
        let mut turned = Grid::new(cols, rows).unwrap_or_else(|_| grid.clone());
        for square in grid.squares() {
            turned.set(
                self.square(square, grid.cols(), grid.rows()),
                grid.get(square).map(|piece| self.piece(piece)),
            );
        }
        turned
    }
}

/// Whether the board is complete as it stands (no piece added): the reading of its thunder
/// pieces that makes it one loop, if there is one.
pub fn complete_reading(grid: &Grid) -> Option<Witness> {
    match solve(grid, &Supply::default()) {
        Solution::Completable(witness) => Some(witness),
        Solution::Impossible => None,
    }
}

/// Solves a position given in the text format and prints the answer (`referee solve FILE`).
pub fn solve_text(text: &str) -> Result<String, super::position::FormatError> {
    let position = Position::parse(text)?;
    Ok(solve(&position.grid, &position.supply).to_text())
}

/// Checks that need no search: every end of a board piece (thunder aside) must point at a
/// square on the board, and at a neighbour that is empty, thunder, or has the matching end;
/// and a loop needs four turns (its top row starts with `┌` and ends with `┐`, its bottom row
/// likewise with `└` and `┘`), which turns and thunder pieces, on the board or in the supply,
/// must provide; and the pieces must suffice to span all board pieces.
fn statically_possible(grid: &Grid, supply: &Supply) -> bool {
    let mut turns = supply.turn + supply.thunder;
    for square in grid.squares() {
        let Some(piece) = grid.get(square) else {
            continue;
        };
        if matches!(piece.kind(), Kind::Turn | Kind::Thunder) {
            turns += 1;
        }
        for side in Dir::ALL {
            if !piece.connects(side) {
                continue;
            }
            let fits = grid.neighbour(square, side).is_some_and(|other| {
                grid.get(other)
                    .is_none_or(|next| next == Piece::Thunder || next.connects(side.opposite()))
            });
            if !fits {
                return false;
            }
        }
    }
    if turns < 4 {
        return false;
    }
    // The loop passes through every board piece, so it spans at least their bounding box,
    // and a loop spanning w x h squares makes at least 2(w + h) - 4 visits to squares
    // (w, h >= 2); a crossroad (or a thunder read as one) is visited twice, other pieces once.
    let placed: Vec<Square> = grid
        .squares()
        .filter(|square| grid.get(*square).is_some())
        .collect();
    let span = |values: &mut dyn Iterator<Item = usize>| {
        let values: Vec<usize> = values.collect();
        match (values.iter().min(), values.iter().max()) {
            (Some(low), Some(high)) => (high - low + 1).max(2),
            _ => 2,
        }
    };
    let width = span(&mut placed.iter().map(|square| square.col));
    let height = span(&mut placed.iter().map(|square| square.row));
    let least = 2 * (width + height) - 4;
    let doubled = placed
        .iter()
        .filter(|square| matches!(grid.get(**square), Some(Piece::Cross | Piece::Thunder)))
        .count()
        + (supply.cross + supply.thunder) as usize;
    placed.len() + supply.total() as usize + doubled >= least
}

/// Whether a supply `counts` can do no more than a supply `failed` that already failed: the
/// larger supply can imitate every use of the smaller one (its spare thunder pieces standing
/// in for missing straights, turns or crossroads).
fn dominated(counts: &Counts, failed: &Counts) -> bool {
    let thunder = Kind::Thunder.index();
    if counts[thunder] > failed[thunder] {
        return false;
    }
    let missing: u32 = (0..thunder)
        .map(|kind| u32::from(counts[kind].saturating_sub(failed[kind])))
        .sum();
    missing <= u32::from(failed[thunder] - counts[thunder])
}

fn clamp(count: u32) -> u8 {
    u8::try_from(count).unwrap_or(u8::MAX)
}

const SLOTS: usize = super::position::MAX_SIDE + 1;
type Front = [u8; SLOTS];
type Counts = [u8; 4];

struct Search<'a> {
    cols: usize,
    rows: usize,
    board: &'a [Option<Piece>],
    /// `mandatory_from[i]`: some board piece stands on a square with index `i` or later.
    mandatory_from: Vec<bool>,
    choice: Vec<Option<(Piece, Source)>>,
    failed: HashMap<(usize, u128), Vec<Counts>>,
    /// Search steps left before giving up (0: given up; nothing is then proved).
    steps_left: u64,
}

impl<'a> Search<'a> {
    fn new(grid: &'a Grid, steps_left: u64) -> Search<'a> {
        let board = grid.cells();
        let mut mandatory_from = vec![false; board.len() + 1];
        for index in (0..board.len()).rev() {
            mandatory_from[index] = mandatory_from[index + 1] || board[index].is_some();
        }
        Search {
            cols: grid.cols(),
            rows: grid.rows(),
            board,
            mandatory_from,
            choice: vec![None; board.len()],
            failed: HashMap::new(),
            steps_left,
        }
    }

    fn dfs(&mut self, pos: usize, front: Front, counts: Counts) -> bool {
        if pos >= self.board.len() || self.steps_left == 0 {
            return false;
        }
        self.steps_left -= 1;
        let key = (pos, encode(&front, self.cols));
        if let Some(failures) = self.failed.get(&key) {
            if failures.iter().any(|failed| dominated(&counts, failed)) {
                return false;
            }
        }
        if self.explore(pos, front, counts) {
            return true;
        }
        if self.steps_left > 0 {
            self.failed.entry(key).or_default().push(counts);
        }
        false
    }

    /// Empty squares that open ends point at: each needs a piece from the supply.
    fn pieces_needed(&self, pos: usize, front: &Front) -> usize {
        let (row, col) = (pos / self.cols, pos % self.cols);
        let empty = |index: usize| self.board.get(index).is_some_and(Option::is_none);
        let mut need = 0;
        for (slot, label) in front.iter().take(self.cols).enumerate() {
            if *label == 0 {
                continue;
            }
            let target = if slot < col {
                (row + 1) * self.cols + slot
            } else {
                row * self.cols + slot
            };
            if empty(target) {
                need += 1;
            }
        }
        if front[self.cols] != 0 && front[col] == 0 && empty(pos) {
            need += 1;
        }
        need
    }

    /// Forward check: the east and south neighbours, if they hold board pieces other than
    /// thunder, must have an end facing this square exactly when `option` has one facing them.
    fn fits_ahead(&self, pos: usize, option: Option<Piece>) -> bool {
        let (row, col) = (pos / self.cols, pos % self.cols);
        let faces = |side: Dir| option.is_some_and(|piece| piece.connects(side));
        let agrees = |index: usize, side: Dir| match self.board.get(index).copied().flatten() {
            None | Some(Piece::Thunder) => true,
            Some(next) => next.connects(side.opposite()) == faces(side),
        };
        (col + 1 >= self.cols || agrees(pos + 1, Dir::East))
            && (row + 1 >= self.rows || agrees(pos + self.cols, Dir::South))
    }

    fn explore(&mut self, pos: usize, front: Front, counts: Counts) -> bool {
        let total: usize = counts.iter().map(|count| usize::from(*count)).sum();
        if self.pieces_needed(pos, &front) > total {
            return false;
        }
        let (row, col) = (pos / self.cols, pos % self.cols);
        let (north, west) = (front[col], front[self.cols]);
        let options: [Option<Piece>; 2] = match (north != 0, west != 0) {
            (true, true) => [Some(Piece::WestNorth), Some(Piece::Cross)],
            (true, false) => [Some(Piece::Vertical), Some(Piece::NorthEast)],
            (false, true) => [Some(Piece::Horizontal), Some(Piece::SouthWest)],
            (false, false) => [None, Some(Piece::EastSouth)],
        };
        let here = self.board.get(pos).copied().flatten();
        for option in options {
            if !self.fits_ahead(pos, option) {
                continue;
            }
            let Some(piece) = option else {
                if here.is_none() && self.dfs(pos + 1, front, counts) {
                    self.choice[pos] = None;
                    return true;
                }
                continue;
            };
            if (piece.connects(Dir::East) && col + 1 >= self.cols)
                || (piece.connects(Dir::South) && row + 1 >= self.rows)
            {
                continue;
            }
            let mut next_counts = counts;
            let source = match here {
                Some(Piece::Thunder) => Source::Board,
                Some(fixed) if fixed == piece => Source::Board,
                Some(_) => continue,
                None => {
                    let kind = piece.kind();
                    let use_kind = if counts[kind.index()] > 0 {
                        kind
                    } else if counts[Kind::Thunder.index()] > 0 {
                        Kind::Thunder
                    } else {
                        continue;
                    };
                    next_counts[use_kind.index()] -= 1;
                    Source::Supply(use_kind)
                }
            };
            let mut next = front;
            match piece {
                Piece::WestNorth if north == west => {
                    let others_open = next
                        .iter()
                        .take(self.cols + 1)
                        .enumerate()
                        .any(|(slot, label)| *label != 0 && slot != col && slot != self.cols);
                    if others_open || self.mandatory_from[pos + 1] {
                        continue;
                    }
                    for later in pos + 1..self.choice.len() {
                        self.choice[later] = None;
                    }
                    self.choice[pos] = Some((piece, source));
                    return true;
                }
                Piece::WestNorth => {
                    next[col] = 0;
                    next[self.cols] = 0;
                    for label in next.iter_mut().take(self.cols + 1) {
                        if *label == west {
                            *label = north;
                        }
                    }
                }
                Piece::NorthEast => {
                    next[self.cols] = north;
                    next[col] = 0;
                }
                Piece::SouthWest => {
                    next[col] = west;
                    next[self.cols] = 0;
                }
                Piece::EastSouth => {
                    next[col] = u8::MAX;
                    next[self.cols] = u8::MAX;
                }
                Piece::Vertical | Piece::Horizontal | Piece::Cross | Piece::Thunder => {}
            }
            normalise(&mut next, self.cols);
            if self.dfs(pos + 1, next, next_counts) {
                self.choice[pos] = Some((piece, source));
                return true;
            }
        }
        false
    }
}

fn normalise(front: &mut Front, cols: usize) {
    let mut map = [0u8; 256];
    let mut next = 0u8;
    for label in front.iter_mut().take(cols + 1) {
        if *label == 0 {
            continue;
        }
        let slot = &mut map[usize::from(*label)];
        if *slot == 0 {
            next += 1;
            *slot = next;
        }
        *label = *slot;
    }
}

fn encode(front: &Front, cols: usize) -> u128 {
    front
        .iter()
        .take(cols + 1)
        .fold(0u128, |code, label| (code << 4) | u128::from(*label & 15))
}
