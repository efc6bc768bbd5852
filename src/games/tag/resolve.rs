//! Resolution of one movement round: upgrades, the steps (collisions in the rules page's
//! order, with waves and chains), teleports, tags, stride recovery, the -4 for it and
//! eliminations.
//!
//! Each step works with hash maps keyed by square (who starts on a square, who enters it), so a
//! step costs time proportional to the players plus the collisions, never players squared.
//! Kind 2 is found in waves driven by a work list: a wave checks only the squares whose
//! situation changed in the previous wave (a player was held on it), so a chain of length L
//! costs O(L), not O(L * players).
//!
//! Decisions taken here (the rules page is the authority; these fill its gaps):
//! - Rotations: three or more players moving in a cycle, each into the square the next one
//!   leaves, all move (no collision), as the rules page states; a rotation is broken only if
//!   one of its members is held by some other collision, which then chains around the cycle.
//! - A mover whose target square is being left waits (no collision) until the leaver is held
//!   (then kind 2 with it) or the step ends (then both move).
//! - Kind 3 is checked only between players still moving. A held player never moves again
//!   within the step, so every crossing pair is found in the first kind 3 batch; the loop
//!   "kinds 2 and 3 until nothing changes" therefore runs at most two kind 3 batches.
//! - When it (stomping) collides with several players in one batch, the one tagged is the
//!   one first in the itness queue as it stands at that moment.
//! - Teleporters land in seat order, each on a uniformly random square nobody else ends the
//!   step on (the draw is logged as "teleport of <name>").
//! - Within one batch the effects of every pair are applied together; the order of the
//!   report lists squares in (row, column) order.
//! - A living player with no square (only possible in hand-built positions) takes no part in
//!   the steps.

use super::state::{
    random_free_square, Mode, Move, MoveOrder, Square, Stage, TagState, IT_COST, TELEPORT_COST,
    UPGRADE_COST,
};
use crate::dice::Dice;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A small multiply-rotate hasher for square and seat keys (the keys are not chosen by an
/// attacker in a way that matters: squares are bounded by the grid).
#[derive(Default)]
struct QuickHasher(u64);

impl Hasher for QuickHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Hash maps keyed by square or seat inside the resolution.
type QuickMap<K, V> = HashMap<K, V, BuildHasherDefault<QuickHasher>>;

/// The three kinds of collision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// Two players trying to trade places.
    Trade,
    /// Players trying to enter the same square (or the square of one who stays).
    Enter,
    /// Two diagonal moves crossing inside one 2x2 block.
    Cross,
}

impl Kind {
    /// The number the rules page gives the kind.
    pub fn number(self) -> u8 {
        match self {
            Kind::Trade => 1,
            Kind::Enter => 2,
            Kind::Cross => 3,
        }
    }

    /// What happened, in the words of a collision report ("two players trading places").
    pub fn words(self) -> &'static str {
        match self {
            Kind::Trade => "two players trading places",
            Kind::Enter => "players entering the same square",
            Kind::Cross => "two diagonal moves crossing",
        }
    }
}

/// One collision: who took part, and what it did to their points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    /// The kind.
    pub kind: Kind,
    /// The square fought over (kind 1 and 3: the first player's target).
    pub square: Square,
    /// The players (seats), the one standing on the square first if any.
    pub players: Vec<usize>,
    /// Points change per player (seat, change), in `players` order.
    pub changes: Vec<(usize, i64)>,
    /// A stomper that won against striders and keeps moving.
    pub winner: Option<usize>,
}

/// What happened in one step.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StepReport {
    /// Collisions in the order they were resolved.
    pub collisions: Vec<Collision>,
    /// Players whose compass move would have left the grid (they stay, moves cancelled).
    pub off_grid: Vec<usize>,
    /// Teleports (seat, from, to).
    pub teleports: Vec<(usize, Square, Square)>,
    /// The tag of this step (tagger, tagged).
    pub tag: Option<(usize, usize)>,
}

