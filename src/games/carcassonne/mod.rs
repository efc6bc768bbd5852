//! Carcassonne, the base game (72 tiles, third-edition farmers), played by post.
//!
//! The bot draws each tile (seeded), shows it with its legal placements, and the player answers
//! `place <x> <y> <rotation>` then `meeple <feature>` or `pass` (or all in one line).
//!
//! Decisions where the rules page is silent:
//! - Coordinates: x grows to the east, y to the south (JCZ); the start tile D is at (0,0).
//!   Rotations are 0, 90, 180, 270 degrees clockwise. The same axes are used in texts, pictures
//!   and commands.
//! - Colours: red, blue, green, yellow, black by seat, or the colour chosen at `!join`.
//! - Option `bigtop`: only `off` is accepted until the expansion exists, and it is the default.
//! - Option `turn`: the turn time limit (`24h` by default; `90m`, `2d`, `36h` style).
//! - A seat that leaves is skipped from then on; if it was its turn, its tile is placed as on a
//!   timeout. Its followers stay on the map and its points count in the ranking.
//! - The saved state is the deck order and the list of moves; loading replays them, so a
//!   corrupt save is refused rather than trusted.

pub mod map;
pub mod parse;
pub mod play;
pub mod render;
pub mod scoring;
pub mod tiles;

use self::map::Scored;
use self::parse::{After, PlaceOrder};
use self::play::{Happening, Match, MoveError, Stage};
use self::tiles::{base_box, shape_of, Kind, BASE, START};
use crate::games::{
    Board, CommandHelp, Ctx, Event, Game, LoadError, Options, Phase, Player, Refusal, Rules, Seat,
};
use chrono::Duration;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The colours seats take, in order.
pub const COLOURS: [&str; 5] = ["red", "blue", "green", "yellow", "black"];

/// The rules of Carcassonne, for the table's registry.
pub struct Carcassonne;

/// The registered value.
pub static CARCASSONNE_RULES: Carcassonne = Carcassonne;

const OPTIONS: &[(&str, &str)] = &[
    (
        "bigtop",
        "Under the Big Top expansion: only `off` for now (the base game)",
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
        name: "pass",
        usage: "pass",
        about: "Place no follower this turn.",
    },
];

fn parse_duration(text: &str) -> Option<Duration> {
    let t = text.trim().to_lowercase();
    let split = t.find(|c: char| !c.is_ascii_digit())?;
    let (n, unit) = t.split_at(split);
    let n: i64 = n.parse().ok()?;
    if n == 0 || n > 100_000 {
        return None;
    }
    match unit.trim() {
        "m" | "min" | "mins" | "minutes" => Some(Duration::minutes(n)),
        "h" | "hour" | "hours" => Some(Duration::hours(n)),
        "d" | "day" | "days" => Some(Duration::days(n)),
        _ => None,
    }
}

