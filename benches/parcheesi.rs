//! Parcheesi speed: legal-move queries per second on random positions and rolls (mixed rolls,
//! and the worst case: doubles with four dice, plus reward queries), and random full games
//! per second through the whole turn flow. Each query figure is the fastest of five runs.
//! Run: `cargo bench --bench parcheesi`; `-- worst` times the worst case alone, on the same
//! positions (for a profiler).

use referee::dice::{Dice, Seed};
use referee::games::parcheesi::{
    legal_steps, reward_steps, Colour, Limits, Match, Position, Roll, Seated, Settings, Spot,
    Stage, Step,
};
use std::hint::black_box;
use std::time::Instant;

/// A small fast generator for choices (the game's own dice roll the dice).
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

fn seated(players: usize) -> Vec<Seated> {
    Colour::ALL
        .into_iter()
        .take(players)
        .enumerate()
        .map(|(seat, colour)| Seated {
            seat,
            name: format!("p{seat}"),
            colour,
            gone: false,
        })
        .collect()
}

/// Plays one random game to the end; returns the number of actions and, if asked, every
/// position met with the colour to move.
fn random_game(
    seed: u64,
    players: usize,
    rng: &mut XorShift,
    mut seen: Option<&mut Vec<(Position, Colour)>>,
) -> usize {
    let mut dice = Dice::new(Seed::parse(&seed.to_string()).unwrap_or(Seed([0; 32])));
    let (mut game, _) = Match::new(Settings::default(), seated(players), &mut dice);
    let mut actions = 0;
    while actions < 100_000 {
        if let Stage::Over(_) = game.stage {
            break;
        }
        actions += 1;
        let colour = game.colour();
        let seat = game.mover().map_or(0, |s| s.seat);
        if let Some(seen) = seen.as_deref_mut() {
            seen.push((game.pos, colour));
        }
        let line = match game.stage {
            Stage::Dice => {
                let steps = game.legal();
                steps.as_slice()[rng.below(steps.len())].to_string()
            }
            _ => {
                let amount = game
                    .rewards
                    .iter()
                    .copied()
                    .find(|a| !reward_steps(&game.pos, colour, *a, &game.limits).is_empty());
                let amount = amount.unwrap_or(20);
                let steps = reward_steps(&game.pos, colour, amount, &game.limits);
                match steps.as_slice().get(rng.below(steps.len())) {
                    Some(Step::Move { pawn, around, .. }) => format!(
                        "reward {} {amount}{}",
                        pawn + 1,
                        if *around { " around" } else { "" }
                    ),
                    _ => "reward 1".to_string(),
                }
            }
        };
        let (word, args) = line.split_once(' ').unwrap_or((&line, ""));
        if game.act(seat, word, args, &mut dice).is_err() {
            game.timeout(&mut dice);
        }
    }
    actions
}

/// A random lawful position with every pawn of every colour on the ring or in its home row.
fn crowded(rng: &mut XorShift) -> Position {
    let mut pos = Position::default();
    let mut ring = [(None::<Colour>, 0u8); 68];
    for colour in Colour::ALL {
        let mut rows = [0u8; 8];
        for pawn in 0..4 {
            loop {
                if rng.below(8) == 0 {
                    let step = 1 + rng.below(7);
                    if rows[step] < 2 {
                        rows[step] += 1;
                        pos.pawns[colour.index()][pawn] = Spot::Row(step as u8);
                        break;
                    }
                } else {
                    let square = rng.below(68);
                    let (owner, count) = ring[square];
                    if count == 0 || (owner == Some(colour) && count < 2) {
                        ring[square] = (Some(colour), count + 1);
                        pos.pawns[colour.index()][pawn] = Spot::Ring(square as u8);
                        break;
                    }
                }
            }
        }
    }
    pos
}

/// Runs `work` five times and keeps the fastest time (the machine may be shared).
fn fastest(mut work: impl FnMut() -> usize) -> (usize, f64) {
    let mut best = f64::MAX;
    let mut result = 0;
    for _ in 0..5 {
        let start = Instant::now();
        result = work();
        best = best.min(start.elapsed().as_secs_f64());
    }
    (result, best)
}

fn rate(count: usize, seconds: f64) -> String {
    format!("{:.0}", count as f64 / seconds.max(1e-9))
}

fn main() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let only_worst = std::env::args().any(|a| a == "worst");

    // Positions met in random games, each with random rolls.
    let mut seen = Vec::new();
    for seed in 0..40 {
        random_game(seed, 2 + (seed as usize % 3), &mut rng, Some(&mut seen));
    }
    let mut queries = Vec::new();
    for (pos, colour) in seen.iter().take(200_000) {
        let (a, b) = (1 + rng.below(6) as u8, 1 + rng.below(6) as u8);
        let roll = Roll::new(a, b, pos.all_out(*colour));
        let limits = Limits {
            together: if a == b {
                pos.blockades(*colour)
            } else {
                Default::default()
            },
            ..Limits::default()
        };
        queries.push((*pos, *colour, roll, limits));
    }
    if !only_worst {
        let (total, secs) = fastest(|| {
            queries
                .iter()
                .map(|(pos, colour, roll, limits)| {
                    legal_steps(black_box(pos), roll, *colour, limits).len()
                })
                .sum()
        });
        println!(
            "mixed rolls on game positions: {} queries in {secs:.3}s = {} queries/s ({total} legal steps)",
            queries.len(),
            rate(queries.len(), secs)
        );
    }

    // Worst case: every pawn out, doubles (four dice), then the reward queries of a chain.
    let mut worst = Vec::new();
    for i in 0..100_000 {
        let pos = crowded(&mut rng);
        let colour = Colour::ALL[i % 4];
        let face = 1 + rng.below(6) as u8;
        let roll = Roll::new(face, face, true);
        let limits = Limits {
            together: pos.blockades(colour),
            ..Limits::default()
        };
        worst.push((pos, colour, roll, limits));
    }
    let (total, secs) = fastest(|| {
        worst
            .iter()
            .map(|(pos, colour, roll, limits)| {
                legal_steps(black_box(pos), roll, *colour, limits).len()
            })
            .sum()
    });
    println!(
        "doubles with four dice, all pawns out: {} queries in {secs:.3}s = {} queries/s ({total} legal steps)",
        worst.len(),
        rate(worst.len(), secs)
    );
    if only_worst {
        return;
    }
    let (total, secs) = fastest(|| {
        worst
            .iter()
            .map(|(pos, colour, _, _)| {
                reward_steps(black_box(pos), *colour, 20, &Limits::default()).len()
                    + reward_steps(black_box(pos), *colour, 10, &Limits::default()).len()
            })
            .sum()
    });
    println!(
        "reward chains (20 then 10): {} queries in {secs:.3}s = {} queries/s ({total} moves)",
        worst.len() * 2,
        rate(worst.len() * 2, secs)
    );

    // Random full games through the whole turn flow (rolls, events, rewards).
    let games = 300;
    let start = Instant::now();
    let mut actions = 0;
    for seed in 0..games {
        actions += random_game(1000 + seed, 2 + (seed as usize % 3), &mut rng, None);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "random full games (2-4 players): {games} games, {actions} actions in {secs:.3}s = {} games/s",
        rate(games as usize, secs)
    );
}
