//! Hand-checked scoring positions for Carcassonne, built with `Map::with_tiles`
//! (letter, x, y, degrees clockwise; x east, y south).

use referee::games::carcassonne::act::{Happening, Match, MoveError, Stage};
use referee::games::carcassonne::map::{FollowerError, Map};
use referee::games::carcassonne::tiles::{kind_of_letter, Kind};
use referee::games::carcassonne::Carcassonne;
use referee::games::Game;

fn map(players: usize, tiles: &[(char, i32, i32, u16)]) -> Map {
    match Map::with_tiles(players, tiles) {
        Ok(m) => m,
        Err(e) => panic!("test position is illegal: {e}"),
    }
}

fn kind(letter: char) -> u8 {
    kind_of_letter(letter).unwrap_or(u8::MAX)
}

/// Places the tile and returns its index.
fn put(m: &mut Map, letter: char, x: i32, y: i32, degrees: u16) -> usize {
    match m.place(kind(letter), x, y, (degrees / 90) as u8) {
        Ok(i) => i,
        Err(e) => panic!("{letter} at ({x},{y}) {degrees}: {e}"),
    }
}

fn follow(m: &mut Map, seat: usize, tile: usize, part: u8) {
    if let Err(e) = m.follow(seat, tile, part) {
        panic!("follower refused: {e}");
    }
}

#[test]
fn a_road_closed_by_two_crossings_scores_one_per_tile() {
    // Start tile D (road west-east) between two T-junctions W.
    let mut m = map(2, &[('D', 0, 0, 0), ('W', 1, 0, 0)]);
    follow(&mut m, 0, 0, 1); // thief on D's road
    let last = put(&mut m, 'W', -1, 0, 0);
    let scored = m.score_completed(last);
    assert_eq!(scored.len(), 1);
    assert_eq!(
        (scored[0].kind, scored[0].points, scored[0].size),
        (Kind::Road, 3, 3)
    );
    assert_eq!(m.scores(), &[3, 0]);
    assert_eq!(m.supply(), &[7, 7], "the thief went home");
    assert!(m.followers().is_empty());
}

#[test]
fn a_city_with_two_pennants_scores_two_per_tile_and_two_per_pennant() {
    // D's city cap, M (pennant, south+east), F (pennant, west-east), E cap facing west.
    let mut m = map(2, &[('D', 0, 0, 0), ('M', 0, -1, 180), ('F', 1, -1, 0)]);
    follow(&mut m, 1, 0, 0); // knight on D's city
    let last = put(&mut m, 'E', 2, -1, 270);
    let scored = m.score_completed(last);
    assert_eq!(scored.len(), 1);
    assert_eq!(scored[0].size, 4);
    assert_eq!(scored[0].points, 4 * 2 + 2 * 2);
    assert_eq!(m.scores(), &[0, 12]);
    assert_eq!(m.supply(), &[7, 7]);
}

/// D's city (a knight of `d_seat`), then U, U east, an E cap at (2,-1) (a knight of `e_seat`).
fn two_cities(d_seat: usize, e_seat: usize) -> Map {
    let mut m = map(
        2,
        &[
            ('D', 0, 0, 0),
            ('N', 0, -1, 180),
            ('U', 1, 0, 0),
            ('U', 2, 0, 0),
        ],
    );
    follow(&mut m, d_seat, 0, 0);
    let e = put(&mut m, 'E', 2, -1, 270);
    follow(&mut m, e_seat, e, 0);
    m
}

#[test]
fn a_shared_city_pays_both_players_in_full() {
    let mut m = two_cities(0, 1);
    let last = put(&mut m, 'G', 1, -1, 0);
    let scored = m.score_completed(last);
    assert_eq!(scored.len(), 1);
    assert_eq!(scored[0].winners.to_vec(), vec![0, 1]);
    assert_eq!(m.scores(), &[8, 8], "4 tiles, no pennant, 8 each");
    assert_eq!(m.supply(), &[7, 7]);
}