/// What happened in one movement round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundReport {
    /// The round number.
    pub round: u32,
    /// Every living player's order (seat, order, whether it was the default), seat order.
    pub orders: Vec<(usize, MoveOrder, bool)>,
    /// Players who paid for an upgrade.
    pub upgrades: Vec<usize>,
    /// One report per step.
    pub steps: Vec<StepReport>,
    /// Players who recovered 1 point by striding.
    pub recovered: Vec<usize>,
    /// The player who paid 4 for being it.
    pub it_paid: Option<usize>,
    /// Players eliminated this round, best first.
    pub eliminated: Vec<usize>,
    /// The player who became it because it was eliminated.
    pub handover: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Act {
    Stand,
    OffGrid,
    Teleport,
    Go(Square),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Still,
    Moving,
    Held,
    Gone,
}

/// The state of one step, indexed by a local index into `seats`.
struct Step<'a> {
    seats: &'a [usize],
    modes: &'a [Mode],
    origin: Vec<Square>,
    act: Vec<Act>,
    status: Vec<Status>,
    occupant: QuickMap<Square, usize>,
    /// Movers sorted by target square (row, column), then local index.
    by_target: Vec<(Square, usize)>,
    /// Where each target's movers sit in `by_target`.
    entrants: QuickMap<Square, (usize, usize)>,
    /// The local index of it, if it stomps this round (only a stomping it tags).
    stomping_it: Option<usize>,
}

struct Group {
    kind: Kind,
    square: Square,
    members: Vec<usize>,
    winner: Option<usize>,
}

/// Per-round bookkeeping the steps update.
struct RoundFlags {
    collided: Vec<bool>,
    cancelled: Vec<bool>,
    teleported: Vec<bool>,
    tag_done: bool,
}

impl Step<'_> {
    fn is_stander(&self, i: usize) -> bool {
        matches!(self.status[i], Status::Still | Status::Held)
    }

    fn target(&self, i: usize) -> Option<Square> {
        match self.act[i] {
            Act::Go(t) => Some(t),
            _ => None,
        }
    }

    /// Kind 1: pairs of movers trying to trade squares.
    fn trades(&self) -> Vec<Group> {
        let mut groups = Vec::new();
        for i in 0..self.act.len() {
            let Some(t) = self.target(i) else { continue };
            let Some(&j) = self.occupant.get(&t) else {
                continue;
            };
            if j > i && self.target(j) == Some(self.origin[i]) {
                groups.push(Group {
                    kind: Kind::Trade,
                    square: t,
                    members: vec![i, j],
                    winner: None,
                });
            }
        }
        groups
    }

    /// One kind 2 wave over the squares in `work`.
    fn enter_wave(&self, work: &mut Vec<Square>) -> Vec<Group> {
        work.sort_unstable_by_key(|s| (s.row, s.col));
        work.dedup();
        let mut groups = Vec::new();
        for &t in work.iter() {
            let Some(&(from, to)) = self.entrants.get(&t) else {
                continue;
            };
            let all = self.by_target.get(from..to).unwrap_or(&[]);
            let moving = all
                .iter()
                .filter(|&&(_, i)| self.status[i] == Status::Moving)
                .count();
            if moving == 0 {
                continue;
            }
            let ents: Vec<usize> = all
                .iter()
                .map(|&(_, i)| i)
                .filter(|&i| self.status[i] == Status::Moving)
                .collect();
            let stander = self
                .occupant
                .get(&t)
                .copied()
                .filter(|&o| self.is_stander(o));
            if ents.len() >= 2 || (!ents.is_empty() && stander.is_some()) {
                let winner = if stander.is_none() {
                    let stompers: Vec<usize> = ents
                        .iter()
                        .copied()
                        .filter(|&i| self.modes[i] == Mode::Stomp)
                        .collect();
                    (stompers.len() == 1).then(|| stompers[0])
                } else {
                    None
                };
                let mut members: Vec<usize> = stander.into_iter().collect();
                members.extend(ents);
                groups.push(Group {
                    kind: Kind::Enter,
                    square: t,
                    members,
                    winner,
                });
            }
        }
        work.clear();
        groups
    }

    /// Kind 3: crossing diagonals of one 2x2 block, both still moving. `diagonals` lists the
    /// diagonal movers as (block row, block column, which diagonal, mover), sorted.
    fn crossings(&self, diagonals: &[(u32, u32, bool, usize)]) -> Vec<Group> {
        let mut groups = Vec::new();
        let moving = |i: usize| self.status[i] == Status::Moving;
        for block in diagonals.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
            for &(_, _, _, a) in block.iter().filter(|d| !d.2 && moving(d.3)) {
                for &(_, _, _, b) in block.iter().filter(|d| d.2 && moving(d.3)) {
                    let stomp_a = self.modes[a] == Mode::Stomp;
                    let stomp_b = self.modes[b] == Mode::Stomp;
                    let free = |i: usize| {
                        self.target(i).is_some_and(|t| {
                            self.occupant.get(&t).is_none_or(|&o| !self.is_stander(o))
                        })
                    };
                    let winner = match (stomp_a, stomp_b) {
                        (true, false) if free(a) => Some(a),
                        (false, true) if free(b) => Some(b),
                        _ => None,
                    };
                    groups.push(Group {
                        kind: Kind::Cross,
                        square: self.target(a).unwrap_or(self.origin[a]),
                        members: vec![a, b],
                        winner,
                    });
                }
            }
        }
        groups
    }
}

