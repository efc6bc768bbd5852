//! TAG's computer player: a seat's bid or movement order, decided from what every player may
//! see (squares, points, minimum bids, moves, who is it, the queue) and never from another
//! seat's order, which the game does not even hold before the round resolves; its randomness
//! is its own, never the game's dice.
//!
//! `Easy` bids its minimum + 1 and looks one step ahead: the it runs at the nearest player
//! stomping, the others step away from the it. `Normal` plays its candidate orders against orders the others might
//! send (the easy player's, with noise) on copies of the board, and sends the one that leaves
//! it best off on average: in the game, not it, away from the it, with points to spare.
//! `Hard` bids by rollouts ([`crate::games::search`]): `normal`'s candidate bids each played
//! on with the others' orders imagined as `normal` imagines them (it never sees theirs), dice
//! of its own, the game on to its end or a few rounds on; it sends the bid that left it ahead
//! of most others on average. For moves it weighs every order `normal` weighs, on rounds in
//! which the others who could meet it send what a `normal` player would send in their place
//! (worked out from what every player sees), as many rounds as its time allows.

use super::parse::Order;
use super::state::{Dir, Mode, Move, MoveOrder, Square, Stage, TagState};
use crate::dice::{Dice, Seed};
use crate::games::search::{self, Budget};
use crate::games::Level;
use rand_core::RngCore;
use std::collections::BTreeMap;

/// What being it weighs against one point of life: it loses 4 a round until it tags.
const BEING_IT_WEIGHT: f64 = 10.0;
/// The boards each candidate order is tried on at `Normal`.
const SAMPLES: usize = 12;
/// How often an imagined opponent strays from the easy player's move.
const NOISE: u32 = 30;

/// The order `seat` sends now, as typed (`bid 3`, `move n stride`); `None` when it owes none
/// (not a living player, or no orders are awaited from it).
pub fn decide(
    state: &TagState,
    seat: usize,
    level: Level,
    rng: &mut dyn RngCore,
) -> Option<String> {
    let player = state.players.get(seat).filter(|p| p.alive)?;
    match (&state.stage, level) {
        (Stage::Bids, Level::Easy) => {
            // One over the minimum, unless that would take its last point.
            let over = i64::try_from(player.min_bid + 1).is_ok_and(|bid| bid < player.points);
            Some(format!("bid {}", player.min_bid + u64::from(over)))
        }
        (Stage::Bids, Level::Normal) => Some(format!("bid {}", normal_bid(state, seat, rng))),
        (Stage::Bids, Level::Hard(budget)) => {
            // `normal`'s bid first: the search keeps it unless another does better.
            let normal = normal_bid(state, seat, rng);
            let bids: Vec<Order> = std::iter::once(normal)
                .chain(bids(state, seat).filter(|bid| *bid != normal))
                .map(Order::Bid)
                .collect();
            let chosen = search::best_of(&bids, budget, rng, |order, rng| {
                rollout(state, seat, order.clone(), rng)
            });
            Some(format!(
                "bid {}",
                match chosen {
                    Some(Order::Bid(bid)) => bid,
                    _ => normal,
                }
            ))
        }
        (Stage::Moves { .. }, Level::Easy) => {
            Some(easy_moves(state, seat, player.square?, rng, 0).to_string())
        }
        (Stage::Moves { .. }, Level::Normal) => {
            player.square?;
            Some(normal_moves(state, seat, rng).to_string())
        }
        (Stage::Moves { .. }, Level::Hard(budget)) => {
            player.square?;
            Some(hard_moves(state, seat, budget, rng).to_string())
        }
        _ => None,
    }
}

