//! The exact completion solver: can the board be completed with the remaining supply?
//!
//! Board thunder pieces that their neighbours leave a single reading are read so first
//! ([`thunder`]), so that everything after sees the strands run through them. Then come checks
//! that need no search ([`layout`]: parity, reach and joining cost of the board's strands;
//! [`lines`]: the pieces every row and column between the board pieces holds, which crossroads
//! cannot halve; [`turns`]: the turns that joining the strands takes; plus the four turns and
//! the span a loop needs), which settle most impossible positions at once; then a frontier
//! search ([`search`]) decides the rest, asking the joining-cost, line and (when the supply has
//! few turns to spare) turn questions again at every step. The search runs on the turn of the
//! board ([`symmetry`]) it expects to be quickest.
//!
//! Reaching the completion by legal turns: the solver judges the final configuration only.
//! That suffices, because on a non-empty board the pieces a completion adds lie on one
//! connected loop with the board's pieces, so they can be placed one at a time, each touching
//! a piece already there; on an empty board the first piece may go anywhere (and any loop needs
//! at least four pieces, the four turns of a 2x2 square). Should an earlier placement of that
//! sequence already complete a circuit (a thunder piece read another way can close a smaller
//! loop), the circuit is completed all the same.

mod layout;
mod lines;
mod search;
mod symmetry;
mod thunder;
mod tour;
mod turns;

use super::circuit;
use super::piece::{Kind, Piece};
use super::position::{Grid, Position, Square, Supply};
use layout::{capacity, Layout};
use search::{Search, UNLIMITED};
use symmetry::Symmetry;

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

/// The allowances over the least joining cost with which the search first looks for a
/// completion, before it looks at all of them: a completion that makes few detours is found
/// quickly among few states, and a larger board offers many ways to wander first.
const SLACK: [u32; 3] = [0, 4, 12];

/// The search counts turns at every step (see [`turns`]) only when the supply's turn and
/// thunder pieces, with the board's thunder pieces that can turn, are fewer than this many
/// beyond what the board's strands take: with more to spare the count hardly ever prunes, and
/// it costs a few microseconds a step.
const TURN_SPARE: u32 = 6;

