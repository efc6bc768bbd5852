//! A game in progress: the seats and their colours, the position, the roll being played, the
//! rewards waiting, and the turn flow (rolling, steps, lost dice, rewards, doubles, the
//! third-doubles penalty, turn hand-over, the end and the ranking).

use super::board::{self, Colour, Pairs, Position, Spot, PAWNS};
use super::engine::{self, Limits, Roll, Step, Steps};
use super::parse::{self, Action};
use super::roller::Roller;
use super::text::entry_reason;
use super::{MOVE, REWARD};
use crate::games::Happened;
use crate::games::{ranked, Event, Refusal, Seat};
use serde::{Deserialize, Serialize};

/// The GM's options, read once at setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Third doubles in a row sends the most advanced pawn back (`three_doubles=on`).
    pub three_doubles: bool,
    /// A turn that times out is played automatically (`timeout=auto`) instead of lost.
    pub auto: bool,
    /// Turns a blockade may stand before it must be broken (`blockade_limit=N`).
    pub blockade_limit: Option<u32>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            three_doubles: true,
            auto: false,
            blockade_limit: None,
        }
    }
}

/// One seated player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seated {
    /// The table's seat number.
    pub seat: Seat,
    /// The name used in texts.
    pub name: String,
    /// The player's colour.
    pub colour: Colour,
    /// Whether the player has left (its pawns are off the board, its turns skipped).
    pub gone: bool,
}

/// What the player to move must do now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Play the dice of the roll.
    Dice,
    /// Play the rewards waiting (after all dice, rule 8).
    Rewards,
    /// The game is over, with its ranking (places best first).
    Over(Vec<Vec<Seat>>),
}

/// A blockade and how many of its owner's turns it has stood (for `blockade_limit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The owner.
    pub colour: Colour,
    /// The two pawns (0-based).
    pub pawns: (u8, u8),
    /// Where it stands.
    pub spot: Spot,
    /// The owner's turns it has stood at the end of.
    pub turns: u32,
}

/// A Parcheesi game in progress (the whole state the store saves).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// The GM's options.
    pub settings: Settings,
    /// The players in turn order (colour order round the board).
    pub seated: Vec<Seated>,
    /// Every pawn.
    pub pos: Position,
    /// Index in `seated` of the player to move.
    pub current: usize,
    /// The roll being played.
    pub roll: Roll,
    /// What constrains this roll beyond the board.
    pub limits: Limits,
    /// Rewards earned this roll and not yet moved (20 or 10), in the order earned.
    pub rewards: Vec<u8>,
    /// Doubles rolled in a row in this turn.
    pub doubles: u8,
    /// Blockades and their age, for `blockade_limit`.
    pub standing: Vec<Standing>,
    /// What is awaited.
    pub stage: Stage,
    /// Turns handed over so far (to tell when an automatic turn is finished).
    pub turns: u64,
    /// The current turn in short (each roll and each pawn moved), summed up in one line
    /// when the turn passes.
    #[serde(default)]
    pub turn_log: Vec<String>,
    /// The round, counted from the game's rules revision 2 on: +1 each time the turn comes
    /// round past the last seat, so every seat still in plays once a round (`None` in games
    /// opened before, whose rounds the table counted one per turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u64>,
}

/// How a turn in which nothing more can be done is handed on.
const MAX_CHAIN: usize = 1000;

impl Match {
    /// A new game: colours already given, in turn order; the first player rolls.
    pub fn new(
        settings: Settings,
        seated: Vec<Seated>,
        roller: &mut dyn Roller,
    ) -> (Match, Vec<Event>) {
        Match::at(
            settings,
            seated,
            Position::default(),
            Colour::Green,
            None,
            0,
            roller,
        )
    }

