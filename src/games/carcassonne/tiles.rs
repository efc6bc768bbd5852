//! The tile table: the 24 kinds of the base game (letters A-X, 72 tiles) and the 16 kinds of
//! Under the Big Top (12 circus tiles BT1-BT11, 8 acrobat tiles AC1-AC5), written from the tile
//! facts in the rules folder, and their four rotations.
//!
//! Conventions (JCZ): edges N, E, S, W are bits 1, 2, 4, 8 of an edge mask; the eight half-edges
//! NL NR EL ER SL SR WL WR (clockwise from the north-west corner) are bits 0..8 of a half mask.
//! A road with one edge ends inside the tile (at a monastery, a crossing, or, with the
//! expansion, a circus or acrobat space); fields are split by the half-edges they own, so a
//! space in the centre that ends roads and splits fields is carried by the data alone, and the
//! tile's [`Centre`] says what stands there.

use std::sync::OnceLock;

/// North edge bit.
pub const N: u8 = 1;
/// East edge bit.
pub const E: u8 = 2;
/// South edge bit.
pub const S: u8 = 4;
/// West edge bit.
pub const W: u8 = 8;

/// West half of the north edge.
pub const NL: u8 = 1;
/// East half of the north edge.
pub const NR: u8 = 2;
/// North half of the east edge.
pub const EL: u8 = 4;
/// South half of the east edge.
pub const ER: u8 = 8;
/// East half of the south edge.
pub const SL: u8 = 16;
/// West half of the south edge.
pub const SR: u8 = 32;
/// South half of the west edge.
pub const WL: u8 = 64;
/// North half of the west edge.
pub const WR: u8 = 128;
const ALL: u8 = 255;

/// What an edge shows: placed tiles must match on every touching edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Grass.
    Field,
    /// A road.
    Road,
    /// A city.
    City,
}

impl Edge {
    /// The word used in refusals ("a road").
    pub fn word(self) -> &'static str {
        match self {
            Edge::Field => "a field",
            Edge::Road => "a road",
            Edge::City => "a city",
        }
    }
}

/// What stands in the middle of a tile, apart from the features crossing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Centre {
    /// Nothing (roads that stop there stop at a crossing or village).
    Empty,
    /// A monastery: a feature of its own.
    Monastery,
    /// A circus space (Under the Big Top): ends roads, splits fields, holds no follower; the
    /// Big Top stands on the newest one.
    Circus,
    /// An acrobat space (Under the Big Top): ends roads, splits fields, holds a pyramid of up
    /// to three acrobats.
    Acrobats,
}

/// A city feature of a tile kind.
#[derive(Clone, Copy, Debug)]
pub struct CityDef {
    /// The edges it covers.
    pub edges: u8,
    /// Whether it carries a pennant.
    pub pennant: bool,
}

/// A field segment of a tile kind.
#[derive(Clone, Copy, Debug)]
pub struct FieldDef {
    /// The half-edges it owns.
    pub halves: u8,
    /// The cities it touches, each named by one edge of that city.
    pub cities: u8,
}

/// One kind of tile as printed (rotation 0).
#[derive(Clone, Copy, Debug)]
pub struct TileKind {
    /// The name used in texts and pictures: the Wikicarpedia letter for the base game, `BT1`
    /// to `BT11` for the circus tiles and `AC1` to `AC5` for the acrobat tiles.
    pub name: &'static str,
    /// How many the box holds.
    pub count: u8,
    /// Edges N, E, S, W.
    pub edges: [Edge; 4],
    /// City features.
    pub cities: &'static [CityDef],
    /// Road features, each an edge mask (one edge: the road ends inside the tile).
    pub roads: &'static [u8],
    /// Field segments.
    pub fields: &'static [FieldDef],
    /// What stands in the centre.
    pub centre: Centre,
}

const fn city(edges: u8) -> CityDef {
    CityDef {
        edges,
        pennant: false,
    }
}

const fn pennant(edges: u8) -> CityDef {
    CityDef {
        edges,
        pennant: true,
    }
}

