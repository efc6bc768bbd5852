//! Under the Big Top: the seed's worked examples and the expansion's rules, each test named
//! after what it proves. Positions are built tile by tile (name, x, y, degrees clockwise; x east,
//! y south) on a map with the expansion, then played as turns.

mod common;

use common::assert_says;
use referee::dice::{Dice, Seed};
use referee::games::carcassonne::act::{Choice, Finale, Happening, Match, Stage};
use referee::games::carcassonne::circus::{animal_tokens, Animal, Show, ShowKind};
use referee::games::carcassonne::map::{Figure, Map};
use referee::games::carcassonne::tiles::{kind_named, Kind};
use referee::games::carcassonne::{Carcassonne, CARCASSONNE_RULES};
use referee::games::{Ctx, Event, Game, Options, Player, Rules, Visibility};

fn kind(name: &str) -> u8 {
    kind_named(name).unwrap_or(u8::MAX)
}

/// A map with the expansion (these tokens on the stack, top first) and the start tile D.
fn bigtop(players: usize, tokens: &[Animal]) -> Map {
    let mut m = Map::with_big_top(players, tokens.to_vec());
    put(&mut m, "D", 0, 0, 0);
    m
}

fn put(m: &mut Map, name: &str, x: i32, y: i32, degrees: u16) -> usize {
    match m.put_named(name, x, y, degrees) {
        Ok(i) => i,
        Err(e) => panic!("{name} at ({x},{y}) {degrees}: {e}"),
    }
}

fn figure(m: &mut Map, seat: usize, tile: usize, part: u8, figure: Figure) {
    if let Err(e) = m.place_figure(seat, tile, part, figure) {
        panic!("figure refused: {e}");
    }
}

fn acrobat(m: &mut Map, seat: usize, tile: usize, x: i32, y: i32) {
    if let Err(e) = m.add_acrobat(seat, tile, x, y) {
        panic!("acrobat refused: {e}");
    }
}

fn play(m: &mut Match, x: i32, y: i32, degrees: u16, choice: Choice) -> Vec<Happening> {
    let mut out = match m.place(x, y, (degrees / 90) as u8) {
        Ok(h) => h,
        Err(e) => panic!("placing at ({x},{y}) {degrees}: {e}"),
    };
    if matches!(m.stage(), Stage::Follower(_)) {
        match m.choose(choice) {
            Ok(h) => out.extend(h),
            Err(e) => panic!("{choice:?}: {e}"),
        }
    }
    out
}

fn texts(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.visibility == Visibility::Public)
        .map(|e| e.text.clone())
        .collect()
}

fn ctx_dice() -> Dice {
    Dice::new(Seed([7; 32]))
}

fn names() -> (Vec<String>, Vec<String>) {
    (
        vec!["ann".to_string(), "bob".to_string()],
        vec!["red".to_string(), "blue".to_string()],
    )
}

const ANIMALS: [&str; 6] = ["elephant", "tiger", "bear", "seal", "monkey", "flea"];

#[test]
fn the_first_circus_tile_raises_the_big_top_over_a_token_nobody_can_see() {
    // Worked example: "You place the first Circus tile and place a meeple on the road. Then you
    // put a facedown Animal token on the circus space and place the Big Top on the token."
    let (names, colours) = names();
    let deck = vec![kind("BT3"), kind("U"), kind("U")];
    let tokens = vec![Animal::Seal, Animal::Tiger];
    let (mut game, _) = Carcassonne::start_with(names, colours, deck, Some(tokens));
    let mut dice = ctx_dice();
    let mut ctx = Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let placed = game.act(0, "place", "1 0 0", &mut ctx);
    let Ok(placed) = placed else {
        panic!("{placed:?}");
    };
    assert_eq!(
        texts(&placed),
        vec!["ann places circus tile 3 at (1,0) turned 0. Features of the new tile: `a` (the road to the west), `b` (the road to the east), `c` (the field to the north), `d` (the field to the south). Choose a meeple with `!meeple <feature>`; your ringmaster with `!ringmaster <feature>`; or `!pass`."]
    );
    let refused = game.act(0, "meeple", "circus", &mut ctx);
    assert!(refused.is_err_and(|r| r.0.starts_with("no follower may stand on the circus space")));
    let events = game.act(0, "meeple", "road-w", &mut ctx);
    let Ok(events) = events else {
        panic!("{events:?}");
    };
    let public = texts(&events);
    assert_eq!(public[0], "ann puts a thief on the road to the west (a).");
    assert_eq!(
        public[1],
        "The Big Top stands on the circus tile at (1,0) now, over a face-down animal token (15 left in the box)."
    );
    let sealed: Vec<&Event> = events
        .iter()
        .filter(|e| e.visibility == Visibility::Sealed)
        .collect();
    assert_eq!(sealed.len(), 1);
    assert_eq!(
        sealed[0].text,
        "The face-down token under the Big Top at (1,0) is a seal (4 points per meeple)."
    );
    let board = game.board();
    let svg = board.svg.unwrap_or_default();
    for animal in ANIMALS {
        assert!(
            public.iter().all(|t| !t.contains(animal)),
            "{animal} in {public:?}"
        );
        assert!(!board.text.contains(animal) && !svg.contains(animal));
        assert!(!game.private_status(0).contains(animal));
    }
    assert!(board
        .text
        .contains("Big Top: at (1,0) over a face-down token; 15 left in the box"));
    assert!(board.text.contains("Tokens revealed: none yet"));
}

