//! The eight symmetries of the rectangle, and the turn of the board the search runs on. The
//! search explores every way its frontier (one row wide) can route paths through the empty
//! rows before the board pieces start to constrain it, so its work grows steeply with the
//! width and with the number of rows swept before the pieces; a lone first piece constrains
//! little, so the rows counted are those before the second piece. The turn chosen has the
//! least (rows before the second piece + 1)^2 x 2^width. Against the earlier choice (the
//! narrowest turn, then the earliest first piece), on the benchmark's default set and on its
//! seeds 2 and 3 with 200 hard positions of each kind (5,800 positions), it turned the slowest
//! case of three families from 2.4 s, 0.8 s and 0.8 s into 16 ms, 0.3 s and 33 ms: a cluster
//! of pieces at one end and a lone piece at the other is searched from the cluster, and a long
//! row of pieces is crossed by every row of the search.

use super::super::piece::{Dir, Piece};
use super::super::position::{Grid, Square};

/// One of the eight symmetries: mirror the columns, mirror the rows, then swap columns and
/// rows.
#[derive(Clone, Copy, Debug)]
pub(super) struct Symmetry {
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

    /// The symmetry the search should run under for `grid` (see the module's text).
    pub(super) fn best(grid: &Grid) -> Symmetry {
        let score = |symmetry: &Symmetry| {
            let (cols, _) = symmetry.size(grid);
            // The two earliest pieces in the turned board's row-major order.
            let (first, second) = grid
                .squares()
                .filter(|square| grid.get(*square).is_some())
                .map(|square| {
                    let there = symmetry.square(square, grid.cols(), grid.rows());
                    there.row * cols + there.col
                })
                .fold((usize::MAX, usize::MAX), |(first, second), at| {
                    match at < first {
                        true => (at, first),
                        false => (first, second.min(at)),
                    }
                });
            // A lone piece counts as its own second; an empty board has none.
            let second = match (first, second) {
                (usize::MAX, _) => 0,
                (only, usize::MAX) => only,
                (_, second) => second,
            };
            let rows_before = second / cols + 1;
            ((rows_before * rows_before) << cols, second)
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

    /// Where `square` of a `cols` x `rows` board goes.
    pub(super) fn square(self, square: Square, cols: usize, rows: usize) -> Square {
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

    /// The piece that turns into `turned` under this symmetry.
    pub(super) fn undo_piece(self, turned: Piece) -> Piece {
        Piece::SHAPES
            .into_iter()
            .find(|piece| self.piece(*piece) == turned)
            .unwrap_or(turned)
    }

    /// The whole board turned.
    pub(super) fn grid(self, grid: &Grid) -> Grid {
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
