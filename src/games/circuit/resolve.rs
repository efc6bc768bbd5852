//! The turn: rolling every runner's die, resolving moves and stays in seat order, pass and
//! land effects, laps and the win.

use super::effect::{claimable, wrap, Action, Trigger};
use super::parse::Change;
use super::state::{
    Choice, Plan, Runner, Stage, State, FIRST_TILE, LAPS_TO_WIN, LAST_TILE, MAX_ACTIVATIONS,
};
use crate::dice::Dice;
use crate::games::{Event, Seat};
use std::collections::BTreeMap;

/// Consecutive turns resolved on their own because nobody had a choice, before the game
/// waits for the deadline anyway (a guard; such turns are rare and short-lived).
const MAX_AUTOMATIC_TURNS: u32 = 100;

/// Whether a step of the resolution ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    /// Go on.
    Continue,
    /// Somebody won.
    Won,
}

impl State {
    /// A new game: everyone on tile 1 with 0 laps; turn 1's dice are rolled.
    pub fn start(runners: Vec<Runner>, dice: &mut Dice) -> (State, Vec<Event>) {
        let mut state = State {
            runners,
            tiles: BTreeMap::new(),
            turn: 0,
            stage: Stage::Choosing,
            effect_words_once: true,
            changer_spared: true,
        };
        let mut events = Vec::new();
        state.start_turn(dice, &mut events);
        (state, events)
    }

    /// The seats that owe a `move`/`stay` choice this turn.
    pub fn choosers(&self) -> Vec<Seat> {
        if self.stage != Stage::Choosing {
            return Vec::new();
        }
        self.runners
            .iter()
            .enumerate()
            .filter(|(_, runner)| runner.active && runner.plan == Plan::Free)
            .map(|(seat, _)| seat)
            .collect()
    }

    /// Resolves this turn's choices (seats without one move) in seat order, then the owners'
    /// changes of effect, then opens the claim prompt or the next turn.
    pub fn resolve_choices(
        &mut self,
        choices: &BTreeMap<Seat, Choice>,
        changes: &BTreeMap<Seat, Change>,
        dice: &mut Dice,
    ) -> Vec<Event> {
        let mut events = Vec::new();
        if self.stage != Stage::Choosing {
            return events;
        }
        self.run_turn(choices, changes, dice, &mut events);
        if self.stage == Stage::Choosing {
            self.start_turn(dice, &mut events);
        }
        events
    }

    /// Starts turns until one needs somebody's choice (or claims or a win interrupt).
    pub(super) fn start_turn(&mut self, dice: &mut Dice, events: &mut Vec<Event>) {
        for _ in 0..MAX_AUTOMATIC_TURNS {
            self.roll_turn(dice, events);
            if !self.choosers().is_empty() {
                return;
            }
            self.run_turn(&BTreeMap::new(), &BTreeMap::new(), dice, events);
            if self.stage != Stage::Choosing {
                return;
            }
        }
    }

