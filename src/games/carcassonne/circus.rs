//! Under the Big Top: the animal tokens, the Big Top and its circus scorings, acrobat pyramids
//! and the ringmasters' supply.
//!
//! The Big Top goes up on the first circus tile, over the top animal token of a stack shuffled
//! face down at setup (sealed draws). On every later circus tile, once the features that tile
//! completed are scored, the token is revealed and every meeple on the Big Top's tile and its 8
//! neighbours (farmers, ringmasters and acrobats included) earns its owner the token's value; the
//! meeples stay, the token leaves the game face up, and the Big Top moves onto the new tile over
//! a new face-down token. At the end the circus is scored one last time, before final scoring.
//!
//! Acrobats stand on acrobat tiles, at most three to a tile (two, and one on their shoulders);
//! colours mix. A completed pyramid is scored by whoever chooses to, instead of placing a
//! figure: 5 points per acrobat to its owner, and the acrobats go home. At the end every
//! acrobat scores 5, complete pyramid or not.

use super::map::{Figure, Map};
use super::tiles::Centre;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Points per acrobat, in a scored pyramid and at the end.
pub const ACROBAT_POINTS: u32 = 5;
/// Acrobats in a complete pyramid.
pub const PYRAMID: usize = 3;

/// What a face-down token is reckoned at by a player who cannot see it: the seal, worth 4 a
/// meeple, next to the 67 / 16 = 4.2 a token is worth on average.
const STAND_IN: Animal = Animal::Seal;

/// An animal token: what each meeple around the Big Top is worth when the circus is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Animal {
    /// 7 points per meeple (1 token).
    Elephant,
    /// 6 points per meeple (2 tokens).
    Tiger,
    /// 5 points per meeple (3 tokens).
    Bear,
    /// 4 points per meeple (5 tokens).
    Seal,
    /// 3 points per meeple (4 tokens).
    Monkey,
    /// 1 point per meeple (1 token).
    Flea,
}

impl Animal {
    /// Points per meeple.
    pub fn value(self) -> u32 {
        match self {
            Animal::Elephant => 7,
            Animal::Tiger => 6,
            Animal::Bear => 5,
            Animal::Seal => 4,
            Animal::Monkey => 3,
            Animal::Flea => 1,
        }
    }

    /// How many tokens of this animal the box holds.
    pub fn count(self) -> usize {
        match self {
            Animal::Elephant | Animal::Flea => 1,
            Animal::Tiger => 2,
            Animal::Bear => 3,
            Animal::Seal => 5,
            Animal::Monkey => 4,
        }
    }

    /// The animal's name ("seal").
    pub fn word(self) -> &'static str {
        match self {
            Animal::Elephant => "elephant",
            Animal::Tiger => "tiger",
            Animal::Bear => "bear",
            Animal::Seal => "seal",
            Animal::Monkey => "monkey",
            Animal::Flea => "flea",
        }
    }
}

/// How many animal tokens the box holds.
pub const TOKENS: usize = 16;

/// The 16 animal tokens of the box, before shuffling.
pub fn animal_tokens() -> Vec<Animal> {
    [
        Animal::Elephant,
        Animal::Tiger,
        Animal::Bear,
        Animal::Seal,
        Animal::Monkey,
        Animal::Flea,
    ]
    .iter()
    .flat_map(|&a| std::iter::repeat_n(a, a.count()))
    .collect()
}

/// Where the Big Top stands and the face-down token under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BigTop {
    /// The circus tile's index in the map's tiles.
    pub tile: usize,
    /// Its spot.
    pub at: (i32, i32),
    token: Option<Animal>,
}

/// The acrobats on one acrobat tile, in the order they arrived (two below, the third on top).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pyramid {
    /// The acrobat tile's index in the map's tiles.
    pub tile: usize,
    /// Its spot.
    pub at: (i32, i32),
    /// The acrobats' owners.
    pub acrobats: Vec<usize>,
}

