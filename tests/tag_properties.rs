//! Property tests of TAG: random games of 3 to 30 players with random orders never panic,
//! never put two players on one square, change points only as the rules say, and always end.
//!
//! Why every game ends within the bound checked here: for the first `FREE_ROUNDS` rounds the
//! orders are fully random (any mode, teleports when allowed, upgrades, some invalid orders
//! that fall back to the default). After that every player stomps. With nobody striding,
//! nobody gains points (no recovery, no +2 from a strider), while the player who is it pays 4
//! each round. So the sum over living players of their positive points drops by at least 1
//! every round (it pays 4 while it has more than 4; otherwise it falls to 0 or below and is
//! eliminated), and the game must end within that many further rounds. The test measures the
//! sum when the free rounds end and asserts the game ends within it.

use proptest::prelude::*;
use referee::dice::{Dice, Seed};
use referee::games::tag::resolve::{Kind, RoundReport};
use referee::games::tag::state::{Dir, Mode, Move, MoveOrder, Stage, TagState};
use referee::games::tag::TAG_RULES;
use referee::games::{Ctx, Player, Rules};
use std::collections::{BTreeMap, HashMap, HashSet};

const FREE_ROUNDS: u32 = 40;

fn random_order(state: &TagState, seat: usize, all_stomp: bool, rng: &mut Dice) -> MoveOrder {
    let moves = state.players[seat].moves;
    let count = if rng.pick("invalid?", 20) == 0 {
        moves + 1
    } else {
        moves
    };
    let list: Vec<Move> = (0..count)
        .map(|_| match rng.pick("move", 11) {
            8 => Move::Nothing,
            9 | 10 if state.may_teleport(seat) => Move::Teleport,
            9 | 10 => Move::Nothing,
            d => Move::Go(Dir::ALL[d]),
        })
        .collect();
    MoveOrder {
        moves: list,
        mode: if all_stomp || rng.pick("mode", 2) == 0 {
            Mode::Stomp
        } else {
            Mode::Stride
        },
        upgrade: rng.pick("upgrade", 15) == 0,
    }
}

/// Checks every point change of the round against the rules.
fn check_points(
    before: &TagState,
    after: &TagState,
    report: &RoundReport,
) -> Result<(), TestCaseError> {
    let modes: HashMap<usize, (Mode, bool)> = report
        .orders
        .iter()
        .map(|(s, o, _)| (*s, (o.mode, o.upgrade)))
        .collect();
    let mut expected: HashMap<usize, i64> = report
        .orders
        .iter()
        .map(|(s, _, _)| (*s, before.players[*s].points))
        .collect();
    let mut collided = HashSet::new();
    for step in &report.steps {
        for c in &step.collisions {
            let n = c.players.len();
            prop_assert!(n >= 2);
            if c.kind != Kind::Enter {
                prop_assert_eq!(n, 2);
            }
            let mut change = vec![0i64; n];
            for a in 0..n {
                for b in a + 1..n {
                    let (ma, mb) = (modes[&c.players[a]].0, modes[&c.players[b]].0);
                    let (da, db) = match (ma, mb) {
                        (Mode::Stomp, Mode::Stride) => (2, -6),
                        (Mode::Stride, Mode::Stomp) => (-6, 2),
                        _ => (-3, -3),
                    };
                    change[a] += da;
                    change[b] += db;
                }
            }
            for (k, &p) in c.players.iter().enumerate() {
                prop_assert_eq!(c.changes[k], (p, change[k]));
                *expected.entry(p).or_default() += change[k];
                collided.insert(p);
            }
        }
        for &(s, _, _) in &step.teleports {
            *expected.entry(s).or_default() -= 5;
        }
    }
    for (s, (mode, upgrade)) in &modes {
        if *upgrade {
            *expected.entry(*s).or_default() -= 5;
        }
        let recovers = *mode == Mode::Stride && !collided.contains(s);
        prop_assert_eq!(report.recovered.contains(s), recovers);
        if recovers {
            *expected.entry(*s).or_default() += 1;
        }
    }
    let it_at_end = report
        .steps
        .iter()
        .rev()
        .find_map(|s| s.tag)
        .map(|(_, tagged)| tagged)
        .or(before.it);
    prop_assert_eq!(report.it_paid, it_at_end, "it pays after its tags");
    if let Some(it) = report.it_paid {
        *expected.entry(it).or_default() -= 4;
    }
    for (s, p) in &expected {
        prop_assert_eq!(after.players[*s].points, *p, "points of seat {}", s);
    }
    for (s, p) in after.players.iter().enumerate() {
        if !expected.contains_key(&s) {
            prop_assert_eq!(p.points, before.players[s].points);
        }
        prop_assert_eq!(p.alive, p.points > 0 && before.players[s].alive);
    }
    Ok(())
}