impl Rules for Carcassonne {
    fn name(&self) -> &'static str {
        "carcassonne"
    }

    fn about(&self) -> &'static str {
        "Carcassonne: lay tiles, claim roads, cities, monasteries and fields (2-5 players)."
    }

    fn players(&self) -> (usize, Option<usize>) {
        (2, Some(5))
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
                    match value.trim().to_lowercase().as_str() {
                        "off" => {}
                        "on" => return Err(Refusal::new(
                            "the Under the Big Top expansion is not available yet; use bigtop=off",
                        )),
                        _ => {
                            return Err(Refusal::new(format!(
                                "bigtop must be on or off, not `{value}`"
                            )))
                        }
                    }
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
                    "carcassonne has no option `{key}`; it accepts bigtop=off and turn=<duration>"
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
        if !(2..=5).contains(&players.len()) {
            return Err(Refusal::new(format!(
                "carcassonne needs 2 to 5 players, not {}",
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
        ctx.dice.shuffle_sealed("tile order", &mut deck);
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        let (game, happened) = Carcassonne::start(names, colours, deck);
        let mut events = vec![Event::public(format!(
            "Carcassonne begins: {}. The start tile D lies at (0,0); x grows to the east, y to the south; rotations are clockwise.",
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
        if !(2..=5).contains(&s.names.len()) || s.colours.len() != s.names.len() {
            return Err(err("wrong number of players or colours".to_string()));
        }
        if s.deck.iter().any(|&k| usize::from(k) >= BASE.len()) {
            return Err(err("unknown tile kind in the deck".to_string()));
        }
        let (mut game, _) = Carcassonne::start(s.names, s.colours, s.deck);
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
}

/// A game of Carcassonne in progress.
#[derive(Clone, Debug)]
pub struct CarcassonneGame {
    names: Vec<String>,
    colours: Vec<String>,
    deck: Vec<u8>,
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

fn letter_of(kind: u8) -> char {
    BASE.get(usize::from(kind)).map_or('?', |k| k.letter)
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
        let (play, happened) = Match::new(names.len(), deck.clone());
        (
            CarcassonneGame {
                names,
                colours,
                deck,
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
        format!(
            "{what}: {} point{} for {who}.",
            s.points,
            if s.points == 1 { "" } else { "s" }
        )
    }

    fn tell(&self, happened: &[Happening]) -> Vec<Event> {
        let mut out = Vec::new();
        for h in happened {
            let text = match h {
                Happening::Drew(seat, kind) => format!(
                    "{}'s turn: tile {} is drawn ({} left after it). Legal placements: {}. Answer `place <x> <y> <rotation>`, optionally followed by `meeple <feature>` or `pass`.",
                    self.name(*seat),
                    letter_of(*kind),
                    self.play.remaining(),
                    placements_text(&self.play.map.legal(*kind))
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
                    if let Stage::Follower(tile) = self.play.stage() {
                        if self.play.seat() == *seat {
                            t.push_str(&format!(
                                " Put a follower with `meeple <feature>` on one of: {}; or `pass`.",
                                self.follower_choices(tile)
                            ));
                        }
                    }
                    t
                }
                Happening::Followed(seat, kind, part) => {
                    let name = self
                        .play
                        .map
                        .tiles()
                        .last()
                        .map(|t| parse::part_name(t.shape(), usize::from(*part)))
                        .unwrap_or_default();
                    format!(
                        "{} puts a {} on {name} ({}).",
                        self.name(*seat),
                        follower_word(*kind),
                        parse::letter(usize::from(*part))
                    )
                }
                Happening::Passed(seat) => format!("{} places no follower.", self.name(*seat)),
                Happening::Scored(s) => self.scored_text(s),
                Happening::Ended(finals) => {
                    let mut t = String::from("The tiles are all played. Final scoring:");
                    if finals.iter().all(|s| s.winners.is_empty()) {
                        t.push_str(" nothing left to score.");
                    }
                    for s in finals.iter().filter(|s| !s.winners.is_empty()) {
                        t.push(' ');
                        t.push_str(&self.scored_text(s));
                    }
                    t.push_str(&format!(" Final scores: {}.", self.score_line()));
                    t
                }
            };
            out.push(Event::public(text));
        }
        out
    }

    fn follower_choices(&self, tile: usize) -> String {
        let Some(t) = self.play.map.tiles().get(tile) else {
            return String::new();
        };
        self.play
            .map
            .follower_options(self.play.seat(), tile)
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

    fn refuse(e: MoveError) -> Refusal {
        Refusal::new(e.to_string())
    }

    fn do_place(&mut self, args: &str) -> Result<Vec<Happening>, Refusal> {
        let PlaceOrder { x, y, rot, after } = parse::place(args).map_err(Refusal::new)?;
        let mut trial = self.clone();
        let mut out = trial.apply(Move::Place(x, y, rot)).map_err(Self::refuse)?;
        match (&after, trial.play.stage()) {
            (After::Nothing, _) => {}
            (After::Pass, Stage::Follower(_)) => out.extend(trial.apply(Move::Follower(None)).map_err(Self::refuse)?),
            (After::Pass, _) => {}
            (After::Meeple(name), Stage::Follower(tile)) => {
                let part = trial.part_named(tile, name)?;
                out.extend(trial.apply(Move::Follower(Some(part))).map_err(Self::refuse)?);
            }
            (After::Meeple(_), _) => {
                return Err(Refusal::new(
                    "you could not put a follower on this tile (no follower left or every feature taken); place it with `pass` or nothing after",
                ))
            }
        }
        *self = trial;
        Ok(out)
    }

    fn part_named(&self, tile: usize, name: &str) -> Result<u8, Refusal> {
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
            .can_follow(self.play.seat(), tile, part)
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
        _ctx: &mut Ctx<'_>,
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
            "place" => self.do_place(args)?,
            "meeple" | "follower" => {
                let Stage::Follower(tile) = self.play.stage() else {
                    return Err(Refusal::new(
                        "place the drawn tile first with `place <x> <y> <rotation>`",
                    ));
                };
                let name = parse::meeple(args).map_err(Refusal::new)?;
                let part = self.part_named(tile, &name)?;
                self.apply(Move::Follower(Some(part)))
                    .map_err(Self::refuse)?
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
                    "`{other}` is not a carcassonne command; use place, meeple or pass"
                )))
            }
        };
        Ok(self.tell(&happened))
    }

    fn timeout(&mut self, _ctx: &mut Ctx<'_>) -> Vec<Event> {
        if self.play.stage() == Stage::Over {
            return Vec::new();
        }
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
                "{name} ({}): {} points, {} followers left{}\n",
                self.colours.get(s).map_or("", String::as_str),
                self.play.map.scores().get(s).copied().unwrap_or(0),
                self.play.map.supply().get(s).copied().unwrap_or(0),
                if self.play.is_gone(s) { " (left)" } else { "" }
            ));
        }
        text.push_str(&format!("Tiles left: {}\n", self.play.remaining()));
        match self.play.stage() {
            Stage::Place(kind) => text.push_str(&format!(
                "{} to place tile {}: {}\n",
                self.name(self.play.seat()),
                letter_of(kind),
                placements_text(&legal)
            )),
            Stage::Follower(tile) => text.push_str(&format!(
                "{} may put a follower on: {}; or pass\n",
                self.name(self.play.seat()),
                self.follower_choices(tile)
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
            "You play {}: {} points, {} followers in your supply.",
            self.colours.get(seat).map_or("", String::as_str),
            self.play.map.scores().get(seat).copied().unwrap_or(0),
            self.play.map.supply().get(seat).copied().unwrap_or(0)
        );
        if seat == self.play.seat() {
            match self.play.stage() {
                Stage::Place(kind) => t.push_str(&format!(
                    " It is your turn: place tile {} ({}).",
                    letter_of(kind),
                    shape_of(kind, 0).map(parse::part_list).unwrap_or_default()
                )),
                Stage::Follower(tile) => t.push_str(&format!(
                    " It is your turn: `meeple` on {} or `pass`.",
                    self.follower_choices(tile)
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
        assert!(rules
            .check_options(&options(&[("bigtop", "on")]))
            .is_err_and(|r| r.0.contains("not available yet")));
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
