//! Random full games of Carcassonne (2 and 4 players), with Under the Big Top off and on:
//! random legal placements and random choices (meeples, and with the expansion ringmasters,
//! acrobats and pyramids), all scoring included. Prints games per second. Run with
//! `cargo bench --bench carcassonne`.

use referee::dice::{Dice, Seed};
use referee::games::carcassonne::circus::animal_tokens;
use referee::games::carcassonne::play::{Match, Stage};
use referee::games::carcassonne::tiles::{base_box, bigtop_box, START};
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
    let mut deck = base_box();
    if let Some(i) = deck.iter().position(|&k| k == START) {
        deck.remove(i);
    }
    if bigtop {
        deck.extend(bigtop_box());
    }
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

fn main() {
    for bigtop in [false, true] {
        for players in [2, 4] {
            let games = 2000;
            let start = Instant::now();
            let mut total = 0u64;
            for seed in 0..games {
                total += u64::from(game(players, seed + 1, bigtop));
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "bigtop {}, {players} players: {games} games in {secs:.3} s = {:.0} games/s (mean total score {:.1})",
                if bigtop { "on" } else { "off" },
                games as f64 / secs,
                total as f64 / games as f64
            );
        }
    }
}