/// What a scoring outside the features was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShowKind {
    /// The circus under the Big Top, with the revealed token.
    Circus(Animal),
    /// A completed pyramid scored by a seat instead of placing a figure.
    Pyramid {
        /// Who chose to score it.
        by: usize,
    },
    /// The acrobats of one tile at the end of the game.
    Acrobats,
}

/// A circus or acrobat scoring: what each seat had there and earned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Show {
    /// Which scoring.
    pub kind: ShowKind,
    /// The Big Top's or the acrobat tile's spot.
    pub at: (i32, i32),
    /// Meeples counted, by seat.
    pub meeples: Vec<u32>,
    /// Points earned, by seat.
    pub points: Vec<u32>,
}

/// What placing a circus tile did to the Big Top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raised {
    /// The circus scored at the Big Top's old place (none for the first circus tile).
    pub circus: Option<Show>,
    /// The new circus tile's spot.
    pub at: (i32, i32),
    /// The token laid face down under it (`None` when the stack ran out), a secret.
    pub token: Option<Animal>,
}

/// Why an acrobat or a pyramid scoring was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CircusError {
    /// The game is played without the expansion.
    NoBigTop,
    /// The player has no meeple in supply (a ringmaster is never an acrobat).
    NoMeeple,
    /// No acrobat tile at that spot.
    NotAcrobatTile(i32, i32),
    /// The acrobat tile is neither the tile just placed nor one of its 8 neighbours.
    NotNear(i32, i32),
    /// The pyramid there already has three acrobats.
    Full(i32, i32),
    /// No completed pyramid at that spot.
    NoPyramid(i32, i32),
}

impl fmt::Display for CircusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CircusError::NoBigTop => write!(
                f,
                "this game is played without Under the Big Top (bigtop=off): it has no acrobats"
            ),
            CircusError::NoMeeple => write!(
                f,
                "you have no meeple in your supply to place as an acrobat (a ringmaster is never an acrobat)"
            ),
            CircusError::NotAcrobatTile(x, y) => write!(
                f,
                "({x},{y}) holds no acrobat tile; an acrobat goes on the tile just placed or an acrobat tile next to it"
            ),
            CircusError::NotNear(x, y) => write!(
                f,
                "an acrobat goes on the tile just placed or an acrobat tile next to it, and ({x},{y}) is farther away"
            ),
            CircusError::Full(x, y) => write!(
                f,
                "the pyramid at ({x},{y}) is complete with 3 acrobats; score it with `!pyramid {x} {y}` instead"
            ),
            CircusError::NoPyramid(x, y) => write!(
                f,
                "there is no completed pyramid at ({x},{y}); a pyramid can be scored once it has 3 acrobats"
            ),
        }
    }
}

/// The expansion's state on a map.
#[derive(Clone, Debug)]
pub struct Circus {
    stack: Vec<Animal>,
    next: usize,
    big_top: Option<BigTop>,
    revealed: Vec<Animal>,
    pyramids: Vec<Pyramid>,
    ringmasters: Vec<bool>,
    shows: Vec<Show>,
}

impl Circus {
    /// The state before the first circus tile: the token stack (top first) and every
    /// ringmaster at home.
    pub fn new(players: usize, stack: Vec<Animal>) -> Circus {
        Circus {
            stack,
            next: 0,
            big_top: None,
            revealed: Vec::new(),
            pyramids: Vec::new(),
            ringmasters: vec![true; players],
            shows: Vec::new(),
        }
    }

    /// Whether `seat`'s ringmaster is in its supply.
    pub fn ringmaster_home(&self, seat: usize) -> bool {
        self.ringmasters.get(seat).copied().unwrap_or(false)
    }

    pub(super) fn set_ringmaster_home(&mut self, seat: usize, home: bool) {
        if let Some(r) = self.ringmasters.get_mut(seat) {
            *r = home;
        }
    }

    /// Where the Big Top stands, if it is up (the token under it stays secret).
    pub fn big_top(&self) -> Option<&BigTop> {
        self.big_top.as_ref()
    }

    /// Whether a face-down token lies under the Big Top.
    pub fn token_down(&self) -> bool {
        self.big_top.is_some_and(|b| b.token.is_some())
    }

