//! The map: placed tiles on a grid (`grid.rs`: the cells, and the open spots with what each
//! needs), the features they form (a union-find over the tiles' feature segments, grown as each
//! tile is placed) and followers; scoring is in `scoring.rs`.
//!
//! Coordinates: x grows to the east, y to the south (as in JCZ); the start tile is at (0,0).
//! A feature counts each tile once, even when it passes through a tile twice.

use super::circus::{Animal, Circus};
use super::grid::{cell, Grid, STEPS};
use super::tiles::{facing_half, kind_named, shape_of, Edge, Kind, Shape, NONE};
use std::fmt;

pub use super::grid::{Placements, MAX_TILES, REACH};

/// Followers each player owns.
pub const FOLLOWERS: u8 = 7;

const DIRECTIONS: [&str; 4] = ["north", "east", "south", "west"];

/// A tile on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The kind index.
    pub kind: u8,
    /// Quarter turns clockwise.
    pub rot: u8,
    /// Column (east is positive).
    pub x: i32,
    /// Row (south is positive).
    pub y: i32,
    pub(super) base: u32,
    /// The tile's monastery part ([`NONE`] if it has none): scoring looks for monasteries
    /// around every placed tile.
    pub(super) monastery: u8,
}

impl Placed {
    /// The tile's shape in its rotation.
    pub fn shape(&self) -> &'static Shape {
        shape_of(self.kind, self.rot).unwrap_or_else(|| &super::tiles::shapes()[0])
    }
}

/// Which figure stands on a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// A meeple from the supply of seven.
    Meeple,
    /// The player's ringmaster (Under the Big Top): one follower for majorities, and 2 points
    /// per circus and acrobat tile around it whenever its feature is scored.
    Ringmaster,
}

/// A follower standing on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Follower {
    /// Its owner.
    pub seat: usize,
    /// The index of its tile in [`Map::tiles`].
    pub tile: usize,
    /// The feature of that tile it stands on.
    pub part: u8,
    /// A meeple or the ringmaster.
    pub figure: Figure,
}

/// One feature's totals, kept on its union-find root.
#[derive(Clone, Debug)]
pub(super) struct Feature {
    pub(super) kind: Kind,
    pub(super) open: u16,
    /// The tiles it covers (bit `i`: tile `i`), each counted once.
    pub(super) tiles: u128,
    /// The tile that names the feature's place in texts: the first tile of the larger side
    /// at every union.
    pub(super) first: u16,
    pub(super) pennants: u16,
    /// How many city segments its field segments touch, duplicates included: with the tiles,
    /// the weight that picks the surviving root at a union.
    pub(super) cities: u16,
    pub(super) followers: u8,
    pub(super) scored: bool,
}

impl Feature {
    /// How many tiles it covers.
    pub(super) fn size(&self) -> u32 {
        self.tiles.count_ones()
    }

    fn weight(&self) -> u32 {
        self.size() + u32::from(self.cities)
    }
}

/// Why a tile cannot go where it was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceError {
    /// The spot already holds a tile.
    Occupied(i32, i32),
    /// The spot is farther than any game can reach.
    OutOfReach(i32, i32),
    /// No tile touches the spot.
    Alone(i32, i32),
    /// The map holds [`MAX_TILES`] tiles already.
    Full,
    /// An edge does not match its neighbour.
    Mismatch {
        /// Which edge of the new tile (0 north .. 3 west).
        side: usize,
        /// What the new tile shows there.
        ours: Edge,
        /// The neighbour's spot.
        at: (i32, i32),
        /// What the neighbour shows there.
        theirs: Edge,
    },
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlaceError::Occupied(x, y) => write!(f, "({x},{y}) already holds a tile"),
            PlaceError::OutOfReach(x, y) => write!(f, "({x},{y}) is too far from the map"),
            PlaceError::Alone(x, y) => write!(f, "({x},{y}) touches no tile"),
            PlaceError::Full => write!(f, "the map holds {MAX_TILES} tiles, its most"),
            PlaceError::Mismatch {
                side,
                ours,
                at,
                theirs,
            } => write!(
                f,
                "the {} edge is {} but ({},{}) shows {} there",
                DIRECTIONS.get(*side).copied().unwrap_or("?"),
                ours.word().trim_start_matches("a "),
                at.0,
                at.1,
                theirs.word()
            ),
        }
    }
}

