//! 50-Tile Circuit timings: whole random games (resolutions per second), the text and SVG
//! board, and the PNG rendering. Run with `cargo bench --bench circuit`.

use chrono::{TimeZone, Utc};
use referee::dice::{Dice, Seed};
use referee::games::circuit::CIRCUIT;
use referee::games::{Ctx, Game, Options, Phase, Player, Rules};
use std::collections::BTreeMap;
use std::time::Instant;

/// Plays one game with 6 players to its end; returns the game and how many phases it resolved.
fn play(seed: u64) -> (Box<dyn Game>, usize) {
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let mut dice = Dice::new(Seed::parse(&seed.to_string()).unwrap());
    let mut chooser = Dice::new(Seed::parse(&(seed + 1_000_000).to_string()).unwrap());
    let players: Vec<Player> = (0..6)
        .map(|seat| Player::person(seat, format!("player{seat}")))
        .collect();
    let (mut game, _) = CIRCUIT
        .setup(
            &Options::new(),
            &players,
            &mut Ctx {
                now,
                dice: &mut dice,
                revision: Ctx::NEWEST,
            },
        )
        .unwrap();
    let effects = [
        "effect back 3 land",
        "effect skip land",
        "effect boost pass",
        "effect start land",
        "effect forward 4 land",
        "effect owner 2 land",
    ];
    let mut phases = 0;
    while let Phase::Orders { seats, label } = game.phase() {
        let mut orders = BTreeMap::new();
        for seat in seats {
            let text = if label.starts_with("effects") {
                effects[chooser.pick("effect", effects.len())]
            } else if chooser.roll("stay?", 3) == 1 {
                "stay"
            } else {
                "move"
            };
            if let Ok(order) = game.check_order(seat, text) {
                orders.insert(seat, order);
            }
        }
        game.resolve(
            &orders,
            &mut Ctx {
                now,
                dice: &mut dice,
                revision: Ctx::NEWEST,
            },
        )
        .unwrap();
        phases += 1;
    }
    (game, phases)
}

fn main() {
    let games = 200;
    let started = Instant::now();
    let mut phases = 0;
    let mut last = None;
    for seed in 0..games {
        let (game, count) = play(seed);
        phases += count;
        last = Some(game);
    }
    let elapsed = started.elapsed();
    println!(
        "{games} six-player games, {phases} phases resolved in {:.1} ms: {:.2} ms a game, {:.1} µs a phase",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_secs_f64() * 1e3 / games as f64,
        elapsed.as_secs_f64() * 1e6 / phases as f64
    );
    let Some(game) = last else { return };
    let rounds = 200;
    let started = Instant::now();
    let mut svg = String::new();
    for _ in 0..rounds {
        svg = game.board().svg.unwrap_or_default();
    }
    println!(
        "board (text + SVG, {} bytes): {:.1} µs",
        svg.len(),
        started.elapsed().as_secs_f64() * 1e6 / rounds as f64
    );
    let renders = 10;
    let started = Instant::now();
    let mut size = 0;
    for _ in 0..renders {
        size = referee::picture::png_from_svg(&svg).map_or(0, |png| png.len());
    }
    println!(
        "PNG ({size} bytes): {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3 / renders as f64
    );
}
