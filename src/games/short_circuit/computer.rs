//! Short Circuit's computer player: the action of the seat to move (`place c3 turn 90`,
//! `impossible`, `concede`), chosen from the board and the supply, which both players see; the
//! solver's sealed answer to an impossible call is never read. Randomness of its own breaks
//! ties between equally good placements.
//!
//! `Easy` plays like a beginner: it never asks the solver whether or how the circuit can be
//! completed, and only checks, as a player looking at the board can, whether a placement
//! closes it. It completes the circuit when one placement can, else extends the track by one
//! piece at an open end (never into the board's edge), and calls impossible (answering a
//! call: concedes) only when no piece can extend it.
//! `Normal` completes the circuit when it can; calls impossible when the solver proves the
//! circuit cannot be completed; otherwise places one piece at an open end that keeps the
//! circuit completable (by the solver) and leaves the opponent no placement that completes it.
//! Answering an impossible call, `Normal` places the solver's completion, a piece a placement,
//! all in one message (one at a time in games before rules revision 4), or concedes when the
//! solver shows there is none.
//! `Hard` weighs the pieces `normal` would choose among (those at an open end that keep the
//! circuit completable) in rollouts ([`crate::games::search`]): each played, then the match on
//! by `normal` players to its end, many times over; it sends the one that won most. Where
//! `normal`'s move is forced (a completion, a proven call, an answer to a call), it is the same.

use super::act::ShortCircuitGame;
use super::piece::{Dir, Kind, Piece};
use super::placement::{self, Item};
use super::position::{Grid, Square, Supply};
use super::solver::{self, Solution, Source};
use super::{CALL, CONCEDE, PLACE};
use crate::games::search::{self, Budget};
use crate::games::{Ctx, Game, Level, Seat};
use rand_core::RngCore;

/// The solver's steps for one question at `Normal`: nearly every position needs a few
/// thousand; one that needs more counts as unknown and is avoided.
const STEPS: u64 = 100_000;

/// The most candidate placements `Normal` asks the solver about in one decision.
const CANDIDATES: usize = 24;

/// The action `seat` types now (without prefix), or `None` when it has none to take: not its
/// turn, the match over, or the solver judging a call.
pub fn decide(
    game: &ShortCircuitGame,
    seat: Seat,
    level: Level,
    rng: &mut dyn RngCore,
) -> Option<String> {
    if !owes(game, seat) {
        return None;
    }
    let (grid, supply) = (&game.position.grid, &game.position.supply);
    let challenged = game.challenge.is_some();
    if let Some(items) = completing(grid, supply) {
        return Some(place(&items));
    }
    Some(match (level, challenged) {
        // A beginner builds on as in any turn, and gives up when nothing fits.
        (Level::Easy, _) => extend(grid, supply, rng).map_or_else(
            || match challenged {
                true => CONCEDE.name.to_string(),
                false => CALL.name.to_string(),
            },
            |item| place(&[item]),
        ),
        (Level::Normal | Level::Hard(_), true) => {
            answer_call(grid, supply, game.placements_in_a_row)
        }
        (Level::Normal, false) => careful(grid, supply, rng),
        (Level::Hard(budget), false) => hard(game, seat, budget, rng),
    })
}

/// The actions a rollout plays before it calls the match a draw (a match of `normal` players
/// ends long before: the supply runs out).
const ROLLOUT_ACTIONS: usize = 400;