    /// A game from any position (for tests and puzzles): `to_move` plays `roll` (or rolls,
    /// when `None`), having already rolled `doubles` doubles in a row this turn.
    pub fn at(
        settings: Settings,
        mut seated: Vec<Seated>,
        pos: Position,
        to_move: Colour,
        roll: Option<(u8, u8)>,
        doubles: u8,
        roller: &mut dyn Roller,
    ) -> (Match, Vec<Event>) {
        seated.sort_by_key(|s| s.colour);
        let current = seated.iter().position(|s| s.colour >= to_move).unwrap_or(0);
        let mut game = Match {
            settings,
            seated,
            pos,
            current,
            roll: Roll::new(1, 2, false),
            limits: Limits::default(),
            rewards: Vec::new(),
            doubles,
            standing: Vec::new(),
            stage: Stage::Dice,
            turns: 0,
            turn_log: Vec::new(),
            round: None,
        };
        let mut out = Vec::new();
        match roll {
            Some((a, b)) => {
                let a = a.clamp(1, 6);
                let b = b.clamp(1, 6);
                if !game.begin_roll(a, b, &mut out) {
                    game.pass_turn(&mut out);
                    game.roll_for_turn(roller, &mut out);
                }
            }
            None => game.roll_for_turn(roller, &mut out),
        }
        game.settle(roller, &mut out);
        (game, out)
    }

    /// The player to move.
    pub fn mover(&self) -> Option<&Seated> {
        self.seated.get(self.current)
    }

    /// The colour to move.
    pub fn colour(&self) -> Colour {
        self.mover().map_or(Colour::Green, |s| s.colour)
    }

    /// "green (alice)".
    pub fn who(&self, colour: Colour) -> String {
        match self.seated.iter().find(|s| s.colour == colour) {
            Some(s) => format!("{} ({})", colour, s.name),
            None => colour.to_string(),
        }
    }

    /// The legal steps of the dice left (empty outside the dice stage).
    pub fn legal(&self) -> Steps {
        if self.stage != Stage::Dice {
            return Steps::default();
        }
        engine::legal_steps(&self.pos, &self.roll, self.colour(), &self.limits)
    }

    /// The reward moves open now for each pending reward amount (first pending first).
    pub(super) fn reward_options(&self) -> Vec<(u8, Steps)> {
        let mut seen = Vec::new();
        for amount in &self.rewards {
            if !seen.iter().any(|(a, _)| a == amount) {
                seen.push((
                    *amount,
                    engine::reward_steps(&self.pos, self.colour(), *amount, &self.limits),
                ));
            }
        }
        seen
    }

    /// Rolls for the player to move (handing the turn on after a third-doubles penalty).
    fn roll_for_turn(&mut self, roller: &mut dyn Roller, out: &mut Vec<Event>) {
        for _ in 0..MAX_CHAIN {
            let name = self.colour().name();
            let a = roller.die(format!("{name} roll, die 1")).clamp(1, 6);
            let b = roller.die(format!("{name} roll, die 2")).clamp(1, 6);
            if self.begin_roll(a, b, out) {
                return;
            }
            self.pass_turn(out);
        }
    }

    /// Sets up a roll of `a` and `b`; false when it is the third doubles and the penalty ends
    /// the turn.
    fn begin_roll(&mut self, a: u8, b: u8, out: &mut Vec<Event>) -> bool {
        let colour = self.colour();
        let who = self.who(colour);
        self.rewards.clear();
        if a == b {
            self.doubles = self.doubles.saturating_add(1);
        }
        if a == b && self.doubles >= 3 && self.settings.three_doubles {
            let text = match self.most_advanced(colour) {
                Some(p) => {
                    let from = self.pos.spot(colour, p);
                    if let Some(slot) = self.pos.pawns[colour.index()].get_mut(p) {
                        *slot = Spot::Nest;
                    }
                    format!(
                        "{who} rolls {a} and {b}: third doubles in a row. No move; pawn {} goes back from {from} to the nest, and the turn passes.",
                        p + 1
                    )
                }
                None => format!(
                    "{who} rolls {a} and {b}: third doubles in a row. No move, and the turn passes."
                ),
            };
            out.push(Event::public(text));
            self.turn_log
                .push(format!("rolled {a} {b}, third doubles: no move"));
            return false;
        }
        self.roll = Roll::new(a, b, self.pos.all_out(colour));
        self.limits = Limits {
            together: if a == b {
                self.pos.blockades(colour)
            } else {
                Pairs::default()
            },
            must_break: self.stale_blockades(colour),
        };
        self.stage = Stage::Dice;
        let mut text = format!("{who} rolls {a} and {b}");
        if self.roll.count == 4 {
            text.push_str(&format!(
                ": doubles with all pawns out, so also the bottom faces {} and {} (14 squares)",
                7 - a,
                7 - b
            ));
        } else if a == b {
            text.push_str(": doubles");
        }
        text.push('.');
        self.turn_log.push(format!("rolled {a} {b}"));
        if !self.limits.must_break.is_empty() {
            let spots: Vec<String> = self
                .limits
                .must_break
                .iter()
                .map(|(_, _, s)| s.to_string())
                .collect();
            text.push_str(&format!(
                " The blockade on {} has stood its limit and must be broken if a legal play allows it.",
                spots.join(" and ")
            ));
        }
        out.push(Event::public(text));
        true
    }

