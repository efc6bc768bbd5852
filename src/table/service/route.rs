//! A message to its game: a channel command finds the channel's game (or its last one, for
//! what may be asked after the end), a direct message the sender's game; chatter is looked at
//! for a secret order typed in the open; what is left becomes the input applied.

use super::{At, Handled, Service};
use crate::chat::parse::{mentions as parse_mentions, quote};
use crate::games;
use crate::records::{Audience, Input, Status, User};
use crate::store::{StoreError, Tx, UserGames};
use crate::table::chatter::{is_exposed_order, missing_prefix};
use crate::table::commands::{self, Among, Asked, DirectRun, Prepared, Preparing, Run};
use crate::table::outcome::Outcome;

/// A channel message as the table reads it.
pub(super) struct Said<'a> {
    /// Who said it.
    pub(super) user: &'a User,
    /// Whether they are a server admin.
    pub(super) admin: bool,
    /// The words.
    pub(super) text: &'a str,
    /// The users the message mentions, as the platform names them.
    pub(super) mentioned: &'a [User],
    /// The server it was posted on, where the platform has servers.
    pub(super) server: Option<&'a str>,
}

impl Service {
    pub(super) async fn channel(
        &self,
        tx: &mut Tx,
        channel: &str,
        said: Said<'_>,
        at: At,
    ) -> Result<Handled, StoreError> {
        let Said {
            user,
            admin,
            text,
            mentioned,
            server,
        } = said;
        let prefix = &self.defaults.prefix;
        let mut outcome = Outcome::default();
        let refuse = |text: String| {
            Ok(Outcome::refusal(
                Audience::Channel(channel.to_string()),
                format!("{}: {text}", user.name),
            )
            .into())
        };
        // A player's private thread: what they say there is what they would say by DM to that
        // game, and what answers them alone goes there.
        if let Some((game, owner)) = tx.thread_owner(channel).await? {
            if owner != user.id {
                return refuse(format!(
                    "this is {}'s private thread for game #{game}: only they send orders here.",
                    crate::chat::mention::user(&owner)
                ));
            }
            let mut handled = self
                .direct(tx, user, &format!("#{game} {text}"), at)
                .await?;
            for post in &mut handled.outcome.posts {
                if post.to == Audience::Direct(user.id.clone()) {
                    post.to = Audience::Channel(channel.to_string());
                }
            }
            return Ok(handled);
        }
        let (word, args) = match commands::parse_line(text, prefix) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => {
                // Chatter, unless it is a player's secret order typed in the open, or the
                // move of the player whose turn it is, typed without the prefix.
                if let Ok(Some(game)) = tx.game_in_channel(channel).await {
                    let record = &game.record;
                    outcome.exposed_order =
                        is_exposed_order(record, &self.catalogue, user, text, prefix);
                    if !outcome.exposed_order {
                        if let Some(hint) =
                            missing_prefix(record, &self.catalogue, user, text, prefix, at.now)
                        {
                            outcome.channel(channel, hint);
                        }
                    }
                }
                return Ok(outcome.into());
            }
            Err(error) => return refuse(error.0),
        };
        let command = commands::find(&word);
        // A command that looks back (`!board`, `!status`, and `!undo` or `!concede` with the
        // reason they cannot change it) still answers about a channel's last game after the
        // end.
        let looks_back = command.is_some_and(|command| command.after_end);
        let found = match tx.game_in_channel(channel).await {
            Ok(None) if looks_back => tx.last_game_in_channel(channel).await,
            found => found,
        };
        let game = match found {
            Ok(game) => game,
            Err(StoreError::Corrupt { what, reason }) => {
                return refuse(commands::unreadable_save(&what, &reason));
            }
            Err(error) => return Err(error),
        };
        if let Some(prepare) = command.and_then(|command| command.prepare) {
            let preparing = Preparing {
                table: self,
                tx,
                channel,
                user,
                admin,
                game: game.map(|game| game.record),
                args: &args,
                server,
            };
            return match prepare(preparing).await? {
                Err(text) => refuse(text),
                Ok(Prepared {
                    game,
                    input,
                    undo,
                    moved_from,
                }) => {
                    let handled = self.apply_input(tx, game, input, at, undo.as_ref()).await?;
                    if let (Some(from), Some(_)) = (moved_from, &handled.change) {
                        // What was still to be posted at the old home follows the game.
                        tx.readdress(&from, &Audience::Channel(channel.to_string()))
                            .await?;
                    }
                    Ok(handled)
                }
            };
        }
        match command.map(|command| &command.run) {
            Some(Run::Answer(answer)) => {
                let server = match server {
                    Some(server) => server.to_string(),
                    None => tx.channel_server(channel).await?,
                };
                let asked = Asked {
                    table: self,
                    tx,
                    channel,
                    user,
                    game: game.as_ref(),
                    args: &args,
                    mentioned,
                    server: &server,
                };
                Ok(answer(asked).await?.into())
            }
            // A table command applied to the game, or else the game's own action, unless it
            // is a secret order typed in the open.
            // (Read as parsed, so `!play bid 5` is looked at as `!bid 5`.)
            None if game.as_ref().is_some_and(|game| {
                let line = format!("{prefix}{word} {args}");
                is_exposed_order(&game.record, &self.catalogue, user, &line, prefix)
            }) =>
            {
                outcome.exposed_order = true;
                Ok(outcome.into())
            }
            // Said only by DM: its words, when secret (`!order bid 5`), are deleted as a
            // secret order typed in the open is; else the sender is told where to say it.
            Some(Run::DirectOnly) => match command {
                Some(command)
                    if !args.is_empty()
                        && command.direct.as_ref().is_some_and(|direct| direct.secret) =>
                {
                    outcome.exposed_order = true;
                    Ok(outcome.into())
                }
                Some(command) => refuse(commands::only_by_dm(command, prefix)),
                None => Ok(outcome.into()),
            },
            None | Some(Run::Apply(_) | Run::Action | Run::Rebuild(_) | Run::Open(_)) => {
                // A command for a game after the channel's game ended: one answer for all.
                if game.is_none() {
                    match tx.last_game_in_channel(channel).await {
                        Ok(Some(last)) if last.record.status == Status::Over => {
                            return refuse(crate::table::rounds::over(&last.record, prefix).0);
                        }
                        Ok(_) | Err(StoreError::Corrupt { .. }) => {}
                        Err(error) => return Err(error),
                    }
                }
                // Only the users a command names need a name from the platform (the new
                // player of `!replace`).
                let named = parse_mentions(&args);
                let mentioned = mentioned
                    .iter()
                    .filter(|user| named.contains(&user.id))
                    .cloned()
                    .collect();
                // A game's action is logged by its name, whatever alias was typed.
                let action = game
                    .as_ref()
                    .filter(|_| command.is_none())
                    .and_then(|game| self.catalogue.find(&game.record.game))
                    .and_then(|rules| games::declared(rules.commands(), &word));
                let word = action.map_or(word.as_str(), |declared| declared.name);
                let input = Input::Channel {
                    channel: channel.to_string(),
                    user: user.clone(),
                    admin,
                    text: format!("{word} {args}").trim_end().to_string(),
                    command: None,
                    mentioned,
                    computer: false,
                };
                self.apply_input(tx, game.map(|g| g.record), input, at, None)
                    .await
            }
        }
    }

    pub(super) async fn direct(
        &self,
        tx: &mut Tx,
        user: &User,
        text: &str,
        at: At,
    ) -> Result<Handled, StoreError> {
        let refuse =
            |text: String| Ok(Outcome::refusal(Audience::Direct(user.id.clone()), text).into());
        let (named, said) = match commands::game_named(text) {
            Ok(read) => read,
            Err(error) => return refuse(error.0),
        };
        let (command, direct, args) = match commands::read_direct(said) {
            Ok(read) => (read.command, read.direct, read.args),
            Err(error) => return refuse(error.0),
        };
        let (early, alone) = match &direct.run {
            DirectRun::Answer(early) => (Some(early), None),
            DirectRun::Apply { early, alone, .. } => (early.as_ref(), alone.as_ref()),
        };
        if let Some(answer) = early.and_then(|early| early(self, args)) {
            return match answer {
                Ok(text) => {
                    let mut outcome = Outcome::default();
                    outcome.direct(&user.id, text);
                    Ok(outcome.into())
                }
                Err(text) => refuse(text),
            };
        }
        let mut only = None;
        let candidates = match (named, direct.among) {
            (Some(id), _) => vec![id],
            (None, Among::MySignUps) => tx.games_in_signup_of_gm(&user.id).await?,
            (None, Among::Mine) => match tx.games_of_user_or_only(&user.id).await? {
                UserGames::Only(id, game) => {
                    only = Some(*game);
                    vec![id]
                }
                UserGames::Numbers(ids) => ids,
            },
        };
        let id = match candidates.as_slice() {
            [id] => *id,
            [] => {
                if let Some(alone) = alone {
                    let mut outcome = Outcome::default();
                    outcome.direct(&user.id, alone());
                    return Ok(outcome.into());
                }
                let text = match direct.among {
                    Among::MySignUps => "You are not the GM of any game in sign-up. Open one with `!new <game>` in a channel first.".to_string(),
                    Among::Mine => format!(
                        "You are not playing in any game, so '{}' was not taken as an order. Sign up with `{}join` in a game's channel.",
                        quote(text),
                        self.defaults.prefix
                    ),
                };
                return refuse(text);
            }
            several => {
                let list: Vec<String> = several.iter().map(|id| format!("#{id}")).collect();
                let (example, awaits) = self
                    .game_awaiting(tx, &user.id, several, &dm_text(text))
                    .await?;
                let awaits = awaits
                    .map(|label| format!(" (game #{example} awaits your {label})"))
                    .unwrap_or_default();
                return refuse(format!(
                    "You are in several games ({}). Put the game's number first, like `#{example} {}`{awaits}.",
                    list.join(", "),
                    quote(&dm_text(text))
                ));
            }
        };
        let found = match only {
            Some(read) => read.map(Some),
            None => tx.game(id).await,
        };
        let game = match found {
            Ok(Some(game)) => game,
            Ok(None) => return refuse(format!("There is no game #{id}.")),
            Err(StoreError::Corrupt { what, reason }) => {
                return refuse(format!(
                    "The saved {what} is unreadable ({reason}); nothing was changed."
                ))
            }
            Err(error) => return Err(error),
        };
        let text = match command.name == commands::SETUP.name {
            true => commands::salted(&dm_text(text)),
            false => dm_text(text),
        };
        let input = Input::Direct {
            user: user.clone(),
            text,
            command: None,
            computer: false,
        };
        self.apply_input(tx, Some(game.record), input, at, None)
            .await
    }
}