/// `Hard`'s turn, not answering a call: the proven call as `normal` makes it; else, among the
/// pieces at an open end that keep the circuit completable (the first [`CANDIDATES`] of them
/// in a random order, as `normal` looks, as many as the budget lets it check), the one whose
/// rollouts won most within `budget`; with none, `normal`'s turn.
fn hard(game: &ShortCircuitGame, seat: Seat, budget: Budget, rng: &mut dyn RngCore) -> String {
    let (grid, supply) = (&game.position.grid, &game.position.supply);
    if solver::solve_within(grid, supply, STEPS) == Some(Solution::Impossible) {
        return CALL.name.to_string();
    }
    let mut candidates = extensions(grid, supply);
    for i in (1..candidates.len()).rev() {
        candidates.swap(i, pick(rng, i + 1));
    }
    let completable: Vec<String> = candidates
        .iter()
        .take(CANDIDATES)
        // The solver's checks count against the budget too: those left once it is spent
        // are not weighed.
        .take_while(|_| !budget.time_up.is_up())
        .filter(|item| {
            let (mut after, mut left) = (grid.clone(), *supply);
            placement::apply(&mut after, &mut left, &[**item]);
            matches!(
                solver::solve_within(&after, &left, STEPS),
                Some(Solution::Completable(_))
            )
        })
        .map(|item| place(&[*item]))
        .collect();
    if completable.is_empty() {
        return careful(grid, supply, rng);
    }
    search::best_of(&completable, budget, rng, |action, rng| {
        rollout(game, seat, action, rng)
    })
    .unwrap_or_else(|| careful(grid, supply, rng))
}

/// `action` played for `seat`, then the match on by `normal` players (calls judged by the
/// solver as in play), no time passing: 1 if `seat` wins, else 0 (a draw past
/// [`ROLLOUT_ACTIONS`]: one half).
fn rollout(game: &ShortCircuitGame, seat: Seat, action: &str, rng: &mut dyn RngCore) -> f64 {
    let mut game = game.clone();
    let mut dice = search::dice_from(rng);
    let mut ctx = Ctx {
        now: game.last_action.max(game.turn_started),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let mut next = Some((seat, action.to_string()));
    for _ in 0..ROLLOUT_ACTIONS {
        if let Some(outcome) = &game.outcome {
            return f64::from(u8::from(outcome.winner == seat));
        }
        if let Some(search) = game.pending_search() {
            let verdict = (search.work)(STEPS * 10);
            if game.verdict(&search.key, &verdict, &mut ctx).is_err() {
                break;
            }
            continue;
        }
        let mover = game.to_move;
        let Some((who, action)) = next
            .take()
            .or_else(|| decide(&game, mover, Level::Normal, rng).map(|action| (mover, action)))
        else {
            break;
        };
        let (word, args) = action.split_once(' ').unwrap_or((&action, ""));
        if game.act(who, word, args, &mut ctx).is_err() {
            break;
        }
    }
    0.5
}

/// A legal action picked uniformly at random among every action the game allows now (what a
/// computer player is measured against): each placement of 1 to 3 pieces on a line of empty
/// squares touching the track (anywhere on an empty board), each square taking any kind the
/// supply still holds in any of its rotations, is one action, and the impossible call (or,
/// answering a call, the concession) is one more.
pub fn random_action(game: &ShortCircuitGame, seat: Seat, rng: &mut dyn RngCore) -> Option<String> {
    if !owes(game, seat) {
        return None;
    }
    let (grid, supply) = (&game.position.grid, &game.position.supply);
    let other = match game.challenge.is_some() {
        true => CONCEDE.name,
        false => CALL.name,
    };
    let pieces = pieces_in(supply);
    let ways: Vec<usize> = (0..=3)
        .map(|length| fillings(&pieces, supply, length).count())
        .collect();
    let lines: Vec<Vec<Square>> = lines(grid)
        .into_iter()
        .filter(|line| grid.is_empty() || line.iter().any(|square| touches(grid, *square)))
        .collect();
    let placements: usize = lines.iter().map(|line| ways[line.len()]).sum();
    let mut left = pick(rng, placements + 1);
    for line in &lines {
        if left < ways[line.len()] {
            let chosen = fillings(&pieces, supply, line.len()).nth(left)?;
            let items: Vec<Item> = line.iter().copied().zip(chosen).collect();
            return Some(place(&items));
        }
        left -= ways[line.len()];
    }
    Some(other.to_string())
}

/// The ways to fill a line of `length` squares with `pieces` (each kind of the supply in each
/// of its rotations), no kind used more often than the supply holds it, in a fixed order.
fn fillings<'a>(
    pieces: &'a [Piece],
    supply: &'a Supply,
    length: usize,
) -> impl Iterator<Item = Vec<Piece>> + 'a {
    let choices = pieces.len().pow(length as u32);
    (0..choices).filter_map(move |index| {
        let chosen: Vec<Piece> = (0..length)
            .map(|at| pieces[index / pieces.len().pow(at as u32) % pieces.len()])
            .collect();
        Kind::ALL
            .into_iter()
            .all(|kind| {
                chosen.iter().filter(|piece| piece.kind() == kind).count()
                    <= supply.count(kind) as usize
            })
            .then_some(chosen)
    })
}

