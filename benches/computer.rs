//! Computer players, strength and speed: for each game that has one, games of `normal`
//! against seats that send a random legal order, and of `normal` against `easy`; each prints
//! the win rate of the `normal` seat with its 95% interval (Wilson) beside what a seat wins
//! by chance, and `normal`'s decision times (median, p99). The `normal` seat moves round the
//! table from game to game, so no seat's place in the order favours it.
//!
//! Run: `cargo bench --bench computer` (`GAMES=200` for a shorter run; 1,000 by default).
//! Every game is seeded by its number, so a run gives the same games every time.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use referee::dice::{Dice, Seed};
use referee::games::circuit::colour::Colour as CircuitColour;
use referee::games::circuit::computer as circuit_computer;
use referee::games::circuit::parse::{parse_order as parse_circuit, Order as CircuitOrder};
use referee::games::circuit::state::{Runner, Stage as CircuitStage, State as CircuitState};
use referee::games::parcheesi::computer as parcheesi_computer;
use referee::games::parcheesi::{Colour, Match, Seated, Settings, Stage as ParcheesiStage};
use referee::games::tag::computer::{decide, random_order};
use referee::games::tag::parse::{parse_order, Order};
use referee::games::tag::state::{Stage, TagState};
use referee::games::Level;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Who sits at a seat.
#[derive(Clone, Copy)]
enum Seat {
    /// A computer player at this level.
    Computer(Level),
    /// A random legal order every time.
    Random,
}

/// The tally of one match-up.
#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    unfinished: u32,
    times: Vec<Duration>,
}

impl Tally {
    /// The win rate and its 95% Wilson interval.
    fn rate(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games);
        let p = f64::from(self.wins) / n;
        let z = 1.96_f64;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (p, centre - half, centre + half)
    }

    fn print(&mut self, game: &str, against: &str, chance: f64) {
        let (p, low, high) = self.rate();
        self.times.sort();
        let at = |q: f64| {
            self.times
                .get(((self.times.len() as f64 - 1.0) * q) as usize)
                .copied()
                .unwrap_or_default()
        };
        println!(
            "{game}: normal against {against}: won {}/{} = {:.1}% (95%: {:.1}-{:.1}%; by chance {:.1}%), unfinished {}; decision median {:?}, p99 {:?} ({} decisions)",
            self.wins,
            self.games,
            100.0 * p,
            100.0 * low,
            100.0 * high,
            100.0 * chance,
            self.unfinished,
            at(0.5),
            at(0.99),
            self.times.len(),
        );
    }
}

/// The order `who` at `seat` sends, timed when it is the measured seat.
fn order(
    state: &TagState,
    seat: usize,
    who: Seat,
    rng: &mut ChaCha8Rng,
    times: Option<&mut Vec<Duration>>,
) -> Option<Order> {
    let start = Instant::now();
    let text = match who {
        Seat::Computer(level) => decide(state, seat, level, rng),
        Seat::Random => random_order(state, seat, rng),
    }?;
    if let Some(times) = times {
        times.push(start.elapsed());
    }
    parse_order(&text).ok()
}

/// One TAG game of `seats` (seat `measured` is timed); the winner's seat, if it ended.
fn tag_game(
    seats: &[Seat],
    measured: usize,
    game: u64,
    times: &mut Vec<Duration>,
) -> Option<usize> {
    let names: Vec<(String, String)> = (0..seats.len())
        .map(|seat| (format!("p{seat}"), format!("s{seat}")))
        .collect();
    let mut dice = Dice::new(Seed::parse(&game.to_string()).unwrap_or(Seed([0; 32])));
    let mut rng = ChaCha8Rng::seed_from_u64(game ^ 0x5eed);
    let mut state = TagState::new_game(&names, &mut dice);
    let mut bids = BTreeMap::new();
    for (seat, who) in seats.iter().enumerate() {
        let timed = (seat == measured).then_some(&mut *times);
        if let Some(Order::Bid(bid)) = order(&state, seat, *who, &mut rng, timed) {
            bids.insert(seat, bid);
        }
    }
    state.resolve_bids(&bids, &mut dice);
    for _ in 0..300 {
        if !matches!(state.stage, Stage::Moves { .. }) {
            break;
        }
        let mut orders = BTreeMap::new();
        for (seat, who) in seats.iter().enumerate() {
            let timed = (seat == measured).then_some(&mut *times);
            if let Some(Order::Moves(moves)) = order(&state, seat, *who, &mut rng, timed) {
                orders.insert(seat, moves);
            }
        }
        state.resolve_moves(&orders, &mut dice);
    }
    match &state.stage {
        Stage::Over { ranking } => ranking.first().copied(),
        _ => None,
    }
}

