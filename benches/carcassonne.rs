//! Random full games of Carcassonne (2 and 4 players), with Under the Big Top off and on:
//! random legal placements and random choices (meeples, and with the expansion ringmasters,
//! acrobats and pyramids), all scoring included. Prints games per second over all games and
//! for the fastest of five rounds, and last the 2-player base-game rate alone, the figure to
//! compare with other engines' random playouts. Run with `cargo bench --bench carcassonne`;
//! `cargo bench --bench carcassonne -- 200` plays 200 games a round instead of 1000, and
//! `-- base` measures the 2-player base game alone (for a profile, or a side-by-side run).
//!
//! Side by side with another engine: CARCASSONNE_PEER="<program> <arguments>" (split on
//! spaces, no shell) runs that command (another
//! engine's random 2-player base games, printing "<n> games/s" and, if it has rounds,
//! "fastest round <n> games/s") three times, each right before a run of ours, and prints
//! both figures and their ratio with the machine's load average. The peer is built outside
//! this repository.

#[path = "shared/machine.rs"]
mod machine;

use machine::load_average;
use referee::dice::{Dice, Seed};
use referee::games::carcassonne::act::{Match, Stage};
use referee::games::carcassonne::circus::animal_tokens;
use referee::games::carcassonne::map::Placements;
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
    // One list of placements, one of choices and one of happenings for the whole game: the
    // engine writes over them, so a turn allocates nothing for them.
    let (mut legal, mut options, mut happened) = (Placements::default(), Vec::new(), Vec::new());
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
                m.map.legal_into(kind, &mut legal);
                if let Some((x, y, r)) = legal.get(chooser.below(legal.len())) {
                    happened.clear();
                    let _ = m.place_into(x, y, r, &mut happened);
                }
            }
            Stage::Follower(_) => {
                m.choices_into(&mut options);
                let pick = options[chooser.below(options.len())];
                happened.clear();
                let _ = m.choose_into(pick, &mut happened);
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
    let only_base = std::env::args().any(|a| a == "base");
    let mut base_two = (0.0, 0.0);
    for bigtop in [false, true] {
        for players in [2, 4] {
            if only_base && (bigtop || players != 2) {
                continue;
            }
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
    if let Ok(peer) = std::env::var("CARCASSONNE_PEER") {
        side_by_side(&peer, games);
    }
}

/// The number before the first `after` in `text` ("... 312 games/s").
fn figure_before(text: &str, after: &str) -> Option<f64> {
    let (head, _) = text.split_once(after)?;
    head.split_whitespace().last()?.parse().ok()
}

/// Three runs of the peer's command, each followed by one of ours, with the ratios.
fn side_by_side(peer: &str, games: u64) {
    let mut words = peer.split_whitespace();
    let Some(program) = words.next() else {
        println!("CARCASSONNE_PEER is empty: no side-by-side run");
        return;
    };
    let arguments: Vec<&str> = words.collect();
    for run in 1..=3 {
        let load = load_average();
        let output = match std::process::Command::new(program)
            .args(&arguments)
            .output()
        {
            Ok(output) if !output.status.success() => {
                println!(
                    "the peer `{peer}` failed ({}): {}",
                    output.status,
                    String::from_utf8_lossy(&output.stderr).trim()
                );
                return;
            }
            Ok(output) => String::from_utf8_lossy(&output.stdout).into_owned(),
            Err(error) => {
                println!("the peer `{peer}` could not be run: {error}");
                return;
            }
        };
        let theirs = figure_before(&output, " games/s");
        let their_best = output
            .split_once("fastest round ")
            .and_then(|(_, rest)| figure_before(rest, " games/s"));
        let (ours, our_best, _) = measure(2, false, games);
        println!("side by side, run {run} (load average before: {load}):");
        println!("  peer: {}", output.trim());
        println!("  ours: {ours:.0} games/s, fastest round {our_best:.0} games/s");
        match theirs {
            Some(theirs) if theirs > 0.0 => {
                let best = their_best
                    .filter(|b| *b > 0.0)
                    .map(|b| format!(", fastest rounds {:.1}x", our_best / b))
                    .unwrap_or_default();
                println!("  ratio: {:.1}x overall{best}", ours / theirs);
            }
            _ => println!("  ratio: the peer printed no games/s figure"),
        }
    }
}
