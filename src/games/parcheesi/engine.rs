//! The legal-move engine: for a position and a roll, the ways to play the whole roll that use
//! the most dice (then the most pips, so the higher die when only one of two can be used); a
//! step is legal only if it begins one of them.
//!
//! Allocation-free: positions are copied on the stack, the search stops as soon as it finds a
//! play that uses every die (nothing can beat it), and the steps of a query come back in a
//! fixed-size [`Steps`] list.

use super::board::{
    self, Colour, Landing, Occupancy, Pairs, Position, Run, Spot, StepError, PAWNS,
};
use super::{ENTER, MOVE};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The dice of one roll: the two top faces, and with doubles and all pawns out the two bottom
/// faces too (rule 9); `used` marks the dice already played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Roll {
    /// The faces to play: two, or four on doubles with all pawns out.
    pub faces: [u8; 4],
    /// How many of `faces` belong to the roll (2 or 4).
    pub count: u8,
    /// Bit `i` set: die `i` has been played (or lost).
    pub used: u8,
}

impl Roll {
    /// The roll of `a` and `b`; `all_out` says whether all the player's pawns are out of the
    /// nest (HOME counts as out), which brings in the bottom faces on doubles.
    pub fn new(a: u8, b: u8, all_out: bool) -> Roll {
        if a == b && all_out {
            Roll {
                faces: [a, b, 7 - a, 7 - b],
                count: 4,
                used: 0,
            }
        } else {
            Roll {
                faces: [a, b, 0, 0],
                count: 2,
                used: 0,
            }
        }
    }

    /// Whether the two top faces are equal.
    pub fn is_double(&self) -> bool {
        self.faces[0] == self.faces[1]
    }

    /// Whether the faces are dice values (1..6) and the count is 2 or 4.
    pub fn is_valid(&self) -> bool {
        matches!(self.count, 2 | 4)
            && self.faces[..usize::from(self.count)]
                .iter()
                .all(|f| (1..=6).contains(f))
    }

    /// The faces not yet played, in roll order.
    pub fn left(&self) -> impl Iterator<Item = u8> + '_ {
        (0..usize::from(self.count.min(4)))
            .filter(|i| self.used & (1 << i) == 0)
            .map(|i| self.faces[i])
    }

    /// The bits of `used` that stand for dice of this roll.
    fn all(&self) -> u8 {
        (1u8 << self.count.min(4)) - 1
    }

    /// How many dice are left.
    pub fn dice_left(&self) -> u8 {
        (!self.used & self.all()).count_ones() as u8
    }

    /// Whether the roll is all played.
    pub fn done(&self) -> bool {
        self.used & self.all() == self.all()
    }

    /// Whether a face is still there to play.
    pub fn has(&self, face: u8) -> bool {
        self.left().any(|f| f == face)
    }

    /// Marks one die showing `face` as played; false if there is none.
    pub fn take(&mut self, face: u8) -> bool {
        for i in 0..usize::from(self.count.min(4)) {
            if self.used & (1 << i) == 0 && self.faces[i] == face {
                self.used |= 1 << i;
                return true;
            }
        }
        false
    }

    /// Whether the two dice, both unplayed, sum to 5 (entering with both, rule 3).
    pub fn sum_five(&self) -> bool {
        self.count == 2 && self.used == 0 && self.faces[0] + self.faces[1] == 5
    }

    /// Marks every die as played (the rest is lost).
    pub fn finish(&mut self) {
        self.used = self.all();
    }
}

/// One step of a roll: one pawn, one die (or both dice to enter with a sum of 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    /// Pawn (0-based) comes out of the nest with a 5, or with two dice summing to 5.
    Enter {
        /// The pawn.
        pawn: u8,
        /// Whether both dice are used (1+4, 2+3) rather than one die showing 5.
        by_sum: bool,
    },
    /// Pawn (0-based) moves by one die, into its home row or, if `around`, round again.
    Move {
        /// The pawn.
        pawn: u8,
        /// The die's face.
        die: u8,
        /// Past the turn-off square: round the ring again instead of into the home row.
        around: bool,
    },
}

