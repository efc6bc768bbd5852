//! The four kinds of piece, their rotations and the sides each one connects.
//!
//! Rotation 0 of each kind (rotations turn clockwise in steps of 90 degrees):
//! - straight: north-south `│` (90: east-west `─`);
//! - turn: north-east `└` (90: `┌` east-south, 180: `┐` south-west, 270: `┘` west-north);
//! - crossroad and thunder look the same in every rotation.

use serde::{Deserialize, Serialize};

/// One side of a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// Towards row 1.
    North,
    /// Towards the last column.
    East,
    /// Towards the last row.
    South,
    /// Towards column a.
    West,
}

impl Dir {
    /// All four sides, clockwise from north.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// The bit of this side in a connection mask.
    pub fn bit(self) -> u8 {
        match self {
            Dir::North => 1,
            Dir::East => 2,
            Dir::South => 4,
            Dir::West => 8,
        }
    }

    /// The side facing this one across an edge.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// The side's name in player texts.
    pub fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }
}

/// The kind of a piece, as the supply counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// Connects two opposite sides.
    Straight,
    /// Connects two adjacent sides.
    Turn,
    /// Two straights crossing without joining.
    Cross,
    /// A wildcard read as whatever straight, turn or crossroad completes the track.
    Thunder,
}

impl Kind {
    /// All kinds, in supply order.
    pub const ALL: [Kind; 4] = [Kind::Straight, Kind::Turn, Kind::Cross, Kind::Thunder];

    /// The kind's position in a supply array.
    pub fn index(self) -> usize {
        match self {
            Kind::Straight => 0,
            Kind::Turn => 1,
            Kind::Cross => 2,
            Kind::Thunder => 3,
        }
    }

    /// The kind's name in commands, options and the text format (`cross` for the crossroad).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Straight => "straight",
            Kind::Turn => "turn",
            Kind::Cross => "cross",
            Kind::Thunder => "thunder",
        }
    }

    /// Reads a kind's name, forgiving case and a few synonyms.
    pub fn parse(word: &str) -> Option<Kind> {
        match word.trim().to_lowercase().as_str() {
            "straight" | "straights" | "s" => Some(Kind::Straight),
            "turn" | "turns" | "curve" | "corner" | "bend" => Some(Kind::Turn),
            "cross" | "crossroad" | "crossroads" | "crossing" | "x" | "+" => Some(Kind::Cross),
            "thunder" | "thunders" | "lightning" | "wild" | "wildcard" | "⚡" => {
                Some(Kind::Thunder)
            }
            _ => None,
        }
    }
}

/// A rotation, clockwise from the kind's rotation 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rotation {
    /// 0 degrees.
    R0,
    /// 90 degrees clockwise.
    R90,
    /// 180 degrees.
    R180,
    /// 270 degrees clockwise.
    R270,
}

impl Rotation {
    /// Reads `0`, `90`, `180` or `270` (a trailing `°` or `deg` is allowed).
    pub fn parse(word: &str) -> Option<Rotation> {
        let word = word.trim().to_lowercase();
        let digits = word
            .trim_end_matches('°')
            .trim_end_matches("deg")
            .trim_end_matches("degrees");
        match digits {
            "0" | "360" => Some(Rotation::R0),
            "90" => Some(Rotation::R90),
            "180" => Some(Rotation::R180),
            "270" => Some(Rotation::R270),
            _ => None,
        }
    }
}

/// A piece as it lies on the board: its kind and the sides it connects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Piece {
    /// Straight north-south `│`.
    Vertical,
    /// Straight east-west `─`.
    Horizontal,
    /// Turn north-east `└`.
    NorthEast,
    /// Turn east-south `┌`.
    EastSouth,
    /// Turn south-west `┐`.
    SouthWest,
    /// Turn west-north `┘`.
    WestNorth,
    /// Crossroad `┼`: north-south and east-west strands that do not join.
    Cross,
    /// Thunder `⚡`: read as any straight, turn or crossroad.
    Thunder,
}

impl Piece {
    /// Every concrete reading a thunder piece may take (all pieces but thunder).
    pub const SHAPES: [Piece; 7] = [
        Piece::Vertical,
        Piece::Horizontal,
        Piece::NorthEast,
        Piece::EastSouth,
        Piece::SouthWest,
        Piece::WestNorth,
        Piece::Cross,
    ];

