//! What the board fixes before any search, and the lower bounds built on it.
//!
//! Board pieces other than thunder join end to end into strands: paths whose two loose ends
//! each point into an open square (empty, or holding a thunder piece), or closed loops. In a
//! completion, the loop's part in the open squares is a set of connecting paths, each joining
//! two loose ends. Every condition below follows from the rules, so a position failing one is
//! impossible:
//! - parity: every piece has an even number of ends, so every connected region of open squares
//!   receives an even number of loose ends;
//! - reach: every thunder piece lies on the loop, so its region receives some loose end (or,
//!   with no strand at all, all thunder pieces share one region);
//! - cost: a connecting path needs one piece on every empty square it passes (`distance` is
//!   the fewest); each loose end's path leads to another strand (unless a single strand is left
//!   to close on itself), so the paths cost at least half the sum, over the loose ends, of the
//!   distance to the nearest end of another strand; and the strands with the paths form one
//!   closed walk that also passes every thunder piece, which weighs at least a minimum spanning
//!   tree of the strands and thunder pieces plus that tree's heaviest edge (the walk crosses
//!   the cut of that edge twice, and the walk less one edge still joins them all), and at least
//!   the least tour through them ([`super::tour`]: each strand entered at one end and left at
//!   the other), which is far tighter when they lie apart. Two paths share a square only at a
//!   crossroad (or a thunder piece read as one), so crossroads and thunder pieces of the
//!   supply may count twice against this cost.
//!
//! The search asks the same cost question at every step, for the strands still ahead of it and
//! the partial paths it has built ([`Layout::lead`] follows a path into board pieces ahead).

use super::super::piece::{Dir, Piece};
use super::super::position::Grid;
use super::tour;
use super::turns::End;
use std::cell::OnceCell;
use std::collections::VecDeque;

/// The distance between open squares that no path joins.
const UNREACHABLE: u16 = u16::MAX;
/// Classes from this one on are thunder pieces to pass (see [`Layout::join_cost`]).
const STOP_CLASSES: u16 = 1024;

/// A path of board pieces whose loose ends point into open squares.
#[derive(Clone, Copy, Debug)]
pub(super) struct Strand {
    /// The smallest row-major index among its squares.
    pub first: usize,
    /// Its two loose ends: the open squares they point into, and which way.
    pub ends: [End; 2],
}

/// Where a partial path that runs into board pieces ahead of the search comes out.
pub(super) enum Lead {
    /// At a loose end pointing into this open square, not yet decided, this way.
    End(usize, Dir),
    /// Back across the search's frontier, at this frontier slot.
    Back(usize),
}

/// A board prepared for bounds: its strands and the distances between its open squares.
pub(super) struct Layout<'a> {
    cols: usize,
    board: &'a [Option<Piece>],
    /// `distance[u][v]`: the fewest empty squares on a path of open squares from `u` to `v`,
    /// both counted (thunder squares cost nothing); measured from `u` when first asked.
    distance: Vec<OnceCell<Vec<u16>>>,
    /// The strands, ordered by their first square.
    strands: Vec<Strand>,
    /// The squares holding thunder pieces, in order.
    thunder: Vec<usize>,
    /// The squares holding thunder pieces that can be read as turns (no two loose ends point
    /// into one from opposite sides), in order.
    turnable: Vec<usize>,
    /// How many strands close on themselves (loops of board pieces).
    closed: usize,
}

/// Which strand of `piece` passes through `side`: a crossroad's east-west strand is 1.
fn strand_of(piece: Piece, side: Dir) -> usize {
    usize::from(piece == Piece::Cross && matches!(side, Dir::East | Dir::West))
}

/// How much connecting-path cost a supply can pay for: one square per piece, a second one
/// for each crossroad or thunder piece (read as a crossroad, it carries two paths).
pub(super) fn capacity(straight: u32, turn: u32, cross: u32, thunder: u32) -> u32 {
    straight + turn + 2 * (cross + thunder)
}