    /// The tokens revealed so far, in order (they left the game face up).
    pub fn revealed(&self) -> &[Animal] {
        &self.revealed
    }

    /// Tokens still face down in the box (not yet put under the Big Top).
    pub fn stack_left(&self) -> usize {
        TOKENS.saturating_sub(self.next)
    }

    /// Whether a token waits to go under the Big Top when the next circus tile is placed.
    pub fn token_ready(&self) -> bool {
        self.next < self.stack.len()
    }

    /// The pyramids with at least one acrobat.
    pub fn pyramids(&self) -> &[Pyramid] {
        &self.pyramids
    }

    /// Every circus and acrobat scoring so far, in order.
    pub fn shows(&self) -> &[Show] {
        &self.shows
    }
}

fn near(a: (i32, i32), b: (i32, i32)) -> bool {
    (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1
}

impl Map {
    /// The Big Top expansion's state (`None` when the game is played without it).
    pub fn circus(&self) -> Option<&Circus> {
        self.circus.as_ref()
    }

    fn centre_at(&self, x: i32, y: i32) -> Option<Centre> {
        self.placed_at(x, y).map(|t| t.shape().centre)
    }

    /// Reads every face-down token (under the Big Top, or waiting on the stack) as the
    /// stand-in a player who cannot see it reckons with, and lays one ready for the next
    /// circus tile while the box holds any (the game draws it when that tile is placed).
    pub(super) fn hide_tokens(&mut self) {
        let Some(c) = self.circus.as_mut() else {
            return;
        };
        // The stack keeps the tokens in the order they went under the Big Top: those shown
        // first, then the one under it now, then those still waiting.
        for token in c.stack.iter_mut().skip(c.revealed.len()) {
            *token = STAND_IN;
        }
        if let Some(big_top) = c.big_top.as_mut() {
            big_top.token = big_top.token.map(|_| STAND_IN);
        }
        if !c.token_ready() && c.stack.len() < TOKENS {
            c.stack.push(STAND_IN);
        }
    }

    /// Puts a token drawn from the box on the face-down stack, to go under the Big Top when
    /// the next circus tile is placed.
    pub(super) fn lay_token(&mut self, animal: Animal) {
        if let Some(c) = self.circus.as_mut() {
            c.stack.push(animal);
        }
    }

    /// Circus and acrobat tiles among (x,y) and its 8 neighbours.
    pub(super) fn show_tiles_around(&self, x: i32, y: i32) -> u32 {
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if matches!(
                    self.centre_at(x + dx, y + dy),
                    Some(Centre::Circus | Centre::Acrobats)
                ) {
                    n += 1;
                }
            }
        }
        n
    }

    /// A figure goes back to its owner's supply.
    pub(super) fn send_home(&mut self, seat: usize, figure: Figure) {
        self.keep_home(seat, figure, true);
    }

    /// A figure leaves its owner's supply for the map.
    pub(super) fn send_out(&mut self, seat: usize, figure: Figure) {
        self.keep_home(seat, figure, false);
    }

    /// `seat`'s `figure` comes back to its supply (`home`), or leaves it for the map.
    fn keep_home(&mut self, seat: usize, figure: Figure, home: bool) {
        match figure {
            Figure::Meeple => {
                if let Some(s) = self.supply.get_mut(seat) {
                    match home {
                        true => *s += 1,
                        false => *s -= 1,
                    }
                }
            }
            Figure::Ringmaster => {
                if let Some(c) = self.circus.as_mut() {
                    c.set_ringmaster_home(seat, home);
                }
            }
        }
    }

    /// Whether `seat` may place an acrobat at (x,y) after placing tile `placed`; the acrobat
    /// tile's index if so.
    pub fn can_acrobat(
        &self,
        seat: usize,
        placed: usize,
        x: i32,
        y: i32,
    ) -> Result<usize, CircusError> {
        let circus = self.circus.as_ref().ok_or(CircusError::NoBigTop)?;
        let tile = self.tile_at(x, y);
        let Some(tile) = tile.filter(|_| self.centre_at(x, y) == Some(Centre::Acrobats)) else {
            return Err(CircusError::NotAcrobatTile(x, y));
        };
        let from = self.tiles.get(placed).map(|t| (t.x, t.y));
        if !from.is_some_and(|from| near(from, (x, y))) {
            return Err(CircusError::NotNear(x, y));
        }
        let on = circus
            .pyramids
            .iter()
            .find(|p| p.tile == tile)
            .map_or(0, |p| p.acrobats.len());
        if on >= PYRAMID {
            return Err(CircusError::Full(x, y));
        }
        if self.supply.get(seat).copied().unwrap_or(0) == 0 {
            return Err(CircusError::NoMeeple);
        }
        Ok(tile)
    }

    /// Places a meeple of `seat` as an acrobat at (x,y) after placing tile `placed`; returns
    /// how many acrobats the tile holds now.
    pub fn add_acrobat(
        &mut self,
        seat: usize,
        placed: usize,
        x: i32,
        y: i32,
    ) -> Result<usize, CircusError> {
        let tile = self.can_acrobat(seat, placed, x, y)?;
        let circus = self.circus.as_mut().ok_or(CircusError::NoBigTop)?;
        let count = match circus.pyramids.iter_mut().find(|p| p.tile == tile) {
            Some(p) => {
                p.acrobats.push(seat);
                p.acrobats.len()
            }
            None => {
                circus.pyramids.push(Pyramid {
                    tile,
                    at: (x, y),
                    acrobats: vec![seat],
                });
                1
            }
        };
        if let Some(s) = self.supply.get_mut(seat) {
            *s -= 1;
        }
        Ok(count)
    }

    /// The acrobat tiles where `seat` could place an acrobat after placing tile `placed`, in
    /// reading order.
    pub fn acrobat_spots(&self, seat: usize, placed: usize) -> Vec<(i32, i32)> {
        let Some(t) = self.tiles.get(placed) else {
            return Vec::new();
        };
        // Without the expansion or a meeple in supply no spot can take an acrobat.
        if self.circus.is_none() || self.supply.get(seat).is_none_or(|&s| s == 0) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (x, y) = (t.x + dx, t.y + dy);
                if self.can_acrobat(seat, placed, x, y).is_ok() {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// The spots of the completed pyramids (three acrobats), in reading order.
    pub fn complete_pyramids(&self) -> Vec<(i32, i32)> {
        let mut out: Vec<(i32, i32)> = self
            .circus
            .iter()
            .flat_map(|c| c.pyramids.iter())
            .filter(|p| p.acrobats.len() >= PYRAMID)
            .map(|p| p.at)
            .collect();
        out.sort_by_key(|&(x, y)| (y, x));
        out
    }

    /// `by` scores the completed pyramid at (x,y): 5 points per acrobat to its owner, and the
    /// acrobats go home.
    pub fn score_pyramid(&mut self, by: usize, x: i32, y: i32) -> Result<Show, CircusError> {
        let circus = self.circus.as_mut().ok_or(CircusError::NoBigTop)?;
        let i = circus
            .pyramids
            .iter()
            .position(|p| p.at == (x, y) && p.acrobats.len() >= PYRAMID)
            .ok_or(CircusError::NoPyramid(x, y))?;
        let pyramid = circus.pyramids.remove(i);
        let mut meeples = vec![0u32; self.scores.len()];
        for &seat in &pyramid.acrobats {
            if let Some(m) = meeples.get_mut(seat) {
                *m += 1;
            }
            if let Some(s) = self.supply.get_mut(seat) {
                *s += 1;
            }
        }
        Ok(self.perform(ShowKind::Pyramid { by }, (x, y), meeples, ACROBAT_POINTS))
    }

    fn perform(&mut self, kind: ShowKind, at: (i32, i32), meeples: Vec<u32>, each: u32) -> Show {
        let points: Vec<u32> = meeples.iter().map(|m| m * each).collect();
        for (seat, p) in points.iter().enumerate() {
            if let Some(s) = self.scores.get_mut(seat) {
                *s += p;
            }
        }
        let show = Show {
            kind,
            at,
            meeples,
            points,
        };
        if let Some(c) = self.circus.as_mut() {
            c.shows.push(show.clone());
        }
        show
    }

    /// Reveals the token under the Big Top and scores the circus: every meeple on its tile and
    /// the 8 around (acrobats included) is worth the token's value; the meeples stay and the
    /// token leaves the game face up.
    fn score_circus(&mut self) -> Option<Show> {
        let circus = self.circus.as_mut()?;
        let big_top = circus.big_top.as_mut()?;
        let animal = big_top.token.take()?;
        let at = big_top.at;
        circus.revealed.push(animal);
        let mut meeples = vec![0u32; self.scores.len()];
        for f in &self.followers {
            let on = self.tiles.get(f.tile).is_some_and(|t| near((t.x, t.y), at));
            if let (true, Some(m)) = (on, meeples.get_mut(f.seat)) {
                *m += 1;
            }
        }
        for p in circus.pyramids.iter().filter(|p| near(p.at, at)) {
            for &seat in &p.acrobats {
                if let Some(m) = meeples.get_mut(seat) {
                    *m += 1;
                }
            }
        }
        Some(self.perform(ShowKind::Circus(animal), at, meeples, animal.value()))
    }

    /// After tile `tile` is placed and its completed features scored: if it is a circus tile,
    /// the circus under the Big Top is scored (from the second circus tile on) and the Big Top
    /// moves onto it over the next face-down token. `None` for any other tile.
    pub fn raise_big_top(&mut self, tile: usize) -> Option<Raised> {
        let t = *self.tiles.get(tile)?;
        if t.shape().centre != Centre::Circus || self.circus.is_none() {
            return None;
        }
        let circus = self.score_circus();
        let c = self.circus.as_mut()?;
        let token = c.stack.get(c.next).copied();
        if token.is_some() {
            c.next += 1;
        }
        c.big_top = Some(BigTop {
            tile,
            at: (t.x, t.y),
            token,
        });
        Some(Raised {
            circus,
            at: (t.x, t.y),
            token,
        })
    }

    /// The last circus scoring, at the end of the game before final scoring.
    pub fn final_circus(&mut self) -> Option<Show> {
        self.score_circus()
    }

    /// At the end of the game, every acrobat scores 5, one scoring per acrobat tile; the
    /// acrobats stay.
    pub fn final_acrobats(&mut self) -> Vec<Show> {
        let pyramids = self
            .circus
            .as_ref()
            .map(|c| c.pyramids.clone())
            .unwrap_or_default();
        let mut out = Vec::new();
        for p in pyramids.iter().filter(|p| !p.acrobats.is_empty()) {
            let mut meeples = vec![0u32; self.scores.len()];
            for &seat in &p.acrobats {
                if let Some(m) = meeples.get_mut(seat) {
                    *m += 1;
                }
            }
            out.push(self.perform(ShowKind::Acrobats, p.at, meeples, ACROBAT_POINTS));
        }
        out
    }

    /// Each seat's acrobats on the map.
    pub fn acrobats_of(&self, seat: usize) -> usize {
        self.circus.as_ref().map_or(0, |c| {
            c.pyramids
                .iter()
                .flat_map(|p| p.acrobats.iter())
                .filter(|&&s| s == seat)
                .count()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_tokens_with_their_values() {
        let tokens = animal_tokens();
        assert_eq!(tokens.len(), 16);
        assert_eq!(TOKENS, 16);
        let line: Vec<String> = tokens
            .iter()
            .map(|a| format!("{} {}", a.word(), a.value()))
            .collect();
        assert_eq!(
            line.join(", "),
            "elephant 7, tiger 6, tiger 6, bear 5, bear 5, bear 5, seal 4, seal 4, seal 4, seal 4, seal 4, monkey 3, monkey 3, monkey 3, monkey 3, flea 1"
        );
    }
}
