//! The readers of the words commands take (players, options, deadlines), and how a
//! player's text is quoted back; every refusal says what was wrong and what would be
//! accepted.

use super::deadline::DeadlineSpec;
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
                "`{command}` options are written key=value, like deadline=48h; got '{}'",
                quote(word)
            ));
        };
        let key = key.trim().to_lowercase();
        if key.is_empty() || value.is_empty() {
            return refuse(format!(
                "`{command}` options are written key=value, like deadline=48h; got '{}'",
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
