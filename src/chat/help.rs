//! `!help` and `!help <command>`: the table's vocabulary plus the commands of the game at hand.

use crate::games::{CommandHelp, Rules};

/// The table's own channel commands.
pub const TABLE_COMMANDS: &[CommandHelp] = &[
    CommandHelp { name: "games", usage: "games", about: "lists the games this bot hosts" },
    CommandHelp { name: "help", usage: "help [command or game]", about: "lists the commands, explains one, or lists a game's commands and orders" },
    CommandHelp { name: "rules", usage: "rules [game]", about: "the rules of a game for players, with every option `!new` takes and its default" },
    CommandHelp { name: "new", usage: "new <game> [key=value ...]", about: "opens sign-ups for a game in this channel (one game per channel); `!rules <game>` lists the options" },
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
    CommandHelp { name: "undo", usage: "undo", about: "GM: takes back the last resolution or turn (it stays in the log, marked undone; the dice are not rolled back)" },
    CommandHelp { name: "who", usage: "who", about: "shows each player's orders and turns on time, late and missed, and their last action" },
    CommandHelp { name: "concede", usage: "concede", about: "you leave the game, ranked last among the players still in" },
    CommandHelp { name: "draw", usage: "draw [no]", about: "votes for a draw (`!draw no` takes it back); the game ends in a draw when every player still in has voted" },
];

/// The help text for the channel: the list, one command explained, or a game's commands.
pub fn channel_help(
    topic: Option<&str>,
    prefix: &str,
    game: Option<&dyn Rules>,
    games: &[&'static dyn Rules],
) -> String {
    let game_commands = game.map(|rules| rules.commands()).unwrap_or(&[]);
    let (gm, players): (Vec<CommandHelp>, Vec<CommandHelp>) =
        TABLE_COMMANDS.iter().copied().partition(is_gm_power);
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
            let found = TABLE_COMMANDS
                .iter()
                .chain(game_commands.iter())
                .find(|help| help.name == word);
            if let Some(help) = found {
                return format!("`{prefix}{}`: {}", help.usage, help.about);
            }
            match games.iter().find(|rules| rules.name() == word) {
                Some(rules) => game_help(*rules, prefix),
                None => format!(
                    "There is no command or game `{}`. `{prefix}help` lists the commands, `{prefix}games` the games.",
                    super::parse::quote(word)
                ),
            }
        }
    }
}

/// Whether a command is one of the GM's powers (its help says so first).
fn is_gm_power(help: &CommandHelp) -> bool {
    help.about.starts_with("GM: ")
}

/// A game's own commands in the channel and orders by DM.
pub fn game_help(rules: &dyn Rules, prefix: &str) -> String {
    let mut text = if rules.commands().is_empty() {
        format!(
            "{} has no commands of its own in the channel.",
            rules.name()
        )
    } else {
        format!(
            "{} commands:\n{}",
            rules.name(),
            list(rules.commands(), prefix)
        )
    };
    if !rules.orders().is_empty() {
        text.push_str(&format!(
            "\n{} orders by direct message to me (no `{prefix}`):\n{}",
            rules.name(),
            list(rules.orders(), "")
        ));
    }
    text.push_str(&format!(
        "\n`{prefix}rules {}` explains the game.",
        rules.name()
    ));
    text
}

/// `!rules <game>`: what the game is, its rules for players, and every option with its
/// default; `table_options` are the table's own, the same for every game.
pub fn rules_text(rules: &dyn Rules, prefix: &str, table_options: &[(&str, String)]) -> String {
    let (least, most) = rules.players();
    let players = match most {
        Some(most) if most == least => format!("{least} players"),
        Some(most) => format!("{least} to {most} players"),
        None => format!("{least} or more players"),
    };
    let options: Vec<String> = rules
        .options()
        .iter()
        .map(|(key, about)| format!("- `{key}=`: {about}"))
        .collect();
    let table: Vec<String> = table_options
        .iter()
        .map(|(key, about)| format!("- `{key}=`: {about}"))
        .collect();
    let palette = rules.palette();
    let colours = match palette.is_empty() {
        true => String::new(),
        false => format!(
            "\n**Colours** (`{prefix}join <colour>`): {}.",
            palette.join(", ")
        ),
    };
    format!(
        "**{name}** ({players}). {about}\n{summary}{colours}\n**Options** of `{prefix}new {name} key=value ...`:\n{}\nFor every game:\n{}",
        if options.is_empty() { "- none of its own".to_string() } else { options.join("\n") },
        table.join("\n"),
        name = rules.name(),
        about = rules.about(),
        summary = rules.summary().trim_end(),
    )
}

/// `!games`: each game in one line with its options.
pub fn games_text(games: &[&'static dyn Rules], prefix: &str) -> String {
    let lines: Vec<String> = games
        .iter()
        .map(|rules| {
            let keys: Vec<String> = rules
                .options()
                .iter()
                .map(|(key, _)| format!("`{key}`"))
                .collect();
            format!(
                "`{}`: {}. Options: {}.",
                rules.name(),
                rules.about().trim_end_matches('.'),
                if keys.is_empty() {
                    "none of its own".to_string()
                } else {
                    keys.join(", ")
                }
            )
        })
        .collect();
    format!(
        "Games (start one with `{prefix}new <game>`; `{prefix}rules <game>` explains it and its options):\n{}",
        lines.join("\n")
    )
}

/// The help text by direct message: the DM vocabulary, and the game's orders if it has any.
pub fn dm_help(game: Option<&dyn Rules>) -> String {
    let orders = game.map(|rules| rules.orders()).unwrap_or(&[]);
    let mut text = format!(
        "By direct message to me, no prefix: {}`status` (where you stand and what you have sent), `help`, `rules <game>`. Put `#<game number>` in front when you sit in more than one game, like `#3 status`. Away for a while? `vacation 5d` tells the table (`vacation off` when you are back).",
        if orders.is_empty() && game.is_some() { "" } else { "your secret orders, " }
    );
    if let (Some(rules), false) = (game, orders.is_empty()) {
        text.push_str(&format!("\n{} orders:\n{}", rules.name(), list(orders, "")));
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