impl Step {
    /// The pawn (0-based) this step moves.
    pub fn pawn(&self) -> usize {
        match *self {
            Step::Enter { pawn, .. } | Step::Move { pawn, .. } => usize::from(pawn),
        }
    }
}

impl fmt::Display for Step {
    /// The command that plays the step.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Step::Enter { pawn, .. } => write!(f, "{} {}", ENTER.name, pawn + 1),
            Step::Move {
                pawn,
                die,
                around: false,
            } => write!(f, "{} {} {}", MOVE.name, pawn + 1, die),
            Step::Move {
                pawn,
                die,
                around: true,
            } => write!(f, "{} {} {} around", MOVE.name, pawn + 1, die),
        }
    }
}

/// What constrains a whole roll besides the board: the blockades standing when a roll of
/// doubles began (rule 13: not moved forward together) and the blockades that must be broken
/// (`blockade_limit`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Limits {
    /// The player's blockades when this roll of doubles began (empty for other rolls).
    pub together: Pairs,
    /// Blockades that have stood too long and must be broken if any legal play allows it.
    pub must_break: Pairs,
}

/// The legal steps of a query, without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Steps {
    items: [Step; 32],
    len: usize,
}

impl Default for Steps {
    fn default() -> Self {
        Steps {
            items: [Step::Enter {
                pawn: 0,
                by_sum: false,
            }; 32],
            len: 0,
        }
    }
}

impl Steps {
    fn push(&mut self, step: Step) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = step;
            self.len += 1;
        }
    }

    /// The steps as a slice.
    pub fn as_slice(&self) -> &[Step] {
        &self.items[..self.len]
    }

    /// Whether `step` is among them.
    pub fn contains(&self, step: &Step) -> bool {
        self.as_slice().contains(step)
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.len
    }
}

/// Checks one step against the board alone (the dice are the caller's to check).
pub fn check_step(
    pos: &Position,
    occ: &Occupancy,
    colour: Colour,
    step: Step,
) -> Result<Landing, StepError> {
    match step {
        Step::Enter { pawn, .. } => board::try_enter(pos, occ, colour, usize::from(pawn)),
        Step::Move { pawn, die, around } => {
            board::try_move(pos, occ, colour, usize::from(pawn), die, around)
        }
    }
}

/// Plays one step on a copy of the position and roll (the step must be legal on the board).
pub fn play(pos: &mut Position, roll: &mut Roll, colour: Colour, step: Step, landing: Landing) {
    match step {
        Step::Enter { by_sum: true, .. } => roll.finish(),
        Step::Enter { by_sum: false, .. } => {
            roll.take(5);
        }
        Step::Move { die, .. } => {
            roll.take(die);
        }
    }
    board::apply(pos, colour, step.pawn(), landing);
}

/// How many dice and pips a step uses.
fn cost(step: Step, roll: &Roll) -> (u8, u8) {
    match step {
        Step::Enter { by_sum: true, .. } => (2, roll.faces[0] + roll.faces[1]),
        Step::Enter { by_sum: false, .. } => (1, 5),
        Step::Move { die, .. } => (1, die),
    }
}

/// Bit `4 * p + q` set: pawns `p` and `q` belong to the same pairs of `limits`, so when they
/// stand on one spot, moving either gives the same play.
fn interchangeable(limits: &Limits) -> u16 {
    if limits.together.is_empty() && limits.must_break.is_empty() {
        return u16::MAX;
    }
    let mut swap = 0u16;
    for p in 0..PAWNS {
        for q in 0..PAWNS {
            let same = limits
                .together
                .iter()
                .chain(limits.must_break.iter())
                .all(|(a, b, _)| (a == p || b == p) == (a == q || b == q));
            if same {
                swap |= 1 << (4 * p + q);
            }
        }
    }
    swap
}

