//! A count of pieces that crossroads cannot halve, taken row by row (and column by column).
//!
//! The joining cost of [`super::layout`] counts squares once per path, so a crossroad, which
//! carries two paths, pays for two; with crossroads in the supply that bound can let through
//! positions that lack pieces. Rows give a count of pieces instead: the loop passes every board
//! piece, so it crosses the boundary between two rows at least twice whenever board pieces lie
//! on both sides of it (or a board piece's end points across it), and a square carries at most
//! one crossing of each boundary it touches, since a crossroad's other strand runs along its
//! row. So every row from the first the loop must reach to the last holds at least two squares
//! of the loop that cross into it from above, and two that cross out of it below (one square
//! can do both), board pieces that can make a crossing counting for it.
//!
//! Columns give the same count to a search sweeping the rows ([`ColumnsAhead`]), though the
//! loop's part already built may cross a column boundary any number of times: what remains of
//! the loop is a set of paths through the undecided squares, each joining two open ends, so a
//! boundary with open ends on both sides that no partial path spans, or with board pieces
//! ahead on a side without open ends, is crossed at least twice by them, and one with an odd
//! number of open ends on a side at least once.

use super::super::piece::{Dir, Piece};
use super::super::position::MAX_SIDE;

/// Whether the loop can leave `piece` across `side`: a thunder piece may be read with an end
/// on any side.
fn can_cross(piece: Piece, side: Dir) -> bool {
    piece == Piece::Thunder || piece.connects(side)
}

/// For each row (or column) of a board, how many board squares can carry the loop across its
/// near side and across its far side, and the first and last lines the loop must reach.
struct Crossings {
    near: Vec<u32>,
    far: Vec<u32>,
    span: Option<(usize, usize)>,
}

impl Crossings {
    /// Counts the rows of `board` (`cols` columns, row-major), or its columns if `!by_rows`.
    fn new(board: &[Option<Piece>], cols: usize, by_rows: bool) -> Crossings {
        let rows = board.len() / cols.max(1);
        let (lines, near_side, far_side) = match by_rows {
            true => (rows, Dir::North, Dir::South),
            false => (cols, Dir::West, Dir::East),
        };
        let mut crossings = Crossings {
            near: vec![0; lines],
            far: vec![0; lines],
            span: None,
        };
        for (index, cell) in board.iter().enumerate() {
            let Some(piece) = cell else {
                continue;
            };
            let line = match by_rows {
                true => index / cols,
                false => index % cols,
            };
            // A thunder piece can cross either side but forces the loop into neither
            // neighbouring line.
            let (to_near, to_far) = (can_cross(*piece, near_side), can_cross(*piece, far_side));
            let forced = *piece != Piece::Thunder;
            crossings.near[line] += u32::from(to_near);
            crossings.far[line] += u32::from(to_far);
            let low = match forced && to_near {
                true => line.saturating_sub(1),
                false => line,
            };
            let high = match forced && to_far {
                true => (line + 1).min(lines - 1),
                false => line,
            };
            crossings.span = Some(match crossings.span {
                None => (low, high),
                Some((first, last)) => (first.min(low), last.max(high)),
            });
        }
        crossings
    }

    /// The fewest pieces a completion places in lines `from` onwards when the loop already
    /// has a part in an earlier line.
    fn need_from(&self, from: usize) -> u32 {
        let Some((_, last)) = self.span else {
            return 0;
        };
        (from..=last)
            .map(|line| {
                let into = 2u32.saturating_sub(self.near[line]);
                let out = match line < last {
                    true => 2u32.saturating_sub(self.far[line]),
                    false => 0,
                };
                into.max(out)
            })
            .sum()
    }

    /// The fewest pieces a completion places in these lines.
    fn need(&self) -> u32 {
        match self.span {
            None => 0,
            // Every board piece lies in one line and none has an end across it: the loop
            // still leaves the line (it cannot close within one), on one side or the other.
            Some((first, last)) if first == last => 2u32.saturating_sub(self.near[first]) + 2,
            Some((first, _)) => 2u32.saturating_sub(self.far[first]) + self.need_from(first + 1),
        }
    }
}

