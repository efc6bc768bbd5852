//! `!help [command|game|gm]`: the commands (the players' listed, the GM's named), one
//! explained, the GM's explained, or a game's own commands and orders; all from the
//! registry and the game's declared words.

use super::{
    dm_help, Asked, Command, Direct, DmHelp, Place, Reply, Run, SlashOption, Takes, Who, REGISTRY,
};
use crate::chat::help::{game_help, list};
use crate::chat::parse::quote;
use crate::games::{CommandHelp, Refusal, Rules};
use crate::records::User;
use crate::table::lookup::Lookup;
use crate::table::outcome::Outcome;
use crate::table::work::Work;

/// `!help`.
pub const COMMAND: Command = Command::new(
    "help",
    Who::Anyone,
    "lists the commands, explains one, or lists a game's commands and orders",
    Run::Answer(answer),
)
.usage("help [command or game]")
.takes_any_words()
.slash(&[SlashOption::text("command", "A command, or a game")])
.private()
.by_dm(
    Direct::new("help [game]", DmHelp::Listed("`help`"), by_dm)
        .takes(Takes::AtMostOneWord)
        .answering(with_a_game, in_no_game)
        .listed(2),
);

fn answer(asked: Asked<'_>) -> Reply<'_> {
    Box::pin(async move {
        let prefix = asked.prefix();
        let topic = asked
            .args
            .split_whitespace()
            .next()
            .map(|word| word.trim_start_matches(prefix).to_lowercase());
        let catalogue = asked.table.catalogue();
        let rules = asked
            .game
            .and_then(|game| catalogue.find(&game.record.game));
        let mut outcome = Outcome::default();
        let text = channel_help(topic.as_deref(), prefix, rules, catalogue.all());
        outcome.channel(asked.channel, text);
        Ok(outcome)
    })
}

/// `help` by DM: the words said by DM, and the orders of the sender's game.
fn by_dm(work: &mut Work<'_>, user: &User, _args: &str) -> Result<bool, Refusal> {
    let rules = work.env.catalogue.find(&work.record.game);
    work.outcome.direct(&user.id, dm_help(rules));
    Ok(false)
}

/// `help <game>` by DM is that game's rules; `help <word>` a game's explanation of that word
/// (`help effects`).
fn with_a_game(table: &dyn Lookup, args: &str) -> Option<Result<String, String>> {
    if let Some(text) = explained(table.catalogue().all(), &args.to_lowercase()) {
        return Some(Ok(text));
    }
    (!args.is_empty())
        .then(|| super::rules::by_dm(table, args))
        .flatten()
}

/// A game's explanation of `word` (its [`crate::games::Rules::topics`]), if one has it.
fn explained(games: &[&'static dyn crate::games::Rules], word: &str) -> Option<String> {
    games.iter().find_map(|rules| {
        rules
            .topics()
            .iter()
            .find(|(topic, _)| *topic == word)
            .map(|(_, text)| text.trim_end().to_string())
    })
}

/// `help` by DM from someone in no game.
fn in_no_game() -> String {
    dm_help(None)
}

/// A command's help line as `!help` shows it.
fn line(command: &Command) -> CommandHelp {
    CommandHelp {
        name: command.name,
        usage: command.usage,
        about: command.about,
        aliases: command.aliases,
    }
}

/// The help text for the channel: the list, one command explained, or a game's commands.
pub fn channel_help(
    topic: Option<&str>,
    prefix: &str,
    game: Option<&dyn Rules>,
    games: &[&'static dyn Rules],
) -> String {
    let (gm, players): (Vec<&Command>, Vec<&Command>) = REGISTRY
        .iter()
        .copied()
        .filter(|command| command.place() != Place::Direct)
        .partition(|command| command.who == Who::Gm);
    let gm: Vec<CommandHelp> = gm.into_iter().map(line).collect();
    let players: Vec<CommandHelp> = players.into_iter().map(line).collect();
    match topic {
        None => {
            let gm_words: Vec<String> = gm
                .iter()
                .map(|help| format!("`{prefix}{}`", help.name))
                .collect();
            let mut text = format!(
                "Commands (type `{prefix}help <command>` for one, `{prefix}help <game>` for a game's):\n{}\nThe GM's: {} (`{prefix}help gm` explains them).",
                list(&players, prefix),
                gm_words.join(", ")
            );
            if let Some(rules) = game {
                text.push('\n');
                text.push_str(&game_help(rules, prefix));
            }
            text
        }
        Some("gm") => format!(
            "The GM's commands (the GM of the game, or a server admin):\n{}",
            list(&gm, prefix)
        ),
        Some(word) => {
            if let Some(command) = super::find(word) {
                let explained = match command.explained {
                    "" => String::new(),
                    more => format!("\n{more}"),
                };
                let line = match command.place() {
                    Place::Direct => {
                        format!("`{}` by direct message: {}", command.usage, command.about)
                    }
                    Place::Channel | Place::Both => format!(
                        "`{prefix}{}`{}: {}",
                        command.usage,
                        line(command).also(prefix),
                        command.about
                    ),
                };
                return format!("{line}{explained}");
            }
            let game_commands = game.map(|rules| rules.commands()).unwrap_or(&[]);
            if let Some(help) = crate::games::declared(game_commands, word) {
                return format!(
                    "`{prefix}{}`{}: {}",
                    help.usage,
                    help.also(prefix),
                    help.about
                );
            }
            if let Some(text) = explained(games, word) {
                return text;
            }
            match games.iter().find(|rules| rules.name() == word) {
                Some(rules) => game_help(*rules, prefix),
                None => format!(
                    "There is no command or game `{}`. `{prefix}help` lists the commands, `{prefix}games` the games.",
                    quote(word)
                ),
            }
        }
    }
}