/// The Big Top (a seal under it) on BT3 at (1,0); Blue's thief on D's road, which runs into
/// it; Red's thief, monk and farmer and Blue's monk on tiles around it.
fn circus_position() -> Match {
    let mut m = bigtop(2, &[Animal::Seal, Animal::Bear]);
    let circus = put(&mut m, "BT3", 1, 0, 0);
    assert!(m.raise_big_top(circus).is_some());
    figure(&mut m, 1, 0, 1, Figure::Meeple); // Blue's thief on D's road, at (0,0)
    let u = put(&mut m, "U", 2, 0, 0);
    figure(&mut m, 0, u, 0, Figure::Meeple); // Red's thief
    let b = put(&mut m, "B", 1, 1, 0);
    figure(&mut m, 0, b, 1, Figure::Meeple); // Red's monk
    let e = put(&mut m, "E", 1, -1, 0);
    figure(&mut m, 0, e, 1, Figure::Meeple); // Red's farmer
    let b2 = put(&mut m, "B", 2, 1, 0);
    figure(&mut m, 1, b2, 1, Figure::Meeple); // Blue's monk
    let (m, _) = Match::from_map(m, vec![kind("BT1"), kind("U")], 0);
    m
}

#[test]
fn a_later_circus_tile_scores_the_road_it_completes_then_the_circus_then_moves_the_big_top() {
    // Worked examples 1) to 3): "Red places a new Circus tile, which completes Blue's road.
    // Blue scores 3 points and takes her meeple back." "The seal is worth 4 points per meeple.
    // Since Red has three meeples on tiles surrounding the Big Top, Red scores 12 points, and
    // Blue scores 4 points." Then a new token goes face down under the Big Top on the new tile.
    let mut m = circus_position();
    let happened = play(&mut m, -1, 0, 270, Choice::Pass);
    let order: Vec<&Happening> = happened
        .iter()
        .filter(|h| {
            matches!(
                h,
                Happening::Scored(_) | Happening::Circus(_) | Happening::BigTop(..)
            )
        })
        .collect();
    let [Happening::Scored(road), Happening::Circus(circus), Happening::BigTop(at, token)] =
        order.as_slice()
    else {
        panic!("features, then the circus, then the move: {happened:?}");
    };
    assert_eq!((road.kind, road.size, road.points), (Kind::Road, 3, 3));
    assert_eq!(road.winners.to_vec(), vec![1]);
    assert_eq!(
        circus,
        &Show {
            kind: ShowKind::Circus(Animal::Seal),
            at: (1, 0),
            meeples: vec![3, 1],
            points: vec![12, 4],
        },
        "Blue's thief went home before the circus was scored"
    );
    assert_eq!((*at, *token), ((-1, 0), Some(Animal::Bear)));
    assert_eq!(m.map.scores(), &[12, 3 + 4]);
    let c = m
        .map
        .circus()
        .map(|c| (c.revealed().to_vec(), c.big_top().map(|b| b.at)));
    assert_eq!(c, Some((vec![Animal::Seal], Some((-1, 0)))));
}

