//! Carcassonne's computer player (with or without Under the Big Top): the whole turn of the
//! seat to play in one command (`place 1 0 90 meeple a`), decided on the match as a player
//! sees it ([`Match::as_seen`]: no deck order, no face-down token); randomness of its own
//! breaks ties.
//!
//! `Easy` puts the tile where it scores most at once (the timeout's careful placement) and a
//! meeple on the first city, road or monastery it may take there. `Normal` tries every legal
//! placement with every choice after it (pass, a meeple or the ringmaster on each free
//! feature, an acrobat, a pyramid scored) on a copy of the match, and keeps the one whose
//! outlook is best: every seat's score if the game ended now (unfinished features, fields,
//! circus and acrobats scored as at the end) plus what its figures still at home are worth
//! for the turns left, its own against the best of the others'. `Hard` takes `normal`'s
//! best few turns and plays each on in rollouts ([`crate::games::search`]): the face-down
//! tiles shuffled anew each time, the match played two turns on by `normal` players (the
//! reply, and its own next); it sends the turn whose outlook then was best on average.

use super::act::{Choice, Match, Stage};
use super::map::Map;
use super::parse::letter;
use super::tiles::Kind;
use crate::games::search::{self, Budget};
use crate::games::{Level, Seat};
use rand_core::RngCore;

/// What a figure at home is worth for each of its owner's turns left, up to
/// [`HOME_MOST`]: a meeple spent early on a small feature costs the chances it would have had.
const HOME_PER_TURN: f64 = 0.12;

/// The most a figure at home is worth.
const HOME_MOST: f64 = 2.5;

/// The command `seat` types now (without prefix), or `None` when it is not its turn or the
/// game is over.
pub fn decide(game: &Match, seat: Seat, level: Level, rng: &mut dyn RngCore) -> Option<String> {
    if game.seat() != seat {
        return None;
    }
    let seen = game.as_seen();
    match (seen.stage(), level) {
        (Stage::Over, _) => None,
        (Stage::Place(_), Level::Easy) => easy(&seen),
        (Stage::Follower(_), Level::Easy) => Some(after(easy_choice(&seen))),
        (_, Level::Normal) => best(&seen, seat, rng).map(Turn::command),
        (_, Level::Hard(budget)) => hard(&seen, seat, budget, rng).map(Turn::command),
    }
}

/// A legal command picked at random (what a computer player is measured against): the tile
/// at a random legal placement, then a random choice among passing and every figure or
/// scoring it may take there.
pub fn random_command(game: &Match, seat: Seat, rng: &mut dyn RngCore) -> Option<String> {
    if game.seat() != seat {
        return None;
    }
    let mut pick = |n: usize| usize::try_from(rng.next_u32()).unwrap_or_default() % n.max(1);
    match game.stage() {
        Stage::Over => None,
        Stage::Follower(_) => {
            let choices = game.choices().all();
            Some(after(choices[pick(choices.len())]))
        }
        Stage::Place(kind) => {
            let legal = game.map.legal(kind);
            let &(x, y, rot) = legal.get(pick(legal.len()))?;
            let mut placed = game.clone();
            placed.place(x, y, rot).ok()?;
            let choices = placed.choices().all();
            Some(whole_turn(x, y, rot, choices[pick(choices.len())]))
        }
    }
}

/// The command for a whole turn: the placement and the choice after it.
fn whole_turn(x: i32, y: i32, rot: u8, choice: Choice) -> String {
    format!("place {x} {y} {} {}", u16::from(rot) * 90, after(choice))
}

/// The words of a choice after placing, as a command of its own or the tail of `place`.
fn after(choice: Choice) -> String {
    match choice {
        Choice::Pass => "pass".to_string(),
        Choice::Meeple(part) => format!("meeple {}", letter(usize::from(part))),
        Choice::Ringmaster(part) => format!("ringmaster {}", letter(usize::from(part))),
        Choice::Acrobat(x, y) => format!("acrobat {x} {y}"),
        Choice::Pyramid(x, y) => format!("pyramid {x} {y}"),
    }
}

/// `Easy`'s turn: the careful placement, then [`easy_choice`].
fn easy(seen: &Match) -> Option<String> {
    let (x, y, rot) = seen.careful_placement()?;
    let mut placed = seen.clone();
    placed.place(x, y, rot).ok()?;
    Some(whole_turn(x, y, rot, easy_choice(&placed)))
}

/// A meeple on the first city, road or monastery of the tile just placed, or a pass.
fn easy_choice(placed: &Match) -> Choice {
    let Stage::Follower(tile) = placed.stage() else {
        return Choice::Pass;
    };
    placed
        .choices()
        .meeple
        .into_iter()
        .find(|&part| {
            placed
                .map
                .can_follow(placed.seat(), tile, part)
                .is_ok_and(|kind| kind != Kind::Field)
        })
        .map_or(Choice::Pass, Choice::Meeple)
}

/// A whole turn: where the tile goes (nothing once it is placed) and the choice after it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Turn {
    placement: Option<(i32, i32, u8)>,
    choice: Choice,
}