/// A legal order picked uniformly at random (what a computer player is measured against): a
/// bid from the minimum up to the player's points (any higher bid eliminates alike), or for
/// each move one of the eight directions, `nothing` or (when allowed) `teleport`, either
/// mode, and an upgrade or not, each choice even.
pub fn random_order(state: &TagState, seat: usize, rng: &mut dyn RngCore) -> Option<String> {
    let player = state.players.get(seat).filter(|p| p.alive)?;
    match state.stage {
        Stage::Bids => {
            let most = u64::try_from(player.points)
                .unwrap_or(0)
                .max(player.min_bid);
            let spread = u32::try_from(most - player.min_bid + 1).unwrap_or(u32::MAX);
            Some(format!(
                "bid {}",
                player.min_bid + u64::from(below(rng, spread))
            ))
        }
        Stage::Moves { .. } if player.square.is_some() => {
            let teleport = state.may_teleport(seat);
            let moves: Vec<Move> = (0..player.moves)
                .map(|_| match below(rng, if teleport { 10 } else { 9 }) {
                    8 => Move::Nothing,
                    9 => Move::Teleport,
                    n => Move::Go(Dir::ALL[n as usize]),
                })
                .collect();
            let mut order = MoveOrder::new(&moves, random_mode(rng));
            order.upgrade = below(rng, 2) == 0;
            Some(order.to_string())
        }
        _ => None,
    }
}

/// A number below `n` (`n` at least 1).
fn below(rng: &mut dyn RngCore, n: u32) -> u32 {
    rng.next_u32() % n.max(1)
}

fn random_mode(rng: &mut dyn RngCore) -> Mode {
    match below(rng, 2) {
        0 => Mode::Stomp,
        _ => Mode::Stride,
    }
}

/// The bid that costs least, counting the chance of being the lowest (and so it) at
/// [`BEING_IT_WEIGHT`]: the others are imagined bidding their minimum or a little over it.
fn normal_bid(state: &TagState, seat: usize, rng: &mut dyn RngCore) -> u64 {
    let mine = state.players[seat].min_bid;
    let mut best = (f64::MAX, mine);
    for bid in bids(state, seat) {
        let mut lowest = 0;
        for _ in 0..64 {
            let beaten = state.players.iter().enumerate().any(|(other, player)| {
                let theirs = player.min_bid + u64::from(below(rng, 3));
                other != seat
                    && player.alive
                    && (theirs < bid || (theirs == bid && player.min_bid < mine))
            });
            if !beaten {
                lowest += 1;
            }
        }
        let cost = bid as f64 + BEING_IT_WEIGHT * f64::from(lowest) / 64.0;
        if cost < best.0 {
            best = (cost, bid);
        }
    }
    best.1
}

/// The bids `Normal` weighs: from the seat's minimum up to a few over it, below its points.
fn bids(state: &TagState, seat: usize) -> impl Iterator<Item = u64> {
    let mine = state.players[seat].min_bid;
    let points = state.players[seat].points;
    let most = mine + state.players.len() as u64 + 2;
    (mine..=most).take_while(move |bid| i64::try_from(*bid).is_ok_and(|bid| bid < points))
}

/// How many king's steps apart two squares are.
fn distance(a: Square, b: Square) -> u32 {
    a.col.abs_diff(b.col).max(a.row.abs_diff(b.row))
}

/// The living players but `seat`, with their squares.
fn others(state: &TagState, seat: usize) -> Vec<(usize, Square)> {
    state
        .players
        .iter()
        .enumerate()
        .filter(|(other, p)| *other != seat && p.alive)
        .filter_map(|(other, p)| p.square.map(|square| (other, square)))
        .collect()
}

/// One step at a time from `at`, each the best by the easy rule (towards the nearest player
/// for the it, away from the it for the others); with `noise` percent of the steps random.
fn easy_moves(
    state: &TagState,
    seat: usize,
    mut at: Square,
    rng: &mut dyn RngCore,
    noise: u32,
) -> MoveOrder {
    let player = &state.players[seat];
    let it = state.it == Some(seat);
    let hunted = state
        .it
        .filter(|&it| it != seat)
        .and_then(|it| state.players[it].square);
    let targets = others(state, seat);
    let mut moves = Vec::with_capacity(player.moves);
    for _ in 0..player.moves {
        if below(rng, 100) < noise {
            let pick = below(rng, 9) as usize;
            let dir = Dir::ALL.get(pick).copied();
            match dir.and_then(|dir| at.step(dir, state.side).map(|to| (dir, to))) {
                Some((dir, to)) => {
                    moves.push(Move::Go(dir));
                    at = to;
                }
                None => moves.push(Move::Nothing),
            }
            continue;
        }
        let score = |to: Square| -> i64 {
            if it {
                -i64::from(
                    targets
                        .iter()
                        .map(|(_, t)| distance(to, *t))
                        .min()
                        .unwrap_or(0),
                )
            } else {
                let away = hunted.map_or(0, |h| i64::from(distance(to, h)));
                let crowd = targets
                    .iter()
                    .filter(|(_, t)| distance(to, *t) <= 1)
                    .count();
                4 * away - i64::try_from(crowd).unwrap_or(0)
            }
        };
        let mut best = (score(at), Move::Nothing, at);
        for dir in Dir::ALL {
            if let Some(to) = at.step(dir, state.side) {
                let value = score(to);
                if value > best.0 {
                    best = (value, Move::Go(dir), to);
                }
            }
        }
        moves.push(best.1);
        at = best.2;
    }
    let mode = match it {
        true => Mode::Stomp,
        false => Mode::Stride,
    };
    MoveOrder::new(&moves, mode)
}

