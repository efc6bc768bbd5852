//! TAG benchmark: resolves one random movement round of 10, 1,000 and 10,000 players with 3
//! moves each (random compass moves or nothing, random modes) on the grid the rules give for
//! that many players, plus a worst case of long collision chains. Prints the median and the
//! slowest of several runs.
//!
//! Run: `cargo bench --bench tag`.

use referee::dice::{Dice, Seed};
use referee::games::tag::state::{grid_side, Dir, Mode, Move, MoveOrder, Square, TagState};
use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

fn position(players: usize, dice: &mut Dice) -> (TagState, BTreeMap<usize, MoveOrder>) {
    let side = grid_side(players);
    let mut builder = TagState::builder(side);
    let mut taken = HashSet::new();
    while taken.len() < players {
        let col = dice.pick("column", side as usize) as u32;
        let row = dice.pick("row", side as usize) as u32;
        let square = Square::new(col, row);
        if taken.insert(square) {
            builder = builder
                .player(&format!("p{}", taken.len()), &square.to_string(), 35)
                .moves(3);
        }
    }
    let state = builder.it(0).build();
    let orders = (0..players)
        .map(|seat| {
            let moves: Vec<Move> = (0..3)
                .map(|_| match dice.pick("move", 9) {
                    8 => Move::Nothing,
                    d => Move::Go(Dir::ALL[d]),
                })
                .collect();
            let mode = if dice.pick("mode", 2) == 0 {
                Mode::Stomp
            } else {
                Mode::Stride
            };
            (seat, MoveOrder::new(&moves, mode))
        })
        .collect();
    (state, orders)
}

/// The worst case for waves: 10,000 players packed in 5 rows of 2,000 on the 10,000-player
/// grid, everyone moving east except the front of each row, so every row is one long chain.
fn chains(dice: &mut Dice) {
    let mut builder = TagState::builder(grid_side(10_000));
    let mut orders = BTreeMap::new();
    for row in 0..5u32 {
        for col in 0..2000u32 {
            let seat = (row * 2000 + col) as usize;
            builder = builder
                .player(&format!("p{seat}"), &Square::new(col, row).to_string(), 35)
                .moves(3);
            let step = if col == 1999 {
                Move::Nothing
            } else {
                Move::Go(Dir::E)
            };
            orders.insert(seat, MoveOrder::new(&[step; 3], Mode::Stride));
        }
    }
    let state = builder.it(0).build();
    let mut times = Vec::new();
    let mut collisions = 0;
    for _ in 0..5 {
        let mut game = state.clone();
        let start = Instant::now();
        let report = game.resolve_moves(&orders, dice);
        times.push(start.elapsed());
        collisions = report.steps.iter().map(|s| s.collisions.len()).sum();
    }
    times.sort();
    println!(
        "tag:  10000 players in 5 chains of 2000, 3 moves: median {:?}, slowest {:?} ({collisions} collisions)",
        times[times.len() / 2],
        times[times.len() - 1],
    );
}

fn main() {
    let mut dice = Dice::new(Seed::parse("2026").unwrap_or(Seed([0; 32])));
    for players in [10usize, 1_000, 10_000] {
        let (state, orders) = position(players, &mut dice);
        let runs = if players >= 10_000 { 15 } else { 50 };
        let mut times: Vec<Duration> = Vec::with_capacity(runs);
        let mut collisions = 0;
        for _ in 0..runs {
            let mut game = state.clone();
            let start = Instant::now();
            let report = game.resolve_moves(&orders, &mut dice);
            times.push(start.elapsed());
            collisions = report.steps.iter().map(|s| s.collisions.len()).sum();
        }
        times.sort();
        println!(
            "tag: {players:>6} players, {side}x{side} grid, 3 moves: median {:?}, slowest {:?} ({collisions} collisions)",
            times[times.len() / 2],
            times[times.len() - 1],
            side = grid_side(players),
        );
    }
    chains(&mut dice);
}
