//! A match in progress: turns, placements, the "impossible" call, concession and chess clocks.

use super::picture;
use super::position::{Grid, Position};
use super::setup::{Mode, Setup};
use super::solver;
use super::{parse, placement, CALL, CONCEDE, PLACE};
use crate::games::Happened;
use crate::games::{Board, Ctx, Event, Game, Options, Phase, Player, Refusal, Search, Seat};
use crate::games::{Decision, Level};
use chrono::{DateTime, Duration, Utc};
use rand_core::RngCore;
use serde::{Deserialize, Serialize};

/// An "impossible" call waiting to be answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// Who called "impossible".
    pub caller: Seat,
    /// When the call was made (the window starts then).
    pub started: DateTime<Utc>,
    /// The solver's answer at the moment of the call, revealed after the match.
    pub truth: String,
}

/// An "impossible" call the solver is judging: the match waits for its verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    /// Who called "impossible".
    pub caller: Seat,
}

/// How the match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner.
    pub winner: Seat,
    /// Why, in words.
    pub reason: String,
}

/// The state of one match (the setup, secret before the start, is public once it begins).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShortCircuitGame {
    /// The two players' names, by seat.
    pub names: Vec<String>,
    /// The GM's setup.
    pub setup: Setup,
    /// The board and the remaining supply.
    pub position: Position,
    /// Whose turn it is (during a challenge, the challenged player).
    pub to_move: Seat,
    /// Each player's reserve left, in milliseconds.
    pub reserve_ms: Vec<i64>,
    /// When the current turn began.
    pub turn_started: DateTime<Utc>,
    /// When the last accepted action happened (a challenge window does not restart with it).
    pub last_action: DateTime<Utc>,
    /// The "impossible" call the solver is judging, if any (nobody may act meanwhile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<Call>,
    /// The open "impossible" call, if any.
    pub challenge: Option<Challenge>,
    /// The result, once the match is over.
    pub outcome: Option<Outcome>,
    /// Whether, answering an impossible call, one `place` may hold several placements in a
    /// row, separated by `;` (rules revision 4 on): a completion is then one message, and
    /// one post.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub placements_in_a_row: bool,
}

/// The key of the solver's search on an impossible call.
const IMPOSSIBLE: &str = "impossible";

/// What the solver's answer reads when its search budget ran out.
const UNDECIDED: &str = "undecided: the solver did not settle this position within its budget\n";

/// The rules revision from which the start and every "to move" line say how to move.
pub(super) const PROMPTED_FROM: u32 = 3;

/// The rules revision from which placements answering an impossible call may come several
/// in one message ([`ShortCircuitGame::placements_in_a_row`]).
pub(super) const IN_A_ROW_FROM: u32 = 4;

/// How to move, as a turn's line says it.
pub(super) const HOW_TO_MOVE: &str = "To move: `!place <square> <piece> <rotation>`, for one to three pieces in a line (a piece is straight, turn, cross or thunder; a rotation 0, 90, 180 or 270), or `!impossible`.";

fn other(seat: Seat) -> Seat {
    1 - seat.min(1)
}

impl ShortCircuitGame {
    /// A new match: the first player to move, both reserves full, the turn starting `now`.
    pub fn new(
        setup: Setup,
        players: &[Player],
        first: Seat,
        now: DateTime<Utc>,
    ) -> Result<Self, Refusal> {
        if players.len() != 2 {
            return Err(Refusal::new(format!(
                "Short Circuit is a duel for exactly 2 players, not {}",
                players.len()
            )));
        }
        let grid = Grid::new(setup.cols, setup.rows).map_err(Refusal::new)?;
        Ok(ShortCircuitGame {
            names: players.iter().map(|player| player.name.clone()).collect(),
            position: Position {
                grid,
                supply: setup.supply,
            },
            to_move: first.min(1),
            reserve_ms: vec![setup.reserve_secs * 1000; 2],
            turn_started: now,
            last_action: now,
            call: None,
            challenge: None,
            outcome: None,
            setup,
            placements_in_a_row: true,
        })
    }

    /// Whether a loaded state is consistent enough to play on.
    pub fn is_sound(&self) -> bool {
        let grid = &self.position.grid;
        self.names.len() == 2
            && self.reserve_ms.len() == 2
            && self.to_move < 2
            && Grid::new(grid.cols(), grid.rows()).is_ok()
            && grid.cells().len() == grid.cols() * grid.rows()
            && self
                .outcome
                .as_ref()
                .is_none_or(|outcome| outcome.winner < 2)
            && self
                .challenge
                .as_ref()
                .is_none_or(|challenge| challenge.caller < 2)
            && self.call.as_ref().is_none_or(|call| call.caller < 2)
    }

    fn name(&self, seat: Seat) -> &str {
        self.names.get(seat).map_or("?", String::as_str)
    }