/// Why a follower cannot go on a feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FollowerError {
    /// The player has none left.
    NoneLeft,
    /// The feature, followed across the map, already holds a follower.
    Occupied(Kind),
    /// The tile has no such feature.
    NoSuchPart,
    /// The player's ringmaster already stands on the map.
    RingmasterAway,
    /// The game is played without Under the Big Top, so there are no ringmasters.
    NoRingmasters,
}

impl fmt::Display for FollowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FollowerError::NoneLeft => write!(f, "you have no follower left in your supply"),
            FollowerError::Occupied(kind) => write!(
                f,
                "that {} already holds a follower further along the map",
                kind.word()
            ),
            FollowerError::NoSuchPart => write!(f, "the tile has no such feature"),
            FollowerError::RingmasterAway => {
                write!(f, "your ringmaster already stands on the map")
            }
            FollowerError::NoRingmasters => write!(
                f,
                "this game is played without Under the Big Top (bigtop=off), so it has no ringmasters"
            ),
        }
    }
}

/// One scoring of one feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    /// What was scored.
    pub kind: Kind,
    /// The feature's identity (its union-find root, or the monastery's segment).
    pub feature: u32,
    /// Whether it was complete.
    pub complete: bool,
    /// Tiles in it (for a monastery: itself and its neighbours; for a field: completed cities).
    pub size: u32,
    /// Points to each winner.
    pub points: u32,
    /// The seats with the most followers on it (empty: nobody scored). A game seats at most 6,
    /// well within what [`Seats`] holds.
    pub winners: Seats,
    /// A tile of the feature, to say where it is.
    pub at: (i32, i32),
    /// The ringmasters on the feature and what each earned after the feature scored.
    pub ringmasters: Vec<RingmasterBonus>,
}

/// A set of seats (0 to 63), such as a scoring's winners: held in one word, so that scoring a
/// feature allocates nothing (random playouts score dozens of features a game).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Seats(u64);

impl Seats {
    /// How many seats a set can hold; a seat beyond is never in a set.
    pub const ROOM: usize = 64;

    /// The set with `seat` added (unchanged when `seat` is [`Seats::ROOM`] or more).
    pub fn with(self, seat: usize) -> Seats {
        match u32::try_from(seat).ok().and_then(|s| 1u64.checked_shl(s)) {
            Some(bit) => Seats(self.0 | bit),
            None => self,
        }
    }

    /// How many seats are in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in the set, lowest first.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            let seat = rest.trailing_zeros();
            rest &= rest.checked_sub(1)?;
            Some(seat as usize)
        })
    }

    /// The seats in the set, lowest first, as a list.
    pub fn to_vec(self) -> Vec<usize> {
        self.iter().collect()
    }
}

impl FromIterator<usize> for Seats {
    fn from_iter<I: IntoIterator<Item = usize>>(seats: I) -> Seats {
        seats.into_iter().fold(Seats::default(), Seats::with)
    }
}

impl fmt::Debug for Seats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A ringmaster's points when its feature is scored: 2 per circus and acrobat tile among its
/// tile and the 8 around, whoever won the feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RingmasterBonus {
    /// The ringmaster's owner.
    pub seat: usize,
    /// Where the ringmaster stands.
    pub at: (i32, i32),
    /// Circus and acrobat tiles among its tile and the 8 around.
    pub tiles: u32,
    /// The points (2 per tile).
    pub points: u32,
}

/// The map with its features, followers, supplies and scores.
#[derive(Clone, Debug)]
pub struct Map {
    pub(super) grid: Grid,
    pub(super) tiles: Vec<Placed>,
    pub(super) parent: Vec<u32>,
    pub(super) features: Vec<Feature>,
    pub(super) followers: Vec<Follower>,
    pub(super) supply: Vec<u8>,
    pub(super) scores: Vec<u32>,
    pub(super) history: Vec<Scored>,
    pub(super) circus: Option<Circus>,
}

