//! Random games of 2 to 4 players, played by random legal steps (and now and then a missed
//! deadline), always end, keep four pawns per colour, never put three pawns or two colours on
//! one square, and never let a pawn pass a blockade. `PROPTEST_CASES` raises the case count.

use proptest::prelude::*;
use referee::dice::{Dice, Seed};
use referee::games::parcheesi::{Colour, Match, Position, Seated, Settings, Spot, Stage, Step};

/// Where a pawn of `colour` goes one square on from `spot` (into the home row at the turn-off
/// square unless it goes around).
fn next(colour: Colour, spot: Spot, around: bool) -> Spot {
    match spot {
        Spot::Ring(s) if s == colour.turn_off() && !around => Spot::Row(1),
        Spot::Ring(s) => Spot::Ring((s + 1) % 68),
        Spot::Row(7) => Spot::Home,
        Spot::Row(k) => Spot::Row(k + 1),
        other => other,
    }
}

fn blockade_on(pos: &Position, mover: Colour, spot: Spot) -> bool {
    Colour::ALL.into_iter().any(|c| {
        let here = pos.pawns[c.index()].iter().filter(|s| **s == spot).count();
        here >= 2 && (matches!(spot, Spot::Ring(_)) || c == mover)
    })
}

/// Walks a move square by square on the position before it, checking that no blockade is
/// passed, and returns where it ends.
fn walk(pos: &Position, colour: Colour, pawn: usize, count: u8, around: bool) -> Spot {
    let mut at = pos.pawns[colour.index()][pawn];
    for i in 1..=count {
        let mut route_around = around;
        if let Spot::Ring(s) = at {
            // "around" only matters the first time the pawn reaches its turn-off.
            route_around = around && s == colour.turn_off();
        }
        at = next(colour, at, route_around);
        if i < count {
            assert!(
                !blockade_on(pos, colour, at),
                "{colour} pawn {} passed a blockade on {at}",
                pawn + 1
            );
        }
    }
    at
}

fn check_board(pos: &Position) {
    for colour in Colour::ALL {
        assert_eq!(pos.pawns[colour.index()].len(), 4);
    }
    for square in 0..68u8 {
        let here: Vec<Colour> = Colour::ALL
            .into_iter()
            .flat_map(|c| {
                pos.pawns[c.index()]
                    .iter()
                    .filter(move |s| **s == Spot::Ring(square))
                    .map(move |_| c)
            })
            .collect();
        assert!(here.len() <= 2, "three pawns on {square}");
        assert!(
            here.windows(2).all(|w| w[0] == w[1]),
            "two colours on {square}"
        );
    }
    for colour in Colour::ALL {
        for step in 1..=7u8 {
            let here = pos.pawns[colour.index()]
                .iter()
                .filter(|s| **s == Spot::Row(step))
                .count();
            assert!(here <= 2, "three {colour} pawns on home row {step}");
        }
    }
}

fn random_game(seed: u64, players: usize, auto: bool) -> (Match, usize) {
    let mut dice = Dice::new(Seed::parse(&seed.to_string()).unwrap());
    let mut choices = Dice::new(Seed::parse(&(seed ^ 0x5eed).to_string()).unwrap());
    let seated: Vec<Seated> = Colour::ALL
        .into_iter()
        .take(players)
        .enumerate()
        .map(|(seat, colour)| Seated {
            seat,
            name: format!("p{seat}"),
            colour,
            gone: false,
        })
        .collect();
    let settings = Settings {
        auto,
        ..Settings::default()
    };
    let (mut game, _) = Match::new(settings, seated, &mut dice);
    let mut actions = 0;
    while actions < 50_000 {
        if let Stage::Over(_) = game.stage {
            break;
        }
        check_board(&game.pos);
        let colour = game.colour();
        let seat = game.mover().map(|s| s.seat).unwrap_or(0);
        let before = game.pos;
        actions += 1;
        if choices.pick("timeout", 200) == 0 {
            game.timeout(&mut dice);
            continue;
        }
        let (line, moved) = match game.stage {
            Stage::Dice => {
                let steps = game.legal();
                let step = steps.as_slice()[choices.pick("step", steps.len())];
                let moved = match step {
                    Step::Move { pawn, die, around } => Some((usize::from(pawn), die, around)),
                    Step::Enter { .. } => None,
                };
                (step.to_string(), moved)
            }
            _ => {
                let mut options = Vec::new();
                for amount in [20u8, 10] {
                    if game.rewards.contains(&amount) {
                        for step in referee::games::parcheesi::reward_steps(
                            &game.pos,
                            colour,
                            amount,
                            &game.limits,
                        )
                        .as_slice()
                        {
                            if let Step::Move { pawn, around, .. } = *step {
                                options.push((usize::from(pawn), amount, around));
                            }
                        }
                    }
                }
                let (pawn, amount, around) = options[choices.pick("reward", options.len())];
                let line = format!(
                    "reward {} {amount}{}",
                    pawn + 1,
                    if around { " around" } else { "" }
                );
                (line, Some((pawn, amount, around)))
            }
        };
        let (word, args) = line.split_once(' ').unwrap();
        if let Err(refusal) = game.act(seat, word, args, &mut dice) {
            panic!("the legal step {line} was refused: {refusal}");
        }
        if let Some((pawn, count, around)) = moved {
            let end = walk(&before, colour, pawn, count, around);
            let after = game.pos.pawns[colour.index()][pawn];
            let captured_back = after == Spot::Nest;
            assert!(
                end == after || captured_back,
                "{line} took pawn {} to {after}, not {end}",
                pawn + 1
            );
        }
    }
    (game, actions)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64)
    ))]

    #[test]
    fn random_games_end_and_keep_the_board_lawful(
        seed in any::<u64>(),
        players in 2usize..=4,
        auto in any::<bool>(),
    ) {
        let (game, actions) = random_game(seed, players, auto);
        check_board(&game.pos);
        prop_assert!(matches!(game.stage, Stage::Over(_)), "not over after {actions} actions");
        if let Stage::Over(ranking) = &game.stage {
            let winner = ranking[0][0];
            let colour = game.seated.iter().find(|s| s.seat == winner).unwrap().colour;
            prop_assert!(game.pos.all_home(colour));
            prop_assert_eq!(ranking.iter().flatten().count(), players);
        }
    }
}