/// For each pawn, bit `q` set: pawn `q`, after it, stands with it and is interchangeable with
/// it (same plays).
fn twins(pos: &Position, colour: Colour, swap: u16) -> [u8; PAWNS] {
    let pawns = &pos.pawns[colour.index()];
    let mut twins = [0u8; PAWNS];
    for p in 0..PAWNS {
        for q in p + 1..PAWNS {
            if swap & (1 << (4 * p + q)) != 0 && pawns[q] == pawns[p] {
                twins[p] |= 1 << q;
            }
        }
    }
    twins
}

/// Calls `f` for every step that the board allows with the dice left; stops when `f` says so.
/// A pawn among the `twins` of an earlier pawn (see [`twins`]) is skipped: same plays.
fn for_each_step(
    pos: &Position,
    occ: &Occupancy,
    roll: &Roll,
    colour: Colour,
    twins: &[u8; PAWNS],
    mut f: impl FnMut(Step, Landing) -> bool,
) -> bool {
    let pawns = &pos.pawns[colour.index()];
    let mut faces = [0u8; 4];
    let mut nfaces = 0;
    for face in roll.left() {
        if !faces[..nfaces].contains(&face) {
            faces[nfaces] = face;
            nfaces += 1;
        }
    }
    let sum_five = roll.sum_five();
    let skipped = twins.iter().fold(0, |all, t| all | t);
    for (p, &spot) in pawns.iter().enumerate() {
        if skipped & (1 << p) != 0 {
            continue;
        }
        match spot {
            Spot::Home => {}
            Spot::Nest => {
                let mut enter = |by_sum: bool| -> bool {
                    let step = Step::Enter {
                        pawn: p as u8,
                        by_sum,
                    };
                    match board::try_enter(pos, occ, colour, p) {
                        Ok(landing) => f(step, landing),
                        Err(_) => false,
                    }
                };
                if faces[..nfaces].contains(&5) && enter(false) {
                    return true;
                }
                if sum_five && enter(true) {
                    return true;
                }
            }
            Spot::Ring(_) | Spot::Row(_) => {
                // A die may go round again only past the turn-off square (never from the row).
                let before_turn_off = match spot {
                    Spot::Ring(square) => colour.squares_to_turn_off(square),
                    _ => u8::MAX,
                };
                for &die in &faces[..nfaces] {
                    for around in [false, true] {
                        if around && die <= before_turn_off {
                            continue;
                        }
                        if let Ok(landing) = board::try_move(pos, occ, colour, p, die, around) {
                            let step = Step::Move {
                                pawn: p as u8,
                                die,
                                around,
                            };
                            if f(step, landing) {
                                return true;
                            }
                        }
                    }
                }
            }
        }
    }
    false
}

/// The worth of stopping here: dice used, then pips used, then whether the stale blockades
/// are broken; -1 when the play is not allowed to end like this (a blockade moved together).
fn worth(pos: &Position, colour: Colour, limits: &Limits, dice: u8, pips: u8) -> i32 {
    if moved_together(pos, colour, limits) {
        return -1;
    }
    let pawns = &pos.pawns[colour.index()];
    let at = |p: usize| pawns.get(p).copied().unwrap_or(Spot::Nest);
    let broken = limits
        .must_break
        .iter()
        .all(|(p, q, spot)| !(at(p) == spot && at(q) == spot));
    (i32::from(dice) << 6) | (i32::from(pips) << 1) | i32::from(broken)
}

/// The search of one query: what stays the same through it.
struct Search<'a> {
    colour: Colour,
    limits: &'a Limits,
    swap: u16,
    /// The most any play could be worth: a search stops as soon as it reaches it, so every
    /// worth it returns is exact.
    bound: i32,
}

