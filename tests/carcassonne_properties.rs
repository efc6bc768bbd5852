//! Random full games of Carcassonne, with Under the Big Top on and off: they never panic, place
//! every tile less the discards, send home every follower the rules send home (meeples,
//! acrobats and ringmasters are all accounted for), never lower a score, never score a feature
//! twice, account for every point, end with a ranking, and load back from their saved state.
//! `PROPTEST_CASES` raises the number of games (64 by default).
//!
//! The legal placements the map keeps up to date as tiles are placed equal, for every kind of
//! tile at every turn, a search from scratch with the placement check (16 games by default,
//! `PROPTEST_CASES` raises it too).

mod common;

use proptest::prelude::*;
use referee::dice::{Dice, Seed};
use referee::games::carcassonne::act::{Match, Stage};
use referee::games::carcassonne::circus::animal_tokens;
use referee::games::carcassonne::map::{Figure, Map, FOLLOWERS, REACH};
use referee::games::carcassonne::tiles::{kind_named, to_deal, KINDS};
use referee::games::carcassonne::CARCASSONNE_RULES;
use referee::games::{Ctx, Phase, Rules};

fn deck(seed: u64) -> Vec<u8> {
    shuffled(seed, false)
}

fn shuffled(seed: u64, bigtop: bool) -> Vec<u8> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut dice = Dice::new(Seed(bytes));
    let mut deck = to_deal(bigtop);
    dice.shuffle("tile order", &mut deck);
    deck
}

fn new_match(seed: u64, players: usize, bigtop: bool) -> Match {
    let deck = shuffled(seed, bigtop);
    if bigtop {
        let mut tokens = animal_tokens();
        let mut dice = Dice::new(Seed([seed as u8; 32]));
        dice.shuffle("animal tokens", &mut tokens);
        Match::with_big_top(players, deck, tokens).0
    } else {
        Match::new(players, deck).0
    }
}

fn check_followers(m: &Match) -> Result<(), TestCaseError> {
    for seat in 0..m.map.supply().len() {
        let meeples = m
            .map
            .followers()
            .iter()
            .filter(|f| f.seat == seat && f.figure == Figure::Meeple)
            .count();
        let ringmasters = m
            .map
            .followers()
            .iter()
            .filter(|f| f.seat == seat && f.figure == Figure::Ringmaster)
            .count();
        let supply = usize::from(m.map.supply()[seat]);
        let acrobats = m.map.acrobats_of(seat);
        prop_assert_eq!(meeples + acrobats + supply, usize::from(FOLLOWERS));
        match m.map.circus() {
            Some(c) => prop_assert_eq!(ringmasters + usize::from(c.ringmaster_home(seat)), 1),
            None => prop_assert_eq!(ringmasters, 0),
        }
    }
    if let Some(c) = m.map.circus() {
        prop_assert!(c.pyramids().iter().all(|p| p.acrobats.len() <= 3));
    }
    for f in m.map.followers() {
        let root = m.map.feature_of(f);
        prop_assert!(
            !m.map.is_complete(root),
            "a follower stays on a completed feature"
        );
    }
    Ok(())
}

/// Plays one random step of `m` picked by `pick`: a legal placement of the drawn tile, or one
/// of the follower choices. False once the game is over.
fn random_step(m: &mut Match, pick: &mut impl Iterator<Item = u16>) -> Result<bool, TestCaseError> {
    match m.stage() {
        Stage::Place(kind) => {
            let legal = m.map.legal(kind);
            prop_assert!(!legal.is_empty(), "a drawn tile always fits somewhere");
            let (x, y, r) = legal[usize::from(pick.next().unwrap_or(0)) % legal.len()];
            prop_assert!(m.place(x, y, r).is_ok());
        }
        Stage::Follower(_) => {
            let options = m.choices().all();
            let mut listed = Vec::new();
            m.choices_into(&mut listed);
            prop_assert_eq!(
                &listed,
                &options,
                "the reused list of choices is the same list"
            );
            let choice = options[usize::from(pick.next().unwrap_or(0)) % options.len()];
            prop_assert!(m.choose(choice).is_ok(), "{:?} refused", choice);
        }
        Stage::Over => return Ok(false),
    }
    Ok(true)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64)
    ))]

    #[test]
    fn random_games_play_out_cleanly(seed in any::<u64>(), players in 2usize..=6, bigtop in any::<bool>(), choices in proptest::collection::vec(any::<u16>(), 150)) {
        let players = if bigtop { players } else { players.min(5) };
        let mut m = new_match(seed, players, bigtop);
        let mut pick = choices.into_iter().cycle();
        let mut turns = 0;
        let mut scores = m.map.scores().to_vec();
        loop {
            if !random_step(&mut m, &mut pick)? {
                break;
            }
            if !matches!(m.stage(), Stage::Follower(_)) {
                check_followers(&m)?;
            }
            for (before, now) in scores.iter().zip(m.map.scores()) {
                prop_assert!(now >= before, "a score fell");
            }
            scores = m.map.scores().to_vec();
            turns += 1;
            prop_assert!(turns < 500);
        }
        let tiles = if bigtop { 92 } else { 72 };
        prop_assert_eq!(m.map.tiles().len() + m.discarded().len(), tiles);
        let mut seen = std::collections::BTreeSet::new();
        for s in m.map.history() {
            prop_assert!(seen.insert(s.feature), "feature {} scored twice", s.feature);
        }
        let features: u32 = m
            .map
            .history()
            .iter()
            .map(|s| s.points * s.winners.len() as u32 + s.ringmasters.iter().map(|r| r.points).sum::<u32>())
            .sum();
        let shows: u32 = m
            .map
            .circus()
            .map_or(0, |c| c.shows().iter().flat_map(|s| s.points.iter()).sum());
        prop_assert_eq!(features + shows, m.map.scores().iter().sum::<u32>());
        if let Some(c) = m.map.circus() {
            let circus_tiles = m.map.tiles().iter().filter(|t| t.shape().centre == referee::games::carcassonne::tiles::Centre::Circus).count();
            prop_assert_eq!(c.revealed().len(), circus_tiles, "every circus tile's token is revealed by the end");
        }
    }
}