    /// Rolls the new turn's dice and fixes each runner's plan.
    fn roll_turn(&mut self, dice: &mut Dice, events: &mut Vec<Event>) {
        self.turn += 1;
        let turn = self.turn;
        let mut lines = vec![format!("Turn {turn}: the dice are rolled.")];
        for runner in self.runners.iter_mut().filter(|runner| runner.active) {
            let pending = &mut runner.pending;
            runner.plan = if pending.skip {
                Plan::Skipped
            } else if runner.stayed_last {
                Plan::MustMove
            } else if pending.anchor {
                Plan::MustStay
            } else {
                Plan::Free
            };
            let anchored = pending.anchor;
            if runner.plan != Plan::Skipped {
                pending.anchor = false;
            }
            pending.skip = false;
            if runner.plan == Plan::Skipped {
                runner.roll = None;
                lines.push(format!("{}: loses this turn (skip).", runner.name));
                continue;
            }
            let purpose = format!("turn {turn} die for {}", runner.name);
            let first = dice.roll(purpose.clone(), 6);
            let (roll, how) = match (pending.boost, pending.slow) {
                (true, false) => {
                    let second = dice.roll(format!("{purpose} (boost)"), 6);
                    (
                        first.max(second),
                        format!(" (boost: {first} and {second}, keeps the higher)"),
                    )
                }
                (false, true) => {
                    let second = dice.roll(format!("{purpose} (slow)"), 6);
                    (
                        first.min(second),
                        format!(" (slow: {first} and {second}, keeps the lower)"),
                    )
                }
                (true, true) => (first, " (boost and slow cancel out)".to_string()),
                (false, false) => (first, String::new()),
            };
            pending.boost = false;
            pending.slow = false;
            runner.roll = u8::try_from(roll).ok();
            let note = match runner.plan {
                Plan::Free => "",
                Plan::MustMove if anchored => " — stayed last turn, so it moves despite the anchor",
                Plan::MustMove => " — stayed last turn, so it must move",
                Plan::MustStay => " — anchored, so it stays",
                Plan::Skipped => "",
            };
            lines.push(format!("{}: {roll}{how}{note}", runner.name));
        }
        if !self.choosers().is_empty() {
            lines.push(format!(
                "Send {} or {} by DM (no answer = move).",
                super::sent("move"),
                super::sent("stay")
            ));
        }
        events.push(Event::public(lines.join("\n")));
    }

    /// Resolves every runner in seat order, then the claims, then the owners' changes (at the
    /// end of the turn, so a changed tile acts on nobody this turn: rule 9).
    fn run_turn(
        &mut self,
        choices: &BTreeMap<Seat, Choice>,
        changes: &BTreeMap<Seat, Change>,
        dice: &mut Dice,
        events: &mut Vec<Event>,
    ) {
        let mut lines = vec![format!("Turn {} resolves:", self.turn)];
        let mut arrivals: BTreeMap<u8, Vec<Seat>> = BTreeMap::new();
        let seats: Vec<Seat> = self.active_seats().collect();
        for seat in seats {
            let Some(runner) = self.active(seat) else {
                continue;
            };
            let choice = match runner.plan {
                Plan::Skipped => {
                    lines.push(format!("{} loses this turn.", runner.name));
                    if let Some(runner) = self.runners.get_mut(seat) {
                        runner.stayed_last = false;
                    }
                    continue;
                }
                Plan::MustMove => Choice::Move,
                Plan::MustStay => Choice::Stay,
                Plan::Free => choices.get(&seat).copied().unwrap_or(Choice::Move),
            };
            if let Some(runner) = self.runners.get_mut(seat) {
                runner.stayed_last = choice == Choice::Stay;
            }
            let spared = self.spared(seat, changes);
            let flow = match choice {
                Choice::Stay => self.stay(seat, spared, &mut lines),
                Choice::Move => self.run(seat, spared, &mut arrivals, &mut lines),
            };
            if flow == Flow::Won {
                events.push(Event::public(lines.join("\n")));
                return;
            }
        }
        let claims = self.claim(arrivals, dice, &mut lines);
        let refused = self.apply_changes(changes, &mut lines);
        events.push(Event::public(lines.join("\n")));
        events.extend(refused);
        if claims.is_empty() {
            return;
        }
        for (seat, tile) in &claims {
            events.push(Event::to_seat(*seat, self.claim_prompt(*seat, *tile)));
        }
        self.stage = Stage::Claiming { claims };
    }

    /// The tile whose effect `seat` changes this turn, which does not affect it meanwhile
    /// (rule 9, from rules revision 3): only a change to another effect modifies the tile.
    fn spared(&self, seat: Seat, changes: &BTreeMap<Seat, Change>) -> Option<u8> {
        let change = changes.get(&seat).filter(|_| self.changer_spared)?;
        let owned = self.tiles.get(&change.tile)?;
        (owned.effect != change.effect).then_some(change.tile)
    }

    /// Activates `tile` on `seat`, unless it is the tile `seat` changes this turn (rule 9).
    fn touch(&mut self, seat: Seat, tile: u8, spared: Option<u8>, lines: &mut Vec<String>) -> Flow {
        if spared == Some(tile) {
            lines.push(format!(
                "Tile {tile} does not act on {}, who changes it this turn.",
                self.name(seat)
            ));
            return Flow::Continue;
        }
        self.activate(seat, tile, lines)
    }