impl Map {
    /// An empty map for `players` players (no start tile yet).
    pub fn new(players: usize) -> Map {
        Map {
            grid: Grid::new(),
            tiles: Vec::with_capacity(72),
            parent: Vec::with_capacity(300),
            features: Vec::with_capacity(300),
            // Room for every meeple and a ringmaster each (one more than the base game
            // needs), and for 64 scorings, reserved with the map: the followers' list never
            // grows, and the scorings' past 64 only.
            followers: Vec::with_capacity(players * (usize::from(FOLLOWERS) + 1)),
            supply: vec![FOLLOWERS; players],
            scores: vec![0; players],
            history: Vec::with_capacity(64),
            circus: None,
        }
    }

    /// An empty map for `players` players with Under the Big Top: the animal tokens in stack
    /// order (the top token first) and one ringmaster each.
    pub fn with_big_top(players: usize, tokens: Vec<Animal>) -> Map {
        let mut map = Map::new(players);
        map.circus = Some(Circus::new(players, tokens));
        map
    }

    /// A map with these tiles placed in order, each `(letter, x, y, degrees clockwise)`,
    /// every placement checked as in play (the first may go anywhere). For tests and examples.
    pub fn with_tiles(players: usize, tiles: &[(char, i32, i32, u16)]) -> Result<Map, PlaceError> {
        let mut map = Map::new(players);
        for &(letter, x, y, degrees) in tiles {
            map.put_named(&letter.to_string(), x, y, degrees)?;
        }
        Ok(map)
    }

    /// Places the tile named `name` (`D`, `BT3`) at (x,y) turned `degrees` clockwise, checked
    /// as in play; returns its index. For tests and examples.
    pub fn put_named(
        &mut self,
        name: &str,
        x: i32,
        y: i32,
        degrees: u16,
    ) -> Result<usize, PlaceError> {
        let kind = kind_named(name).ok_or(PlaceError::Alone(x, y))?;
        self.place(kind, x, y, (degrees / 90 % 4) as u8)
    }

    /// The tiles in the order they were placed.
    pub fn tiles(&self) -> &[Placed] {
        &self.tiles
    }

    /// The followers on the map.
    pub fn followers(&self) -> &[Follower] {
        &self.followers
    }

    /// Each seat's followers in supply.
    pub fn supply(&self) -> &[u8] {
        &self.supply
    }

    /// Each seat's points.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// Every scoring so far, in order.
    pub fn history(&self) -> &[Scored] {
        &self.history
    }

    /// The index of the tile at a spot.
    pub fn tile_at(&self, x: i32, y: i32) -> Option<usize> {
        self.grid.tile_at(x, y)
    }

    pub(super) fn placed_at(&self, x: i32, y: i32) -> Option<&Placed> {
        self.tile_at(x, y).and_then(|i| self.tiles.get(i))
    }

    /// Whether a tile of kind `kind` turned `rot` fits at (x,y).
    pub fn check(&self, kind: u8, x: i32, y: i32, rot: u8) -> Result<(), PlaceError> {
        // An open spot knows what its neighbours show: a fitting placement needs no more.
        if self.tiles.len() < MAX_TILES && self.grid.fits(kind, x, y, rot) == Some(true) {
            return Ok(());
        }
        self.check_side_by_side(kind, x, y, rot)
    }

    /// [`Map::check`] done edge by edge against each neighbour, without the open spots'
    /// table: what `check` falls back on to say why a placement is refused, and the reference
    /// the table is tested against.
    pub fn check_side_by_side(&self, kind: u8, x: i32, y: i32, rot: u8) -> Result<(), PlaceError> {
        if cell(x, y).is_none() {
            return Err(PlaceError::OutOfReach(x, y));
        }
        if self.tile_at(x, y).is_some() {
            return Err(PlaceError::Occupied(x, y));
        }
        if self.tiles.len() >= MAX_TILES {
            return Err(PlaceError::Full);
        }
        let Some(shape) = shape_of(kind, rot) else {
            return Err(PlaceError::Alone(x, y));
        };
        let mut touching = false;
        for (side, (dx, dy)) in STEPS.iter().enumerate() {
            if let Some(other) = self.placed_at(x + dx, y + dy) {
                touching = true;
                let theirs = other.shape().edges[(side + 2) % 4];
                if theirs != shape.edges[side] {
                    return Err(PlaceError::Mismatch {
                        side,
                        ours: shape.edges[side],
                        at: (x + dx, y + dy),
                        theirs,
                    });
                }
            }
        }
        if touching || self.tiles.is_empty() {
            Ok(())
        } else {
            Err(PlaceError::Alone(x, y))
        }
    }