impl TagState {
    /// Resolves a movement round. Orders that do not fit a player's state (or are missing)
    /// are replaced by the default: nothing on every move, striding.
    pub fn resolve_moves(
        &mut self,
        orders: &BTreeMap<usize, MoveOrder>,
        dice: &mut Dice,
    ) -> RoundReport {
        let round = match self.stage {
            Stage::Moves { round } => round,
            _ => 0,
        };
        let seats: Vec<usize> = self
            .living()
            .into_iter()
            .filter(|&s| self.players[s].square.is_some())
            .collect();
        let start_points: Vec<i64> = self.players.iter().map(|p| p.points).collect();
        let mut start_queue: Vec<usize> = vec![usize::MAX; self.players.len()];
        for (i, &s) in self.queue.iter().enumerate() {
            if let Some(slot) = start_queue.get_mut(s) {
                *slot = i;
            }
        }
        let mut report_orders = Vec::with_capacity(seats.len());
        for &seat in &seats {
            let (order, defaulted) = match orders.get(&seat) {
                Some(o) if self.check_move_order(seat, o).is_ok() => (o.clone(), false),
                _ => (MoveOrder::idle(self.players[seat].moves), true),
            };
            report_orders.push((seat, order, defaulted));
        }
        let chosen: Vec<&MoveOrder> = report_orders.iter().map(|(_, o, _)| o).collect();
        let mut upgrades = Vec::new();
        for (k, &seat) in seats.iter().enumerate() {
            if chosen[k].upgrade {
                let p = &mut self.players[seat];
                p.points -= UPGRADE_COST;
                p.moves += 1;
                upgrades.push(seat);
            }
        }
        let modes: Vec<Mode> = chosen.iter().map(|o| o.mode).collect();
        let mut flags = RoundFlags {
            collided: vec![false; seats.len()],
            cancelled: vec![false; seats.len()],
            teleported: vec![false; seats.len()],
            tag_done: false,
        };
        let mut any_tag = false;
        let steps = chosen.iter().map(|o| o.moves.len()).max().unwrap_or(0);
        let mut step_reports = Vec::with_capacity(steps);
        for k in 0..steps {
            let moves: Vec<Move> = chosen
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    if flags.cancelled[i] {
                        Move::Nothing
                    } else {
                        o.moves.get(k).copied().unwrap_or(Move::Nothing)
                    }
                })
                .collect();
            flags.tag_done = false;
            let report = self.step(&seats, &modes, &moves, &mut flags, dice, &start_queue);
            any_tag |= report.tag.is_some();
            step_reports.push(report);
        }
        let mut recovered = Vec::new();
        for (i, &seat) in seats.iter().enumerate() {
            if modes[i] == Mode::Stride && !flags.collided[i] {
                self.players[seat].points += 1;
                recovered.push(seat);
            }
        }
        let it_paid = self.it.filter(|&s| self.players[s].alive);
        if let Some(it) = it_paid {
            self.players[it].points -= IT_COST;
        }
        for p in self.players.iter_mut() {
            p.teleported_last_round = false;
        }
        for (i, &seat) in seats.iter().enumerate() {
            self.players[seat].teleported_last_round = flags.teleported[i];
        }
        self.tagged_last_round = any_tag;
        let (eliminated, handover) = self.eliminate(&start_points, &start_queue);
        self.stage = if self.queue.len() <= 1 {
            Stage::Over {
                ranking: self.ranking(),
            }
        } else {
            Stage::Moves { round: round + 1 }
        };
        RoundReport {
            round,
            orders: report_orders,
            upgrades,
            steps: step_reports,
            recovered,
            it_paid,
            eliminated,
            handover,
        }
    }

    /// End-of-round eliminations with the it hand-over.
    fn eliminate(
        &mut self,
        start_points: &[i64],
        start_queue: &[usize],
    ) -> (Vec<usize>, Option<usize>) {
        let mut out: Vec<usize> = self
            .living()
            .into_iter()
            .filter(|&s| self.players[s].points <= 0)
            .collect();
        if out.is_empty() {
            return (out, None);
        }
        out.sort_by_key(|s| {
            (
                std::cmp::Reverse(start_points.get(*s).copied().unwrap_or(0)),
                start_queue.get(*s).copied().unwrap_or(usize::MAX),
            )
        });
        for &s in &out {
            self.players[s].alive = false;
            self.players[s].square = None;
        }
        self.queue.retain(|&s| self.players[s].alive);
        self.out.push(out.clone());
        let mut handover = None;
        if self.it.is_some_and(|it| !self.players[it].alive) {
            self.it = None;
            if !self.queue.is_empty() {
                let first = self.queue.remove(0);
                self.queue.push(first);
                self.it = Some(first);
                handover = Some(first);
            }
        }
        (out, handover)
    }

    /// Applies one batch of collisions: damage, holds, the tag. Returns the players newly held.
    fn apply_batch(
        &mut self,
        step: &mut Step<'_>,
        groups: &[Group],
        flags: &mut RoundFlags,
        report: &mut StepReport,
        start_queue: &[usize],
    ) -> Vec<usize> {
        let mut held = Vec::new();
        let mut it_partners: Vec<usize> = Vec::new();
        let it_local = step.stomping_it;
        for g in groups {
            let mut change: Vec<i64> = vec![0; g.members.len()];
            for a in 0..g.members.len() {
                for b in a + 1..g.members.len() {
                    let (ma, mb) = (step.modes[g.members[a]], step.modes[g.members[b]]);
                    match (ma, mb) {
                        (Mode::Stomp, Mode::Stride) => {
                            change[a] += 2;
                            change[b] -= 6;
                        }
                        (Mode::Stride, Mode::Stomp) => {
                            change[a] -= 6;
                            change[b] += 2;
                        }
                        _ => {
                            change[a] -= 3;
                            change[b] -= 3;
                        }
                    }
                }
            }
            let mut changes = Vec::with_capacity(g.members.len());
            for (k, &i) in g.members.iter().enumerate() {
                let seat = step.seats[i];
                self.players[seat].points += change[k];
                changes.push((seat, change[k]));
                flags.collided[i] = true;
                if step.status[i] == Status::Moving && g.winner != Some(i) {
                    step.status[i] = Status::Held;
                    flags.cancelled[i] = true;
                    held.push(i);
                }
            }
            if let Some(it) = it_local {
                if g.members.contains(&it) {
                    it_partners.extend(g.members.iter().copied().filter(|&m| m != it));
                }
            }
            report.collisions.push(Collision {
                kind: g.kind,
                square: g.square,
                players: g.members.iter().map(|&i| step.seats[i]).collect(),
                changes,
                winner: g.winner.map(|i| step.seats[i]),
            });
        }
        if !flags.tag_done {
            if let (Some(it), Some(&tagged)) = (
                it_local,
                it_partners
                    .iter()
                    .min_by_key(|&&m| self.queue_position(step.seats[m], start_queue)),
            ) {
                let (tagger, tagged) = (step.seats[it], step.seats[tagged]);
                self.it = Some(tagged);
                self.queue.retain(|&s| s != tagged);
                self.queue.push(tagged);
                flags.tag_done = true;
                report.tag = Some((tagger, tagged));
            }
        }
        held
    }

    fn queue_position(&self, seat: usize, start_queue: &[usize]) -> usize {
        self.queue
            .iter()
            .position(|&s| s == seat)
            .or_else(|| start_queue.get(seat).copied())
            .unwrap_or(usize::MAX)
    }

    /// Resolves step `moves` (one per local player).
    fn step(
        &mut self,
        seats: &[usize],
        modes: &[Mode],
        moves: &[Move],
        flags: &mut RoundFlags,
        dice: &mut Dice,
        start_queue: &[usize],
    ) -> StepReport {
        let mut report = StepReport::default();
        let n = seats.len();
        let origin: Vec<Square> = seats
            .iter()
            .map(|&s| self.players[s].square.unwrap_or(Square::new(0, 0)))
            .collect();
        let mut act = Vec::with_capacity(n);
        let mut status = Vec::with_capacity(n);
        let mut occupant: QuickMap<Square, usize> = QuickMap::default();
        occupant.reserve(n);
        let mut by_target: Vec<(Square, usize)> = Vec::with_capacity(n);
        let mut diagonals: Vec<(u32, u32, bool, usize)> = Vec::new();
        for i in 0..n {
            let a = match moves[i] {
                Move::Nothing => Act::Stand,
                Move::Teleport => Act::Teleport,
                Move::Go(dir) => match origin[i].step(dir, self.side) {
                    Some(t) => {
                        by_target.push((t, i));
                        if dir.is_diagonal() {
                            let (dc, dr) = dir.delta();
                            diagonals.push((
                                origin[i].row.min(t.row),
                                origin[i].col.min(t.col),
                                dc != dr,
                                i,
                            ));
                        }
                        Act::Go(t)
                    }
                    None => {
                        flags.cancelled[i] = true;
                        report.off_grid.push(seats[i]);
                        Act::OffGrid
                    }
                },
            };
            status.push(match a {
                Act::Go(_) => Status::Moving,
                Act::Teleport => Status::Gone,
                Act::Stand | Act::OffGrid => Status::Still,
            });
            if a != Act::Teleport {
                occupant.insert(origin[i], i);
            }
            act.push(a);
        }
        let stomping_it = self
            .it
            .and_then(|it| seats.iter().position(|&s| s == it))
            .filter(|&i| modes[i] == Mode::Stomp);
        by_target.sort_unstable_by_key(|&(t, i)| (t.row, t.col, i));
        diagonals.sort_unstable();
        let mut entrants: QuickMap<Square, (usize, usize)> = QuickMap::default();
        entrants.reserve(by_target.len());
        let mut work: Vec<Square> = Vec::with_capacity(by_target.len());
        for (k, &(t, _)) in by_target.iter().enumerate() {
            let range = entrants.entry(t).or_insert((k, k));
            range.1 = k + 1;
            if range.0 == k {
                work.push(t);
            }
        }
        let mut step = Step {
            by_target,
            stomping_it,
            seats,
            modes,
            origin,
            act,
            status,
            occupant,
            entrants,
        };
        let trades = step.trades();
        if !trades.is_empty() {
            for i in self.apply_batch(&mut step, &trades, flags, &mut report, start_queue) {
                work.push(step.origin[i]);
            }
        }
        loop {
            loop {
                let groups = step.enter_wave(&mut work);
                if groups.is_empty() {
                    break;
                }
                for i in self.apply_batch(&mut step, &groups, flags, &mut report, start_queue) {
                    work.push(step.origin[i]);
                }
            }
            let crosses = step.crossings(&diagonals);
            if crosses.is_empty() {
                break;
            }
            for i in self.apply_batch(&mut step, &crosses, flags, &mut report, start_queue) {
                work.push(step.origin[i]);
            }
            diagonals.retain(|d| step.status[d.3] == Status::Moving);
        }
        for (i, &seat) in seats.iter().enumerate() {
            if step.status[i] == Status::Moving {
                if let Act::Go(t) = step.act[i] {
                    self.players[seat].square = Some(t);
                }
            }
        }
        let teleporters: Vec<usize> = (0..n).filter(|&i| step.act[i] == Act::Teleport).collect();
        if !teleporters.is_empty() {
            let mut taken: HashSet<Square> = (0..n)
                .filter(|&i| step.act[i] != Act::Teleport)
                .filter_map(|i| self.players[seats[i]].square)
                .collect();
            for i in teleporters {
                let seat = seats[i];
                let purpose = format!("teleport of {}", self.players[seat].name);
                if let Some(to) = random_free_square(self.side, &taken, dice, purpose.into()) {
                    taken.insert(to);
                    self.players[seat].square = Some(to);
                    self.players[seat].points -= TELEPORT_COST;
                    flags.teleported[i] = true;
                    report.teleports.push((seat, step.origin[i], to));
                }
            }
        }
        report
    }
}