    /// The pawn not HOME (and not in the nest) with the least distance left.
    fn most_advanced(&self, colour: Colour) -> Option<usize> {
        (0..PAWNS)
            .filter(|p| self.pos.spot(colour, *p).on_board())
            .min_by_key(|p| self.pos.spot(colour, *p).distance_left(colour))
    }

    fn stale_blockades(&self, colour: Colour) -> Pairs {
        let mut pairs = Pairs::default();
        if let Some(limit) = self.settings.blockade_limit {
            for s in &self.standing {
                let (p, q) = (usize::from(s.pawns.0), usize::from(s.pawns.1));
                if s.colour == colour
                    && s.turns >= limit
                    && self.pos.spot(colour, p) == s.spot
                    && self.pos.spot(colour, q) == s.spot
                {
                    pairs.push(s.pawns.0, s.pawns.1, s.spot);
                }
            }
        }
        pairs
    }

    /// Hands the turn to the next player still seated, ageing the mover's blockades, and
    /// sums the turn up in one line.
    fn pass_turn(&mut self, out: &mut Vec<Event>) {
        let colour = self.colour();
        if !self.turn_log.is_empty() {
            // "rolled 2 2: pawn 1 23 to 25, pawn 1 25 to 27; rolled 6 5: ..."
            let mut summary = String::new();
            for (k, entry) in self.turn_log.iter().enumerate() {
                let glue = match (k, entry.starts_with("rolled")) {
                    (0, _) => "",
                    (_, true) => "; ",
                    (_, false) if self.turn_log[k - 1].starts_with("rolled") => ": ",
                    (_, false) => ", ",
                };
                summary.push_str(glue);
                summary.push_str(entry);
            }
            out.push(Event::public(format!(
                "Turn summary, {}: {summary}.",
                self.who(colour)
            )));
            self.turn_log.clear();
        }
        let mut aged = Vec::new();
        for (p, q, spot) in self.pos.blockades(colour).iter() {
            if let Spot::Ring(_) = spot {
                let pawns = (p as u8, q as u8);
                let before = self
                    .standing
                    .iter()
                    .find(|s| s.colour == colour && s.pawns == pawns && s.spot == spot)
                    .map_or(0, |s| s.turns);
                aged.push(Standing {
                    colour,
                    pawns,
                    spot,
                    turns: before.saturating_add(1),
                });
            }
        }
        self.standing.retain(|s| s.colour != colour);
        self.standing.extend(aged);
        self.rewards.clear();
        self.doubles = 0;
        self.turns = self.turns.wrapping_add(1);
        let n = self.seated.len();
        for k in 1..=n {
            let i = (self.current + k) % n;
            if self.seated.get(i).is_some_and(|s| !s.gone) {
                if i <= self.current {
                    self.round = self.round.map(|round| round + 1);
                }
                self.current = i;
                break;
            }
        }
    }

    /// Moves the game on while nothing is left to decide: dice that cannot be played are lost,
    /// rewards that cannot be moved are lost, doubles roll again, and the turn passes.
    fn settle(&mut self, roller: &mut dyn Roller, out: &mut Vec<Event>) {
        for _ in 0..MAX_CHAIN {
            match self.stage {
                Stage::Over(_) => return,
                Stage::Dice => {
                    if !self.legal().is_empty() {
                        out.push(Event::public(self.prompt()));
                        return;
                    }
                    if !self.roll.done() {
                        out.push(Event::public(self.lost_dice_text()));
                        let left: Vec<String> = self.roll.left().map(|f| f.to_string()).collect();
                        self.turn_log.push(format!("{} lost", left.join(" and ")));
                        self.roll.finish();
                    }
                    self.stage = Stage::Rewards;
                }
                Stage::Rewards => {
                    let options = self.reward_options();
                    if options.iter().any(|(_, steps)| !steps.is_empty()) {
                        out.push(Event::public(self.prompt()));
                        return;
                    }
                    for amount in &self.rewards {
                        out.push(Event::public(format!(
                            "The reward of {amount} is lost: no pawn of {} can move exactly {amount} squares.",
                            self.colour()
                        )));
                    }
                    self.rewards.clear();
                    if self.roll.is_double() {
                        out.push(Event::public(format!(
                            "{} rolled doubles and rolls again.",
                            self.who(self.colour())
                        )));
                    } else {
                        self.pass_turn(out);
                    }
                    self.roll_for_turn(roller, out);
                }
            }
        }
    }

