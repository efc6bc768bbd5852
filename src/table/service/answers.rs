//! What the read-only commands (`table::commands`) and `rules` by DM read: the channel's
//! game, a game's rules, a round's public log.

use super::Service;
use crate::chat::help::{rules_text, table_options_text, TABLE_OPTIONS};
use crate::chat::parse::quote;
use crate::records::{GameRecord, LogVisibility};
use crate::store::{GameRow, StoreError, Tx};
use crate::table::lifecycle;

impl Service {
    /// The channel's open game, or else its last one.
    pub(crate) async fn channel_game(
        &self,
        tx: &mut Tx,
        channel: &str,
        game: Option<&GameRow>,
    ) -> Result<Option<GameRecord>, StoreError> {
        Ok(match game {
            Some(game) => Some(game.record.clone()),
            None => tx
                .last_game_in_channel(channel)
                .await?
                .map(|game| game.record),
        })
    }

    /// `!rules <game>`: the game's rules and options, or why there is none to show.
    /// `typed` is how `rules` is typed where it was asked: `!rules` in a channel, `rules` by
    /// DM.
    pub(crate) fn rules_answer(&self, name: Option<&str>, typed: &str) -> Result<String, String> {
        let prefix = &self.defaults.prefix;
        let names: Vec<&str> = self.catalogue.all().iter().map(|r| r.name()).collect();
        let Some(name) = name.filter(|name| !name.is_empty()) else {
            return Err(format!(
                "`{typed}` takes a game, like `{typed} {}`; the games are {}. `{typed} {TABLE_OPTIONS}` lists the options every game takes.",
                names[0],
                names.join(", ")
            ));
        };
        if name == TABLE_OPTIONS {
            return Ok(table_options_text(
                &lifecycle::table_option_help(&self.defaults),
                prefix,
            ));
        }
        let rules = self.catalogue.find(name).ok_or_else(|| {
            format!(
                "There is no game called '{}'. Games: {}.",
                quote(name),
                names.join(", ")
            )
        })?;
        Ok(rules_text(rules, typed, prefix))
    }

    /// `!log`'s text: the public events of `round` (the current one, or the one before
    /// when it has none yet).
    pub(crate) async fn log_text(
        &self,
        tx: &mut Tx,
        record: &GameRecord,
        round: Option<u64>,
    ) -> Result<String, StoreError> {
        let mut wanted = round.unwrap_or(record.round);
        let mut events = tx.events(record.id, Some(wanted)).await?;
        if round.is_none()
            && events
                .iter()
                .all(|e| e.event.visibility != LogVisibility::Public)
            && wanted > 0
        {
            wanted -= 1;
            events = tx.events(record.id, Some(wanted)).await?;
        }
        let lines: Vec<String> = events
            .iter()
            .filter(|e| e.event.visibility == LogVisibility::Public)
            .map(|e| match e.undone {
                true => format!("- (undone by the GM) {}", e.event.line()),
                false => format!("- {}", e.event.line()),
            })
            .collect();
        Ok(if lines.is_empty() {
            format!(
                "Game #{}, round {wanted}: nothing public in the log.",
                record.id
            )
        } else {
            format!("Game #{}, round {wanted}:\n{}", record.id, lines.join("\n"))
        })
    }
}
