//! Parcheesi, as docs/rules/parcheesi.md states it: the 68-square ring, nests, entering
//! on a 5, die-by-die moves, captures, safe squares, blockades, doubles with the bottom faces,
//! rewards of 20 and 10, going round again, and "every die must be used".
//!
//! Decisions taken where the rules page is silent:
//! - Turn order follows the colours round the board (green, red, blue, yellow), which is seat
//!   order unless players chose colours at `!join`; the first colour in play starts.
//! - "The most dice, and the higher die when only one of two can be used" is generalised as:
//!   the most dice, then the most pips (so with four dice, the larger faces are kept).
//! - Rule 13's "not together on doubles" covers the whole roll, its rewards included: the two
//!   pawns of a blockade standing when a roll of doubles began may not end up together on
//!   another square, whether dice or rewards (say, two captures' 20s) would carry them.
//! - Several rewards waiting are moved in the order the player picks (`!reward <pawn> 10`);
//!   without an amount, the first one the named pawn can use. A reward is lost only when no
//!   pawn can use it once no other reward can be moved either. A reward some pawn can move
//!   without going round must be moved (the bot ends the turn only when none can); a reward
//!   that only going round could use is the player's choice (seed lines 17-18: going round is
//!   forced only by the dice, and rewards not taken are lost): `!reward <pawn> 20 around` or
//!   `!reward skip`; the automatic turn declines it.
//! - Refusals say why in the player's terms: the whole-roll rule names the die a step would
//!   lose (or that going round uses them all), an overshoot names the squares to HOME, a
//!   reward that would work going round says so; `!board` repeats the legal commands.
//! - A step that passes the turn-off goes into the home row unless the player says `around`;
//!   when only `around` is possible the bot says so instead of guessing.
//! - `blockade_limit=N` counts ring blockades only (a home-row blockade holds up nobody else);
//!   a blockade's age is the number of its owner's turns it has stood at the end of, and once
//!   stale, every roll of the owner's turn must break it when a legal play allows it.
//! - The third-doubles penalty sends back the pawn nearest HOME that is on the ring or in its
//!   home row; the turn ends without rolling again.
//! - A player who leaves takes its pawns off the board and its turns are skipped; it is
//!   ranked last; when one player is left, the game ends.
//! - Ranking ties (equal distance still to go) share a place.
//! - A bare `enter` brings out the lowest-numbered pawn in the nest; `enter` uses a die
//!   showing 5 when there is one, else both dice when they sum to 5.
//! - The automatic turn (`timeout=auto`) covers the whole turn, re-rolls after doubles
//!   included; its rewards go to the pawn that leaves the rearmost pawn furthest advanced.
//! - Refusals and lost dice name the first blockade in the way, the overshoot, the safe square
//!   or the rule of the whole roll (rules 6-7, rule 13, `blockade_limit`) that stops a step.
//! - Rules revisions ([`Rules::revision`]): 2, the game counts its rounds (every seat still in
//!   plays once a round; before, the table counted each turn as a round, so three players'
//!   60th turn was "round 60", not 20).

mod act;
mod board;
pub mod computer;
mod engine;
mod parse;
mod picture;
mod roller;
mod text;

pub use act::{Match, Seated, Settings, Stage};
pub use board::{Colour, Position, Spot, StepError};
pub use engine::{auto_play, legal_steps, reward_steps, Limits, Roll, Step, Steps};
pub use roller::{FixedRolls, Roller};

use crate::duration::{a_year, parse_duration, parse_duration_within};
use crate::games::kit::{GameOption, Kit};
use crate::games::Happened;
use crate::games::Started;
use crate::games::{
    Board, Choice, CommandHelp, Ctx, Event, Game, LoadError, Options, Phase, Player, Refusal,
    Rules, Seat,
};
use crate::games::{Decision, Level};
use chrono::Duration;
use rand_core::RngCore;

/// The most steps offered as choices (buttons); beyond this the player types the move.
const MAX_CHOICES: usize = 10;

/// The Parcheesi rules, to register with the table.
pub struct Parcheesi;

/// The value to register: `&referee::games::parcheesi::PARCHEESI`.
pub static PARCHEESI: Parcheesi = Parcheesi;

const OPTIONS: &[GameOption] = &[
    GameOption::own(
        "three_doubles",
        "on (default) or off: the third doubles rule",
        "three_doubles=on|off",
    ),
    GameOption::own(
        "timeout",
        "skip (default) or auto: see the last rule",
        "timeout=skip|auto",
    ),
    GameOption::own(
        "blockade_limit",
        "off (default) or N: a blockade that stood N of its owner's turns must break",
        "blockade_limit=N",
    ),
    GameOption::own(
        "turn",
        "time for each turn, like 90m or 2d (default 24h)",
        "turn=24h",
    ),
];

/// `!move`: one pawn by one die.
pub(crate) const MOVE: CommandHelp = CommandHelp {
    name: "move",
    usage: "move <pawn> <die> [around]",
    about: "Moves pawn 1-4 by one die; 'around' passes your turn-off and goes round again.",
    aliases: &["m"],
};

