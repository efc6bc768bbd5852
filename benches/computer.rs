//! Computer players, strength and speed: for each game that has one, `easy` and `normal`
//! against seats playing uniformly at random (what each random seat does is printed first),
//! and `normal` against `easy`; each line gives the win rate of the measured seat over the
//! games that ended, with its 95% interval (Wilson), beside what a seat wins by chance, and
//! the measured seat's decision times (median, p99). Every order or action any seat sends
//! goes through the game's own check: a refused one is counted and the first is printed
//! (there should be none). The measured seat moves round the table from game to game, so no
//! seat's place in the order favours it, and each seat draws from a random stream of its own.
//!
//! `hard` is measured against `normal` over fewer games (`HARD_GAMES`, 100 by default), each
//! of its decisions within `HARD_MS` milliseconds (100 by default: the table gives it 2 s, and
//! more time only finds it more; a row says its budget).
//!
//! Run: `cargo bench --bench computer` (`GAMES=200` for a shorter run, 1,000 by default;
//! `ONLY=carcassonne` for that game alone; `HARD_ONLY=1` for the `hard`
//! rows alone; `FIRST_GAME=10000` to play games from that number on, a fresh sample to check
//! a figure on games it was not tuned on).
//! Every game is seeded by its number, so a run gives the same games every time.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use referee::dice::{Dice, Seed};
use referee::games::carcassonne::act::Stage as CarcassonneStage;
use referee::games::carcassonne::computer as carcassonne_computer;
use referee::games::carcassonne::tiles::to_deal;
use referee::games::carcassonne::Carcassonne;
use referee::games::circuit::colour::Colour as CircuitColour;
use referee::games::circuit::computer as circuit_computer;
use referee::games::circuit::parse::{parse_order as parse_circuit, Order as CircuitOrder};
use referee::games::circuit::state::{Runner, Stage as CircuitStage, State as CircuitState};
use referee::games::circuit::CircuitGame;
use referee::games::parcheesi::computer as parcheesi_computer;
use referee::games::parcheesi::{Colour, Match, Seated, Settings, Stage as ParcheesiStage};
use referee::games::search::{Budget, TimeUp};
use referee::games::short_circuit::computer as short_circuit_computer;
use referee::games::short_circuit::setup::parse as short_circuit_setup;
use referee::games::short_circuit::ShortCircuitGame;
use referee::games::tag::computer as tag_computer;
use referee::games::tag::parse::{parse_order as parse_tag, Order as TagOrder};
use referee::games::tag::state::{Stage as TagStage, TagState};
use referee::games::{Ctx, Game, Level, Options, Player};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Who sits at a seat.
#[derive(Clone, Copy)]
enum Seat {
    /// A computer player at this level.
    Computer(Strength),
    /// A random legal order every time.
    Random,
}

/// A computer player's level, as the bench seats it.
#[derive(Clone, Copy)]
enum Strength {
    Easy,
    Normal,
    /// `hard`, thinking this long a decision.
    Hard(Duration),
}

impl Strength {
    /// The games' level for one decision taken now (`hard`'s time counted from now).
    fn level(self) -> Level {
        match self {
            Strength::Easy => Level::Easy,
            Strength::Normal => Level::Normal,
            Strength::Hard(think) => {
                let began = Instant::now();
                Level::Hard(Budget {
                    rollouts: u32::MAX,
                    time_up: TimeUp::when(move || began.elapsed() >= think),
                })
            }
        }
    }

    /// The level as `!join bot <level>` names it.
    fn name(self) -> &'static str {
        match self {
            Strength::Easy => "easy",
            Strength::Normal => "normal",
            Strength::Hard(_) => "hard",
        }
    }
}

/// How one game ended.
enum Ended {
    /// This seat won.
    Won(usize),
    /// Not within the game's limit of rounds (or with nobody winning).
    Unfinished,
    /// Ended with two or more seats sharing the top score: nobody's win.
    Tied,
    /// The game refused an order or action a seat sent: which, and why.
    Refused(String),
}

/// A game played by `seats`, the seat given timed, under the number given.
type Play = fn(&[Seat], usize, u64, &mut Vec<Duration>) -> Ended;