/// Whether `seat` is the one to act now.
fn owes(game: &ShortCircuitGame, seat: Seat) -> bool {
    game.outcome.is_none() && game.call.is_none() && game.to_move == seat
}

/// A number below `n` (`n` at least 1).
fn pick(rng: &mut dyn RngCore, n: usize) -> usize {
    usize::try_from(rng.next_u32()).unwrap_or_default() % n.max(1)
}

/// The `place` action for these pieces.
fn place(items: &[Item]) -> String {
    placing(items, " ")
}

/// A `place` action listing `items` with `separator` between them: a space within one
/// placement, `;` between placements one piece at a time.
fn placing(items: &[Item], separator: &str) -> String {
    let listed: Vec<String> = items
        .iter()
        .map(|(square, piece)| format!("{square} {}", piece.describe()))
        .collect();
    format!("{} {}", PLACE.name, listed.join(separator))
}

/// Every piece (each kind in the supply, in each of its distinct rotations).
fn pieces_in(supply: &Supply) -> Vec<Piece> {
    let mut pieces = Vec::new();
    if supply.count(Kind::Straight) > 0 {
        pieces.extend([Piece::Vertical, Piece::Horizontal]);
    }
    if supply.count(Kind::Turn) > 0 {
        pieces.extend([
            Piece::NorthEast,
            Piece::EastSouth,
            Piece::SouthWest,
            Piece::WestNorth,
        ]);
    }
    if supply.count(Kind::Cross) > 0 {
        pieces.push(Piece::Cross);
    }
    if supply.count(Kind::Thunder) > 0 {
        pieces.push(Piece::Thunder);
    }
    pieces
}

/// Whether `square` has a piece beside it.
fn touches(grid: &Grid, square: Square) -> bool {
    Dir::ALL.into_iter().any(|side| {
        grid.neighbour(square, side)
            .is_some_and(|next| grid.get(next).is_some())
    })
}

/// What a piece on the empty `square` must do on each side for the track to close there:
/// `Some(true)` connect (a neighbour's end points at it), `Some(false)` not connect (the
/// board's edge, or a neighbour with no end towards it), `None` either (an empty square or a
/// thunder piece beside it).
fn needs(grid: &Grid, square: Square) -> [Option<bool>; 4] {
    Dir::ALL.map(|side| match grid.neighbour(square, side) {
        None => Some(false),
        Some(next) => match grid.get(next) {
            None | Some(Piece::Thunder) => None,
            Some(piece) => Some(piece.connects(side.opposite())),
        },
    })
}

/// Whether `piece` on a square with these `needs` keeps every one of them (a thunder piece
/// keeps any).
fn fits(piece: Piece, needs: &[Option<bool>; 4]) -> bool {
    piece == Piece::Thunder
        || Dir::ALL
            .into_iter()
            .zip(needs)
            .all(|(side, need)| need.is_none_or(|connect| piece.connects(side) == connect))
}

/// The empty squares a piece's end points at (the track's open ends).
fn open_ends(grid: &Grid) -> Vec<Square> {
    let mut ends = Vec::new();
    for square in grid.squares() {
        let Some(piece) = grid.get(square) else {
            continue;
        };
        for side in Dir::ALL {
            if let Some(next) = grid.neighbour(square, side) {
                if piece.connects(side) && grid.get(next).is_none() && !ends.contains(&next) {
                    ends.push(next);
                }
            }
        }
    }
    ends
}