    /// Applies one public command from `seat`.
    pub fn act(&mut self, seat: Seat, word: &str, args: &str, roller: &mut dyn Roller) -> Happened {
        if let Stage::Over(_) = self.stage {
            return Err(Refusal::new("the game is over; no more moves"));
        }
        let mover = self
            .mover()
            .ok_or_else(|| Refusal::new("nobody is to move"))?;
        if mover.seat != seat {
            if !self.seated.iter().any(|s| s.seat == seat && !s.gone) {
                return Err(Refusal::new("you are not playing in this parcheesi game"));
            }
            return Err(Refusal::new(format!(
                "it is {}'s turn, not yours; wait for your turn",
                self.who(mover.colour)
            )));
        }
        let action = parse::parse(word, args)?;
        let mut out = Vec::new();
        match action {
            Action::Move { pawn, die, around } => {
                self.check_dice_stage()?;
                if !self.roll.has(die) {
                    return Err(Refusal::new(format!(
                        "there is no {die} to play; the dice left are {}",
                        self.dice_left_words()
                    )));
                }
                let step = Step::Move {
                    pawn: (pawn - 1) as u8,
                    die,
                    around,
                };
                self.play_step(step, &mut out)?;
            }
            Action::Enter { pawn } => {
                self.check_dice_stage()?;
                let by_sum = if self.roll.has(5) {
                    false
                } else if self.roll.sum_five() {
                    true
                } else {
                    return Err(Refusal::new(format!(
                        "a pawn comes out only with a 5 (one die, or both dice summing to 5); the dice left are {}",
                        self.dice_left_words()
                    )));
                };
                let colour = self.colour();
                let pawn = match pawn {
                    Some(pawn) => pawn - 1,
                    None => (0..PAWNS)
                        .find(|p| self.pos.spot(colour, *p) == Spot::Nest)
                        .ok_or_else(|| Refusal::new("you have no pawn in the nest"))?,
                };
                let step = Step::Enter {
                    pawn: pawn as u8,
                    by_sum,
                };
                self.play_step(step, &mut out)?;
            }
            Action::Reward {
                pawn,
                amount,
                around,
            } => {
                self.play_reward(pawn - 1, amount, around, &mut out)?;
            }
            Action::SkipReward { amount } => self.decline_reward(amount, &mut out)?,
        }
        self.settle(roller, &mut out);
        Ok(out)
    }

    fn check_dice_stage(&self) -> Result<(), Refusal> {
        if self.stage == Stage::Rewards {
            let pending: Vec<String> = self.rewards.iter().map(|r| r.to_string()).collect();
            return Err(Refusal::new(format!(
                "the dice are played; move your reward of {} with reward <pawn>",
                pending.join(" and ")
            )));
        }
        Ok(())
    }

    /// Checks a step against the whole roll and plays it.
    fn play_step(&mut self, step: Step, out: &mut Vec<Event>) -> Result<(), Refusal> {
        let colour = self.colour();
        let occ = self.pos.occupancy();
        let pawn = step.pawn() + 1;
        let landing = match engine::check_step(&self.pos, &occ, colour, step) {
            Ok(landing) => landing,
            Err(e) => {
                let mut text = match step {
                    Step::Enter { .. } => entry_reason(e, pawn, colour),
                    Step::Move { .. } => board::explain(e, pawn),
                };
                if let Step::Move {
                    die, around: false, ..
                } = step
                {
                    let round = Step::Move {
                        pawn: step.pawn() as u8,
                        die,
                        around: true,
                    };
                    if self.legal().contains(&round) {
                        text.push_str(&format!(
                            "; say {} {pawn} {die} around to go round again",
                            MOVE.name
                        ));
                    }
                }
                return Err(Refusal::new(text));
            }
        };
        let legal = self.legal();
        if !legal.contains(&step) {
            return Err(Refusal::new(self.why_not(step, &legal)));
        }
        let from = self.pos.spot(colour, step.pawn());
        engine::play(&mut self.pos, &mut self.roll, colour, step, landing);
        let used = match step {
            Step::Enter { by_sum: true, .. } => "both dice".to_string(),
            Step::Enter { by_sum: false, .. } => "the 5".to_string(),
            Step::Move { die, .. } => format!("the {die}"),
        };
        let mut text = match step {
            Step::Enter { .. } => format!(
                "{} brings pawn {pawn} out of the nest onto {} with {used}.",
                self.who(colour),
                landing.to
            ),
            Step::Move { around, .. } => format!(
                "{} moves pawn {pawn} from {from} to {} with {used}{}.",
                self.who(colour),
                landing.to,
                if around { ", going round again" } else { "" }
            ),
        };
        self.turn_log.push(
            match step {
                Step::Enter { .. } => format!("pawn {pawn} out onto {}", landing.to),
                Step::Move { .. } => format!("pawn {pawn} {from} to {}", landing.to),
            } + if landing.captured.is_some() {
                ", capturing"
            } else {
                ""
            },
        );
        self.after_landing(step.pawn(), landing, &mut text);
        out.push(Event::public(text));
        Ok(())
    }