impl<'a> Layout<'a> {
    /// Prepares `grid`; `None` if a board piece (thunder aside) has an end pointing off the
    /// board or at a side of a board piece without an end.
    pub(super) fn new(grid: &'a Grid) -> Option<Layout<'a>> {
        let mut layout = Layout {
            cols: grid.cols(),
            board: grid.cells(),
            distance: vec![OnceCell::new(); grid.cells().len()],
            strands: Vec::new(),
            thunder: (0..grid.cells().len())
                .filter(|cell| grid.cells()[*cell] == Some(Piece::Thunder))
                .collect(),
            turnable: Vec::new(),
            closed: 0,
        };
        let n = layout.board.len();
        for cell in 0..n {
            let Some(piece) = layout.fixed(cell) else {
                continue;
            };
            for side in Dir::ALL.into_iter().filter(|side| piece.connects(*side)) {
                let next = layout.step(cell, side)?;
                if layout
                    .fixed(next)
                    .is_some_and(|other| !other.connects(side.opposite()))
                {
                    return None;
                }
            }
        }
        layout.trace_strands();
        layout.turnable = layout
            .thunder
            .iter()
            .copied()
            .filter(|cell| {
                let mut pointing = 0u8;
                for end in layout.loose_ends().filter(|end| end.square == *cell) {
                    pointing |= end.heading.bit();
                }
                let across = Dir::East.bit() | Dir::West.bit();
                let along = Dir::North.bit() | Dir::South.bit();
                pointing & across != across && pointing & along != along
            })
            .collect();
        Some(layout)
    }

    fn rows(&self) -> usize {
        self.board.len() / self.cols
    }

    /// The board piece on `cell`, thunder pieces and empty squares being open (`None`).
    fn fixed(&self, cell: usize) -> Option<Piece> {
        self.board
            .get(cell)
            .copied()
            .flatten()
            .filter(|piece| *piece != Piece::Thunder)
    }

    fn is_open(&self, cell: usize) -> bool {
        cell < self.board.len() && self.fixed(cell).is_none()
    }

    /// The neighbour of `cell` across `side`, if on the board.
    fn step(&self, cell: usize, side: Dir) -> Option<usize> {
        let (row, col) = (cell / self.cols, cell % self.cols);
        match side {
            Dir::North => row.checked_sub(1).map(|row| row * self.cols + col),
            Dir::South => (row + 1 < self.rows()).then(|| cell + self.cols),
            Dir::West => col.checked_sub(1).map(|col| row * self.cols + col),
            Dir::East => (col + 1 < self.cols).then(|| cell + 1),
        }
    }

    fn trace_strands(&mut self) {
        let n = self.board.len();
        let mut seen = vec![[false; 2]; n];
        for cell in 0..n {
            let Some(piece) = self.fixed(cell) else {
                continue;
            };
            let mut strands = Vec::with_capacity(2);
            if piece == Piece::Cross {
                strands.push([Dir::North, Dir::South]);
                strands.push([Dir::East, Dir::West]);
            } else {
                let mut sides = Dir::ALL.into_iter().filter(|side| piece.connects(*side));
                if let (Some(one), Some(other)) = (sides.next(), sides.next()) {
                    strands.push([one, other]);
                }
            }
            for sides in &strands {
                if seen[cell][strand_of(piece, sides[0])] {
                    continue;
                }
                seen[cell][strand_of(piece, sides[0])] = true;
                let mut first = cell;
                let mut ends = Vec::with_capacity(2);
                let mut closed = false;
                for &side in sides {
                    let (mut at, mut exit) = (cell, side);
                    while let Some(next) = self.step(at, exit) {
                        let enter = exit.opposite();
                        let Some(there) = self.fixed(next) else {
                            ends.push(End {
                                square: next,
                                heading: exit,
                            });
                            break;
                        };
                        let strand = strand_of(there, enter);
                        if seen[next][strand] {
                            closed = true;
                            break;
                        }
                        seen[next][strand] = true;
                        first = first.min(next);
                        let Some(out) = there.exit(enter) else {
                            break;
                        };
                        (at, exit) = (next, out);
                    }
                    if closed {
                        break;
                    }
                }
                match (closed, ends.as_slice()) {
                    (true, _) => self.closed += 1,
                    (false, &[one, other]) => self.strands.push(Strand {
                        first,
                        ends: [one, other],
                    }),
                    _ => {}
                }
            }
        }
        self.strands.sort_by_key(|strand| strand.first);
    }

    /// The distances from open square `source` to every square, measured on first use.
    fn distances_from(&self, source: usize) -> &[u16] {
        self.distance[source].get_or_init(|| {
            let n = self.board.len();
            let cost = |cell: usize| u16::from(self.board[cell].is_none());
            let mut row = vec![UNREACHABLE; n];
            row[source] = cost(source);
            let mut queue = VecDeque::from([source]);
            while let Some(cell) = queue.pop_front() {
                let here = row[cell];
                for side in Dir::ALL {
                    let Some(next) = self.step(cell, side) else {
                        continue;
                    };
                    if self.fixed(next).is_some() {
                        continue;
                    }
                    let through = here + cost(next);
                    if through < row[next] {
                        row[next] = through;
                        if cost(next) == 0 {
                            queue.push_front(next);
                        } else {
                            queue.push_back(next);
                        }
                    }
                }
            }
            row
        })
    }

    fn distance(&self, from: usize, to: usize) -> u16 {
        self.distances_from(from)
            .get(to)
            .copied()
            .unwrap_or(UNREACHABLE)
    }

    /// The strands whose squares all lie at `pos` or later, in order.
    pub(super) fn strands_from(&self, pos: usize) -> &[Strand] {
        let start = self.strands.partition_point(|strand| strand.first < pos);
        &self.strands[start..]
    }

    /// The loose ends of the strands (see [`super::turns`]).
    pub(super) fn loose_ends(&self) -> impl Iterator<Item = End> + '_ {
        self.strands.iter().flat_map(|strand| strand.ends)
    }