/// The tally of one match-up.
#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    unfinished: u32,
    refused: Vec<String>,
    times: Vec<Duration>,
}

impl Tally {
    /// The win rate over the games that ended, and its 95% Wilson interval.
    fn rate(&self) -> (f64, f64, f64) {
        let ended = self.games - self.unfinished - self.refused.len() as u32;
        let n = f64::from(ended.max(1));
        let p = f64::from(self.wins) / n;
        let z = 1.96_f64;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (p, centre - half, centre + half)
    }

    fn print(&mut self, seat: &str, against: &str, chance: f64) {
        let (p, low, high) = self.rate();
        self.times.sort();
        let at = |q: f64| {
            self.times
                .get(((self.times.len() as f64 - 1.0) * q) as usize)
                .copied()
                .unwrap_or_default()
        };
        println!(
            "{seat} against {against}: won {}/{} = {:.1}% (95%: {:.1}-{:.1}%; by chance {:.1}%), unfinished {}, refused {}; decision median {:?}, p99 {:?} ({} decisions)",
            self.wins,
            self.games - self.unfinished - self.refused.len() as u32,
            100.0 * p,
            100.0 * low,
            100.0 * high,
            100.0 * chance,
            self.unfinished,
            self.refused.len(),
            at(0.5),
            at(0.99),
            self.times.len(),
        );
        if let Some(first) = self.refused.first() {
            println!("  first refused: {first}");
        }
    }
}

/// The game's seed for game number `game` (as `seed=<game>` gives it).
fn seed(game: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&game.to_le_bytes());
    Seed(bytes)
}

/// A random stream for each of `seats` seats in game `game`, none of them the game's dice.
fn streams(game: u64, seats: usize) -> Vec<ChaCha8Rng> {
    (0..seats as u64)
        .map(|seat| ChaCha8Rng::seed_from_u64(game * 64 + seat + 1))
        .collect()
}

/// What `seat` sends, from `choose`, timed into `times` when it is the measured seat.
fn timed<T>(times: &mut Vec<Duration>, measured: bool, choose: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let chosen = choose();
    if measured {
        times.push(start.elapsed());
    }
    chosen
}

/// One TAG game (each order checked as the game checks it); the winner.
fn tag_game(seats: &[Seat], measured: usize, game: u64, times: &mut Vec<Duration>) -> Ended {
    let names: Vec<(String, String)> = (0..seats.len())
        .map(|seat| (format!("p{seat}"), format!("s{seat}")))
        .collect();
    let mut dice = Dice::new(seed(game));
    let mut rngs = streams(game, seats.len());
    let mut state = TagState::new_game(&names, &mut dice);
    for _ in 0..300 {
        let bidding = state.stage == TagStage::Bids;
        if !bidding && !matches!(state.stage, TagStage::Moves { .. }) {
            break;
        }
        let (mut bids, mut moves) = (BTreeMap::new(), BTreeMap::new());
        for (seat, (who, rng)) in seats.iter().zip(rngs.iter_mut()).enumerate() {
            let text = timed(times, seat == measured, || match *who {
                Seat::Computer(strength) => {
                    tag_computer::decide(&state, seat, strength.level(), rng)
                }
                Seat::Random => tag_computer::random_order(&state, seat, rng),
            });
            let Some(text) = text else { continue };
            let checked = match parse_tag(&text) {
                Ok(TagOrder::Bid(bid)) => state.check_bid(seat, bid).map(|()| {
                    bids.insert(seat, bid);
                }),
                Ok(TagOrder::Moves(order)) => state.check_move_order(seat, &order).map(|()| {
                    moves.insert(seat, order);
                }),
                Err(why) => return Ended::Refused(format!("tag seat {seat}: {text}: {why}")),
            };
            if let Err(why) = checked {
                return Ended::Refused(format!("tag seat {seat}: {text}: {why}"));
            }
        }
        if bidding {
            state.resolve_bids(&bids, &mut dice);
        } else {
            state.resolve_moves(&moves, &mut dice);
        }
    }
    match &state.stage {
        TagStage::Over { ranking } => ranking
            .first()
            .map_or(Ended::Unfinished, |w| Ended::Won(*w)),
        _ => Ended::Unfinished,
    }
}