/// A placement of 1 to 3 pieces that completes the circuit now, if there is one: its pieces
/// cover every open end, in one line of empty squares, each piece meeting its neighbours.
pub fn completing(grid: &Grid, supply: &Supply) -> Option<Vec<Item>> {
    if grid.is_empty() {
        return None;
    }
    let ends = open_ends(grid);
    let thunder_beside = |square: Square| {
        Dir::ALL.into_iter().any(|side| {
            grid.neighbour(square, side)
                .is_some_and(|next| grid.get(next) == Some(Piece::Thunder))
        })
    };
    for line in lines(grid) {
        let covers = if ends.is_empty() {
            line.iter().any(|square| thunder_beside(*square))
        } else {
            ends.iter().all(|end| line.contains(end))
        };
        if covers {
            if let Some(items) = fill(grid, supply, &line, &mut Vec::new()) {
                return Some(items);
            }
        }
    }
    None
}

/// Every run of 1 to 3 empty squares in one row or column.
fn lines(grid: &Grid) -> Vec<Vec<Square>> {
    let mut lines = Vec::new();
    for start in grid.squares().filter(|square| grid.get(*square).is_none()) {
        lines.push(vec![start]);
        for side in [Dir::East, Dir::South] {
            let mut line = vec![start];
            while line.len() < 3 {
                let Some(next) = line.last().and_then(|last| grid.neighbour(*last, side)) else {
                    break;
                };
                if grid.get(next).is_some() {
                    break;
                }
                line.push(next);
                lines.push(line.clone());
            }
        }
    }
    lines
}

/// Pieces for the squares of `line` after those `chosen` so far that complete the circuit.
fn fill(
    grid: &Grid,
    supply: &Supply,
    line: &[Square],
    chosen: &mut Vec<Item>,
) -> Option<Vec<Item>> {
    let Some(&square) = line.get(chosen.len()) else {
        let mut after = grid.clone();
        let mut left = *supply;
        placement::check(grid, supply, chosen).ok()?;
        placement::apply(&mut after, &mut left, chosen);
        return solver::complete_reading(&after).map(|_| chosen.clone());
    };
    // What the square needs with the pieces chosen before it in the line already down.
    let mut so_far = grid.clone();
    for (at, piece) in chosen.iter() {
        so_far.set(*at, Some(*piece));
    }
    let needs = needs(&so_far, square);
    for piece in pieces_in(supply) {
        let used = chosen
            .iter()
            .filter(|(_, p)| p.kind() == piece.kind())
            .count();
        if supply.count(piece.kind()) as usize <= used || !fits(piece, &needs) {
            continue;
        }
        chosen.push((square, piece));
        if let Some(items) = fill(grid, supply, line, chosen) {
            return Some(items);
        }
        chosen.pop();
    }
    None
}

/// One piece at an open end that fits its neighbours, picked at random (`Easy`); on an empty
/// board, any piece whose ends stay on the board.
fn extend(grid: &Grid, supply: &Supply, rng: &mut dyn RngCore) -> Option<Item> {
    let candidates = extensions(grid, supply);
    candidates.get(pick(rng, candidates.len())).copied()
}

/// Every single piece at an open end that fits its neighbours; on an empty board, every
/// piece on every square whose ends stay on the board.
fn extensions(grid: &Grid, supply: &Supply) -> Vec<Item> {
    let squares: Vec<Square> = if grid.is_empty() {
        grid.squares().collect()
    } else {
        // The open ends, and the empty squares beside a thunder piece (which may be read as
        // pointing there).
        let mut squares = open_ends(grid);
        let beside_thunder = grid.squares().filter(|square| {
            grid.get(*square).is_none()
                && Dir::ALL.into_iter().any(|side| {
                    grid.neighbour(*square, side)
                        .is_some_and(|next| grid.get(next) == Some(Piece::Thunder))
                })
        });
        for square in beside_thunder {
            if !squares.contains(&square) {
                squares.push(square);
            }
        }
        squares
    };
    let mut items = Vec::new();
    for square in squares {
        let needs = needs(grid, square);
        for piece in pieces_in(supply) {
            if fits(piece, &needs) {
                items.push((square, piece));
            }
        }
    }
    items
}