/// The runs of a query, worked out when first needed: by pawn, then by the face of the first
/// step (an index into `faces`).
struct Runs {
    /// Whether three or four dice are left: the only rolls the shortcut is tried for.
    worth_it: bool,
    /// The distinct faces left, larger first (two at most when three or four dice are left:
    /// four dice are doubles and their bottom faces).
    faces: [u8; 2],
    /// For each of `faces`, the dice left once a die showing it is played, larger first: a
    /// run plays them in this order only (one that fails in it leaves the first step to the
    /// search, which tries every order).
    rest: [[u8; 4]; 2],
    /// How many of each `rest` are dice.
    rest_len: [usize; 2],
    /// Bit `2 * pawn + face` set: that run is worked out...
    tried: u8,
    /// ...and it exists, in `known`.
    found: u8,
    known: [[Run; 2]; PAWNS],
}

impl Runs {
    fn new(roll: &Roll) -> Runs {
        // The dice left, larger first; each face's rest is that list less one die showing it.
        let mut left = [0u8; 4];
        let mut n = 0;
        for face in roll.left() {
            if let Some(slot) = left.get_mut(n) {
                *slot = face;
                n += 1;
            }
        }
        left[..n].sort_unstable_by(|a, b| b.cmp(a));
        let mut faces = [0u8; 2];
        let mut rest = [[0u8; 4]; 2];
        let mut rest_len = [0usize; 2];
        let mut distinct = 0;
        for (i, &face) in left[..n].iter().enumerate() {
            if distinct == 2 || (i > 0 && left[i - 1] == face) {
                continue;
            }
            faces[distinct] = face;
            let mut k = 0;
            for (j, &other) in left[..n].iter().enumerate() {
                if j != i {
                    rest[distinct][k] = other;
                    k += 1;
                }
            }
            rest_len[distinct] = k;
            distinct += 1;
        }
        let nowhere = Run {
            ring_from: 0,
            ring_len: 0,
            row: 0,
            end: Spot::Nest,
        };
        Runs {
            worth_it: roll.dice_left() >= 3,
            faces,
            rest,
            rest_len,
            tried: 0,
            found: 0,
            known: [[nowhere; 2]; PAWNS],
        }
    }

    /// The dice left after a first step showing `faces[face]`, larger first.
    fn rest(&self, face: usize) -> &[u8] {
        &self.rest[face][..self.rest_len[face]]
    }

    /// The run of `pawn` with the dice left after a first step showing `faces[face]`.
    fn get(
        &mut self,
        pos: &Position,
        occ: &Occupancy,
        colour: Colour,
        pawn: usize,
        face: usize,
    ) -> Option<Run> {
        let bit = 1u8 << (2 * pawn + face);
        if self.tried & bit != 0 {
            return (self.found & bit != 0).then(|| self.known[pawn][face]);
        }
        self.tried |= bit;
        let run = board::try_run(pos, occ, colour, pawn, self.rest(face))?;
        self.found |= bit;
        self.known[pawn][face] = run;
        Some(run)
    }
}