/// One two-player Parcheesi game (each command played as the game plays it); the winner.
fn parcheesi_game(seats: &[Seat], measured: usize, game: u64, times: &mut Vec<Duration>) -> Ended {
    let colours = [Colour::Green, Colour::Blue];
    let seated: Vec<Seated> = (0..seats.len())
        .map(|seat| Seated {
            seat,
            name: format!("p{seat}"),
            colour: colours[seat % 2],
            gone: false,
        })
        .collect();
    let mut dice = Dice::new(seed(game));
    let mut rngs = streams(game, seats.len());
    let (mut state, _) = Match::new(Settings::default(), seated, &mut dice);
    for _ in 0..20_000 {
        if let ParcheesiStage::Over(ranking) = &state.stage {
            let winner = ranking.first().and_then(|first| first.first());
            return winner.map_or(Ended::Unfinished, |w| Ended::Won(*w));
        }
        let Some(seat) = state.mover().map(|mover| mover.seat) else {
            return Ended::Unfinished;
        };
        let rng = &mut rngs[seat];
        let command = timed(times, seat == measured, || match seats[seat] {
            Seat::Computer(strength) => {
                parcheesi_computer::decide(&state, seat, strength.level(), rng)
            }
            Seat::Random => parcheesi_computer::random_command(&state, seat, rng),
        });
        let Some(command) = command else {
            return Ended::Refused(format!("parcheesi seat {seat}: nothing to play"));
        };
        let (word, args) = command.split_once(' ').unwrap_or((&command, ""));
        if let Err(why) = state.act(seat, word, args, &mut dice) {
            return Ended::Refused(format!("parcheesi seat {seat}: {command}: {why}"));
        }
    }
    Ended::Unfinished
}

/// One 50-Tile Circuit game (each order checked as the table checks it); the winner.
fn circuit_game(seats: &[Seat], measured: usize, game: u64, times: &mut Vec<Duration>) -> Ended {
    let runners = (0..seats.len())
        .zip(CircuitColour::palette())
        .map(|(seat, colour)| Runner::new(format!("p{seat}"), colour))
        .collect();
    let mut dice = Dice::new(seed(game));
    let mut rngs = streams(game, seats.len());
    let (mut state, _) = CircuitState::start(runners, &mut dice);
    for _ in 0..5_000 {
        let owed: Vec<usize> = match &state.stage {
            CircuitStage::Choosing => state.choosers(),
            CircuitStage::Claiming { claims } => claims.keys().copied().collect(),
            CircuitStage::Over { winner } => {
                return winner.map_or(Ended::Unfinished, Ended::Won);
            }
        };
        let table = CircuitGame {
            state: state.clone(),
        };
        let mut orders = BTreeMap::new();
        for seat in owed {
            let rng = &mut rngs[seat];
            let text = timed(times, seat == measured, || match seats[seat] {
                Seat::Computer(strength) => {
                    circuit_computer::decide(&state, seat, strength.level(), rng)
                }
                Seat::Random => circuit_computer::random_order(&state, seat, rng),
            });
            let Some(text) = text else {
                return Ended::Refused(format!("circuit seat {seat}: no order"));
            };
            if let Err(why) = table.check_order(seat, &text) {
                return Ended::Refused(format!("circuit seat {seat}: {text}: {why}"));
            }
            if let Ok(order) = parse_circuit(&text) {
                orders.insert(seat, order);
            }
        }
        let changes = orders
            .iter()
            .filter_map(|(seat, order)| match order {
                CircuitOrder::Turn {
                    change: Some(change),
                    ..
                } => Some((*seat, *change)),
                _ => None,
            })
            .collect();
        if let CircuitStage::Claiming { .. } = state.stage {
            let effects = orders
                .into_iter()
                .filter_map(|(seat, order)| match order {
                    CircuitOrder::Effect(effect) => Some((seat, effect)),
                    CircuitOrder::Turn { .. } => None,
                })
                .collect();
            state.resolve_claims(&effects, &mut dice);
        } else {
            let choices = orders
                .into_iter()
                .filter_map(|(seat, order)| match order {
                    CircuitOrder::Turn { choice, .. } => Some((seat, choice)),
                    CircuitOrder::Effect(_) => None,
                })
                .collect();
            state.resolve_choices(&choices, &changes, &mut dice);
        }
    }
    Ended::Unfinished
}