    /// How many thunder pieces at `pos` or later can be read as turns.
    pub(super) fn turnable_from(&self, pos: usize) -> u32 {
        let later = &self.turnable[self.turnable.partition_point(|cell| *cell < pos)..];
        later.len() as u32
    }

    /// The squares holding thunder pieces at `pos` or later, in order.
    pub(super) fn thunder_from(&self, pos: usize) -> &[usize] {
        &self.thunder[self.thunder.partition_point(|cell| *cell < pos)..]
    }

    /// Follows board pieces from `cell` (a board piece at `pos` or later, entered across
    /// `enter`) to where the path comes out: a loose end into an open square at `pos` or later,
    /// or back across the frontier of a search about to decide square `pos`.
    pub(super) fn lead(&self, mut cell: usize, mut enter: Dir, pos: usize) -> Option<Lead> {
        for _ in 0..2 * self.board.len() {
            let exit = self.fixed(cell)?.exit(enter)?;
            let next = self.step(cell, exit)?;
            if next < pos {
                return match exit {
                    Dir::North => Some(Lead::Back(cell % self.cols)),
                    Dir::West => Some(Lead::Back(self.cols)),
                    Dir::East | Dir::South => None,
                };
            }
            if self.fixed(next).is_none() {
                return Some(Lead::End(next, exit));
            }
            (cell, enter) = (next, exit.opposite());
        }
        None
    }