/// The candidate orders `Normal` weighs: every direction kept for all of the seat's moves,
/// every pair of first two moves (then standing), each in both modes, and a teleport when
/// allowed and affordable.
fn candidates(state: &TagState, seat: usize) -> Vec<MoveOrder> {
    let player = &state.players[seat];
    let k = player.moves;
    let each: Vec<Move> = Dir::ALL
        .iter()
        .map(|&dir| Move::Go(dir))
        .chain([Move::Nothing])
        .collect();
    let mut orders: Vec<Vec<Move>> = each.iter().map(|&m| vec![m; k]).collect();
    if k >= 2 {
        for &first in &each {
            for &second in &each {
                let mut moves = vec![first, second];
                moves.resize(k, Move::Nothing);
                if !orders.contains(&moves) {
                    orders.push(moves);
                }
            }
        }
    }
    if state.may_teleport(seat) && player.points > 10 {
        let mut moves = vec![Move::Teleport];
        moves.resize(k, Move::Nothing);
        orders.push(moves);
    }
    orders
        .into_iter()
        .flat_map(|moves| [Mode::Stomp, Mode::Stride].map(|mode| MoveOrder::new(&moves, mode)))
        .collect()
}

/// How good the board after a round is for `seat`.
fn value(after: &TagState, seat: usize) -> f64 {
    let me = &after.players[seat];
    if let Stage::Over { ranking } = &after.stage {
        if ranking.first() == Some(&seat) {
            return 1000.0;
        }
    }
    if !me.alive {
        return -1000.0 + me.points as f64;
    }
    let living: Vec<&super::state::Tagger> = after
        .players
        .iter()
        .enumerate()
        .filter(|(other, p)| *other != seat && p.alive)
        .map(|(_, p)| p)
        .collect();
    let rivals = match living.len() {
        0 => 0.0,
        n => living.iter().map(|p| p.points as f64).sum::<f64>() / n as f64,
    };
    let mut value = me.points as f64 - 0.3 * rivals;
    let Some(at) = me.square else {
        return value;
    };
    match after.it {
        Some(it) if it == seat => {
            let nearest = living
                .iter()
                .filter_map(|p| p.square)
                .map(|square| distance(at, square))
                .min()
                .unwrap_or(0);
            value -= BEING_IT_WEIGHT + f64::from(nearest.min(4));
        }
        Some(it) => {
            if let Some(square) = after.players[it].square {
                value += 1.5 * f64::from(distance(at, square).min(3));
            }
        }
        None => {}
    }
    value
}

/// Every candidate order with its average [`value`] over [`SAMPLES`] imagined rounds, the
/// others sending the easy player's orders with noise.
fn rated_moves(state: &TagState, seat: usize, rng: &mut dyn RngCore) -> Vec<(f64, MoveOrder)> {
    let mut worlds = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let mut orders = BTreeMap::new();
        for (other, square) in others(state, seat) {
            orders.insert(other, easy_moves(state, other, square, rng, NOISE));
        }
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        worlds.push((orders, seed));
    }
    candidates(state, seat)
        .into_iter()
        .map(|order| {
            let mut total = 0.0;
            for (orders, seed) in &worlds {
                let mut orders = orders.clone();
                orders.insert(seat, order.clone());
                let mut after = state.clone();
                after.resolve_moves(&orders, &mut Dice::new(Seed(*seed)));
                total += value(&after, seat);
            }
            (total, order)
        })
        .collect()
}

