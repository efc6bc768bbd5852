//! A computer player (at every level, `hard` searching a fixed number of rollouts) decides from
//! what its seat may see: changing what the seat cannot see
//! (the order of Carcassonne's face-down tiles and animal tokens, the solver's sealed answer to
//! a Short Circuit impossible call) never changes its decision; and its randomness is its own:
//! Parcheesi's dice roll the same whatever the computers draw. (Another seat's secret order,
//! which TAG and 50-Tile Circuit keep at the table, is `tests/computer_seats.rs`'s.) Positions
//! come from random play; `PROPTEST_CASES` asks for more of them.

mod common;

use chrono::Utc;
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use referee::dice::{Dice, Seed};
use referee::games::carcassonne::act::{Choice, Match, Stage};
use referee::games::carcassonne::circus::animal_tokens;
use referee::games::carcassonne::computer as carcassonne;
use referee::games::carcassonne::parse::feature;
use referee::games::carcassonne::tiles::to_deal;
use referee::games::parcheesi::computer as parcheesi;
use referee::games::parcheesi::{
    Colour, Match as Parcheesi, Seated, Settings, Stage as ParcheesiStage,
};
use referee::games::search::Budget;
use referee::games::short_circuit::act::{Challenge, ShortCircuitGame};
use referee::games::short_circuit::computer as short_circuit;
use referee::games::short_circuit::setup::parse as short_circuit_setup;
use referee::games::{Ctx, Game, Level, Options, Player};

/// `hard` with a fixed number of rollouts, so the same randomness gives the same decision.
const HARD: Level = Level::Hard(Budget::of_rollouts(12));

/// Carries out a computer's command on a match through its own moves.
fn carry_out(m: &mut Match, command: &str) {
    let words: Vec<&str> = command.split_whitespace().collect();
    let after = match words.as_slice() {
        ["place", x, y, degrees, rest @ ..] => {
            let number = |w: &str| w.parse::<i32>().unwrap_or_default();
            let rot = (number(degrees) / 90) as u8;
            m.place(number(x), number(y), rot)
                .unwrap_or_else(|error| panic!("{command}: {error}"));
            rest.to_vec()
        }
        rest => rest.to_vec(),
    };
    let Stage::Follower(tile) = m.stage() else {
        return;
    };
    let shape = m.map.tiles()[tile].shape();
    let part = |name: &str| feature(shape, name).unwrap_or_default();
    let number = |w: &str| w.parse::<i32>().unwrap_or_default();
    let choice = match after.as_slice() {
        ["meeple", name] => Choice::Meeple(part(name)),
        ["ringmaster", name] => Choice::Ringmaster(part(name)),
        ["acrobat", x, y] => Choice::Acrobat(number(x), number(y)),
        ["pyramid", x, y] => Choice::Pyramid(number(x), number(y)),
        _ => Choice::Pass,
    };
    m.choose(choice)
        .unwrap_or_else(|error| panic!("{command}: {error}"));
}

/// A shuffled deck (with the Big Top's tiles) and token stack for game `seed`.
fn box_for(seed: u64) -> (Vec<u8>, Vec<referee::games::carcassonne::circus::Animal>) {
    let mut dice = Dice::new(Seed([seed as u8; 32]));
    let mut deck = to_deal(true);
    dice.shuffle("tile order", &mut deck);
    let mut tokens = animal_tokens();
    dice.shuffle("tokens", &mut tokens);
    (deck, tokens)
}