/// `Normal`'s turn: an impossible call the solver proves, or the safest piece at an open end.
fn careful(grid: &Grid, supply: &Supply, rng: &mut dyn RngCore) -> String {
    if solver::solve_within(grid, supply, STEPS) == Some(Solution::Impossible) {
        return CALL.name.to_string();
    }
    let mut candidates = extensions(grid, supply);
    // A random order, so that equally good placements are taken evenly.
    for i in (1..candidates.len()).rev() {
        candidates.swap(i, pick(rng, i + 1));
    }
    let mut completable = None;
    for &item in candidates.iter().take(CANDIDATES) {
        let mut after = grid.clone();
        let mut left = *supply;
        placement::apply(&mut after, &mut left, &[item]);
        let solved = solver::solve_within(&after, &left, STEPS);
        if !matches!(solved, Some(Solution::Completable(_))) {
            continue;
        }
        if completing(&after, &left).is_none() {
            return place(&[item]);
        }
        completable.get_or_insert(item);
    }
    // Only a proof calls impossible: with no piece at an open end, any piece touching the
    // track (there is one unless the supply is spent, and then the call is true).
    match completable
        .or_else(|| candidates.first().copied())
        .or_else(|| touching(grid, supply))
    {
        Some(item) => place(&[item]),
        None => CALL.name.to_string(),
    }
}

/// The first piece of the supply on the first empty square touching the track.
fn touching(grid: &Grid, supply: &Supply) -> Option<Item> {
    let square = grid
        .squares()
        .find(|square| grid.get(*square).is_none() && touches(grid, *square))?;
    pieces_in(supply).first().map(|piece| (square, *piece))
}