/// Whether `seat` buys an upgrade with its order: early, while points are plenty.
fn upgrades(state: &TagState, seat: usize) -> bool {
    let player = &state.players[seat];
    player.moves < 3 && player.points >= 28 && state.it != Some(seat)
}

/// The candidate order with the best average [`value`] ([`rated_moves`]); an upgrade is
/// bought early while points are plenty.
fn normal_moves(state: &TagState, seat: usize, rng: &mut dyn RngCore) -> MoveOrder {
    let player = &state.players[seat];
    let mut best = (f64::MIN, MoveOrder::idle(player.moves));
    for (total, order) in rated_moves(state, seat, rng) {
        if total > best.0 {
            best = (total, order);
        }
    }
    let mut order = best.1;
    order.upgrade = upgrades(state, seat);
    order
}

/// `Hard`'s movement order: every candidate `normal` weighs, rated on imagined rounds in which
/// the others near enough to meet it (and the it) send what `normal` would send in their place
/// (from what every player may see, with randomness of its own, never their real orders), as
/// many rounds as `budget` allows and at least one; the one that left it best off on average
/// is sent (an upgrade bought as `normal` buys it).
fn hard_moves(state: &TagState, seat: usize, budget: Budget, rng: &mut dyn RngCore) -> MoveOrder {
    let candidates = candidates(state, seat);
    let mut totals = vec![0.0f64; candidates.len()];
    let mut rounds = 0u32;
    // Who could meet it this round (and the it, whose square every board is judged by):
    // imagined as `normal` players; the rest of a crowded board as the easy player, cheaply.
    let me = &state.players[seat];
    let near = |other: usize, square: Square| {
        state.it == Some(other)
            || me.square.is_some_and(|at| {
                distance(at, square) as usize <= me.moves + state.players[other].moves + 1
            })
    };
    'rounds: while rounds == 0 || (rounds < budget.rollouts && !budget.time_up.is_up()) {
        let mut orders = BTreeMap::new();
        for (other, square) in others(state, seat) {
            // Once one round is weighed, time up leaves the next unfinished.
            if rounds > 0 && budget.time_up.is_up() {
                break 'rounds;
            }
            let order = match near(other, square) {
                true => normal_moves(state, other, rng),
                false => easy_moves(state, other, square, rng, NOISE),
            };
            orders.insert(other, order);
        }
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        for (total, order) in totals.iter_mut().zip(&candidates) {
            let mut orders = orders.clone();
            orders.insert(seat, order.clone());
            let mut after = state.clone();
            after.resolve_moves(&orders, &mut Dice::new(Seed(seed)));
            *total += value(&after, seat);
        }
        rounds += 1;
    }
    let best = (0..candidates.len())
        .max_by(|a, b| totals[*a].total_cmp(&totals[*b]).then(b.cmp(a)))
        .unwrap_or_default();
    let mut order = candidates
        .get(best)
        .cloned()
        .unwrap_or_else(|| MoveOrder::idle(state.players[seat].moves));
    order.upgrade = upgrades(state, seat);
    order
}

/// The rounds (of bids or of moves) a rollout plays before it judges how the seat stands.
const HORIZON: usize = 8;

/// The order a rollout imagines `seat` sends: `normal`'s bid; for moves, the easy player's
/// with noise (what `normal` imagines of the others, and a hundred times quicker than its own).
fn imagined(state: &TagState, seat: usize, rng: &mut dyn RngCore) -> Option<Order> {
    let player = state.players.get(seat).filter(|p| p.alive)?;
    match state.stage {
        Stage::Bids => Some(Order::Bid(normal_bid(state, seat, rng))),
        Stage::Moves { .. } => Some(Order::Moves(easy_moves(
            state,
            seat,
            player.square?,
            rng,
            NOISE,
        ))),
        Stage::Over { .. } => None,
    }
}