/// The fewest pieces any completion of `board` (`cols` columns, row-major) places: the larger
/// of the counts by rows and by columns.
pub(super) fn least_pieces(board: &[Option<Piece>], cols: usize) -> u32 {
    Crossings::new(board, cols, true)
        .need()
        .max(Crossings::new(board, cols, false).need())
}

/// For each row `r` (and one past the last), the fewest pieces a completion places in rows
/// `r` onwards when the loop already has a part in an earlier row: what a search sweeping
/// the rows in order still has to place.
pub(super) fn rows_ahead(board: &[Option<Piece>], cols: usize) -> Vec<u32> {
    let crossings = Crossings::new(board, cols, true);
    (0..=crossings.near.len())
        .map(|row| crossings.need_from(row))
        .collect()
}

/// For each square of a board, the board pieces at it and after it (row-major), column by
/// column: how many there are, and how many can cross into the column to the west and into the
/// column to the east.
pub(super) struct ColumnsAhead {
    cols: usize,
    /// `counts[square * cols + column]`: [pieces, crossing west, crossing east].
    counts: Vec<[u8; 3]>,
}

impl ColumnsAhead {
    /// Counts `board` (`cols` columns, row-major).
    pub(super) fn new(board: &[Option<Piece>], cols: usize) -> ColumnsAhead {
        let mut counts = vec![[0u8; 3]; (board.len() + 1) * cols];
        for (square, cell) in board.iter().enumerate().rev() {
            let (done, here) = counts.split_at_mut((square + 1) * cols);
            let row = &mut done[square * cols..];
            row.copy_from_slice(&here[..cols]);
            if let Some(piece) = cell {
                let column = &mut row[square % cols];
                let (west, east) = (can_cross(*piece, Dir::West), can_cross(*piece, Dir::East));
                column[0] = column[0].saturating_add(1);
                column[1] = column[1].saturating_add(u8::from(west));
                column[2] = column[2].saturating_add(u8::from(east));
            }
        }
        ColumnsAhead { cols, counts }
    }

