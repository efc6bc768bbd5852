//! The table as a service: one inbound message = one database transaction. It parses the
//! text, finds the game, applies the input with the pure core, and writes the new record, the
//! replay and audit logs, the outbox rows and the message id (the idempotency key) together.

use super::apply::{apply, table_time, Env, Input, TableDefaults};
use super::card::{board_card, choice_buttons, join_button, Card};
use super::catalogue::Catalogue;
use super::outcome::{Audience, LogVisibility, Outcome, Post};
use super::record::{GameRecord, Status, User};
use crate::chat::help::{channel_help, dm_help};
use crate::chat::parse::quote;
use crate::chat::{parse_channel, parse_dm, ChannelCommand, DmCommand};
use crate::dice::Seed;
use crate::games::{Game, Phase};
use crate::store::{GameChange, OutboxPost, Store, StoreError, Tx, UserGames};
use chrono::{DateTime, Utc};
use tracing::{info_span, warn, Instrument};

/// A message as it arrives from a platform.
#[derive(Clone, Debug)]
pub enum Inbound {
    /// Posted in a channel.
    Channel {
        /// The channel's id.
        channel: String,
        /// The poster.
        user: User,
        /// Whether the poster is a server admin.
        admin: bool,
        /// The text.
        text: String,
    },
    /// Sent to the bot by direct message.
    Direct {
        /// The sender.
        user: User,
        /// The text.
        text: String,
    },
}

/// What handling one message produced, before it is written: the outcome (posts and events),
/// and the game's new record when the input changed it.
struct Handled {
    outcome: Outcome,
    change: Option<Changed>,
}

/// A game the input changed: its new record, and the input for the replay log.
struct Changed {
    record: GameRecord,
    seats_changed: bool,
    input: Input,
}

impl From<Outcome> for Handled {
    fn from(outcome: Outcome) -> Handled {
        Handled {
            outcome,
            change: None,
        }
    }
}

/// Writes what a message produced: the change (record, input, events) and every post, in one
/// batch.
async fn write(tx: &mut Tx, handled: &Handled, now: DateTime<Utc>) -> Result<(), StoreError> {
    let posts: Vec<OutboxPost> = handled
        .outcome
        .posts
        .iter()
        .map(|post| OutboxPost {
            to: &post.to,
            text: &post.text,
            svg: post.svg.as_deref(),
            card: post.card.as_ref(),
        })
        .collect();
    let change = handled.change.as_ref().map(|changed| GameChange {
        record: &changed.record,
        seats_changed: changed.seats_changed,
        input: Some(&changed.input),
        events: &handled.outcome.events,
    });
    tx.write(change.as_ref(), &posts, now).await
}

/// The table, bound to a database.
#[derive(Clone)]
pub struct Service {
    store: Store,
    catalogue: Catalogue,
    defaults: TableDefaults,
}