#[test]
fn circus_meeples_stay_on_the_board() {
    let mut m = circus_position();
    play(&mut m, -1, 0, 270, Choice::Pass);
    let mut on_map: Vec<(usize, (i32, i32))> = m
        .map
        .followers()
        .iter()
        .map(|f| (f.seat, (m.map.tiles()[f.tile].x, m.map.tiles()[f.tile].y)))
        .collect();
    on_map.sort();
    assert_eq!(
        on_map,
        vec![(0, (1, -1)), (0, (1, 1)), (0, (2, 0)), (1, (2, 1))]
    );
    assert_eq!(m.map.supply(), &[4, 6], "only the road's thief went home");
}

#[test]
fn the_ringmaster_earns_two_per_circus_and_acrobat_tile_after_its_road() {
    // Worked example: "Red completes the road that their ringmaster is on. First, Red scores 5
    // points for the road. Then Red scores 8 points for the 4 Circus and Acrobat tiles."
    let mut m = bigtop(2, &animal_tokens());
    figure(&mut m, 0, 0, 1, Figure::Ringmaster); // on D's road
    put(&mut m, "BT1", -1, 0, 270); // the road ends at its circus space
    put(&mut m, "AC1", 0, 1, 0);
    put(&mut m, "AC1", 1, 1, 0);
    put(&mut m, "BT1", -1, 1, 0);
    put(&mut m, "U", 1, 0, 0);
    put(&mut m, "U", 2, 0, 0);
    let (mut m, _) = Match::from_map(m, vec![kind("AC2"), kind("U")], 0);
    let happened = play(&mut m, 3, 0, 90, Choice::Pass);
    let Some(Happening::Scored(road)) = happened.iter().find(|h| matches!(h, Happening::Scored(_)))
    else {
        panic!("{happened:?}");
    };
    assert_eq!((road.kind, road.size, road.points), (Kind::Road, 5, 5));
    assert_eq!(road.ringmasters.len(), 1);
    assert_eq!(
        (road.ringmasters[0].tiles, road.ringmasters[0].points),
        (4, 8)
    );
    assert_eq!(m.map.scores(), &[13, 0], "5 for the road plus 8");
    assert!(m.map.circus().is_some_and(|c| c.ringmaster_home(0)));
    assert!(m.map.followers().is_empty());
}

#[test]
fn the_ringmaster_scores_two_per_tile_without_the_majority() {
    let mut m = bigtop(2, &animal_tokens());
    figure(&mut m, 0, 0, 1, Figure::Ringmaster); // Red's ringmaster on D's road
    put(&mut m, "BT1", -1, 0, 270);
    put(&mut m, "AC1", 0, 1, 0);
    put(&mut m, "AC1", 1, 1, 0);
    put(&mut m, "AC1", 2, 1, 0);
    let u = put(&mut m, "U", 2, 0, 0);
    figure(&mut m, 1, u, 0, Figure::Meeple); // Blue's first thief
    put(&mut m, "AC1", 3, 1, 0);
    put(&mut m, "AC1", 4, 1, 0);
    let u = put(&mut m, "U", 4, 0, 0);
    figure(&mut m, 1, u, 0, Figure::Meeple); // Blue's second thief
    put(&mut m, "AC2", 5, 0, 90);
    put(&mut m, "U", 3, 0, 0); // Blue's two pieces join
    let (mut m, _) = Match::from_map(m, vec![kind("U"), kind("U")], 0);
    let happened = play(&mut m, 1, 0, 0, Choice::Pass);
    let Some(Happening::Scored(road)) = happened.iter().find(|h| matches!(h, Happening::Scored(_)))
    else {
        panic!("{happened:?}");
    };
    assert_eq!(
        road.winners.to_vec(),
        vec![1],
        "two thieves beat one ringmaster"
    );
    assert_eq!(road.points, 7);
    assert_eq!(
        (road.ringmasters[0].seat, road.ringmasters[0].points),
        (0, 6)
    );
    assert_eq!(m.map.scores(), &[6, 7]);
}

