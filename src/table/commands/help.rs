//! `!help [command|game|gm]`: the commands (the players' listed, the GM's named), one
//! explained, the GM's explained, or a game's own commands and orders; all from the
//! registry and the game's declared words.

use super::{Asked, Command, Reply, Run, SlashOption, Who, REGISTRY};
use crate::chat::help::{game_help, list};
use crate::chat::parse::{quote, ParseError};
use crate::games::{CommandHelp, Rules};
use crate::table::outcome::Outcome;

/// `!help`.
pub const COMMAND: Command = Command::new(
    "help",
    Who::Anyone,
    "help [command or game]",
    "lists the commands, explains one, or lists a game's commands and orders",
    Run::Answer(answer),
)
.reads(check)
.slash(&[SlashOption::text("command", "A command, or a game")])
.private();

/// Any word is a topic (an unknown one is answered with what there is).
fn check(_args: &str, _prefix: &str) -> Result<(), ParseError> {
    Ok(())
}

fn answer(asked: Asked<'_>) -> Reply<'_> {
    Box::pin(async move {
        let prefix = asked.prefix();
        let topic = asked
            .args
            .split_whitespace()
            .next()
            .map(|word| word.trim_start_matches(prefix).to_lowercase());
        let catalogue = asked.service.catalogue();
        let rules = asked
            .game
            .and_then(|game| catalogue.find(&game.record.game));
        let mut outcome = Outcome::default();
        let text = channel_help(topic.as_deref(), prefix, rules, catalogue.all());
        outcome.channel(asked.channel, text);
        Ok(outcome)
    })
}

/// A command's help line as `!help` shows it.
fn line(command: &Command) -> CommandHelp {
    CommandHelp {
        name: command.name,
        usage: command.usage,
        about: command.about,
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
                return format!("`{prefix}{}`: {}", command.usage, command.about);
            }
            let game_commands = game.map(|rules| rules.commands()).unwrap_or(&[]);
            if let Some(help) = game_commands.iter().find(|help| help.name == word) {
                return format!("`{prefix}{}`: {}", help.usage, help.about);
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
