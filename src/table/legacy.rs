//! Logs written before inputs kept what was said held the parsed command instead (serde's
//! form of the old `ChannelCommand` and `DmCommand`). Replay and undo read such an input as
//! the text that the command stood for, written so the parser reads it back to the same
//! command: a game opened by an earlier version replays under this one.

use serde_json::Value;

/// The text an input says: `text` when the log kept it, or else the text the old `command`
/// stood for, channel command (`direct: false`) or direct message (`direct: true`).
pub fn said(text: &str, command: Option<&Value>, direct: bool) -> String {
    match command {
        Some(command) if text.is_empty() => match direct {
            false => channel_text(command),
            true => direct_text(command),
        },
        _ => text.to_string(),
    }
}

/// An old channel command as typed after the prefix.
fn channel_text(command: &Value) -> String {
    match command {
        Value::String(word) => word.to_lowercase(),
        Value::Object(map) => match map.iter().next() {
            Some((variant, body)) => channel_variant(variant, body),
            None => String::new(),
        },
        _ => String::new(),
    }
}

fn channel_variant(variant: &str, body: &Value) -> String {
    let word = variant.to_lowercase();
    match (variant, body) {
        ("New", Value::Object(new)) => {
            let mut text = format!("new {}", string(new.get("game")));
            text.push_str(&pairs(new.get("options")));
            text
        }
        ("Log", Value::Number(round)) => format!("log {round}"),
        ("Deadline", Value::Object(spec)) => match spec.iter().next() {
            Some((kind, Value::Number(seconds))) if kind == "In" => format!("deadline {seconds}s"),
            Some((_, at)) => format!("deadline {}", string(Some(at))),
            None => word,
        },
        ("Replace", Value::Array(both)) => {
            format!("replace {} {}", string(both.first()), string(both.get(1)))
        }
        ("Draw", Value::Bool(vote)) => match vote {
            true => word,
            false => "draw no".to_string(),
        },
        ("Game", Value::Object(game)) => {
            let args = string(game.get("args"));
            match args.is_empty() {
                true => string(game.get("word")),
                false => format!("{} {args}", string(game.get("word"))),
            }
        }
        (_, Value::String(arg)) => format!("{word} {arg}"),
        _ => word,
    }
}

/// An old direct message as sent, without the game number.
fn direct_text(command: &Value) -> String {
    match command {
        Value::String(word) => word.to_lowercase(),
        Value::Object(map) => match map.iter().next() {
            Some((variant, body)) => match (variant.as_str(), body) {
                ("Order", order) => string(Some(order)),
                ("Rules", game) => format!("rules {}", string(Some(game))),
                ("Setup", options) => format!("setup{}", pairs(Some(options))),
                ("Vacation", Value::Number(seconds)) => format!("vacation {seconds}s"),
                ("Vacation", _) => "vacation off".to_string(),
                (variant, _) => variant.to_lowercase(),
            },
            None => String::new(),
        },
        _ => String::new(),
    }
}

/// A JSON string's text (nothing for anything else).
fn string(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(text)) => text.clone(),
        _ => String::new(),
    }
}

/// `[[key, value], ...]` as ` key=value ...`.
fn pairs(value: Option<&Value>) -> String {
    let Some(Value::Array(pairs)) = value else {
        return String::new();
    };
    pairs
        .iter()
        .map(|pair| match pair {
            Value::Array(pair) => format!(" {}={}", string(pair.first()), string(pair.get(1))),
            _ => String::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn old_commands_read_as_the_text_they_stood_for() {
        let cases = [
            (json!("Start"), "start"),
            (json!({"Help": null}), "help"),
            (json!({"Join": "red"}), "join red"),
            (json!({"Log": 3}), "log 3"),
            (
                json!({"New": {"game": "tag", "options": [["seed", "7"], ["revision", "3"]]}}),
                "new tag seed=7 revision=3",
            ),
            (json!({"Deadline": {"In": 172800}}), "deadline 172800s"),
            (
                json!({"Deadline": {"At": "2026-12-01T18:00:00Z"}}),
                "deadline 2026-12-01T18:00:00Z",
            ),
            (json!({"Kick": "42"}), "kick 42"),
            (json!({"Replace": ["42", "43"]}), "replace 42 43"),
            (json!({"Draw": false}), "draw no"),
            (json!({"Draw": true}), "draw"),
            (json!({"Game": {"word": "move", "args": "2 5"}}), "move 2 5"),
            (json!({"Game": {"word": "pass", "args": ""}}), "pass"),
        ];
        for (command, text) in cases {
            assert_eq!(said("", Some(&command), false), text, "{command}");
        }
        let direct = [
            (json!("Status"), "status"),
            (json!({"Order": "bid 5"}), "bid 5"),
            (json!({"Setup": [["board", "7x7"]]}), "setup board=7x7"),
            (json!({"Vacation": 432000}), "vacation 432000s"),
            (json!({"Vacation": null}), "vacation off"),
        ];
        for (command, text) in direct {
            assert_eq!(said("", Some(&command), true), text, "{command}");
        }
        assert_eq!(said("join", None, false), "join");
    }
}
