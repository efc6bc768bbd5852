//! Carcassonne, the base game (72 tiles, third-edition farmers) with the Under the Big Top
//! expansion (circus and acrobat tiles, animal tokens, the Big Top, ringmasters), played by post.
//!
//! The bot draws each tile (seeded), shows it with its legal placements, and the player answers
//! `place <x> <y> <rotation>` then `meeple <feature>`, `ringmaster <feature>`, `acrobat <x> <y>`,
//! `pyramid <x> <y>` or `pass` (or all in one line).
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
//! - A seat that leaves is skipped from then on; if it was its turn, its tile is placed as on a
//!   timeout. Its followers stay on the map and its points count in the ranking.
//! - The saved state is the deck order and the list of moves; loading replays them, so a
//!   corrupt save is refused rather than trusted.

pub mod circus;
pub mod map;
pub mod parse;
pub mod play;
pub mod render;
pub mod scoring;
pub mod tiles;

use self::circus::{animal_tokens, Animal, Show, ShowKind};
use self::map::{Figure, Scored};
use self::parse::{After, PlaceOrder};
use self::play::{Choice, Choices, Finale, Happening, Match, MoveError, Stage};
use self::tiles::{base_box, bigtop_box, shape_of, tile_kind, Centre, Kind, BASE, KINDS, START};
use crate::chat::duration::parse_duration;
use crate::dice::Dice;
use crate::games::{
    Board, CommandHelp, Ctx, Event, Game, LoadError, Options, Phase, Player, Refusal, Rules, Seat,
};
use chrono::Duration;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The colours seats take, in order (grey only with Under the Big Top's sixth player).
pub const COLOURS: [&str; 6] = ["red", "blue", "green", "yellow", "black", "grey"];

/// The rules of Carcassonne, for the table's registry.
pub struct Carcassonne;

/// The registered value.
pub static CARCASSONNE_RULES: Carcassonne = Carcassonne;

const OPTIONS: &[(&str, &str)] = &[
    (
        "bigtop",
        "Under the Big Top expansion: on (the default: circus, acrobats, ringmasters, up to 6 players) or off (the base game)",
    ),
    (
        "turn",
        "time for one turn, like 24h, 90m or 2d (default 24h)",
    ),
];

const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        name: "place",
        usage: "place <x> <y> <rotation> [meeple <feature> | pass]",
        about: "Place the drawn tile (x east, y south, rotation 0/90/180/270 clockwise).",
    },
    CommandHelp {
        name: "meeple",
        usage: "meeple <feature>",
        about: "Put a follower on a feature of the tile just placed (letter or road-n, city, field-ne, monastery).",
    },
    CommandHelp {
        name: "ringmaster",
        usage: "ringmaster <feature>",
        about: "Put your ringmaster on a feature of the tile just placed (Under the Big Top).",
    },
    CommandHelp {
        name: "acrobat",
        usage: "acrobat <x> <y>",
        about: "Put a meeple as an acrobat on the acrobat tile at (x,y): the tile just placed or one of its 8 neighbours.",
    },
    CommandHelp {
        name: "pyramid",
        usage: "pyramid <x> <y>",
        about: "Score the completed pyramid at (x,y) instead of placing a figure: 5 points per acrobat to its owner.",
    },
    CommandHelp {
        name: "pass",
        usage: "pass",
        about: "Place no follower this turn.",
    },
];

fn bigtop_on(options: &Options) -> Result<bool, Refusal> {
    match options.get("bigtop") {
        None => Ok(true),
        Some(value) => match value.trim().to_lowercase().as_str() {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(Refusal::new(format!(
                "bigtop must be on or off, not `{value}`"
            ))),
        },
    }
}

