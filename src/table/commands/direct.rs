//! The registry's direct-message side: how a command is said to the bot by DM (`status`,
//! `vacation 5d`), which messages are it, and what it does; and the reader that turns a
//! direct message into its command. Whatever is not one of these words is an order.

use super::{Check, Command, BY_DM};
use crate::chat::parse::{quote, ParseError};
use crate::games::Refusal;
use crate::records::User;
use crate::table::service::Service;
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
    /// Reads the words after it (`None`: any words).
    pub(crate) check: Option<Check>,
    /// What it does.
    pub(crate) run: DirectRun,
}

impl Direct {
    /// A form by DM applied to the sender's game, taking any words after its word.
    pub(crate) const fn new(usage: &'static str, help: DmHelp, apply: DirectApply) -> Direct {
        Direct {
            usage,
            help,
            takes: Takes::Anything,
            among: Among::Mine,
            check: None,
            run: DirectRun::Apply {
                apply,
                early: None,
                alone: None,
            },
        }
    }

    /// A form by DM answered before any game is looked for.
    pub(crate) const fn answer(usage: &'static str, help: DmHelp, early: Early) -> Direct {
        Direct {
            run: DirectRun::Answer(early),
            ..Direct::new(usage, help, refuse_unloaded)
        }
    }

    /// The same, taking only the messages `takes` allows.
    pub(crate) const fn takes(self, takes: Takes) -> Direct {
        Direct { takes, ..self }
    }

    /// The same, reading its words with `check`.
    pub(crate) const fn reads(self, check: Check) -> Direct {
        Direct {
            check: Some(check),
            ..self
        }
    }

    /// The same, for the games in sign-up the sender runs.
    pub(crate) const fn among(self, among: Among) -> Direct {
        Direct { among, ..self }
    }

    /// The same, some of its messages answered before a game is looked for (`early`), and a
    /// sender in no game answered by `alone`.
    pub(crate) const fn answering(self, early: Early, alone: fn() -> String) -> Direct {
        let apply = match self.run {
            DirectRun::Apply { apply, .. } => apply,
            DirectRun::Answer(_) => refuse_unloaded,
        };
        Direct {
            run: DirectRun::Apply {
                apply,
                early: Some(early),
                alone: Some(alone),
            },
            ..self
        }
    }

    /// Whether a message with `args` after the word is this command (else it is an order).
    fn takes_words(&self, args: &str) -> bool {
        match self.takes {
            Takes::Alone => args.is_empty(),
            Takes::OneWord => args.split_whitespace().nth(1).is_none(),
            Takes::Anything => true,
        }
    }
}

/// A handler of a form by DM that is answered without a game: `None` when this message is
/// for the game after all (`help` alone).
pub(crate) type Early = fn(&Service, &str) -> Option<Result<String, String>>;

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
    OneWord,
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
}

/// Refuses a form by DM that is answered before a game is loaded, should a log hold it.
fn refuse_unloaded(_work: &mut Work<'_>, _user: &User, _args: &str) -> Result<bool, Refusal> {
    Err(Refusal::new("this is answered before a game is loaded."))
}

/// The command a direct message's words are, and the words after its own (the whole order
/// for an order): a word of [`BY_DM`] whose form takes these words, or else an order.
/// `!help` and `/status` typed by habit from the channel mean the same as without the mark.
pub fn read_direct(text: &str) -> Result<(&'static Command, &str), ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError("send an order, `status` or `help`".into()));
    }
    let (word, args) = super::split(text);
    let word = word.trim_start_matches(['!', '/']);
    let said = BY_DM.iter().copied().find(|command| {
        command.name == word && command.direct.as_ref().is_some_and(|d| d.takes_words(args))
    });
    let Some(command) = said else {
        return Ok((&super::order::COMMAND, text));
    };
    if let Some(check) = command.direct.as_ref().and_then(|direct| direct.check) {
        check(args, "")?;
    }
    Ok((command, args))
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
        read_direct(text).map(|(command, args)| (command.name, args))
    }

    #[test]
    fn direct_messages_read_as_the_registry_says() {
        assert_eq!(game_named("#3 bid 5"), Ok((Some(3), "bid 5")));
        assert!(game_named("#x bid").is_err());
        assert_eq!(read("bid 5"), Ok(("order", "bid 5")));
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
    fn every_word_said_by_dm_is_registered_once_with_its_form() {
        for command in BY_DM {
            assert!(
                command.direct.is_some(),
                "{} has no form by DM",
                command.name
            );
            assert!(super::super::REGISTRY
                .iter()
                .any(|registered| registered.name == command.name));
        }
        for command in super::super::REGISTRY {
            let listed = BY_DM.iter().any(|said| said.name == command.name);
            assert_eq!(command.direct.is_some(), listed, "{}", command.name);
        }
    }
}
