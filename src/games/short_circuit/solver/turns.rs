//! The turns a completion needs, which straights and crossroads cannot give.
//!
//! A connecting path (see [`super::layout`]) leaves one loose end heading the way that end
//! points and arrives at another heading into that end's piece; each change of heading is made
//! on a square read as a turn, which takes a turn piece or a thunder piece. On a board with
//! nothing in the way, the fewest changes depend only on the two headings and on where the
//! second square lies from the first ([`path_turns`]); pieces in the way and the board's edges
//! only add turns. The paths pair up the loose ends, so the least
//! total over every pairing ([`least_turns`]) is a lower bound on the turns the completion
//! makes: more than the turn and thunder pieces of the supply, plus the board's thunder pieces
//! that can still be read as turns, proves the position impossible.
//!
//! The joining cost cannot see this: it counts squares, and a straight pays for a square as
//! well as a turn does. A long line of board pieces with crossroads in it, whose crossing
//! strands must each turn back, is the typical case.

use super::super::piece::Dir;

/// A loose end, as the turn count sees it: the open square it points into and the heading
/// of a path entering that square from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct End {
    /// The open square (row-major index) the end points into.
    pub square: usize,
    /// The way the end points.
    pub heading: Dir,
}

/// The most ends whose pairings are looked at (a 64-bit set holds them).
const MOST_ENDS: usize = 64;

/// Pairings [`least_turns`] looks at before settling for its cheaper bound.
const MOST_STEPS: u32 = 2_000;

/// The fewest turns of a path from end `from` to end `to` on a board `cols` wide, with no
/// obstacle in the way (an obstacle only adds turns): the path enters `from.square` heading
/// `from.heading` and leaves `to.square` heading against `to.heading`.
pub(super) fn path_turns(from: End, to: End, cols: usize) -> u32 {
    let unit = |heading: Dir| -> (i64, i64) {
        match heading {
            Dir::North => (-1, 0),
            Dir::East => (0, 1),
            Dir::South => (1, 0),
            Dir::West => (0, -1),
        }
    };
    let place = |square: usize| ((square / cols) as i64, (square % cols) as i64);
    let ((row, col), (to_row, to_col)) = (place(from.square), place(to.square));
    let (down, across) = (to_row - row, to_col - col);
    let (start, finish) = (unit(from.heading), unit(to.heading.opposite()));
    let towards = |(dr, dc): (i64, i64)| down * dr + across * dc;
    let ahead = towards(start) >= 0;
    let in_line = towards((start.1, -start.0)) == 0;
    match start.0 * finish.0 + start.1 * finish.1 {
        // Heading on the same way: straight on, a jog of two turns, or back round with four.
        1 if ahead && in_line => 0,
        1 if ahead => 2,
        1 => 4,
        // Heading back: a U-turn of two, or four if the squares lie in one line.
        -1 if !in_line => 2,
        -1 => 4,
        // A bend: one turn if the second square lies ahead on the side the path bends to.
        _ if ahead && towards(finish) >= 0 => 1,
        _ => 3,
    }
}

/// A lower bound on the turns of connecting paths that pair up all of `ends` (an even number;
/// a board `cols` wide): the least total of [`path_turns`] over every pairing, searched with
/// branch and bound, or [`bracket`]'s lower end when the search runs too long (0 for more
/// than [`MOST_ENDS`] ends).
pub(super) fn least_turns(ends: &[End], cols: usize) -> u32 {
    let Some(mut pairing) = Pairing::new(ends, cols) else {
        return 0;
    };
    let all = pairing.all();
    let floor = pairing.floor(all);
    pairing.search(all, 0);
    match pairing.steps_left {
        0 => floor,
        _ => pairing.best,
    }
}

/// What [`within`] learnt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Within {
    /// A pairing costing this many turns, no more than the limit.
    Found(u32),
    /// Every pairing costs more than the limit.
    Beyond,
    /// The search stopped short.
    Unknown,
}

/// Looks for a pairing of `ends` (a board `cols` wide) costing at most `limit` turns, and
/// stops at the first: far quicker than [`least_turns`] when the supply has turns to spare.
/// Ends [`least_turns`] would not search (an odd number, or too many) count as needing none.
pub(super) fn within(ends: &[End], cols: usize, limit: u32) -> Within {
    let Some(mut pairing) = Pairing::new(ends, cols) else {
        return Within::Found(0);
    };
    pairing.best = limit.saturating_add(1);
    pairing.first_only = true;
    pairing.search(pairing.all(), 0);
    match (pairing.found, pairing.steps_left) {
        (true, _) => Within::Found(pairing.best),
        (false, 0) => Within::Unknown,
        (false, _) => Within::Beyond,
    }
}

