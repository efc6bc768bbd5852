//! Short Circuit: two players race to complete one electrical circuit from a common supply of
//! straight, turn, crossroad and thunder pieces (rules: docs/rules/short-circuit.md).
//!
//! Decisions where the rules page is silent:
//! - Rotation 0 of each piece, rotating clockwise: straight `│` (90: `─`), turn `└` north-east
//!   (90: `┌`, 180: `┐`, 270: `┘`); crossroad and thunder need no rotation (see [`piece`]).
//! - `size CxR` and `board=CxR` give columns first, then rows; each side is 2 to 16 squares.
//! - `first=` takes seat 1 or 2 (counted from 1) or a player's name (an `@` in front is
//!   ignored); without it a die picks the first player. The setup, secret until `!start`, is
//!   posted in full when the match starts.
//! - `turn=` is the turn-piece count when it is a bare number and the time per turn when it
//!   carries a unit (`turn=5m`); `turns=` and `turntime=` say the same without ambiguity
//!   (see [`setup`]). The time after an impossible call is `window=` (default 5m).
//! - Clocks: the turn allowance is used first; what a turn takes beyond it comes off the
//!   player's reserve, which never refills. `time_limit` is the turn allowance plus the
//!   mover's reserve. An action that arrives after the mover's time is spent is not applied:
//!   the mover loses on time instead. During an impossible challenge the clocks stand still
//!   and only the window runs; it does not restart with each placement.
//! - An "impossible" call is judged by the solver, which runs beside the table (no other
//!   game waits for it): until its verdict nobody may act and the clocks stand still. In
//!   solver mode the verdict decides the match; in challenge mode it is sealed in the audit
//!   log and posted when the match ends, and the opponent's window starts with the
//!   verdict. The challenged player places in turns of 1-3 pieces as often as they like; the
//!   caller waits. Calling impossible during a challenge is refused.
//! - Either player may concede at any time; a player who leaves the table loses.
//! - Rules revisions ([`Rules::revision`]): 2, a solver's completion that decides a call is
//!   posted on its own after the winner's line (before: inside that line, which then ended
//!   in a stray full stop after the board); 3, the start and every "to move" line say how
//!   to move (`!place ...` or `!impossible`), as the other games' turns do; 4, answering an
//!   impossible call, one message may hold several placements in a row (`!place a1 turn 0;
//!   b1 turn 90`), each still 1-3 pieces in a line, checked in order, all or none taken, so a
//!   completion is one post.
//! - A board counts as complete only with at least one piece on it (an empty board has no
//!   loop). A placement is checked against the rules in this order: count, squares, line,
//!   gaps, supply, touching; the refusal names the first rule broken.
//! - The solver judges whether a completion exists at all; that is the same as whether one can
//!   be reached by legal placements (see [`solver`]). During a match (the impossible call, the
//!   GM's hint) it searches within the table's `search_steps` (default 1,000,000 steps, about
//!   a second at a microsecond or so a step); nearly every position of the benchmark needs a
//!   few thousand, its hardest ones under seventy thousand. Should a huge, contrived position exhaust it, an
//!   impossible call in solver mode is played out as a challenge instead, and the revealed
//!   answer says "undecided". `referee solve` runs the unbounded [`solve`] on a thread of its
//!   own and prints "undecided" when its time budget (`--budget`, default a minute) runs out.

pub mod act;
pub mod circuit;
pub mod computer;
pub mod parse;
pub mod picture;
pub mod piece;
pub mod placement;
pub mod position;
pub mod setup;
pub mod solver;

pub use act::ShortCircuitGame;
pub use piece::{Dir, Kind, Piece, Rotation};
pub use position::{Grid, Position, Square, Supply};
pub use solver::{solve, solve_text, solve_within, Solution, Witness};

use crate::games::kit::Kit;
use crate::games::Started;
use crate::games::{CommandHelp, Ctx, Event, Game, LoadError, Options, Player, Refusal, Rules};

/// The rules of Short Circuit, as registered with the table.
pub struct ShortCircuit;

/// The value the table registers.
pub static SHORT_CIRCUIT_RULES: ShortCircuit = ShortCircuit;

/// `!place`: 1-3 pieces in one line.
pub(crate) const PLACE: CommandHelp = CommandHelp {
    name: "place",
    usage: "place <square> <piece> <rotation> [<square> <piece> <rotation> ...]",
    about: "place 1-3 pieces in one line, e.g. `!place b2 turn 90 c2 straight 90` (straight, turn, cross, thunder; rotations 0/90/180/270 clockwise from │ and └)",
    aliases: &[],
};