/// Every legal placement of `kind`, searched from scratch: each cell next to a tile, in
/// reading order, with each rotation the edge-by-edge check accepts.
fn legal_from_scratch(map: &Map, kind: u8) -> Vec<(i32, i32, u8)> {
    let mut spots: Vec<(i32, i32)> = map
        .tiles()
        .iter()
        .flat_map(|t| [(0, -1), (1, 0), (0, 1), (-1, 0)].map(|(dx, dy)| (t.y + dy, t.x + dx)))
        .collect();
    spots.sort_unstable();
    spots.dedup();
    spots
        .into_iter()
        .flat_map(|(y, x)| (0..4).map(move |rot| (x, y, rot)))
        .filter(|&(x, y, rot)| {
            let side_by_side = map.check_side_by_side(kind, x, y, rot).is_ok();
            assert_eq!(
                map.check(kind, x, y, rot).is_ok(),
                side_by_side,
                "({x},{y}) turned {rot}"
            );
            side_by_side
        })
        .collect()
}

fn kept_legal_equals_search(map: &Map) -> Result<(), TestCaseError> {
    for kind in 0..KINDS as u8 {
        let legal = map.legal(kind);
        prop_assert_eq!(&legal, &legal_from_scratch(map, kind), "kind {}", kind);
        prop_assert_eq!(map.fits_somewhere(kind), !legal.is_empty(), "kind {}", kind);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(16),
        ..ProptestConfig::default()
    })]

    #[test]
    fn kept_legal_placements_equal_a_search_from_scratch(seed in any::<u64>(), bigtop in any::<bool>(), choices in proptest::collection::vec(any::<u16>(), 150)) {
        let mut m = new_match(seed, 2, bigtop);
        let mut pick = choices.into_iter().cycle();
        loop {
            if matches!(m.stage(), Stage::Place(_)) {
                kept_legal_equals_search(&m.map)?;
            }
            if !random_step(&mut m, &mut pick)? {
                break;
            }
        }
        kept_legal_equals_search(&m.map)?;
    }
}

#[test]
fn a_row_of_tiles_to_the_edge_of_reach_offers_no_spot_beyond_it() {
    // The start tile D and straight roads U eastwards, out to the farthest column.
    let mut row = vec![('D', 0, 0, 0)];
    row.extend((1..=REACH).map(|x| ('U', x, 0, 0)));
    let (Ok(map), Some(u)) = (Map::with_tiles(2, &row), kind_named("U")) else {
        panic!("the row was refused");
    };
    let legal = map.legal(u);
    assert!(legal.iter().all(|&(x, _, _)| x <= REACH));
    assert!(legal.contains(&(-1, 0, 0)));
    assert_eq!(legal, legal_from_scratch(&map, u));
}

#[test]
fn a_saved_game_loads_back_to_the_same_board_and_finishes_by_timeouts() {
    let players = common::seated(&["Ann", "Bob", "Cy"]);
    let mut dice = Dice::new(Seed([9; 32]));
    let mut ctx = Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let setup = CARCASSONNE_RULES.setup(&Default::default(), &players, &mut ctx);
    let Ok((mut game, events)) = setup else {
        panic!("setup refused");
    };
    assert!(events[0]
        .text
        .starts_with("Carcassonne with Under the Big Top begins"));
    assert!(events[1].text.starts_with("Ann's turn: tile "));
    for _ in 0..20 {
        game.timeout(&mut ctx);
    }
    let saved = game.save();
    let loaded = CARCASSONNE_RULES.load(&saved);
    let Ok(loaded) = loaded else {
        panic!("load failed");
    };
    assert_eq!(loaded.board(), game.board());
    assert_eq!(loaded.phase(), game.phase());
    let mut broken = saved.clone();
    broken["moves"][0] = serde_json::json!({"Place": [40, 40, 0]});
    assert!(CARCASSONNE_RULES.load(&broken).is_err());
    assert!(CARCASSONNE_RULES
        .load(&serde_json::json!("nonsense"))
        .is_err());
    for _ in 0..100 {
        if matches!(game.phase(), Phase::Over { .. }) {
            break;
        }
        game.timeout(&mut ctx);
    }
    let Phase::Over { ranking } = game.phase() else {
        panic!("the game did not end");
    };
    assert_eq!(ranking.iter().map(Vec::len).sum::<usize>(), 3);
}

#[test]
fn a_finished_map_renders_to_a_png_under_eight_megabytes() {
    let names = vec!["Ann".to_string(), "Bob".to_string()];
    let colours = vec!["red".to_string(), "blue".to_string()];
    let (mut game, _) = referee::games::carcassonne::Carcassonne::start(names, colours, deck(5));
    let mut dice = Dice::new(Seed([3; 32]));
    let mut ctx = Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    use referee::games::Game;
    while !matches!(game.phase(), Phase::Over { .. }) {
        game.timeout(&mut ctx);
    }
    assert_eq!(
        game.play().map.tiles().len() + game.play().discarded().len(),
        72
    );
    let board = game.board();
    assert!(board.text.contains("The game is over."));
    let svg = board.svg.unwrap_or_default();
    let png = referee::picture::png_from_svg(&svg);
    assert!(png.is_ok_and(|p| p.len() < 8 * 1024 * 1024));
}