#[test]
fn a_road_ended_by_a_circus_space_is_complete_and_the_other_side_is_another_road() {
    let mut m = bigtop(2, &animal_tokens());
    figure(&mut m, 1, 0, 1, Figure::Meeple); // Blue's thief on D's road
    let (mut m, _) = Match::from_map(m, vec![kind("BT3"), kind("AC2"), kind("U")], 0);
    assert!(m.place(1, 0, 0).is_ok());
    let choices = m.choices();
    assert_eq!(
        choices.meeple,
        vec![1, 2, 3],
        "road-w joins Blue's road; road-e is a road of its own"
    );
    assert!(m.choose(Choice::Meeple(1)).is_ok()); // Red's thief on BT3's road-e
    let happened = play(&mut m, -1, 0, 270, Choice::Pass); // Blue closes the west end
    let scored: Vec<_> = happened
        .iter()
        .filter_map(|h| match h {
            Happening::Scored(s) => Some((s.kind, s.size, s.points, s.winners.to_vec())),
            _ => None,
        })
        .collect();
    assert_eq!(scored, vec![(Kind::Road, 3, 3, vec![1])]);
    assert_eq!(m.map.scores(), &[0, 3]);
    assert_eq!(m.map.followers().len(), 1, "Red's thief on road-e stays");
}

#[test]
fn an_acrobat_space_splits_the_fields_and_ends_the_roads_around_it() {
    let mut m = bigtop(2, &animal_tokens());
    figure(&mut m, 0, 0, 3, Figure::Meeple); // Red's farmer on D's south field
    let (mut m, _) = Match::from_map(m, vec![kind("AC4"), kind("U")], 1);
    assert!(m.place(0, 1, 1).is_ok()); // roads east and west, fields north and south
    let Stage::Follower(tile) = m.stage() else {
        panic!("a choice is awaited");
    };
    let shape = m.map.tiles()[tile].shape();
    let named: Vec<String> = m
        .choices()
        .meeple
        .iter()
        .map(|&p| referee::games::carcassonne::parse::part_name(shape, usize::from(p)))
        .collect();
    assert_eq!(
        named,
        vec!["road-w", "road-e", "field-se"],
        "two roads that end at the space; the north field joins Red's farmer, the south one is a field of its own"
    );
    assert!(m.choose(Choice::Meeple(2)).is_ok());
    let fields: Vec<u32> = m
        .map
        .followers()
        .iter()
        .map(|f| m.map.feature_of(f))
        .collect();
    assert_ne!(fields[0], fields[1]);
}

#[test]
fn an_acrobat_goes_on_a_neighbouring_acrobat_tile_and_nowhere_else() {
    let mut m = bigtop(2, &animal_tokens());
    put(&mut m, "AC1", 0, 1, 0);
    put(&mut m, "AC1", -1, 1, 0);
    let (mut m, _) = Match::from_map(m, vec![kind("U"), kind("U")], 0);
    assert!(m.place(1, 0, 0).is_ok());
    assert_eq!(
        m.choices().acrobats,
        vec![(0, 1)],
        "diagonal neighbour only"
    );
    let far = m.choose(Choice::Acrobat(-1, 1)).map_err(|e| e.to_string());
    assert_eq!(
        far.err().as_deref(),
        Some("an acrobat goes on the tile just placed or an acrobat tile next to it, and (-1,1) is farther away")
    );
    let not = m.choose(Choice::Acrobat(0, 0)).map_err(|e| e.to_string());
    assert_eq!(
        not.err().as_deref(),
        Some("(0,0) holds no acrobat tile; an acrobat goes on the tile just placed or an acrobat tile next to it")
    );
    let happened = m.choose(Choice::Acrobat(0, 1));
    assert!(happened.is_ok_and(|h| h.contains(&Happening::Acrobat(0, 0, 1, 1))));
    assert_eq!(m.map.supply(), &[6, 7]);
    assert_eq!(m.map.acrobats_of(0), 1);
}

#[test]
fn a_ringmaster_is_never_an_acrobat() {
    let mut m = bigtop(2, &animal_tokens());
    let ac = put(&mut m, "AC1", 0, 1, 0);
    for _ in 0..3 {
        acrobat(&mut m, 0, ac, 0, 1);
    }
    let more = put(&mut m, "AC1", 1, 1, 0);
    for _ in 0..3 {
        acrobat(&mut m, 0, more, 1, 1);
    }
    figure(&mut m, 0, 0, 0, Figure::Meeple); // the seventh meeple, a knight on D
    let (mut m, _) = Match::from_map(m, vec![kind("AC1"), kind("U")], 0);
    assert!(m.place(-1, 1, 0).is_ok());
    let refused = m.choose(Choice::Acrobat(-1, 1)).map_err(|e| e.to_string());
    assert_eq!(
        refused.err().as_deref(),
        Some("you have no meeple in your supply to place as an acrobat (a ringmaster is never an acrobat)")
    );
    assert!(m.choices().acrobats.is_empty());
    assert!(!m.choices().ringmaster.is_empty());
}

