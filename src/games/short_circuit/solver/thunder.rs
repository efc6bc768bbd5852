//! Board thunder pieces that their neighbours leave a single reading.
//!
//! A thunder piece on the board lies on the loop, read as a straight, a turn or a crossroad.
//! Its reading must point at no board edge and must meet every neighbouring board piece: an end
//! towards it exactly when that piece has an end back. When only one reading does, the thunder
//! piece is that piece in every completion. The bounds then see a strand of board pieces run on
//! through it, instead of one that stops at a square that could be anything, so they no longer
//! take a loop through it to be far shorter than it can be. Settling one thunder piece may leave
//! a thunder neighbour a single reading in turn; a thunder piece left no reading at all cannot
//! lie on any loop.

use super::super::piece::{Dir, Piece};
use super::super::position::{Grid, Square};

/// The board with each thunder piece that has exactly one possible reading replaced by that
/// reading, repeated until none is left with one; `None` if some thunder piece has none.
pub(super) fn settle(grid: &Grid) -> Option<Grid> {
    let mut settled = grid.clone();
    loop {
        let mut changed = false;
        let thunder: Vec<Square> = settled
            .squares()
            .filter(|square| settled.get(*square) == Some(Piece::Thunder))
            .collect();
        for square in thunder {
            let mut readings = Piece::SHAPES
                .into_iter()
                .filter(|reading| fits(&settled, square, *reading));
            match (readings.next(), readings.next()) {
                (None, _) => return None,
                (Some(reading), None) => {
                    settled.set(square, Some(reading));
                    changed = true;
                }
                (Some(_), Some(_)) => {}
            }
        }
        if !changed {
            return Some(settled);
        }
    }
}

/// Whether `reading` on `square` points at no board edge and meets every neighbouring board
/// piece other than thunder.
fn fits(grid: &Grid, square: Square, reading: Piece) -> bool {
    Dir::ALL.into_iter().all(
        |side| match grid.neighbour(square, side).map(|next| grid.get(next)) {
            None => !reading.connects(side),
            Some(None | Some(Piece::Thunder)) => true,
            Some(Some(piece)) => piece.connects(side.opposite()) == reading.connects(side),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::short_circuit::position::Position;

    fn grid(text: &str) -> Grid {
        Position::parse(text).expect("a test position").grid
    }

    #[test]
    fn thunder_pieces_their_neighbours_fix_become_those_pieces_in_turn() {
        // c1 has the board's edge to the north and east and `│` below: only `┐` fits. b1 then
        // has `┌`'s end to the west and that `┐`'s end to the east: only `─` fits, which `┐`
        // decided (before, `┐` on b1 fitted as well).
        let board =
            grid("size 3x3\nsupply straight=0 turn=0 cross=0 thunder=0\n┌ ⚡ ⚡\n│ . │\n└ ─ ┘\n");
        let settled = settle(&board).expect("every thunder piece has a reading");
        let at = |name: &str| settled.get(Square::parse(name).expect("a square"));
        assert_eq!(at("c1"), Some(Piece::SouthWest));
        assert_eq!(at("b1"), Some(Piece::Horizontal));
    }

    #[test]
    fn a_thunder_piece_with_two_readings_stays_thunder() {
        // Ends come in from the west and the east; north and south are open: `─` or `┼`.
        let board =
            grid("size 3x3\nsupply straight=0 turn=0 cross=0 thunder=0\n. . .\n┌ ⚡ ┐\n. . .\n");
        let settled = settle(&board).expect("a reading exists");
        assert_eq!(
            settled.get(Square::parse("b2").expect("a square")),
            Some(Piece::Thunder)
        );
    }

    #[test]
    fn a_thunder_piece_no_reading_fits_makes_the_board_impossible() {
        // Only the east neighbour has an end towards a1; the edges and `─` below refuse the
        // other three sides, and no reading has a single end.
        let board = grid("size 2x2\nsupply straight=0 turn=0 cross=0 thunder=0\n⚡ ─\n─ .\n");
        assert_eq!(settle(&board), None);
    }
}