#[test]
fn two_knights_beat_one() {
    // Red's knights on D's city and on the cap at (2,-1); Blue's on the cap at (-1,-1).
    let mut m = map(
        2,
        &[
            ('D', 0, 0, 0),
            ('U', 1, 0, 0),
            ('U', 2, 0, 0),
            ('U', -1, 0, 0),
        ],
    );
    follow(&mut m, 0, 0, 0);
    let b = put(&mut m, 'E', 2, -1, 270);
    follow(&mut m, 0, b, 0);
    let c = put(&mut m, 'E', -1, -1, 90);
    follow(&mut m, 1, c, 0);
    let r = put(&mut m, 'R', 0, -1, 180); // joins D's city and Blue's cap
    assert!(m.score_completed(r).is_empty());
    let last = put(&mut m, 'G', 1, -1, 0);
    let scored = m.score_completed(last);
    assert_eq!(scored.len(), 1);
    assert_eq!(scored[0].winners.to_vec(), vec![0]);
    assert_eq!(
        m.scores(),
        &[10, 0],
        "5 tiles: 10 points to the majority only"
    );
    assert_eq!(m.supply(), &[7, 7], "the loser's knight goes home too");
}

#[test]
fn a_completed_monastery_scores_nine_and_an_unfinished_one_counts_its_tiles() {
    let mut m = map(2, &[('D', 0, 0, 0)]);
    let monk = put(&mut m, 'B', 0, 1, 0);
    follow(&mut m, 0, monk, 1); // the monk (part 0 is the field)
    put(&mut m, 'U', -1, 0, 0);
    put(&mut m, 'U', 1, 0, 0);
    let other = put(&mut m, 'B', -1, 1, 0);
    follow(&mut m, 1, other, 1); // B: field is part 0, monastery part 1
    follow_check_kind(&m, other);
    for (x, y) in [(1, 1), (-1, 2), (0, 2)] {
        let t = put(&mut m, 'B', x, y, 0);
        assert!(m.score_completed(t).iter().all(|s| s.winners.is_empty()));
    }
    let last = put(&mut m, 'B', 1, 2, 0);
    let scored = m.score_completed(last);
    assert_eq!(
        scored.len(),
        1,
        "{:?} {:?} {:?}",
        m.followers(),
        m.history(),
        m.tiles()
    );
    assert_eq!((scored[0].kind, scored[0].points), (Kind::Monastery, 9));
    assert_eq!(m.scores(), &[9, 0]);
    assert_eq!(m.supply(), &[7, 6]);
    let finals = m.final_scoring();
    assert_eq!(
        finals.len(),
        1,
        "{:?} {:?} {:?}",
        finals,
        m.followers(),
        scored
    );
    assert_eq!((finals[0].kind, finals[0].points), (Kind::Monastery, 6));
    assert_eq!(m.scores(), &[9, 6]);
}

fn follow_check_kind(m: &Map, tile: usize) {
    let monk = m
        .followers()
        .iter()
        .find(|f| f.tile == tile)
        .map(|f| f.part);
    assert_eq!(monk, Some(1));
}

/// D, then I turned 180 below it (cities south and east), both closed by E caps, and an E at
/// (-1,1) whose city stays open. D's south field touches both closed cities and the open one.
fn fields() -> Map {
    map(
        2,
        &[
            ('D', 0, 0, 0),
            ('I', 0, 1, 180),
            ('E', 0, 2, 0),
            ('E', 1, 1, 270),
            ('E', -1, 1, 0),
        ],
    )
}

#[test]
fn a_field_scores_three_per_completed_city_only() {
    let mut m = fields();
    follow(&mut m, 0, 0, 3); // farmer on D's south field
    let finals = m.final_scoring();
    assert_eq!(finals.len(), 1);
    assert_eq!(
        (finals[0].kind, finals[0].size, finals[0].points),
        (Kind::Field, 2, 6)
    );
    assert_eq!(m.scores(), &[6, 0]);
    assert_eq!(m.supply(), &[6, 7], "farmers stay on the map");
}

#[test]
fn two_fields_touching_the_same_city_each_score_it() {
    let mut m = fields();
    follow(&mut m, 0, 0, 3);
    follow(&mut m, 1, 2, 1); // farmer on the field of the cap at (0,2)
    let finals = m.final_scoring();
    assert_eq!(finals.len(), 2);
    assert_eq!(m.scores(), &[6, 3]);
}