impl Search<'_> {
    /// The worth of a first step `step` known without a search: the bound, when another pawn
    /// can play the dice left all by itself (its [`Run`], worked out on the position before the
    /// step) and the step neither leaves nor lands on a square that run depends on: then the
    /// same moves stay legal after the step and end the same way, so the step begins a play
    /// using every die. Only for rolls of three or four dice left, where searching every first
    /// step costs most.
    fn shortcut(
        &self,
        runs: &mut Runs,
        pos: &Position,
        occ: &Occupancy,
        step: Step,
        landing: Landing,
    ) -> Option<i32> {
        let Step::Move { pawn, die, .. } = step else {
            return None;
        };
        if !runs.worth_it {
            return None;
        }
        let face = runs.faces.iter().position(|f| *f == die)?;
        let (pawn, colour) = (usize::from(pawn), self.colour);
        let from = pos.spot(colour, pawn);
        for other in (0..PAWNS).filter(|other| *other != pawn) {
            let Some(run) = runs.get(pos, occ, colour, other, face) else {
                continue;
            };
            if run.depends_on(from) || run.depends_on(landing.to) {
                continue;
            }
            if self.ends_well(pos, &[(pawn, landing.to), (other, run.end)]) {
                return Some(self.bound);
            }
        }
        // Or the step's own pawn goes on with the dice left, from where it landed.
        let mut after = *pos;
        board::apply(&mut after, colour, pawn, landing);
        let occ = occ.after(colour, pos.spot(colour, pawn), &landing);
        let run = board::try_run(&after, &occ, colour, pawn, runs.rest(face))?;
        self.ends_well(pos, &[(pawn, run.end)])
            .then_some(self.bound)
    }

    /// Whether a play that uses every die and ends with `moves` (pawn, where it ends) made
    /// from `pos` reaches the bound: no blockade of this roll of doubles moved forward
    /// together, the stale blockades broken.
    fn ends_well(&self, pos: &Position, moves: &[(usize, Spot)]) -> bool {
        let limits = self.limits;
        if limits.together.is_empty() && limits.must_break.is_empty() {
            return true;
        }
        let mut end = *pos;
        for &(pawn, spot) in moves {
            if let Some(slot) = end.pawns[self.colour.index()].get_mut(pawn) {
                *slot = spot;
            }
        }
        worth(&end, self.colour, limits, 0, 0) == 1
    }

    /// The best worth reachable from here (exact: see [`Search::bound`]).
    fn best(&self, pos: &Position, occ: &Occupancy, roll: &Roll, used: (u8, u8)) -> i32 {
        debug_assert_eq!(*occ, pos.occupancy());
        let (colour, swap, bound) = (self.colour, self.swap, self.bound);
        if roll.done() {
            return worth(pos, colour, self.limits, used.0, used.1);
        }
        // With dice left, stopping here is worth less than the bound: it is weighed only
        // when no step reaches the bound.
        let mut best = i32::MIN;
        let twins = twins(pos, colour, swap);
        for_each_step(pos, occ, roll, colour, &twins, |step, landing| {
            best = best.max(self.after_step(pos, occ, roll, used, step, landing));
            best >= bound
        });
        if best >= bound {
            return best;
        }
        best.max(worth(pos, colour, self.limits, used.0, used.1))
    }

    /// The best worth of the plays that go on with `step` (landing as `landing` says) from
    /// here, where `used` dice and pips are played already. The board's occupancy after the
    /// step is worked out only when dice are left to search with.
    fn after_step(
        &self,
        pos: &Position,
        occ: &Occupancy,
        roll: &Roll,
        used: (u8, u8),
        step: Step,
        landing: Landing,
    ) -> i32 {
        let (dice, pips) = cost(step, roll);
        let used = (used.0 + dice, used.1 + pips);
        let mut child = *pos;
        let mut next = *roll;
        play(&mut child, &mut next, self.colour, step, landing);
        if next.done() {
            return worth(&child, self.colour, self.limits, used.0, used.1);
        }
        let after = occ.after(self.colour, pos.spot(self.colour, step.pawn()), &landing);
        self.best(&child, &after, &next, used)
    }
}

/// The legal steps for `colour` with what is left of `roll`: the first steps of the plays that
/// use the most dice (then the most pips; then, under `blockade_limit`, break the stale
/// blockades). Empty when no die can be played.
///
/// One pass over the first steps: each is searched for the best play it begins, stopping as
/// soon as one reaches the most any play could be worth (every die, every pip, the stale
/// blockades broken), which is the usual case; a first step that cannot is searched to the
/// end, so its exact worth is known. The legal steps are those whose worth is the greatest.
pub fn legal_steps(pos: &Position, roll: &Roll, colour: Colour, limits: &Limits) -> Steps {
    let dice_left = roll.dice_left();
    let pips_left: u8 = roll.left().sum();
    let bound = (i32::from(dice_left) << 6) | (i32::from(pips_left) << 1) | 1;
    let swap = interchangeable(limits);
    let occ = pos.occupancy();
    let search = Search {
        colour,
        limits,
        swap,
        bound,
    };
    // Each first step with its worth, and the greatest worth met.
    let mut firsts = [(
        Step::Enter {
            pawn: 0,
            by_sum: false,
        },
        0i32,
    ); 32];
    let mut count = 0;
    let mut best = i32::MIN;
    let mut runs = Runs::new(roll);
    let twins = twins(pos, colour, swap);
    for_each_step(pos, &occ, roll, colour, &twins, |step, landing| {
        let value = search
            .shortcut(&mut runs, pos, &occ, step, landing)
            .unwrap_or_else(|| search.after_step(pos, &occ, roll, (0, 0), step, landing));
        best = best.max(value);
        if let Some(slot) = firsts.get_mut(count) {
            *slot = (step, value);
            count += 1;
        }
        false
    });
    let mut steps = Steps::default();
    if best < 1 << 6 {
        return steps;
    }
    for &(step, value) in firsts.iter().take(count) {
        if value != best {
            continue;
        }
        steps.push(step);
        let of_pawn = twins.get(step.pawn()).copied().unwrap_or(0);
        for q in (0..PAWNS).filter(|q| of_pawn & (1 << q) != 0) {
            steps.push(match step {
                Step::Enter { by_sum, .. } => Step::Enter {
                    pawn: q as u8,
                    by_sum,
                },
                Step::Move { die, around, .. } => Step::Move {
                    pawn: q as u8,
                    die,
                    around,
                },
            });
        }
    }
    steps
}