    /// Every legal placement of kind `kind`, in reading order (row, column, rotation).
    pub fn legal(&self, kind: u8) -> Vec<(i32, i32, u8)> {
        let mut out = Placements::default();
        self.legal_into(kind, &mut out);
        out.iter().collect()
    }

    /// [`Map::legal`] written over `out`, whose room is kept: a playout that reuses one list
    /// allocates nothing per turn.
    pub fn legal_into(&self, kind: u8, out: &mut Placements) {
        if self.tiles.len() >= MAX_TILES {
            out.len = 0;
            return;
        }
        self.grid.legal_into(kind, out);
    }

    /// Whether kind `kind` fits anywhere.
    pub fn fits_somewhere(&self, kind: u8) -> bool {
        self.tiles.len() < MAX_TILES && self.grid.fits_anywhere(kind)
    }

    pub(super) fn find(&mut self, mut a: u32) -> u32 {
        while let Some(&p) = self.parent.get(a as usize) {
            if p == a {
                break;
            }
            let gp = self.parent.get(p as usize).copied().unwrap_or(p);
            if let Some(slot) = self.parent.get_mut(a as usize) {
                *slot = gp;
            }
            a = gp;
        }
        a
    }

    /// The feature (root) a segment belongs to, without compressing paths.
    pub fn root(&self, mut a: u32) -> u32 {
        while let Some(&p) = self.parent.get(a as usize) {
            if p == a {
                break;
            }
            a = p;
        }
        a
    }

