//! The transcript line format of DESIGN.md:
//! `alice #tag-game: !new tag seed=7`, `bob dm: bid 5`, `clock +48h`, `[msg 42] bob dm: bid 5`.
//! A channel's name may end in `@server` (`#tag@east`): the server it is on, where ratings
//! are kept per server (without it, the console's one server).

use crate::duration::{a_year, format_duration, parse_duration_within, parse_instant, TimeError};
use chrono::{DateTime, Duration, Utc};
use thiserror::Error;

/// One line of a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Nothing to do (blank or `#` comment).
    Blank,
    /// A user posts in a channel.
    Channel {
        /// An explicit message id (`[msg 42]`).
        id: Option<String>,
        /// Who.
        user: String,
        /// Where (without `#`).
        channel: String,
        /// The server it is on (the name after `@`).
        server: Option<String>,
        /// What.
        text: String,
    },
    /// A user sends the bot a direct message.
    Direct {
        /// An explicit message id.
        id: Option<String>,
        /// Who.
        user: String,
        /// What.
        text: String,
    },
    /// The manual clock moves on by this much.
    Advance(Duration),
    /// The manual clock is set to this instant.
    SetClock(DateTime<Utc>),
}

/// Why a transcript line could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("line {line}: {reason}")]
pub struct LineError {
    /// The line number (from 1).
    pub line: usize,
    /// What is wrong and what the format is.
    pub reason: String,
}

/// Reads one line (`number` is for the error message).
pub fn parse_line(text: &str, number: usize) -> Result<Line, LineError> {
    let error = |reason: String| LineError {
        line: number,
        reason,
    };
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(Line::Blank);
    }
    if let Some(rest) = text.strip_prefix("clock ") {
        let rest = rest.trim();
        if let Some(amount) = rest.strip_prefix('+') {
            let shown: String = amount.chars().take(60).collect();
            return match parse_duration_within(amount, a_year()) {
                Ok(by) => Ok(Line::Advance(by)),
                Err(TimeError::Unreadable) => Err(error(format!(
                    "`clock +<duration>` takes a duration like 48h; got '{shown}'"
                ))),
                Err(TimeError::TooLong(longest)) => Err(error(format!(
                    "`clock +<duration>` moves the clock at most {} at a time; got '{shown}'",
                    format_duration(longest)
                ))),
            };
        }
        return parse_instant(rest).map(Line::SetClock).ok_or_else(|| {
            error(format!(
                "`clock` takes +<duration> or a UTC time; got '{rest}'"
            ))
        });
    }
    let (id, text) = match text.strip_prefix("[msg ") {
        Some(rest) => {
            let (id, rest) = rest
                .split_once(']')
                .ok_or_else(|| error("`[msg <id>]` is missing its `]`".to_string()))?;
            (Some(id.trim().to_string()), rest.trim())
        }
        None => (None, text),
    };
    let (head, body) = text.split_once(':').ok_or_else(|| {
        error("expected `user #channel: text`, `user dm: text` or `clock +<duration>`".to_string())
    })?;
    let body = body.trim().to_string();
    let mut words = head.split_whitespace();
    let (Some(user), Some(place), None) = (words.next(), words.next(), words.next()) else {
        return Err(error(format!(
            "expected `user #channel:` or `user dm:` before the colon; got '{head}'"
        )));
    };
    let user = user.to_string();
    if place == "dm" {
        return Ok(Line::Direct {
            id,
            user,
            text: body,
        });
    }
    match place.strip_prefix('#') {
        Some(channel) if !channel.is_empty() => Ok(Line::Channel {
            id,
            user,
            channel: channel.to_string(),
            server: channel
                .split_once('@')
                .map(|(_, server)| server.to_string())
                .filter(|server| !server.is_empty()),
            text: body,
        }),
        _ => Err(error(format!("a channel is written #name; got '{place}'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_kind_of_line() {
        assert_eq!(
            parse_line("alice #tag-game: !new tag seed=7", 1),
            Ok(Line::Channel {
                id: None,
                user: "alice".into(),
                channel: "tag-game".into(),
                server: None,
                text: "!new tag seed=7".into()
            })
        );
        assert_eq!(
            parse_line("alice #tag@east: !stats", 1),
            Ok(Line::Channel {
                id: None,
                user: "alice".into(),
                channel: "tag@east".into(),
                server: Some("east".into()),
                text: "!stats".into()
            })
        );
        assert_eq!(
            parse_line("[msg 42] bob dm: bid 5", 2),
            Ok(Line::Direct {
                id: Some("42".into()),
                user: "bob".into(),
                text: "bid 5".into()
            })
        );
        assert_eq!(
            parse_line("clock +48h", 3),
            Ok(Line::Advance(Duration::hours(48)))
        );
        assert_eq!(parse_line("# a comment", 4), Ok(Line::Blank));
        assert!(parse_line("bob bid 5", 5).is_err());
        assert!(parse_line("clock +soon", 6).is_err());
        assert_eq!(
            parse_line("clock +100000000w", 7).unwrap_err().reason,
            "`clock +<duration>` moves the clock at most 365 days at a time; got '100000000w'"
        );
    }
}
