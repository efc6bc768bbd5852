//! Read-only answers: `!games`, `!help`, `!rules` (and `rules` by DM), `!log` and
//! `!audit`. They change nothing, so no input is logged for them.

use super::Service;
use crate::chat::help::{channel_help, games_text, rules_text};
use crate::chat::parse::quote;
use crate::chat::ChannelCommand;
use crate::records::{Attachment, Audience, GameRecord, LogVisibility, Status, User};
use crate::store::{GameRow, StoreError, Tx};
use crate::table::audit;
use crate::table::lifecycle;
use crate::table::outcome::{Outcome, Post};

impl Service {
    /// The answer to a channel command that only reads, asked by `user` in `channel` whose
    /// game (open, or the last one for what may be asked after the end) is `game`; `None`:
    /// the command is applied to the game instead.
    pub(super) async fn read_only(
        &self,
        tx: &mut Tx,
        channel: &str,
        user: &User,
        command: &ChannelCommand,
        game: Option<&GameRow>,
    ) -> Result<Option<Outcome>, StoreError> {
        let prefix = &self.defaults.prefix;
        let mut outcome = Outcome::default();
        let to = Audience::Channel(channel.to_string());
        let refused = |text: String| Outcome::refusal(to.clone(), format!("{}: {text}", user.name));
        match command {
            ChannelCommand::Games => {
                outcome.channel(channel, games_text(self.catalogue.all(), prefix));
            }
            ChannelCommand::Help(topic) => {
                let rules = game.and_then(|g| self.catalogue.find(&g.record.game));
                outcome.channel(
                    channel,
                    channel_help(topic.as_deref(), prefix, rules, self.catalogue.all()),
                );
            }
            ChannelCommand::Rules(name) => {
                let name = name.clone().or_else(|| game.map(|g| g.record.game.clone()));
                match self.rules_answer(name.as_deref(), &format!("{prefix}rules")) {
                    Ok(text) => outcome.channel(channel, text),
                    Err(text) => return Ok(Some(refused(text))),
                }
            }
            ChannelCommand::Log(round) => {
                let Some(record) = self.channel_game(tx, channel, game).await? else {
                    return Ok(Some(refused(
                        "there is no game in this channel.".to_string(),
                    )));
                };
                outcome.channel(channel, self.log_text(tx, &record, *round).await?);
            }
            ChannelCommand::Audit => {
                let Some(record) = self.channel_game(tx, channel, game).await? else {
                    return Ok(Some(refused(
                        "there is no game in this channel.".to_string(),
                    )));
                };
                let id = record.id;
                if record.status != Status::Over {
                    return Ok(Some(refused(format!(
                        "game #{id} is still running; its audit page is posted once it is over. `{prefix}log` shows what is public now."
                    ))));
                }
                let events = tx.events(id, None).await?;
                let inputs = tx.inputs(id).await?;
                outcome.posts.push(Post {
                    to,
                    text: format!(
                        "Game #{id}: the audit page. Open it in a browser: with nothing from the network it checks the seed against the commitment posted at the start, and every roll against the seed."
                    ),
                    svg: None,
                    card: None,
                    file: Some(Attachment {
                        name: format!("game-{id}-audit.html"),
                        text: audit::page(self, &record, &events, &inputs),
                    }),
                });
            }
            _ => return Ok(None),
        }
        Ok(Some(outcome))
    }

    /// The channel's open game, or else its last one.
    async fn channel_game(
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
    pub(super) fn rules_answer(&self, name: Option<&str>, typed: &str) -> Result<String, String> {
        let prefix = &self.defaults.prefix;
        let names: Vec<&str> = self.catalogue.all().iter().map(|r| r.name()).collect();
        let Some(name) = name.filter(|name| !name.is_empty()) else {
            return Err(format!(
                "`{typed}` takes a game, like `{typed} {}`; the games are {}.",
                names[0],
                names.join(", ")
            ));
        };
        let rules = self.catalogue.find(name).ok_or_else(|| {
            format!(
                "There is no game called '{}'. Games: {}.",
                quote(name),
                names.join(", ")
            )
        })?;
        Ok(rules_text(
            rules,
            prefix,
            &lifecycle::table_option_help(&self.defaults),
        ))
    }

    pub(super) async fn log_text(
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
