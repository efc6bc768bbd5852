//! `!rules [game]`: a game's rules for players, with every option `!new` takes and its
//! default (the channel's game when none is named); by DM, `rules <game>`.

use super::{Asked, Command, Direct, DmHelp, Reply, Run, SlashOption, Takes, Who};
use crate::chat::help::{rules_text, table_options_text, TABLE_OPTIONS};
use crate::chat::parse::quote;
use crate::table::lookup::Lookup;
use crate::table::options::table_option_help;
use crate::table::outcome::Outcome;

/// `!rules`.
pub const COMMAND: Command = Command::new(
    "rules",
    Who::Anyone,
    "the rules of a game and its options (`!rules options`: the options every game takes)",
    Run::Answer(answer),
)
.usage("rules [game]")
.takes_any_words()
.slash(&[SlashOption::game(
    "game",
    "Which game (the one in this channel if none)",
)])
.private()
.by_dm(
    Direct::answer("rules <game>", DmHelp::Listed("`rules <game>`"), by_dm)
        .takes(Takes::AtMostOneWord)
        .listed(3),
);

fn answer(asked: Asked<'_>) -> Reply<'_> {
    Box::pin(async move {
        let named = asked.args.split_whitespace().next().map(str::to_lowercase);
        let name = named.or_else(|| asked.game.map(|game| game.record.game.clone()));
        let typed = format!("{}rules", asked.prefix());
        Ok(match rules_answer(asked.table, name.as_deref(), &typed) {
            Ok(text) => {
                let mut outcome = Outcome::default();
                outcome.channel(asked.channel, text);
                outcome
            }
            Err(text) => asked.refuse(text),
        })
    })
}

/// `rules <game>` by DM (a message of more words is an order).
pub(super) fn by_dm(table: &dyn Lookup, args: &str) -> Option<Result<String, String>> {
    Some(rules_answer(table, Some(&args.to_lowercase()), "rules"))
}

/// `!rules <game>`: the game's rules and options, or why there is none to show.
/// `typed` is how `rules` is typed where it was asked: `!rules` in a channel, `rules` by
/// DM.
fn rules_answer(table: &dyn Lookup, name: Option<&str>, typed: &str) -> Result<String, String> {
    let prefix = &table.defaults().prefix;
    let names: Vec<&str> = table.catalogue().all().iter().map(|r| r.name()).collect();
    let Some(name) = name.filter(|name| !name.is_empty()) else {
        return Err(format!(
            "`{typed}` takes a game, like `{typed} {}`; the games are {}. `{typed} {TABLE_OPTIONS}` lists the options every game takes.",
            names[0],
            names.join(", ")
        ));
    };
    if name == TABLE_OPTIONS {
        return Ok(table_options_text(
            &table_option_help(table.defaults()),
            prefix,
        ));
    }
    let rules = table.catalogue().find(name).ok_or_else(|| {
        format!(
            "There is no game called '{}'. Games: {}.",
            quote(name),
            names.join(", ")
        )
    })?;
    Ok(rules_text(rules, typed, prefix))
}
