//! The options every game takes at `!new` (deadlines, vacations, quiet hours, ...) and the
//! GM's `setup` by DM: their keys, how a value is read, and their help with this bot's defaults.

use crate::duration::{a_year, format_duration, parse_duration_within};
use crate::games::Refusal;
use crate::table::work::TableDefaults;

/// Option keys the table reads itself; every other key goes to the game.
pub(crate) const TABLE_OPTIONS: &[&str] = &[
    "seed", "deadline", "early", "reminder", "max", "vacation", "away", "nmr", "quiet", "tz",
    "forum", "orders",
];

/// The table's rules revision from which the GM may choose a game's seed by DM (`setup
/// seed=`), which makes it a practice game.
pub(crate) const PRIVATE_SEED_FROM: u32 = 6;

/// Why a `seed=` typed in a channel everyone reads is refused, and where to give one.
pub(crate) fn seed_in_public(prefix: &str) -> String {
    format!(
        "a seed typed here would let everyone at the table foresee every die, so I do not take one in a channel. Open the game without it (I draw a seed nobody knows), or, for a practice game that is not rated, send me `setup seed=<number>` by direct message before `{prefix}start`."
    )
}

/// The table's own options of `!new` in words, each with its default on this bot.
pub(crate) fn table_option_help(defaults: &TableDefaults) -> Vec<(&'static str, String)> {
    let on_off = |on: bool| if on { "on" } else { "off" };
    vec![
        (
            "seed",
            "fixes the dice for a practice game, not rated; given only to me by DM before the start, `setup seed=7` (default: a seed nobody knows)".to_string(),
        ),
        (
            "forum",
            "a forum channel, like forum=#games: the game opens as a new post there, its tags showing the game's state".to_string(),
        ),
        (
            "deadline",
            format!(
                "one length for every phase, like 36h (default: {})",
                defaults
                    .deadline
                    .map_or("the game's own times".to_string(), format_duration)
            ),
        ),
        (
            "early",
            format!(
                "on or off: a round of secret orders resolves once every order is in (default {})",
                on_off(defaults.early)
            ),
        ),
        (
            "reminder",
            format!(
                "how long before a deadline the awaited players get a reminder by DM (default {})",
                format_duration(defaults.reminder)
            ),
        ),
        ("max", "the most players (default: the game's most)".to_string()),
        (
            "vacation",
            format!(
                "the vacation each player may take (`vacation 5d` by DM), or 0 for none (default {})",
                format_duration(crate::records::default_vacation())
            ),
        ),
        (
            "away",
            "extend or default: a deadline during a player's vacation moves to its end, once, or their default order is used (default extend)".to_string(),
        ),
        (
            "nmr",
            "default or bot: a silent player's turn is the game's default, or the computer plays it for them (default: the game's default)".to_string(),
        ),
        (
            "orders",
            "dm or thread: secret orders by DM, or in a private thread I open for each player (default dm)".to_string(),
        ),
        (
            "grace",
            format!(
                "the time a player back early from vacation has before a deadline held for them falls (default {})",
                format_duration(crate::records::default_grace())
            ),
        ),
        (
            "quiet",
            "hours with no deadlines or reminders (one falling in them moves to their end), like 23:00-08:00 (default: none)".to_string(),
        ),
        (
            "tz",
            "the game's time zone for the times I write, like Europe/Rome (default UTC)".to_string(),
        ),
    ]
}

/// A table switch at `!new` (`early=`, `practice=`): on, yes or true; off, no or false.
pub(crate) fn switch(key: &str, value: &str) -> Result<bool, Refusal> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(Refusal::new(format!("`{key}` is on or off; got '{value}'"))),
    }
}

/// A table option that is one of a few words (`away=extend`, `orders=thread`): the value
/// its word stands for, whatever the case; anything else is refused with the words it takes.
pub(crate) fn choice<T: Copy>(key: &str, value: &str, words: &[(&str, T)]) -> Result<T, Refusal> {
    words
        .iter()
        .find(|(word, _)| word.eq_ignore_ascii_case(value))
        .map(|(_, meant)| *meant)
        .ok_or_else(|| {
            let listed: Vec<&str> = words.iter().map(|(word, _)| *word).collect();
            Refusal::new(format!(
                "`{key}` is {}; got '{}'",
                listed.join(" or "),
                crate::chat::parse::quote(value)
            ))
        })
}

/// A table option's duration (`deadline=`, `reminder=`, ...), a year at most.
pub(crate) fn duration_option(key: &str, value: &str) -> Result<chrono::Duration, Refusal> {
    parse_duration_within(value, a_year()).map_err(|e| Refusal::new(e.sentence(key, value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_takes_its_words_in_any_case_and_names_them_when_refused() {
        let words = [("dm", false), ("thread", true)];
        assert_eq!(
            choice("orders", "Thread", &words).map_err(|r| r.0),
            Ok(true)
        );
        assert_eq!(choice("orders", "dm", &words).map_err(|r| r.0), Ok(false));
        assert_eq!(
            choice("orders", "post", &words).map_err(|r| r.0),
            Err("`orders` is dm or thread; got 'post'".to_string())
        );
    }
}