    /// A runner stays: it activates the effect of its tile, whatever its trigger (seed rule
    /// 1B: the land/pass distinction is about moving, not staying).
    fn stay(&mut self, seat: Seat, spared: Option<u8>, lines: &mut Vec<String>) -> Flow {
        let Some(runner) = self.active(seat) else {
            return Flow::Continue;
        };
        let tile = runner.tile;
        lines.push(format!("{} stays on tile {tile}.", runner.name));
        match self.tiles.get(&tile).and_then(|owned| owned.effect) {
            Some(_) => self.touch(seat, tile, spared, lines),
            None => Flow::Continue,
        }
    }

    /// A runner moves by its die: pass effects on every tile entered, then the land effect or
    /// an arrival on an unowned tile.
    fn run(
        &mut self,
        seat: Seat,
        spared: Option<u8>,
        arrivals: &mut BTreeMap<u8, Vec<Seat>>,
        lines: &mut Vec<String>,
    ) -> Flow {
        let Some(runner) = self.active(seat) else {
            return Flow::Continue;
        };
        let roll = runner.roll.unwrap_or(0);
        lines.push(format!(
            "{} moves {roll} from tile {}.",
            runner.name, runner.tile
        ));
        for _ in 0..roll {
            if self.step(seat, lines) == Flow::Won {
                return Flow::Won;
            }
            let here = self
                .runners
                .get(seat)
                .map_or(FIRST_TILE, |runner| runner.tile);
            if self
                .tiles
                .get(&here)
                .and_then(|owned| owned.effect_on(Trigger::Pass))
                .is_some()
            {
                self.touch(seat, here, spared, lines);
            }
        }
        let here = self
            .runners
            .get(seat)
            .map_or(FIRST_TILE, |runner| runner.tile);
        match self.tiles.get(&here) {
            None if claimable(here) => {
                arrivals.entry(here).or_default().push(seat);
                Flow::Continue
            }
            Some(owned) if owned.effect_on(Trigger::Land).is_some() => {
                self.touch(seat, here, spared, lines)
            }
            _ => Flow::Continue,
        }
    }

    /// Moves a runner `n` tiles forward, as [`Self::steps`]; unless that ended the race,
    /// says where it stands now with `said` (given its tile).
    fn forward(
        &mut self,
        seat: Seat,
        n: u8,
        lines: &mut Vec<String>,
        said: impl FnOnce(u8) -> String,
    ) -> Flow {
        let flow = self.steps(seat, n, lines);
        if flow == Flow::Continue {
            lines.push(said(self.tile_of(seat)));
        }
        flow
    }

    /// Moves a runner `n` tiles forward one by one ([`Self::step`]), stopping when it wins.
    fn steps(&mut self, seat: Seat, n: u8, lines: &mut Vec<String>) -> Flow {
        let mut flow = Flow::Continue;
        for _ in 0..n {
            flow = self.step(seat, lines);
            if flow == Flow::Won {
                break;
            }
        }
        flow
    }

    /// Moves a runner one tile forward: leaving tile 1 with 3 laps wins; entering tile 1 from
    /// tile 50 counts a lap, unless it only makes up for being sent back over the start.
    fn step(&mut self, seat: Seat, lines: &mut Vec<String>) -> Flow {
        let Some(runner) = self.runners.get_mut(seat) else {
            return Flow::Continue;
        };
        if runner.tile == FIRST_TILE && runner.laps >= LAPS_TO_WIN {
            lines.push(format!(
                "{} leaves the start tile with {} laps and wins the game!",
                runner.name, runner.laps
            ));
            self.stage = Stage::Over { winner: Some(seat) };
            return Flow::Won;
        }
        let from = runner.tile;
        runner.tile = wrap(i16::from(from) + 1);
        if from == LAST_TILE {
            if runner.behind > 0 {
                runner.behind -= 1;
                lines.push(format!(
                    "{} reaches the start tile again: that only makes up for being sent back over it (laps {}).",
                    runner.name, runner.laps
                ));
            } else {
                runner.laps = runner.laps.saturating_add(1);
                lines.push(format!(
                    "{} reaches the start tile: lap {}.",
                    runner.name, runner.laps
                ));
            }
        }
        Flow::Continue
    }