/// `!impossible`: the call that the track can no longer be completed.
pub(crate) const CALL: CommandHelp = CommandHelp {
    name: "impossible",
    usage: "impossible",
    about: "claim the circuit can no longer be completed with the remaining supply",
    aliases: &[],
};

/// `!concede`: the match given up.
pub(crate) const CONCEDE: CommandHelp = CommandHelp {
    name: "concede",
    usage: "concede",
    about: "give up the match",
    aliases: &[],
};

/// The game's words in the channel, as `!help` lists them and the table reads them.
const COMMANDS: &[CommandHelp] = &[PLACE, CALL, CONCEDE];

fn load_game(saved: &serde_json::Value) -> Result<ShortCircuitGame, LoadError> {
    let game: ShortCircuitGame =
        serde_json::from_value(saved.clone()).map_err(|error| LoadError {
            game: "shortcircuit",
            reason: error.to_string(),
        })?;
    if !game.is_sound() {
        return Err(LoadError {
            game: "shortcircuit",
            reason: "the board, seats or clocks are inconsistent".to_string(),
        });
    }
    Ok(game)
}

/// Short Circuit, described once.
pub(crate) const KIT: Kit = Kit {
    name: "shortcircuit",
    title: "Short Circuit",
    revision: 4,
    about:
        "Short Circuit: a duel to complete one electrical circuit from a shared supply of pieces",
    summary: include_str!("summary.md"),
    players: (2, Some(2)),
    options: setup::OPTIONS,
    commands: COMMANDS,
    ..Kit::PLAIN
};

impl Rules for ShortCircuit {
    fn kit(&self) -> &'static Kit {
        &KIT
    }

    fn option_meaning(&self, key: &str, value: &str) -> Option<String> {
        let time = || crate::duration::parse_duration(value).map(crate::duration::format_duration);
        let pieces = || value.trim().parse::<u32>().ok();
        match key {
            "turn" | "turns" => match pieces() {
                Some(n) => Some(format!(
                    "{} in the supply",
                    crate::games::count(n, "turn piece")
                )),
                None => time().map(|t| format!("{t} per turn (the same as turntime={value})")),
            },
            "turntime" => time().map(|t| format!("{t} per turn")),
            "reserve" => time().map(|t| format!("a reserve of {t} per player")),
            "window" => time().map(|t| format!("{t} to answer an impossible call")),
            _ => None,
        }
    }

    fn check_options(&self, options: &Options) -> Result<(), Refusal> {
        setup::parse(options).map(|_| ())
    }

    fn check_symbol(&self, _wanted: Option<&str>, _taken: &[String]) -> Result<(), Refusal> {
        Ok(())
    }

    fn setup(&self, options: &Options, players: &[Player], ctx: &mut Ctx<'_>) -> Started {
        let setup = setup::parse(options)?;
        let (first, how) = match &setup.first {
            setup::First::Dice => (ctx.dice.pick("first player", 2), "drawn by die"),
            setup::First::Named(wanted) => {
                let wanted = wanted.trim().trim_start_matches('@');
                let by_seat = wanted
                    .parse::<usize>()
                    .ok()
                    .filter(|seat| (1..=2).contains(seat))
                    .map(|seat| seat - 1);
                let by_name = players
                    .iter()
                    .position(|player| player.name.eq_ignore_ascii_case(wanted));
                let seat = by_seat.or(by_name).ok_or_else(|| {
                    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
                    Refusal::new(format!(
                        "first={wanted} names no player; use seat 1 or 2, or {}",
                        names.join(" or ")
                    ))
                })?;
                (seat, "chosen by the GM")
            }
        };
        let mut game = ShortCircuitGame::new(setup.clone(), players, first, ctx.now)?;
        game.placements_in_a_row = ctx.revision >= act::IN_A_ROW_FROM;
        let text = format!(
            "Short Circuit begins on a {}x{} board. Supply: {}. Impossible calls: {}. Clocks: {} per turn plus a reserve of {}; {} to answer an impossible call. {} moves first ({how}).",
            setup.cols,
            setup.rows,
            setup.supply.describe(),
            setup.mode.name(),
            picture::duration_text(setup.turn_secs * 1000),
            picture::duration_text(setup.reserve_secs * 1000),
            picture::duration_text(setup.window_secs * 1000),
            players[first].name
        );
        let text = match ctx.revision >= act::PROMPTED_FROM {
            true => format!("{text} {}", act::HOW_TO_MOVE),
            false => text,
        };
        Ok((Box::new(game), vec![Event::public(text)]))
    }

    fn load(&self, saved: &serde_json::Value) -> Result<Box<dyn Game>, LoadError> {
        Ok(Box::new(load_game(saved)?))
    }
}