/// Like [`solve`], but gives up (`None`) after `steps` search steps, so a match never waits
/// long on a huge, contrived position.
pub fn solve_within(grid: &Grid, supply: &Supply, steps: u64) -> Option<Solution> {
    if grid.cols().max(grid.rows()) > super::position::MAX_SIDE
        || grid.cells().len() != grid.cols() * grid.rows()
    {
        return Some(Solution::Impossible);
    }
    let Some(settled) = thunder::settle(grid) else {
        return Some(Solution::Impossible);
    };
    let symmetry = Symmetry::best(&settled);
    let turned = symmetry.grid(&settled);
    let Some(layout) = Layout::new(&turned) else {
        return Some(Solution::Impossible);
    };
    let room = capacity(supply.straight, supply.turn, supply.cross, supply.thunder);
    if !enough_turns_and_span(&settled, supply)
        || lines::least_pieces(turned.cells(), turned.cols()) > supply.total()
        || !layout.possible(room)
    {
        return Some(Solution::Impossible);
    }
    let turns_needed = turns::least_turns(&layout.loose_ends().collect::<Vec<_>>(), turned.cols());
    let turns_held = supply.turn + supply.thunder + layout.turnable_from(0);
    if turns_needed > turns_held {
        return Some(Solution::Impossible);
    }
    let count_turns = turns_held < turns_needed + TURN_SPARE;
    let mut search = Search::new(turned.cells(), turned.cols(), &layout, steps, count_turns);
    let least = search.root_need().unwrap_or(0);
    let mut allowances: Vec<u8> = SLACK
        .iter()
        .map(|slack| match least + slack {
            // An allowance as large as the supply's capacity never binds: the exhaustive run.
            allowance if allowance >= room => UNLIMITED,
            allowance => clamp(allowance).min(UNLIMITED - 1),
        })
        .chain([UNLIMITED])
        .collect();
    allowances.dedup();
    let found = allowances.into_iter().any(|allowance| {
        search.run([
            clamp(supply.straight),
            clamp(supply.turn),
            clamp(supply.cross),
            clamp(supply.thunder),
            allowance,
        ])
    });
    if !found {
        return (search.steps_left > 0).then_some(Solution::Impossible);
    }
    let mut done = grid.clone();
    let mut pieces = Vec::new();
    let mut left = *supply;
    for square in grid.squares() {
        let there = symmetry.square(square, grid.cols(), grid.rows());
        let choice = search
            .choice
            .get(there.row * turned.cols() + there.col)
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

/// Whether the board is complete as it stands (no piece added): the reading of its thunder
/// pieces that makes it one loop, if there is one.
pub fn complete_reading(grid: &Grid) -> Option<Witness> {
    match solve(grid, &Supply::default()) {
        Solution::Completable(witness) => Some(witness),
        Solution::Impossible => None,
    }
}

/// Whether `witness` (a completed board in the position text format, as [`Witness::to_text`]
/// writes it) completes `grid` with pieces from `supply`: every board piece stays where it
/// is (a thunder piece read as a straight, turn or crossroad), the pieces added are the
/// supply's (a thunder piece of the supply standing for any of them), and the board is one
/// closed circuit. `Err`: the first thing that does not hold, in a sentence.
pub fn check_witness(grid: &Grid, supply: &Supply, witness: &str) -> Result<(), String> {
    let done = Position::parse(witness)
        .map_err(|error| format!("the witness does not read as a board: {error}"))?
        .grid;
    if (done.cols(), done.rows()) != (grid.cols(), grid.rows()) {
        return Err(format!(
            "the witness's board is {}x{}, the game's {}x{}",
            done.cols(),
            done.rows(),
            grid.cols(),
            grid.rows()
        ));
    }
    let mut added = Supply::default();
    for square in grid.squares() {
        match (grid.get(square), done.get(square)) {
            (_, Some(Piece::Thunder)) => {
                return Err(format!(
                    "the witness leaves the thunder piece on {square} unread"
                ))
            }
            (Some(Piece::Thunder), Some(_)) => {}
            (Some(there), Some(shown)) if there == shown => {}
            (Some(there), _) => {
                return Err(format!(
                    "the witness changes the board's {} on {square}",
                    there.describe()
                ))
            }
            (None, Some(placed)) => *added.count_mut(placed.kind()) += 1,
            (None, None) => {}
        }
    }
    let beyond: u32 = [Kind::Straight, Kind::Turn, Kind::Cross]
        .into_iter()
        .map(|kind| added.count(kind).saturating_sub(supply.count(kind)))
        .sum();
    if beyond > supply.thunder {
        return Err(format!(
            "the witness places {} where the supply holds {}",
            added.describe(),
            supply.describe()
        ));
    }
    circuit::check_loop(&done)
        .map_err(|fault| format!("the witness's board is not one closed circuit: {fault}"))
}

/// Solves a position given in the text format and prints the answer (`referee solve FILE`).
pub fn solve_text(text: &str) -> Result<String, super::position::FormatError> {
    let position = Position::parse(text)?;
    Ok(solve(&position.grid, &position.supply).to_text())
}

/// Checks that need no search beyond [`layout`]: a loop needs four turns (its top row starts
/// with `┌` and ends with `┐`, its bottom row likewise with `└` and `┘`), which turns and
/// thunder pieces, on the board or in the supply, must provide; and the pieces must suffice to
/// span all board pieces.
fn enough_turns_and_span(grid: &Grid, supply: &Supply) -> bool {
    let turns = supply.turn
        + supply.thunder
        + grid
            .cells()
            .iter()
            .flatten()
            .filter(|piece| matches!(piece.kind(), Kind::Turn | Kind::Thunder))
            .count() as u32;
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

fn clamp(count: u32) -> u8 {
    u8::try_from(count).unwrap_or(u8::MAX)
}