fn check_board(state: &TagState) -> Result<(), TestCaseError> {
    let mut seen = HashSet::new();
    for s in state.living() {
        let q = state.players[s].square;
        prop_assert!(q.is_some(), "living player without a square");
        let q = q.unwrap_or_else(|| unreachable!());
        prop_assert!(q.col < state.side && q.row < state.side);
        prop_assert!(seen.insert(q), "two players on {}", q);
    }
    let mut queue: Vec<usize> = state.queue.clone();
    queue.sort_unstable();
    prop_assert_eq!(queue, state.living(), "the queue holds exactly the living");
    if state.living().len() >= 2 {
        prop_assert!(state.it.is_some_and(|it| state.players[it].alive));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64)
    ))]

    #[test]
    fn random_games_end_cleanly(players in 3usize..=30, seed in any::<u64>()) {
        let mut dice = Dice::new(Seed::parse(&seed.to_string()).unwrap_or_else(|_| unreachable!()));
        let mut rng = Dice::new(Seed::parse(&(seed ^ 0x5eed).to_string()).unwrap_or_else(|_| unreachable!()));
        let names: Vec<(String, String)> =
            (0..players).map(|i| (format!("p{i}"), format!("S{i}"))).collect();
        let mut state = TagState::new_game(&names, &mut dice);
        let mut bids: BTreeMap<usize, u64> = BTreeMap::new();
        for seat in 0..players {
            if rng.pick("bids?", 4) != 0 {
                bids.insert(seat, state.players[seat].min_bid + rng.pick("bid", 36) as u64);
            }
        }
        state.resolve_bids(&bids, &mut dice);
        for (s, p) in state.players.iter().enumerate() {
            let paid = bids.get(&s).copied().filter(|&b| b >= p.min_bid).unwrap_or(p.min_bid);
            prop_assert_eq!(p.points, 35 - paid as i64);
        }
        check_board(&state)?;
        let mut round = 0u32;
        let mut bound: Option<u64> = None;
        while let Stage::Moves { .. } = state.stage {
            round += 1;
            let all_stomp = round > FREE_ROUNDS;
            if all_stomp && bound.is_none() {
                let sum: i64 = state.living().iter().map(|&s| state.players[s].points.max(0)).sum();
                bound = Some(u64::from(FREE_ROUNDS) + sum as u64 + 1);
            }
            if let Some(b) = bound {
                prop_assert!(u64::from(round) <= b, "game did not end within {} rounds", b);
            }
            let orders: BTreeMap<usize, MoveOrder> = state
                .living()
                .into_iter()
                .map(|s| (s, random_order(&state, s, all_stomp, &mut rng)))
                .collect();
            let before = state.clone();
            let report = state.resolve_moves(&orders, &mut dice);
            for (s, o, defaulted) in &report.orders {
                prop_assert_eq!(*defaulted, before.check_move_order(*s, &orders[s]).is_err());
                if *defaulted {
                    prop_assert_eq!(o, &MoveOrder::idle(before.players[*s].moves));
                }
            }
            check_points(&before, &state, &report)?;
            if matches!(state.stage, Stage::Moves { .. }) {
                check_board(&state)?;
            }
        }
        let Stage::Over { ranking } = &state.stage else { unreachable!() };
        prop_assert!(state.living().len() <= 1);
        let mut all = ranking.clone();
        all.sort_unstable();
        prop_assert_eq!(all, (0..players).collect::<Vec<_>>(), "everyone is ranked once");
        if let [winner] = state.living()[..] {
            prop_assert_eq!(ranking[0], winner);
        }
    }

    #[test]
    fn any_dm_text_gets_an_answer_not_a_panic(text in ".{0,40}", round in 0usize..3) {
        let players: Vec<Player> = (0..4)
            .map(|seat| Player::person(seat, format!("p{seat}")))
            .collect();
        let mut dice = Dice::new(Seed::parse("3").unwrap_or_else(|_| unreachable!()));
        let mut ctx = Ctx { now: chrono::DateTime::<chrono::Utc>::default(), dice: &mut dice, revision: Ctx::NEWEST };
        let (mut game, _) = TAG_RULES.setup(&BTreeMap::new(), &players, &mut ctx)
            .map_err(|e| TestCaseError::fail(e.0))?;
        for _ in 0..round {
            game.resolve(&BTreeMap::new(), &mut ctx).map_err(|e| TestCaseError::fail(e.0))?;
        }
        if let Ok(canonical) = game.check_order(0, &text) {
            prop_assert_eq!(game.check_order(0, &canonical), Ok(canonical.clone()));
        }
        let _ = game.board();
        let _ = game.private_status(0);
    }
}