#[test]
fn a_pyramid_of_three_colours_is_scored_by_a_player_with_no_acrobat_and_an_empty_supply() {
    let mut m = bigtop(4, &animal_tokens());
    let left = put(&mut m, "AC1", 0, 1, 0);
    let mid = put(&mut m, "AC1", 1, 1, 0);
    let right = put(&mut m, "AC1", 2, 1, 0);
    for seat in 0..3 {
        acrobat(&mut m, seat, mid, 1, 1); // red, blue, green
    }
    for _ in 0..3 {
        acrobat(&mut m, 3, left, 0, 1);
        acrobat(&mut m, 3, right, 2, 1);
    }
    figure(&mut m, 3, 0, 3, Figure::Meeple); // Yellow's seventh meeple
    figure(&mut m, 3, 0, 1, Figure::Ringmaster);
    assert_eq!(m.supply()[3], 0);
    let (mut m, _) = Match::from_map(m, vec![kind("U"), kind("U"), kind("U")], 3);
    assert!(m.place(1, 0, 0).is_ok());
    let choices = m.choices();
    assert!(choices.meeple.is_empty() && choices.ringmaster.is_empty());
    assert_eq!(choices.pyramids, vec![(0, 1), (1, 1), (2, 1)]);
    let happened = m.choose(Choice::Pyramid(1, 1));
    let Ok(happened) = happened else {
        panic!("{happened:?}");
    };
    assert!(happened.contains(&Happening::Pyramid(Show {
        kind: ShowKind::Pyramid { by: 3 },
        at: (1, 1),
        meeples: vec![1, 1, 1, 0],
        points: vec![5, 5, 5, 0],
    })));
    assert_eq!(m.map.scores(), &[5, 5, 5, 0]);
    assert_eq!(m.map.supply(), &[7, 7, 7, 0]);
    // A new pyramid starts on the same tile.
    assert_eq!(m.seat(), 0);
    let happened = play(&mut m, 1, 2, 0, Choice::Acrobat(1, 1));
    assert!(happened.contains(&Happening::Acrobat(0, 1, 1, 1)));
}

#[test]
fn a_lone_acrobat_scores_five_at_the_end() {
    let mut m = bigtop(2, &animal_tokens());
    let ac = put(&mut m, "AC1", 0, 1, 0);
    acrobat(&mut m, 1, ac, 0, 1);
    let (m, happened) = Match::from_map(m, Vec::new(), 0);
    let [Happening::Ended(Finale {
        circus: None,
        features,
        acrobats,
    })] = happened.as_slice()
    else {
        panic!("{happened:?}");
    };
    assert!(features.is_empty());
    assert_eq!(
        acrobats,
        &vec![Show {
            kind: ShowKind::Acrobats,
            at: (0, 1),
            meeples: vec![0, 1],
            points: vec![0, 5],
        }]
    );
    assert_eq!(m.map.scores(), &[0, 5]);
}

#[test]
fn the_circus_is_scored_one_last_time_before_final_scoring() {
    let mut m = bigtop(2, &[Animal::Tiger]);
    let circus = put(&mut m, "BT1", -1, 0, 270); // its road ends D's road on the west
    assert!(m.raise_big_top(circus).is_some());
    figure(&mut m, 0, 0, 1, Figure::Ringmaster); // Red's ringmaster on the unfinished road
    figure(&mut m, 1, 0, 3, Figure::Meeple); // Blue's farmer south of D
    let (m, happened) = Match::from_map(m, Vec::new(), 0);
    let [Happening::Ended(finale)] = happened.as_slice() else {
        panic!("{happened:?}");
    };
    assert_eq!(
        finale.circus,
        Some(Show {
            kind: ShowKind::Circus(Animal::Tiger),
            at: (-1, 0),
            meeples: vec![1, 1],
            points: vec![6, 6],
        })
    );
    let road = finale.features.iter().find(|s| s.kind == Kind::Road);
    let Some(road) = road else {
        panic!("{finale:?}");
    };
    assert_eq!((road.points, road.winners.to_vec()), (2, vec![0]));
    assert_eq!(
        road.ringmasters[0].points, 2,
        "the ringmaster's bonus at the end: one circus tile next to it"
    );
    assert_eq!(m.map.scores(), &[6 + 2 + 2, 6]);
    assert_eq!(
        m.map.circus().map(|c| c.revealed().to_vec()),
        Some(vec![Animal::Tiger])
    );
}

