//! Placing pieces: the placement rules (1 to 3 pieces in one line on adjacent squares, from
//! the supply, on empty squares, touching the track), checked and applied.

use super::piece::{Kind, Piece};
use super::position::{Grid, Square, Supply};
use std::fmt;

/// One piece to place: where and how it lies.
pub type Item = (Square, Piece);

/// A placement rule a `!place` command breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceError {
    /// Not 1, 2 or 3 pieces.
    Count(usize),
    /// A square off the board.
    OffBoard(Square, usize, usize),
    /// A square that already holds a piece.
    Occupied(Square, Piece),
    /// The same square twice.
    Twice(Square),
    /// Pieces not in one row or one column.
    NotInLine,
    /// Pieces in one line but with a gap.
    Gap,
    /// More pieces of a kind than the supply holds.
    Supply(Kind, u32, u32),
    /// None of the pieces touches a piece already on the board.
    NotTouching,
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlaceError::Count(count) => {
                write!(f, "a turn places 1, 2 or 3 pieces, not {count}")
            }
            PlaceError::OffBoard(square, cols, rows) => {
                write!(f, "{square} is off the {cols}x{rows} board")
            }
            PlaceError::Occupied(square, piece) => write!(
                f,
                "pieces never move or leave the board, and {square} already holds {}",
                piece.glyph()
            ),
            PlaceError::Twice(square) => write!(f, "{square} is named twice; one piece per square"),
            PlaceError::NotInLine => write!(
                f,
                "pieces placed together must stand in one row or one column"
            ),
            PlaceError::Gap => write!(
                f,
                "pieces placed together must stand on adjacent squares, with no gap"
            ),
            PlaceError::Supply(kind, wanted, left) => write!(
                f,
                "pieces come from the supply, which has {left} {} left (you placed {wanted})",
                kind.name()
            ),
            PlaceError::NotTouching => write!(
                f,
                "at least one placed piece must touch a piece already on the board (touching is enough: the connections need not match)"
            ),
        }
    }
}

/// Checks a placement against the rules, the board and the supply, in the order a player
/// would want to hear about mistakes.
pub fn check(grid: &Grid, supply: &Supply, items: &[Item]) -> Result<(), PlaceError> {
    if items.is_empty() || items.len() > 3 {
        return Err(PlaceError::Count(items.len()));
    }
    for (index, (square, _)) in items.iter().enumerate() {
        if !grid.contains(*square) {
            return Err(PlaceError::OffBoard(*square, grid.cols(), grid.rows()));
        }
        if let Some(piece) = grid.get(*square) {
            return Err(PlaceError::Occupied(*square, piece));
        }
        if items[..index].iter().any(|(other, _)| other == square) {
            return Err(PlaceError::Twice(*square));
        }
    }
    let same_row = items.iter().all(|(square, _)| square.row == items[0].0.row);
    let same_col = items.iter().all(|(square, _)| square.col == items[0].0.col);
    if !same_row && !same_col {
        return Err(PlaceError::NotInLine);
    }
    let mut line: Vec<usize> = items
        .iter()
        .map(|(square, _)| if same_row { square.col } else { square.row })
        .collect();
    line.sort_unstable();
    if line.windows(2).any(|pair| pair[1] != pair[0] + 1) {
        return Err(PlaceError::Gap);
    }
    for kind in Kind::ALL {
        let wanted = items
            .iter()
            .filter(|(_, piece)| piece.kind() == kind)
            .count() as u32;
        if wanted > supply.count(kind) {
            return Err(PlaceError::Supply(kind, wanted, supply.count(kind)));
        }
    }
    if !grid.is_empty() {
        let touches = items.iter().any(|(square, _)| {
            super::piece::Dir::ALL.into_iter().any(|side| {
                grid.neighbour(*square, side)
                    .is_some_and(|other| grid.get(other).is_some())
            })
        });
        if !touches {
            return Err(PlaceError::NotTouching);
        }
    }
    Ok(())
}

/// Puts checked pieces on the board and takes them from the supply.
pub fn apply(grid: &mut Grid, supply: &mut Supply, items: &[Item]) {
    for (square, piece) in items {
        grid.set(*square, Some(*piece));
        let count = supply.count_mut(piece.kind());
        *count = count.saturating_sub(1);
    }
}