impl Turn {
    /// The turn as typed.
    fn command(self) -> String {
        match self.placement {
            Some((x, y, rot)) => whole_turn(x, y, rot, self.choice),
            None => after(self.choice),
        }
    }

    /// Plays the turn on `m`; `false` if the match refused any of it.
    fn play(self, m: &mut Match) -> bool {
        if let Some((x, y, rot)) = self.placement {
            if m.place(x, y, rot).is_err() {
                return false;
            }
            if !matches!(m.stage(), Stage::Follower(_)) {
                return true;
            }
        }
        m.choose(self.choice).is_ok()
    }
}

/// Every turn `seat` may take on `seen` (every legal placement with every choice after it;
/// with the tile placed, every choice), each with its [`outlook`].
fn rated(seen: &Match, seat: Seat) -> Vec<(f64, Turn)> {
    let mut turns = Vec::new();
    match seen.stage() {
        Stage::Over => {}
        Stage::Follower(_) => {
            for choice in seen.choices().all() {
                let mut tried = seen.clone();
                if tried.choose(choice).is_ok() {
                    let turn = Turn {
                        placement: None,
                        choice,
                    };
                    turns.push((outlook(&tried, seat), turn));
                }
            }
        }
        Stage::Place(kind) => {
            for (x, y, rot) in seen.map.legal(kind) {
                let mut placed = seen.clone();
                if placed.place(x, y, rot).is_err() {
                    continue;
                }
                let placement = Some((x, y, rot));
                if !matches!(placed.stage(), Stage::Follower(_)) {
                    let turn = Turn {
                        placement,
                        choice: Choice::Pass,
                    };
                    turns.push((outlook(&placed, seat), turn));
                    continue;
                }
                for choice in placed.choices().all() {
                    let mut tried = placed.clone();
                    if tried.choose(choice).is_ok() {
                        turns.push((outlook(&tried, seat), Turn { placement, choice }));
                    }
                }
            }
        }
    }
    turns
}

/// `Normal`'s turn: the one with the best outlook, ties broken at random.
fn best(seen: &Match, seat: Seat, rng: &mut dyn RngCore) -> Option<Turn> {
    let mut kept: Option<(f64, u32, Turn)> = None;
    for (outlook, turn) in rated(seen, seat) {
        let tie = rng.next_u32();
        let better = kept.as_ref().is_none_or(|(value, drawn, _)| {
            outlook > *value || (outlook == *value && tie > *drawn)
        });
        if better {
            kept = Some((outlook, tie, turn));
        }
    }
    kept.map(|(_, _, turn)| turn)
}

/// The turns `Hard` weighs: those of best outlook.
const HARD_CANDIDATES: usize = 10;

/// How many points of outlook make a rollout's score go from even (one half) to about three
/// quarters.
const OUTLOOK_SCALE: f64 = 10.0;

/// `Hard`'s turn: among the [`HARD_CANDIDATES`] turns of best outlook, the one whose rollouts
/// won most within `budget`.
fn hard(seen: &Match, seat: Seat, budget: Budget, rng: &mut dyn RngCore) -> Option<Turn> {
    let mut rated = rated(seen, seat);
    rated.sort_by(|a, b| b.0.total_cmp(&a.0));
    let turns: Vec<Turn> = rated
        .into_iter()
        .take(HARD_CANDIDATES)
        .map(|(_, turn)| turn)
        .collect();
    search::best_of(&turns, budget, rng, |turn, rng| {
        rollout(seen, seat, *turn, rng)
    })
}

/// `turn` played for `seat` on the match as it may imagine it (the face-down tiles shuffled
/// anew), then the match on by `normal` players for a round of turns (or to its end): at the
/// end, `seat`'s share of the others it ends ahead of; before, its [`outlook`] then, from 0
/// (far behind) through one half (even) to 1 (far ahead).
fn rollout(seen: &Match, seat: Seat, turn: Turn, rng: &mut dyn RngCore) -> f64 {
    let mut m = seen.imagined(rng);
    if !turn.play(&mut m) {
        return 0.0;
    }
    // A round of turns (as many as there are seats): the others' replies (a city joined to
    // take it over, a field crowded) and the seat's own next. A `normal` turn takes about a
    // millisecond, and more rollouts of one round weigh the candidates better than fewer of
    // several (measured with two seats at 100 ms a decision: 67% against `normal` at two
    // turns, 56-59% at six; with ten candidates 75%).
    for _ in 0..m.map.scores().len().max(2) {
        if m.stage() == Stage::Over {
            break;
        }
        m.map.hide_tokens();
        let mover = m.seat();
        let Some(next) = best(&m, mover, rng) else {
            break;
        };
        if !next.play(&mut m) {
            break;
        }
    }
    if m.stage() != Stage::Over {
        return search::ahead(outlook(&m, seat), OUTLOOK_SCALE);
    }
    let standing: Vec<Option<f64>> = standings(&m)
        .into_iter()
        .enumerate()
        .map(|(at, value)| (!m.is_gone(at)).then_some(value))
        .collect();
    search::standing_share(&standing, seat)
}