/// `!enter`: a pawn out of the nest.
pub(crate) const ENTER: CommandHelp = CommandHelp {
    name: "enter",
    usage: "enter [pawn]",
    about: "Brings a pawn (by default the lowest-numbered) out of the nest with a 5 (one die, or two dice summing to 5).",
    aliases: &["e"],
};

/// `!reward`: a reward moved, or declined.
pub(crate) const REWARD: CommandHelp = CommandHelp {
    name: "reward",
    usage: "reward <pawn> [20|10] [around] | reward skip [20|10]",
    about: "Moves a reward (20 for a capture, 10 for HOME) with one pawn, after the dice; `!reward skip` declines one that only going round could use.",
    aliases: &["r"],
};

/// The game's words in the channel, as `!help` lists them and the table reads them.
const COMMANDS: &[CommandHelp] = &[MOVE, ENTER, REWARD];

/// Reads the GM's options into [`Settings`], refusing anything unknown.
pub fn settings(options: &Options) -> Result<Settings, Refusal> {
    let mut settings = Settings::default();
    for (key, value) in options {
        let value = value.trim().to_ascii_lowercase();
        match key.trim().to_ascii_lowercase().as_str() {
            "three_doubles" => {
                settings.three_doubles = match value.as_str() {
                    "on" | "yes" | "true" => true,
                    "off" | "no" | "false" => false,
                    _ => {
                        return Err(Refusal::new(format!(
                            "three_doubles is on or off, not '{value}'"
                        )))
                    }
                }
            }
            "timeout" => {
                settings.auto = match value.as_str() {
                    "skip" => false,
                    "auto" => true,
                    _ => {
                        return Err(Refusal::new(format!(
                            "timeout is skip or auto, not '{value}'"
                        )))
                    }
                }
            }
            "blockade_limit" => {
                settings.blockade_limit = match value.as_str() {
                    "off" | "none" | "0" => None,
                    number => match number.parse::<u32>() {
                        Ok(n) if n <= 1000 => Some(n),
                        _ => {
                            return Err(Refusal::new(format!(
                                "blockade_limit is off or a number of turns like 3, not '{value}'"
                            )))
                        }
                    },
                }
            }
            "turn" => {
                parse_duration_within(&value, a_year())
                    .map_err(|e| Refusal::new(e.sentence("turn", &value)))?;
            }
            other => {
                return Err(Refusal::new(format!(
                    "parcheesi has no option '{other}'; it accepts three_doubles=on|off, timeout=skip|auto, blockade_limit=N and turn=24h"
                )))
            }
        }
    }
    Ok(settings)
}

/// parcheesi, described once.
pub(crate) const KIT: Kit = Kit {
    name: "parcheesi",
    title: "parcheesi",
    revision: 2,
    about: "Parcheesi for 2-4 players: race your four pawns round the cross and HOME, capturing and blocking.",
    summary: include_str!("summary.md"),
    players: (2, Some(4)),
    options: OPTIONS,
    commands: COMMANDS,
    palette: &board::Colour::NAMES,
    ..Kit::PLAIN
};

impl Rules for Parcheesi {
    fn kit(&self) -> &'static Kit {
        &KIT
    }

    fn check_options(&self, options: &Options) -> Result<(), Refusal> {
        settings(options).map(|_| ())
    }

    fn check_symbol(&self, wanted: Option<&str>, taken: &[String]) -> Result<(), Refusal> {
        let Some(wanted) = wanted else {
            return Ok(());
        };
        let colour = Colour::parse(wanted).ok_or_else(|| {
            Refusal::new(format!(
                "'{wanted}' is not a colour; choose green, red, blue or yellow"
            ))
        })?;
        if taken.iter().any(|t| Colour::parse(t) == Some(colour)) {
            let free: Vec<&str> = Colour::ALL
                .into_iter()
                .filter(|c| !taken.iter().any(|t| Colour::parse(t) == Some(*c)))
                .map(|c| c.name())
                .collect();
            return Err(Refusal::new(format!(
                "{colour} is taken; free colours: {}",
                free.join(", ")
            )));
        }
        Ok(())
    }

    fn setup(&self, options: &Options, players: &[Player], ctx: &mut Ctx<'_>) -> Started {
        let settings = settings(options)?;
        let mut chosen: Vec<Option<Colour>> = Vec::new();
        for player in players {
            let wanted = player.symbol.as_deref().and_then(Colour::parse);
            chosen.push(wanted.filter(|c| !chosen.contains(&Some(*c))));
        }
        let free: Vec<Colour> = Colour::ALL
            .into_iter()
            .filter(|c| !chosen.contains(&Some(*c)))
            .collect();
        let mut free = free.into_iter();
        let mut seated = Vec::new();
        for (player, colour) in players.iter().zip(chosen) {
            let colour = match colour.or_else(|| free.next()) {
                Some(colour) => colour,
                None => return Err(Refusal::new("there are only four colours")),
            };
            seated.push(Seated {
                seat: player.seat,
                name: player.name.clone(),
                colour,
                gone: false,
            });
        }
        let mut intro: Vec<String> = Vec::new();
        let mut sorted = seated.clone();
        sorted.sort_by_key(|s| s.colour);
        for s in &sorted {
            intro.push(format!("{} {}", s.colour, s.name));
        }
        let mut events = vec![Event::public(format!(
            "Parcheesi begins: {}. Turns go round the board in that order.",
            intro.join(", ")
        ))];
        let (mut game, opening) = Match::new(settings, seated, ctx.dice);
        if ctx.revision >= 2 {
            // Every seat is in at the start: the turns already played decide the round.
            let seats = game.seated.len().max(1) as u64;
            game.round = Some(1 + game.turns / seats);
        }
        events.extend(opening);
        Ok((Box::new(ParcheesiGame(game)), events))
    }

    fn load(&self, saved: &serde_json::Value) -> Result<Box<dyn Game>, LoadError> {
        let game: Match = serde_json::from_value(saved.clone()).map_err(|e| LoadError {
            game: "parcheesi",
            reason: e.to_string(),
        })?;
        game.is_consistent().map_err(|reason| LoadError {
            game: "parcheesi",
            reason,
        })?;
        Ok(Box::new(ParcheesiGame(game)))
    }
}