const fn field(halves: u8, cities: u8) -> FieldDef {
    FieldDef { halves, cities }
}

use Edge::{City as C, Field as F, Road as R};

const fn kind(
    name: &'static str,
    count: u8,
    edges: [Edge; 4],
    cities: &'static [CityDef],
    roads: &'static [u8],
    fields: &'static [FieldDef],
    centre: Centre,
) -> TileKind {
    TileKind {
        name,
        count,
        edges,
        cities,
        roads,
        fields,
        centre,
    }
}

/// The base game's tile kinds, A to X.
pub const BASE: [TileKind; 24] = [
    kind(
        "A",
        2,
        [F, F, R, F],
        &[],
        &[S],
        &[field(ALL, 0)],
        Centre::Monastery,
    ),
    kind(
        "B",
        4,
        [F, F, F, F],
        &[],
        &[],
        &[field(ALL, 0)],
        Centre::Monastery,
    ),
    kind(
        "C",
        1,
        [C, C, C, C],
        &[pennant(N | E | S | W)],
        &[],
        &[],
        Centre::Empty,
    ),
    kind(
        "D",
        4,
        [C, R, F, R],
        &[city(N)],
        &[W | E],
        &[field(EL | WR, N), field(ER | SL | SR | WL, 0)],
        Centre::Empty,
    ),
    kind(
        "E",
        5,
        [C, F, F, F],
        &[city(N)],
        &[],
        &[field(WL | WR | SL | SR | EL | ER, N)],
        Centre::Empty,
    ),
    kind(
        "F",
        2,
        [F, C, F, C],
        &[pennant(W | E)],
        &[],
        &[field(NL | NR, W), field(SL | SR, W)],
        Centre::Empty,
    ),
    kind(
        "G",
        1,
        [F, C, F, C],
        &[city(W | E)],
        &[],
        &[field(NL | NR, W), field(SL | SR, W)],
        Centre::Empty,
    ),
    kind(
        "H",
        3,
        [C, F, C, F],
        &[city(N), city(S)],
        &[],
        &[field(WL | WR | EL | ER, N | S)],
        Centre::Empty,
    ),
    kind(
        "I",
        2,
        [C, F, F, C],
        &[city(N), city(W)],
        &[],
        &[field(EL | ER | SL | SR, N | W)],
        Centre::Empty,
    ),
    kind(
        "J",
        3,
        [C, R, R, F],
        &[city(N)],
        &[E | S],
        &[field(EL | WL | WR | SR, N), field(ER | SL, 0)],
        Centre::Empty,
    ),
    kind(
        "K",
        3,
        [C, F, R, R],
        &[city(N)],
        &[S | W],
        &[field(WR | EL | ER | SL, N), field(WL | SR, 0)],
        Centre::Empty,
    ),
    kind(
        "L",
        3,
        [C, R, R, R],
        &[city(N)],
        &[E, S, W],
        &[field(WR | EL, N), field(WL | SR, 0), field(ER | SL, 0)],
        Centre::Empty,
    ),
    kind(
        "M",
        2,
        [C, F, F, C],
        &[pennant(N | W)],
        &[],
        &[field(SL | SR | EL | ER, N)],
        Centre::Empty,
    ),
    kind(
        "N",
        3,
        [C, F, F, C],
        &[city(N | W)],
        &[],
        &[field(SL | SR | EL | ER, N)],
        Centre::Empty,
    ),
    kind(
        "O",
        2,
        [C, R, R, C],
        &[pennant(N | W)],
        &[E | S],
        &[field(EL | SR, N), field(ER | SL, 0)],
        Centre::Empty,
    ),
    kind(
        "P",
        3,
        [C, R, R, C],
        &[city(N | W)],
        &[E | S],
        &[field(EL | SR, N), field(ER | SL, 0)],
        Centre::Empty,
    ),
    kind(
        "Q",
        1,
        [C, C, F, C],
        &[pennant(N | E | W)],
        &[],
        &[field(SL | SR, N)],
        Centre::Empty,
    ),
    kind(
        "R",
        3,
        [C, C, F, C],
        &[city(N | E | W)],
        &[],
        &[field(SL | SR, N)],
        Centre::Empty,
    ),
    kind(
        "S",
        2,
        [C, C, R, C],
        &[pennant(N | W | E)],
        &[S],
        &[field(SL, N), field(SR, N)],
        Centre::Empty,
    ),
    kind(
        "T",
        1,
        [C, C, R, C],
        &[city(N | W | E)],
        &[S],
        &[field(SL, N), field(SR, N)],
        Centre::Empty,
    ),
    kind(
        "U",
        8,
        [F, R, F, R],
        &[],
        &[W | E],
        &[field(WR | NL | NR | EL, 0), field(ER | SL | SR | WL, 0)],
        Centre::Empty,
    ),
    kind(
        "V",
        9,
        [F, F, R, R],
        &[],
        &[W | S],
        &[field(WR | NL | NR | EL | ER | SL, 0), field(SR | WL, 0)],
        Centre::Empty,
    ),
    kind(
        "W",
        4,
        [F, R, R, R],
        &[],
        &[E, S, W],
        &[
            field(WR | NL | NR | EL, 0),
            field(ER | SL, 0),
            field(SR | WL, 0),
        ],
        Centre::Empty,
    ),
    kind(
        "X",
        1,
        [R, R, R, R],
        &[],
        &[N, E, S, W],
        &[
            field(WR | NL, 0),
            field(NR | EL, 0),
            field(ER | SL, 0),
            field(SR | WL, 0),
        ],
        Centre::Empty,
    ),
];

