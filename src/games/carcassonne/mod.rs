//! Carcassonne, the base game (72 tiles, third-edition farmers) with the Under the Big Top
//! expansion (circus and acrobat tiles, animal tokens, the Big Top, ringmasters), played by post
//! (rules: docs/rules/carcassonne.md and docs/rules/carcassonne-tiles.md).
//!
//! The bot draws each tile (seeded), shows it with its legal placements, and the player answers
//! `!place <x> <y> <rotation>` then `!meeple <feature>`, `!ringmaster <feature>`,
//! `!acrobat <x> <y>`, `!pyramid <x> <y>` or `!pass` (or all in one line).
//!
//! Decisions where the rules page is silent:
//! - Coordinates: x grows to the east, y to the south (JCZ); the start tile D is at (0,0).
//!   Rotations are 0, 90, 180, 270 degrees clockwise. The same axes are used in texts, pictures
//!   and commands.
//! - Colours: red, blue, green, yellow, black by seat, or the colour chosen at `!join`.
//! - Option `bigtop`: `on` (the default) adds Under the Big Top's 20 tiles to the deck, the 16
//!   animal tokens (face down in the box: when a circus tile is about to be placed, the token
//!   that goes under the Big Top is drawn from those left with a sealed roll) and one ringmaster
//!   per player, and allows a sixth player (grey, with 7
//!   followers like the others); `off` is the plain base game for 2 to 5 players.
//! - The token under the Big Top is in no public text or picture; the audit log keeps its roll
//!   and the token as sealed events (secret exports only) and shows both publicly when the
//!   circus is scored and the token revealed.
//! - The choice after placing offers everything that applies (meeple, ringmaster, acrobat,
//!   pyramid); when nothing applies the turn ends at once. A completed pyramid may be scored
//!   by a player with an empty supply.
//! - End of game: the circus is scored one last time, then unfinished features and fields
//!   (ringmasters earn their bonus after their feature), then every acrobat at 5.
//! - Option `turn`: the turn time limit (`24h` by default; `90m`, `2d`, `36h` style).
//! - A turn whose deadline passes: the tile goes where a careful player would put it, with no
//!   follower: the legal placement scoring most for the seat, then giving the others least,
//!   then nearest the centre (see [`act::Match::careful_placement`]).
//! - A seat that leaves is skipped from then on; if it was its turn, its tile goes to the first
//!   legal placement in reading order. Its followers stay on the map and its points count in
//!   the ranking.
//! - Rules revisions ([`crate::games::Rules::revision`]): 2, a timed-out tile is placed
//!   carefully (before: the first legal placement in reading order, which grew the map in a
//!   spine to the north); 3, "an elephant" (before: "a elephant"), a final scoring of one
//!   line per player that fits one post, and "dan takes over ann's seat" for "seat 1".
//! - The saved state is the deck order and the list of moves; loading replays them, so a
//!   corrupt save is refused rather than trusted.

// The pieces: the tiles and the map with its features (tiles, map) on a grid of cells and
// open spots (grid), scoring (scoring), the circus (circus), a match's moves and stages (act),
// players' words (parse), pictures (picture), texts (text), options and set-up (rules); here,
// the game as the table sees it: the contract, and a move applied with its words.
pub mod act;
pub mod circus;
pub mod computer;
mod grid;
pub mod map;
pub mod parse;
pub mod picture;
pub mod scoring;
pub mod tiles;

mod rules;
mod text;

pub use text::placements_text;

use self::act::{Choice, Happening, Match, MoveError, Stage};
use self::circus::animal_tokens;
use self::circus::Animal;
use self::map::Figure;
use self::parse::{After, PlaceOrder};
use self::text::tile_name;
use self::tiles::shape_of;
use self::tiles::{tile_kind, Centre};
use crate::dice::Dice;
use crate::duration::parse_duration;
use crate::games::Happened;
use crate::games::{count, ranked, Board, Ctx, Event, Game, Options, Phase, Player, Refusal, Seat};
use crate::games::{Decision, Level};
use chrono::Duration;
use rand_core::RngCore;
use serde::{Deserialize, Serialize};

/// The colours seats take, in order (grey only with Under the Big Top's sixth player).
pub const COLOURS: [&str; 6] = ["red", "blue", "green", "yellow", "black", "grey"];

/// The rules of Carcassonne, for the table's registry.
pub struct Carcassonne;

/// The registered value.
pub static CARCASSONNE_RULES: Carcassonne = Carcassonne;

/// One recorded move, replayed when a saved game is loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Move {
    /// The drawn tile went to (x, y) turned `rot` quarter turns.
    Place(i32, i32, u8),
    /// A follower on this part of the tile just placed, or none.
    Follower(Option<u8>),
    /// The ringmaster on this part of the tile just placed.
    Ringmaster(u8),
    /// An acrobat on the acrobat tile at (x, y).
    Acrobat(i32, i32),
    /// The completed pyramid at (x, y) was scored.
    Pyramid(i32, i32),
    /// The turn timed out.
    Timeout,
    /// A seat left.
    Left(usize),
}