    /// The fewest pieces a completion still places on squares `square` onwards, counted
    /// column by column, when the loop's part already built has open ends pointing at squares
    /// in these columns (`ends`: column, and the partial path it belongs to, numbered below
    /// [`MAX_SIDE`] + 2).
    pub(super) fn need(&self, square: usize, ends: &[(usize, u8)]) -> u32 {
        let cols = self.cols;
        let Some(ahead) = self.counts.get(square * cols..(square + 1) * cols) else {
            return 0;
        };
        if ends.is_empty() || cols < 2 {
            return 0;
        }
        let mut targets = [0u32; MAX_SIDE];
        let mut spans = [0i32; MAX_SIDE + 1];
        let mut first_end = [usize::MAX; MAX_SIDE + 2];
        for &(column, path) in ends {
            let (Some(count), Some(first)) = (
                targets.get_mut(column),
                first_end.get_mut(usize::from(path)),
            ) else {
                return 0;
            };
            *count += 1;
            match *first {
                usize::MAX => *first = column,
                other => {
                    spans[other.min(column)] += 1;
                    spans[other.max(column)] -= 1;
                }
            }
        }
        let all_ends = ends.len() as u32;
        let all_pieces: u32 = ahead.iter().map(|column| u32::from(column[0])).sum();
        // crossings[b]: the fewest crossings of the boundary east of column b.
        let mut crossings = [0u32; MAX_SIDE];
        let (mut ends_west, mut pieces_west, mut spanned) = (0u32, 0u32, 0i32);
        for boundary in 0..cols - 1 {
            ends_west += targets[boundary];
            pieces_west += u32::from(ahead[boundary][0]);
            spanned += spans[boundary];
            let ends_east = all_ends - ends_west;
            let pieces_east = all_pieces - pieces_west;
            let stranded =
                (ends_west == 0 && pieces_west > 0) || (ends_east == 0 && pieces_east > 0);
            let apart = ends_west > 0 && ends_east > 0 && spanned == 0;
            crossings[boundary] = match stranded || apart {
                true => 2,
                false => ends_west % 2,
            };
        }
        (0..cols)
            .map(|column| {
                let west = match column {
                    0 => 0,
                    _ => crossings[column - 1].saturating_sub(u32::from(ahead[column][1])),
                };
                let east = match column + 1 < cols {
                    true => crossings[column].saturating_sub(u32::from(ahead[column][2])),
                    false => 0,
                };
                west.max(east)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::short_circuit::position::Position;

    fn board(text: &str) -> (Vec<Option<Piece>>, usize) {
        let position = Position::parse(text).unwrap();
        (position.grid.cells().to_vec(), position.grid.cols())
    }

    #[test]
    fn two_straights_far_apart_need_two_pieces_in_every_row_between() {
        // Rows 0 and 5 each need the two squares the straight's ends point at, turning down or
        // up; rows 1 to 4 need two squares each: 12 pieces, though crossroads could halve the
        // joining cost.
        let (cells, cols) = board(
            "size 4x6\nsupply straight=0 turn=0 cross=0 thunder=0\n\
             . ─ . .\n. . . .\n. . . .\n. . . .\n. . . .\n. ─ . .\n",
        );
        assert_eq!(least_pieces(&cells, cols), 12);
        assert_eq!(rows_ahead(&cells, cols), [12, 10, 8, 6, 4, 2, 0]);
    }

    #[test]
    fn pieces_crossing_a_boundary_count_for_it() {
        let (cells, cols) = board(
            "size 4x4\nsupply straight=0 turn=0 cross=0 thunder=0\n\
             . . . .\n. ┌ . .\n│ . . │\n. . . .\n",
        );
        // By rows: the turn crosses down out of row 1 (one more square is needed there), the
        // straights cross both ways in row 2 and point into row 3, which needs two squares.
        assert_eq!(Crossings::new(&cells, cols, true).need(), 1 + 2);
        // By columns: only the turn crosses a column boundary (out of column 1 to the east),
        // and column 1 still needs two squares crossing into it from the west, so each of
        // columns 0 to 3 needs two squares.
        assert_eq!(Crossings::new(&cells, cols, false).need(), 2 + 2 + 2 + 2);
        assert_eq!(least_pieces(&cells, cols), 8);
    }

    #[test]
    fn columns_count_the_paths_the_open_ends_still_need() {
        let (cells, cols) = board(
            "size 6x3\nsupply straight=0 turn=0 cross=0 thunder=0\n\
             . . . . . .\n. . . . . .\n. . . . . ┐\n",
        );
        let ahead = ColumnsAhead::new(&cells, cols);
        // Row 1 to decide, and one partial path whose two ends point at its first two squares:
        // the turn ahead lies east of both, so its path crosses every boundary east of column
        // 1 twice (the turn crossing west itself makes one of the two at column 5), and the
        // path's ends cross the first boundary once.
        assert_eq!(ahead.need(6, &[(0, 1), (1, 1)]), 1 + 2 + 2 + 2 + 2 + 1);
        // Two partial paths, one ending in column 0 and one in column 5: the remaining paths
        // must join them, crossing every boundary twice.
        assert_eq!(
            ahead.need(12, &[(0, 1), (0, 1), (5, 2), (5, 2)]),
            2 + 2 + 2 + 2 + 2 + 1
        );
        // Nothing ahead and no open end: nothing to count.
        assert_eq!(ahead.need(18, &[]), 0);
    }

    #[test]
    fn an_empty_board_needs_nothing_and_one_line_needs_a_neighbour() {
        let (cells, cols) =
            board("size 3x3\nsupply straight=0 turn=0 cross=0 thunder=0\n. . .\n. . .\n. . .\n");
        assert_eq!(least_pieces(&cells, cols), 0);
        let (cells, cols) =
            board("size 3x3\nsupply straight=0 turn=0 cross=0 thunder=0\n. . .\n. ⚡ .\n. . .\n");
        // The thunder piece can cross either way itself: one more square in its row, two in
        // a neighbouring row.
        assert_eq!(least_pieces(&cells, cols), 3);
    }
}