impl Service {
    /// A table over this store, hosting these games.
    pub fn new(store: Store, catalogue: Catalogue, defaults: TableDefaults) -> Service {
        Service {
            store,
            catalogue,
            defaults,
        }
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The games on offer.
    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    /// The configured defaults.
    pub fn defaults(&self) -> &TableDefaults {
        &self.defaults
    }

    /// Handles one inbound message exactly once: a message id seen before changes nothing.
    pub async fn handle(
        &self,
        message_id: &str,
        inbound: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let now = table_time(now);
        let span = match inbound {
            Inbound::Channel { channel, user, .. } => {
                info_span!("message", id = message_id, channel = %channel, user = %user.name)
            }
            Inbound::Direct { user, .. } => info_span!("dm", id = message_id, user = %user.name),
        };
        async {
            let mut tx = self.store.begin().await?;
            if !tx.claim(message_id, now).await? {
                return Ok(());
            }
            let handled = match inbound {
                Inbound::Channel {
                    channel,
                    user,
                    admin,
                    text,
                } => {
                    self.channel(&mut tx, channel, user, *admin, text, now)
                        .await?
                }
                Inbound::Direct { user, text } => self.direct(&mut tx, user, text, now).await?,
            };
            write(&mut tx, &handled, now).await?;
            tx.commit().await
        }
        .instrument(span)
        .await
    }

    async fn channel(
        &self,
        tx: &mut Tx,
        channel: &str,
        user: &User,
        admin: bool,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<Handled, StoreError> {
        let prefix = &self.defaults.prefix;
        let mut outcome = Outcome::default();
        let command = match parse_channel(text, prefix) {
            Ok(Some(command)) => command,
            Ok(None) => return Ok(outcome.into()),
            Err(error) => {
                outcome.channel(channel, format!("{}: {}", user.name, error.0));
                return Ok(outcome.into());
            }
        };
        // `!board` and `!status` still answer about a channel's last game after it ended.
        let looks_back = matches!(command, ChannelCommand::Board | ChannelCommand::Status);
        let found = match tx.game_in_channel(channel).await {
            Ok(None) if looks_back => tx.last_game_in_channel(channel).await,
            found => found,
        };
        let game = match found {
            Ok(game) => game,
            Err(StoreError::Corrupt { what, reason }) => {
                outcome.channel(
                    channel,
                    format!(
                        "{}: the saved {what} is unreadable ({reason}); nothing was changed.",
                        user.name
                    ),
                );
                return Ok(outcome.into());
            }
            Err(error) => return Err(error),
        };
        match command {
            ChannelCommand::Games => {
                let lines: Vec<String> = self
                    .catalogue
                    .all()
                    .iter()
                    .map(|rules| format!("`{}`: {}", rules.name(), rules.about()))
                    .collect();
                outcome.channel(
                    channel,
                    format!(
                        "Games (start one with `{prefix}new <game>`):\n{}",
                        lines.join("\n")
                    ),
                );
                Ok(outcome.into())
            }
            ChannelCommand::Help(topic) => {
                let rules = game
                    .as_ref()
                    .and_then(|g| self.catalogue.find(&g.record.game));
                outcome.channel(channel, channel_help(topic.as_deref(), prefix, rules));
                Ok(outcome.into())
            }
            ChannelCommand::Log(round) => {
                let game = match game {
                    Some(game) => Some(game),
                    None => tx.last_game_in_channel(channel).await?,
                };
                match game {
                    Some(game) => {
                        outcome.channel(channel, self.log_text(tx, &game.record, round).await?)
                    }
                    None => outcome.channel(
                        channel,
                        format!("{}: there is no game in this channel.", user.name),
                    ),
                }
                Ok(outcome.into())
            }
            command => {
                let command = match command {
                    ChannelCommand::New { game, mut options } => {
                        if !options.iter().any(|(key, _)| key == "seed") {
                            options.push(("seed".to_string(), Seed::random().to_hex()));
                        }
                        ChannelCommand::New { game, options }
                    }
                    command => command,
                };
                let input = Input::Channel {
                    channel: channel.to_string(),
                    user: user.clone(),
                    admin,
                    command,
                };
                self.apply_input(tx, game.map(|g| g.record), input, now)
                    .await
            }
        }
    }

    async fn direct(
        &self,
        tx: &mut Tx,
        user: &User,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<Handled, StoreError> {
        let mut outcome = Outcome::default();
        let dm = match parse_dm(text) {
            Ok(dm) => dm,
            Err(error) => {
                outcome.direct(&user.id, error.0);
                return Ok(outcome.into());
            }
        };
        let mut only = None;
        let candidates = match (&dm.game, &dm.command) {
            (Some(id), _) => vec![*id],
            (None, DmCommand::Setup(_)) => tx.games_in_signup_of_gm(&user.id).await?,
            (None, _) => match tx.games_of_user_or_only(&user.id).await? {
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
                let text = match dm.command {
                    DmCommand::Help => dm_help(None),
                    DmCommand::Setup(_) => "You are not the GM of any game in sign-up. Open one with `!new <game>` in a channel first.".to_string(),
                    _ => format!(
                        "You are not playing in any game, so '{}' was not taken as an order. Sign up with `{}join` in a game's channel.",
                        quote(text),
                        self.defaults.prefix
                    ),
                };
                outcome.direct(&user.id, text);
                return Ok(outcome.into());
            }
            several => {
                let list: Vec<String> = several.iter().map(|id| format!("#{id}")).collect();
                outcome.direct(
                    &user.id,
                    format!(
                        "You are in several games ({}). Put the game's number first, like `#{} {}`.",
                        list.join(", "),
                        several[0],
                        quote(text)
                    ),
                );
                return Ok(outcome.into());
            }
        };
        let found = match only {
            Some(read) => read.map(Some),
            None => tx.game(id).await,
        };
        let game = match found {
            Ok(Some(game)) => game,
            Ok(None) => {
                outcome.direct(&user.id, format!("There is no game #{id}."));
                return Ok(outcome.into());
            }
            Err(StoreError::Corrupt { what, reason }) => {
                outcome.direct(
                    &user.id,
                    format!("The saved {what} is unreadable ({reason}); nothing was changed."),
                );
                return Ok(outcome.into());
            }
            Err(error) => return Err(error),
        };
        let input = Input::Direct {
            user: user.clone(),
            command: dm.command,
        };
        self.apply_input(tx, Some(game.record), input, now).await
    }

    /// Applies an input to a game (or to no game yet, for `!new`) with the pure core, and
    /// gives the posts their cards; what is to be written comes back with the outcome.
    async fn apply_input(
        &self,
        tx: &mut Tx,
        record: Option<GameRecord>,
        input: Input,
        now: DateTime<Utc>,
    ) -> Result<Handled, StoreError> {
        let new_id = match record {
            Some(_) => 0,
            None => tx.next_game_id().await?,
        };
        let env = Env::new(&self.catalogue, &self.defaults, now);
        let applied = {
            let _span = info_span!("apply", game = record.as_ref().map(|r| r.id)).entered();
            apply(record.as_ref(), &input, new_id, &env)
        };
        let mut outcome = applied.outcome;
        if let Some(game) = applied.record.as_ref().or(record.as_ref()) {
            self.add_cards(tx, &mut outcome, game).await?;
        }
        let change = match applied.record {
            Some(new) if applied.changed => {
                let people = |r: &GameRecord| -> Vec<(String, bool)> {
                    r.seats
                        .iter()
                        .chain(r.waitlist.iter())
                        .map(|s| (s.user.id.clone(), s.present))
                        .collect()
                };
                let seats_changed = record
                    .as_ref()
                    .is_none_or(|old| people(old) != people(&new));
                Some(Changed {
                    record: new,
                    seats_changed,
                    input,
                })
            }
            _ => None,
        };
        Ok(Handled { outcome, change })
    }

    /// Gives the posts about `game` their cards, from the record as this input left it (no
    /// second read of the game): board posts get the title and the players; the last post to
    /// an audience gets the buttons of the choices open now.
    async fn add_cards(
        &self,
        tx: &mut Tx,
        outcome: &mut Outcome,
        game: &GameRecord,
    ) -> Result<(), StoreError> {
        for index in 0..outcome.posts.len() {
            let post = &outcome.posts[index];
            let last = !outcome.posts[index + 1..].iter().any(|p| p.to == post.to);
            let mut card = self.card(post, last, game, false);
            // Secret orders of a player in several games must name the game.
            if let (Some(found), Audience::Direct(user)) = (&card, &post.to) {
                if found.buttons.iter().any(|b| b.direct) && tx.games_of_user(user).await?.len() > 1
                {
                    card = self.card(post, last, game, true);
                }
            }
            outcome.posts[index].card = card.filter(|card| !card.is_empty());
        }
        Ok(())
    }

    /// The card of a post about `game` (`None`: a post to another place).
    fn card(&self, post: &Post, last: bool, game: &GameRecord, several: bool) -> Option<Card> {
        let prefix = &self.defaults.prefix;
        let mut card = Card::default();
        match &post.to {
            Audience::Channel(channel) if *channel == game.channel => {
                if post.svg.is_some() {
                    card = board_card(game);
                }
                if last {
                    match (&game.status, &game.phase) {
                        (Status::SignUp, _) => card.buttons.push(join_button(prefix)),
                        (Status::Running, Some(Phase::Turn { seat })) => {
                            if let (Some(loaded), Some(who)) =
                                (self.load(game), game.seats.get(*seat))
                            {
                                card.buttons = choice_buttons(
                                    loaded.choices(*seat, None),
                                    &who.user.id,
                                    prefix,
                                    None,
                                );
                            }
                        }
                        _ => {}
                    }
                }
            }
            Audience::Direct(user) if last => {
                let (Status::Running, Some(Phase::Orders { .. }), Some(seat)) =
                    (&game.status, &game.phase, game.seat_of(user))
                else {
                    return None;
                };
                let order = game.orders.get(&seat).map(|o| o.text.as_str());
                let loaded = self.load(game)?;
                card.buttons = choice_buttons(
                    loaded.choices(seat, order),
                    user,
                    prefix,
                    several.then_some(game.id),
                );
            }
            _ => return None,
        }
        Some(card)
    }

    /// The game of a record, loaded from its saved state (`None`: not started or unreadable).
    fn load(&self, record: &GameRecord) -> Option<Box<dyn Game>> {
        let rules = self.catalogue.find(&record.game)?;
        rules.load(record.state.as_ref()?).ok()
    }

    async fn log_text(
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
            .map(|e| format!("- {}", e.event.line()))
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

    /// Fires every deadline and reminder due at `now`, each in its own transaction, each
    /// exactly once. Returns how many fired.
    pub async fn fire_due(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let now = table_time(now);
        let mut fired = 0;
        loop {
            let due = self.store.due(now).await?;
            let Some((id, _)) = due.first().copied() else {
                return Ok(fired);
            };
            let span = info_span!("deadline", game = id);
            let progressed = async {
                let mut tx = self.store.begin().await?;
                let Some(game) = tx.game(id).await? else {
                    return Ok::<bool, StoreError>(false);
                };
                let input = if game.record.deadline.is_some_and(|at| at <= now) {
                    Input::Deadline
                } else {
                    Input::Reminder
                };
                let handled = self
                    .apply_input(&mut tx, Some(game.record), input, now)
                    .await?;
                let changed = !handled.outcome.events.is_empty();
                write(&mut tx, &handled, now).await?;
                tx.commit().await?;
                Ok(changed)
            }
            .instrument(span)
            .await?;
            if !progressed {
                warn!(
                    game = id,
                    "a due deadline changed nothing; it is cleared to avoid a loop"
                );
                self.clear_due(id, now).await?;
            }
            fired += 1;
        }
    }

    async fn clear_due(&self, id: i64, now: DateTime<Utc>) -> Result<(), StoreError> {
        let mut tx = self.store.begin().await?;
        if let Some(mut game) = tx.game(id).await? {
            game.record.deadline = None;
            game.record.remind_at = None;
            let change = GameChange {
                record: &game.record,
                seats_changed: false,
                input: None,
                events: &[],
            };
            tx.write(Some(&change), &[], now).await?;
        }
        tx.commit().await
    }
}
