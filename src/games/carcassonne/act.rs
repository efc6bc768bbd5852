//! The turn cycle without words: draw (discarding tiles that fit nowhere), place, follower or
//! pass, scoring, next seat, and the end with final scoring.
//!
//! Decisions: when the player who placed a tile has no follower it could put on it (empty
//! supply, or every feature of the tile already occupied), the turn ends at once without asking.
//! Seats that left the game are skipped; if every seat has left the game ends with final scoring.
//! With Under the Big Top the choice after placing also offers the ringmaster, an acrobat and
//! the scoring of a completed pyramid anywhere; the turn ends at once only when none of them
//! (and no meeple) is possible.

use super::circus::{Animal, CircusError, Show};
use super::map::{Figure, FollowerError, Map, PlaceError, Scored};
use super::tiles::{Kind, START};
use std::fmt;

/// What the current seat must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Place the drawn tile of this kind.
    Place(u8),
    /// Put a follower on the tile just placed (index in the map's tiles), or pass.
    Follower(usize),
    /// The game is over.
    Over,
}

/// Something that happened, for the game to put into words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// A seat drew a tile kind.
    Drew(usize, u8),
    /// A drawn tile fitted nowhere and left the game.
    Discarded(u8),
    /// A seat placed the tile at (x, y) turned `rot` quarter turns.
    Placed(usize, u8, i32, i32, u8),
    /// A seat put a follower on a feature (kind, part letter index).
    Followed(usize, Kind, u8),
    /// A seat put its ringmaster on a feature (kind, part letter index).
    Ringmaster(usize, Kind, u8),
    /// A seat put an acrobat at (x, y), which now holds this many.
    Acrobat(usize, i32, i32, usize),
    /// A seat scored a completed pyramid instead of placing a figure.
    Pyramid(Show),
    /// A seat placed no follower.
    Passed(usize),
    /// A feature was scored during play.
    Scored(Scored),
    /// The circus under the Big Top was scored (a later circus tile was placed).
    Circus(Show),
    /// The Big Top went up on the circus tile at (x, y) over a face-down token (secret).
    BigTop((i32, i32), Option<Animal>),
    /// The tiles ran out: final scorings follow.
    Ended(Finale),
}

/// The end of the game: the last circus scoring, then the features, then the acrobats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finale {
    /// The circus scored one last time (if the Big Top is up over a token).
    pub circus: Option<Show>,
    /// Unfinished features and fields.
    pub features: Vec<Scored>,
    /// Every acrobat at 5, one scoring per acrobat tile.
    pub acrobats: Vec<Show>,
}

/// What a player does after placing a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Nothing.
    Pass,
    /// A meeple on this part of the tile just placed.
    Meeple(u8),
    /// The ringmaster on this part of the tile just placed.
    Ringmaster(u8),
    /// A meeple as an acrobat on the acrobat tile at (x, y).
    Acrobat(i32, i32),
    /// Score the completed pyramid at (x, y).
    Pyramid(i32, i32),
}

/// Everything the player could do after placing a tile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    /// Parts of the tile for a meeple.
    pub meeple: Vec<u8>,
    /// Parts of the tile for the ringmaster.
    pub ringmaster: Vec<u8>,
    /// Acrobat tiles that take an acrobat.
    pub acrobats: Vec<(i32, i32)>,
    /// Completed pyramids anywhere.
    pub pyramids: Vec<(i32, i32)>,
}

impl Choices {
    /// Whether there is nothing but passing.
    pub fn is_empty(&self) -> bool {
        self.meeple.is_empty()
            && self.ringmaster.is_empty()
            && self.acrobats.is_empty()
            && self.pyramids.is_empty()
    }

    /// Every choice, passing first.
    pub fn all(&self) -> Vec<Choice> {
        let mut out = vec![Choice::Pass];
        out.extend(self.meeple.iter().map(|&p| Choice::Meeple(p)));
        out.extend(self.ringmaster.iter().map(|&p| Choice::Ringmaster(p)));
        out.extend(self.acrobats.iter().map(|&(x, y)| Choice::Acrobat(x, y)));
        out.extend(self.pyramids.iter().map(|&(x, y)| Choice::Pyramid(x, y)));
        out
    }
}

/// Why a move was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// A tile is waiting to be placed first.
    PlaceFirst,
    /// The tile is already placed; only a follower or a pass is expected.
    AlreadyPlaced,
    /// The game has ended.
    Over,
    /// The placement is illegal.
    Place(PlaceError),
    /// The follower cannot go there.
    Follower(FollowerError),
    /// The acrobat or pyramid choice is not allowed.
    Circus(CircusError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::PlaceFirst => {
                write!(f, "place the drawn tile first with {}", command("place"))
            }
            MoveError::AlreadyPlaced => write!(
                f,
                "the tile is already placed; answer {} or {}",
                command("meeple"),
                command("pass")
            ),
            MoveError::Over => write!(f, "the game is over"),
            MoveError::Place(e) => write!(f, "{e}"),
            MoveError::Follower(e) => write!(f, "{e}"),
            MoveError::Circus(e) => write!(f, "{e}"),
        }
    }
}

