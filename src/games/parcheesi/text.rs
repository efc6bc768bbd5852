//! The game's sentences that take some working out: the prompt with the legal steps, why dice
//! are lost, why a step is refused, and the ranking.

use super::act::{Match, Stage};
use super::board::{self, Colour, Pairs, Spot, StepError, PAWNS};
use super::engine::{self, Limits, Step, Steps};
use super::REWARD;
use crate::games::Seat;

impl Match {
    /// What the player to move may type now, in words.
    pub fn prompt(&self) -> String {
        let who = self.who(self.colour());
        match &self.stage {
            Stage::Over(_) => "The game is over.".to_string(),
            Stage::Dice => {
                let left: Vec<String> = self.roll.left().map(|f| f.to_string()).collect();
                let steps: Vec<String> = self
                    .legal()
                    .as_slice()
                    .iter()
                    .map(|s| match s {
                        Step::Enter { by_sum: true, .. } => {
                            format!("!{s} (uses {})", left.join("+"))
                        }
                        _ => format!("!{s}"),
                    })
                    .collect();
                format!("{who} to play {}: {}.", left.join(" "), steps.join(", "))
            }
            Stage::Rewards => {
                let mut parts = Vec::new();
                for (amount, steps) in self.reward_options() {
                    let pawns: Vec<String> = steps
                        .as_slice()
                        .iter()
                        .map(|s| match s {
                            Step::Move {
                                pawn, around: true, ..
                            } => format!("!{} {} {amount} around", REWARD.name, pawn + 1),
                            other => format!("!{} {} {amount}", REWARD.name, other.pawn() + 1),
                        })
                        .collect();
                    let around_only = steps
                        .as_slice()
                        .iter()
                        .all(|s| matches!(s, Step::Move { around: true, .. }));
                    if pawns.is_empty() {
                        continue;
                    }
                    parts.push(if around_only {
                        format!(
                            "reward {amount}, only by going round: {}, or !{} skip {amount} to decline it",
                            pawns.join(", "),
                            REWARD.name
                        )
                    } else {
                        format!("reward {amount}: {}", pawns.join(", "))
                    });
                }
                format!("{who} to move a reward: {}.", parts.join("; "))
            }
        }
    }

    /// Why the dice left cannot be played, die by die (dice with the same reason together).
    pub(super) fn lost_dice_text(&self) -> String {
        let colour = self.colour();
        let occ = self.pos.occupancy();
        let mut faces: Vec<u8> = Vec::new();
        for f in self.roll.left() {
            if !faces.contains(&f) {
                faces.push(f);
            }
        }
        let mut groups: Vec<(Vec<String>, usize, String)> = Vec::new();
        for face in faces {
            let mut reasons = Vec::new();
            let mut nested = Vec::new();
            let mut movable = false;
            for p in 0..PAWNS {
                match self.pos.spot(colour, p) {
                    Spot::Home => {}
                    Spot::Nest if face == 5 => {
                        match board::try_enter(&self.pos, &occ, colour, p) {
                            Err(e) if nested.is_empty() => {
                                reasons.push(entry_reason(e, p + 1, colour))
                            }
                            Err(_) => {}
                            Ok(_) => movable = true,
                        }
                        nested.push(p + 1);
                    }
                    Spot::Nest => nested.push(p + 1),
                    _ => {
                        let home = board::try_move(&self.pos, &occ, colour, p, face, false);
                        let around = board::try_move(&self.pos, &occ, colour, p, face, true);
                        match (home, around) {
                            (Ok(_), _) | (_, Ok(_)) => movable = true,
                            (Err(e), _) => reasons.push(board::explain(e, p + 1)),
                        }
                    }
                }
            }
            if face != 5 && !nested.is_empty() {
                let list: Vec<String> = nested.iter().map(|p| p.to_string()).collect();
                reasons.push(match list.len() {
                    1 => format!(
                        "pawn {} is in the nest and only a 5 brings it out",
                        list.join("")
                    ),
                    _ => format!(
                        "pawns {} are in the nest and only a 5 brings them out",
                        list.join(", ")
                    ),
                });
            }
            let reason = if movable {
                "the only moves left with it would move a blockade forward together on doubles"
                    .to_string()
            } else {
                if reasons.is_empty() {
                    "no pawn can use it".to_string()
                } else {
                    format!("no pawn can use it: {}", reasons.join("; "))
                }
            };
            let count = self.roll.left().filter(|f| *f == face).count();
            let name = if count > 1 {
                format!("the two {face}s")
            } else {
                format!("the {face}")
            };
            match groups.iter_mut().find(|(_, _, r)| *r == reason) {
                Some((names, dice, _)) => {
                    names.push(name);
                    *dice += count;
                }
                None => groups.push((vec![name], count, reason)),
            }
        }
        let mut parts = Vec::new();
        for (names, dice, reason) in groups {
            let mut text = names.join(" and ");
            if let Some(first) = text.get(..1) {
                text = first.to_ascii_uppercase() + text.get(1..).unwrap_or("");
            }
            let verb = if dice > 1 { "are" } else { "is" };
            let reason = if dice > 1 {
                reason
                    .replace("use it", "use them")
                    .replace("with it", "with them")
            } else {
                reason
            };
            parts.push(format!("{text} {verb} lost: {reason}."));
        }
        // A two-dice roll with the higher die played and the lower one lost: rule 7.
        let played: Vec<u8> = (0..2)
            .filter(|i| self.roll.used & (1 << i) != 0)
            .filter_map(|i| self.roll.faces.get(i).copied())
            .collect();
        let lost: Vec<u8> = self.roll.left().collect();
        if self.roll.count == 2 && !self.roll.is_double() {
            if let (&[high], &[low]) = (played.as_slice(), lost.as_slice()) {
                if low < high {
                    parts.push("When only one die can be used, it is the higher.".to_string());
                }
            }
        }
        parts.join(" ")
    }

