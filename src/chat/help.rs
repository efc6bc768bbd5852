//! The words about games: a game's commands and orders, its rules and options, the list of
//! games. The table's own commands, and the help by direct message, are listed from its
//! registry (`table::commands`).

use crate::games::{CommandHelp, Rules};

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

/// Commands one per line, as `!help` lists them: usage and what it does.
pub fn list(commands: &[CommandHelp], prefix: &str) -> String {
    commands
        .iter()
        .map(|help| {
            format!(
                "`{prefix}{}`{}: {}",
                help.usage,
                help.also(prefix),
                help.about
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
