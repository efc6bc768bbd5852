//! The frontier search: squares are decided in row-major order, and a frontier records, for
//! each column, the strand end (if any) crossing from the rows above into the square being
//! decided, plus the end coming from its west neighbour. Ends are labelled so that the two ends
//! of one partial path share a label. Given which of the north and west ends are present, a
//! square has at most two possibilities (e.g. both present: `┘` joins them or `┼` carries both
//! on), so the branching is small. A `┘` joining the two ends of one path closes a loop, which
//! is a solution only if no other end is open and no piece of the board lies further on.
//!
//! Pruning: ends may not point off the board; board pieces must fit exactly; board thunder
//! pieces take any reading for free; each open end pointing at an empty square needs a piece;
//! the cost of joining the partial paths and the strands ahead into one loop (see
//! [`super::layout`]) must be within the remaining supply's capacity, the rows still ahead
//! must get the pieces they need (see [`super::lines`]), and, when counted, the open ends must
//! be joined with the turn and thunder pieces left (see [`super::turns`]); a partial path may
//! not close into a loop through board pieces ahead while anything else is left to join; a
//! state (square, frontier) that failed with some supply fails with any smaller supply
//! (memoised with this dominance); and a thunder piece from the supply is used for a shape
//! only when that shape's own kind has run out (a thunder can do everything another piece
//! can, so keeping it is never worse).

use super::super::piece::{Dir, Kind, Piece};
use super::layout::{capacity, Layout, Lead};
use super::lines;
use super::turns::{self, End, Within};
use super::Source;
use std::collections::HashMap;

const SLOTS: usize = super::super::position::MAX_SIDE + 1;
type Front = [u8; SLOTS];
/// Pieces left by kind, in [`Kind::index`] order, then the allowance (see [`Search::run`]).
pub(super) type Counts = [u8; 5];
/// Where [`Counts`] keeps the allowance.
const ALLOWANCE: usize = 4;
/// An allowance that never runs out.
pub(super) const UNLIMITED: u8 = u8::MAX;

/// What is known of one (square, frontier) state.
struct Memo {
    /// The least capacity its joining cost needs (`None`: it cannot be joined at all).
    need: Option<u32>,
    /// What is known of the turn and thunder pieces of the supply its completion needs.
    turns: Turns,
    /// Supplies with which it failed.
    failed: Vec<Counts>,
}

/// What is known of the turn and thunder pieces of the supply a state's completion needs
/// (see [`super::turns`]).
#[derive(Clone, Copy)]
struct Turns {
    /// At least this many.
    least: u32,
    /// Some pairing of the ends takes this many, so a supply of this many or more needs no
    /// closer look; `None` once the pairing search gave up on the state.
    most: Option<u32>,
}

impl Turns {
    /// Nothing more to learn.
    const SETTLED: Turns = Turns {
        least: 0,
        most: None,
    };
}

/// One run of the search over a (turned) board.
pub(super) struct Search<'a> {
    cols: usize,
    rows: usize,
    board: &'a [Option<Piece>],
    layout: &'a Layout<'a>,
    /// `mandatory_from[i]`: some board piece stands on a square with index `i` or later.
    mandatory_from: Vec<bool>,
    /// `rows_ahead[r]`: the fewest pieces to place in rows `r` onwards once the loop has a
    /// part above them (see [`super::lines`]).
    rows_ahead: Vec<u32>,
    /// The board pieces ahead, column by column, for the count of pieces by columns.
    columns_ahead: lines::ColumnsAhead,
    /// The reading chosen for each square on the way to the solution found.
    pub choice: Vec<Option<(Piece, Source)>>,
    memo: HashMap<(usize, u128), Memo>,
    /// Search steps left before giving up (0: given up; nothing is then proved).
    pub steps_left: u64,
    /// Whether to count the turns each state needs (see [`super::turns`]).
    count_turns: bool,
    /// Whether the allowance cut something off in the subtree being explored: a failure it
    /// did not touch holds for every allowance, and is recorded so.
    allowance_cut: bool,
}