    /// Captures, HOME and the end of the game after a pawn landed.
    fn after_landing(&mut self, pawn: usize, landing: board::Landing, text: &mut String) {
        let colour = self.colour();
        if let Some((other, p)) = landing.captured {
            self.rewards.push(20);
            text.push_str(&format!(
                " It captures {other} pawn {} on {}, which goes back to its nest: a reward of 20 after the dice.",
                p + 1,
                landing.to
            ));
        }
        if landing.home() {
            self.rewards.push(10);
            text.push_str(&format!(
                " Pawn {} is HOME: a reward of 10 after the dice.",
                pawn + 1
            ));
        }
        if self.pos.all_home(colour) {
            let ranking = self.ranking();
            text.push_str(&format!(
                " {} has all four pawns HOME and wins! {}",
                self.who(colour),
                self.ranking_text(&ranking)
            ));
            self.stage = Stage::Over(ranking);
        }
    }

    /// The places: by distance still to go, fewest first (ties share a place); players who
    /// left come last.
    pub fn ranking(&self) -> Vec<Vec<Seat>> {
        let mut playing: Vec<(u32, Seat)> = self
            .seated
            .iter()
            .filter(|s| !s.gone)
            .map(|s| (self.pos.distance_left(s.colour), s.seat))
            .collect();
        playing.sort();
        let mut ranking = ranked(playing);
        let gone: Vec<Seat> = self
            .seated
            .iter()
            .filter(|s| s.gone)
            .map(|s| s.seat)
            .collect();
        if !gone.is_empty() {
            ranking.push(gone);
        }
        ranking
    }

    /// The reward a player names to `verb` (move, decline): `amount` if it is one they have,
    /// else the first they have that `fits`, else their first.
    fn reward_named(
        &self,
        amount: Option<u8>,
        verb: &str,
        fits: impl Fn(u8) -> bool,
    ) -> Result<u8, Refusal> {
        match amount {
            Some(a) if self.rewards.contains(&a) => Ok(a),
            Some(a) => Err(Refusal::new(format!(
                "you have no reward of {a} to {verb}; you have {}",
                self.rewards_words()
            ))),
            None => self
                .rewards
                .iter()
                .copied()
                .find(|a| fits(*a))
                .or_else(|| self.rewards.first().copied())
                .ok_or_else(|| Refusal::new(format!("you have no reward to {verb}"))),
        }
    }