/// Under the Big Top's tile kinds: the acrobat tiles AC1-AC5 (8 tiles), then the circus tiles
/// BT1-BT11 (12 tiles). Their indices follow the base kinds.
pub const BIGTOP: [TileKind; 16] = [
    kind(
        "AC1",
        1,
        [F, F, F, F],
        &[],
        &[],
        &[field(ALL, 0)],
        Centre::Acrobats,
    ),
    kind(
        "AC2",
        1,
        [F, F, R, F],
        &[],
        &[S],
        &[field(ALL, 0)],
        Centre::Acrobats,
    ),
    kind(
        "AC3",
        3,
        [F, F, R, R],
        &[],
        &[S, W],
        &[field(NL | NR | EL | ER | SL | WR, 0), field(SR | WL, 0)],
        Centre::Acrobats,
    ),
    kind(
        "AC4",
        2,
        [R, F, R, F],
        &[],
        &[S, N],
        &[field(NR | EL | ER | SL, 0), field(NL | SR | WL | WR, 0)],
        Centre::Acrobats,
    ),
    kind(
        "AC5",
        1,
        [R, R, R, F],
        &[],
        &[N, E, S],
        &[
            field(SR | WL | WR | NL, 0),
            field(NR | EL, 0),
            field(ER | SL, 0),
        ],
        Centre::Acrobats,
    ),
    kind(
        "BT1",
        1,
        [F, F, R, F],
        &[],
        &[S],
        &[field(ALL, 0)],
        Centre::Circus,
    ),
    kind(
        "BT2",
        1,
        [F, R, R, F],
        &[],
        &[E, S],
        &[field(NL | NR | EL | SR | WL | WR, 0), field(ER | SL, 0)],
        Centre::Circus,
    ),
    kind(
        "BT3",
        1,
        [F, R, F, R],
        &[],
        &[W, E],
        &[field(NL | NR | EL | WR, 0), field(ER | SL | SR | WL, 0)],
        Centre::Circus,
    ),
    kind(
        "BT4",
        1,
        [F, R, R, R],
        &[],
        &[S, W, E],
        &[
            field(NL | NR | EL | WR, 0),
            field(SR | WL, 0),
            field(ER | SL, 0),
        ],
        Centre::Circus,
    ),
    kind(
        "BT5",
        1,
        [C, F, F, F],
        &[city(N)],
        &[],
        &[field(EL | ER | SL | SR | WL | WR, N)],
        Centre::Circus,
    ),
    kind(
        "BT6",
        1,
        [C, F, F, R],
        &[city(N)],
        &[W],
        &[field(WR, N), field(EL | ER | SL | SR | WL, N)],
        Centre::Circus,
    ),
    kind(
        "BT7",
        2,
        [C, F, R, F],
        &[city(N)],
        &[S],
        &[field(SR | WL | WR, N), field(EL | ER | SL, N)],
        Centre::Circus,
    ),
    kind(
        "BT8",
        1,
        [C, R, F, R],
        &[city(N)],
        &[W, E],
        &[field(EL, N), field(WR, N), field(ER | SL | SR | WL, 0)],
        Centre::Circus,
    ),
    kind(
        "BT9",
        1,
        [C, F, C, F],
        &[city(N), city(S)],
        &[],
        &[field(WL | WR, N | S), field(EL | ER, N | S)],
        Centre::Circus,
    ),
    kind(
        "BT10",
        1,
        [C, C, R, F],
        &[city(N), city(E)],
        &[S],
        &[field(SL, E), field(SR | WL | WR, N)],
        Centre::Circus,
    ),
    kind(
        "BT11",
        1,
        [C, R, R, C],
        &[city(N | W)],
        &[E, S],
        &[field(EL, N), field(ER | SL, 0), field(SR, N)],
        Centre::Circus,
    ),
];

