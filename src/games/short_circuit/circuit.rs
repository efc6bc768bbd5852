//! The complete-circuit test for a board whose pieces all have a concrete reading.
//!
//! A board is complete when it holds at least one piece, every connection end meets a
//! connection end of its neighbour, and all strands (a crossroad has two, north-south and
//! east-west) form exactly one closed loop. A board with thunder pieces is complete when some
//! reading of them passes this test: [`super::solver::complete_reading`] finds it.

use super::piece::{Dir, Piece};
use super::position::{Grid, Square};
use std::collections::HashSet;
use std::fmt;

/// Why a board is not one complete circuit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The board holds no piece, so there is no loop.
    NoPieces,
    /// A thunder piece has no reading (the test needs concrete pieces).
    Unread(Square),
    /// A connection end of the piece on this square points at the edge, an empty square or a
    /// side of a neighbour without a connection.
    DeadEnd {
        /// The square of the piece.
        square: Square,
        /// The side of the loose end.
        side: Dir,
    },
    /// The strands form this many separate loops (more than one).
    Loops(usize),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::NoPieces => write!(f, "the board holds no piece"),
            Fault::Unread(square) => write!(f, "the thunder piece on {square} has no reading"),
            Fault::DeadEnd { square, side } => {
                write!(
                    f,
                    "the {} end of the piece on {square} leads nowhere",
                    side.name()
                )
            }
            Fault::Loops(count) => write!(f, "the strands form {count} separate loops"),
        }
    }
}

fn strand(piece: Piece, side: Dir) -> u8 {
    match (piece, side) {
        (Piece::Cross, Dir::East | Dir::West) => 1,
        _ => 0,
    }
}

/// Checks that every piece of `grid` (thunder pieces not allowed) lies on one single loop.
pub fn check_loop(grid: &Grid) -> Result<(), Fault> {
    let mut pieces = Vec::new();
    for square in grid.squares() {
        let Some(piece) = grid.get(square) else {
            continue;
        };
        if piece == Piece::Thunder {
            return Err(Fault::Unread(square));
        }
        for side in Dir::ALL {
            if !piece.connects(side) {
                continue;
            }
            let meets = grid
                .neighbour(square, side)
                .and_then(|other| grid.get(other))
                .is_some_and(|other| other.connects(side.opposite()));
            if !meets {
                return Err(Fault::DeadEnd { square, side });
            }
        }
        pieces.push((square, piece));
    }
    if pieces.is_empty() {
        return Err(Fault::NoPieces);
    }
    let mut seen: HashSet<(Square, u8)> = HashSet::new();
    let mut loops = 0;
    for (start, piece) in pieces {
        let entries: &[Dir] = if piece == Piece::Cross {
            &[Dir::North, Dir::West]
        } else {
            &[Dir::ALL[0], Dir::ALL[1], Dir::ALL[2], Dir::ALL[3]]
        };
        for &entry in entries {
            if !piece.connects(entry) || seen.contains(&(start, strand(piece, entry))) {
                continue;
            }
            loops += 1;
            let (mut square, mut enter) = (start, entry);
            while let Some(here) = grid.get(square) {
                if !seen.insert((square, strand(here, enter))) {
                    break;
                }
                let Some(exit) = here.exit(enter) else {
                    break;
                };
                let Some(next) = grid.neighbour(square, exit) else {
                    break;
                };
                square = next;
                enter = exit.opposite();
            }
        }
    }
    if loops == 1 {
        Ok(())
    } else {
        Err(Fault::Loops(loops))
    }
}
