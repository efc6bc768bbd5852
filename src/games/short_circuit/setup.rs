//! The GM's setup: board size, supply, first player, the "impossible" procedure and the clocks.
//!
//! Option keys: `board=7x7` (columns x rows, 2 to 16 each way; default 6x6), `straight=8`,
//! `turn=10`, `cross=3`, `thunder=3` (default 8/10/3/3; 4 to 64 pieces in all), `first=`
//! (seat number 1 or 2, or a player's name with or without `@`; default: a die decides),
//! `impossible=challenge|solver` (default challenge), `turntime=5m`, `reserve=5m`,
//! `window=5m` (the time the opponent has after an "impossible" call).
//!
//! `turn` names both the turn pieces and, in the example, the time per turn: a bare
//! number (`turn=10`) is the count of turn pieces, a duration with a unit (`turn=5m`) is the
//! time per turn. Since one key can hold one value, the unambiguous `turns=10` (pieces) and
//! `turntime=5m` (time) exist as well. Durations are a number with `s`, `m`, `h` or `d`,
//! possibly combined (`1h30m`); a bare number on a time key means minutes.

use super::position::{parse_dimensions, Grid, Supply};
use crate::games::{GameOption, Options, Refusal};
use serde::{Deserialize, Serialize};

/// The option keys and what they mean, for `!help`.
pub const OPTIONS: &[GameOption] = &[
    GameOption::named("board", "columns x rows, 2 to 16 each (default 6x6)"),
    GameOption::named("straight", "straights (default 8)"),
    GameOption::named("turn", "turns (default 10), or the time per turn (like 5m)"),
    GameOption::named("turns", "turn pieces when `turn=` is a time"),
    GameOption::named("cross", "crosses (default 3)"),
    GameOption::named("thunder", "thunders (default 3)"),
    GameOption::named("first", "1 or 2 (sign-up order) or a name (default: a die)"),
    GameOption::named("impossible", "challenge (default) or solver"),
    GameOption::named("clocks", "post (default) or seed (5-minute clocks)"),
    GameOption::named("turntime", "time per turn (default 24h)"),
    GameOption::named("reserve", "each player's reserve (default 48h)"),
    GameOption::named(
        "window",
        "time to complete after `!impossible` (default 24h)",
    ),
];

/// The clocks when no figure is given: (turn, reserve, window) in seconds.
#[derive(Clone, Copy)]
struct Clocks {
    turn: i64,
    reserve: i64,
    window: i64,
}

/// Play by post: a day a turn, two days' reserve, a day to answer a call.
const POST_CLOCKS: Clocks = Clocks {
    turn: 86_400,
    reserve: 172_800,
    window: 86_400,
};

/// The original's live-play figures: five minutes each.
const SEED_CLOCKS: Clocks = Clocks {
    turn: 300,
    reserve: 300,
    window: 300,
};

/// How an "impossible" call is settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// The seed's procedure: the opponent gets the window to complete the track or concede.
    Challenge,
    /// Instant adjudication by the solver.
    Solver,
}

impl Mode {
    /// The option value naming this mode.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Challenge => "challenge",
            Mode::Solver => "solver",
        }
    }
}

/// Who the GM named to go first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum First {
    /// A die decides at the start.
    Dice,
    /// Seat 1 or 2 as the GM wrote it (counted from 1), or a player's name.
    Named(String),
}

/// The whole setup, read from the options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Columns of the board.
    pub cols: usize,
    /// Rows of the board.
    pub rows: usize,
    /// The supply at the start.
    pub supply: Supply,
    /// Who goes first.
    pub first: First,
    /// How an "impossible" call is settled.
    pub mode: Mode,
    /// Seconds per turn before the reserve runs.
    pub turn_secs: i64,
    /// Seconds of reserve per player.
    pub reserve_secs: i64,
    /// Seconds the opponent has after an "impossible" call.
    pub window_secs: i64,
}

/// Reads a duration in seconds, as the table reads time (`5m`, `90s`, `1h30m`, `2d`), and
/// a bare number as minutes (`0` allowed: no reserve); at most a year.
pub fn parse_duration(text: &str) -> Option<i64> {
    let text = text.trim();
    let seconds = match text.parse::<i64>() {
        Ok(minutes) => minutes.checked_mul(60).filter(|s| *s >= 0)?,
        Err(_) => crate::duration::parse_duration(text)?.num_seconds(),
    };
    (seconds <= crate::duration::a_year().num_seconds()).then_some(seconds)
}

fn count(options: &Options, key: &str, default: u32) -> Result<u32, Refusal> {
    match options.get(key) {
        None => Ok(default),
        Some(value) => value
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|count| *count <= 64)
            .ok_or_else(|| {
                Refusal::new(format!(
                    "{key}={value} is not a count; use a number from 0 to 64"
                ))
            }),
    }
}

fn duration(key: &str, value: Option<&String>, default: i64) -> Result<i64, Refusal> {
    match value {
        None => Ok(default),
        Some(value) => parse_duration(value)
            .filter(|secs| *secs > 0)
            .ok_or_else(|| {
                Refusal::new(format!(
                "{key}={value} is not a duration; use a number with s, m, h or d, such as 5m or 2h"
            ))
            }),
    }
}