/// The moves by which one pawn can use a reward of `amount` squares (exact count, no split),
/// leaving out those that would complete moving a blockade of this roll of doubles forward
/// together (rule 13 covers the rewards earned during the roll too).
pub fn reward_steps(pos: &Position, colour: Colour, amount: u8, limits: &Limits) -> Steps {
    let occ = pos.occupancy();
    let mut steps = Steps::default();
    for p in 0..PAWNS {
        for around in [false, true] {
            if let Ok(landing) = board::try_move(pos, &occ, colour, p, amount, around) {
                let mut after = *pos;
                board::apply(&mut after, colour, p, landing);
                if moved_together(&after, colour, limits) {
                    continue;
                }
                steps.push(Step::Move {
                    pawn: p as u8,
                    die: amount,
                    around,
                });
            }
        }
    }
    steps
}

/// Whether the two pawns of a blockade standing when this roll of doubles began now stand
/// together again on another square: moved forward together (rule 13).
pub fn moved_together(pos: &Position, colour: Colour, limits: &Limits) -> bool {
    let pawns = &pos.pawns[colour.index()];
    let at = |p: usize| pawns.get(p).copied().unwrap_or(Spot::Nest);
    limits
        .together
        .iter()
        .any(|(p, q, start)| at(p) == at(q) && at(p).on_board() && at(p) != start)
}

/// The distances left of a colour's pawns, rearmost first: the automatic turn makes this as
/// small as it can, so it moves the rearmost pawn furthest.
pub fn rear_first(pos: &Position, colour: Colour) -> [u32; PAWNS] {
    let mut left = [0u32; PAWNS];
    for (slot, spot) in left.iter_mut().zip(pos.pawns[colour.index()].iter()) {
        *slot = spot.distance_left(colour);
    }
    left.sort_unstable_by(|a, b| b.cmp(a));
    left
}

