//! `!undo`: the GM takes back the last resolution or turn. The game is rebuilt from its log:
//! its inputs are applied again in order, and the state before the first input of the last
//! resolution or turn is where it returns. Nothing is erased: the undone inputs and their
//! events stay in the audit log, marked undone, and the undo is itself an input of the log,
//! so `referee replay` rebuilds the same game. The dice are not rolled back: what the next
//! resolution draws comes fresh from the stream, so an undo never gives a second roll. Nor a
//! second thought: a `hard` computer's move taken back is remembered with its position and
//! made again there (it thinks against the clock, so thinking again could differ).
//!
//! A resolution or turn is a run of inputs that changed the game's state, all made in one
//! phase (the same round, the same turn or orders): a round of secret orders is undone from
//! the input that resolved it (the orders sent before it stay in force, the last one too when
//! it was what resolved the round); a turn from its first move.

use super::catalogue::Catalogue;
use super::computers;
use super::legacy;
use super::rounds::{self, describe_phase, schedule};
use super::work::{Live, UndoTarget, Work};
use crate::games::Refusal;
use crate::records::Phase;
use crate::records::{GameRecord, Input, Recalled, Status};

/// One resolution or turn: where it began and in which phase.
struct Unit {
    start: i64,
    key: (u64, Option<Phase>),
    target: UndoTarget,
}

/// The resolutions and turns of a game as its inputs are applied again in order, with the
/// undos among them taking theirs away.
#[derive(Default)]
pub struct History {
    units: Vec<Unit>,
    /// The `hard` computers' moves not undone, each with its input's number.
    decided: Vec<(i64, Recalled)>,
}

impl History {
    /// A history with nothing in it.
    pub fn new() -> History {
        History::default()
    }

    /// Notes input `seq` applied to `before` giving `after` (the games as `catalogue` loads
    /// them).
    pub fn note(
        &mut self,
        catalogue: &Catalogue,
        seq: i64,
        input: &Input,
        (before, after): (Option<&GameRecord>, Option<&GameRecord>),
    ) {
        if let Input::Undo { back_to, .. } = input {
            self.units.retain(|unit| unit.start < *back_to);
            self.decided.retain(|(decided, _)| decided < back_to);
            return;
        }
        let (Some(before), Some(after)) = (before, after) else {
            return;
        };
        if before.state.is_none() || before.status != Status::Running {
            return;
        }
        // A secret order that resolves nothing yet is remembered too.
        if let Some(recalled) = computers::to_recall(catalogue, before, input) {
            self.decided.push((seq, recalled));
        }
        let played = before.state != after.state
            || before.phase != after.phase
            || before.round != after.round;
        if !played {
            return;
        }
        let key = (before.round, before.phase.clone());
        if self.units.last().is_some_and(|unit| unit.key == key) {
            return;
        }
        self.units.push(Unit {
            start: seq,
            key,
            target: UndoTarget {
                before: before.clone(),
                first: input.clone(),
                recalled: Vec::new(),
            },
        });
    }

    /// The last resolution or turn not yet undone, and a computer seat's turns after it: its
    /// first input and where an undo returns. (A computer's turn alone is not taken back: the
    /// computer would make the same move again at once.)
    pub fn last(&self) -> Option<(i64, UndoTarget)> {
        self.units
            .iter()
            .rev()
            .find(|unit| !computer_turn(&unit.target.before))
            .or(self.units.last())
            .map(|unit| (unit.start, self.target_of(unit)))
    }

    /// Where the undo back to input `back_to` returns.
    pub fn target(&self, back_to: i64) -> Option<UndoTarget> {
        self.units
            .iter()
            .find(|unit| unit.start == back_to)
            .map(|unit| self.target_of(unit))
    }

    /// Where an undo of `unit` returns, with the `hard` computers' moves it takes back.
    fn target_of(&self, unit: &Unit) -> UndoTarget {
        UndoTarget {
            recalled: self
                .decided
                .iter()
                .filter(|(decided, _)| *decided >= unit.start)
                .map(|(_, recalled)| recalled.clone())
                .collect(),
            ..unit.target.clone()
        }
    }
}

/// Whether `record` stood at a computer seat's turn.
fn computer_turn(record: &GameRecord) -> bool {
    matches!(record.phase, Some(Phase::Turn { seat })
        if record.seats.get(seat).is_some_and(|sat| sat.computer.is_some()))
}

