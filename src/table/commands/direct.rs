//! The registry's direct-message side: how a command is said to the bot by DM (`status`,
//! `vacation 5d`), which messages are it, and what it does; and the reader that turns a
//! direct message into its command. Whatever is not one of these words is an order.

use super::{checked, unreadable, Check, Command, Words, BY_DM};
use crate::chat::parse::{quote, ParseError};
use crate::games::Refusal;
use crate::records::User;
use crate::table::lookup::Lookup;
use crate::table::work::Work;

/// A command's direct-message form.
pub struct Direct {
    /// How it is written by DM (`vacation <length> | off`).
    pub usage: &'static str,
    /// How `help` by DM names it.
    pub help: DmHelp,
    /// Which messages beginning with its word are this command (any other is an order).
    pub takes: Takes,
    /// Which games a message that names none is for.
    pub among: Among,
    /// Whether its words are secret, so that typed in a channel the message is deleted
    /// (`!order bid 5`), as a secret order typed there is.
    pub secret: bool,
    /// Reads the words after it (`None`: any words).
    pub(crate) check: Option<Check>,
    /// What it does.
    pub(crate) run: DirectRun,
    /// Where `help` by DM names it among the forms (0 first).
    pub listed: u8,
}

impl Direct {
    /// A form by DM applied to the sender's game, taking any words after its word.
    pub(crate) const fn new(usage: &'static str, help: DmHelp, apply: DirectApply) -> Direct {
        Direct::running(
            usage,
            help,
            DirectRun::Apply {
                apply,
                early: None,
                alone: None,
            },
        )
    }

    /// A form by DM whose words are read into `T` and applied to the sender's game.
    pub(crate) const fn applying<T: DirectApplies>(usage: &'static str, help: DmHelp) -> Direct {
        Direct {
            check: Some(checked::<T>),
            ..Direct::new(usage, help, applied::<T>)
        }
    }

    /// A form by DM answered before any game is looked for.
    pub(crate) const fn answer(usage: &'static str, help: DmHelp, early: Early) -> Direct {
        Direct::running(usage, help, DirectRun::Answer(early))
    }

    /// A form by DM doing `run`, taking any words after its word, for the sender's games,
    /// its words not secret.
    const fn running(usage: &'static str, help: DmHelp, run: DirectRun) -> Direct {
        Direct {
            usage,
            help,
            takes: Takes::Anything,
            among: Among::Mine,
            secret: false,
            check: None,
            run,
            listed: u8::MAX,
        }
    }

    /// The same, named `at`-th (from 0) by `help` by DM.
    pub(crate) const fn listed(self, at: u8) -> Direct {
        Direct { listed: at, ..self }
    }

    /// The same, taking only the messages `takes` allows.
    pub(crate) const fn takes(self, takes: Takes) -> Direct {
        Direct { takes, ..self }
    }

    /// The same, for the games in sign-up the sender runs.
    pub(crate) const fn among(self, among: Among) -> Direct {
        Direct { among, ..self }
    }

    /// The same, its words secret.
    pub(crate) const fn secret(self) -> Direct {
        Direct {
            secret: true,
            ..self
        }
    }

    /// The same, some of its messages answered before a game is looked for (`early`), and a
    /// sender in no game answered by `alone` (a form answered without a game stays so).
    pub(crate) const fn answering(self, early: Early, alone: fn() -> String) -> Direct {
        let run = match self.run {
            DirectRun::Apply { apply, .. } => DirectRun::Apply {
                apply,
                early: Some(early),
                alone: Some(alone),
            },
            answered => answered,
        };
        Direct { run, ..self }
    }

    /// Whether a message with `args` after the word is this command (else it is an order).
    fn takes_words(&self, args: &str) -> bool {
        match self.takes {
            Takes::Alone => args.is_empty(),
            Takes::AtMostOneWord => args.split_whitespace().nth(1).is_none(),
            Takes::SomeWords => !args.is_empty(),
            Takes::Anything => true,
        }
    }
}