/// What the store keeps of a game: the players, the deck order, the tokens and every move;
/// loading replays the moves.
#[derive(Serialize, Deserialize)]
struct Saved {
    names: Vec<String>,
    colours: Vec<String>,
    deck: Vec<u8>,
    moves: Vec<Move>,
    #[serde(default)]
    bigtop: bool,
    #[serde(default)]
    tokens: Vec<Animal>,
    #[serde(default)]
    token_rolls: Vec<TokenRoll>,
}

/// The sealed roll that drew a token from the box: `result` counts the `sides` tokens then
/// left, in the box's order (elephant first, flea last).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct TokenRoll {
    sides: u32,
    result: u32,
}

/// A game of Carcassonne in progress.
#[derive(Clone, Debug)]
pub struct CarcassonneGame {
    names: Vec<String>,
    colours: Vec<String>,
    deck: Vec<u8>,
    tokens: Option<Vec<Animal>>,
    token_rolls: Vec<TokenRoll>,
    moves: Vec<Move>,
    play: Match,
}

impl Game for CarcassonneGame {
    fn marks(&self) -> Vec<crate::games::Mark> {
        self.colours
            .iter()
            .enumerate()
            .map(|(seat, colour)| crate::games::Mark {
                seat,
                mark: colour.clone(),
                colour: Some(picture::colour_fill(colour).to_string()),
            })
            .collect()
    }

    fn phase(&self) -> Phase {
        match self.play.stage() {
            Stage::Over => {
                let scores = self.play.map.scores();
                let mut seats: Vec<usize> = (0..scores.len()).collect();
                seats.sort_by_key(|&s| std::cmp::Reverse(scores.get(s).copied().unwrap_or(0)));
                let ranking = ranked(seats.into_iter().map(|s| (scores.get(s), s)));
                Phase::Over { ranking }
            }
            _ => Phase::Turn {
                seat: self.play.seat(),
            },
        }
    }

    fn time_limit(&self, options: &Options) -> Option<Duration> {
        match self.play.stage() {
            Stage::Over => None,
            _ => Some(
                options
                    .get("turn")
                    .and_then(|t| parse_duration(t))
                    .unwrap_or_else(|| Duration::hours(24)),
            ),
        }
    }

    fn act(&mut self, seat: Seat, word: &str, args: &str, ctx: &mut Ctx<'_>) -> Happened {
        if self.play.stage() == Stage::Over {
            return Err(Refusal::new("the game is over"));
        }
        if seat != self.play.seat() {
            return Err(Refusal::new(format!(
                "it is {}'s turn, not yours",
                self.name(self.play.seat())
            )));
        }
        let happened = match word.trim().to_lowercase().as_str() {
            "place" => {
                self.draw_token(ctx.dice);
                self.do_place(args)?
            }
            w @ ("meeple" | "follower" | "ringmaster" | "acrobat" | "pyramid") => {
                let Stage::Follower(tile) = self.play.stage() else {
                    return Err(Refusal::new(MoveError::PlaceFirst.to_string()));
                };
                let after = match w {
                    "ringmaster" => After::Ringmaster(parse::meeple(args).map_err(Refusal::new)?),
                    "acrobat" | "pyramid" => {
                        let (x, y) = parse::coordinates(args, w).map_err(Refusal::new)?;
                        if w == "acrobat" {
                            After::Acrobat(x, y)
                        } else {
                            After::Pyramid(x, y)
                        }
                    }
                    _ => After::Meeple(parse::meeple(args).map_err(Refusal::new)?),
                };
                self.after_placing(tile, &after)?
            }
            "pass" => {
                if !matches!(self.play.stage(), Stage::Follower(_)) {
                    return Err(Refusal::new(
                        "you cannot pass before placing the tile; a tile that fits somewhere must be placed",
                    ));
                }
                self.apply(Move::Follower(None)).map_err(Self::refuse)?
            }
            other => {
                return Err(Refusal::new(format!(
                    "`{other}` is not a carcassonne command; use place, meeple, ringmaster, acrobat, pyramid or pass"
                )))
            }
        };
        Ok(self.tell(&happened, ctx.revision))
    }

    fn timeout(&mut self, ctx: &mut Ctx<'_>) -> Vec<Event> {
        if self.play.stage() == Stage::Over {
            return Vec::new();
        }
        self.draw_token(ctx.dice);
        let name = self.name(self.play.seat());
        let placed_already = matches!(self.play.stage(), Stage::Follower(_));
        // From revision 2 on the tile goes where a careful player would put it; before, to the
        // first legal placement in reading order (which grew the map in a spine to the north).
        let careful = (ctx.revision >= 2)
            .then(|| self.play.careful_placement())
            .flatten();
        let (happened, how) = match careful {
            Some((x, y, rot)) => {
                let mut happened = self.apply(Move::Place(x, y, rot)).unwrap_or_default();
                if matches!(self.play.stage(), Stage::Follower(_)) {
                    happened.extend(self.apply(Move::Follower(None)).unwrap_or_default());
                }
                (
                    happened,
                    "where it scores most for them (nearest the centre among equals)",
                )
            }
            None => (
                self.apply(Move::Timeout).unwrap_or_default(),
                "to the first legal placement",
            ),
        };
        let told = match placed_already {
            true => format!("{name} ran out of time: no follower on the tile."),
            false => format!("{name} ran out of time: the tile goes {how}, with no follower."),
        };
        let mut events = vec![Event::public(told)];
        events.extend(self.tell(&happened, ctx.revision));
        events
    }

