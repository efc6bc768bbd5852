//! Text -> commands. One parser for the channel vocabulary and one for direct messages; every
//! refusal says what was wrong and what would be accepted.

use super::command::{ChannelCommand, DeadlineSpec, Dm, DmCommand};
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

/// Reads a channel line. `Ok(None)`: the line is not a command (no prefix), so it is chatter.
pub fn parse_channel(line: &str, prefix: &str) -> Result<Option<ChannelCommand>, ParseError> {
    let Some(rest) = line.trim().strip_prefix(prefix) else {
        return Ok(None);
    };
    let rest = rest.trim();
    let (word, args) = match rest.split_once(char::is_whitespace) {
        Some((word, args)) => (word, args.trim()),
        None => (rest, ""),
    };
    if word.is_empty() {
        return Ok(None);
    }
    let word = word.to_lowercase();
    let no_args = |command: ChannelCommand| {
        if args.is_empty() {
            Ok(Some(command))
        } else {
            refuse(format!(
                "`{prefix}{word}` takes nothing after it; got '{}'",
                quote(args)
            ))
        }
    };
    match word.as_str() {
        "games" => no_args(ChannelCommand::Games),
        "help" => Ok(Some(ChannelCommand::Help(
            first_word(args).map(|w| w.trim_start_matches(prefix).to_lowercase()),
        ))),
        "rules" => Ok(Some(ChannelCommand::Rules(
            first_word(args).map(str::to_lowercase),
        ))),
        "new" => parse_new(args, prefix).map(Some),
        "join" => Ok(Some(ChannelCommand::Join(
            (!args.is_empty()).then(|| args.to_string()),
        ))),
        "leave" => no_args(ChannelCommand::Leave),
        "start" => no_args(ChannelCommand::Start),
        "board" => no_args(ChannelCommand::Board),
        "status" => no_args(ChannelCommand::Status),
        "log" => match args {
            "" => Ok(Some(ChannelCommand::Log(None))),
            round => match round.parse::<u64>() {
                Ok(round) => Ok(Some(ChannelCommand::Log(Some(round)))),
                Err(_) => refuse(format!(
                    "`{prefix}log` takes a round number like 3, or nothing for the current round; got '{}'",
                    quote(round)
                )),
            },
        },
        "audit" => no_args(ChannelCommand::Audit),
        "resolve" => no_args(ChannelCommand::Resolve),
        "deadline" => parse_deadline(args, prefix).map(|spec| Some(ChannelCommand::Deadline(spec))),
        "kick" => match mentions(args).as_slice() {
            [who] => Ok(Some(ChannelCommand::Kick(who.clone()))),
            _ => refuse(format!("`{prefix}kick` takes one player, like `{prefix}kick @bob`")),
        },
        "replace" => match mentions(args).as_slice() {
            [old, new] => Ok(Some(ChannelCommand::Replace(old.clone(), new.clone()))),
            _ => refuse(format!(
                "`{prefix}replace` takes two players, the one leaving and the one taking the seat, like `{prefix}replace @bob @carol`"
            )),
        },
        "pause" => no_args(ChannelCommand::Pause),
        "resume" => no_args(ChannelCommand::Resume),
        "end" => no_args(ChannelCommand::End),
        "undo" => no_args(ChannelCommand::Undo),
        "who" => no_args(ChannelCommand::Who),
        "concede" => no_args(ChannelCommand::Concede),
        "draw" => match args.to_lowercase().as_str() {
            "" | "yes" => Ok(Some(ChannelCommand::Draw(true))),
            "no" | "off" => Ok(Some(ChannelCommand::Draw(false))),
            _ => refuse(format!(
                "`{prefix}draw` votes for a draw and `{prefix}draw no` takes the vote back; got '{}'",
                quote(args)
            )),
        },
        _ => Ok(Some(ChannelCommand::Game {
            word,
            args: args.to_string(),
        })),
    }
}

fn first_word(text: &str) -> Option<&str> {
    text.split_whitespace().next()
}

fn parse_new(args: &str, prefix: &str) -> Result<ChannelCommand, ParseError> {
    let mut words = args.split_whitespace();
    let Some(game) = words.next() else {
        return refuse(format!(
            "`{prefix}new` needs a game, like `{prefix}new tag`; `{prefix}games` lists them"
        ));
    };
    let options = parse_options(words, &format!("{prefix}new"))?;
    Ok(ChannelCommand::New {
        game: game.to_lowercase(),
        options,
    })
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

fn parse_deadline(args: &str, prefix: &str) -> Result<DeadlineSpec, ParseError> {
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
    Ok(Dm { game, command })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    #[test]
    fn channel_commands() {
        assert_eq!(parse_channel("hello all", "!"), Ok(None));
        assert_eq!(
            parse_channel("!NEW Tag seed=7", "!"),
            Ok(Some(ChannelCommand::New {
                game: "tag".into(),
                options: vec![("seed".into(), "7".into())]
            }))
        );
        assert_eq!(
            parse_channel("!deadline 48h", "!"),
            Ok(Some(ChannelCommand::Deadline(DeadlineSpec::In(
                Duration::hours(48)
            ))))
        );
        assert_eq!(
            parse_channel("!deadline tomorow", "!").unwrap_err().0,
            "`!deadline` takes a duration like 36h or a UTC time like 2026-12-01 18:00 UTC; got 'tomorow'"
        );
        assert_eq!(
            parse_channel("!kick <@!42>", "!"),
            Ok(Some(ChannelCommand::Kick("42".into())))
        );
        assert_eq!(
            parse_channel("!move 2 5 around", "!"),
            Ok(Some(ChannelCommand::Game {
                word: "move".into(),
                args: "2 5 around".into()
            }))
        );
        assert!(parse_channel("!start now", "!").is_err());
        assert!(parse_channel("!new tag seed", "!").is_err());
    }

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