#[test]
fn the_expansion_commands_are_offered_refused_with_reasons_and_played() {
    let (names, colours) = names();
    let deck = vec![kind("AC2"), kind("BT1"), kind("U"), kind("U")];
    let (mut game, _) = Carcassonne::start_with(names, colours, deck, Some(animal_tokens()));
    let mut dice = ctx_dice();
    let mut ctx = Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let placed = game.act(0, "place", "0 1 0", &mut ctx).map(|e| texts(&e));
    assert_eq!(
        placed,
        Ok(vec!["ann places acrobat tile 2 at (0,1) turned 0. Features of the new tile: `a` (the road to the south), `b` (the field all round). Choose a meeple with `!meeple <feature>`; your ringmaster with `!ringmaster <feature>`; an acrobat with `!acrobat <x> <y>` at (0,1); or `!pass`.".to_string()])
    );
    let refused = game.act(0, "acrobat", "5 5", &mut ctx);
    assert!(refused.is_err_and(|r| r.0
        == "(5,5) holds no acrobat tile; an acrobat goes on the tile just placed or an acrobat tile next to it"));
    let refused = game.act(0, "pyramid", "0 1", &mut ctx);
    assert!(refused.is_err_and(|r| {
        r.0
        == "there is no completed pyramid at (0,1); a pyramid can be scored once it has 3 acrobats"
    }));
    let done = game.act(0, "acrobat", "0 1", &mut ctx).map(|e| texts(&e));
    let Ok(done) = done else {
        panic!("{done:?}");
    };
    assert_eq!(
        done[0],
        "ann puts an acrobat on the acrobat tile at (0,1): 1 of 3."
    );
    assert!(done[1].starts_with("bob's turn: circus tile 1 is drawn"));
    assert!(
        done[1].contains("Answer `!place <x> <y> <rotation>`, then `!meeple <feature>`, `!ringmaster <feature>`, `!acrobat <x> <y>`, `!pyramid <x> <y>` or `!pass` (or both in one line: `!place "),
        "{}",
        done[1]
    );
    let played = game
        .act(1, "place", "1 0 90 ringmaster road-w", &mut ctx)
        .map(|e| texts(&e));
    let Ok(played) = played else {
        panic!("{played:?}");
    };
    assert!(played.contains(&"bob puts the ringmaster on the road to the west (a).".to_string()));
    let refused = game.act(0, "place", "-1 0 0 ringmaster road", &mut ctx);
    assert!(refused.is_err_and(|r| r.0
        == "that road already holds a follower further along the map; you may `!pass` instead"));
    let board = game.board();
    assert!(board
        .text
        .contains("ann (red): 0 points, 6 followers left, ringmaster in supply, 1 acrobat"));
    assert!(board
        .text
        .contains("bob (blue): 0 points, 7 followers left, ringmaster on the map, 0 acrobats"));
    assert!(board.text.contains("Acrobats: (0,1) red"));
    let svg = board.svg.unwrap_or_default();
    assert!(svg.contains("Big Top tokens revealed: none yet (15 face down in the box)"));
}