/// One two-player Carcassonne game, with Under the Big Top when `bigtop` (each command played
/// as the game plays it); the winner (a tie counts as nobody's win).
fn carcassonne_game(
    bigtop: bool,
    seats: &[Seat],
    measured: usize,
    game: u64,
    times: &mut Vec<Duration>,
) -> Ended {
    let mut dice = Dice::new(seed(game));
    let mut deck = to_deal(bigtop);
    dice.shuffle("tile order", &mut deck);
    let names: Vec<String> = (0..seats.len()).map(|seat| format!("p{seat}")).collect();
    let colours: Vec<String> = ["red", "blue", "green", "yellow", "black", "grey"]
        .iter()
        .take(seats.len())
        .map(|colour| colour.to_string())
        .collect();
    let (mut state, _) = Carcassonne::start_with(names, colours, deck, bigtop.then(Vec::new));
    let mut rngs = streams(game, seats.len());
    let mut ctx = Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    for _ in 0..1_000 {
        if state.play().stage() == CarcassonneStage::Over {
            let scores = state.play().map.scores();
            let top = scores.iter().copied().max().unwrap_or_default();
            let winners: Vec<usize> = (0..scores.len()).filter(|s| scores[*s] == top).collect();
            return match winners.as_slice() {
                [winner] => Ended::Won(*winner),
                _ => Ended::Tied,
            };
        }
        let seat = state.play().seat();
        let rng = &mut rngs[seat];
        let command = timed(times, seat == measured, || match seats[seat] {
            Seat::Computer(strength) => {
                carcassonne_computer::decide(state.play(), seat, strength.level(), rng)
            }
            Seat::Random => carcassonne_computer::random_command(state.play(), seat, rng),
        });
        let Some(command) = command else {
            return Ended::Refused(format!("carcassonne seat {seat}: nothing to play"));
        };
        let (word, args) = command.split_once(' ').unwrap_or((&command, ""));
        if let Err(why) = state.act(seat, word, args, &mut ctx) {
            return Ended::Refused(format!("carcassonne seat {seat}: {command}: {why:?}"));
        }
    }
    Ended::Unfinished
}

/// [`carcassonne_game`] without the expansion.
fn carcassonne_base(
    seats: &[Seat],
    measured: usize,
    game: u64,
    times: &mut Vec<Duration>,
) -> Ended {
    carcassonne_game(false, seats, measured, game, times)
}

/// [`carcassonne_game`] with Under the Big Top.
fn carcassonne_big_top(
    seats: &[Seat],
    measured: usize,
    game: u64,
    times: &mut Vec<Duration>,
) -> Ended {
    carcassonne_game(true, seats, measured, game, times)
}