impl Rules for Carcassonne {
    fn name(&self) -> &'static str {
        "carcassonne"
    }

    fn about(&self) -> &'static str {
        "Carcassonne with Under the Big Top: lay tiles, claim roads, cities, monasteries and fields, run the circus (2-6 players; bigtop=off: the base game, 2-5)."
    }

    fn players(&self) -> (usize, Option<usize>) {
        (2, Some(6))
    }

    fn options(&self) -> &'static [(&'static str, &'static str)] {
        OPTIONS
    }

    fn commands(&self) -> &'static [CommandHelp] {
        COMMANDS
    }

    fn orders(&self) -> &'static [CommandHelp] {
        &[]
    }

    fn check_options(&self, options: &Options) -> Result<(), Refusal> {
        for (key, value) in options {
            match key.as_str() {
                "bigtop" => {
                    bigtop_on(options)?;
                }
                "turn" => {
                    if parse_duration(value).is_none() {
                        return Err(Refusal::new(format!(
                            "turn must be a duration like 24h, 90m or 2d, not `{value}`"
                        )));
                    }
                }
                _ => {
                    return Err(Refusal::new(format!(
                    "carcassonne has no option `{key}`; it accepts bigtop=on|off and turn=<duration>"
                )))
                }
            }
        }
        Ok(())
    }

    fn check_symbol(&self, wanted: Option<&str>, taken: &[String]) -> Result<(), Refusal> {
        let Some(wanted) = wanted else {
            return Ok(());
        };
        let w = wanted.trim().to_lowercase();
        if !COLOURS.contains(&w.as_str()) {
            return Err(Refusal::new(format!(
                "`{wanted}` is not a colour; choose one of {}",
                COLOURS.join(", ")
            )));
        }
        if taken.iter().any(|t| t.trim().to_lowercase() == w) {
            return Err(Refusal::new(format!("{w} is already taken")));
        }
        Ok(())
    }

    fn setup(
        &self,
        options: &Options,
        players: &[Player],
        ctx: &mut Ctx<'_>,
    ) -> Result<(Box<dyn Game>, Vec<Event>), Refusal> {
        self.check_options(options)?;
        let bigtop = bigtop_on(options)?;
        let most = if bigtop { 6 } else { 5 };
        if !(2..=most).contains(&players.len()) {
            return Err(Refusal::new(format!(
                "carcassonne {} needs 2 to {most} players, not {}",
                if bigtop {
                    "with Under the Big Top"
                } else {
                    "without Under the Big Top (bigtop=off)"
                },
                players.len()
            )));
        }
        let mut colours: Vec<String> = Vec::new();
        for p in players {
            let wanted = p.symbol.as_deref().map(|s| s.trim().to_lowercase());
            let colour = match wanted {
                Some(c) if COLOURS.contains(&c.as_str()) && !colours.contains(&c) => c,
                _ => COLOURS
                    .iter()
                    .map(|c| c.to_string())
                    .find(|c| {
                        !colours.contains(c)
                            && !players.iter().any(|q| {
                                q.symbol.as_deref().map(str::to_lowercase).as_deref()
                                    == Some(c.as_str())
                            })
                    })
                    .or_else(|| {
                        COLOURS
                            .iter()
                            .map(|c| c.to_string())
                            .find(|c| !colours.contains(c))
                    })
                    .unwrap_or_default(),
            };
            colours.push(colour);
        }
        let mut deck = base_box();
        if let Some(i) = deck.iter().position(|&k| k == START) {
            deck.remove(i);
        }
        if bigtop {
            deck.extend(bigtop_box());
        }
        ctx.dice.shuffle_sealed("tile order", &mut deck);
        let tokens = bigtop.then(Vec::new);
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        let (game, happened) = Carcassonne::start_with(names, colours, deck, tokens);
        let mut events = vec![Event::public(format!(
            "Carcassonne{} begins: {}. The start tile D lies at (0,0); x grows to the east, y to the south; rotations are clockwise.",
            if bigtop { " with Under the Big Top" } else { "" },
            game.names
                .iter()
                .zip(&game.colours)
                .map(|(n, c)| format!("{n} ({c})"))
                .collect::<Vec<_>>()
                .join(", ")
        ))];
        events.extend(game.tell(&happened));
        Ok((Box::new(game), events))
    }

    fn waitlist(&self) -> bool {
        false
    }

    fn load(&self, saved: &serde_json::Value) -> Result<Box<dyn Game>, LoadError> {
        let err = |reason: String| LoadError {
            game: "carcassonne",
            reason,
        };
        let s: Saved = serde_json::from_value(saved.clone()).map_err(|e| err(e.to_string()))?;
        let most = if s.bigtop { 6 } else { 5 };
        if !(2..=most).contains(&s.names.len()) || s.colours.len() != s.names.len() {
            return Err(err("wrong number of players or colours".to_string()));
        }
        let kinds = if s.bigtop { KINDS } else { BASE.len() };
        if s.deck.iter().any(|&k| usize::from(k) >= kinds) {
            return Err(err("unknown tile kind in the deck".to_string()));
        }
        let tokens = s.bigtop.then_some(s.tokens);
        let (mut game, _) = Carcassonne::start_with(s.names, s.colours, s.deck, tokens);
        game.token_rolls = s.token_rolls;
        for (i, mv) in s.moves.into_iter().enumerate() {
            game.apply(mv)
                .map_err(|e| err(format!("move {} cannot be replayed: {e}", i + 1)))?;
        }
        Ok(Box::new(game))
    }
}

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