    fn seat_left(&mut self, seat: Seat, heir: Option<&Player>, ctx: &mut Ctx<'_>) -> Vec<Event> {
        if let Some(p) = heir {
            let said = match ctx.revision >= text::PLAIN_WORDS_FROM {
                true => format!("{} takes over {}'s seat.", p.name, self.name(seat)),
                false => format!("{} takes over seat {seat}.", p.name),
            };
            self.rename(seat, &p.name);
            return vec![Event::public(said)];
        }
        let name = self.name(seat);
        let happened = self.apply(Move::Left(seat)).unwrap_or_default();
        let mut events = vec![Event::public(format!(
            "{name} left the game; their turns are skipped and their followers stay."
        ))];
        events.extend(self.tell(&happened, ctx.revision));
        events
    }

    fn rename(&mut self, seat: Seat, name: &str) {
        if let Some(n) = self.names.get_mut(seat) {
            *n = name.to_string();
        }
    }

    fn board(&self) -> Board {
        self.board_as(self.play.stage())
    }

    fn final_board(&self) -> Board {
        self.board_as(Stage::Over)
    }

    fn computer(&self, seat: Seat, level: Level, rng: &mut dyn RngCore) -> Option<Decision> {
        computer::decide(&self.play, seat, level, rng).map(crate::games::Decision::Action)
    }

    fn private_status(&self, seat: Seat) -> String {
        let mut t = format!(
            "You play {}: {}, {} in your supply{}.",
            self.colours.get(seat).map_or("", String::as_str),
            count(
                self.play.map.scores().get(seat).copied().unwrap_or(0),
                "point"
            ),
            count(
                self.play.map.supply().get(seat).copied().unwrap_or(0),
                "follower"
            ),
            self.ringmaster_note(seat)
        );
        if seat == self.play.seat() {
            match self.play.stage() {
                Stage::Place(kind) => t.push_str(&format!(
                    " It is your turn: place {} ({}).",
                    tile_name(kind),
                    shape_of(kind, 0).map(parse::part_list).unwrap_or_default()
                )),
                Stage::Follower(tile) => t.push_str(&format!(
                    " It is your turn. {}.",
                    self.choice_list(tile, &self.play.choices())
                )),
                Stage::Over => {}
            }
        }
        t
    }

    fn save(&self) -> serde_json::Value {
        serde_json::to_value(Saved {
            names: self.names.clone(),
            colours: self.colours.clone(),
            deck: self.deck.clone(),
            moves: self.moves.clone(),
            bigtop: self.tokens.is_some(),
            tokens: self.tokens.clone().unwrap_or_default(),
            token_rolls: self.token_rolls.clone(),
        })
        .unwrap_or(serde_json::Value::Null)
    }
}

impl CarcassonneGame {
    /// The board with the game at `stage`: its own, or over when the table ended it.
    fn board_as(&self, stage: Stage) -> Board {
        let pending = match stage {
            Stage::Place(kind) => Some(kind),
            _ => None,
        };
        let legal = pending.map(|k| self.play.map.legal(k)).unwrap_or_default();
        let last = self.play.map.tiles().len().checked_sub(1);
        let svg = picture::board_svg(
            &self.play.map,
            &picture::View {
                colours: &self.colours,
                names: &self.names,
                tiles_left: self.play.remaining(),
                pending,
                legal: &legal,
                last,
                choosing: matches!(stage, Stage::Follower(_)),
            },
        );
        let mut text = String::from("```\n");
        for (s, name) in self.names.iter().enumerate() {
            text.push_str(&format!(
                "{name} ({}): {}, {} left{}{}\n",
                self.colours.get(s).map_or("", String::as_str),
                count(self.play.map.scores().get(s).copied().unwrap_or(0), "point"),
                count(
                    self.play.map.supply().get(s).copied().unwrap_or(0),
                    "follower"
                ),
                self.ringmaster_note(s),
                if self.play.is_gone(s) { " (left)" } else { "" }
            ));
        }
        text.push_str(&format!("Tiles left: {}\n", self.play.remaining()));
        text.push_str(&self.circus_lines());
        match stage {
            Stage::Place(kind) => text.push_str(&format!(
                "{} to place {} ({})\n",
                self.name(self.play.seat()),
                tile_name(kind),
                count(legal.len(), "legal placement")
            )),
            Stage::Follower(_) => text.push_str(&format!(
                "{} to choose a follower for the new tile, or pass\n",
                self.name(self.play.seat())
            )),
            Stage::Over => text.push_str("The game is over.\n"),
        }
        text.push_str("```");
        Board {
            text,
            svg: Some(svg),
        }
    }

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
