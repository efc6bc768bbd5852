//! Random full games of Carcassonne (2 and 4 players), with Under the Big Top off and on:
//! random legal placements and random choices (meeples, and with the expansion ringmasters,
//! acrobats and pyramids), all scoring included. Prints games per second over all games and
//! for the fastest of five rounds, and last the 2-player base-game rate alone, the figure to
//! compare with other engines' random playouts. Run with `cargo bench --bench carcassonne`;
//! `cargo bench --bench carcassonne -- 200` plays 200 games a round instead of 1000.

use referee::dice::{Dice, Seed};
use referee::games::carcassonne::act::{Match, Stage};
use referee::games::carcassonne::circus::animal_tokens;
use referee::games::carcassonne::tiles::to_deal;
use std::time::Instant;

/// A small xorshift generator for the random players' choices.
struct Chooser(u64);

impl Chooser {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

fn game(players: usize, seed: u64, bigtop: bool) -> u32 {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut dice = Dice::new(Seed(bytes));
    let mut deck = to_deal(bigtop);
    dice.shuffle("tile order", &mut deck);
    let mut chooser = Chooser(seed | 1);
    let (mut m, _) = if bigtop {
        let mut tokens = animal_tokens();
        dice.shuffle("animal tokens", &mut tokens);
        Match::with_big_top(players, deck, tokens)
    } else {
        Match::new(players, deck)
    };
    loop {
        match m.stage() {
            Stage::Place(kind) => {
                let legal = m.map.legal(kind);
                let (x, y, r) = legal[chooser.below(legal.len())];
                let _ = m.place(x, y, r);
            }
            Stage::Follower(_) => {
                let options = m.choices().all();
                let pick = options[chooser.below(options.len())];
                let _ = m.choose(pick);
            }
            Stage::Over => break,
        }
    }
    m.map.scores().iter().sum()
}

/// Rounds per configuration; the fastest round is reported beside the overall rate.
const ROUNDS: u64 = 5;

/// Plays `ROUNDS` rounds of `games` games; returns (overall games/s, fastest round's games/s,
/// mean total score).
fn measure(players: usize, bigtop: bool, games: u64) -> (f64, f64, f64) {
    let (mut secs, mut best, mut total) = (0.0, 0.0f64, 0u64);
    for round in 0..ROUNDS {
        let start = Instant::now();
        for i in 0..games {
            total += u64::from(game(players, round * games + i + 1, bigtop));
        }
        let took = start.elapsed().as_secs_f64();
        secs += took;
        best = best.max(games as f64 / took);
    }
    let played = (ROUNDS * games) as f64;
    (played / secs, best, total as f64 / played)
}

fn main() {
    let games = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<u64>().ok())
        .unwrap_or(1000)
        .max(1);
    let mut base_two = (0.0, 0.0);
    for bigtop in [false, true] {
        for players in [2, 4] {
            let (rate, best, mean) = measure(players, bigtop, games);
            println!(
                "bigtop {}, {players} players: {} games, {rate:.0} games/s (fastest round {best:.0} games/s; mean total score {mean:.1})",
                if bigtop { "on" } else { "off" },
                ROUNDS * games,
            );
            if !bigtop && players == 2 {
                base_two = (rate, best);
            }
        }
    }
    println!(
        "2-player base games (compare with other engines' random playouts): {:.0} games/s, fastest round {:.0} games/s",
        base_two.0, base_two.1
    );
}