    /// The least cost (empty squares, counted once per path) of connecting paths that join
    /// `ends` into one loop passing every square of `stops` (thunder pieces not yet reached):
    /// each end is a loose end and the partial path (class) it belongs to, each class having
    /// two ends. `None` if no paths join them.
    pub(super) fn join_cost(&self, ends: &[(End, u16)], stops: &[usize]) -> Option<u32> {
        // A stop is a class of its own, whose two ends (in and out) are its own square; the
        // nearest-end sum leaves stops out (a path may leave a stop and come back to it).
        let mut items: Vec<(usize, u16, bool)> = ends
            .iter()
            .map(|(end, class)| (end.square, *class, true))
            .collect();
        items.extend(
            stops
                .iter()
                .enumerate()
                .map(|(index, square)| (*square, STOP_CLASSES + index as u16, false)),
        );
        let mut classes: Vec<u16> = items.iter().map(|(_, class, _)| *class).collect();
        classes.sort_unstable();
        classes.dedup();
        if classes.len() <= 1 {
            return match ends {
                [(one, _), (other, _), ..] => {
                    let cost = self.distance(one.square, other.square);
                    (cost != UNREACHABLE).then_some(u32::from(cost))
                }
                _ => Some(0),
            };
        }
        let k = classes.len();
        let index = |class: u16| classes.partition_point(|known| *known < class);
        let mut weight = vec![UNREACHABLE; k * k];
        let m = items.len();
        let mut pair = vec![UNREACHABLE; m * m];
        let item_class: Vec<usize> = items.iter().map(|(_, class, _)| index(*class)).collect();
        // Distances are symmetric (a path back passes the same squares), so each pair of items
        // is measured once, from the earlier one.
        let mut nearest = vec![UNREACHABLE; m];
        for (at, (from, _, _)) in items.iter().enumerate() {
            let row = self.distances_from(*from);
            let class = item_class[at];
            for (other_at, (to, _, _)) in items.iter().enumerate().skip(at + 1) {
                let other = item_class[other_at];
                if other == class {
                    continue;
                }
                let cost = row[*to];
                nearest[at] = nearest[at].min(cost);
                nearest[other_at] = nearest[other_at].min(cost);
                pair[at * m + other_at] = cost;
                pair[other_at * m + at] = cost;
                let slot = &mut weight[class * k + other];
                *slot = (*slot).min(cost);
                weight[other * k + class] = *slot;
            }
        }
        if nearest.contains(&UNREACHABLE) {
            return None;
        }
        let nearest_sum: u32 = items
            .iter()
            .zip(&nearest)
            .filter(|((_, _, end), _)| *end)
            .map(|(_, nearest)| u32::from(*nearest))
            .sum();
        // Prim's minimum spanning tree over the classes.
        let mut best = vec![UNREACHABLE; k];
        let mut inside = vec![false; k];
        best[0] = 0;
        let (mut tree, mut heaviest) = (0u32, 0u32);
        for _ in 0..k {
            let next = (0..k)
                .filter(|node| !inside[*node])
                .min_by_key(|node| best[*node])?;
            if best[next] == UNREACHABLE {
                return None;
            }
            inside[next] = true;
            tree += u32::from(best[next]);
            heaviest = heaviest.max(u32::from(best[next]));
            for other in 0..k {
                let through = weight[next * k + other];
                if !inside[other] && through < best[other] {
                    best[other] = through;
                }
            }
        }
        let mut least = (tree + heaviest).max(nearest_sum.div_ceil(2));
        // The classes for the least tour: partial paths and strands (two ends each), then the
        // thunder stops.
        let mut ports = vec![Vec::with_capacity(2); k];
        for (at, (_, class, _)) in items.iter().enumerate() {
            ports[index(*class)].push(at);
        }
        let mut taken = Vec::with_capacity(k);
        let mut stops = Vec::with_capacity(k);
        for ends in &ports {
            match *ends.as_slice() {
                [one, other] => taken.push([one, other]),
                [stop] => stops.push(stop),
                _ => return Some(least),
            }
        }
        let cost = |from: usize, to: usize| match pair[from * m + to] {
            UNREACHABLE => u32::MAX,
            cost => u32::from(cost),
        };
        if let Some(sample) = tour::sample(taken, stops, cost) {
            least = least.max(tour::least_tour(&sample, cost)?);
        }
        Some(least)
    }

    /// The conditions of the module's text for the whole board with `capacity` (see
    /// [`capacity`]): false proves the position impossible.
    pub(super) fn possible(&self, capacity: u32) -> bool {
        let thunder = &self.thunder;
        if self.closed > 0 {
            return self.closed == 1 && self.strands.is_empty() && thunder.is_empty();
        }
        let region = self.regions();
        let mut ends_in = vec![0usize; self.board.len()];
        for strand in &self.strands {
            for end in strand.ends {
                ends_in[region[end.square]] += 1;
            }
        }
        if ends_in.iter().any(|count| count % 2 == 1) {
            return false;
        }
        let reached = match self.strands.is_empty() {
            true => thunder
                .iter()
                .all(|cell| region[*cell] == region[thunder[0]]),
            false => thunder.iter().all(|cell| ends_in[region[*cell]] > 0),
        };
        let ends: Vec<(End, u16)> = self
            .loose_ends()
            .enumerate()
            .map(|(at, end)| (end, (at / 2) as u16))
            .collect();
        reached
            && self
                .join_cost(&ends, thunder)
                .is_some_and(|cost| cost <= capacity)
    }

    /// For each open square, the index of the first square of its region of open squares
    /// (board pieces get their own index).
    fn regions(&self) -> Vec<usize> {
        let n = self.board.len();
        let mut region: Vec<usize> = (0..n).collect();
        let mut seen = vec![false; n];
        let mut stack = Vec::new();
        for start in (0..n).filter(|cell| self.is_open(*cell)) {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            while let Some(cell) = stack.pop() {
                region[cell] = start;
                for side in Dir::ALL {
                    if let Some(next) = self.step(cell, side) {
                        if self.is_open(next) && !seen[next] {
                            seen[next] = true;
                            stack.push(next);
                        }
                    }
                }
            }
        }
        region
    }
}