/// One Short Circuit match on the default setup (the first player alternating from game to
/// game; impossible calls judged by the solver as in play); the winner.
fn short_circuit_game(
    seats: &[Seat],
    measured: usize,
    game: u64,
    times: &mut Vec<Duration>,
) -> Ended {
    let Ok(setup) = short_circuit_setup(&Options::new()) else {
        return Ended::Refused("the default setup is refused".to_string());
    };
    let players: Vec<Player> = (0..seats.len())
        .map(|seat| Player::person(seat, format!("p{seat}")))
        .collect();
    let now = chrono::Utc::now();
    let first = (game / 2 % 2) as usize;
    let Ok(mut state) = ShortCircuitGame::new(setup, &players, first, now) else {
        return Ended::Refused("the match could not start".to_string());
    };
    let mut dice = Dice::new(seed(game));
    let mut rngs = streams(game, seats.len());
    let mut ctx = Ctx {
        now,
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    for _ in 0..1_000 {
        if let Some(outcome) = &state.outcome {
            return Ended::Won(outcome.winner);
        }
        if let Some(search) = state.pending_search() {
            let verdict = (search.work)(1_000_000);
            if let Err(why) = state.verdict(&search.key, &verdict, &mut ctx) {
                return Ended::Refused(format!("short circuit verdict: {why:?}"));
            }
            continue;
        }
        let seat = state.to_move;
        let rng = &mut rngs[seat];
        let action = timed(times, seat == measured, || match seats[seat] {
            Seat::Computer(strength) => {
                short_circuit_computer::decide(&state, seat, strength.level(), rng)
            }
            Seat::Random => short_circuit_computer::random_action(&state, seat, rng),
        });
        let Some(action) = action else {
            return Ended::Refused(format!("short circuit seat {seat}: nothing to do"));
        };
        let (word, args) = action.split_once(' ').unwrap_or((&action, ""));
        if let Err(why) = state.act(seat, word, args, &mut ctx) {
            return Ended::Refused(format!("short circuit seat {seat}: {action}: {why:?}"));
        }
    }
    Ended::Unfinished
}

/// Plays `games` games of `seats` seats, `level` at one seat (a different one each game)
/// and `others` at the rest, and prints the tally.
fn measure(
    name: &str,
    seats: usize,
    play: Play,
    games: u32,
    level: Strength,
    (others, against): (Seat, &str),
) {
    let only = std::env::var("ONLY").unwrap_or_default();
    if !only.is_empty() && name != only {
        return;
    }
    let first: u32 = std::env::var("FIRST_GAME")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let mut tally = Tally::default();
    for game in first..first.saturating_add(games) {
        let measured = game as usize % seats;
        let mut table = vec![others; seats];
        table[measured] = Seat::Computer(level);
        tally.games += 1;
        match play(&table, measured, u64::from(game), &mut tally.times) {
            Ended::Won(seat) if seat == measured => tally.wins += 1,
            Ended::Won(_) | Ended::Tied => {}
            Ended::Unfinished => tally.unfinished += 1,
            Ended::Refused(why) => tally.refused.push(why),
        }
    }
    tally.print(
        &format!("{name}, {seats} seats: {}", level.name()),
        against,
        1.0 / seats as f64,
    );
}

/// What the random seat of each game does: uniform over what the game accepts at that moment.
const BASELINES: &str = "\
The random seat picks evenly among the orders or commands the game accepts at that moment:
  tag: a bid from the minimum up to its points; or for each move one of the eight directions,
    nothing or (when allowed) teleport, either mode, an upgrade or not;
  parcheesi: one of the legal steps, or of the ways to move a reward (or decline it), the
    engine lists;
  circuit: move or stay, alone or with a change of a tile it owns to any effect the rules allow
    there (or none); for a claimed tile, any effect the tile allows, or none;
  shortcircuit: any placement of 1 to 3 pieces in a line touching the track, each square any
    kind the supply holds in any rotation, or the impossible call (the concession when
    answering one), each one action;
  carcassonne: a legal placement of the tile, then one of the choices there (pass, or a
    figure or scoring it may take).";

fn main() {
    let number = |name: &str, default: u32| {
        std::env::var(name)
            .ok()
            .and_then(|n| n.parse().ok())
            .filter(|n| *n > 0)
            .unwrap_or(default)
    };
    let games = number("GAMES", 1000);
    println!("{BASELINES}");
    let random = (Seat::Random, "uniform random");
    let easy = (Seat::Computer(Strength::Easy), "easy");
    let games_played: [(&str, usize, Play); 6] = [
        ("tag", 4, tag_game),
        ("parcheesi", 2, parcheesi_game),
        ("circuit", 4, circuit_game),
        ("shortcircuit", 2, short_circuit_game),
        ("carcassonne", 2, carcassonne_base),
        ("carcassonne with the big top", 2, carcassonne_big_top),
    ];
    let hard_games = number("HARD_GAMES", 100);
    let think = Duration::from_millis(u64::from(number("HARD_MS", 100)));
    let hard = Strength::Hard(think);
    let normal = (Seat::Computer(Strength::Normal), "normal");
    println!(
        "hard thinks {} ms a decision in these games (2 s at the table)",
        think.as_millis()
    );
    let hard_only = std::env::var_os("HARD_ONLY").is_some();
    for (name, seats, play) in games_played {
        if !hard_only {
            measure(name, seats, play, games, Strength::Easy, random);
            measure(name, seats, play, games, Strength::Normal, random);
            measure(name, seats, play, games, Strength::Normal, easy);
        }
        measure(name, seats, play, hard_games, hard, normal);
    }
}