/// The tile kind with index `kind`: base kinds first, then the Big Top's.
pub fn tile_kind(kind: u8) -> Option<&'static TileKind> {
    let i = usize::from(kind);
    BASE.get(i)
        .or_else(|| i.checked_sub(BASE.len()).and_then(|j| BIGTOP.get(j)))
}

/// How many kinds there are, the Big Top's included.
pub const KINDS: usize = BASE.len() + BIGTOP.len();

/// The kind index of the start tile (D).
pub const START: u8 = 3;

/// What a feature is, for followers and scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A road (thief).
    Road,
    /// A city (knight).
    City,
    /// A field (farmer).
    Field,
    /// A monastery (monk).
    Monastery,
}

impl Kind {
    /// The word for the feature ("road").
    pub fn word(self) -> &'static str {
        match self {
            Kind::Road => "road",
            Kind::City => "city",
            Kind::Field => "field",
            Kind::Monastery => "monastery",
        }
    }
}

/// One feature of a tile in a given rotation.
#[derive(Clone, Debug)]
pub struct Part {
    /// What it is.
    pub kind: Kind,
    /// Edges it covers (roads and cities), rotated.
    pub edges: u8,
    /// Half-edges it owns (fields), rotated.
    pub halves: u8,
    /// Whether it carries a pennant.
    pub pennant: bool,
    /// Local indices of the city parts a field touches.
    pub cities: Vec<u8>,
}

/// Marks "no feature" in [`Shape::edge_part`] and [`Shape::half_part`].
pub const NONE: u8 = u8::MAX;

/// A tile kind in one rotation, with lookups from edges to features.
#[derive(Clone, Debug)]
pub struct Shape {
    /// The kind's name (`D`, `BT3`).
    pub name: &'static str,
    /// What stands in the centre.
    pub centre: Centre,
    /// Edges N, E, S, W after rotation.
    pub edges: [Edge; 4],
    /// Features, in label order: cities, roads, fields, then the monastery.
    pub parts: Vec<Part>,
    /// The road or city part on each edge ([`NONE`] for fields).
    pub edge_part: [u8; 4],
    /// The field part on each half-edge ([`NONE`] where a road or city is).
    pub half_part: [u8; 8],
}

/// Rotates an edge mask `rot` quarter turns clockwise.
pub fn rotate_edges(mask: u8, rot: u8) -> u8 {
    let r = u32::from(rot % 4);
    ((mask << r) | (mask >> ((4 - r) % 4))) & 15
}

/// Rotates a half-edge mask `rot` quarter turns clockwise.
pub fn rotate_halves(mask: u8, rot: u8) -> u8 {
    mask.rotate_left(2 * u32::from(rot % 4))
}

