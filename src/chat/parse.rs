//! Text -> commands: the direct messages' parser, and the readers of the words the channel's
//! commands take (players, options, deadlines); every refusal says what was wrong and what
//! would be accepted.

use super::command::{DeadlineSpec, Dm, DmCommand};
use crate::duration::{a_year, format_duration, parse_duration_within, parse_instant, TimeError};
use thiserror::Error;

/// Why a line could not be read as a command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct ParseError(pub String);

fn refuse<T>(text: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(text.into()))
}

/// The most characters of a player's text a reply quotes back.
pub const QUOTED: usize = 60;

/// Shortens user text quoted back in an error, so a huge message gives a short answer.
pub fn quote(text: &str) -> String {
    let short: String = text.chars().take(QUOTED).collect();
    if short.len() < text.len() {
        format!("{short}...")
    } else {
        short
    }
}

/// A player's text (or name) as the table reads it: without control characters (escape,
/// bell, NUL... and tabs, which become spaces), so none is ever echoed; line breaks stay.
pub fn clean(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\n' => Some('\n'),
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// A refusal as it is sent: any run of more than [`QUOTED`] characters without a space (a
/// player's word quoted whole) is cut to that length, so no reply repeats a long input.
pub fn bounded(reply: &str) -> String {
    let mut out = String::with_capacity(reply.len().min(4096));
    let mut run = 0;
    let mut cut = false;
    for c in reply.chars() {
        if c.is_whitespace() {
            run = 0;
            cut = false;
            out.push(c);
        } else if run < QUOTED {
            run += 1;
            out.push(c);
        } else if !cut {
            cut = true;
            out.push_str("...");
        }
    }
    out
}

/// Reads `key=value` words; keys are lowercased, values kept as written.
pub fn parse_options<'a>(
    words: impl Iterator<Item = &'a str>,
    command: &str,
) -> Result<Vec<(String, String)>, ParseError> {
    let mut options: Vec<(String, String)> = Vec::new();
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return refuse(format!(
                "`{command}` options are written key=value, like seed=7; got '{}'",
                quote(word)
            ));
        };
        let key = key.trim().to_lowercase();
        if key.is_empty() || value.is_empty() {
            return refuse(format!(
                "`{command}` options are written key=value, like seed=7; got '{}'",
                quote(word)
            ));
        }
        if options.iter().any(|(k, _)| *k == key) {
            return refuse(format!("`{command}` got the option '{key}' twice"));
        }
        options.push((key, value.to_string()));
    }
    Ok(options)
}

/// Reads when a deadline falls: `48h`, or a UTC time like `2026-12-01 18:00 UTC`.
pub fn parse_deadline(args: &str, prefix: &str) -> Result<DeadlineSpec, ParseError> {
    match parse_duration_within(args, a_year()) {
        Ok(duration) => return Ok(DeadlineSpec::In(duration)),
        Err(TimeError::TooLong(longest)) => {
            return refuse(format!(
                "`{prefix}deadline` is at most {} away; got '{}'",
                format_duration(longest),
                quote(args)
            ))
        }
        Err(TimeError::Unreadable) => {}
    }
    if let Some(at) = parse_instant(args) {
        return Ok(DeadlineSpec::At(at));
    }
    refuse(format!(
        "`{prefix}deadline` takes a duration like 36h or a UTC time like 2026-12-01 18:00 UTC; got '{}'",
        quote(args)
    ))
}

/// Player references in a line: `@bob`, Discord's `<@123>` / `<@!123>`, or bare names.
pub fn mentions(args: &str) -> Vec<String> {
    args.split_whitespace()
        .map(|word| {
            let word = word
                .strip_prefix("<@!")
                .or_else(|| word.strip_prefix("<@"))
                .map(|inner| inner.strip_suffix('>').unwrap_or(inner))
                .unwrap_or(word);
            word.trim_start_matches('@').to_string()
        })
        .filter(|word| !word.is_empty())
        .collect()
}

/// Reads a direct message: an optional `#<game id>`, then `status`, `help`, `setup ...` or an
/// order.
pub fn parse_dm(text: &str) -> Result<Dm, ParseError> {
    let mut text = text.trim();
    let mut game = None;
    if let Some(rest) = text.strip_prefix('#') {
        let (id, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        match id.parse::<i64>() {
            Ok(id) => game = Some(id),
            Err(_) => {
                return refuse(format!(
                    "a game number goes after #, like `#3 bid 5`; got '#{}'",
                    quote(id)
                ))
            }
        }
        text = rest.trim();
    }
    let command = parse_dm_command(text)?;
    Ok(Dm { game, command })
}

/// Reads what a direct message asks, after any `#<game id>`: `status`, `help`, `rules`,
/// `vacation`, `setup ...`, or else an order.
pub fn parse_dm_command(text: &str) -> Result<DmCommand, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return refuse("send an order, `status` or `help`");
    }
    let lower = text.to_lowercase();
    let mut words = lower.split_whitespace();
    // `!help` and `/status` by habit from the channel mean the same as without the mark.
    let first = words.next().map(|word| word.trim_start_matches(['!', '/']));
    let command = match (first, words.next(), words.next()) {
        (Some("status"), None, _) => DmCommand::Status,
        (Some("help"), None, _) => DmCommand::Help,
        (Some("help" | "rules"), Some(game), None) => DmCommand::Rules(game.to_string()),
        (Some("rules"), None, _) => DmCommand::Rules(String::new()),
        (Some("vacation"), Some("off" | "over" | "end"), None) => DmCommand::Vacation(None),
        (Some("vacation"), _, _) => {
            let length = text
                .split_whitespace()
                .skip(1)
                .collect::<Vec<_>>()
                .join(" ");
            match parse_duration_within(&length, a_year()) {
                Ok(length) => DmCommand::Vacation(Some(length)),
                Err(TimeError::TooLong(_)) => {
                    return refuse(format!(
                        "a vacation is at most a year; got '{}'",
                        quote(&length)
                    ))
                }
                Err(TimeError::Unreadable) => {
                    return refuse(format!(
                        "`vacation` takes how long you are away, like `vacation 5d`, or `vacation off` when you are back; got '{}'",
                        quote(&length)
                    ))
                }
            }
        }
        (Some("setup"), _, _) => {
            let options = parse_options(text.split_whitespace().skip(1), "setup")?;
            if options.is_empty() {
                return refuse("`setup` takes the game's secret options as key=value, like `setup board=7x7 straight=8`");
            }
            DmCommand::Setup(options)
        }
        _ => DmCommand::Order(text.to_string()),
    };
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_messages() {
        assert_eq!(
            parse_dm("#3 bid 5"),
            Ok(Dm {
                game: Some(3),
                command: DmCommand::Order("bid 5".into())
            })
        );
        assert_eq!(parse_dm(" STATUS ").unwrap().command, DmCommand::Status);
        assert!(parse_dm("#x bid").is_err());
        assert!(parse_dm("   ").is_err());
    }
}