proptest! {
    #![proptest_config(common::proptest_config(24))]

    #[test]
    fn carcassonne_decides_alike_whatever_the_face_down_tiles_and_tokens(
        seed in 0u64..1_000,
        turns in 0usize..70,
        turn_by in 1usize..12,
    ) {
        let (deck, tokens) = box_for(seed);
        let (mut seen, _) = Match::with_big_top(2, deck.clone(), tokens.clone());
        let mut moves = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..turns {
            let seat = seen.seat();
            let Some(command) = carcassonne::random_command(&seen, seat, &mut rng) else {
                break;
            };
            carry_out(&mut seen, &command);
            moves.push(command);
        }
        prop_assume!(seen.stage() != Stage::Over);

        // The same turns on a box whose face-down part is in another order: the tiles not
        // yet drawn turned by `turn_by`, the tokens not yet shown likewise.
        let drawn = deck.len() - seen.remaining();
        let mut other_deck = deck.clone();
        other_deck[drawn..].rotate_left(turn_by % seen.remaining().max(1));
        let shown = seen.map.circus().map_or(0, |circus| circus.revealed().len());
        let mut other_tokens = tokens.clone();
        let hidden = other_tokens.len() - shown;
        other_tokens[shown..].rotate_left(turn_by % hidden.max(1));
        let (mut other, _) = Match::with_big_top(2, other_deck.clone(), other_tokens);
        for command in &moves {
            carry_out(&mut other, command);
        }
        prop_assert_eq!(other.map.scores(), seen.map.scores());
        prop_assert_eq!(other.stage(), seen.stage());
        // What the seat sees of both is one and the same: the computer decides from it alone.
        prop_assert_eq!(format!("{:?}", other.as_seen()), format!("{:?}", seen.as_seen()));

        let seat = seen.seat();
        for level in [Level::Easy, Level::Normal, HARD] {
            let decided =
                carcassonne::decide(&seen, seat, level.clone(), &mut ChaCha8Rng::seed_from_u64(7));
            let decided_other =
                carcassonne::decide(&other, seat, level.clone(), &mut ChaCha8Rng::seed_from_u64(7));
            prop_assert!(decided.is_some());
            prop_assert_eq!(decided, decided_other, "{:?} after {:?}", level, moves);
        }
    }

    #[test]
    fn short_circuit_decides_alike_whatever_the_solver_sealed(
        seed in 0u64..1_000,
        turns in 0usize..16,
    ) {
        let setup = short_circuit_setup(&Options::new()).unwrap_or_else(|refusal| panic!("{refusal:?}"));
        let players: Vec<Player> = (0..2)
            .map(|seat| Player::person(seat, format!("p{seat}")))
            .collect();
        let now = Utc::now();
        let mut game = ShortCircuitGame::new(setup, &players, (seed % 2) as usize, now)
            .unwrap_or_else(|refusal| panic!("{refusal:?}"));
        let mut dice = Dice::new(Seed([seed as u8; 32]));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..turns {
            let mut ctx = Ctx { now, dice: &mut dice, revision: Ctx::NEWEST };
            if let Some(search) = game.pending_search() {
                let verdict = (search.work)(1_000_000);
                let _ = game.verdict(&search.key, &verdict, &mut ctx);
                continue;
            }
            let seat = game.to_move;
            let Some(action) = short_circuit::random_action(&game, seat, &mut rng) else {
                break;
            };
            if action.starts_with("place") {
                let (word, args) = action.split_once(' ').unwrap_or((&action, ""));
                let _ = game.act(seat, word, args, &mut ctx);
            }
        }
        prop_assume!(game.outcome.is_none() && game.call.is_none());

        // The player to move answers an impossible call whose sealed verdict says one thing,
        // or the opposite.
        let seat = game.to_move;
        let sealed = |truth: &str| {
            let mut called = game.clone();
            called.challenge = Some(Challenge {
                caller: 1 - seat,
                started: now,
                truth: truth.to_string(),
            });
            called
        };
        let impossible = sealed("impossible\n");
        let completable = sealed("completable\nsize 6x6\n");
        for level in [Level::Easy, Level::Normal, HARD] {
            let one = short_circuit::decide(&impossible, seat, level.clone(), &mut ChaCha8Rng::seed_from_u64(3));
            let two = short_circuit::decide(&completable, seat, level, &mut ChaCha8Rng::seed_from_u64(3));
            prop_assert!(one.is_some());
            prop_assert_eq!(one, two);
        }
        let open = game.computer(seat, Level::Normal, &mut ChaCha8Rng::seed_from_u64(3));
        prop_assert!(open.is_some(), "the player to move always has an answer");
    }

    #[test]
    fn parcheesis_dice_roll_alike_whatever_the_computers_draw(
        seed in 0u64..1_000,
        streams in (0u64..1_000, 0u64..1_000),
    ) {
        // The same game, its seats played by the computer drawing from two different streams:
        // the moves differ, the rolls the game's dice give do not.
        let rolls = |stream: u64| {
            let seated: Vec<Seated> = [Colour::Green, Colour::Blue]
                .into_iter()
                .enumerate()
                .map(|(seat, colour)| Seated { seat, name: format!("p{seat}"), colour, gone: false })
                .collect();
            let mut dice = Dice::new(Seed([seed as u8; 32]));
            let (mut game, _) = Parcheesi::new(Settings::default(), seated, &mut dice);
            let mut rng = ChaCha8Rng::seed_from_u64(stream);
            let mut moves = Vec::new();
            for _ in 0..300 {
                if matches!(game.stage, ParcheesiStage::Over(_)) {
                    break;
                }
                let Some(seat) = game.mover().map(|mover| mover.seat) else { break };
                let Some(command) = parcheesi::decide(&game, seat, Level::Normal, &mut rng) else {
                    break;
                };
                let (word, args) = command.split_once(' ').unwrap_or((&command, ""));
                game.act(seat, word, args, &mut dice)
                    .unwrap_or_else(|refusal| panic!("{command}: {refusal:?}"));
                moves.push(command);
            }
            let drawn: Vec<(String, u32)> = dice
                .take_draws()
                .into_iter()
                .map(|draw| (draw.purpose.into_owned(), draw.result))
                .collect();
            (drawn, moves)
        };
        let (one, moves_one) = rolls(streams.0);
        let (two, moves_two) = rolls(streams.1);
        let common = one.len().min(two.len());
        prop_assert!(common > 10 && !moves_one.is_empty() && !moves_two.is_empty());
        prop_assert_eq!(&one[..common], &two[..common]);
    }
}