/// The half-edge of the neighbour that touches half-edge `half` (0..8).
pub fn facing_half(half: usize) -> usize {
    ((half ^ 1) + 4) % 8
}

fn shape(kind: &TileKind, rot: u8) -> Shape {
    let mut parts = Vec::new();
    let mut edges = [Edge::Field; 4];
    for (d, edge) in edges.iter_mut().enumerate() {
        *edge = kind.edges[(d + 4 - usize::from(rot % 4)) % 4];
    }
    for c in kind.cities {
        parts.push(Part {
            kind: Kind::City,
            edges: rotate_edges(c.edges, rot),
            halves: 0,
            pennant: c.pennant,
            cities: Vec::new(),
        });
    }
    for &r in kind.roads {
        parts.push(Part {
            kind: Kind::Road,
            edges: rotate_edges(r, rot),
            halves: 0,
            pennant: false,
            cities: Vec::new(),
        });
    }
    for f in kind.fields {
        let cities = kind
            .cities
            .iter()
            .enumerate()
            .filter(|(_, c)| c.edges & f.cities != 0)
            .map(|(i, _)| i as u8)
            .collect();
        parts.push(Part {
            kind: Kind::Field,
            edges: 0,
            halves: rotate_halves(f.halves, rot),
            pennant: false,
            cities,
        });
    }
    if kind.centre == Centre::Monastery {
        parts.push(Part {
            kind: Kind::Monastery,
            edges: 0,
            halves: 0,
            pennant: false,
            cities: Vec::new(),
        });
    }
    let mut edge_part = [NONE; 4];
    let mut half_part = [NONE; 8];
    for (i, p) in parts.iter().enumerate() {
        for (d, slot) in edge_part.iter_mut().enumerate() {
            if p.edges & (1 << d) != 0 {
                *slot = i as u8;
            }
        }
        for (h, slot) in half_part.iter_mut().enumerate() {
            if p.halves & (1 << h) != 0 {
                *slot = i as u8;
            }
        }
    }
    Shape {
        name: kind.name,
        centre: kind.centre,
        edges,
        parts,
        edge_part,
        half_part,
    }
}

/// Every kind in every rotation: index `kind * 4 + rotation`.
pub fn shapes() -> &'static [Shape] {
    static SHAPES: OnceLock<Vec<Shape>> = OnceLock::new();
    SHAPES.get_or_init(|| {
        BASE.iter()
            .chain(BIGTOP.iter())
            .flat_map(|k| (0..4).map(move |r| shape(k, r)))
            .collect()
    })
}

/// The shape of kind `kind` turned `rot` quarter turns clockwise (`None` for an unknown kind).
pub fn shape_of(kind: u8, rot: u8) -> Option<&'static Shape> {
    shapes().get(usize::from(kind) * 4 + usize::from(rot % 4))
}

/// The kind index of a base tile's letter (`None` if no base tile has it).
pub fn kind_of_letter(letter: char) -> Option<u8> {
    kind_named(&letter.to_string())
}

/// The kind index of a tile name (`D`, `bt3`; `None` if no tile has it).
pub fn kind_named(name: &str) -> Option<u8> {
    BASE.iter()
        .chain(BIGTOP.iter())
        .position(|k| k.name.eq_ignore_ascii_case(name.trim()))
        .map(|i| i as u8)
}

/// Under the Big Top's 20 tiles (kind indices).
pub fn bigtop_box() -> Vec<u8> {
    BIGTOP
        .iter()
        .enumerate()
        .flat_map(|(i, k)| std::iter::repeat_n((BASE.len() + i) as u8, usize::from(k.count)))
        .collect()
}

/// The tiles dealt face down at the start, in the box's order (to be shuffled): the base
/// game's box without the start tile, with Under the Big Top's tiles when `bigtop`.
pub fn to_deal(bigtop: bool) -> Vec<u8> {
    let mut deck = base_box();
    if let Some(i) = deck.iter().position(|&kind| kind == START) {
        deck.remove(i);
    }
    if bigtop {
        deck.extend(bigtop_box());
    }
    deck
}

