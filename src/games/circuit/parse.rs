//! Players' words: the DM orders `move` or `stay`, optionally followed by `change <tile>
//! <effect>` (an owner's new effect for a tile it owns, rule 9), and after a claim
//! `effect <action> [N] <trigger>` (or `effect none`).

use super::effect::{check_alone, Action, Effect, EffectError, Trigger};
use super::state::Choice;

/// An owner's new effect for one of its tiles (`None`: take the effect away).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The tile.
    pub tile: u8,
    /// Its new effect.
    pub effect: Option<Effect>,
}

/// A parsed DM order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// `move` or `stay` (a bare `change ...` means `move`), with an owner's change.
    Turn {
        /// Move or stay.
        choice: Choice,
        /// A new effect for a tile the runner owns.
        change: Option<Change>,
    },
    /// `effect ...`: the effect for the claimed tile (`None`: no effect).
    Effect(Option<Effect>),
}

/// Why an order could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// Not `move`, `stay`, `change ...` or `effect ...`.
    Unknown(String),
    /// A `change` without a tile number.
    ChangeTile(String),
    /// An `effect` (or `change`) whose effect is not in the catalogue or breaks a rule.
    Effect(EffectError),
}

/// Reads an order, forgiving of case and spacing.
pub fn parse_order(text: &str) -> Result<Order, OrderError> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let turn = |choice: Choice, rest: &[&str]| match rest {
        [] => Ok(Order::Turn {
            choice,
            change: None,
        }),
        ["change", tile, effect @ ..] => {
            let tile = tile
                .trim_start_matches('#')
                .parse::<u8>()
                .map_err(|_| OrderError::ChangeTile((*tile).to_string()))?;
            let effect = parse_effect(effect).map_err(OrderError::Effect)?;
            Ok(Order::Turn {
                choice,
                change: Some(Change { tile, effect }),
            })
        }
        ["change"] => Err(OrderError::ChangeTile(String::new())),
        _ => Err(OrderError::Unknown(text.trim().chars().take(60).collect())),
    };
    match words.as_slice() {
        ["move" | "go", rest @ ..] => turn(Choice::Move, rest),
        ["stay", rest @ ..] => turn(Choice::Stay, rest),
        ["change", ..] => turn(Choice::Move, &words),
        ["effect", rest @ ..] => parse_effect(rest)
            .map(Order::Effect)
            .map_err(OrderError::Effect),
        _ => Err(OrderError::Unknown(text.trim().chars().take(60).collect())),
    }
}

/// Reads the words after `effect`: `none`, or `<action> [N] <trigger>` (the number may be
/// glued to the action: `back3`), and checks the effect on its own (rules 5, 8, 10).
pub fn parse_effect(words: &[&str]) -> Result<Option<Effect>, EffectError> {
    let joined = words.join(" ");
    if matches!(words, ["none"] | ["nothing"]) {
        return Ok(None);
    }
    if let Some(word) = words.iter().find(|word| {
        [
            "win",
            "wins",
            "lose",
            "loses",
            "kill",
            "eliminate",
            "destroy",
        ]
        .contains(word)
    }) {
        return Err(EffectError::InstantEnd((*word).to_string()));
    }
    let unknown = || EffectError::Unknown(joined.clone());
    // Split glued numbers (`back3`) into their own word.
    let mut tokens: Vec<String> = Vec::new();
    for word in words {
        let digits = word.find(|c: char| c.is_ascii_digit());
        match digits {
            Some(at) if at > 0 => {
                tokens.push(word[..at].to_string());
                tokens.push(word[at..].to_string());
            }
            _ => tokens.push((*word).to_string()),
        }
    }
    let (trigger, body) = match tokens.split_last() {
        Some((last, body)) if last == "land" => (Trigger::Land, body),
        Some((last, body)) if last == "pass" => (Trigger::Pass, body),
        Some(_) => (Trigger::Land, tokens.as_slice()),
        None => return Err(unknown()),
    };
    let trigger_given = tokens
        .last()
        .is_some_and(|last| last == "land" || last == "pass");
    // Numbers too large for a tile are kept as 255 so the range check names the rule.
    let number = |text: &String| -> Result<u8, EffectError> {
        text.parse::<u64>()
            .map(|n| u8::try_from(n).unwrap_or(u8::MAX))
            .map_err(|_| EffectError::Unknown(joined.clone()))
    };
    let action = match body {
        [word] if word == "start" => Action::Start,
        [word] if word == "skip" => Action::Skip,
        [word] if word == "anchor" => Action::Anchor,
        [word] if word == "boost" => Action::Boost,
        [word] if word == "slow" => Action::Slow,
        [word, n] if word == "forward" => Action::Forward(number(n)?),
        [word, n] if word == "back" => Action::Back(number(n)?),
        [word, n] if word == "owner" => Action::Owner(number(n)?),
        _ => return Err(unknown()),
    };
    if !trigger_given {
        return Err(EffectError::NoTrigger(joined.clone()));
    }
    let effect = Effect { action, trigger };
    check_alone(effect)?;
    Ok(Some(effect))
}

/// The canonical text of an order (what is stored and revealed).
pub fn canonical(order: Order) -> String {
    let effect = |effect: Option<Effect>| match effect {
        Some(effect) => effect.to_string(),
        None => "none".to_string(),
    };
    match order {
        Order::Turn { choice, change } => {
            let choice = match choice {
                Choice::Move => "move",
                Choice::Stay => "stay",
            };
            match change {
                Some(change) => {
                    format!("{choice} change {} {}", change.tile, effect(change.effect))
                }
                None => choice.to_string(),
            }
        }
        Order::Effect(chosen) => format!("effect {}", effect(chosen)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_forgiving_and_canonical() {
        let order = parse_order("  EFFECT   Back3   Land ").unwrap();
        assert_eq!(canonical(order), "effect back 3 land");
        // An action without land or pass is asked when it acts, not called unknown.
        assert_eq!(
            parse_order("effect boost"),
            Err(OrderError::Effect(EffectError::NoTrigger(
                "boost".to_string()
            )))
        );
        assert!(EffectError::NoTrigger("boost".to_string())
            .to_string()
            .starts_with("say when 'boost' acts: `effect boost land`"));
        for (typed, read) in [
            ("Stay", "stay"),
            ("effect boost pass", "effect boost pass"),
            ("effect none", "effect none"),
            ("Stay  CHANGE 12 boost pass", "stay change 12 boost pass"),
            ("change 7 back3 land", "move change 7 back 3 land"),
            ("move change 7 none", "move change 7 none"),
        ] {
            assert_eq!(canonical(parse_order(typed).unwrap()), read, "{typed}");
        }
        assert_eq!(
            parse_order("move change seven boost pass"),
            Err(OrderError::ChangeTile("seven".into()))
        );
        assert!(parse_order("jump").is_err());
        assert!(parse_order("effect back land").is_err());
        let too_far = parse_order("effect back 300 land").unwrap_err();
        assert!(matches!(
            too_far,
            OrderError::Effect(EffectError::TooFar(_))
        ));
    }
}