    pub(super) fn dice_left_words(&self) -> String {
        let left: Vec<String> = self.roll.left().map(|f| f.to_string()).collect();
        left.join(" and ")
    }

    pub(super) fn ranking_text(&self, ranking: &[Vec<Seat>]) -> String {
        let mut parts = Vec::new();
        for (place, group) in ranking.iter().enumerate() {
            let names: Vec<String> = group
                .iter()
                .filter_map(|seat| self.seated.iter().find(|s| s.seat == *seat))
                .map(|s| {
                    format!(
                        "{} ({} squares to go)",
                        self.who(s.colour),
                        self.pos.distance_left(s.colour)
                    )
                })
                .collect();
            parts.push(format!("{}. {}", place + 1, names.join(", ")));
        }
        format!("Ranking: {}.", parts.join("; "))
    }

    /// Why a step the board allows is not part of any best play of the roll.
    pub(super) fn why_not(&self, step: Step, legal: &Steps) -> String {
        let colour = self.colour();
        let listed: Vec<String> = legal.as_slice().iter().map(|s| format!("!{s}")).collect();
        let loose = |limits: Limits| {
            engine::legal_steps(&self.pos, &self.roll, colour, &limits).contains(&step)
        };
        let reason = if !self.limits.together.is_empty()
            && loose(Limits {
                together: Pairs::default(),
                ..self.limits
            }) {
            "on doubles the two pawns of a blockade may not move forward together".to_string()
        } else if !self.limits.must_break.is_empty()
            && loose(Limits {
                must_break: Pairs::default(),
                ..self.limits
            })
        {
            "your blockade has stood its limit and a legal play breaks it (blockade_limit)"
                .to_string()
        } else {
            self.dice_rule_reason(step, legal)
        };
        format!(
            "{step} is not allowed: {reason}; legal now: {}",
            listed.join(", ")
        )
    }

    /// Why a step breaks the whole-roll rule, naming the die it would lose: every die must be
    /// used when some play uses it (rule 6), the higher when only one of two can be (rule 7),
    /// and going round when only that uses every die.
    fn dice_rule_reason(&self, step: Step, legal: &Steps) -> String {
        let general = "another play uses more of the dice: every die must be used";
        let (Some(best), Some(mine)) =
            (self.dice_left_after(None), self.dice_left_after(Some(step)))
        else {
            return general.to_string();
        };
        let mut lost = mine.clone();
        for face in &best {
            if let Some(i) = lost.iter().position(|f| f == face) {
                lost.remove(i);
            }
        }
        if lost.is_empty() {
            return general.to_string();
        }
        let named = dice_names(&lost);
        if let Step::Move {
            pawn,
            die,
            around: false,
        } = step
        {
            let round = Step::Move {
                pawn,
                die,
                around: true,
            };
            if legal.contains(&round) {
                return format!(
                    "it leaves {named} unused, and going round uses every die: !{round}"
                );
            }
        }
        if self.roll.count == 2 && !self.roll.is_double() && mine.len() == 1 && best.len() == 1 {
            return format!(
                "this leaves {named} unused; when only one of the two dice can be used, the higher must be played"
            );
        }
        format!("this leaves {named} unused, and another play uses it: every die must be used")
    }

    /// The dice left unused after `first` (or nothing) and then the best play of the rest.
    fn dice_left_after(&self, first: Option<Step>) -> Option<Vec<u8>> {
        let colour = self.colour();
        let mut pos = self.pos;
        let mut roll = self.roll;
        let play = |step: Step, pos: &mut board::Position, roll: &mut engine::Roll| {
            let occ = pos.occupancy();
            let landing = engine::check_step(pos, &occ, colour, step).ok()?;
            engine::play(pos, roll, colour, step, landing);
            Some(())
        };
        if let Some(step) = first {
            play(step, &mut pos, &mut roll)?;
        }
        for step in engine::auto_play(&pos, &roll, colour, &self.limits) {
            play(step, &mut pos, &mut roll)?;
        }
        Some(roll.left().collect())
    }

    pub(super) fn rewards_words(&self) -> String {
        let pending: Vec<String> = self.rewards.iter().map(|r| r.to_string()).collect();
        if pending.is_empty() {
            "none".to_string()
        } else {
            pending.join(" and ")
        }
    }
}

/// Why a pawn cannot come out of its nest onto its entry square.
pub(super) fn entry_reason(error: StepError, pawn: usize, colour: Colour) -> String {
    match error {
        StepError::LandOnBlockade { .. } => format!(
            "pawn {pawn} cannot come out: a blockade stands on {colour}'s entry square {}",
            colour.entry()
        ),
        StepError::Full { .. } => format!(
            "pawn {pawn} cannot come out: two of your pawns already stand on your entry square {}",
            colour.entry()
        ),
        other => board::explain(other, pawn),
    }
}

/// "the 6", "the 6 and the 3", "the two 4s".
fn dice_names(faces: &[u8]) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut seen: Vec<u8> = Vec::new();
    for face in faces {
        if seen.contains(face) {
            continue;
        }
        seen.push(*face);
        names.push(match faces.iter().filter(|f| *f == face).count() {
            1 => format!("the {face}"),
            2 => format!("the two {face}s"),
            n => format!("{n} {face}s"),
        });
    }
    names.join(" and ")
}