    /// Moves a pending reward with one pawn.
    fn play_reward(
        &mut self,
        pawn: usize,
        amount: Option<u8>,
        around: bool,
        out: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        if self.stage == Stage::Dice {
            return Err(Refusal::new(format!(
                "rewards come after all dice are played; play {} first",
                self.dice_left_words()
            )));
        }
        let colour = self.colour();
        let occ = self.pos.occupancy();
        let amount = self.reward_named(amount, "move", |a| {
            board::try_move(&self.pos, &occ, colour, pawn, a, around).is_ok()
        })?;
        let usable = engine::reward_steps(&self.pos, colour, amount, &self.limits);
        if usable.is_empty() {
            return Err(Refusal::new(format!(
                "no pawn can move the reward of {amount}; move another reward ({})",
                self.rewards_words()
            )));
        }
        let step = |around: bool| Step::Move {
            pawn: pawn as u8,
            die: amount,
            around,
        };
        let landing =
            board::try_move(&self.pos, &occ, colour, pawn, amount, around).map_err(|e| {
                let mut text = board::explain(e, pawn + 1);
                if !around && usable.contains(&step(true)) {
                    text.push_str(&format!(
                        "; say {reward} {} {amount} around to go round again (or {reward} skip to decline it)",
                        pawn + 1,
                        reward = REWARD.name
                    ));
                } else {
                    text.push_str(&format!(
                        "; a reward of {amount} is moved whole by one pawn"
                    ));
                }
                Refusal::new(text)
            })?;
        if !usable.contains(&step(around)) {
            return Err(Refusal::new(format!(
                "pawn {} cannot take the reward of {amount} onto its partner: the two pawns of a blockade may not move forward together on a roll of doubles, by dice or by rewards",
                pawn + 1
            )));
        }
        if let Some(i) = self.rewards.iter().position(|r| *r == amount) {
            self.rewards.remove(i);
        }
        let from = self.pos.spot(colour, pawn);
        board::apply(&mut self.pos, colour, pawn, landing);
        let mut text = format!(
            "{} moves pawn {} from {from} to {} with the reward of {amount}{}.",
            self.who(colour),
            pawn + 1,
            landing.to,
            if around { ", going round again" } else { "" }
        );
        self.turn_log.push(format!(
            "reward {amount}: pawn {} {from} to {}{}",
            pawn + 1,
            landing.to,
            if landing.captured.is_some() {
                ", capturing"
            } else {
                ""
            }
        ));
        self.after_landing(pawn, landing, &mut text);
        out.push(Event::public(text));
        Ok(())
    }

    /// Declines a pending reward that could only be used by going round the board (rule 14:
    /// going round is forced only by the dice; a reward not taken is lost).
    fn decline_reward(&mut self, amount: Option<u8>, out: &mut Vec<Event>) -> Result<(), Refusal> {
        if self.stage == Stage::Dice {
            return Err(Refusal::new(format!(
                "rewards come after all dice are played; play {} first",
                self.dice_left_words()
            )));
        }
        let options = self.reward_options();
        let steps_of = |a: u8| {
            options
                .iter()
                .find(|(amount, _)| *amount == a)
                .map(|(_, steps)| steps.as_slice())
        };
        let around_only = |a: u8| {
            steps_of(a).is_some_and(|steps| {
                steps
                    .iter()
                    .all(|s| matches!(s, Step::Move { around: true, .. }))
            })
        };
        let amount = self.reward_named(amount, "decline", around_only)?;
        if !around_only(amount) {
            let way = steps_of(amount)
                .and_then(|steps| {
                    steps
                        .iter()
                        .find(|s| matches!(s, Step::Move { around: false, .. }))
                        .copied()
                })
                .map(|s| format!(" ({} {} {amount})", REWARD.name, s.pawn() + 1))
                .unwrap_or_default();
            return Err(Refusal::new(format!(
                "the reward of {amount} can be moved without going round{way}, so it must be moved; only a reward that needs going round can be declined"
            )));
        }
        self.forfeit_reward(amount, out);
        Ok(())
    }

    /// Gives up a pending reward that only going round the board could use.
    fn forfeit_reward(&mut self, amount: u8, out: &mut Vec<Event>) {
        if let Some(i) = self.rewards.iter().position(|r| *r == amount) {
            self.rewards.remove(i);
        }
        out.push(Event::public(format!(
            "{} declines the reward of {amount}: only going round the board could use it, and going round is forced only by the dice. The reward is lost.",
            self.who(self.colour())
        )));
    }

    /// The turn's deadline passed: the turn is lost, or (`timeout=auto`) played automatically.
    pub fn timeout(&mut self, roller: &mut dyn Roller) -> Vec<Event> {
        let mut out = Vec::new();
        if let Stage::Over(_) = self.stage {
            return out;
        }
        let who = self.who(self.colour());
        if !self.settings.auto {
            out.push(Event::public(format!(
                "{who} let the time run out and loses the turn."
            )));
            self.pass_turn(&mut out);
            self.roll_for_turn(roller, &mut out);
            self.settle(roller, &mut out);
            return out;
        }
        out.push(Event::public(format!(
            "{who} let the time run out; the bot plays the turn, moving the rearmost pawn furthest."
        )));
        let turn = self.turns;
        for _ in 0..MAX_CHAIN {
            if self.turns != turn || matches!(self.stage, Stage::Over(_)) {
                break;
            }
            self.auto_roll(&mut out);
            self.settle(roller, &mut out);
        }
        out
    }