/// A game in play: the map, the tiles still to come and whose turn it is.
#[derive(Clone, Debug)]
pub struct Match {
    /// The map, features, followers and scores.
    pub map: Map,
    deck: Vec<u8>,
    next: usize,
    seat: usize,
    stage: Stage,
    gone: Vec<bool>,
    discarded: Vec<u8>,
}

impl Match {
    /// Lays the start tile and deals the first tile from `deck` (kinds in drawing order, the
    /// start tile not included) to seat 0.
    pub fn new(players: usize, deck: Vec<u8>) -> (Match, Vec<Happening>) {
        Match::on_map(Map::new(players), deck)
    }

    /// Like [`Match::new`], with Under the Big Top: `tokens` is the face-down animal stack,
    /// top first (the deck may hold the expansion's tiles).
    pub fn with_big_top(
        players: usize,
        deck: Vec<u8>,
        tokens: Vec<Animal>,
    ) -> (Match, Vec<Happening>) {
        Match::on_map(Map::with_big_top(players, tokens), deck)
    }

    fn on_map(mut map: Map, deck: Vec<u8>) -> (Match, Vec<Happening>) {
        // The empty map accepts the start tile at the origin.
        let _ = map.place(START, 0, 0, 0);
        Match::from_map(map, deck, 0)
    }

    /// A match on a prepared map (a new game's, or a test's): `seat` to play, drawing from
    /// `deck`.
    pub fn from_map(map: Map, deck: Vec<u8>, seat: usize) -> (Match, Vec<Happening>) {
        let players = map.scores().len();
        let mut m = Match {
            map,
            deck,
            next: 0,
            seat,
            stage: Stage::Over,
            gone: vec![false; players],
            discarded: Vec::new(),
        };
        let mut out = Vec::new();
        m.draw(&mut out);
        (m, out)
    }

    /// Whose turn it is.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// What is awaited.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Tiles still face down.
    pub fn remaining(&self) -> usize {
        self.deck.len().saturating_sub(self.next)
    }

    /// Tiles discarded because they fitted nowhere.
    pub fn discarded(&self) -> &[u8] {
        &self.discarded
    }

    /// Whether a seat has left.
    pub fn is_gone(&self, seat: usize) -> bool {
        self.gone.get(seat).copied().unwrap_or(true)
    }

    fn draw(&mut self, out: &mut Vec<Happening>) {
        if self.gone.iter().all(|&g| g) {
            self.end(out);
            return;
        }
        while let Some(&kind) = self.deck.get(self.next) {
            self.next += 1;
            if self.map.fits_somewhere(kind) {
                self.stage = Stage::Place(kind);
                out.push(Happening::Drew(self.seat, kind));
                return;
            }
            self.discarded.push(kind);
            out.push(Happening::Discarded(kind));
        }
        self.end(out);
    }

    fn end(&mut self, out: &mut Vec<Happening>) {
        self.stage = Stage::Over;
        let circus = self.map.final_circus();
        let features = self.map.final_scoring();
        let acrobats = self.map.final_acrobats();
        out.push(Happening::Ended(Finale {
            circus,
            features,
            acrobats,
        }));
    }

    /// What the current seat could do with the tile just placed (empty unless a tile awaits
    /// its follower choice).
    pub fn choices(&self) -> Choices {
        let Stage::Follower(tile) = self.stage else {
            return Choices::default();
        };
        Choices {
            meeple: self.map.figure_options(self.seat, tile, Figure::Meeple),
            ringmaster: self.map.figure_options(self.seat, tile, Figure::Ringmaster),
            acrobats: self.map.acrobat_spots(self.seat, tile),
            pyramids: self.map.complete_pyramids(),
        }
    }