/// Words said by DM that are applied to the sender's game.
pub(crate) trait DirectApplies: Words {
    /// Applies them for `user`: `Ok(true)` when the game changed.
    fn apply(self, work: &mut Work<'_>, user: &User) -> Result<bool, Refusal>;
}

/// A [`DirectApply`] handler reading its words into `T`.
fn applied<T: DirectApplies>(
    work: &mut Work<'_>,
    user: &User,
    args: &str,
) -> Result<bool, Refusal> {
    T::read(args, "").map_err(unreadable)?.apply(work, user)
}

/// A handler of a form by DM that is answered without a game: `None` when this message is
/// for the game after all (`help` alone).
pub(crate) type Early = fn(&dyn Lookup, &str) -> Option<Result<String, String>>;

/// A handler applied to the sender's game: `Ok(true)` when the game changed.
pub(crate) type DirectApply = fn(&mut Work<'_>, &User, &str) -> Result<bool, Refusal>;

/// What a form by DM does.
pub(crate) enum DirectRun {
    /// Answered before any game is looked for (`rules tag`).
    Answer(Early),
    /// Applied to the sender's game; `early` answers some of its messages before a game is
    /// looked for, `alone` a sender who is in no game.
    Apply {
        /// The handler.
        apply: DirectApply,
        /// Answers some messages without a game.
        early: Option<Early>,
        /// The answer to a sender in no game.
        alone: Option<fn() -> String>,
    },
}

/// Which messages beginning with a command's word are the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// Only the word alone (`status`; `status of my bid` is an order).
    Alone,
    /// The word and at most one more (`rules tag`).
    AtMostOneWord,
    /// The word and at least one more (`order bid 5`; `order` alone is an order).
    SomeWords,
    /// The word and anything after it (`vacation 5d`).
    Anything,
}

/// Which games a direct message that names none is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Among {
    /// The sender's games.
    Mine,
    /// The games in sign-up the sender is the GM of.
    MySignUps,
}

/// How `help` by DM names a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DmHelp {
    /// The secret orders, named first when the game has any.
    Orders,
    /// Named in the opening list, so.
    Listed(&'static str),
    /// In a sentence of its own after the list.
    Sentence(&'static str),
    /// In a sentence of its own for someone in no game (the GM's before a game starts).
    BeforePlay(&'static str),
}

/// A direct message read: its command, that command's form by DM, and the words after its
/// own (the whole order for an order).
pub struct ReadDirect<'a> {
    /// The command.
    pub command: &'static Command,
    /// Its form by DM.
    pub direct: &'static Direct,
    /// The words after it.
    pub args: &'a str,
}

/// Reads a direct message: a word of [`BY_DM`] whose form takes these words, or else an
/// order. `!help` and `/status` typed by habit from the channel mean the same as without the
/// mark.
pub fn read_direct(text: &str) -> Result<ReadDirect<'_>, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError("send an order, `status` or `help`".into()));
    }
    let (word, args) = super::split(text);
    let word = word.trim_start_matches(['!', '/']);
    let said = BY_DM.iter().copied().find_map(|command| {
        let direct = command.direct.as_ref()?;
        (command.name == word && direct.takes_words(args)).then_some((command, direct))
    });
    let read = match said {
        Some((command, direct)) => ReadDirect {
            command,
            direct,
            args,
        },
        None => ReadDirect {
            command: &super::order::COMMAND,
            direct: &super::order::DIRECT,
            args: text.trim_start_matches(['!', '/']),
        },
    };
    if let Some(check) = read.direct.check {
        check(read.args, "")?;
    }
    Ok(read)
}