    /// Plays the dice, or one reward, automatically.
    fn auto_roll(&mut self, out: &mut Vec<Event>) {
        let colour = self.colour();
        match self.stage {
            Stage::Dice => {
                for step in engine::auto_play(&self.pos, &self.roll, colour, &self.limits) {
                    if self.play_step(step, out).is_err() || self.stage != Stage::Dice {
                        break;
                    }
                }
            }
            Stage::Rewards => {
                // A reward that only going round could use is declined, never forced.
                let mut best: Option<([u32; PAWNS], usize, u8)> = None;
                let options = self.reward_options();
                let occ = self.pos.occupancy();
                for (amount, steps) in &options {
                    for step in steps.as_slice() {
                        let Step::Move {
                            pawn,
                            around: false,
                            ..
                        } = *step
                        else {
                            continue;
                        };
                        let p = usize::from(pawn);
                        if let Ok(landing) =
                            board::try_move(&self.pos, &occ, colour, p, *amount, false)
                        {
                            let mut after = self.pos;
                            board::apply(&mut after, colour, p, landing);
                            let key = engine::rear_first(&after, colour);
                            if best.as_ref().is_none_or(|b| key < b.0) {
                                best = Some((key, p, *amount));
                            }
                        }
                    }
                }
                match best {
                    Some((_, p, amount)) => {
                        let _ = self.play_reward(p, Some(amount), false, out);
                    }
                    None => {
                        for (amount, steps) in options {
                            if !steps.is_empty() {
                                self.forfeit_reward(amount, out);
                            }
                        }
                    }
                }
            }
            Stage::Over(_) => {}
        }
    }

    /// The player in `seat` left: its pawns leave the board and its turns are skipped; with
    /// one player left, the game ends.
    pub fn seat_left(&mut self, seat: Seat, roller: &mut dyn Roller) -> Vec<Event> {
        let mut out = Vec::new();
        if let Stage::Over(_) = self.stage {
            return out;
        }
        let Some(index) = self.seated.iter().position(|s| s.seat == seat && !s.gone) else {
            return out;
        };
        let colour = self.seated[index].colour;
        out.push(Event::public(format!(
            "{} has left; {colour}'s pawns leave the board.",
            self.who(colour)
        )));
        self.seated[index].gone = true;
        self.pos.pawns[colour.index()] = [Spot::Nest; PAWNS];
        self.standing.retain(|s| s.colour != colour);
        if self.seated.iter().filter(|s| !s.gone).count() <= 1 {
            let ranking = self.ranking();
            // Those who left are ranked by the table (in the order they went), not by the
            // squares they had to go: the game names only the one left.
            let last = self
                .seated
                .iter()
                .find(|s| !s.gone)
                .map(|s| format!(": {} wins", self.who(s.colour)))
                .unwrap_or_default();
            out.push(Event::public(format!(
                "Only one player is left, so the game ends{last}."
            )));
            self.stage = Stage::Over(ranking);
            return out;
        }
        if index == self.current {
            self.pass_turn(&mut out);
            self.roll_for_turn(roller, &mut out);
            self.settle(roller, &mut out);
        }
        out
    }

    /// Whether a saved state makes sense (so nothing later can index out of range).
    pub fn is_consistent(&self) -> Result<(), String> {
        if !(2..=4).contains(&self.seated.len()) {
            return Err(format!("{} players", self.seated.len()));
        }
        if self.current >= self.seated.len() {
            return Err("the player to move is not seated".into());
        }
        for (i, s) in self.seated.iter().enumerate() {
            if self.seated[..i].iter().any(|t| t.colour == s.colour) {
                return Err(format!("{} is seated twice", s.colour));
            }
        }
        if !self.roll.is_valid() {
            return Err("the roll has impossible dice".into());
        }
        if self.pos.pawns.iter().flatten().any(|s| !s.is_valid()) {
            return Err("a pawn stands off the board".into());
        }
        if self.rewards.iter().any(|r| !matches!(r, 10 | 20)) {
            return Err("a reward is neither 10 nor 20".into());
        }
        Ok(())
    }
}