/// A Parcheesi game behind the table's [`Game`] contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParcheesiGame(pub Match);

impl Game for ParcheesiGame {
    fn round(&self) -> Option<u64> {
        self.0.round
    }

    fn phase(&self) -> Phase {
        match &self.0.stage {
            Stage::Over(ranking) => Phase::Over {
                ranking: ranking.clone(),
            },
            _ => Phase::Turn {
                seat: self.0.mover().map_or(0, |s| s.seat),
            },
        }
    }

    fn time_limit(&self, options: &Options) -> Option<Duration> {
        if let Stage::Over(_) = self.0.stage {
            return None;
        }
        let turn = options
            .iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case("turn"))
            .and_then(|(_, v)| parse_duration(v));
        Some(turn.unwrap_or_else(|| Duration::hours(24)))
    }

    fn act(&mut self, seat: Seat, word: &str, args: &str, ctx: &mut Ctx<'_>) -> Happened {
        self.0.act(seat, word, args, ctx.dice)
    }

    fn timeout(&mut self, ctx: &mut Ctx<'_>) -> Vec<Event> {
        self.0.timeout(ctx.dice)
    }

    fn seat_left(&mut self, seat: Seat, _heir: Option<&Player>, ctx: &mut Ctx<'_>) -> Vec<Event> {
        self.0.seat_left(seat, ctx.dice)
    }

    fn rename(&mut self, seat: Seat, name: &str) {
        for s in self.0.seated.iter_mut().filter(|s| s.seat == seat) {
            s.name = name.to_string();
        }
    }

    fn board(&self) -> Board {
        Board {
            text: picture::text(&self.0, false),
            svg: Some(picture::svg(&self.0, false)),
        }
    }

    fn final_board(&self) -> Board {
        Board {
            text: picture::text(&self.0, true),
            svg: Some(picture::svg(&self.0, true)),
        }
    }

    fn marks(&self) -> Vec<crate::games::Mark> {
        self.0
            .seated
            .iter()
            .map(|s| crate::games::Mark {
                seat: s.seat,
                mark: s.colour.name().to_string(),
                colour: Some(picture::fill(s.colour).to_string()),
            })
            .collect()
    }

    fn board_when_turn_passes(&self) -> bool {
        true
    }

    fn turns_begun(&self) -> Option<u64> {
        Some(self.0.turns)
    }

    fn prompt(&self) -> Option<String> {
        (!matches!(self.0.stage, Stage::Over(_))).then(|| self.0.prompt())
    }

    fn choices(&self, seat: Seat, _order: Option<&str>) -> Vec<Choice> {
        if self.0.mover().is_none_or(|m| m.seat != seat) {
            return Vec::new();
        }
        let mut commands: Vec<String> = Vec::new();
        for step in self.0.legal().as_slice() {
            let command = step.to_string();
            if !commands.contains(&command) {
                commands.push(command);
            }
        }
        if commands.len() > MAX_CHOICES {
            return Vec::new();
        }
        commands
            .into_iter()
            .map(|command| Choice {
                label: command.clone(),
                command,
                secret: false,
            })
            .collect()
    }

    fn computer(&self, seat: Seat, level: Level, rng: &mut dyn RngCore) -> Option<Decision> {
        computer::decide(&self.0, seat, level, rng).map(crate::games::Decision::Action)
    }

    fn private_status(&self, seat: Seat) -> String {
        match self.0.seated.iter().find(|s| s.seat == seat) {
            Some(me) => {
                let mut text = format!(
                    "You play {}. {}",
                    me.colour,
                    picture::pawns_line(&self.0.pos, me.colour)
                );
                if self.0.mover().is_some_and(|m| m.seat == seat) {
                    text.push_str(&format!(" It is your turn: {}", self.0.prompt()));
                }
                text
            }
            None => "You have no seat in this parcheesi game.".to_string(),
        }
    }

    fn save(&self) -> serde_json::Value {
        serde_json::to_value(&self.0).unwrap_or(serde_json::Value::Null)
    }
}