#[test]
fn a_road_loop_is_complete_and_counts_each_tile_once() {
    let mut m = map(2, &[('V', 0, 0, 270), ('V', 1, 0, 0), ('V', 1, 1, 90)]);
    follow(&mut m, 1, 0, 0);
    let last = put(&mut m, 'V', 0, 1, 180);
    let scored = m.score_completed(last);
    assert_eq!(scored.len(), 1);
    assert_eq!(
        (scored[0].kind, scored[0].size, scored[0].points),
        (Kind::Road, 4, 4)
    );
    assert_eq!(m.scores(), &[0, 4]);
}

#[test]
fn a_follower_on_a_feature_its_tile_just_completed_scores_and_comes_back() {
    let m = map(2, &[('D', 0, 0, 0)]);
    let (mut play, _) = Match::from_map(m, vec![kind('E'), kind('U')], 0);
    assert_eq!(play.stage(), Stage::Place(kind('E')));
    assert!(play.place(0, -1, 2).is_ok());
    let happened = play.finish(Some(0));
    let Ok(happened) = happened else {
        panic!("knight refused: {happened:?}");
    };
    assert!(happened.contains(&Happening::Followed(0, Kind::City, 0)));
    assert_eq!(play.map.scores(), &[4, 0]);
    assert_eq!(play.map.supply(), &[7, 7]);
    assert_eq!(play.seat(), 1);
}

#[test]
fn a_follower_is_refused_on_a_feature_occupied_further_along() {
    let mut m = map(2, &[('D', 0, 0, 0), ('N', 0, -1, 180)]);
    follow(&mut m, 1, 0, 0); // Blue's knight on D's city, joined through N
    let (mut play, _) = Match::from_map(m, vec![kind('G'), kind('U')], 0);
    assert!(play.place(1, -1, 0).is_ok());
    let refused = play.finish(Some(0));
    assert_eq!(
        refused,
        Err(MoveError::Follower(FollowerError::Occupied(Kind::City)))
    );
    assert_eq!(
        refused.map_err(|e| e.to_string()).err().as_deref(),
        Some("that city already holds a follower further along the map")
    );
    // A farmer on the free field north of G is still allowed.
    assert!(play.finish(Some(1)).is_ok());
}

#[test]
fn a_tile_that_fits_nowhere_is_discarded_and_another_drawn() {
    // The all-city tile C cannot touch the cap at (0,-1) or D anywhere.
    let m = map(2, &[('D', 0, 0, 0), ('E', 0, -1, 180)]);
    let (play, happened) = Match::from_map(m, vec![kind('C'), kind('U')], 0);
    assert_eq!(
        happened,
        vec![
            Happening::Discarded(kind('C')),
            Happening::Drew(0, kind('U'))
        ]
    );
    assert_eq!(play.discarded(), &[kind('C')]);
    assert_eq!(play.stage(), Stage::Place(kind('U')));
}

#[test]
fn a_mismatched_edge_is_refused_with_the_reason() {
    let names = vec!["Ann".to_string(), "Bob".to_string()];
    let colours = vec!["red".to_string(), "blue".to_string()];
    let (mut game, _) = Carcassonne::start(names, colours, vec![kind('E'), kind('U')]);
    let mut dice = referee::dice::Dice::new(referee::dice::Seed([1; 32]));
    let mut ctx = referee::games::Ctx {
        now: chrono::Utc::now(),
        dice: &mut dice,
        revision: referee::games::Ctx::NEWEST,
    };
    let refused = game.act(0, "place", "1 0 0", &mut ctx);
    assert_eq!(
        refused.map_err(|r| r.0).err().as_deref(),
        Some("the west edge is field but (0,0) shows a road there")
    );
    let refused = game.act(1, "place", "0 -1 180", &mut ctx);
    assert!(refused.is_err_and(|r| r.0 == "it is Ann's turn, not yours"));
    let ok = game.act(0, "place", "0 -1 180 meeple city", &mut ctx);
    let Ok(events) = ok else {
        panic!("{ok:?}");
    };
    let text: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("The completed city at (0,-1) (2 tiles): 4 points for Ann.")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.starts_with("Bob's turn: tile U is drawn")),
        "{text:?}"
    );
}
