//! Parcheesi's computer player: the next command of the seat to move (`move 2 5`,
//! `enter 1`, `reward 3 20`), chosen from what every player sees (the pawns, the dice left,
//! the rewards waiting); randomness of its own, for the rolls it imagines.
//!
//! `Easy` plays the dice as the game's automatic turn does, moves a reward with the first
//! pawn that can without going round, and declines one only going round could use. `Normal`
//! plays each legal command on a copy of the game and keeps the one whose position is best:
//! its pawns' progress against the others', captures, pawns on safe squares, in the home row
//! or in a blockade, and the pawns the others could capture next; where the command ends the
//! turn and the next roll follows, over a few rolls imagined with dice of its own.
//! `Hard` tries every legal command in rollouts ([`crate::games::search`]): the command, then
//! the game played to the end of the next turn by `normal` players with dice of its own, many
//! times over; it sends the command that left it furthest ahead on average (`normal`'s among
//! equals).

use super::act::{Match, Stage};
use super::board::{is_safe, Colour, Position, Spot, FULL_TRIP, PAWNS, RING};
use super::engine::{auto_play, Step};
use super::roller::Roller;
use super::REWARD;
use crate::games::search::{self, Budget};
use crate::games::{Level, Seat};
use rand_core::RngCore;

/// The rolls each candidate command is tried with at `Normal`.
const SAMPLES: usize = 6;

/// The command `seat` types now, or `None` when it is not its turn (or the game is over).
pub fn decide(game: &Match, seat: Seat, level: Level, rng: &mut dyn RngCore) -> Option<String> {
    let options = commands(game, seat);
    if options.is_empty() {
        return None;
    }
    match level {
        Level::Easy => easy(game, &options),
        Level::Normal => best(game, seat, &options, rng),
        Level::Hard(budget) => hard(game, seat, &options, budget, rng),
    }
}

/// The turns a rollout plays on (this one's end, and the other's) before it judges the game
/// as it stands: a whole game is mostly the dice's, and the reply shows what a command did.
/// Shorter rollouts are more of them in the budget (measured at 100 ms a decision, 150 games
/// against `normal`: 70.0% at two turns, 60.7-62.7% at three).
const ROLLOUT_TURNS: u64 = 2;

/// The most commands a rollout plays (a turn of doubles and rewards takes a dozen).
const ROLLOUT_COMMANDS: usize = 200;

/// How much [`value`] ahead of the best other makes a rollout's score go from even (one half)
/// to about three quarters.
const VALUE_SCALE: f64 = 15.0;

/// `Hard`'s command: the one among `options` whose rollouts scored best within `budget`.
fn hard(
    game: &Match,
    seat: Seat,
    options: &[String],
    budget: Budget,
    rng: &mut dyn RngCore,
) -> Option<String> {
    // `normal`'s command first: the search keeps it unless another does better.
    let mut options = options.to_vec();
    if let Some(normal) = best(game, seat, &options, rng) {
        options.retain(|option| *option != normal);
        options.insert(0, normal);
    }
    search::best_of(&options, budget, rng, |command, rng| {
        rollout(game, seat, command, rng)
    })
}

/// `command` played for `seat`, then the game on by `normal` players with imagined dice for
/// [`ROLLOUT_TURNS`] turns: `seat`'s share of the win if the game ended, else its [`value`]
/// against the best of the others', from 0 (far behind) through one half (even) to 1 (far
/// ahead).
fn rollout(game: &Match, seat: Seat, command: &str, rng: &mut dyn RngCore) -> f64 {
    let turns = game.turns + ROLLOUT_TURNS;
    let mut game = game.clone();
    let mut next = Some((seat, command.to_string()));
    for _ in 0..ROLLOUT_COMMANDS {
        if game.turns >= turns {
            break;
        }
        if let Stage::Over(ranking) = &game.stage {
            return search::win_share(ranking, seat);
        }
        let Some(mover) = game.mover().map(|mover| mover.seat) else {
            break;
        };
        let Some((who, command)) = next
            .take()
            .or_else(|| decide(&game, mover, Level::Normal, rng).map(|command| (mover, command)))
        else {
            break;
        };
        let (word, args) = command.split_once(' ').unwrap_or((&command, ""));
        if game.act(who, word, args, &mut Imagined(&mut *rng)).is_err() {
            break;
        }
    }
    if let Stage::Over(ranking) = &game.stage {
        return search::win_share(ranking, seat);
    }
    let mine = game
        .seated
        .iter()
        .find(|s| s.seat == seat)
        .map(|s| s.colour);
    let Some(mine) = mine else {
        return 0.0;
    };
    let best_other = game
        .seated
        .iter()
        .filter(|s| s.seat != seat && !s.gone)
        .map(|s| value(&game, s.colour))
        .fold(f64::MIN, f64::max);
    let ahead = match best_other == f64::MIN {
        true => 0.0,
        false => value(&game, mine) - best_other,
    };
    search::ahead(ahead, VALUE_SCALE)
}