    /// The solver's work on the current position, within the steps the table allows: its
    /// answer as text (`completable` and a witness, `impossible`, or `undecided`), for an
    /// impossible call or the GM's hint.
    fn solving(&self, key: &str) -> Search {
        let position = self.position.clone();
        Search {
            key: key.to_string(),
            work: Box::new(move |steps| {
                solver::solve_within(&position.grid, &position.supply, steps)
                    .map_or_else(|| UNDECIDED.to_string(), |solution| solution.to_text())
            }),
            sealed: self.setup.mode == Mode::Challenge && self.call.is_some(),
        }
    }

    fn finish(&mut self, winner: Seat, reason: String, events: &mut Vec<Event>) {
        events.push(Event::public(format!(
            "{} wins: {reason}.",
            self.name(winner)
        )));
        if let Some(challenge) = self.challenge.take() {
            events.push(Event::public(format!(
                "The solver's answer when {} called impossible:\n```\n{}```",
                self.name(challenge.caller),
                challenge.truth
            )));
        }
        self.outcome = Some(Outcome { winner, reason });
    }

    /// Charges the time of the current turn up to `now` to the mover's reserve; true if the
    /// reserve is spent.
    fn charge(&mut self, now: DateTime<Utc>) -> bool {
        let used = (now - self.turn_started).num_milliseconds().max(0);
        let beyond = used - self.setup.turn_secs * 1000;
        if let Some(reserve) = self.reserve_ms.get_mut(self.to_move) {
            if beyond > 0 {
                *reserve -= beyond;
            }
            if *reserve < 0 {
                *reserve = 0;
                return true;
            }
        }
        false
    }

    fn window_over(&self, now: DateTime<Utc>) -> bool {
        self.challenge.as_ref().is_some_and(|challenge| {
            now - challenge.started > Duration::seconds(self.setup.window_secs)
        })
    }

    fn time_up(&mut self, events: &mut Vec<Event>) {
        if let Some(challenge) = &self.challenge {
            let caller = challenge.caller;
            let reason = format!(
                "{} did not complete the track within the time after the impossible call",
                self.name(other(caller))
            );
            self.finish(caller, reason, events);
        } else {
            let loser = self.to_move;
            if let Some(reserve) = self.reserve_ms.get_mut(loser) {
                *reserve = 0;
            }
            let reason = format!("{}'s reserve ran out", self.name(loser));
            self.finish(other(loser), reason, events);
        }
    }

