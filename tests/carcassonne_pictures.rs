//! Snapshot tests of the Carcassonne pictures: the SVG of fixed, seeded positions is compared
//! with the files in tests/snapshots/ (looked at by a person when they were written). Run with
//! UPDATE_SNAPSHOTS=1 to rewrite them after an intended change, then look at them again
//! (SNAPSHOT_PNG_DIR=<folder> writes them as PNG to look at).

use chrono::{TimeZone, Utc};
use referee::dice::{Dice, Seed};
use referee::games::carcassonne::CARCASSONNE_RULES;
use referee::games::{Ctx, Options, Player, Rules};
use referee::picture::png_from_svg;

fn board_after(turns: usize, bigtop: &str) -> String {
    let players: Vec<Player> = ["ann", "bob", "cat"]
        .iter()
        .enumerate()
        .map(|(seat, name)| Player {
            seat,
            name: name.to_string(),
            symbol: None,
        })
        .collect();
    let mut dice = Dice::new(Seed::parse("21").unwrap());
    let mut ctx = Ctx {
        now: Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap(),
        dice: &mut dice,
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

fn check(name: &str, svg: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(&path, svg).unwrap();
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(stored == svg, "{name} differs from its snapshot; look at the new picture and rerun with UPDATE_SNAPSHOTS=1 if intended");
    let png = png_from_svg(svg).unwrap();
    if let Ok(dir) = std::env::var("SNAPSHOT_PNG_DIR") {
        std::fs::write(
            std::path::Path::new(&dir).join(name.replace(".svg", ".png")),
            &png,
        )
        .unwrap();
    }
    assert!(png.len() < 8 * 1024 * 1024, "under Discord's 8 MB");
}

#[test]
fn the_start_position_with_the_drawn_tile_preview() {
    check("carcassonne_start.svg", &board_after(0, "off"));
}

#[test]
fn a_map_after_thirty_tiles() {
    check("carcassonne_30_tiles.svg", &board_after(30, "off"));
}