fn follower_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Road => "thief",
        Kind::City => "knight",
        Kind::Field => "farmer",
        Kind::Monastery => "monk",
    }
}

fn letter_of(kind: u8) -> String {
    match tile_kind(kind) {
        Some(k) => match k.centre {
            Centre::Circus => format!("{} (circus)", k.name),
            Centre::Acrobats => format!("{} (acrobats)", k.name),
            Centre::Empty | Centre::Monastery => k.name.to_string(),
        },
        None => "?".to_string(),
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The legal placements as text: "(1,0) at 0 or 180; (0,1) at 90".
pub fn placements_text(legal: &[(i32, i32, u8)]) -> String {
    let mut groups: Vec<((i32, i32), Vec<String>)> = Vec::new();
    for &(x, y, r) in legal {
        let deg = (u32::from(r) * 90).to_string();
        match groups.last_mut() {
            Some((spot, rots)) if *spot == (x, y) => rots.push(deg),
            _ => groups.push(((x, y), vec![deg])),
        }
    }
    groups
        .iter()
        .map(|((x, y), rots)| format!("({x},{y}) at {}", rots.join(" or ")))
        .collect::<Vec<_>>()
        .join("; ")
}

impl Carcassonne {
    /// A game for these players (names and colours by seat) with this deck order (the start
    /// tile not included); also used by tests to play a known deck.
    pub fn start(
        names: Vec<String>,
        colours: Vec<String>,
        deck: Vec<u8>,
    ) -> (CarcassonneGame, Vec<Happening>) {
        Carcassonne::start_with(names, colours, deck, None)
    }

    /// Like [`Carcassonne::start`]; with `tokens` (the face-down animal stack, top first) the
    /// game plays Under the Big Top.
    pub fn start_with(
        names: Vec<String>,
        colours: Vec<String>,
        deck: Vec<u8>,
        tokens: Option<Vec<Animal>>,
    ) -> (CarcassonneGame, Vec<Happening>) {
        let (play, happened) = match &tokens {
            Some(t) => Match::with_big_top(names.len(), deck.clone(), t.clone()),
            None => Match::new(names.len(), deck.clone()),
        };
        (
            CarcassonneGame {
                names,
                colours,
                deck,
                tokens,
                token_rolls: Vec::new(),
                moves: Vec::new(),
                play,
            },
            happened,
        )
    }
}

impl CarcassonneGame {
    /// The match underneath (map, scores, stage).
    pub fn play(&self) -> &Match {
        &self.play
    }

    fn name(&self, seat: usize) -> String {
        self.names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    fn names_of(&self, seats: &[usize]) -> String {
        seats
            .iter()
            .map(|&s| self.name(s))
            .collect::<Vec<_>>()
            .join(" and ")
    }

    fn apply(&mut self, mv: Move) -> Result<Vec<Happening>, MoveError> {
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

    fn scored_text(&self, s: &Scored) -> String {
        let what = match (s.kind, s.complete) {
            (Kind::Field, _) => format!(
                "The field at ({},{}) touches {} completed {}",
                s.at.0,
                s.at.1,
                s.size,
                if s.size == 1 { "city" } else { "cities" }
            ),
            (Kind::Monastery, true) => {
                format!("The completed monastery at ({},{})", s.at.0, s.at.1)
            }
            (Kind::Monastery, false) => format!(
                "The unfinished monastery at ({},{}) ({} of 9 tiles)",
                s.at.0, s.at.1, s.size
            ),
            (k, c) => format!(
                "The {} {} at ({},{}) ({} tile{})",
                if c { "completed" } else { "unfinished" },
                k.word(),
                s.at.0,
                s.at.1,
                s.size,
                if s.size == 1 { "" } else { "s" }
            ),
        };
        let who = if s.winners.len() > 1 {
            format!("{} each", self.names_of(&s.winners))
        } else {
            self.names_of(&s.winners)
        };
        let mut text = format!(
            "{what}: {} point{} for {who}.",
            s.points,
            if s.points == 1 { "" } else { "s" }
        );
        for r in &s.ringmasters {
            text.push_str(&format!(
                " {}'s ringmaster at ({},{}): {} around it, {}.",
                self.name(r.seat),
                r.at.0,
                r.at.1,
                plural(
                    r.tiles,
                    "circus or acrobat tile",
                    "circus and acrobat tiles"
                ),
                plural(r.points, "point", "points")
            ));
        }
        text
    }

    fn who_scored(&self, show: &Show, one: &str, many: &str) -> String {
        let parts: Vec<String> = show
            .meeples
            .iter()
            .zip(&show.points)
            .enumerate()
            .filter(|(_, (m, _))| **m > 0)
            .map(|(seat, (m, p))| {
                format!(
                    "{} {}, {}",
                    self.name(seat),
                    plural(*m, one, many),
                    plural(*p, "point", "points")
                )
            })
            .collect();
        if parts.is_empty() {
            format!("nobody has {many} there")
        } else {
            parts.join("; ")
        }
    }

    fn show_text(&self, show: &Show) -> String {
        let (x, y) = show.at;
        match show.kind {
            ShowKind::Circus(animal) => format!(
                "The token under the Big Top at ({x},{y}) is revealed: a {}, {} per meeple. Circus scoring for the meeples on its tile and the 8 around (they stay): {}. The {} leaves the game face up.",
                animal.word(),
                plural(animal.value(), "point", "points"),
                self.who_scored(show, "meeple", "meeples"),
                animal.word()
            ),
            ShowKind::Pyramid { by } => format!(
                "{} scores the completed pyramid at ({x},{y}): {}. The acrobats go home.",
                self.name(by),
                self.who_scored(show, "acrobat", "acrobats")
            ),
            ShowKind::Acrobats => format!(
                "The acrobats at ({x},{y}), 5 points each: {}.",
                self.who_scored(show, "acrobat", "acrobats")
            ),
        }
    }

    /// The final scoring; `reveal` is the ordinal of the token the last circus scoring reveals.
    fn finale_text(&self, finale: &Finale, reveal: usize) -> String {
        let mut t = String::from("The tiles are all played. Final scoring:");
        let features: Vec<&Scored> = finale
            .features
            .iter()
            .filter(|s| !s.winners.is_empty() || !s.ringmasters.is_empty())
            .collect();
        if finale.circus.is_none() && features.is_empty() && finale.acrobats.is_empty() {
            t.push_str(" nothing left to score.");
        }
        if let Some(show) = &finale.circus {
            t.push_str(" The circus is scored one last time. ");
            t.push_str(&self.show_text(show));
            t.push_str(&self.token_roll_text(reveal));
        }
        for s in features {
            t.push(' ');
            t.push_str(&self.scored_text(s));
        }
        for show in &finale.acrobats {
            t.push(' ');
            t.push_str(&self.show_text(show));
        }
        t.push_str(&format!(" Final scores: {}.", self.score_line()));
        t
    }

    /// Under the Big Top, a circus tile about to be placed needs a token to go under the Big
    /// Top: it is drawn now, from the tokens left in the box, with a sealed roll. (A refused
    /// placement leaves the game unsaved, so the roll is made again, identically, next time.)
    fn draw_token(&mut self, dice: &mut Dice) {
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

    /// How the `k`-th revealed token was drawn, now that it is face up (empty for a game
    /// started with a stack laid out in advance, as tests do).
    fn token_roll_text(&self, k: usize) -> String {
        self.token_rolls
            .get(k)
            .map(|roll| {
                format!(
                    " It was drawn with a sealed roll, shown now: d{} = {}, counting the {} tokens then left in the box from elephant to flea.",
                    roll.sides, roll.result, roll.sides
                )
            })
            .unwrap_or_default()
    }

    /// The name of part `part` of the tile just placed ("road-w").
    fn part_of_last_tile(&self, part: u8) -> String {
        self.play
            .map
            .tiles()
            .last()
            .map(|t| parse::part_name(t.shape(), usize::from(part)))
            .unwrap_or_default()
    }

    fn tell(&self, happened: &[Happening]) -> Vec<Event> {
        let mut out = Vec::new();
        let reveals = happened
            .iter()
            .filter(|h| match h {
                Happening::Circus(_) => true,
                Happening::Ended(finale) => finale.circus.is_some(),
                _ => false,
            })
            .count();
        let mut reveal = self
            .play
            .map
            .circus()
            .map_or(0, |c| c.revealed().len().saturating_sub(reveals));
        for h in happened {
            let text = match h {
                Happening::Drew(seat, kind) => format!(
                    "{}'s turn: tile {} is drawn ({} left after it). Legal placements: {}. Answer `place <x> <y> <rotation>`, optionally followed by {}.",
                    self.name(*seat),
                    letter_of(*kind),
                    self.play.remaining(),
                    placements_text(&self.play.map.legal(*kind)),
                    if self.tokens.is_some() {
                        "`meeple <feature>`, `ringmaster <feature>`, `acrobat <x> <y>`, `pyramid <x> <y>` or `pass`"
                    } else {
                        "`meeple <feature>` or `pass`"
                    }
                ),
                Happening::Discarded(kind) => format!(
                    "Tile {} fits nowhere on the map: it is discarded and another is drawn.",
                    letter_of(*kind)
                ),
                Happening::Placed(seat, kind, x, y, r) => {
                    let mut t = format!(
                        "{} places tile {} at ({x},{y}) turned {}.",
                        self.name(*seat),
                        letter_of(*kind),
                        u32::from(*r) * 90
                    );
                    if matches!(self.play.stage(), Stage::Follower(_)) && self.play.seat() == *seat
                    {
                        t.push(' ');
                        t.push_str(&self.choices_text());
                    }
                    t
                }
                Happening::Followed(seat, kind, part) => {
                    let name = self.part_of_last_tile(*part);
                    format!(
                        "{} puts a {} on {name} ({}).",
                        self.name(*seat),
                        follower_word(*kind),
                        parse::letter(usize::from(*part))
                    )
                }
                Happening::Ringmaster(seat, _, part) => {
                    let name = self.part_of_last_tile(*part);
                    format!(
                        "{} puts the ringmaster on {name} ({}).",
                        self.name(*seat),
                        parse::letter(usize::from(*part))
                    )
                }
                Happening::Acrobat(seat, x, y, n) => format!(
                    "{} puts an acrobat on the acrobat tile at ({x},{y}): {n} of 3{}.",
                    self.name(*seat),
                    if *n >= circus::PYRAMID {
                        ", the pyramid is complete"
                    } else {
                        ""
                    }
                ),
                Happening::Pyramid(show) => self.show_text(show),
                Happening::Circus(show) => {
                    reveal += 1;
                    self.show_text(show) + &self.token_roll_text(reveal - 1)
                }
                Happening::BigTop((x, y), token) => {
                    if let Some(animal) = token {
                        out.push(Event::sealed(format!(
                            "The face-down token under the Big Top at ({x},{y}) is a {} ({} per meeple).",
                            animal.word(),
                            plural(animal.value(), "point", "points")
                        )));
                    }
                    let left = self.play.map.circus().map_or(0, |c| c.stack_left());
                    match token {
                        Some(_) => format!(
                            "The Big Top stands on the circus tile at ({x},{y}) now, over a face-down animal token ({left} left in the box)."
                        ),
                        None => format!(
                            "The Big Top stands on the circus tile at ({x},{y}) now; no animal token is left to put under it."
                        ),
                    }
                }
                Happening::Passed(seat) => format!("{} places no follower.", self.name(*seat)),
                Happening::Scored(s) => self.scored_text(s),
                Happening::Ended(finale) => self.finale_text(finale, reveal),
            };
            out.push(Event::public(text));
        }
        out
    }

    /// The choices after placing, as the player reads them.
    fn choices_text(&self) -> String {
        let choices = self.play.choices();
        let tile = match self.play.stage() {
            Stage::Follower(tile) => tile,
            _ => return String::new(),
        };
        if self.tokens.is_none() {
            return format!(
                "Put a follower with `meeple <feature>` on one of: {}; or `pass`.",
                self.parts_text(tile, &choices.meeple)
            );
        }
        format!("Choose {}.", self.choice_list(tile, &choices).join("; "))
    }

    fn choice_list(&self, tile: usize, choices: &Choices) -> Vec<String> {
        let spots = |spots: &[(i32, i32)]| {
            spots
                .iter()
                .map(|(x, y)| format!("({x},{y})"))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let mut out = Vec::new();
        if !choices.meeple.is_empty() {
            out.push(format!(
                "a meeple with `meeple <feature>` on {}",
                self.parts_text(tile, &choices.meeple)
            ));
        }
        if !choices.ringmaster.is_empty() {
            out.push(format!(
                "your ringmaster with `ringmaster <feature>` on {}",
                self.parts_text(tile, &choices.ringmaster)
            ));
        }
        if !choices.acrobats.is_empty() {
            out.push(format!(
                "an acrobat with `acrobat <x> <y>` at {}",
                spots(&choices.acrobats)
            ));
        }
        if !choices.pyramids.is_empty() {
            out.push(format!(
                "to score a completed pyramid with `pyramid <x> <y>` at {}",
                spots(&choices.pyramids)
            ));
        }
        out.push("or `pass`".to_string());
        out
    }

    fn parts_text(&self, tile: usize, parts: &[u8]) -> String {
        let Some(t) = self.play.map.tiles().get(tile) else {
            return String::new();
        };
        parts
            .iter()
            .map(|&p| {
                format!(
                    "{} {}",
                    parse::letter(usize::from(p)),
                    parse::part_name(t.shape(), usize::from(p))
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn score_line(&self) -> String {
        self.play
            .map
            .scores()
            .iter()
            .enumerate()
            .map(|(s, p)| format!("{} {p}", self.name(s)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// ", ringmaster in supply" (or on the map) with the expansion; nothing without it.
    fn ringmaster_note(&self, seat: usize) -> String {
        match self.play.map.circus() {
            Some(c) => format!(
                ", ringmaster {}, {} acrobat{}",
                if c.ringmaster_home(seat) {
                    "in supply"
                } else {
                    "on the map"
                },
                self.play.map.acrobats_of(seat),
                if self.play.map.acrobats_of(seat) == 1 {
                    ""
                } else {
                    "s"
                }
            ),
            None => String::new(),
        }
    }

    /// The Big Top, the revealed tokens and the pyramids, one line each (nothing without the
    /// expansion). The token under the Big Top is never named.
    fn circus_lines(&self) -> String {
        let Some(c) = self.play.map.circus() else {
            return String::new();
        };
        let mut t = match c.big_top() {
            Some(b) if c.token_down() => format!(
                "Big Top: at ({},{}) over a face-down token; {} left in the box\n",
                b.at.0,
                b.at.1,
                c.stack_left()
            ),
            Some(b) => format!("Big Top: at ({},{}), no token left\n", b.at.0, b.at.1),
            None => format!(
                "Big Top: not up yet (the first circus tile raises it); {} tokens in the box\n",
                c.stack_left()
            ),
        };
        let revealed: Vec<String> = c
            .revealed()
            .iter()
            .map(|a| format!("{} {}", a.word(), a.value()))
            .collect();
        t.push_str(&format!(
            "Tokens revealed: {}\n",
            if revealed.is_empty() {
                "none yet".to_string()
            } else {
                revealed.join(", ")
            }
        ));
        if !c.pyramids().is_empty() {
            let pyramids: Vec<String> = c
                .pyramids()
                .iter()
                .map(|p| {
                    let who: Vec<&str> = p
                        .acrobats
                        .iter()
                        .map(|&s| self.colours.get(s).map_or("?", String::as_str))
                        .collect();
                    format!(
                        "({},{}) {}{}",
                        p.at.0,
                        p.at.1,
                        who.join(", "),
                        if p.acrobats.len() >= circus::PYRAMID {
                            " (complete)"
                        } else {
                            ""
                        }
                    )
                })
                .collect();
            t.push_str(&format!("Acrobats: {}\n", pyramids.join("; ")));
        }
        t
    }

    fn refuse(e: MoveError) -> Refusal {
        Refusal::new(e.to_string())
    }

    fn do_place(&mut self, args: &str) -> Result<Vec<Happening>, Refusal> {
        let PlaceOrder { x, y, rot, after } = parse::place(args).map_err(Refusal::new)?;
        let mut trial = self.clone();
        let mut out = trial.apply(Move::Place(x, y, rot)).map_err(Self::refuse)?;
        match (&after, trial.play.stage()) {
            (After::Nothing, _) | (After::Pass, Stage::Place(_) | Stage::Over) => {}
            (_, Stage::Follower(tile)) => out.extend(trial.after_placing(tile, &after)?),
            (_, Stage::Place(_) | Stage::Over) => {
                return Err(Refusal::new(
                    "you could not put a follower on this tile (no follower left or every feature taken); place it with `pass` or nothing after",
                ))
            }
        }
        *self = trial;
        Ok(out)
    }

    /// Applies what a player asked for after placing tile `tile`.
    fn after_placing(&mut self, tile: usize, after: &After) -> Result<Vec<Happening>, Refusal> {
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

    fn part_named(&self, tile: usize, name: &str, figure: Figure) -> Result<u8, Refusal> {
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
            .map_err(|e| Refusal::new(format!("{e}; you may `pass` instead")))?;
        Ok(part)
    }
}

impl Game for CarcassonneGame {
    fn phase(&self) -> Phase {
        match self.play.stage() {
            Stage::Over => {
                let scores = self.play.map.scores();
                let mut seats: Vec<usize> = (0..scores.len()).collect();
                seats.sort_by_key(|&s| std::cmp::Reverse(scores.get(s).copied().unwrap_or(0)));
                let mut ranking: Vec<Vec<Seat>> = Vec::new();
                for s in seats {
                    let score = scores.get(s);
                    match ranking.last_mut() {
                        Some(group) if group.first().map(|&g| scores.get(g)) == Some(score) => {
                            group.push(s)
                        }
                        _ => ranking.push(vec![s]),
                    }
                }
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

    fn check_order(&self, _seat: Seat, _text: &str) -> Result<String, Refusal> {
        Err(Refusal::new(
            "carcassonne has no secret orders; play in the channel with `place`, `meeple` or `pass`",
        ))
    }

    fn resolve(
        &mut self,
        _orders: &BTreeMap<Seat, String>,
        _ctx: &mut Ctx<'_>,
    ) -> Result<Vec<Event>, Refusal> {
        Err(Refusal::new("carcassonne has no orders to resolve"))
    }

    fn act(
        &mut self,
        seat: Seat,
        word: &str,
        args: &str,
        ctx: &mut Ctx<'_>,
    ) -> Result<Vec<Event>, Refusal> {
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
                    return Err(Refusal::new(
                        "place the drawn tile first with `place <x> <y> <rotation>`",
                    ));
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
        Ok(self.tell(&happened))
    }

    fn timeout(&mut self, ctx: &mut Ctx<'_>) -> Vec<Event> {
        if self.play.stage() == Stage::Over {
            return Vec::new();
        }
        self.draw_token(ctx.dice);
        let name = self.name(self.play.seat());
        let happened = self.apply(Move::Timeout).unwrap_or_default();
        let mut events = vec![Event::public(format!(
            "{name} ran out of time: the tile goes to the first legal placement, with no follower."
        ))];
        events.extend(self.tell(&happened));
        events
    }

    fn seat_left(
        &mut self,
        seat: Seat,
        replacement: Option<&Player>,
        _ctx: &mut Ctx<'_>,
    ) -> Vec<Event> {
        if let Some(p) = replacement {
            self.rename(seat, &p.name);
            return vec![Event::public(format!("{} takes over seat {seat}.", p.name))];
        }
        let name = self.name(seat);
        let happened = self.apply(Move::Left(seat)).unwrap_or_default();
        let mut events = vec![Event::public(format!(
            "{name} left the game; their turns are skipped and their followers stay."
        ))];
        events.extend(self.tell(&happened));
        events
    }

    fn rename(&mut self, seat: Seat, name: &str) {
        if let Some(n) = self.names.get_mut(seat) {
            *n = name.to_string();
        }
    }

    fn board(&self) -> Board {
        let pending = match self.play.stage() {
            Stage::Place(kind) => Some(kind),
            _ => None,
        };
        let legal = pending.map(|k| self.play.map.legal(k)).unwrap_or_default();
        let last = self.play.map.tiles().len().checked_sub(1);
        let svg = render::board_svg(
            &self.play.map,
            &render::View {
                colours: &self.colours,
                names: &self.names,
                pending,
                legal: &legal,
                last,
            },
        );
        let mut text = String::from("```\n");
        for (s, name) in self.names.iter().enumerate() {
            text.push_str(&format!(
                "{name} ({}): {} points, {} followers left{}{}\n",
                self.colours.get(s).map_or("", String::as_str),
                self.play.map.scores().get(s).copied().unwrap_or(0),
                self.play.map.supply().get(s).copied().unwrap_or(0),
                self.ringmaster_note(s),
                if self.play.is_gone(s) { " (left)" } else { "" }
            ));
        }
        text.push_str(&format!("Tiles left: {}\n", self.play.remaining()));
        text.push_str(&self.circus_lines());
        match self.play.stage() {
            Stage::Place(kind) => text.push_str(&format!(
                "{} to place tile {}: {}\n",
                self.name(self.play.seat()),
                letter_of(kind),
                placements_text(&legal)
            )),
            Stage::Follower(tile) if self.tokens.is_none() => text.push_str(&format!(
                "{} may put a follower on: {}; or pass\n",
                self.name(self.play.seat()),
                self.parts_text(tile, &self.play.choices().meeple)
            )),
            Stage::Follower(tile) => text.push_str(&format!(
                "{} may choose {}\n",
                self.name(self.play.seat()),
                self.choice_list(tile, &self.play.choices()).join("; ")
            )),
            Stage::Over => text.push_str("The game is over.\n"),
        }
        text.push_str("```");
        Board {
            text,
            svg: Some(svg),
        }
    }

    fn private_status(&self, seat: Seat) -> String {
        let mut t = format!(
            "You play {}: {} points, {} followers in your supply{}.",
            self.colours.get(seat).map_or("", String::as_str),
            self.play.map.scores().get(seat).copied().unwrap_or(0),
            self.play.map.supply().get(seat).copied().unwrap_or(0),
            self.ringmaster_note(seat)
        );
        if seat == self.play.seat() {
            match self.play.stage() {
                Stage::Place(kind) => t.push_str(&format!(
                    " It is your turn: place tile {} ({}).",
                    letter_of(kind),
                    shape_of(kind, 0).map(parse::part_list).unwrap_or_default()
                )),
                Stage::Follower(tile) if self.tokens.is_none() => t.push_str(&format!(
                    " It is your turn: `meeple` on {} or `pass`.",
                    self.parts_text(tile, &self.play.choices().meeple)
                )),
                Stage::Follower(tile) => t.push_str(&format!(
                    " It is your turn: choose {}.",
                    self.choice_list(tile, &self.play.choices()).join("; ")
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

#[cfg(test)]
mod tests {
    use super::*;

    fn options(pairs: &[(&str, &str)]) -> Options {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn options_and_colours_are_checked() {
        let rules = &CARCASSONNE_RULES;
        assert!(rules
            .check_options(&options(&[("bigtop", "off"), ("turn", "36h")]))
            .is_ok());
        assert!(rules.check_options(&options(&[("bigtop", "on")])).is_ok());
        assert!(rules
            .check_options(&options(&[("bigtop", "maybe")]))
            .is_err_and(|r| r.0 == "bigtop must be on or off, not `maybe`"));
        assert!(rules
            .check_options(&options(&[("farmers", "no")]))
            .is_err_and(|r| r.0.contains("no option `farmers`")));
        assert!(rules.check_options(&options(&[("turn", "soon")])).is_err());
        assert!(rules.check_symbol(Some("Blue"), &[]).is_ok());
        assert!(rules
            .check_symbol(Some("blue"), &["blue".to_string()])
            .is_err_and(|r| r.0 == "blue is already taken"));
        assert!(rules
            .check_symbol(Some("pink"), &[])
            .is_err_and(|r| r.0.contains("red, blue, green, yellow, black")));
    }

    #[test]
    fn the_turn_option_sets_the_time_limit() {
        let (game, _) = Carcassonne::start(
            vec!["Ann".to_string(), "Bob".to_string()],
            vec!["red".to_string(), "blue".to_string()],
            vec![20, 20],
        );
        assert_eq!(game.time_limit(&options(&[])), Some(Duration::hours(24)));
        assert_eq!(
            game.time_limit(&options(&[("turn", "90m")])),
            Some(Duration::minutes(90))
        );
    }
}
