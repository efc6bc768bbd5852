//! The registry is the one home of every command, in the channel and by DM: each has a help
//! line, a slash command (or the reason it has none), and README's table of commands is the
//! registry's.

use referee::table::commands::{readme_table, Place, Slash, ORDER, REGISTRY};

/// README's table of commands: the lines between its two markers.
fn readme_commands() -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let start =
        "<!-- commands: generated from the registry, checked by tests/command_registry.rs -->\n";
    let from = readme
        .find(start)
        .expect("README has the commands' start marker")
        + start.len();
    let to = readme[from..]
        .find("<!-- end of commands -->")
        .expect("README has the commands' end marker");
    readme[from..from + to].to_string()
}

#[test]
fn every_command_has_a_help_line_and_a_slash_command_or_a_reason() {
    for command in REGISTRY {
        assert!(
            !command.about.trim().is_empty(),
            "{} has no help line",
            command.name
        );
        // Said as its word and what follows, but for an order by DM, which is what follows.
        let word = command.usage.starts_with(command.name) || command.name == ORDER.name;
        assert!(word, "{}", command.usage);
        match &command.slash {
            Slash::Options { options, .. } => {
                for option in options.iter() {
                    assert!(
                        !option.about.is_empty(),
                        "/{} {}",
                        command.name,
                        option.name
                    );
                }
            }
            Slash::None(reason) => assert!(
                reason.split_whitespace().count() >= 3,
                "{} has no slash command and no reason",
                command.name
            ),
        }
    }
}

#[test]
fn readmes_table_is_the_registrys() {
    let table = readme_table("!");
    for command in REGISTRY {
        let prefix = match command.place() {
            Place::Direct => "",
            Place::Channel | Place::Both => "!",
        };
        assert!(
            table.contains(&format!(
                "| `{prefix}{}` |",
                command.usage.replace('|', "\\|")
            )),
            "{} is not in the table",
            command.name
        );
    }
    assert_eq!(
        readme_commands(),
        table,
        "README's table of commands differs from the registry; put this between its markers:\n{table}"
    );
}

#[test]
fn slash_descriptions_are_whole_clauses_within_discords_limit() {
    for command in REGISTRY {
        let text = command.slash_description();
        assert!(
            !text.is_empty() && text.chars().count() <= 100,
            "/{}: {text}",
            command.name
        );
        assert_eq!(
            text.matches('(').count(),
            text.matches(')').count(),
            "/{}: {text}",
            command.name
        );
        assert!(!text.contains('!'), "/{}: {text}", command.name);
    }
    let said = |name: &str| {
        REGISTRY
            .iter()
            .find(|command| command.name == name)
            .map(|command| command.slash_description())
            .unwrap_or_default()
    };
    assert_eq!(
        said("deadline"),
        "Sets the current deadline, like 48h or 2026-12-01 18:00 UTC (the GM)"
    );
    assert_eq!(said("leave"), "Takes you out of the game");
    assert_eq!(
        said("undo"),
        "Takes back the last resolution or turn (the GM)"
    );
    assert_eq!(said("draw"), "Votes for a draw");
}

#[test]
fn what_is_said_by_dm_is_answered_privately_and_named_by_help_by_dm() {
    let help = referee::table::commands::dm_help(None);
    for command in REGISTRY.iter().filter(|c| c.place() != Place::Channel) {
        let direct = command.direct.as_ref().expect("a form by DM");
        if command.place() == Place::Direct {
            assert!(
                matches!(command.slash, Slash::Options { private: true, .. }),
                "/{} shows a DM's answer in the open",
                command.name
            );
        }
        let word = direct.usage.split_whitespace().next().unwrap_or_default();
        assert!(
            word.starts_with('<') || help.contains(&format!("`{word}")),
            "help by DM does not name `{word}`:\n{help}"
        );
    }
}

#[test]
fn every_alias_names_one_command_and_shadows_no_games_word() {
    use referee::table::commands::{find, parse_line};
    use referee::table::Catalogue;
    let mut table_words: Vec<&str> = Vec::new();
    for command in REGISTRY {
        table_words.push(command.name);
        table_words.extend(command.aliases.iter().copied());
        for alias in command.aliases {
            assert_eq!(find(alias).map(|c| c.name), Some(command.name), "{alias}");
        }
    }
    let mut unique = table_words.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), table_words.len(), "a word names two commands");
    // An alias is read as its command's name, so the log and the help say the name.
    assert_eq!(
        parse_line("!lb tag", "!"),
        Ok(Some(("leaderboard".to_string(), "tag".to_string())))
    );
    assert_eq!(
        parse_line("!RESIGN", "!"),
        Ok(Some(("concede".to_string(), String::new())))
    );
    for rules in Catalogue::standard().all() {
        let mut game_words: Vec<&str> = Vec::new();
        for command in rules.commands() {
            game_words.push(command.name);
            game_words.extend(command.aliases.iter().copied());
            for alias in command.aliases {
                // A table command would take the word first: the game's alias would never
                // reach the game.
                assert!(
                    find(alias).is_none(),
                    "{}'s alias {alias} is a table command",
                    rules.name()
                );
            }
        }
        let mut unique = game_words.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), game_words.len(), "{}", rules.name());
        for alias in REGISTRY.iter().flat_map(|command| command.aliases.iter()) {
            assert!(
                !game_words.contains(alias),
                "the table's alias {alias} hides a word of {}",
                rules.name()
            );
        }
    }
}