/// The full box of the base game (72 kind indices, the start tile included).
pub fn base_box() -> Vec<u8> {
    BASE.iter()
        .enumerate()
        .flat_map(|(i, k)| std::iter::repeat_n(i as u8, usize::from(k.count)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_tile_facts_and_total_72() {
        let counts: String = BASE
            .iter()
            .map(|k| format!("{}{} ", k.name, k.count))
            .collect();
        assert_eq!(
            counts.trim(),
            "A2 B4 C1 D4 E5 F2 G1 H3 I2 J3 K3 L3 M2 N3 O2 P3 Q1 R3 S2 T1 U8 V9 W4 X1"
        );
        assert_eq!(base_box().len(), 72);
        let pennants: u32 = BASE
            .iter()
            .map(|k| u32::from(k.count) * k.cities.iter().filter(|c| c.pennant).count() as u32)
            .sum();
        assert_eq!(pennants, 10);
        let monasteries: u32 = BASE
            .iter()
            .filter(|k| k.centre == Centre::Monastery)
            .map(|k| u32::from(k.count))
            .sum();
        assert_eq!(monasteries, 6);
    }

    #[test]
    fn the_big_top_has_twelve_circus_and_eight_acrobat_tiles() {
        let tiles = bigtop_box();
        assert_eq!(tiles.len(), 20);
        let count = |centre: Centre| {
            tiles
                .iter()
                .filter(|&&k| tile_kind(k).is_some_and(|t| t.centre == centre))
                .count()
        };
        assert_eq!((count(Centre::Circus), count(Centre::Acrobats)), (12, 8));
        let names: String = BIGTOP
            .iter()
            .map(|k| format!("{}x{} ", k.name, k.count))
            .collect();
        assert_eq!(
            names.trim(),
            "AC1x1 AC2x1 AC3x3 AC4x2 AC5x1 BT1x1 BT2x1 BT3x1 BT4x1 BT5x1 BT6x1 BT7x2 BT8x1 BT9x1 BT10x1 BT11x1"
        );
        assert!(BIGTOP
            .iter()
            .all(|k| k.cities.iter().all(|c| !c.pennant)
                && k.roads.iter().all(|r| r.count_ones() == 1)));
        assert_eq!(kind_named("bt3"), Some(31));
        assert_eq!(tile_kind(31).map(|k| k.name), Some("BT3"));
    }

    #[test]
    fn features_agree_with_edges_in_every_rotation() {
        for s in shapes() {
            for d in 0..4 {
                let part = s.edge_part[d];
                match s.edges[d] {
                    Edge::Field => {
                        assert_eq!(part, NONE, "{} edge {d}", s.name);
                        assert_ne!(s.half_part[2 * d], NONE, "{} edge {d}", s.name);
                        assert_ne!(s.half_part[2 * d + 1], NONE, "{} edge {d}", s.name);
                    }
                    Edge::Road => {
                        assert_eq!(s.parts[usize::from(part)].kind, Kind::Road);
                        assert_ne!(s.half_part[2 * d], NONE, "{} edge {d}", s.name);
                        assert_ne!(s.half_part[2 * d + 1], NONE, "{} edge {d}", s.name);
                    }
                    Edge::City => {
                        assert_eq!(s.parts[usize::from(part)].kind, Kind::City);
                        assert_eq!(s.half_part[2 * d], NONE, "{} edge {d}", s.name);
                    }
                }
            }
        }
    }

    #[test]
    fn rotation_turns_edges_clockwise() {
        // D: city north, road west-east; turned 90 degrees the city faces east.
        let d = shape_of(START, 1).map(|s| s.edges);
        assert_eq!(d, Some([Edge::Road, Edge::City, Edge::Road, Edge::Field]));
        assert_eq!(rotate_halves(NL, 1), EL);
        assert_eq!(rotate_edges(W, 1), N);
        assert_eq!(facing_half(0), 5);
        assert_eq!(facing_half(2), 7);
    }
}