/// The automatic play of a roll (`timeout=auto`): among the legal ways to play it, the one
/// that leaves the rearmost pawn furthest advanced (then the next rearmost, and so on).
pub fn auto_play(pos: &Position, roll: &Roll, colour: Colour, limits: &Limits) -> Vec<Step> {
    fn walk(
        pos: &Position,
        roll: &Roll,
        colour: Colour,
        limits: &Limits,
        path: &mut Vec<Step>,
        best: &mut Option<([u32; PAWNS], Vec<Step>)>,
    ) {
        let steps = legal_steps(pos, roll, colour, limits);
        if steps.is_empty() {
            let key = rear_first(pos, colour);
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                *best = Some((key, path.clone()));
            }
            return;
        }
        let occ = pos.occupancy();
        for step in steps.as_slice() {
            if let Ok(landing) = check_step(pos, &occ, colour, *step) {
                let mut child = *pos;
                let mut next = *roll;
                play(&mut child, &mut next, colour, *step, landing);
                path.push(*step);
                walk(&child, &next, colour, limits, path, best);
                path.pop();
            }
        }
    }
    let mut best = None;
    walk(pos, roll, colour, limits, &mut Vec::new(), &mut best);
    best.map(|(_, steps)| steps).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step the board allows, twins included, found the slow way.
    fn all_steps(pos: &Position, roll: &Roll, colour: Colour) -> Vec<(Step, Landing)> {
        let occ = pos.occupancy();
        let mut out = Vec::new();
        for p in 0..PAWNS {
            for by_sum in [false, true] {
                let dice_ok = if by_sum { roll.sum_five() } else { roll.has(5) };
                if dice_ok {
                    if let Ok(l) = board::try_enter(pos, &occ, colour, p) {
                        out.push((
                            Step::Enter {
                                pawn: p as u8,
                                by_sum,
                            },
                            l,
                        ));
                    }
                }
            }
            for die in 1..=6 {
                for around in [false, true] {
                    if roll.has(die) {
                        if let Ok(l) = board::try_move(pos, &occ, colour, p, die, around) {
                            out.push((
                                Step::Move {
                                    pawn: p as u8,
                                    die,
                                    around,
                                },
                                l,
                            ));
                        }
                    }
                }
            }
        }
        out
    }

    fn slow_best(
        pos: &Position,
        roll: &Roll,
        colour: Colour,
        limits: &Limits,
        used: (u8, u8),
    ) -> i32 {
        let mut best = worth(pos, colour, limits, used.0, used.1);
        for (step, landing) in all_steps(pos, roll, colour) {
            let (dice, pips) = cost(step, roll);
            let (mut child, mut next) = (*pos, *roll);
            play(&mut child, &mut next, colour, step, landing);
            best = best.max(slow_best(
                &child,
                &next,
                colour,
                limits,
                (used.0 + dice, used.1 + pips),
            ));
        }
        best
    }

    fn slow_legal(pos: &Position, roll: &Roll, colour: Colour, limits: &Limits) -> Vec<Step> {
        let children: Vec<(Step, i32)> = all_steps(pos, roll, colour)
            .into_iter()
            .map(|(step, landing)| {
                let (dice, pips) = cost(step, roll);
                let (mut child, mut next) = (*pos, *roll);
                play(&mut child, &mut next, colour, step, landing);
                (step, slow_best(&child, &next, colour, limits, (dice, pips)))
            })
            .collect();
        let best = children.iter().map(|c| c.1).max().unwrap_or(-1);
        let mut steps: Vec<Step> = children
            .into_iter()
            .filter(|c| best >= 1 << 6 && c.1 == best)
            .map(|c| c.0)
            .collect();
        steps.sort_by_key(|s| format!("{s}"));
        steps
    }

    /// A small xorshift generator: `below(n)` gives a number under `n`.
    fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        }
    }

    /// The fast engine's legal first steps are the brute force's, in any order.
    fn assert_agrees(pos: &Position, roll: &Roll, colour: Colour, limits: &Limits, case: usize) {
        let mut fast: Vec<Step> = legal_steps(pos, roll, colour, limits).as_slice().to_vec();
        fast.sort_by_key(|s| format!("{s}"));
        assert_eq!(
            fast,
            slow_legal(pos, roll, colour, limits),
            "case {case}: {pos:?} {roll:?} {colour}"
        );
    }

    #[test]
    fn the_fast_engine_agrees_with_brute_force_on_clustered_doubles() {
        // The mover's pawns within ten squares of each other and half the other pawns close
        // by: where one pawn's run of the remaining dice crosses another's first step, so the
        // shortcut must see that the two paths meet.
        let mut below = xorshift(0x1234_5678_9abc_def1u64);
        for case in 0..3000 {
            let mut pos = Position::default();
            let colour = Colour::ALL[case % 4];
            let base = below(68);
            let mut ring = [(None::<Colour>, 0u8); 68];
            for c in Colour::ALL {
                for pawn in 0..PAWNS {
                    for _ in 0..50 {
                        let square = if c == colour {
                            (base + below(10)) % 68
                        } else if below(2) == 0 {
                            (base + below(20)) % 68
                        } else {
                            below(68)
                        };
                        let (owner, count) = ring[square];
                        if count == 0 || (owner == Some(c) && count < 2) {
                            ring[square] = (Some(c), count + 1);
                            pos.pawns[c.index()][pawn] = Spot::Ring(square as u8);
                            break;
                        }
                    }
                }
            }
            let face = 1 + below(6) as u8;
            let roll = Roll::new(face, face, true);
            let limits = Limits {
                together: pos.blockades(colour),
                ..Limits::default()
            };
            assert_agrees(&pos, &roll, colour, &limits, case);
        }
    }

    #[test]
    fn the_fast_engine_agrees_with_brute_force_on_crowded_doubles() {
        // Every pawn of every colour out, doubles with four dice: where the shortcut of a run
        // by another pawn answers most first steps.
        let mut below = xorshift(0x9e37_79b9_7f4a_7c15u64);
        for case in 0..600 {
            let mut pos = Position::default();
            let mut ring = [(None::<Colour>, 0u8); 68];
            for colour in Colour::ALL {
                let mut rows = [0u8; 8];
                for pawn in 0..PAWNS {
                    loop {
                        if below(8) == 0 {
                            let step = 1 + below(7);
                            if rows[step] < 2 {
                                rows[step] += 1;
                                pos.pawns[colour.index()][pawn] = Spot::Row(step as u8);
                                break;
                            }
                        } else {
                            let square = below(68);
                            let (owner, count) = ring[square];
                            if count == 0 || (owner == Some(colour) && count < 2) {
                                ring[square] = (Some(colour), count + 1);
                                pos.pawns[colour.index()][pawn] = Spot::Ring(square as u8);
                                break;
                            }
                        }
                    }
                }
            }
            let colour = Colour::ALL[case % 4];
            let face = 1 + below(6) as u8;
            let roll = Roll::new(face, face, true);
            let mut limits = Limits {
                together: pos.blockades(colour),
                ..Limits::default()
            };
            if below(3) == 0 {
                limits.must_break = pos.blockades(colour);
            }
            assert_agrees(&pos, &roll, colour, &limits, case);
        }
    }

    #[test]
    fn the_fast_engine_agrees_with_brute_force_on_random_positions() {
        let mut below = xorshift(0x2545_f491_4f6c_dd1du64);
        for case in 0..3000 {
            let mut pos = Position::default();
            for colour in Colour::ALL {
                for pawn in 0..PAWNS {
                    let spot = match below(10) {
                        0 | 1 => Spot::Nest,
                        2 => Spot::Row(1 + below(7) as u8),
                        3 => Spot::Home,
                        _ => Spot::Ring(below(68) as u8),
                    };
                    let mut trial = pos;
                    trial.pawns[colour.index()][pawn] = spot;
                    let crowded = Colour::ALL.into_iter().any(|c| {
                        let here = trial.pawns[c.index()]
                            .iter()
                            .filter(|s| **s == spot)
                            .count();
                        let others = Colour::ALL.into_iter().filter(|o| *o != c).any(|o| {
                            matches!(spot, Spot::Ring(_)) && trial.pawns[o.index()].contains(&spot)
                        });
                        spot.on_board() && (here > 2 || (here > 0 && others))
                    });
                    if !crowded {
                        pos = trial;
                    }
                }
            }
            let colour = Colour::ALL[case % 4];
            let (a, b) = (1 + below(6) as u8, 1 + below(6) as u8);
            let roll = Roll::new(a, b, pos.all_out(colour));
            let mut limits = Limits::default();
            if a == b {
                limits.together = pos.blockades(colour);
            }
            if below(4) == 0 {
                limits.must_break = pos.blockades(colour);
            }
            assert_agrees(&pos, &roll, colour, &limits, case);
        }
    }
}