    /// The piece of `kind` turned by `rotation`.
    pub fn new(kind: Kind, rotation: Rotation) -> Piece {
        match (kind, rotation) {
            (Kind::Straight, Rotation::R0 | Rotation::R180) => Piece::Vertical,
            (Kind::Straight, Rotation::R90 | Rotation::R270) => Piece::Horizontal,
            (Kind::Turn, Rotation::R0) => Piece::NorthEast,
            (Kind::Turn, Rotation::R90) => Piece::EastSouth,
            (Kind::Turn, Rotation::R180) => Piece::SouthWest,
            (Kind::Turn, Rotation::R270) => Piece::WestNorth,
            (Kind::Cross, _) => Piece::Cross,
            (Kind::Thunder, _) => Piece::Thunder,
        }
    }

    /// The piece's kind.
    pub fn kind(self) -> Kind {
        match self {
            Piece::Vertical | Piece::Horizontal => Kind::Straight,
            Piece::NorthEast | Piece::EastSouth | Piece::SouthWest | Piece::WestNorth => Kind::Turn,
            Piece::Cross => Kind::Cross,
            Piece::Thunder => Kind::Thunder,
        }
    }

    /// The connection mask (see [`Dir::bit`]); `None` for an unread thunder piece.
    pub fn ends(self) -> Option<u8> {
        match self {
            Piece::Vertical => Some(1 | 4),
            Piece::Horizontal => Some(2 | 8),
            Piece::NorthEast => Some(1 | 2),
            Piece::EastSouth => Some(2 | 4),
            Piece::SouthWest => Some(4 | 8),
            Piece::WestNorth => Some(8 | 1),
            Piece::Cross => Some(15),
            Piece::Thunder => None,
        }
    }

    /// Whether the piece has a connection end on `side` (false for unread thunder).
    pub fn connects(self, side: Dir) -> bool {
        self.ends().is_some_and(|mask| mask & side.bit() != 0)
    }

    /// Where the current leaves when it enters through `side` (crossroads go straight on);
    /// `None` if the piece has no end there.
    pub fn exit(self, side: Dir) -> Option<Dir> {
        if !self.connects(side) {
            return None;
        }
        if self == Piece::Cross {
            return Some(side.opposite());
        }
        Dir::ALL
            .into_iter()
            .find(|other| *other != side && self.connects(*other))
    }

    /// The glyph of the position text format.
    pub fn glyph(self) -> char {
        match self {
            Piece::Vertical => '│',
            Piece::Horizontal => '─',
            Piece::NorthEast => '└',
            Piece::EastSouth => '┌',
            Piece::SouthWest => '┐',
            Piece::WestNorth => '┘',
            Piece::Cross => '┼',
            Piece::Thunder => '⚡',
        }
    }

    /// Reads a glyph of the position text format.
    pub fn from_glyph(glyph: char) -> Option<Piece> {
        Piece::SHAPES
            .into_iter()
            .chain([Piece::Thunder])
            .find(|piece| piece.glyph() == glyph)
    }

    /// Kind and rotation in words (`turn 90`), as the `place` command takes them.
    pub fn describe(self) -> String {
        let rotation = match self {
            Piece::Vertical | Piece::NorthEast | Piece::Cross | Piece::Thunder => 0,
            Piece::Horizontal | Piece::EastSouth => 90,
            Piece::SouthWest => 180,
            Piece::WestNorth => 270,
        };
        match self.kind() {
            Kind::Cross | Kind::Thunder => self.kind().name().to_string(),
            kind => format!("{} {rotation}", kind.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_turn_clockwise() {
        assert_eq!(Piece::new(Kind::Turn, Rotation::R0).glyph(), '└');
        assert_eq!(Piece::new(Kind::Turn, Rotation::R90).glyph(), '┌');
        assert_eq!(Piece::new(Kind::Turn, Rotation::R180).glyph(), '┐');
        assert_eq!(Piece::new(Kind::Turn, Rotation::R270).glyph(), '┘');
        assert_eq!(Piece::new(Kind::Straight, Rotation::R270).glyph(), '─');
        assert_eq!(Piece::Cross.exit(Dir::North), Some(Dir::South));
        assert_eq!(Piece::EastSouth.exit(Dir::South), Some(Dir::East));
        assert_eq!(Piece::EastSouth.exit(Dir::North), None);
        assert_eq!(Piece::SouthWest.describe(), "turn 180");
    }
}
