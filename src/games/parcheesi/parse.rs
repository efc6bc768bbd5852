//! Reading the players' commands, as the game declares them ([`MOVE`], [`ENTER`],
//! [`REWARD`]; the table reads their aliases as their names): `move <pawn> <die> [around]`,
//! `enter [pawn]`, `reward <pawn> [10|20] [around]`, `reward skip [10|20]`, forgiving case,
//! spacing and a leading word `pawn`.

use super::{ENTER, MOVE, REWARD};
use crate::games::Refusal;

/// A player's command, checked for form only (the game checks legality).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move pawn `pawn` (1..4) by a die.
    Move {
        /// The pawn, 1..4.
        pawn: usize,
        /// The die's face.
        die: u8,
        /// Round the ring again past the turn-off square.
        around: bool,
    },
    /// Bring pawn `pawn` (1..4) out of the nest.
    Enter {
        /// The pawn, 1..4; `None` (a bare `enter`): the lowest-numbered pawn in the nest.
        pawn: Option<usize>,
    },
    /// Move pawn `pawn` (1..4) by a reward.
    Reward {
        /// The pawn, 1..4.
        pawn: usize,
        /// Which pending reward (10 or 20), if the player says.
        amount: Option<u8>,
        /// Round the ring again past the turn-off square.
        around: bool,
    },
    /// Decline a reward that could only be used by going round the board.
    SkipReward {
        /// Which pending reward (10 or 20), if the player says.
        amount: Option<u8>,
    },
}

fn reward_amount(word: Option<&&str>, usage: &str) -> Result<Option<u8>, Refusal> {
    match word {
        None => Ok(None),
        Some(&"10") => Ok(Some(10)),
        Some(&"20") => Ok(Some(20)),
        Some(other) => Err(Refusal::new(format!(
            "'{other}' is not a reward; rewards are 20 or 10 ({usage})"
        ))),
    }
}

fn pawn_number(word: Option<&str>, usage: &str) -> Result<usize, Refusal> {
    let word = word.ok_or_else(|| Refusal::new(format!("say which pawn: {usage}")))?;
    match word.parse::<usize>() {
        Ok(n @ 1..=4) => Ok(n),
        _ => Err(Refusal::new(format!(
            "'{word}' is not a pawn; pawns are numbered 1 to 4 ({usage})"
        ))),
    }
}

fn is_around(word: &str) -> bool {
    matches!(word, "around" | "round" | "again" | "ring")
}

/// Reads one command (`word` without prefix, `args` the rest of the line).
pub fn parse(word: &str, args: &str) -> Result<Action, Refusal> {
    let word = word.trim().trim_start_matches('!').to_ascii_lowercase();
    let lowered = args.to_ascii_lowercase();
    let mut words: Vec<&str> = lowered
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if words.first() == Some(&"pawn") {
        words.remove(0);
    }
    let around = words.last().is_some_and(|w| is_around(w));
    if around {
        words.pop();
    }
    let skip = words
        .first()
        .is_some_and(|w| matches!(*w, "skip" | "decline" | "pass"));
    if word == MOVE.name {
        let usage = MOVE.usage;
        let pawn = pawn_number(words.first().copied(), usage)?;
        let die_word = words
            .get(1)
            .ok_or_else(|| Refusal::new(format!("say which die: {usage}")))?;
        let die = match die_word.parse::<u8>() {
            Ok(d @ 1..=6) => d,
            _ => {
                return Err(Refusal::new(format!(
                    "'{die_word}' is not a die; a die shows 1 to 6 ({usage})"
                )))
            }
        };
        if words.len() > 2 {
            return Err(Refusal::new(format!(
                "too many words; {usage} moves one pawn by one die"
            )));
        }
        Ok(Action::Move { pawn, die, around })
    } else if word == ENTER.name {
        let usage = ENTER.usage;
        if around {
            return Err(Refusal::new(format!(
                "a pawn entering cannot go around; say {usage}"
            )));
        }
        let pawn = match words.first() {
            None => None,
            Some(word) => Some(pawn_number(Some(word), usage)?),
        };
        if words.len() > 1 {
            return Err(Refusal::new(format!("too many words; say {usage}")));
        }
        Ok(Action::Enter { pawn })
    } else if word == REWARD.name && skip {
        // The declared usage's second form: `reward skip [20|10]`.
        let usage = REWARD.usage.rsplit(" | ").next().unwrap_or(REWARD.usage);
        if around || words.len() > 2 {
            return Err(Refusal::new(format!("too many words; say {usage}")));
        }
        Ok(Action::SkipReward {
            amount: reward_amount(words.get(1), usage)?,
        })
    } else if word == REWARD.name {
        let moved = REWARD.usage.split(" | ").next().unwrap_or(REWARD.usage);
        let usage = &format!("{moved}, or {} skip", REWARD.name);
        let pawn = pawn_number(words.first().copied(), usage)?;
        let amount = reward_amount(words.get(1), usage)?;
        if words.len() > 2 {
            return Err(Refusal::new(format!("too many words; say {usage}")));
        }
        Ok(Action::Reward {
            pawn,
            amount,
            around,
        })
    } else {
        let usages: Vec<String> = [MOVE, ENTER, REWARD]
            .iter()
            .map(|c| c.usage.replace(" | ", " or "))
            .collect();
        Err(Refusal::new(format!(
            "parcheesi has no command '{word}'; use {}",
            usages.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_forgive_case_spacing_and_the_word_pawn() {
        assert_eq!(
            parse("MOVE", "  Pawn 2   5 Around "),
            Ok(Action::Move {
                pawn: 2,
                die: 5,
                around: true
            })
        );
        assert_eq!(parse("enter", "3"), Ok(Action::Enter { pawn: Some(3) }));
        assert_eq!(
            parse("reward", "1 10"),
            Ok(Action::Reward {
                pawn: 1,
                amount: Some(10),
                around: false
            })
        );
        assert_eq!(parse("Enter", ""), Ok(Action::Enter { pawn: None }));
        assert_eq!(
            parse("reward", "skip 20"),
            Ok(Action::SkipReward { amount: Some(20) })
        );
        assert_eq!(
            parse("reward", "Skip"),
            Ok(Action::SkipReward { amount: None })
        );
        assert!(parse("move", "5 3").is_err());
        assert!(parse("move", "1 7").is_err());
        assert!(parse("jump", "1").is_err());
    }
}