/// How `seat` stands after a turn: its score if the game ended now plus its figures at home,
/// against the best of the others'.
fn outlook(after: &Match, seat: Seat) -> f64 {
    let standing = standings(after);
    let mine = standing.get(seat).copied().unwrap_or_default();
    let best_other = standing
        .iter()
        .enumerate()
        .filter(|(other, _)| *other != seat && !after.is_gone(*other))
        .map(|(_, value)| *value)
        .fold(f64::MIN, f64::max);
    if best_other == f64::MIN {
        mine
    } else {
        mine - best_other
    }
}

/// Every seat's score if the game ended now, plus its figures at home at what they are worth
/// for its turns left.
fn standings(m: &Match) -> Vec<f64> {
    let mut end: Map = m.map.clone();
    // A turn that ended the game has had the end's scorings already.
    if m.stage() != Stage::Over {
        end.final_circus();
        end.final_scoring();
        end.final_acrobats();
    }
    let seats = end.scores().len().max(1);
    let turns_left = m.remaining() as f64 / seats as f64;
    let home = (turns_left * HOME_PER_TURN).min(HOME_MOST);
    end.scores()
        .iter()
        .enumerate()
        .map(|(seat, &score)| {
            let meeples = m.map.supply().get(seat).copied().unwrap_or_default();
            let ringmaster = m
                .map
                .circus()
                .is_some_and(|circus| circus.ringmaster_home(seat));
            f64::from(score) + home * (f64::from(meeples) + f64::from(u8::from(ringmaster)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Seed};
    use crate::games::carcassonne::tiles::to_deal;
    use crate::games::carcassonne::{Carcassonne, CarcassonneGame};
    use crate::games::{Ctx, Game};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    /// A two-seat game as `!new carcassonne` deals it (the Big Top's tiles and tokens with
    /// `bigtop`), with its dice.
    fn new_game(seed: u64, bigtop: bool) -> (CarcassonneGame, Dice) {
        let mut dice = Dice::new(Seed([seed as u8; 32]));
        let mut deck = to_deal(bigtop);
        dice.shuffle("tile order", &mut deck);
        let names = vec!["p0".to_string(), "p1".to_string()];
        let colours = vec!["red".to_string(), "blue".to_string()];
        let (game, _) = Carcassonne::start_with(names, colours, deck, bigtop.then(Vec::new));
        (game, dice)
    }

    /// A two-seat game played to its end through the game's own commands, each seat choosing
    /// with `choose`; returns the final scores.
    fn play(
        seed: u64,
        bigtop: bool,
        choose: &mut dyn FnMut(&Match, Seat, &mut ChaCha8Rng) -> Option<String>,
    ) -> Vec<u32> {
        let (mut game, mut dice) = new_game(seed, bigtop);
        let mut ctx = Ctx {
            now: chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default(),
            dice: &mut dice,
            revision: Ctx::NEWEST,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..400 {
            let seat = game.play().seat();
            let Some(command) = choose(game.play(), seat, &mut rng) else {
                break;
            };
            let (word, args) = command.split_once(' ').unwrap_or((&command, ""));
            if let Err(refusal) = game.act(seat, word, args, &mut ctx) {
                panic!("seat {seat} sent `{command}`, refused: {refusal:?}");
            }
        }
        assert_eq!(game.play().stage(), Stage::Over, "the game ended");
        game.play().map.scores().to_vec()
    }

    #[test]
    fn every_command_of_either_level_is_legal_and_normal_outscores_random() {
        for (seed, bigtop) in [(1, false), (2, true)] {
            let scores = play(seed, bigtop, &mut |game, seat, rng| {
                if seat == 0 {
                    decide(game, seat, Level::Normal, rng)
                } else {
                    random_command(game, seat, rng)
                }
            });
            assert!(scores[0] > scores[1], "normal against random: {scores:?}");
            play(seed, bigtop, &mut |game, seat, rng| {
                decide(game, seat, Level::Easy, rng)
            });
        }
    }

    #[test]
    fn a_seat_with_its_tile_placed_is_answered_with_its_choice_alone() {
        let (mut game, mut dice) = new_game(3, false);
        let mut ctx = Ctx {
            now: chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default(),
            dice: &mut dice,
            revision: Ctx::NEWEST,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (x, y, rot) = game.play().careful_placement().unwrap_or_default();
        let args = format!("{x} {y} {}", u16::from(rot) * 90);
        let told = game.act(0, "place", &args, &mut ctx).unwrap_or_default();
        assert!(!told.is_empty());
        if let Stage::Follower(_) = game.play().stage() {
            for level in [Level::Easy, Level::Normal] {
                let command = decide(game.play(), 0, level, &mut rng).unwrap_or_default();
                let word = command.split(' ').next().unwrap_or_default();
                assert!(
                    ["pass", "meeple", "ringmaster", "acrobat", "pyramid"].contains(&word),
                    "{command}"
                );
            }
        }
        assert_eq!(
            decide(game.play(), 1, Level::Normal, &mut rng),
            None,
            "not its turn"
        );
    }
}