/// A legal command picked at random (what a computer player is measured against).
pub fn random_command(game: &Match, seat: Seat, rng: &mut dyn RngCore) -> Option<String> {
    let options = commands(game, seat);
    let pick = usize::try_from(rng.next_u32()).unwrap_or_default() % options.len().max(1);
    options.get(pick).cloned()
}

/// Every command `seat` may type now: the legal steps of the dice, or the ways to move a
/// reward (declining one only going round could use).
fn commands(game: &Match, seat: Seat) -> Vec<String> {
    if game.mover().is_none_or(|mover| mover.seat != seat) {
        return Vec::new();
    }
    let mut commands: Vec<String> = Vec::new();
    match game.stage {
        Stage::Dice => {
            for step in game.legal().as_slice() {
                commands.push(step.to_string());
            }
        }
        Stage::Rewards => {
            for (amount, steps) in game.reward_options() {
                let mut only_around = true;
                for step in steps.as_slice() {
                    let around = matches!(step, Step::Move { around: true, .. });
                    only_around &= around;
                    let tail = if around { " around" } else { "" };
                    commands.push(format!(
                        "{} {} {amount}{tail}",
                        REWARD.name,
                        step.pawn() + 1
                    ));
                }
                if only_around && !steps.is_empty() {
                    commands.push(format!("{} skip {amount}", REWARD.name));
                }
            }
        }
        Stage::Over(_) => {}
    }
    commands.dedup();
    commands
}

/// The automatic turn's first step for the dice; for a reward, the first way to move it
/// without going round, or else declining it.
fn easy(game: &Match, options: &[String]) -> Option<String> {
    match game.stage {
        Stage::Dice => auto_play(&game.pos, &game.roll, game.colour(), &game.limits)
            .first()
            .map(Step::to_string),
        Stage::Rewards => options
            .iter()
            .find(|command| !command.ends_with("around") && !command.contains("skip"))
            .or_else(|| options.iter().find(|command| command.contains("skip")))
            .cloned(),
        Stage::Over(_) => None,
    }
}

/// Dice of the computer's own, for the rolls it imagines.
struct Imagined<'a>(&'a mut dyn RngCore);

impl Roller for Imagined<'_> {
    fn die(&mut self, _purpose: String) -> u8 {
        (self.0.next_u32() % 6) as u8 + 1
    }
}

/// The command whose position is best for `seat`: on average over [`SAMPLES`] imagined rolls
/// where the command ends the turn, else the one position it leads to.
fn best(game: &Match, seat: Seat, options: &[String], rng: &mut dyn RngCore) -> Option<String> {
    let colour = game.mover()?.colour;
    let mut best: Option<(f64, &String)> = None;
    for command in options {
        let (word, args) = command.split_once(' ').unwrap_or((command, ""));
        let mut total = 0.0;
        for _ in 0..SAMPLES {
            let mut after = game.clone();
            if after
                .act(seat, word, args, &mut Imagined(&mut *rng))
                .is_err()
            {
                total = f64::MIN;
                break;
            }
            let value = value(&after, colour);
            if after.turns == game.turns {
                // The turn goes on: nothing was rolled, every copy would be this one.
                total = value * SAMPLES as f64;
                break;
            }
            total += value;
        }
        if best.is_none_or(|(score, _)| total > score) {
            best = Some((total, command));
        }
    }
    best.map(|(_, command)| command.clone())
}