impl<'a> Search<'a> {
    /// A search over `board` (`cols` columns, row-major) with `layout` built from it, giving up
    /// after `steps_left` steps, and counting turns at every step if `count_turns`.
    pub(super) fn new(
        board: &'a [Option<Piece>],
        cols: usize,
        layout: &'a Layout<'a>,
        steps_left: u64,
        count_turns: bool,
    ) -> Search<'a> {
        let mut mandatory_from = vec![false; board.len() + 1];
        for index in (0..board.len()).rev() {
            mandatory_from[index] = mandatory_from[index + 1] || board[index].is_some();
        }
        Search {
            cols,
            rows: board.len() / cols,
            board,
            layout,
            mandatory_from,
            rows_ahead: lines::rows_ahead(board, cols),
            columns_ahead: lines::ColumnsAhead::new(board, cols),
            choice: vec![None; board.len()],
            memo: HashMap::new(),
            steps_left,
            count_turns,
            allowance_cut: false,
        }
    }

    /// The joining cost of the whole board (`None`: it cannot be joined at all).
    pub(super) fn root_need(&self) -> Option<u32> {
        self.need(0, &[0u8; SLOTS]).0
    }

    /// Whether the board can be completed with the pieces `counts` holds, looking only at
    /// completions whose joining cost stays within its allowance (each piece placed uses one;
    /// [`UNLIMITED`] explores everything); the readings are then in `choice`. Runs with growing
    /// allowances share what they learn: a state that failed with some allowance fails with a
    /// smaller one, and one whose failure the allowance never cut into fails with any, so the
    /// later runs do not search it again.
    pub(super) fn run(&mut self, counts: Counts) -> bool {
        self.dfs(0, [0u8; SLOTS], counts)
    }

    fn dfs(&mut self, pos: usize, front: Front, counts: Counts) -> bool {
        if pos >= self.board.len() || self.steps_left == 0 {
            return false;
        }
        self.steps_left -= 1;
        let key = (pos, encode(&front, self.cols));
        let (need, turns) = match self.memo.get(&key) {
            Some(memo) => (memo.need, memo.turns),
            None => {
                let (need, turns) = self.need(pos, &front);
                self.memo.insert(
                    key,
                    Memo {
                        need,
                        turns,
                        failed: Vec::new(),
                    },
                );
                (need, turns)
            }
        };
        let [straight, turn, cross, thunder, allowance] = counts.map(u32::from);
        let room = capacity(straight, turn, cross, thunder);
        let turns_left = turn + thunder;
        let Some(need) = need.filter(|need| *need <= room) else {
            return false;
        };
        if turns.least > turns_left {
            return false;
        }
        if counts[ALLOWANCE] != UNLIMITED && need > allowance {
            self.allowance_cut = true;
            return false;
        }
        // A failure that held for every allowance, if one dominates, says the most.
        let failures = self.memo.get(&key).map_or(&[][..], |memo| &memo.failed[..]);
        let mut cut_failure = false;
        for failed in failures.iter().filter(|failed| dominated(&counts, failed)) {
            if failed[ALLOWANCE] == UNLIMITED {
                return false;
            }
            cut_failure = true;
        }
        if cut_failure {
            self.allowance_cut = true;
            return false;
        }
        if turns.most.is_some_and(|most| most > turns_left)
            && !self.turns_suffice(key, pos, &front, turns, turns_left)
        {
            return false;
        }
        let cut_before = std::mem::replace(&mut self.allowance_cut, false);
        if self.explore(pos, front, counts) {
            return true;
        }
        let mut failed = counts;
        if !self.allowance_cut {
            failed[ALLOWANCE] = UNLIMITED;
        }
        self.allowance_cut |= cut_before;
        if self.steps_left > 0 {
            if let Some(memo) = self.memo.get_mut(&key) {
                memo.failed.push(failed);
            }
        }
        false
    }

    /// The open ends of the state, each with its class (the ends of one partial path or strand
    /// share it): the frontier's partial paths (following them through board pieces ahead,
    /// and merging paths that board pieces ahead join) and the strands wholly ahead. `None` if
    /// a frontier end points off the board.
    fn open_ends(&self, pos: usize, front: &Front) -> Option<Vec<(End, u16)>> {
        let (row, col) = (pos / self.cols, pos % self.cols);
        let mut parent: [u8; 256] = std::array::from_fn(|label| label as u8);
        fn root(parent: &[u8; 256], mut label: u8) -> u8 {
            while parent[usize::from(label)] != label {
                label = parent[usize::from(label)];
            }
            label
        }
        let mut ends: Vec<(End, u16)> = Vec::new();
        for (slot, &label) in front.iter().take(self.cols + 1).enumerate() {
            if label == 0 {
                continue;
            }
            let (square, heading) = if slot == self.cols {
                (pos, Dir::East)
            } else if slot < col {
                ((row + 1) * self.cols + slot, Dir::South)
            } else {
                (row * self.cols + slot, Dir::South)
            };
            let end = End { square, heading };
            match self.board.get(square)? {
                None | Some(Piece::Thunder) => ends.push((end, u16::from(label))),
                Some(_) => match self.layout.lead(square, heading.opposite(), pos) {
                    Some(Lead::End(square, heading)) => {
                        ends.push((End { square, heading }, u16::from(label)));
                    }
                    Some(Lead::Back(other)) => {
                        let (one, two) = (root(&parent, label), root(&parent, front[other]));
                        parent[usize::from(one)] = two;
                    }
                    None => {}
                },
            }
        }
        for (_, class) in ends.iter_mut() {
            *class = u16::from(root(&parent, *class as u8));
        }
        // A partial path whose every end runs through board pieces back across the frontier
        // has closed a loop: that is a completion only if nothing else is left to join.
        let mut closed = front
            .iter()
            .take(self.cols + 1)
            .filter(|label| **label != 0)
            .map(|label| u16::from(root(&parent, *label)))
            .filter(|class| ends.iter().all(|(_, other)| other != class))
            .collect::<Vec<u16>>();
        closed.sort_unstable();
        closed.dedup();
        for (index, strand) in self.layout.strands_from(pos).iter().enumerate() {
            if strand.ends.iter().all(|end| end.square >= pos) {
                let class = 256 + index as u16;
                ends.extend(strand.ends.map(|end| (end, class)));
            }
        }
        let more =
            closed.len() > 1 || !ends.is_empty() || !self.layout.thunder_from(pos).is_empty();
        if !closed.is_empty() && more {
            return None;
        }
        Some(ends)
    }

    /// What the state needs: the joining cost of its open ends and the thunder pieces ahead,
    /// and a bracket on the turn and thunder pieces of the supply that joining them takes,
    /// beyond the board's thunder pieces ahead.
    fn need(&self, pos: usize, front: &Front) -> (Option<u32>, Turns) {
        let Some(ends) = self.open_ends(pos, front) else {
            return (None, Turns::SETTLED);
        };
        let turns = match self.count_turns {
            true => {
                let headed: Vec<End> = ends.iter().map(|(end, _)| *end).collect();
                let free = self.layout.turnable_from(pos);
                let (least, most) = turns::bracket(&headed, self.cols);
                Turns {
                    least: least.saturating_sub(free),
                    most: Some(most.saturating_sub(free)),
                }
            }
            false => Turns::SETTLED,
        };
        (
            self.layout.join_cost(&ends, self.layout.thunder_from(pos)),
            turns,
        )
    }

    /// Whether `turns_left` turn and thunder pieces of the supply (helped by the board's
    /// thunder pieces ahead that can be read as turns) can join the open ends of state `key`
    /// (at `pos`, with `front`), as far as the pairings of its ends tell (see
    /// [`turns::within`]); what it learns goes into the state's `turns`, known so far.
    fn turns_suffice(
        &mut self,
        key: (usize, u128),
        pos: usize,
        front: &Front,
        turns: Turns,
        turns_left: u32,
    ) -> bool {
        let ends: Vec<End> = self
            .open_ends(pos, front)
            .unwrap_or_default()
            .into_iter()
            .map(|(end, _)| end)
            .collect();
        let free = self.layout.turnable_from(pos);
        let learnt = turns::within(&ends, self.cols, turns_left + free);
        let turns = match learnt {
            Within::Found(most) => Turns {
                most: Some(most.saturating_sub(free)),
                ..turns
            },
            Within::Beyond => Turns {
                least: turns_left + 1,
                ..turns
            },
            Within::Unknown => Turns {
                most: None,
                ..turns
            },
        };
        if let Some(memo) = self.memo.get_mut(&key) {
            memo.turns = turns;
        }
        learnt != Within::Beyond
    }

    /// The fewest pieces still to place: one on each empty square an open end points at (in
    /// the row being decided, or below the squares decided in it), and, once the loop has
    /// begun, what the rows below need (see [`super::lines`]), which the squares pointed at
    /// below count towards.
    fn pieces_needed(&self, pos: usize, front: &Front) -> usize {
        let (row, col) = (pos / self.cols, pos % self.cols);
        let empty = |index: usize| self.board.get(index).is_some_and(Option::is_none);
        let (mut this_row, mut next_row) = (0, 0);
        for (slot, label) in front.iter().take(self.cols).enumerate() {
            if *label == 0 {
                continue;
            }
            if slot < col {
                next_row += usize::from(empty((row + 1) * self.cols + slot));
            } else {
                this_row += usize::from(empty(row * self.cols + slot));
            }
        }
        if front[self.cols] != 0 && front[col] == 0 && empty(pos) {
            this_row += 1;
        }
        let loop_begun = front.iter().take(self.cols + 1).any(|label| *label != 0);
        let ahead = |row: usize| match loop_begun {
            true => self.rows_ahead.get(row).map_or(0, |need| *need as usize),
            false => 0,
        };
        let next_row_need = ahead(row + 1) - ahead(row + 2);
        this_row + next_row.max(next_row_need) + ahead(row + 2)
    }

    /// The fewest pieces still to place, counted column by column (see [`super::lines`]).
    fn columns_needed(&self, pos: usize, front: &Front) -> usize {
        let col = pos % self.cols;
        let mut ends = [(0usize, 0u8); SLOTS];
        let mut count = 0;
        for (slot, label) in front.iter().take(self.cols + 1).enumerate() {
            if *label != 0 {
                ends[count] = (if slot == self.cols { col } else { slot }, *label);
                count += 1;
            }
        }
        self.columns_ahead.need(pos, &ends[..count]) as usize
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
        let total: usize = counts
            .iter()
            .take(ALLOWANCE)
            .map(|count| usize::from(*count))
            .sum();
        if self.pieces_needed(pos, &front) > total || self.columns_needed(pos, &front) > total {
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
                    match next_counts[ALLOWANCE] {
                        UNLIMITED => {}
                        0 => {
                            self.allowance_cut = true;
                            continue;
                        }
                        _ => next_counts[ALLOWANCE] -= 1,
                    }
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

/// Whether a supply `counts` can do no more than a supply `failed` that already failed: the
/// larger supply can imitate every use of the smaller one (its spare thunder pieces standing
/// in for missing straights, turns or crossroads), and its allowance is no larger.
fn dominated(counts: &Counts, failed: &Counts) -> bool {
    let thunder = Kind::Thunder.index();
    if counts[thunder] > failed[thunder] || counts[ALLOWANCE] > failed[ALLOWANCE] {
        return false;
    }
    let missing: u32 = (0..thunder)
        .map(|kind| u32::from(counts[kind].saturating_sub(failed[kind])))
        .sum();
    missing <= u32::from(failed[thunder] - counts[thunder])
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