    /// Every choice after placing, passing first, in the order of [`Choices::all`], written
    /// over `out` (its room is kept: a playout that reuses one list allocates nothing for
    /// the base game's choices). Empty unless a tile awaits its follower choice.
    pub fn choices_into(&self, out: &mut Vec<Choice>) {
        out.clear();
        let Stage::Follower(tile) = self.stage else {
            return;
        };
        out.push(Choice::Pass);
        let parts = self.map.parts_of(tile);
        let figures: &[Figure] = if self.map.circus.is_some() {
            &[Figure::Meeple, Figure::Ringmaster]
        } else {
            &[Figure::Meeple]
        };
        for &figure in figures {
            for part in 0..parts {
                if self.map.can_place(self.seat, tile, part, figure).is_ok() {
                    out.push(match figure {
                        Figure::Meeple => Choice::Meeple(part),
                        Figure::Ringmaster => Choice::Ringmaster(part),
                    });
                }
            }
        }
        if self.map.circus.is_some() {
            let acrobats = self.map.acrobat_spots(self.seat, tile);
            out.extend(acrobats.into_iter().map(|(x, y)| Choice::Acrobat(x, y)));
            let pyramids = self.map.complete_pyramids();
            out.extend(pyramids.into_iter().map(|(x, y)| Choice::Pyramid(x, y)));
        }
    }

    /// Whether the seat to play has anything but passing to choose after placing.
    fn has_choice(&self) -> bool {
        let Stage::Follower(tile) = self.stage else {
            return false;
        };
        let seat = self.seat;
        let circus = self.map.circus.is_some();
        (0..self.map.parts_of(tile)).any(|part| {
            self.map.can_place(seat, tile, part, Figure::Meeple).is_ok()
                || (circus
                    && self
                        .map
                        .can_place(seat, tile, part, Figure::Ringmaster)
                        .is_ok())
        }) || (circus
            && !(self.map.acrobat_spots(seat, tile).is_empty()
                && self.map.complete_pyramids().is_empty()))
    }

    /// Places the drawn tile.
    pub fn place(&mut self, x: i32, y: i32, rot: u8) -> Result<Vec<Happening>, MoveError> {
        let mut out = Vec::new();
        self.place_into(x, y, rot, &mut out)?;
        Ok(out)
    }

    /// [`Match::place`], adding what happened to `out` (a playout that reuses one list
    /// allocates nothing for it). Nothing is added when the move is refused.
    pub fn place_into(
        &mut self,
        x: i32,
        y: i32,
        rot: u8,
        out: &mut Vec<Happening>,
    ) -> Result<(), MoveError> {
        let kind = match self.stage {
            Stage::Place(kind) => kind,
            Stage::Follower(_) => return Err(MoveError::AlreadyPlaced),
            Stage::Over => return Err(MoveError::Over),
        };
        let tile = self.map.place(kind, x, y, rot).map_err(MoveError::Place)?;
        out.push(Happening::Placed(self.seat, kind, x, y, rot % 4));
        self.stage = Stage::Follower(tile);
        if !self.has_choice() {
            self.choose_into(Choice::Pass, out)?;
        }
        Ok(())
    }

    /// Puts a meeple on feature `part` of the tile just placed (or none), scores, and passes
    /// the turn.
    pub fn finish(&mut self, part: Option<u8>) -> Result<Vec<Happening>, MoveError> {
        self.choose(part.map_or(Choice::Pass, Choice::Meeple))
    }

    /// Carries out the choice after placing (a figure, a pyramid scoring or nothing), then
    /// scores what the tile completed, then the circus if it is a circus tile, and passes the
    /// turn.
    pub fn choose(&mut self, choice: Choice) -> Result<Vec<Happening>, MoveError> {
        let mut out = Vec::new();
        self.choose_into(choice, &mut out)?;
        Ok(out)
    }

    /// [`Match::choose`], adding what happened to `out` (a playout that reuses one list
    /// allocates nothing for it). Nothing is added when the choice is refused.
    pub fn choose_into(
        &mut self,
        choice: Choice,
        out: &mut Vec<Happening>,
    ) -> Result<(), MoveError> {
        let tile = match self.stage {
            Stage::Follower(tile) => tile,
            Stage::Place(_) => return Err(MoveError::PlaceFirst),
            Stage::Over => return Err(MoveError::Over),
        };
        let seat = self.seat;
        match choice {
            Choice::Pass => out.push(Happening::Passed(seat)),
            Choice::Meeple(p) => {
                let kind = self
                    .map
                    .follow(seat, tile, p)
                    .map_err(MoveError::Follower)?;
                out.push(Happening::Followed(seat, kind, p));
            }
            Choice::Ringmaster(p) => {
                let kind = self
                    .map
                    .place_figure(seat, tile, p, Figure::Ringmaster)
                    .map_err(MoveError::Follower)?;
                out.push(Happening::Ringmaster(seat, kind, p));
            }
            Choice::Acrobat(x, y) => {
                let n = self
                    .map
                    .add_acrobat(seat, tile, x, y)
                    .map_err(MoveError::Circus)?;
                out.push(Happening::Acrobat(seat, x, y, n));
            }
            Choice::Pyramid(x, y) => {
                let show = self
                    .map
                    .score_pyramid(seat, x, y)
                    .map_err(MoveError::Circus)?;
                out.push(Happening::Pyramid(show));
            }
        }
        out.extend(
            self.map
                .score_completed(tile)
                .into_iter()
                .map(Happening::Scored),
        );
        if let Some(raised) = self.map.raise_big_top(tile) {
            out.extend(raised.circus.map(Happening::Circus));
            out.push(Happening::BigTop(raised.at, raised.token));
        }
        self.advance(out);
        Ok(())
    }