/// How far a pawn has come (0 in the nest, [`FULL_TRIP`] at HOME).
fn progress(pos: &Position, colour: Colour, pawn: usize) -> f64 {
    f64::from(FULL_TRIP) - f64::from(pos.spot(colour, pawn).distance_left(colour))
}

/// How good the game is for `colour`: the position, the rewards it still has to move, and
/// the end.
fn value(game: &Match, colour: Colour) -> f64 {
    if let Stage::Over(ranking) = &game.stage {
        let won = ranking.first().is_some_and(|first| {
            first.iter().any(|seat| {
                game.seated
                    .iter()
                    .any(|s| s.seat == *seat && s.colour == colour)
            })
        });
        return if won { 10_000.0 } else { -10_000.0 };
    }
    let playing: Vec<Colour> = game
        .seated
        .iter()
        .filter(|seated| !seated.gone)
        .map(|seated| seated.colour)
        .collect();
    let mut value = position_value(&game.pos, colour, &playing);
    if game.colour() == colour {
        value += 0.8 * game.rewards.iter().map(|r| f64::from(*r)).sum::<f64>();
    }
    value
}

/// The position for `colour` against the other colours in play.
fn position_value(pos: &Position, colour: Colour, playing: &[Colour]) -> f64 {
    let mut value = 0.0;
    for pawn in 0..PAWNS {
        value += progress(pos, colour, pawn);
        value += match pos.spot(colour, pawn) {
            Spot::Nest => -10.0,
            Spot::Ring(square) if is_safe(square) => 4.0,
            Spot::Ring(square) => -6.0 * threats(pos, colour, square, playing),
            Spot::Row(_) | Spot::Home => 8.0,
        };
    }
    value += 3.0 * pos.blockades(colour).iter().count() as f64;
    let others: Vec<Colour> = playing.iter().copied().filter(|c| *c != colour).collect();
    if !others.is_empty() {
        let theirs: f64 = others
            .iter()
            .map(|&other| {
                (0..PAWNS)
                    .map(|pawn| progress(pos, other, pawn))
                    .sum::<f64>()
            })
            .sum();
        value -= theirs / others.len() as f64;
    }
    value
}

/// How many of the others' pawns stand 1 to 12 squares behind `square` on the ring (a roll
/// could bring them onto it).
fn threats(pos: &Position, colour: Colour, square: u8, playing: &[Colour]) -> f64 {
    let mut count = 0.0;
    for &other in playing.iter().filter(|c| **c != colour) {
        for pawn in 0..PAWNS {
            if let Spot::Ring(theirs) = pos.spot(other, pawn) {
                let behind =
                    (u16::from(square) + u16::from(RING) - u16::from(theirs)) % u16::from(RING);
                if (1..=12).contains(&behind) {
                    count += 1.0;
                }
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::parcheesi::{FixedRolls, Seated, Settings};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    fn two() -> Vec<Seated> {
        [(0, Colour::Green), (1, Colour::Blue)]
            .into_iter()
            .map(|(seat, colour)| Seated {
                seat,
                name: format!("p{seat}"),
                colour,
                gone: false,
            })
            .collect()
    }

    #[test]
    fn every_command_it_types_is_one_the_game_takes_until_the_end() {
        let mut dice = FixedRolls::new(&[5, 5, 3, 4, 6, 1]);
        let (mut game, _) = Match::new(Settings::default(), two(), &mut dice);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut roller = crate::dice::Dice::new(crate::dice::Seed([7; 32]));
        for _ in 0..5_000 {
            if matches!(game.stage, Stage::Over(_)) {
                break;
            }
            let Some(seat) = game.mover().map(|mover| mover.seat) else {
                break;
            };
            let level = if seat == 0 {
                Level::Normal
            } else {
                Level::Easy
            };
            let command = decide(&game, seat, level, &mut rng).unwrap_or_default();
            let (word, args) = command.split_once(' ').unwrap_or((&command, ""));
            let played = game.act(seat, word, args, &mut roller);
            assert!(played.is_ok(), "{command}: {played:?}");
        }
        assert!(matches!(game.stage, Stage::Over(_)), "the game ends");
        for level in [Level::Easy, Level::Normal] {
            assert_eq!(decide(&game, 0, level, &mut rng), None);
        }
    }
}