/// Reads and checks the options (unknown keys are refused).
pub fn parse(options: &Options) -> Result<Setup, Refusal> {
    for key in options.keys() {
        if !OPTIONS.iter().any(|option| option.key == key) {
            return Err(Refusal::new(format!(
                "Short Circuit has no option `{key}`; it takes board, straight, turn, turns, cross, thunder, first, impossible, clocks, turntime, reserve and window"
            )));
        }
    }
    let (cols, rows) = match options.get("board") {
        None => (6, 6),
        Some(value) => parse_dimensions(value).ok_or_else(|| {
            Refusal::new(format!(
                "board={value} is not a size; write columns x rows, such as 7x7"
            ))
        })?,
    };
    Grid::new(cols, rows).map_err(Refusal::new)?;
    let turn_value = options.get("turn");
    let turn_is_time = turn_value.is_some_and(|value| value.trim().parse::<u32>().is_err());
    if turn_is_time && options.contains_key("turntime") {
        return Err(Refusal::new(
            "the time per turn is given twice (turn= and turntime=); keep one",
        ));
    }
    if !turn_is_time && turn_value.is_some() && options.contains_key("turns") {
        return Err(Refusal::new(
            "the number of turn pieces is given twice (turn= and turns=); keep one",
        ));
    }
    let turn_count = if turn_is_time || options.contains_key("turns") {
        count(options, "turns", 10)?
    } else {
        count(options, "turn", 10)?
    };
    let supply = Supply {
        straight: count(options, "straight", 8)?,
        turn: turn_count,
        cross: count(options, "cross", 3)?,
        thunder: count(options, "thunder", 3)?,
    };
    if !(4..=64).contains(&supply.total()) {
        return Err(Refusal::new(format!(
            "the supply holds {} pieces; it must hold 4 to 64",
            supply.total()
        )));
    }
    let first = match options.get("first").map(|value| value.trim()) {
        None | Some("") => First::Dice,
        Some(value)
            if value.eq_ignore_ascii_case("dice") || value.eq_ignore_ascii_case("random") =>
        {
            First::Dice
        }
        Some(value) => First::Named(value.to_string()),
    };
    let mode = match options.get("impossible").map(|v| v.trim().to_lowercase()) {
        None => Mode::Challenge,
        Some(value) if value == "challenge" => Mode::Challenge,
        Some(value) if value == "solver" => Mode::Solver,
        Some(value) => {
            return Err(Refusal::new(format!(
                "impossible={value} is not a procedure; use challenge or solver"
            )))
        }
    };
    let clocks = match options.get("clocks").map(|v| v.trim().to_lowercase()) {
        None => POST_CLOCKS,
        Some(value) if value == "post" => POST_CLOCKS,
        Some(value) if value == "seed" => SEED_CLOCKS,
        Some(value) => {
            return Err(Refusal::new(format!(
                "clocks={value} is not a set of clocks; use post (days, the default) or seed (5 minutes)"
            )))
        }
    };
    let turn_time = if turn_is_time {
        duration("turn", turn_value, clocks.turn)?
    } else {
        duration("turntime", options.get("turntime"), clocks.turn)?
    };
    Ok(Setup {
        cols,
        rows,
        supply,
        first,
        mode,
        turn_secs: turn_time,
        reserve_secs: duration("reserve", options.get("reserve"), clocks.reserve)?,
        window_secs: duration("window", options.get("window"), clocks.window)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::options_of as options;

    #[test]
    fn durations_read_units_and_bare_minutes() {
        assert_eq!(parse_duration("5m"), Some(300));
        assert_eq!(parse_duration("1h30m"), Some(5400));
        assert_eq!(parse_duration("2D"), Some(172_800));
        assert_eq!(parse_duration("7"), Some(420));
        assert_eq!(parse_duration("5 minutes"), Some(300));
        assert_eq!(parse_duration("m"), None);
    }

    #[test]
    fn clocks_default_to_days_for_play_by_post_and_to_minutes_on_request() {
        let post = parse(&Options::new()).unwrap();
        let clocks = (post.turn_secs, post.reserve_secs, post.window_secs);
        assert_eq!(clocks, (86_400, 172_800, 86_400));
        let seed = parse(&options(&[("clocks", "seed")])).unwrap();
        assert_eq!(
            (seed.turn_secs, seed.reserve_secs, seed.window_secs),
            (300, 300, 300)
        );
        let mixed = parse(&options(&[("clocks", "seed"), ("reserve", "1h")])).unwrap();
        assert_eq!((mixed.turn_secs, mixed.reserve_secs), (300, 3600));
        assert!(parse(&options(&[("clocks", "fast")])).is_err());
    }

    #[test]
    fn turn_is_a_count_or_a_time_by_its_value() {
        let setup = parse(&options(&[("turn", "12"), ("turntime", "2h")])).unwrap();
        assert_eq!((setup.supply.turn, setup.turn_secs), (12, 7200));
        let setup = parse(&options(&[("turn", "5m"), ("turns", "9")])).unwrap();
        assert_eq!((setup.supply.turn, setup.turn_secs), (9, 300));
        assert!(parse(&options(&[("turn", "5m"), ("turntime", "5m")])).is_err());
        assert!(parse(&options(&[("turn", "5"), ("turns", "5")])).is_err());
        let defaults = parse(&Options::new()).unwrap();
        assert_eq!((defaults.cols, defaults.rows), (6, 6));
        assert_eq!(defaults.supply.total(), 24);
        assert_eq!(defaults.mode, Mode::Challenge);
        assert_eq!(defaults.first, First::Dice);
    }
}
