//! Carcassonne's turn flow: applying a move to the match (and recording it for the save),
//! drawing an animal token under the Big Top, reading a `!place` line and the choice after it.

use super::circus::animal_tokens;
use super::map::Figure;
use super::parse;
use super::parse::{After, PlaceOrder};
use super::play::{Choice, Happening, Match, MoveError, Stage};
use super::tiles::{tile_kind, Centre};
use super::{CarcassonneGame, Move, TokenRoll};
use crate::dice::Dice;
use crate::games::Refusal;

impl CarcassonneGame {
    /// The match underneath (map, scores, stage).
    pub fn play(&self) -> &Match {
        &self.play
    }

    pub(super) fn apply(&mut self, mv: Move) -> Result<Vec<Happening>, MoveError> {
        let out = match mv {
            Move::Place(x, y, r) => self.play.place(x, y, r)?,
            Move::Follower(p) => self.play.finish(p)?,
            Move::Ringmaster(p) => self.play.choose(Choice::Ringmaster(p))?,
            Move::Acrobat(x, y) => self.play.choose(Choice::Acrobat(x, y))?,
            Move::Pyramid(x, y) => self.play.choose(Choice::Pyramid(x, y))?,
            Move::Timeout => self.play.default_move(),
            Move::Left(s) => self.play.leave(s),
        };
        self.moves.push(mv);
        Ok(out)
    }

    /// Under the Big Top, a circus tile about to be placed needs a token to go under the Big
    /// Top: it is drawn now, from the tokens left in the box, with a sealed roll. (A refused
    /// placement leaves the game unsaved, so the roll is made again, identically, next time.)
    pub(super) fn draw_token(&mut self, dice: &mut Dice) {
        let Stage::Place(kind) = self.play.stage() else {
            return;
        };
        let Some(tokens) = self.tokens.as_mut() else {
            return;
        };
        let circus_tile = tile_kind(kind).is_some_and(|k| k.centre == Centre::Circus);
        if !circus_tile || self.play.map.circus().is_none_or(|c| c.token_ready()) {
            return;
        }
        let mut left = animal_tokens();
        for drawn in tokens.iter() {
            if let Some(i) = left.iter().position(|a| a == drawn) {
                left.remove(i);
            }
        }
        let Ok(sides) = u32::try_from(left.len()) else {
            return;
        };
        if sides == 0 {
            return;
        }
        let result = dice.roll_sealed("the animal token under the Big Top", sides);
        let Some(&animal) = left.get(result as usize - 1) else {
            return;
        };
        tokens.push(animal);
        self.token_rolls.push(TokenRoll { sides, result });
        self.play.map.lay_token(animal);
    }

    pub(super) fn refuse(e: MoveError) -> Refusal {
        Refusal::new(e.to_string())
    }

    pub(super) fn do_place(&mut self, args: &str) -> Result<Vec<Happening>, Refusal> {
        let PlaceOrder { x, y, rot, after } = parse::place(args).map_err(Refusal::new)?;
        let mut trial = self.clone();
        let mut out = trial.apply(Move::Place(x, y, rot)).map_err(Self::refuse)?;
        match (&after, trial.play.stage()) {
            (After::Nothing, _) | (After::Pass, Stage::Place(_) | Stage::Over) => {}
            (_, Stage::Follower(tile)) => out.extend(trial.after_placing(tile, &after)?),
            (_, Stage::Place(_) | Stage::Over) => {
                return Err(Refusal::new(
                    "you could not put a follower on this tile (no follower left or every feature taken); place it with `!pass` or nothing after",
                ))
            }
        }
        *self = trial;
        Ok(out)
    }

    /// Applies what a player asked for after placing tile `tile`.
    pub(super) fn after_placing(
        &mut self,
        tile: usize,
        after: &After,
    ) -> Result<Vec<Happening>, Refusal> {
        let mv = match after {
            After::Nothing | After::Pass => Move::Follower(None),
            After::Meeple(name) => {
                Move::Follower(Some(self.part_named(tile, name, Figure::Meeple)?))
            }
            After::Ringmaster(name) => {
                Move::Ringmaster(self.part_named(tile, name, Figure::Ringmaster)?)
            }
            After::Acrobat(x, y) => {
                self.play
                    .map
                    .can_acrobat(self.play.seat(), tile, *x, *y)
                    .map_err(|e| Refusal::new(e.to_string()))?;
                Move::Acrobat(*x, *y)
            }
            After::Pyramid(x, y) => Move::Pyramid(*x, *y),
        };
        self.apply(mv).map_err(Self::refuse)
    }

    pub(super) fn part_named(
        &self,
        tile: usize,
        name: &str,
        figure: Figure,
    ) -> Result<u8, Refusal> {
        let shape = self
            .play
            .map
            .tiles()
            .get(tile)
            .map(|t| t.shape())
            .ok_or_else(|| Refusal::new("no tile is waiting for a follower"))?;
        let part = parse::feature(shape, name).map_err(Refusal::new)?;
        self.play
            .map
            .can_place(self.play.seat(), tile, part, figure)
            .map_err(|e| Refusal::new(format!("{e}; you may `!pass` instead")))?;
        Ok(part)
    }
}
