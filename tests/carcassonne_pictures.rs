//! Snapshot tests of the Carcassonne pictures: the SVG of fixed, seeded positions is compared
//! with the files in tests/snapshots/ (looked at by a person when they were written). Run with
//! UPDATE_SNAPSHOTS=1 to rewrite them after an intended change, then look at them again
//! (SNAPSHOT_PNG_DIR=<folder> writes them as PNG to look at).

mod common;

use chrono::{TimeZone, Utc};
use common::check_snapshot;
use referee::dice::{Dice, Seed};
use referee::games::carcassonne::CARCASSONNE_RULES;
use referee::games::{Ctx, Game, Options, Rules};

fn board_after(turns: usize, bigtop: &str) -> String {
    let players = common::seated(&["ann", "bob", "cat"]);
    let mut dice = Dice::new(Seed::parse("21").unwrap());
    let mut ctx = Ctx {
        now: Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let options = Options::from([("bigtop".to_string(), bigtop.to_string())]);
    let (mut game, _) = CARCASSONNE_RULES
        .setup(&options, &players, &mut ctx)
        .unwrap();
    for _ in 0..turns {
        game.timeout(&mut ctx);
    }
    game.board().svg.expect("carcassonne draws its board")
}

#[test]
fn the_start_position_with_the_drawn_tile_preview() {
    check_snapshot("carcassonne_start.svg", &board_after(0, "off"));
}

#[test]
fn a_map_after_thirty_tiles() {
    check_snapshot("carcassonne_30_tiles.svg", &board_after(30, "off"));
}

/// With the expansion: circus tents, the Big Top over its face-down token, acrobat pyramids,
/// ringmasters in top hats and the revealed tokens in the footer. Timeouts place no figures,
/// so the position first plays 50 turns choosing, in turn, a ringmaster, an acrobat, a pyramid
/// or a meeple wherever one is allowed.
#[test]
fn a_big_top_map_after_fifty_tiles() {
    use referee::games::carcassonne::act::{Choice, Match, Stage};
    use referee::games::carcassonne::tiles::{base_box, bigtop_box, START};
    let mut deck = base_box();
    deck.retain(|&k| k != START);
    deck.extend(bigtop_box());
    let mut dice = Dice::new(Seed::parse("50").unwrap());
    dice.shuffle("tile order", &mut deck);
    let mut tokens = referee::games::carcassonne::circus::animal_tokens();
    dice.shuffle("animal tokens", &mut tokens);
    let (mut game, _) = referee::games::carcassonne::Carcassonne::start_with(
        vec!["ann".to_string(), "bob".to_string(), "cat".to_string()],
        vec!["red".to_string(), "blue".to_string(), "green".to_string()],
        deck.clone(),
        Some(tokens.clone()),
    );
    let (mut shadow, _) = Match::with_big_top(3, deck, tokens);
    let mut ctx = Ctx {
        now: Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    for turn in 0..50 {
        let Stage::Place(kind) = shadow.stage() else {
            break;
        };
        let legal = shadow.map.legal(kind);
        let (x, y, r) = legal[(turn * 7) % legal.len()];
        let seat = shadow.seat();
        assert!(shadow.place(x, y, r).is_ok());
        let mut line = format!("{x} {y} {}", u32::from(r) * 90);
        if matches!(shadow.stage(), Stage::Follower(_)) {
            let c = shadow.choices();
            let choice = match turn % 4 {
                3 if turn > 40 && !c.pyramids.is_empty() => {
                    Choice::Pyramid(c.pyramids[0].0, c.pyramids[0].1)
                }
                0 if !c.ringmaster.is_empty() => Choice::Ringmaster(c.ringmaster[0]),
                _ if !c.acrobats.is_empty() => Choice::Acrobat(c.acrobats[0].0, c.acrobats[0].1),
                1 if !c.meeple.is_empty() => Choice::Meeple(c.meeple[c.meeple.len() - 1]),
                _ => Choice::Pass,
            };
            line.push_str(&match choice {
                Choice::Pass => " pass".to_string(),
                Choice::Meeple(p) => format!(
                    " meeple {}",
                    referee::games::carcassonne::parse::letter(usize::from(p))
                ),
                Choice::Ringmaster(p) => format!(
                    " ringmaster {}",
                    referee::games::carcassonne::parse::letter(usize::from(p))
                ),
                Choice::Acrobat(x, y) => format!(" acrobat {x} {y}"),
                Choice::Pyramid(x, y) => format!(" pyramid {x} {y}"),
            });
            assert!(shadow.choose(choice).is_ok());
        }
        let played = game.act(seat, "place", &line, &mut ctx);
        assert!(played.is_ok(), "{line}: {played:?}");
    }
    assert_eq!(game.play().map.scores(), shadow.map.scores());
    let svg = game.board().svg.expect("carcassonne draws its board");
    assert!(svg.contains("Big Top tokens revealed: "));
    check_snapshot("carcassonne_bigtop_50_tiles.svg", &svg);
}
