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

/// The word after `!rules` that asks for the options every game takes.
pub const TABLE_OPTIONS: &str = "options";

/// `!rules <game>`: the game's rules for players, and its own options with their
/// defaults; the table's options, the same for every game, are behind `!rules options`.
pub fn rules_text(rules: &dyn Rules, typed: &str, prefix: &str) -> String {
    let (least, most) = rules.players();
    let players = match most {
        Some(most) if most == least => format!("{least} players"),
        Some(most) => format!("{least} to {most} players"),
        None => format!("{least} or more players"),
    };
    let options: Vec<String> = rules
        .options()
        .iter()
        .map(|option| format!("- `{}=`: {}", option.key, option.about))
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
        "**{name}** ({players}). {summary}{colours}\n**Options** of `{prefix}new {name} key=value ...`:\n{}\n`{typed} {TABLE_OPTIONS}`: the options every game takes.",
        if options.is_empty() { "- none of its own".to_string() } else { options.join("\n") },
        name = rules.name(),
        summary = rules.summary().trim_end(),
    )
}

/// `!rules options`: the table's options, which every game takes, with their defaults.
pub fn table_options_text(table_options: &[(&str, String)], prefix: &str) -> String {
    let lines: Vec<String> = table_options
        .iter()
        .map(|(key, about)| format!("- `{key}=`: {about}"))
        .collect();
    format!(
        "**Options for every game** (`{prefix}new <game> key=value ...`):\n{}",
        lines.join("\n")
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
                .map(|option| format!("`{}`", option.key))
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