/// Quick bounds on [`least_turns`]: half the sum, over the ends, of the cheapest path to
/// another end (no pairing costs less), and the cost of pairing each end in turn with its
/// cheapest partner left (some pairing costs that much).
pub(super) fn bracket(ends: &[End], cols: usize) -> (u32, u32) {
    let Some(pairing) = Pairing::new(ends, cols) else {
        return (0, 0);
    };
    let mut open = pairing.all();
    let floor = pairing.floor(open);
    let mut greedy = 0;
    while open != 0 {
        let first = open.trailing_zeros() as usize;
        open &= !(1 << first);
        let Some((cost, partner)) = ones(open).map(|to| (pairing.cost(first, to), to)).min() else {
            break;
        };
        greedy += cost;
        open &= !(1 << partner);
    }
    (floor, greedy)
}

/// The branch and bound of [`least_turns`].
struct Pairing {
    /// `cost[a * count + b]`: the turns of a path from end `a` to end `b`.
    cost: Vec<u8>,
    count: usize,
    /// The cheapest complete pairing found so far.
    best: u32,
    /// Pairings still to look at (0: the search stopped short, `best` proves nothing).
    steps_left: u32,
    /// Whether to stop at the first complete pairing cheaper than `best`.
    first_only: bool,
    /// Whether a complete pairing cheaper than `best` was found.
    found: bool,
}

impl Pairing {
    /// The pairing question for `ends` (`None` for fewer than two, an odd number, or more
    /// than a set holds).
    fn new(ends: &[End], cols: usize) -> Option<Pairing> {
        let count = ends.len();
        if count < 2 || count % 2 == 1 || count > MOST_ENDS {
            return None;
        }
        let cost = ends
            .iter()
            .flat_map(|from| {
                ends.iter()
                    .map(move |to| path_turns(*from, *to, cols) as u8)
            })
            .collect();
        Some(Pairing {
            cost,
            count,
            best: u32::MAX,
            steps_left: MOST_STEPS,
            first_only: false,
            found: false,
        })
    }

    /// The set of every end.
    fn all(&self) -> u64 {
        match self.count {
            MOST_ENDS => u64::MAX,
            count => (1 << count) - 1,
        }
    }

    fn cost(&self, from: usize, to: usize) -> u32 {
        u32::from(self.cost[from * self.count + to])
    }

    /// Half the sum, over the ends of `open`, of the cheapest path to another of them: no
    /// pairing of `open` costs less.
    fn floor(&self, open: u64) -> u32 {
        let sum: u32 = ones(open)
            .map(|from| {
                ones(open & !(1 << from))
                    .map(|to| self.cost(from, to))
                    .min()
                    .unwrap_or(0)
            })
            .sum();
        sum.div_ceil(2)
    }

    /// Pairs the ends of `open`, having spent `spent` turns on the pairs made so far.
    fn search(&mut self, open: u64, spent: u32) {
        if open == 0 {
            self.best = self.best.min(spent);
            self.found = true;
            return;
        }
        if (self.found && self.first_only)
            || self.steps_left == 0
            || spent + self.floor(open) >= self.best
        {
            return;
        }
        self.steps_left -= 1;
        let first = open.trailing_zeros() as usize;
        let rest = open & !(1 << first);
        let mut partners: Vec<usize> = ones(rest).collect();
        partners.sort_by_key(|to| self.cost(first, *to));
        for to in partners {
            self.search(rest & !(1 << to), spent + self.cost(first, to));
        }
    }
}