    fn place(&mut self, seat: Seat, args: &str, now: DateTime<Utc>, revision: u32) -> Happened {
        // Answering a call, placements may come several in a row: `a1 turn 0; b1 turn 90`.
        let groups: Vec<&str> = match self.challenge.is_some() && self.placements_in_a_row {
            true => args
                .split(';')
                .map(str::trim)
                .filter(|group| !group.is_empty())
                .collect(),
            false => Vec::new(),
        };
        let groups = if groups.is_empty() {
            vec![args]
        } else {
            groups
        };
        let (mut grid, mut supply) = (self.position.grid.clone(), self.position.supply);
        let mut placed = Vec::new();
        for (at, group) in groups.iter().enumerate() {
            let which = |text: String| match groups.len() {
                1 => text,
                many => format!("placement {} of {many}: {text}", at + 1),
            };
            if at > 0 && solver::complete_reading(&grid).is_some() {
                return Err(Refusal::new(format!(
                    "the circuit is complete after placement {at}; send the placements up to it"
                )));
            }
            let items = parse::parse_place(group).map_err(|error| Refusal::new(which(error)))?;
            placement::check(&grid, &supply, &items)
                .map_err(|error| Refusal::new(which(error.to_string())))?;
            placement::apply(&mut grid, &mut supply, &items);
            placed.push(items);
        }
        let mut events = Vec::new();
        if self.challenge.is_none() && self.charge(now) {
            self.time_up(&mut events);
            return Ok(events);
        }
        self.position.grid = grid;
        self.position.supply = supply;
        let listed: Vec<String> = placed
            .iter()
            .map(|items| {
                items
                    .iter()
                    .map(|(square, piece)| format!("{} on {square}", piece.describe()))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        events.push(Event::public(format!(
            "{} places {}.",
            self.name(seat),
            listed.join("; then ")
        )));
        if solver::complete_reading(&self.position.grid).is_some() {
            self.finish(seat, "the circuit is complete".to_string(), &mut events);
            return Ok(events);
        }
        if self.challenge.is_some() {
            let how = match self.placements_in_a_row {
                true => " (several placements may go in one message, separated by `;`)",
                false => "",
            };
            events.push(Event::public(format!(
                "{} may keep placing until the circuit is complete{how}, or concede.",
                self.name(seat)
            )));
        } else {
            self.to_move = other(seat);
            self.turn_started = now;
            let how = match revision >= PROMPTED_FROM {
                true => format!(" {HOW_TO_MOVE}"),
                false => String::new(),
            };
            events.push(Event::public(format!(
                "{} to move.{how}",
                self.name(self.to_move)
            )));
        }
        Ok(events)
    }

    fn impossible(&mut self, seat: Seat, now: DateTime<Utc>) -> Happened {
        if self.challenge.is_some() {
            return Err(Refusal::new(
                "impossible has been called already; complete the track with place, or concede",
            ));
        }
        let mut events = Vec::new();
        if self.charge(now) {
            self.time_up(&mut events);
            return Ok(events);
        }
        events.push(Event::public(format!(
            "{} calls impossible: no further placements from the supply can complete the circuit.",
            self.name(seat)
        )));
        self.call = Some(Call { caller: seat });
        Ok(events)
    }

    /// The solver's verdict on the call `caller` made, at `now`: in solver mode it decides
    /// the match (unless it is undecided); otherwise the opponent gets the window to complete
    /// the track, and the verdict stays sealed until the match ends.
    fn judge(&mut self, caller: Seat, verdict: &str, ctx: &Ctx<'_>) -> Vec<Event> {
        let now = ctx.now;
        let mut events = Vec::new();
        let first = verdict.lines().next().unwrap_or_default();
        let witness = verdict.strip_prefix("completable\n");
        match (self.setup.mode, first, witness) {
            (Mode::Solver, "impossible", _) => {
                let reason = "the solver proves the circuit cannot be completed".to_string();
                self.finish(caller, reason, &mut events);
            }
            (Mode::Solver, _, Some(witness)) if ctx.revision >= 2 => {
                let reason = "the solver shows the circuit can still be completed".to_string();
                self.finish(other(caller), reason, &mut events);
                events.push(Event::public(format!(
                    "The solver's completion:\n```\n{witness}```"
                )));
            }
            (Mode::Solver, _, Some(witness)) => {
                let reason = format!(
                    "the solver shows the circuit can still be completed:\n```\n{witness}```"
                );
                self.finish(other(caller), reason, &mut events);
            }
            (mode, _, _) => {
                if mode == Mode::Solver {
                    events.push(Event::public(
                        "The solver cannot settle this position within its time, so the call is played out as a challenge.",
                    ));
                }
                events.push(Event::sealed(format!(
                    "Solver's answer at the call:\n{verdict}"
                )));
                self.challenge = Some(Challenge {
                    caller,
                    started: now,
                    truth: verdict.to_string(),
                });
                self.to_move = other(caller);
                self.turn_started = now;
                events.push(Event::public(format!(
                    "{} has {} to complete the track, placing as often as they like, or to concede.",
                    self.name(self.to_move),
                    picture::duration_text(self.setup.window_secs * 1000)
                )));
            }
        }
        events
    }
}

impl Game for ShortCircuitGame {
    fn phase(&self) -> Phase {
        match &self.outcome {
            Some(outcome) => Phase::Over {
                ranking: vec![vec![outcome.winner], vec![other(outcome.winner)]],
            },
            None => Phase::Turn { seat: self.to_move },
        }
    }

    fn time_limit(&self, _options: &Options) -> Option<Duration> {
        if self.outcome.is_some() || self.call.is_some() {
            return None;
        }
        if let Some(challenge) = &self.challenge {
            let spent = self.last_action - challenge.started;
            let left = Duration::seconds(self.setup.window_secs) - spent;
            return Some(left.max(Duration::zero()));
        }
        let reserve = self.reserve_ms.get(self.to_move).copied().unwrap_or(0);
        Some(Duration::seconds(self.setup.turn_secs) + Duration::milliseconds(reserve))
    }

    fn act(&mut self, seat: Seat, word: &str, args: &str, ctx: &mut Ctx<'_>) -> Happened {
        if let Some(outcome) = &self.outcome {
            return Err(Refusal::new(format!(
                "the match is over; {} won",
                self.name(outcome.winner)
            )));
        }
        if seat > 1 {
            return Err(Refusal::new("only the two players of the duel can act"));
        }
        if let Some(call) = &self.call {
            return Err(Refusal::new(format!(
                "the solver is judging {}'s impossible call; its verdict comes in a moment",
                self.name(call.caller)
            )));
        }
        let word = word.trim().to_lowercase();
        if word == CONCEDE.name {
            let mut events = vec![Event::public(format!("{} concedes.", self.name(seat)))];
            let reason = format!("{} conceded", self.name(seat));
            self.finish(other(seat), reason, &mut events);
            return Ok(events);
        }
        if word != PLACE.name && word != CALL.name {
            return Err(Refusal::new(format!(
                "`{word}` is not a Short Circuit command; use {}, {} or {}",
                PLACE.name, CALL.name, CONCEDE.name
            )));
        }
        if seat != self.to_move {
            return Err(Refusal::new(format!(
                "it is {}'s turn, not yours",
                self.name(self.to_move)
            )));
        }
        if self.window_over(ctx.now) {
            let mut events = Vec::new();
            self.time_up(&mut events);
            return Ok(events);
        }
        let events = if word == PLACE.name {
            self.place(seat, args, ctx.now, ctx.revision)?
        } else {
            self.impossible(seat, ctx.now)?
        };
        self.last_action = ctx.now;
        Ok(events)
    }

    fn timeout(&mut self, _ctx: &mut Ctx<'_>) -> Vec<Event> {
        let mut events = Vec::new();
        if self.outcome.is_none() {
            self.time_up(&mut events);
        }
        events
    }

    fn seat_left(&mut self, seat: Seat, _heir: Option<&Player>, _ctx: &mut Ctx<'_>) -> Vec<Event> {
        let mut events = Vec::new();
        if self.outcome.is_none() && seat < 2 {
            let reason = format!("{} left the match", self.name(seat));
            self.finish(other(seat), reason, &mut events);
        }
        events
    }

    fn rename(&mut self, seat: Seat, name: &str) {
        if let Some(slot) = self.names.get_mut(seat) {
            *slot = name.to_string();
        }
    }

    fn board(&self) -> Board {
        Board {
            text: picture::text(self, false),
            svg: Some(picture::svg(self, false)),
        }
    }

    fn final_board(&self) -> Board {
        Board {
            text: picture::text(self, true),
            svg: Some(picture::svg(self, true)),
        }
    }

    fn pending_search(&self) -> Option<Search> {
        self.call.as_ref().map(|_| self.solving(IMPOSSIBLE))
    }

    fn verdict(&mut self, key: &str, verdict: &str, ctx: &mut Ctx<'_>) -> Happened {
        let Some(call) = self.call.take_if(|_| key == IMPOSSIBLE) else {
            return Err(Refusal::new(format!("no search `{key}` is awaited")));
        };
        let events = self.judge(call.caller, verdict, ctx);
        self.last_action = ctx.now;
        Ok(events)
    }

    fn gm_query(&self, text: &str) -> Option<Search> {
        let text = text.trim();
        text.eq_ignore_ascii_case("hint")
            .then(|| self.solving(&text.to_lowercase()))
    }

    fn check_verdict(
        &self,
        key: &str,
        verdict: &str,
        steps_again: Option<u64>,
    ) -> Result<(), String> {
        // The GM's hint answers the position at the asking, which play may have left since,
        // and decides nothing; the impossible call's verdict is given on the position the
        // game stood still at.
        if key != IMPOSSIBLE {
            return Ok(());
        }
        let position = &self.position;
        match verdict.split_once('\n').map_or(verdict, |(first, _)| first) {
            "completable" => {
                let witness = verdict.strip_prefix("completable\n").unwrap_or_default();
                solver::check_witness(&position.grid, &position.supply, witness)
            }
            "impossible" => match steps_again
                .and_then(|steps| solver::solve_within(&position.grid, &position.supply, steps))
            {
                Some(solver::Solution::Completable(witness)) => Err(format!(
                    "the log says impossible, but the circuit can be completed:\n{}",
                    witness.to_text()
                )),
                _ => Ok(()),
            },
            first if first == UNDECIDED.trim_end() => Ok(()),
            other => Err(format!("`{other}` is not an answer the solver gives")),
        }
    }

    fn computer(&self, seat: Seat, level: Level, rng: &mut dyn RngCore) -> Option<Decision> {
        super::computer::decide(self, seat, level, rng).map(crate::games::Decision::Action)
    }

    fn private_status(&self, seat: Seat) -> String {
        let reserve = self.reserve_ms.get(seat).copied().unwrap_or(0);
        let whose = match &self.outcome {
            Some(outcome) => format!("The match is over; {} won.", self.name(outcome.winner)),
            None if self.call.is_some() => "The solver is judging the impossible call.".to_string(),
            None if self.to_move == seat => "It is your turn.".to_string(),
            None => format!("It is {}'s turn.", self.name(self.to_move)),
        };
        format!(
            "You are {} (seat {}). {whose} Your reserve: {} (plus {} each turn).",
            self.name(seat),
            seat + 1,
            picture::duration_text(reserve),
            picture::duration_text(self.setup.turn_secs * 1000)
        )
    }

    fn save(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    fn position(&self) -> serde_json::Value {
        let mut saved = self.save();
        if let Some(fields) = saved.as_object_mut() {
            // The players' clocks: a computer player plays no faster for having time.
            for clock in ["reserve_ms", "turn_started", "last_action"] {
                fields.remove(clock);
            }
        }
        saved
    }
}