    /// Moves a runner `n` tiles back; going back over the start (tile 1 to tile 50) takes a
    /// lap off, or is owed if it has none (laps count net progress round the loop).
    fn step_back(&mut self, seat: Seat, n: u8, lines: &mut Vec<String>) {
        let Some(runner) = self.runners.get_mut(seat) else {
            return;
        };
        let to = i16::from(runner.tile) - i16::from(n);
        runner.tile = wrap(to);
        lines.push(format!(
            "{} is moved back to tile {}.",
            runner.name, runner.tile
        ));
        if to >= i16::from(FIRST_TILE) {
            return;
        }
        let said = match runner.laps > 0 {
            true => {
                runner.laps -= 1;
                format!(
                    "{} goes back over the start: a lap is taken off (laps {}).",
                    runner.name, runner.laps
                )
            }
            false => {
                runner.behind = runner.behind.saturating_add(1);
                format!(
                    "{} goes back over the start with no lap yet: crossing it forwards again will only make up for this.",
                    runner.name
                )
            }
        };
        lines.push(said);
    }

    /// Activates the effect of `tile` on `seat` (counting the activation, rule 14). Players
    /// moved by the effect activate nothing where they arrive (rule 6).
    fn activate(&mut self, seat: Seat, tile: u8, lines: &mut Vec<String>) -> Flow {
        let Some(owned) = self.tiles.get_mut(&tile) else {
            return Flow::Continue;
        };
        let Some(effect) = owned.effect else {
            return Flow::Continue;
        };
        owned.uses = owned.uses.saturating_add(1);
        let owner = owned.owner;
        let worn_out = owned.uses >= MAX_ACTIVATIONS;
        if worn_out {
            owned.effect = None;
        }
        let name = self.name(seat);
        let owner_name = self.name(owner);
        lines.push(format!(
            "Tile {tile} ({owner_name}'s {effect}) acts on {name}."
        ));
        let flow = match effect.action {
            Action::Forward(n) => self.forward(seat, n, lines, |tile| {
                format!("{name} is moved forward to tile {tile}.")
            }),
            Action::Back(n) => {
                self.step_back(seat, n, lines);
                Flow::Continue
            }
            Action::Start => {
                if let Some(runner) = self.runners.get_mut(seat) {
                    runner.tile = FIRST_TILE;
                }
                lines.push(format!("{name} is sent to the start tile (no lap)."));
                Flow::Continue
            }
            Action::Owner(n) => self.forward(owner, n, lines, |tile| {
                format!("{owner_name} collects the toll: forward to tile {tile}.")
            }),
            Action::Skip | Action::Anchor | Action::Boost | Action::Slow => {
                if let Some(runner) = self.runners.get_mut(seat) {
                    let pending = &mut runner.pending;
                    let what = match effect.action {
                        Action::Skip => {
                            pending.skip = true;
                            "loses its next turn"
                        }
                        Action::Anchor => {
                            pending.anchor = true;
                            "must stay next turn"
                        }
                        Action::Boost => {
                            pending.boost = true;
                            "rerolls its next die and keeps the higher"
                        }
                        _ => {
                            pending.slow = true;
                            "rerolls its next die and keeps the lower"
                        }
                    };
                    lines.push(format!("{name} {what}."));
                }
                Flow::Continue
            }
        };
        if worn_out {
            lines.push(format!(
                "Tile {tile} loses its effect after {MAX_ACTIVATIONS} activations."
            ));
        }
        flow
    }

    /// The tile `seat` stands on.
    fn tile_of(&self, seat: Seat) -> u8 {
        self.runners
            .get(seat)
            .map_or(FIRST_TILE, |runner| runner.tile)
    }
}