/// `order` sent by `seat`, the others' orders [`imagined`], then the game on for [`HORIZON`]
/// rounds or to its end, every order imagined, with dice of its own: how `seat` stands
/// against the others then (its share of those it is ahead of: in the game, not it, more
/// points; at the end, its place).
fn rollout(state: &TagState, seat: usize, order: Order, rng: &mut dyn RngCore) -> f64 {
    let mut game = state.clone();
    let mut dice = search::dice_from(rng);
    let mut mine = Some(order);
    for _ in 0..HORIZON {
        let bidding = game.stage == Stage::Bids;
        if !bidding && !matches!(game.stage, Stage::Moves { .. }) {
            break;
        }
        let (mut bids, mut moves) = (BTreeMap::new(), BTreeMap::new());
        for who in 0..game.players.len() {
            let order = match who == seat {
                true => mine.take().or_else(|| imagined(&game, who, rng)),
                false => imagined(&game, who, rng),
            };
            match order {
                Some(Order::Bid(bid)) if game.check_bid(who, bid).is_ok() => {
                    bids.insert(who, bid);
                }
                Some(Order::Moves(order)) if game.check_move_order(who, &order).is_ok() => {
                    moves.insert(who, order);
                }
                _ => {}
            }
        }
        if bidding {
            game.resolve_bids(&bids, &mut dice);
        } else {
            game.resolve_moves(&moves, &mut dice);
        }
    }
    let standing: Vec<Option<f64>> = match &game.stage {
        Stage::Over { ranking } => (0..game.players.len())
            .map(|who| {
                let place = ranking.iter().position(|ranked| *ranked == who)?;
                Some(-(place as f64))
            })
            .collect(),
        _ => (0..game.players.len())
            .map(|who| {
                let player = &game.players[who];
                let it = f64::from(u8::from(game.it == Some(who)));
                player
                    .alive
                    .then_some(player.points as f64 - BEING_IT_WEIGHT * it)
            })
            .collect(),
    };
    search::standing_share(&standing, seat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tag::parse::parse_order;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    fn board() -> TagState {
        TagState::builder(5)
            .player("ann", "a1", 30)
            .player("bob", "c3", 30)
            .player("cat", "e5", 30)
            .it(1)
            .queue(&[0, 2, 1])
            .build()
    }

    #[test]
    fn every_order_it_sends_is_one_the_game_takes() {
        let state = board();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for seat in 0..3 {
            for level in [Level::Easy, Level::Normal] {
                let text = decide(&state, seat, level, &mut rng).unwrap_or_default();
                let Ok(Order::Moves(order)) = parse_order(&text) else {
                    panic!("{text}")
                };
                assert_eq!(state.check_move_order(seat, &order), Ok(()), "{text}");
            }
            let text = random_order(&state, seat, &mut rng).unwrap_or_default();
            assert!(matches!(parse_order(&text), Ok(Order::Moves(_))), "{text}");
        }
    }

    #[test]
    fn the_random_seat_bids_evenly_from_its_minimum_to_its_points() {
        let mut state = board();
        state.stage = Stage::Bids;
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut seen = BTreeMap::new();
        for _ in 0..5_800 {
            let text = random_order(&state, 1, &mut rng).unwrap_or_default();
            let Ok(Order::Bid(bid)) = parse_order(&text) else {
                panic!("{text}")
            };
            assert_eq!(state.check_bid(1, bid), Ok(()), "{text}");
            *seen.entry(bid).or_insert(0u32) += 1;
        }
        // Bob's minimum is 2 and he holds 30 points: 29 bids, each drawn about 200 times.
        assert_eq!(
            seen.keys().copied().collect::<Vec<u64>>(),
            (2..=30).collect::<Vec<u64>>()
        );
        assert!(
            seen.values().all(|count| (130..270).contains(count)),
            "{seen:?}"
        );
    }

    #[test]
    fn the_it_chases_and_the_others_keep_away() {
        let state = board();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let chase = decide(&state, 1, Level::Normal, &mut rng).unwrap_or_default();
        assert!(chase.contains("stomp"), "{chase}");
        let flee = decide(&state, 0, Level::Easy, &mut rng).unwrap_or_default();
        assert_eq!(
            flee, "move nothing stride",
            "the corner is farthest from the it"
        );
    }
}