/// Splits `#<game> rest` into the game's number and the rest.
pub fn game_named(text: &str) -> Result<(Option<i64>, &str), ParseError> {
    let text = text.trim();
    let Some(rest) = text.strip_prefix('#') else {
        return Ok((None, text));
    };
    let (id, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    match id.parse::<i64>() {
        Ok(id) => Ok((Some(id), rest.trim())),
        Err(_) => Err(ParseError(format!(
            "a game number goes after #, like `#3 bid 5`; got '#{}'",
            quote(id)
        ))),
    }
}

/// Where a command said only by DM is refused in the channel.
pub(crate) fn only_by_dm(command: &Command, prefix: &str) -> String {
    let usage = command
        .direct
        .as_ref()
        .map_or(command.usage, |direct| direct.usage);
    format!(
        "`{prefix}{}` is said to me by direct message: `{usage}`; or use `/{}` here.",
        command.name, command.name
    )
}

/// The help text by direct message: the words said by DM as the registry declares them, and
/// the game's orders if it has any.
pub fn dm_help(game: Option<&dyn crate::games::Rules>) -> String {
    let orders = game.map(|rules| rules.orders()).unwrap_or(&[]);
    let mut listed = Vec::new();
    let mut sentences = Vec::new();
    for direct in BY_DM.iter().filter_map(|command| command.direct.as_ref()) {
        match direct.help {
            DmHelp::Orders if orders.is_empty() && game.is_some() => {}
            DmHelp::Orders => listed.push("your secret orders"),
            DmHelp::Listed(text) => listed.push(text),
            DmHelp::Sentence(text) => sentences.push(text),
            DmHelp::BeforePlay(_) if game.is_some() => {}
            DmHelp::BeforePlay(text) => sentences.push(text),
        }
    }
    let mut text = format!(
        "By direct message to me, no prefix: {}. Put `#<game number>` in front when you sit in more than one game, like `#3 status`.",
        listed.join(", ")
    );
    for sentence in sentences {
        text.push(' ');
        text.push_str(sentence);
    }
    if let (Some(rules), false) = (game, orders.is_empty()) {
        text.push_str(&format!(
            "\n{} orders:\n{}",
            rules.name(),
            crate::chat::help::list(orders, "")
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<(&'static str, &str), ParseError> {
        read_direct(text).map(|read| (read.command.name, read.args))
    }

    #[test]
    fn direct_messages_read_as_the_registry_says() {
        assert_eq!(game_named("#3 bid 5"), Ok((Some(3), "bid 5")));
        assert!(game_named("#x bid").is_err());
        assert_eq!(read("bid 5"), Ok(("order", "bid 5")));
        assert_eq!(read("order bid 5"), Ok(("order", "bid 5")));
        assert_eq!(read("order"), Ok(("order", "order")));
        assert_eq!(read(" STATUS "), Ok(("status", "")));
        assert_eq!(read("status of my bid"), Ok(("order", "status of my bid")));
        assert_eq!(read("!help"), Ok(("help", "")));
        assert_eq!(read("help tag"), Ok(("help", "tag")));
        assert_eq!(read("rules tag now"), Ok(("order", "rules tag now")));
        assert_eq!(read("vacation 5d"), Ok(("vacation", "5d")));
        assert!(read("vacation soon").is_err());
        assert!(read("setup").is_err());
        assert_eq!(read("setup board=7x7"), Ok(("setup", "board=7x7")));
        assert!(read("   ").is_err());
    }

    #[test]
    fn the_words_said_by_dm_are_the_registrys_in_the_order_help_names_them() {
        let names: Vec<&str> = BY_DM.iter().map(|command| command.name).collect();
        assert_eq!(
            names,
            ["order", "status", "help", "rules", "vacation", "setup"]
        );
        let mut places: Vec<u8> = BY_DM
            .iter()
            .filter_map(|command| command.direct.as_ref().map(|direct| direct.listed))
            .collect();
        places.dedup();
        assert_eq!(places, [0, 1, 2, 3, 4, 5], "each form has its own place");
    }
}