    fn advance(&mut self, out: &mut Vec<Happening>) {
        let n = self.gone.len();
        for step in 1..=n {
            let s = (self.seat + step) % n;
            if !self.is_gone(s) {
                self.seat = s;
                break;
            }
        }
        self.draw(out);
    }

    /// The default for a silent seat: the tile at the first legal placement in reading order,
    /// no follower.
    pub fn default_move(&mut self) -> Vec<Happening> {
        let mut out = Vec::new();
        match self.stage {
            Stage::Place(kind) => {
                if let Some(&(x, y, rot)) = self.map.legal(kind).first() {
                    if let Ok(h) = self.place(x, y, rot) {
                        out.extend(h);
                    }
                }
                if matches!(self.stage, Stage::Follower(_)) {
                    out.extend(self.finish(None).unwrap_or_default());
                }
            }
            Stage::Follower(_) => out.extend(self.finish(None).unwrap_or_default()),
            Stage::Over => {}
        }
        out
    }

    /// Where a careful player would put the drawn tile, with no follower: the legal placement
    /// that scores most for the seat to play (its points after the turn, all figures back
    /// home), then the one giving the others least, then the one nearest the centre, then the
    /// first in reading order. `None`: no tile waits to be placed.
    pub fn careful_placement(&self) -> Option<(i32, i32, u8)> {
        let Stage::Place(kind) = self.stage else {
            return None;
        };
        let seat = self.seat;
        let before = self.map.scores().to_vec();
        // The best so far: its ranking (gain, others' gain negated, distance negated) and
        // its square and rotation.
        type Ranked = ((i64, i64, i64), (i32, i32, u8));
        let mut best: Option<Ranked> = None;
        for (x, y, rot) in self.map.legal(kind) {
            let mut tried = self.clone();
            if tried.place(x, y, rot).is_err() {
                continue;
            }
            if matches!(tried.stage, Stage::Follower(_)) && tried.finish(None).is_err() {
                continue;
            }
            let gain = |s: usize| {
                i64::from(tried.map.scores().get(s).copied().unwrap_or(0))
                    - i64::from(before.get(s).copied().unwrap_or(0))
            };
            let others: i64 = (0..before.len()).filter(|s| *s != seat).map(gain).sum();
            let distance = i64::from(x) * i64::from(x) + i64::from(y) * i64::from(y);
            let key = (gain(seat), -others, -distance);
            if best.is_none_or(|(kept, _)| key > kept) {
                best = Some((key, (x, y, rot)));
            }
        }
        best.map(|(_, placement)| placement)
    }

    /// The match as a player sees it: the tiles still face down in one fixed order (which
    /// kinds are left anyone can count, their order nobody knows) and every face-down animal
    /// token read as a stand-in of about the average worth. What a computer player decides
    /// from, so nothing it cannot see changes its decision.
    pub fn as_seen(&self) -> Match {
        let mut seen = self.clone();
        if let Some(face_down) = seen.deck.get_mut(seen.next..) {
            face_down.sort_unstable();
        }
        seen.map.hide_tokens();
        seen
    }

    /// The match as a player may imagine it: [`Match::as_seen`], with the face-down tiles in an
    /// order drawn from `rng` (a computer's search imagining the rest of the game, never the
    /// game's dice), so no imagined order owes anything to the real one.
    pub fn imagined(&self, rng: &mut dyn rand_core::RngCore) -> Match {
        let mut seen = self.as_seen();
        if let Some(face_down) = seen.deck.get_mut(seen.next..) {
            for i in (1..face_down.len()).rev() {
                let j = usize::try_from(rng.next_u32()).unwrap_or_default() % (i + 1);
                face_down.swap(i, j);
            }
        }
        seen
    }

    /// `seat` leaves: its turn (if it is its turn) is played by default; later turns skip it.
    pub fn leave(&mut self, seat: usize) -> Vec<Happening> {
        if let Some(g) = self.gone.get_mut(seat) {
            *g = true;
        }
        if self.seat == seat && self.stage != Stage::Over {
            self.default_move()
        } else {
            Vec::new()
        }
    }
}

/// One of the game's declared commands as a refusal prints it.
fn command(name: &str) -> String {
    crate::games::typed(super::rules::COMMANDS, name)
}
