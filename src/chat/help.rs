//! `!help` and `!help <command>`: the table's vocabulary plus the commands of the game at hand.

use crate::games::{CommandHelp, Rules};

/// The table's own channel commands.
pub const TABLE_COMMANDS: &[CommandHelp] = &[
    CommandHelp { name: "games", usage: "games", about: "lists the games this bot hosts" },
    CommandHelp { name: "help", usage: "help [command]", about: "lists the commands, or explains one" },
    CommandHelp { name: "new", usage: "new <game> [key=value ...]", about: "opens sign-ups for a game in this channel (one game per channel); table options: seed=<number or 64 hex digits>, deadline=<duration>, early=on|off, reminder=<duration>, max=<players>, plus the game's own options" },
    CommandHelp { name: "join", usage: "join [symbol or colour]", about: "signs you up for the game in this channel" },
    CommandHelp { name: "leave", usage: "leave", about: "takes you out of the game (before the start: off the sign-up list)" },
    CommandHelp { name: "start", usage: "start", about: "GM: starts the game with the players signed up" },
    CommandHelp { name: "board", usage: "board", about: "shows the board" },
    CommandHelp { name: "status", usage: "status", about: "shows the phase, who is awaited and the deadline" },
    CommandHelp { name: "log", usage: "log [round]", about: "shows the audit log of a round: every roll and resolution" },
    CommandHelp { name: "audit", usage: "audit", about: "posts the finished game's audit page: an HTML file in which your browser checks the seed against its commitment and every roll against the seed" },
    CommandHelp { name: "resolve", usage: "resolve", about: "GM: resolves the current round or turn now (missing orders take the game's default)" },
    CommandHelp { name: "deadline", usage: "deadline <duration|time>", about: "GM: sets the current deadline, like 48h or 2026-12-01 18:00 UTC" },
    CommandHelp { name: "kick", usage: "kick @player", about: "GM: removes a player from the game" },
    CommandHelp { name: "replace", usage: "replace @old @new", about: "GM: gives a player's seat to someone else" },
    CommandHelp { name: "pause", usage: "pause", about: "GM: stops the clock" },
    CommandHelp { name: "resume", usage: "resume", about: "GM: restarts the clock with the time that was left" },
    CommandHelp { name: "end", usage: "end", about: "GM: ends the game now and reveals the seed" },
];

/// The help text for the channel: the list, or one command explained.
pub fn channel_help(topic: Option<&str>, prefix: &str, game: Option<&dyn Rules>) -> String {
    let game_commands = game.map(|rules| rules.commands()).unwrap_or(&[]);
    match topic {
        None => {
            let mut text = format!(
                "Commands (type `{prefix}help <command>` for one):\n{}",
                list(TABLE_COMMANDS, prefix)
            );
            if let Some(rules) = game {
                text.push_str(&format!(
                    "\n{} commands:\n{}",
                    rules.name(),
                    list(game_commands, prefix)
                ));
                if !rules.orders().is_empty() {
                    text.push_str(&format!(
                        "\n{} orders by direct message to me:\n{}",
                        rules.name(),
                        list(rules.orders(), "")
                    ));
                }
            }
            text
        }
        Some(word) => {
            let found = TABLE_COMMANDS
                .iter()
                .chain(game_commands.iter())
                .find(|help| help.name == word);
            match found {
                Some(help) => format!("`{prefix}{}`: {}", help.usage, help.about),
                None => format!(
                    "There is no command `{prefix}{}`. `{prefix}help` lists them.",
                    super::parse::quote(word)
                ),
            }
        }
    }
}

/// The help text by direct message.
pub fn dm_help(game: Option<&dyn Rules>) -> String {
    let mut text = String::from(
        "By direct message: your secret orders, `status` (what you have submitted), `help`. \
         Put `#<game number>` in front when you sit in more than one game.",
    );
    if let Some(rules) = game {
        text.push_str(&format!(
            "\n{} orders:\n{}",
            rules.name(),
            list(rules.orders(), "")
        ));
    }
    text
}

fn list(commands: &[CommandHelp], prefix: &str) -> String {
    commands
        .iter()
        .map(|help| format!("`{prefix}{}`: {}", help.usage, help.about))
        .collect::<Vec<_>>()
        .join("\n")
}