/// One two-player Parcheesi game (seat `measured` timed); the winner's seat, if it ended.
fn parcheesi_game(
    seats: &[Seat],
    measured: usize,
    game: u64,
    times: &mut Vec<Duration>,
) -> Option<usize> {
    let colours = [Colour::Green, Colour::Blue];
    let seated: Vec<Seated> = seats
        .iter()
        .enumerate()
        .map(|(seat, _)| Seated {
            seat,
            name: format!("p{seat}"),
            colour: colours[seat % 2],
            gone: false,
        })
        .collect();
    let mut dice = Dice::new(Seed::parse(&game.to_string()).unwrap_or(Seed([0; 32])));
    let mut rng = ChaCha8Rng::seed_from_u64(game ^ 0x5eed);
    let (mut state, _) = Match::new(Settings::default(), seated, &mut dice);
    for _ in 0..20_000 {
        if let ParcheesiStage::Over(ranking) = &state.stage {
            return ranking.first().and_then(|first| first.first()).copied();
        }
        let seat = state.mover()?.seat;
        let start = Instant::now();
        let command = match seats[seat] {
            Seat::Computer(level) => parcheesi_computer::decide(&state, seat, level, &mut rng),
            Seat::Random => parcheesi_computer::random_command(&state, seat, &mut rng),
        }?;
        if seat == measured {
            times.push(start.elapsed());
        }
        let (word, args) = command.split_once(' ').unwrap_or((&command, ""));
        state.act(seat, word, args, &mut dice).ok()?;
    }
    None
}

/// One 50-Tile Circuit game of `seats` (seat `measured` timed); the winner's seat, if it
/// ended.
fn circuit_game(
    seats: &[Seat],
    measured: usize,
    game: u64,
    times: &mut Vec<Duration>,
) -> Option<usize> {
    let runners = (0..seats.len())
        .zip(CircuitColour::palette())
        .map(|(seat, colour)| Runner::new(format!("p{seat}"), colour))
        .collect();
    let mut dice = Dice::new(Seed::parse(&game.to_string()).unwrap_or(Seed([0; 32])));
    let mut rng = ChaCha8Rng::seed_from_u64(game ^ 0x5eed);
    let (mut state, _) = CircuitState::start(runners, &mut dice);
    for _ in 0..5_000 {
        let owed: Vec<usize> = match &state.stage {
            CircuitStage::Choosing => state.choosers(),
            CircuitStage::Claiming { claims } => claims.keys().copied().collect(),
            CircuitStage::Over { winner } => return *winner,
        };
        let mut orders = BTreeMap::new();
        for seat in owed {
            let start = Instant::now();
            let text = match seats[seat] {
                Seat::Computer(level) => circuit_computer::decide(&state, seat, level, &mut rng),
                Seat::Random => circuit_computer::random_order(&state, seat, &mut rng),
            };
            if seat == measured {
                times.push(start.elapsed());
            }
            if let Some(Ok(order)) = text.map(|text| parse_circuit(&text)) {
                orders.insert(seat, order);
            }
        }
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
            state.resolve_choices(&choices, &BTreeMap::new(), &mut dice);
        }
    }
    None
}

/// A game played by `seats`, the seat given timed, under the number given: the winner's
/// seat, if it ended.
type Play = fn(&[Seat], usize, u64, &mut Vec<Duration>) -> Option<usize>;

/// Plays `games` games of `seats` seats, `normal` at one seat (a different one each game)
/// and `others` at the rest, and prints the tally.
fn measure(name: &str, seats: usize, play: Play, games: u32, others: Seat, against: &str) {
    let mut tally = Tally::default();
    for game in 0..games {
        let measured = game as usize % seats;
        let mut table = vec![others; seats];
        table[measured] = Seat::Computer(Level::Normal);
        let winner = play(&table, measured, u64::from(game), &mut tally.times);
        tally.games += 1;
        match winner {
            Some(seat) if seat == measured => tally.wins += 1,
            Some(_) => {}
            None => tally.unfinished += 1,
        }
    }
    tally.print(
        &format!("{name}, {seats} seats"),
        against,
        1.0 / seats as f64,
    );
}

fn main() {
    let games: u32 = std::env::var("GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    let easy = Seat::Computer(Level::Easy);
    measure(
        "tag",
        4,
        tag_game,
        games,
        Seat::Random,
        "random legal orders",
    );
    measure("tag", 4, tag_game, games, easy, "easy");
    measure(
        "parcheesi",
        2,
        parcheesi_game,
        games,
        Seat::Random,
        "random legal commands",
    );
    measure("parcheesi", 2, parcheesi_game, games, easy, "easy");
    measure(
        "circuit",
        4,
        circuit_game,
        games,
        Seat::Random,
        "random legal orders",
    );
    measure("circuit", 4, circuit_game, games, easy, "easy");
}
