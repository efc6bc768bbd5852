//! What a game is, said once: a `const` [`Kit`] in each game's folder holds everything the
//! table and the players read about the game before one is played (its name, players,
//! options, revision, palette, words). [`super::Rules`] answers from it, and checks the
//! options a game declares by kind, so a game writes only what is its own.

use super::{CommandHelp, Options, Refusal};
use crate::duration::{a_year, parse_duration_within};
use chrono::Duration;

/// One game, described.
pub struct Kit {
    /// The name typed in `!new <name>` (lowercase, one word).
    pub name: &'static str,
    /// How the game's refusals name it ("TAG", "Short Circuit").
    pub title: &'static str,
    /// The game's rules revision, logged with every `!new` of it (see
    /// [`super::Rules::revision`]).
    pub revision: u32,
    /// One line for `!games`.
    pub about: &'static str,
    /// The rules for players, a few paragraphs (`!rules <game>`).
    pub summary: &'static str,
    /// Explanations a player reads once, with `!help <word>`: each a word and its text.
    pub topics: &'static [(&'static str, &'static str)],
    /// What the game calls the number its rounds count ("round", Circuit's "turn").
    pub round_word: &'static str,
    /// Fewest and most players (`None`: no upper limit).
    pub players: (usize, Option<usize>),
    /// The options `!new` takes for the game, in the order its help lists them.
    pub options: &'static [GameOption],
    /// Public commands (`!word ...` in the channel) the game adds.
    pub commands: &'static [CommandHelp],
    /// Secret orders (words by DM) the game takes.
    pub orders: &'static [CommandHelp],
    /// The colours a player may ask for at `!join`, in the order they are handed out (empty:
    /// free symbols, or none).
    pub palette: &'static [&'static str],
    /// Whether sign-ups beyond the table's size wait on a list and replace leavers.
    pub waitlist: bool,
}

/// One option of a game's `!new`.
pub struct GameOption {
    /// Its key (`turn`).
    pub key: &'static str,
    /// What it does and its default, one line for the help.
    pub about: &'static str,
    /// What its value may be.
    pub value: OptionValue,
}

/// What an option's value may be: checked from the kit, or by the game itself.
pub enum OptionValue {
    /// A duration of at most this many days (`90m`, `2d`).
    Duration {
        /// The longest it may be, in days.
        days: i64,
    },
    /// `on` or `off`.
    OnOff,
    /// Read by the game's own option check (its words are its own).
    Own(&'static str),
}

impl GameOption {
    /// An option whose value is a duration of at most `days` days.
    pub const fn duration(key: &'static str, about: &'static str, days: i64) -> GameOption {
        GameOption {
            key,
            about,
            value: OptionValue::Duration { days },
        }
    }

    /// An option whose value is `on` or `off`.
    pub const fn on_off(key: &'static str, about: &'static str) -> GameOption {
        GameOption {
            key,
            about,
            value: OptionValue::OnOff,
        }
    }

    /// An option the game reads itself, written as `typed` in the list of what it accepts
    /// (`timeout=skip|auto`).
    pub const fn own(key: &'static str, about: &'static str, typed: &'static str) -> GameOption {
        GameOption {
            key,
            about,
            value: OptionValue::Own(typed),
        }
    }

    /// An option the game reads itself, listed by its key alone where a refusal lists what
    /// the game accepts.
    pub const fn named(key: &'static str, about: &'static str) -> GameOption {
        GameOption::own(key, about, key)
    }

    /// How the option is written where a refusal lists what the game accepts.
    fn typed(&self) -> String {
        match self.value {
            OptionValue::Duration { .. } => format!("{}=<duration>", self.key),
            OptionValue::OnOff => format!("{}=on|off", self.key),
            OptionValue::Own(typed) => typed.to_string(),
        }
    }
}

impl Kit {
    /// What a game leaves as most games have it (one revision, rounds called "round", two
    /// players or more, no options, words, colours or waiting list): a game's kit names its
    /// own fields and takes the rest with `..Kit::PLAIN`.
    pub const PLAIN: Kit = Kit {
        name: "",
        title: "",
        revision: 1,
        about: "",
        summary: "",
        topics: &[],
        round_word: "round",
        players: (2, None),
        options: &[],
        commands: &[],
        orders: &[],
        palette: &[],
        waitlist: false,
    };
}

/// A year, in days: the longest duration a game's option takes.
pub const A_YEAR: i64 = 366;

impl Kit {
    /// Checks `options` against the ones the game declares: an unknown key is refused with
    /// what the game accepts, and a value of a kind the kit knows is read (an option the
    /// game reads itself is left to it).
    pub fn check_options(&self, options: &Options) -> Result<(), Refusal> {
        for (key, value) in options {
            let Some(option) = self.options.iter().find(|option| option.key == key) else {
                let accepted: Vec<String> = self.options.iter().map(GameOption::typed).collect();
                return Err(Refusal::new(format!(
                    "{} has no option `{key}`; it accepts {}",
                    self.title,
                    in_words(&accepted)
                )));
            };
            match option.value {
                OptionValue::Duration { days } => {
                    let longest = match days >= A_YEAR {
                        true => a_year(),
                        false => Duration::days(days),
                    };
                    parse_duration_within(value, longest)
                        .map_err(|e| Refusal::new(e.sentence(key, value)))?;
                }
                OptionValue::OnOff => {
                    on_off(key, value)?;
                }
                OptionValue::Own(_) => {}
            }
        }
        Ok(())
    }
}

/// `on` (true) or `off` (false), however cased; a refusal says which two words it takes.
pub fn on_off(key: &str, value: &str) -> Result<bool, Refusal> {
    match value.trim().to_lowercase().as_str() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(Refusal::new(format!(
            "{key} must be on or off, not `{value}`"
        ))),
    }
}

/// Words in a list: "a", "a and b", "a, b and c".
fn in_words(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::{GameOption, Kit, A_YEAR};
    use crate::games::options_of as options;

    const KIT: Kit = Kit {
        name: "toy",
        title: "Toy",
        options: &[
            GameOption::duration("turn", "time per turn", 30),
            GameOption::duration("claim", "time to claim", A_YEAR),
            GameOption::on_off("fast", "fast play"),
            GameOption::own("size", "board size", "size=N"),
        ],
        ..Kit::PLAIN
    };

    #[test]
    fn the_kit_checks_the_options_a_game_declares_by_kind() {
        assert!(KIT
            .check_options(&options(&[
                ("turn", "36h"),
                ("claim", "200d"),
                ("fast", "OFF"),
                ("size", "anything: the game reads it")
            ]))
            .is_ok());
        let refused = KIT
            .check_options(&options(&[("colour", "red")]))
            .unwrap_err();
        assert_eq!(
            refused.0,
            "Toy has no option `colour`; it accepts turn=<duration>, claim=<duration>, fast=on|off and size=N"
        );
        assert!(KIT.check_options(&options(&[("turn", "31d")])).is_err());
        assert!(KIT.check_options(&options(&[("claim", "400d")])).is_err());
        assert_eq!(
            KIT.check_options(&options(&[("fast", "maybe")]))
                .unwrap_err()
                .0,
            "fast must be on or off, not `maybe`"
        );
    }
}
