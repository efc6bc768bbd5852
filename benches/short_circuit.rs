//! Times the Short Circuit solver on a fixed, seeded set of 600 positions (boards 5x5 to
//! 10x10, 24 to 40 pieces in all, completable and impossible, many with thunder pieces).
//! Run with `cargo bench --bench short_circuit`.

use referee::games::short_circuit::{solve, Grid, Piece, Position, Solution, Square, Supply};
use std::time::{Duration, Instant};

/// A small seeded generator (splitmix64), so the set is the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The outline of a random polyomino of blocks between the squares' centres: a single loop
/// through squares, each holding a straight or a turn.
fn random_loop(rng: &mut Rng, cols: usize, rows: usize, blocks: usize) -> Vec<(Square, Piece)> {
    let (bw, bh) = (cols - 1, rows - 1);
    let mut inside = vec![false; bw * bh];
    inside[rng.below(bw * bh)] = true;
    let mut best = outline(&inside, cols, rows).unwrap_or_default();
    for _ in 0..blocks * 4 {
        if inside.iter().filter(|b| **b).count() >= blocks {
            break;
        }
        let candidates: Vec<usize> = (0..bw * bh)
            .filter(|&b| !inside[b])
            .filter(|&b| {
                let (x, y) = (b % bw, b / bw);
                (x > 0 && inside[b - 1])
                    || (x + 1 < bw && inside[b + 1])
                    || (y > 0 && inside[b - bw])
                    || (y + 1 < bh && inside[b + bw])
            })
            .collect();
        if candidates.is_empty() {
            break;
        }
        let pick = candidates[rng.below(candidates.len())];
        inside[pick] = true;
        match outline(&inside, cols, rows) {
            Some(cells) => best = cells,
            None => inside[pick] = false,
        }
    }
    best
}

fn outline(inside: &[bool], cols: usize, rows: usize) -> Option<Vec<(Square, Piece)>> {
    let (bw, bh) = (cols - 1, rows - 1);
    let block = |x: isize, y: isize| {
        x >= 0
            && y >= 0
            && (x as usize) < bw
            && (y as usize) < bh
            && inside[y as usize * bw + x as usize]
    };
    let mut cells = Vec::new();
    let mut grid = Grid::new(cols, rows).ok()?;
    for row in 0..rows {
        for col in 0..cols {
            let (x, y) = (col as isize, row as isize);
            // The four blocks around this vertex: NW, NE, SW, SE.
            let (nw, ne, sw, se) = (
                block(x - 1, y - 1),
                block(x, y - 1),
                block(x - 1, y),
                block(x, y),
            );
            let north = nw != ne;
            let south = sw != se;
            let west = nw != sw;
            let east = ne != se;
            let piece = match (north, east, south, west) {
                (false, false, false, false) => continue,
                (true, false, true, false) => Piece::Vertical,
                (false, true, false, true) => Piece::Horizontal,
                (true, true, false, false) => Piece::NorthEast,
                (false, true, true, false) => Piece::EastSouth,
                (false, false, true, true) => Piece::SouthWest,
                (true, false, false, true) => Piece::WestNorth,
                _ => return None,
            };
            let square = Square { col, row };
            grid.set(square, Some(piece));
            cells.push((square, piece));
        }
    }
    referee::games::short_circuit::circuit::check_loop(&grid).ok()?;
    Some(cells)
}

fn random_position(rng: &mut Rng) -> Position {
    let side = 5 + rng.below(6);
    let (cols, rows) = (side, 5 + rng.below(6));
    let total = 24 + rng.below(17);
    let blocks = 2 + rng.below((total / 2).max(3));
    let mut cells = random_loop(rng, cols, rows, blocks);
    while cells.len() > total {
        cells = random_loop(rng, cols, rows, 2);
    }
    let mut grid = Grid::new(cols, rows).unwrap();
    let mut supply = Supply::default();
    let on_board = rng.below(cells.len() + 1);
    for (index, (square, piece)) in cells.iter().enumerate() {
        let thunder = rng.below(8) == 0;
        if index < on_board {
            grid.set(*square, Some(if thunder { Piece::Thunder } else { *piece }));
        } else if thunder {
            supply.thunder += 1;
        } else {
            *supply.count_mut(piece.kind()) += 1;
        }
    }
    for _ in cells.len()..total {
        let kind = [0, 0, 0, 1, 1, 1, 1, 2, 3][rng.below(9)];
        match kind {
            0 => supply.straight += 1,
            1 => supply.turn += 1,
            2 => supply.cross += 1,
            _ => supply.thunder += 1,
        }
    }
    match rng.below(4) {
        // Turn a placed piece the wrong way.
        0 if on_board > 0 => {
            let (square, _) = cells[rng.below(on_board)];
            grid.set(square, Some(Piece::SHAPES[rng.below(7)]));
        }
        // Take needed turn pieces away.
        1 => {
            supply.turn = supply.turn.saturating_sub(1 + rng.below(4) as u32);
            supply.thunder = supply.thunder.saturating_sub(rng.below(2) as u32);
        }
        // Add a stray piece next to the track.
        2 => {
            let square = Square {
                col: rng.below(cols),
                row: rng.below(rows),
            };
            if grid.get(square).is_none() && on_board > 0 {
                grid.set(square, Some(Piece::SHAPES[rng.below(7)]));
            }
        }
        _ => {}
    }
    Position { grid, supply }
}

fn main() {
    let mut rng = Rng(0x5c5c_2026);
    let positions: Vec<Position> = (0..600).map(|_| random_position(&mut rng)).collect();
    let mut times: Vec<(Duration, usize)> = Vec::new();
    let (mut completable, mut impossible, mut with_thunder) = (0, 0, 0);
    for (index, position) in positions.iter().enumerate() {
        if position.grid.cells().contains(&Some(Piece::Thunder)) || position.supply.thunder > 1 {
            with_thunder += 1;
        }
        let started = Instant::now();
        let answer = solve(&position.grid, &position.supply);
        times.push((started.elapsed(), index));
        match answer {
            Solution::Completable(witness) => {
                assert_eq!(witness.check(), Ok(()), "witness of position {index} fails");
                completable += 1;
            }
            Solution::Impossible => impossible += 1,
        }
    }
    times.sort();
    let median = times[times.len() / 2].0;
    let (worst, _) = times[times.len() - 1];
    println!(
        "short_circuit solver: {} positions ({completable} completable, {impossible} impossible, {with_thunder} with thunder)",
        positions.len()
    );
    println!(
        "median {:.3} ms, 90th percentile {:.3} ms, worst {:.3} ms",
        median.as_secs_f64() * 1000.0,
        times[times.len() * 9 / 10].0.as_secs_f64() * 1000.0,
        worst.as_secs_f64() * 1000.0
    );
    for (time, index) in times.iter().rev().take(3) {
        println!(
            "slow: {:.3} ms\n{}",
            time.as_secs_f64() * 1000.0,
            positions[*index].to_text()
        );
    }
}