    fn union(&mut self, a: u32, b: u32, edge: bool) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            if let Some(f) = self.features.get_mut(ra as usize) {
                if edge {
                    f.open = f.open.saturating_sub(2);
                }
            }
            return;
        }
        let (big, small) = match (
            self.features.get(ra as usize),
            self.features.get(rb as usize),
        ) {
            (Some(fa), Some(fb)) if fa.weight() < fb.weight() => (rb, ra),
            _ => (ra, rb),
        };
        let moved = match self.features.get_mut(small as usize) {
            Some(f) => std::mem::replace(
                f,
                Feature {
                    kind: f.kind,
                    open: 0,
                    tiles: 0,
                    first: f.first,
                    pennants: 0,
                    cities: 0,
                    followers: 0,
                    scored: false,
                },
            ),
            None => return,
        };
        if let Some(slot) = self.parent.get_mut(small as usize) {
            *slot = big;
        }
        if let Some(f) = self.features.get_mut(big as usize) {
            f.open = (f.open + moved.open).saturating_sub(if edge { 2 } else { 0 });
            f.tiles |= moved.tiles;
            f.pennants += moved.pennants;
            f.cities += moved.cities;
            f.followers += moved.followers;
        }
    }

    /// Places a tile (checked with [`Map::check`]) and grows the features it touches.
    /// Returns the tile's index.
    pub fn place(&mut self, kind: u8, x: i32, y: i32, rot: u8) -> Result<usize, PlaceError> {
        self.check(kind, x, y, rot)?;
        let shape = shape_of(kind, rot).ok_or(PlaceError::Alone(x, y))?;
        let index = self.tiles.len();
        let base = self.parent.len() as u32;
        for (i, part) in shape.parts.iter().enumerate() {
            self.parent.push(base + i as u32);
            self.features.push(Feature {
                kind: part.kind,
                open: part.edges.count_ones() as u16,
                tiles: 1 << index,
                first: index as u16,
                pennants: u16::from(part.pennant),
                cities: part.cities.len() as u16,
                followers: 0,
                scored: false,
            });
        }
        self.tiles.push(Placed {
            kind,
            rot: rot % 4,
            x,
            y,
            base,
            monastery: shape
                .parts
                .iter()
                .position(|p| p.kind == Kind::Monastery)
                .map_or(NONE, |m| m as u8),
        });
        self.grid.put(index, x, y, shape.edges);
        for (side, (dx, dy)) in STEPS.iter().enumerate() {
            let Some(other) = self.placed_at(x + dx, y + dy).copied() else {
                continue;
            };
            let theirs = other.shape();
            let (a, b) = (shape.edge_part[side], theirs.edge_part[(side + 2) % 4]);
            if a != NONE && b != NONE {
                self.union(base + u32::from(a), other.base + u32::from(b), true);
            }
            for half in [2 * side, 2 * side + 1] {
                let a = shape.half_part[half];
                let b = theirs.half_part[facing_half(half)];
                if a != NONE && b != NONE {
                    self.union(base + u32::from(a), other.base + u32::from(b), false);
                }
            }
        }
        Ok(index)
    }

    pub(super) fn segment(&self, tile: usize, part: u8) -> Option<u32> {
        let t = self.tiles.get(tile)?;
        (usize::from(part) < t.shape().parts.len()).then_some(t.base + u32::from(part))
    }

    /// Whether `seat` may put a meeple on feature `part` of tile `tile`.
    pub fn can_follow(&self, seat: usize, tile: usize, part: u8) -> Result<Kind, FollowerError> {
        self.can_place(seat, tile, part, Figure::Meeple)
    }

    /// Whether `seat` may put `figure` on feature `part` of tile `tile`.
    pub fn can_place(
        &self,
        seat: usize,
        tile: usize,
        part: u8,
        figure: Figure,
    ) -> Result<Kind, FollowerError> {
        let seg = self.segment(tile, part).ok_or(FollowerError::NoSuchPart)?;
        match figure {
            Figure::Meeple => {
                if self.supply.get(seat).copied().unwrap_or(0) == 0 {
                    return Err(FollowerError::NoneLeft);
                }
            }
            Figure::Ringmaster => match &self.circus {
                None => return Err(FollowerError::NoRingmasters),
                Some(c) if !c.ringmaster_home(seat) => return Err(FollowerError::RingmasterAway),
                Some(_) => {}
            },
        }
        let f = self
            .features
            .get(self.root(seg) as usize)
            .ok_or(FollowerError::NoSuchPart)?;
        if f.followers > 0 {
            return Err(FollowerError::Occupied(f.kind));
        }
        Ok(f.kind)
    }

    /// Puts a meeple of `seat` on feature `part` of tile `tile`.
    pub fn follow(&mut self, seat: usize, tile: usize, part: u8) -> Result<Kind, FollowerError> {
        self.place_figure(seat, tile, part, Figure::Meeple)
    }

    /// Puts `figure` of `seat` on feature `part` of tile `tile`.
    pub fn place_figure(
        &mut self,
        seat: usize,
        tile: usize,
        part: u8,
        figure: Figure,
    ) -> Result<Kind, FollowerError> {
        let kind = self.can_place(seat, tile, part, figure)?;
        let seg = self.segment(tile, part).ok_or(FollowerError::NoSuchPart)?;
        let root = self.find(seg);
        if let Some(f) = self.features.get_mut(root as usize) {
            f.followers += 1;
        }
        self.send_out(seat, figure);
        self.followers.push(Follower {
            seat,
            tile,
            part,
            figure,
        });
        Ok(kind)
    }

    /// The features of tile `tile` where `seat` could put a meeple now.
    pub fn follower_options(&self, seat: usize, tile: usize) -> Vec<u8> {
        self.figure_options(seat, tile, Figure::Meeple)
    }

    /// The features of tile `tile` where `seat` could put `figure` now.
    pub fn figure_options(&self, seat: usize, tile: usize, figure: Figure) -> Vec<u8> {
        (0..self.parts_of(tile))
            .filter(|&p| self.can_place(seat, tile, p, figure).is_ok())
            .collect()
    }

    /// How many features tile `tile` has (0 for no such tile).
    pub(super) fn parts_of(&self, tile: usize) -> u8 {
        self.tiles
            .get(tile)
            .map_or(0, |t| t.shape().parts.len() as u8)
    }

    /// The segment a follower stands on.
    pub(super) fn follower_segment(&self, f: &Follower) -> u32 {
        self.segment(f.tile, f.part).unwrap_or(u32::MAX)
    }

    /// The smallest box holding every tile: (min x, min y, max x, max y).
    pub fn bounds(&self) -> (i32, i32, i32, i32) {
        self.tiles.iter().fold((0, 0, 0, 0), |(a, b, c, d), t| {
            (a.min(t.x), b.min(t.y), c.max(t.x), d.max(t.y))
        })
    }
}