/// The members of a set of ends, in order.
fn ones(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let member = set.trailing_zeros() as usize;
            set &= set - 1;
            member
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: usize = 10;

    fn end(row: usize, col: usize, heading: Dir) -> End {
        End {
            square: row * COLS + col,
            heading,
        }
    }

    #[test]
    fn each_kind_of_path_turns_as_worked_out_by_hand() {
        let (east, south) = (end(4, 2, Dir::East), end(5, 1, Dir::South));
        let cases = [
            // Ends facing each other in line, or on one square: straight through.
            (east, end(4, 7, Dir::West), 0),
            (east, end(4, 2, Dir::West), 0),
            // Facing, but off the line: a jog.
            (east, end(6, 7, Dir::West), 2),
            // Facing, but the second square behind the first: out, round and back in.
            (east, end(4, 1, Dir::West), 4),
            // Ends pointing the same way: a U-turn, which needs room to the side.
            (south, end(5, 6, Dir::South), 2),
            (south, end(2, 6, Dir::South), 2),
            (south, end(7, 1, Dir::South), 4),
            // A bend (heading east, finishing south): one turn only ahead and to that side.
            (east, end(6, 8, Dir::North), 1),
            (east, end(4, 2, Dir::North), 1),
            (east, end(1, 8, Dir::North), 3),
            (east, end(6, 1, Dir::North), 3),
        ];
        for (from, to, turns) in cases {
            assert_eq!(path_turns(from, to, COLS), turns, "{from:?} to {to:?}");
        }
    }

    /// The fewest turns of a walk on an open board from `from` to `to`, by breadth-first
    /// search over (square, heading): straight on is free, a turn on a square costs one.
    fn walked_turns(from: End, to: End, cols: usize, rows: usize) -> u32 {
        let step = |square: usize, heading: Dir| -> Option<usize> {
            let (row, col) = (square / cols, square % cols);
            match heading {
                Dir::North => row.checked_sub(1).map(|row| row * cols + col),
                Dir::South => (row + 1 < rows).then_some(square + cols),
                Dir::West => col.checked_sub(1).map(|col| row * cols + col),
                Dir::East => (col + 1 < cols).then_some(square + 1),
            }
        };
        let index =
            |square: usize, heading: Dir| square * 4 + heading.bit().trailing_zeros() as usize;
        let finish = to.heading.opposite();
        let mut best = vec![u32::MAX; cols * rows * 4];
        let mut queue = std::collections::VecDeque::from([(from.square, from.heading, 0)]);
        best[index(from.square, from.heading)] = 0;
        let mut answer = u32::MAX;
        while let Some((square, heading, turns)) = queue.pop_front() {
            if turns > best[index(square, heading)] {
                continue;
            }
            for out in Dir::ALL
                .into_iter()
                .filter(|out| *out != heading.opposite())
            {
                let cost = turns + u32::from(out != heading);
                if square == to.square && out == finish {
                    answer = answer.min(cost);
                }
                let Some(next) = step(square, out) else {
                    continue;
                };
                if cost < best[index(next, out)] {
                    best[index(next, out)] = cost;
                    match out == heading {
                        true => queue.push_front((next, out, cost)),
                        false => queue.push_back((next, out, cost)),
                    }
                }
            }
        }
        answer
    }

    #[test]
    fn path_turns_is_the_fewest_turns_of_any_walk_either_way() {
        // Squares in the middle of a large board, so its edges never get in the way.
        let (cols, rows) = (16, 16);
        let middle: Vec<usize> = (5..11)
            .flat_map(|row| (5..11).map(move |col| row * cols + col))
            .collect();
        for &from in &middle {
            for &to in &middle {
                for one in Dir::ALL {
                    for other in Dir::ALL {
                        let (a, b) = (
                            End {
                                square: from,
                                heading: one,
                            },
                            End {
                                square: to,
                                heading: other,
                            },
                        );
                        let turns = path_turns(a, b, cols);
                        assert_eq!(turns, walked_turns(a, b, cols, rows), "{a:?} to {b:?}");
                        assert_eq!(turns, path_turns(b, a, cols), "{a:?} and back");
                    }
                }
            }
        }
    }

    #[test]
    fn the_least_pairing_beats_the_nearest_partner_count() {
        // A row with three crossroads in a line of straights: each crossing strand points
        // north and south. North of the row, three ends pointing north: two pair with a U-turn
        // each (two turns), the odd one must come back round to an end south of the row (four).
        // South, the other ends pair with U-turns.
        let ends = [
            end(3, 1, Dir::North),
            end(3, 4, Dir::North),
            end(3, 8, Dir::North),
            end(5, 0, Dir::South),
            end(5, 1, Dir::South),
            end(5, 4, Dir::South),
            end(5, 8, Dir::South),
            end(5, 9, Dir::South),
        ];
        assert_eq!(least_turns(&ends, COLS), 2 + 4 + 2 + 2);
        // Each end's cheapest partner costs two: the quick floor says only eight.
        assert_eq!(bracket(&ends, COLS).0, 8);
        assert_eq!(least_turns(&[], COLS), 0);
    }
}