/// What an undo takes back, in words: "the resolution of moves for round 2", "bob's turn".
fn taken_back(target: &UndoTarget) -> String {
    match &target.before.phase {
        Some(Phase::Orders { label, .. }) => format!("the resolution of {label}"),
        Some(Phase::Turn { seat }) => format!("{}'s turn", target.before.name(*seat)),
        _ => "the last change".to_string(),
    }
}

/// What an undo does not take back, from the record as it stands `now`: the dice's position
/// (so the next draws are fresh), and where the game and its players are reached (its
/// channel, thread or forum post, the players' private threads and closed DMs).
fn keep_where_it_lives(record: &mut GameRecord, now: &GameRecord) {
    record.dice_position = now.dice_position;
    record.channel.clone_from(&now.channel);
    record.forum.clone_from(&now.forum);
    for seat in record.seats.iter_mut().chain(record.waitlist.iter_mut()) {
        if let Some(current) = now
            .seats
            .iter()
            .chain(now.waitlist.iter())
            .find(|current| current.user.id == seat.user.id)
        {
            seat.thread.clone_from(&current.thread);
            seat.dms_closed = current.dms_closed;
        }
    }
}

/// The `hard` computers' moves an undo took back, before (`now`'s) and now (`taken`), kept
/// in `record`: each is made again at its position.
fn remember_taken_back(record: &mut GameRecord, now: &GameRecord, taken: &[Recalled]) {
    record.recalled.clone_from(&now.recalled);
    for recalled in taken {
        if !record
            .recalled
            .iter()
            .any(|known| known.seat == recalled.seat && known.at == recalled.at)
        {
            record.recalled.push(recalled.clone());
        }
    }
}

/// The order a direct message says, if it is one (the registry reads it: `!undo` hands it in).
pub(super) type OrderIn = fn(&str) -> Option<&str>;

/// Applies an undo: the record returns to `target` (keeping the dice's position, so the next
/// draws are fresh), an order that resolved the round is back in force, the deadline starts
/// again, and the channel is told what was taken back.
pub(super) fn undo(
    work: &mut Work<'_>,
    target: Option<&UndoTarget>,
    order_in: OrderIn,
) -> Result<bool, Refusal> {
    let id = work.record.id;
    match work.record.status {
        Status::Over => {
            return Err(Refusal::new(format!(
                "Game #{id} is over and its seed is revealed, so nothing can be taken back."
            )))
        }
        Status::SignUp => return Err(Refusal::new(format!("Game #{id} has not started yet."))),
        Status::Running | Status::Paused { .. } => {}
    }
    let Some(target) = target else {
        return Err(Refusal::new(format!(
            "There is nothing to undo in game #{id} yet: no round has been resolved and no turn played."
        )));
    };
    let now = std::mem::replace(&mut work.record, target.before.clone());
    keep_where_it_lives(&mut work.record, &now);
    remember_taken_back(&mut work.record, &now, &target.recalled);
    work.record.status = Status::Running;
    work.record.extended = false;
    work.record.extended_from = None;
    work.record.end_stand_in();
    work.record.held = matches!(work.record.phase, Some(Phase::Orders { .. }));
    let mut live: Live = work.live()?;
    if let Input::Direct {
        user,
        text,
        command,
        computer,
    } = &target.first
    {
        // An order the computer sent for a silent player is not put back as theirs.
        let stood_in = *computer && !user.is_computer();
        let said = legacy::said(text, command.as_ref(), true);
        if let (Some(order), false) = (order_in(&said), stood_in) {
            rounds::accept_order(work, &mut live, user, order, false)?;
        }
    }
    let limit = work
        .record
        .settings
        .deadline
        .or_else(|| live.game.time_limit(&work.record.all_options()));
    schedule(
        work,
        limit.and_then(|limit| work.env.now.checked_add_signed(limit)),
    );
    work.record.first_deadline = work.record.deadline;
    let what = taken_back(target);
    work.outcome
        .table_event(work.record.round, format!("undo: the GM took back {what}"));
    let mut text = format!(
        "The GM took back {what}: game #{id} is back where it was before. What was undone stays in the log, marked undone; the dice are not rolled back, so what is drawn next comes fresh."
    );
    if let Some(Phase::Orders { label, .. }) = &work.record.phase {
        text.push_str(&format!(
            " The orders sent for {label} are back in force; you can change them until the deadline, when the round resolves."
        ));
    }
    text.push(' ');
    text.push_str(&describe_phase(&work.record));
    rounds::post_board(work, &live, text);
    Ok(true)
}