/// `Normal` answering an impossible call that no one placement answers: the next piece of the
/// solver's completion that touches the track; a concession when the solver finds no
/// completion.
fn answer_call(grid: &Grid, supply: &Supply, in_a_row: bool) -> String {
    let witness = match solver::solve_within(grid, supply, STEPS * 10) {
        Some(Solution::Completable(witness)) => witness,
        Some(Solution::Impossible) => return CONCEDE.name.to_string(),
        // Undecided: keep building while the window is open.
        None => {
            return extensions(grid, supply)
                .first()
                .map_or_else(|| CONCEDE.name.to_string(), |item| place(&[*item]))
        }
    };
    let mut left: Vec<Item> = witness
        .pieces
        .iter()
        .filter_map(|(square, reading, source, _)| match source {
            Source::Supply(Kind::Thunder) => Some((*square, Piece::Thunder)),
            Source::Supply(_) => Some((*square, *reading)),
            Source::Board => None,
        })
        .collect();
    // The witness a piece at a time, each touching the track as it stands by then: all in
    // one message where the rules let placements come in a row, else the first.
    let (mut grid, mut supply) = (grid.clone(), *supply);
    let mut order = Vec::new();
    while let Some(at) = left
        .iter()
        .position(|(square, _)| grid.is_empty() || touches(&grid, *square))
    {
        let item = left.remove(at);
        placement::apply(&mut grid, &mut supply, &[item]);
        order.push(item);
        if !in_a_row {
            break;
        }
    }
    match order.is_empty() {
        true => CONCEDE.name.to_string(),
        false => placing(&order, "; "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Seed};
    use crate::games::short_circuit::position::Position;
    use crate::games::short_circuit::setup::parse as parse_setup;
    use crate::games::{Ctx, Game, Options, Player};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    fn position(text: &str) -> (Grid, Supply) {
        let position = Position::parse(text).unwrap_or_else(|error| panic!("{error}"));
        (position.grid, position.supply)
    }

    #[test]
    fn a_placement_that_closes_the_loop_is_found() {
        let (grid, supply) = position(
            "size 4x4\nsupply straight=2 turn=2 cross=0 thunder=0\n. . . .\n. ┌ ─ ┐\n. │ . │\n. └ . .\n",
        );
        let items = completing(&grid, &supply).unwrap_or_default();
        let mut after = grid.clone();
        let mut left = supply;
        placement::apply(&mut after, &mut left, &items);
        assert!(solver::complete_reading(&after).is_some(), "{items:?}");
        assert_eq!(items.len(), 2);
    }

    #[test]
    fn no_completion_is_claimed_where_the_open_ends_are_apart() {
        let (grid, supply) = position(
            "size 5x5\nsupply straight=3 turn=4 cross=0 thunder=0\n. . . . .\n. ┌ ─ ┐ .\n. │ . . .\n. . . . .\n. . . . .\n",
        );
        assert_eq!(completing(&grid, &supply), None);
    }

    #[test]
    fn normal_calls_impossible_when_the_solver_proves_it() {
        // An end points into the board's edge: nothing can meet it.
        let (grid, supply) = position(
            "size 4x4\nsupply straight=4 turn=4 cross=0 thunder=0\n│ . . .\n. . . .\n. . . .\n. . . .\n",
        );
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(careful(&grid, &supply, &mut rng), "impossible");
    }

    #[test]
    fn a_track_of_a_thunder_piece_alone_is_built_on_not_called_impossible() {
        let (grid, supply) = position(
            "size 4x4\nsupply straight=2 turn=4 cross=0 thunder=0\n. . . .\n. ⚡ . .\n. . . .\n. . . .\n",
        );
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let normal = careful(&grid, &supply, &mut rng);
        assert!(normal.starts_with("place "), "{normal}");
        let easy = extend(&grid, &supply, &mut rng).map(|item| place(&[item]));
        assert!(easy.is_some_and(|easy| easy.starts_with("place ")));
    }

    /// When the test matches are played.
    const NOW: chrono::DateTime<chrono::Utc> =
        chrono::DateTime::from_timestamp_nanos(1_767_225_600_000_000_000);

    /// A new match on the default setup between seats 0 and 1, `first` to move.
    fn fresh(first: Seat) -> ShortCircuitGame {
        let setup =
            parse_setup(&Options::default()).unwrap_or_else(|refusal| panic!("{refusal:?}"));
        let players: Vec<Player> = ["a", "b"]
            .iter()
            .enumerate()
            .map(|(seat, name)| Player::person(seat, *name))
            .collect();
        ShortCircuitGame::new(setup, &players, first, NOW)
            .unwrap_or_else(|refusal| panic!("{refusal:?}"))
    }

    /// A match on the default setup with `text` as its position, in which seat 0 has just
    /// called impossible: seat 1 answers.
    fn called(text: &str) -> ShortCircuitGame {
        let mut game = fresh(0);
        game.position = Position::parse(text).unwrap_or_else(|error| panic!("{error}"));
        let mut dice = Dice::new(Seed([3; 32]));
        let mut ctx = Ctx {
            now: NOW,
            dice: &mut dice,
            revision: Ctx::NEWEST,
        };
        if let Err(refusal) = game.act(0, "impossible", "", &mut ctx) {
            panic!("{refusal:?}");
        }
        // The solver's sealed answer is worked out first, as the table does.
        if let Some(search) = game.pending_search() {
            let verdict = (search.work)(1_000_000);
            if let Err(refusal) = game.verdict(&search.key, &verdict, &mut ctx) {
                panic!("{refusal:?}");
            }
        }
        assert!(game.challenge.is_some(), "the call opens the window");
        game
    }

    #[test]
    fn easy_answers_a_call_as_a_beginner_without_the_solvers_completion() {
        // Completable (the solver's answer places four pieces), but not in one placement.
        let text = "size 5x5\nsupply straight=2 turn=4 cross=0 thunder=0\n. . . . .\n. ┌ ─ ┐ .\n. │ . . .\n. . . . .\n. . . . .\n";
        let game = called(text);
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let normal = decide(&game, 1, Level::Normal, &mut rng).unwrap_or_default();
        assert_eq!(
            normal.matches(';').count(),
            3,
            "normal places the whole completion: {normal}"
        );
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let easy = decide(&game, 1, Level::Easy, &mut rng).unwrap_or_default();
            let (grid, supply) = position(text);
            let at_an_end: Vec<String> = extensions(&grid, &supply)
                .into_iter()
                .map(|item| place(&[item]))
                .collect();
            assert!(
                at_an_end.contains(&easy),
                "easy builds one piece on: {easy}"
            );
        }
        // Only crossroads are left, and one on the open end would point into the edge: easy
        // gives up.
        let stuck = called("size 4x4\nsupply straight=0 turn=0 cross=4 thunder=0\n─ . . .\n. . . .\n. . . .\n. . . .\n");
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        assert_eq!(
            decide(&stuck, 1, Level::Easy, &mut rng).as_deref(),
            Some("concede")
        );
    }

    #[test]
    fn the_random_player_draws_evenly_among_every_legal_action() {
        // Two empty squares side by side, touching the track, and a supply of one straight and
        // one crossroad: one piece on either square (the straight either way round, or the
        // crossroad: 3 each), both squares at once (a straight and the crossroad: 4), and the
        // call: 11 actions.
        let text = "size 2x2\nsupply straight=1 turn=0 cross=1 thunder=0\n┌ ┐\n. .\n";
        let mut game = fresh(0);
        game.position = Position::parse(text).unwrap_or_else(|error| panic!("{error}"));
        let mut seen: std::collections::BTreeMap<String, u32> = Default::default();
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        for _ in 0..7_000 {
            let action = random_action(&game, 0, &mut rng).unwrap_or_default();
            *seen.entry(action).or_default() += 1;
        }
        let actions: Vec<&str> = seen.keys().map(String::as_str).collect();
        assert_eq!(actions.len(), 11, "{actions:?}");
        assert!(actions.contains(&"impossible"));
        assert!(actions.contains(&"place a2 straight 0 b2 cross"));
        assert!(
            seen.values().all(|count| (520..760).contains(count)),
            "{seen:?}"
        );
    }

    /// A match between two seats, each choosing with `choose`, played to its end through the
    /// game's own actions; returns the winner.
    fn play(
        seed: u64,
        choose: &mut dyn FnMut(&ShortCircuitGame, Seat, &mut ChaCha8Rng) -> Option<String>,
    ) -> Option<Seat> {
        let mut game = fresh((seed % 2) as usize);
        let mut dice = Dice::new(Seed([seed as u8; 32]));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..300 {
            let mut ctx = Ctx {
                now: NOW,
                dice: &mut dice,
                revision: Ctx::NEWEST,
            };
            if let Some(search) = game.pending_search() {
                let verdict = (search.work)(1_000_000);
                let _ = game.verdict(&search.key, &verdict, &mut ctx);
                continue;
            }
            if let Some(outcome) = &game.outcome {
                return Some(outcome.winner);
            }
            let seat = game.to_move;
            let action = choose(&game, seat, &mut rng)?;
            let (word, args) = action.split_once(' ').unwrap_or((&action, ""));
            if let Err(refusal) = game.act(seat, word, args, &mut ctx) {
                panic!("seat {seat} sent `{action}`, refused: {refusal:?}");
            }
        }
        None
    }

    #[test]
    fn every_action_of_either_level_is_legal_and_normal_beats_random() {
        let mut normal_wins = 0;
        for seed in 0..12 {
            let normal = (seed % 2) as usize;
            let winner = play(seed, &mut |game, seat, rng| {
                if seat == normal {
                    decide(game, seat, Level::Normal, rng)
                } else {
                    random_action(game, seat, rng)
                }
            });
            normal_wins += usize::from(winner == Some(normal));
        }
        assert!(normal_wins >= 10, "normal won {normal_wins} of 12");
        for seed in 0..6 {
            let winner = play(seed, &mut |game, seat, rng| {
                decide(game, seat, Level::Easy, rng)
            });
            assert!(winner.is_some(), "an easy match ended");
        }
    }
}