#[test]
fn bigtop_off_plays_the_base_game_and_bigtop_on_seats_six() {
    let players: Vec<Player> = (0..6)
        .map(|seat| Player::person(seat, format!("p{seat}")))
        .collect();
    let mut dice = ctx_dice();
    let mut ctx = Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
        revision: Ctx::NEWEST,
    };
    let off = Options::from([("bigtop".to_string(), "off".to_string())]);
    let refused = CARCASSONNE_RULES.setup(&off, &players, &mut ctx);
    assert!(refused
        .is_err_and(|r| r.0
            == "carcassonne without Under the Big Top (bigtop=off) needs 2 to 5 players, not 6"));
    let Ok((game, events)) = CARCASSONNE_RULES.setup(&Options::new(), &players, &mut ctx) else {
        panic!("six players with the expansion");
    };
    assert!(events[0]
        .text
        .starts_with("Carcassonne with Under the Big Top begins: p0 (red), p1 (blue), p2 (green), p3 (yellow), p4 (black), p5 (grey)."));
    assert!(game
        .board()
        .text
        .contains("p5 (grey): 0 points, 7 followers left, ringmaster in supply"));
    let Ok((base, _)) = CARCASSONNE_RULES.setup(&off, &players[..2], &mut ctx) else {
        panic!("the base game for two");
    };
    assert!(!base.board().text.contains("ringmaster"));
    assert!(!base.board().text.contains("Big Top"));
    let (names, colours) = names();
    let (mut base, _) = Carcassonne::start(names, colours, vec![kind("U"), kind("U")]);
    assert!(base.act(0, "place", "1 0 0", &mut ctx).is_ok());
    assert!(base.act(0, "ringmaster", "road", &mut ctx).is_err_and(|r| r.0
        == "this game is played without Under the Big Top (bigtop=off), so it has no ringmasters; you may `!pass` instead"));
    assert!(base
        .act(0, "acrobat", "1 0", &mut ctx)
        .is_err_and(|r| r.0
            == "this game is played without Under the Big Top (bigtop=off): it has no acrobats"));
}

#[test]
fn the_token_stays_out_of_the_public_log_until_it_is_revealed() {
    let transcript = common::transcript_with_clock(
        &[
            "ann #top: !new carcassonne seed=11",
            "ann #top: !join",
            "bob #top: !join",
            "ann #top: !start",
        ],
        "clock +24h",
        95,
        &["ann #top: !log"],
    );
    let dir = tempfile::tempdir().unwrap();
    let (db, out) = common::script_on_file(dir.path(), "top.db", &transcript);
    assert_says(
        &out,
        &[
            "Carcassonne with Under the Big Top begins",
            "over a face-down animal token",
        ],
    );
    assert!(out.contains("is revealed: a "), "a circus was scored");
    assert!(out.contains("#top <- Final ranking:"));
    assert!(!out.contains("face-down token under the Big Top at"));
    assert!(!out.contains("for the animal token under the Big Top"));
    // The first reveal shows the roll that drew the token: the r-th of the 16 in the box.
    let reveal = out
        .lines()
        .find(|l| l.contains("is revealed: a "))
        .unwrap_or_default();
    let animal = reveal
        .split("is revealed: a ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_default();
    let roll: usize = reveal
        .split("shown now: d16 = ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!((1..=16).contains(&roll), "{reveal}");
    assert_eq!(animal_tokens()[roll - 1].word(), animal, "{reveal}");
    let log = out.split("ann #top: !log").last().unwrap_or_default();
    assert!(log.contains(&format!("shown now: d16 = {roll},")), "{log}");
    let public = common::export_file(&db, false);
    assert!(!public.contains("face-down token under the Big Top at"));
    assert!(!public.contains("for the animal token under the Big Top"));
    let secret = common::export_file(&db, true);
    assert!(secret.contains(&format!(
        "roll d16 for the animal token under the Big Top: {roll}"
    )));
    assert!(secret.contains("face-down token under the Big Top at"));
    common::replay_file(&db, "1");
}

#[test]
fn a_ringmaster_in_a_field_earns_its_bonus_at_the_end() {
    let mut m = bigtop(2, &animal_tokens());
    put(&mut m, "E", 0, -1, 180); // closes D's city
    figure(&mut m, 0, 0, 2, Figure::Ringmaster); // Red's ringmaster in the field along D's city
    put(&mut m, "AC1", 0, 1, 0);
    let (m, happened) = Match::from_map(m, Vec::new(), 0);
    let [Happening::Ended(finale)] = happened.as_slice() else {
        panic!("{happened:?}");
    };
    let [field] = finale.features.as_slice() else {
        panic!("{finale:?}");
    };
    assert_eq!((field.kind, field.points), (Kind::Field, 3));
    assert_eq!(
        (field.ringmasters[0].tiles, field.ringmasters[0].points),
        (1, 2)
    );
    assert_eq!(m.map.scores(), &[5, 0]);
}