impl Service {
    /// Of the sender's games `ids`, the one a direct message `said` without a game number
    /// most likely meant, for the hint that asks for the number: one whose game takes its
    /// first word as an order and awaits an order from them now (with what it awaits), else
    /// one whose game takes that word, else the first.
    async fn game_awaiting(
        &self,
        tx: &mut Tx,
        user: &str,
        ids: &[i64],
        said: &str,
    ) -> Result<(i64, Option<String>), StoreError> {
        let word = said
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_lowercase();
        let mut takes_it = None;
        for &id in ids {
            let record = match tx.game(id).await {
                Ok(Some(game)) => game.record,
                Ok(None) | Err(StoreError::Corrupt { .. }) => continue,
                Err(error) => return Err(error),
            };
            let takes = self
                .catalogue
                .find(&record.game)
                .is_some_and(|rules| rules.orders().iter().any(|order| order.is(&word)));
            if !takes {
                continue;
            }
            let awaited = record.seat_of(user).and_then(|seat| match &record.phase {
                Some(crate::records::Phase::Orders { seats, label }) if seats.contains(&seat) => {
                    Some(label.clone())
                }
                _ => None,
            });
            if awaited.is_some() {
                return Ok((id, awaited));
            }
            takes_it.get_or_insert(id);
        }
        Ok((takes_it.unwrap_or(ids[0]), None))
    }
}

/// A direct message as logged: without the game number in front (the input is the game's),
/// nor the channel's mark a player may type by habit (`!bid 3` by DM is `bid 3`).
fn dm_text(text: &str) -> String {
    let text = text.trim();
    let said = match text.strip_prefix('#') {
        Some(rest) => rest
            .split_once(char::is_whitespace)
            .map_or("", |(_, rest)| rest)
            .trim(),
        None => text,
    };
    said.trim_start_matches(['!', '/']).to_string()
}
