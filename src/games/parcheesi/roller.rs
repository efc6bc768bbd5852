//! Where the game's dice come from: the table's seeded dice, or fixed faces in tests.

use crate::dice::Dice;

/// A source of die rolls: the game's seeded dice, or fixed faces in tests.
pub trait Roller {
    /// One six-sided die, rolled for `purpose`.
    fn die(&mut self, purpose: String) -> u8;
}

impl Roller for Dice {
    fn die(&mut self, purpose: String) -> u8 {
        self.roll(purpose, 6) as u8
    }
}

/// Fixed faces for tests and examples: the given faces in order, then 1, 2, 3, 4, 5, 6 over
/// and over (so a game always goes on).
#[derive(Clone, Debug, Default)]
pub struct FixedRolls {
    faces: Vec<u8>,
    next: usize,
}

impl FixedRolls {
    /// Dice that show these faces first (values outside 1..6 are read as 1).
    pub fn new(faces: &[u8]) -> FixedRolls {
        FixedRolls {
            faces: faces.to_vec(),
            next: 0,
        }
    }
}

impl Roller for FixedRolls {
    fn die(&mut self, _purpose: String) -> u8 {
        let face = match self.faces.get(self.next) {
            Some(face) if (1..=6).contains(face) => *face,
            Some(_) => 1,
            None => ((self.next - self.faces.len()) % 6) as u8 + 1,
        };
        self.next += 1;
        face
    }
}
