//! Random full games of Carcassonne: they never panic, place all 72 tiles less the discards,
//! send home every follower the rules send home, never score a feature twice, and load back
//! from their saved state. `PROPTEST_CASES` raises the number of games (64 by default).

use proptest::prelude::*;
use referee::dice::{Dice, Seed};
use referee::games::carcassonne::map::FOLLOWERS;
use referee::games::carcassonne::play::{Match, Stage};
use referee::games::carcassonne::tiles::{base_box, START};
use referee::games::carcassonne::CARCASSONNE_RULES;
use referee::games::{Ctx, Phase, Player, Rules};

fn deck(seed: u64) -> Vec<u8> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut dice = Dice::new(Seed(bytes));
    let mut deck = base_box();
    if let Some(i) = deck.iter().position(|&k| k == START) {
        deck.remove(i);
    }
    dice.shuffle("tile order", &mut deck);
    deck
}

fn check_followers(m: &Match) -> Result<(), TestCaseError> {
    for seat in 0..m.map.supply().len() {
        let on_map = m.map.followers().iter().filter(|f| f.seat == seat).count();
        let supply = usize::from(m.map.supply()[seat]);
        prop_assert_eq!(on_map + supply, usize::from(FOLLOWERS));
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_play_out_cleanly(seed in any::<u64>(), players in 2usize..=5, choices in proptest::collection::vec(any::<u16>(), 150)) {
        let (mut m, _) = Match::new(players, deck(seed));
        let mut pick = choices.into_iter().cycle();
        let mut turns = 0;
        loop {
            match m.stage() {
                Stage::Place(kind) => {
                    let legal = m.map.legal(kind);
                    prop_assert!(!legal.is_empty(), "a drawn tile always fits somewhere");
                    let (x, y, r) = legal[usize::from(pick.next().unwrap_or(0)) % legal.len()];
                    prop_assert!(m.place(x, y, r).is_ok());
                }
                Stage::Follower(tile) => {
                    let options = m.map.follower_options(m.seat(), tile);
                    let choice = usize::from(pick.next().unwrap_or(0)) % (options.len() + 1);
                    prop_assert!(m.finish(options.get(choice).copied()).is_ok());
                    check_followers(&m)?;
                }
                Stage::Over => break,
            }
            turns += 1;
            prop_assert!(turns < 400);
        }
        prop_assert_eq!(m.map.tiles().len() + m.discarded().len(), 72);
        let mut seen = std::collections::BTreeSet::new();
        for s in m.map.history() {
            prop_assert!(seen.insert(s.feature), "feature {} scored twice", s.feature);
        }
        let total: u32 = m.map.history().iter().map(|s| s.points * s.winners.len() as u32).sum();
        prop_assert_eq!(total, m.map.scores().iter().sum::<u32>());
    }
}

#[test]
fn a_saved_game_loads_back_to_the_same_board_and_finishes_by_timeouts() {
    let players: Vec<Player> = ["Ann", "Bob", "Cy"]
        .iter()
        .enumerate()
        .map(|(seat, name)| Player {
            seat,
            name: name.to_string(),
            symbol: None,
        })
        .collect();
    let mut dice = Dice::new(Seed([9; 32]));
    let mut ctx = Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
    };
    let setup = CARCASSONNE_RULES.setup(&Default::default(), &players, &mut ctx);
    let Ok((mut game, events)) = setup else {
        panic!("setup refused");
    };
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
