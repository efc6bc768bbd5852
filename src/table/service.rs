//! The table as a service: one inbound message = one savepoint of a database transaction
//! that several queued messages may share (group commit). It parses the text, finds the game,
//! applies the input with the pure core, and writes the new record, the replay and audit
//! logs, the outbox rows and the message id (the idempotency key) together.

use super::apply::{apply, table_time, Env, TableDefaults};
use super::audit;
use super::card::{board_card, choice_buttons, join_button};
use super::catalogue::Catalogue;
use super::chatter::{exposed_order_warning, is_exposed_order, missing_prefix};
use super::flood::Admission;
use super::lifecycle;
use super::outcome::{Outcome, Post};
use super::undo::UndoTarget;
use crate::chat::help::{channel_help, dm_help, games_text, rules_text};
use crate::chat::parse::{clean, quote};
use crate::chat::typed::with_prefix;
use crate::chat::{parse_channel, parse_dm, ChannelCommand, DmCommand};
use crate::dice::Seed;
use crate::games::Phase;
use crate::records::Card;
use crate::records::Input;
use crate::records::{Attachment, Audience, EventBody, LogVisibility};
use crate::records::{GameRecord, Status, User};
use crate::store::{GameChange, GameRow, OutboxPost, Store, StoreError, Tx, UserGames};
use chrono::{DateTime, Utc};
use std::borrow::Cow;
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

impl Inbound {
    /// The message with the control characters taken out of its text and its author's
    /// name, so that nothing the table says ever echoes one.
    fn cleaned(&self) -> Inbound {
        let user = |user: &User| User {
            id: user.id.clone(),
            name: clean(&user.name),
        };
        match self {
            Inbound::Channel {
                channel,
                user: who,
                admin,
                text,
            } => Inbound::Channel {
                channel: channel.clone(),
                user: user(who),
                admin: *admin,
                text: clean(text),
            },
            Inbound::Direct { user: who, text } => Inbound::Direct {
                user: user(who),
                text: clean(text),
            },
        }
    }
}

/// What the platform says about a message besides its words: its id (the idempotency key)
/// and, where the platform keeps a history the bot can read back after downtime, where the
/// message sits in it and when it was sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Envelope {
    /// The platform's id of the message (or interaction): applied once, however often it
    /// arrives.
    pub id: String,
    /// The channel the message was read from (for a direct message, the DM channel) and its
    /// number there, so a catch-up reads on from the last one applied.
    pub place: Option<(String, i64)>,
    /// When the player sent it: an order sent before the phase it reaches began, or after
    /// its deadline, is refused.
    pub sent: Option<DateTime<Utc>>,
    /// The users the message mentions, with the names the platform gives them (`!replace
    /// @old @new` seats the new player under their name, not their id).
    pub mentioned: Vec<User>,
}

impl Envelope {
    /// A message known only by its id (the console, transcripts).
    pub fn id(id: impl Into<String>) -> Envelope {
        Envelope {
            id: id.into(),
            ..Envelope::default()
        }
    }
}

/// What became of one inbound message, for the platform's answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Receipt {
    /// False when the message was applied before: nothing was done or said again.
    pub fresh: bool,
    /// Whether it was refused: what it queued only says why, and nothing changed.
    pub refused: bool,
    /// Whether it was a player's secret order posted in the game channel: not taken; the
    /// platform deletes it where it can and then calls [`Service::warn_exposed_order`].
    pub exposed_order: bool,
}

/// One message of a group commit ([`Service::handle_batch`]).
#[derive(Clone, Debug)]
pub struct Submission {
    /// Its id and where it came from.
    pub envelope: Envelope,
    /// Its words.
    pub inbound: Inbound,
    /// Whether the caller delivers the posts it queues itself (the answer to a slash command
    /// or a button): their outbox rows are then listed in [`Committed::posts`].
    pub answers_itself: bool,
    /// Whether its sender is within their limit of commands (see [`Floodgate`](super::flood::Floodgate)): one over it
    /// is set aside, its id claimed (so no catch-up applies it later) but nothing done.
    pub admission: Admission,
}

/// What became of one message of a group commit, once the commit is durable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Committed {
    /// What the platform's answer needs to know.
    pub receipt: Receipt,
    /// The outbox rows the message queued, when its caller answers itself.
    pub posts: Vec<i64>,
}

/// How many times a batch is tried when it keeps meeting another process's (a deadlock each
/// time) before its messages fail.
const BATCH_ATTEMPTS: u32 = 5;

/// Counts, for the operator's metrics, the messages a committed batch applied for the first
/// time and how many of them were refused.
fn count_applied(results: &[Result<Committed, StoreError>]) {
    for committed in results.iter().flatten() {
        if committed.receipt.fresh {
            metrics::counter!("referee_messages_applied_total").increment(1);
            if committed.receipt.refused {
                metrics::counter!("referee_refusals_total").increment(1);
            }
        }
    }
}

/// Whether applying `input` resolved something (a deadline fired, or a round's orders were
/// revealed): what the resolution timing counts.
fn resolves(input: &Input, outcome: &Outcome) -> bool {
    matches!(input, Input::Deadline | Input::DeadlineMissed)
        || outcome
            .events
            .iter()
            .any(|event| matches!(event.body, EventBody::Resolution(_)))
}

/// The same failure for every message of a batch that could not commit.
fn failed_batch(messages: usize, error: &StoreError) -> Vec<Result<Committed, StoreError>> {
    (0..messages)
        .map(|_| Err(StoreError::Batch(error.to_string())))
        .collect()
}

/// What handling one message produced, before it is written: the outcome (posts and events),
/// and the game's new record when the input changed it.
struct Handled {
    outcome: Outcome,
    change: Option<Changed>,
}

/// A game the input changed: its new record, and the input for the replay log with when it
/// was sent.
struct Changed {
    record: GameRecord,
    seats_changed: bool,
    input: Input,
    sent: Option<DateTime<Utc>>,
}

impl From<Outcome> for Handled {
    fn from(outcome: Outcome) -> Handled {
        Handled {
            outcome,
            change: None,
        }
    }
}

/// The outbox rows `posts` the message's own answer carries (held back from the outbox lanes
/// so the platform answers with them), or none when the message does not answer itself.
async fn held_for_answer(
    tx: &mut Tx,
    posts: Vec<i64>,
    answers_itself: bool,
    now: DateTime<Utc>,
) -> Result<Vec<i64>, StoreError> {
    if !answers_itself {
        return Ok(Vec::new());
    }
    tx.hold_posts(&posts, now).await?;
    Ok(posts)
}

/// Writes what a message produced: the change (record, input, events) and every post, in one
/// batch, each command in a post written with the table's `prefix`; returns the posts' outbox
/// rows.
async fn write(
    tx: &mut Tx,
    handled: &Handled,
    prefix: &str,
    now: DateTime<Utc>,
) -> Result<Vec<i64>, StoreError> {
    let texts: Vec<Cow<'_, str>> = handled
        .outcome
        .posts
        .iter()
        .map(|post| with_prefix(&post.text, prefix))
        .collect();
    let posts: Vec<OutboxPost> = handled
        .outcome
        .posts
        .iter()
        .zip(&texts)
        .map(|(post, text)| OutboxPost {
            to: &post.to,
            text,
            svg: post.svg.as_deref(),
            card: post.card.as_ref(),
            file: post.file.as_ref(),
        })
        .collect();
    let change = handled.change.as_ref().map(|changed| GameChange {
        record: &changed.record,
        seats_changed: changed.seats_changed,
        input: Some(&changed.input),
        sent: changed.sent,
        events: &handled.outcome.events,
    });
    tx.write(change.as_ref(), &posts, now).await
}

/// When an input is applied, and when it was sent (where the platform says, or the
/// deadline's own time).
#[derive(Clone, Copy)]
struct At {
    now: DateTime<Utc>,
    sent: Option<DateTime<Utc>>,
}

/// When a message was sent, as the table keeps it: where the platform says, and a time
/// before the batch is applied (a message sent after `now` by the platform's clock was sent
/// now by ours).
fn sent_time(envelope: &Envelope, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    envelope.sent.map(|sent| table_time(sent).min(now))
}

/// A channel message as the table reads it.
struct Said<'a> {
    user: &'a User,
    admin: bool,
    text: &'a str,
    mentioned: &'a [User],
}

/// A search asked in a game ([`Service::pending_searches`]), to run beside the table; its
/// verdict goes back with [`Service::apply_verdict`].
pub struct SearchJob {
    /// The game's number.
    pub game: i64,
    /// Which search (`impossible`, `hint`).
    pub key: String,
    /// The work, which returns the verdict: run it where it holds up no other game.
    pub work: Box<dyn FnOnce() -> String + Send>,
}

/// The table, bound to a database.
#[derive(Clone)]
pub struct Service {
    store: Store,
    catalogue: Catalogue,
    defaults: TableDefaults,
    running_since: Option<DateTime<Utc>>,
}

impl Service {
    /// A table over this store, hosting these games.
    pub fn new(store: Store, catalogue: Catalogue, defaults: TableDefaults) -> Service {
        Service {
            store,
            catalogue,
            defaults,
            running_since: None,
        }
    }

    /// The same table, told when this process started on the real clock: a deadline due
    /// before then passed while the bot was not running, and its resolution says so. A
    /// table on a manual clock never misses one.
    pub fn running_since(self, at: DateTime<Utc>) -> Service {
        Service {
            running_since: Some(table_time(at)),
            ..self
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
        envelope: &Envelope,
        inbound: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Receipt, StoreError> {
        let submission = Submission {
            envelope: envelope.clone(),
            inbound: inbound.clone(),
            answers_itself: false,
            admission: Admission::Taken,
        };
        let mut results = self
            .handle_batch(std::slice::from_ref(&submission), now)
            .await;
        match results.pop() {
            Some(result) => result.map(|applied| applied.receipt),
            None => Err(StoreError::Batch("no message was applied".to_string())),
        }
    }

    /// Handles several inbound messages in order, in one transaction with one commit (group
    /// commit): each message in its own savepoint, so a message that fails is taken back alone
    /// and the others commit. Each is applied exactly once (a message id seen before, in an
    /// earlier batch or earlier in this one, changes nothing). Nothing is returned before the
    /// commit: a receipt means the message's effects are durable. A batch that lost a race
    /// with another process sharing the database (a deadlock) is taken back whole and applied
    /// again.
    pub async fn handle_batch(
        &self,
        batch: &[Submission],
        now: DateTime<Utc>,
    ) -> Vec<Result<Committed, StoreError>> {
        let now = table_time(now);
        let span = info_span!("commit", messages = batch.len());
        async {
            let mut attempt = 1;
            loop {
                match self.try_batch(batch, now).await {
                    Err(conflict) if attempt < BATCH_ATTEMPTS => {
                        warn!(%conflict, attempt, "the batch met another process's; applying it again");
                        attempt += 1;
                    }
                    Err(conflict) => return failed_batch(batch.len(), &conflict),
                    Ok(results) => return results,
                }
            }
        }
        .instrument(span)
        .await
    }

    /// One attempt at a batch: its results, or the conflict with another process for which
    /// the whole transaction was taken back.
    async fn try_batch(
        &self,
        batch: &[Submission],
        now: DateTime<Utc>,
    ) -> Result<Vec<Result<Committed, StoreError>>, StoreError> {
        let mut tx = match self.store.begin().await {
            Ok(tx) => tx,
            Err(error) => return Ok(failed_batch(batch.len(), &error)),
        };
        let mut results = Vec::with_capacity(batch.len());
        for submission in batch {
            // A deadline that passed before this message was sent is fired first, so the
            // message is judged against the phase that followed it.
            if let Some(sent) = sent_time(&submission.envelope, now) {
                if let Err(error) = self.fire_due_within(&mut tx, sent, now).await {
                    if error.is_conflict() {
                        tx.rollback().await?;
                        return Err(error);
                    }
                    return Ok(failed_batch(batch.len(), &error));
                }
            }
            if let Err(error) = tx.begin_message().await {
                return Ok(failed_batch(batch.len(), &error));
            }
            match self.apply_one(&mut tx, submission, now).await {
                Ok(applied) => match tx.keep_message().await {
                    Ok(()) => results.push(Ok(applied)),
                    Err(error) => return Ok(failed_batch(batch.len(), &error)),
                },
                Err(error) if error.is_conflict() => {
                    // Every lock the batch holds goes, so the other process can finish.
                    tx.rollback().await?;
                    return Err(error);
                }
                Err(error) => {
                    warn!(%error, message = %submission.envelope.id, "a message failed and was taken back");
                    if let Err(lost) = tx.undo_message().await {
                        return Ok(failed_batch(batch.len(), &lost));
                    }
                    results.push(Err(error));
                }
            }
        }
        match tx.commit().await {
            Ok(()) => {
                count_applied(&results);
                Ok(results)
            }
            Err(error) if error.is_conflict() => Err(error),
            Err(error) => Ok(failed_batch(batch.len(), &error)),
        }
    }

    /// Applies one message inside the batch's transaction: claims its id, reads it, writes
    /// what it changed and queued.
    async fn apply_one(
        &self,
        tx: &mut Tx,
        submission: &Submission,
        now: DateTime<Utc>,
    ) -> Result<Committed, StoreError> {
        let Submission {
            envelope,
            inbound,
            answers_itself,
            admission,
        } = submission;
        let inbound = &inbound.cleaned();
        let id = envelope.id.as_str();
        let span = match inbound {
            Inbound::Channel { channel, user, .. } => {
                info_span!("message", id, channel = %channel, user = %user.name)
            }
            Inbound::Direct { user, .. } => info_span!("dm", id, user = %user.name),
        };
        async {
            let place = envelope.place.as_ref().map(|(c, p)| (c.as_str(), *p));
            if !tx.claim(id, place, now).await? {
                return Ok(Committed::default());
            }
            if *admission != Admission::Taken {
                return self
                    .slowed(tx, inbound, *admission, *answers_itself, now)
                    .await;
            }
            let at = At {
                now,
                sent: sent_time(envelope, now),
            };
            let handled = match inbound {
                Inbound::Channel {
                    channel,
                    user,
                    admin,
                    text,
                } => {
                    let said = Said {
                        user,
                        admin: *admin,
                        text,
                        mentioned: &envelope.mentioned,
                    };
                    self.channel(tx, channel, said, at).await?
                }
                Inbound::Direct { user, text } => self.direct(tx, user, text, at).await?,
            };
            let posts = write(tx, &handled, &self.defaults.prefix, now).await?;
            let posts = held_for_answer(tx, posts, *answers_itself, now).await?;
            Ok(Committed {
                receipt: Receipt {
                    fresh: true,
                    refused: handled.outcome.refused,
                    exposed_order: handled.outcome.exposed_order,
                },
                posts,
            })
        }
        .instrument(span)
        .await
    }

    /// Sets aside a message that failed alone, by an error on the bot's side (`error`, for
    /// the log): its id is claimed, so it is neither applied later, out of its order, nor read
    /// back again, and its sender is told it was not taken (unless the platform answers the
    /// message itself, as it does an interaction's error). Nothing else changes.
    pub async fn set_aside(
        &self,
        submission: &Submission,
        error: &StoreError,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let now = table_time(now);
        let envelope = &submission.envelope;
        warn!(%error, message = %envelope.id, "a message failed alone; it is set aside and its sender told");
        let mut tx = self.store.begin().await?;
        let place = envelope.place.as_ref().map(|(c, p)| (c.as_str(), *p));
        if tx.claim(&envelope.id, place, now).await? && !submission.answers_itself {
            let (to, name, text) = match &submission.inbound {
                Inbound::Channel {
                    channel,
                    user,
                    text,
                    ..
                } => (Audience::Channel(channel.clone()), Some(&user.name), text),
                Inbound::Direct { user, text } => (Audience::Direct(user.id.clone()), None, text),
            };
            let said = format!(
                "I could not apply your message '{}': something went wrong on my side (it is in my log), so nothing changed. Send it again; if it keeps failing, tell the GM.",
                quote(&clean(text))
            );
            let said = match name {
                Some(name) => format!("{}: {said}", clean(name)),
                None => said,
            };
            tx.write(None, &[OutboxPost::text(&to, &said)], now).await?;
        }
        tx.commit().await
    }

    /// A message set aside because its sender is over their limit: the first such gets an
    /// answer saying so, the next ones nothing.
    async fn slowed(
        &self,
        tx: &mut Tx,
        inbound: &Inbound,
        admission: Admission,
        answers_itself: bool,
        now: DateTime<Utc>,
    ) -> Result<Committed, StoreError> {
        let mut posts = Vec::new();
        if admission == Admission::Warned {
            let (count, window) = self.defaults.flood;
            let said = format!(
                "slow down: you sent more than {count} commands in {}, so I set aside what you send for a moment; those messages are not taken. Send them again in a few seconds.",
                crate::duration::format_duration(window)
            );
            let (to, text) = match inbound {
                Inbound::Channel { channel, user, .. } => (
                    Audience::Channel(channel.clone()),
                    format!("{}: {said}", user.name),
                ),
                Inbound::Direct { user, .. } => {
                    let mut said = said;
                    said[..1].make_ascii_uppercase();
                    (Audience::Direct(user.id.clone()), said)
                }
            };
            let written = tx.write(None, &[OutboxPost::text(&to, &text)], now).await?;
            posts = held_for_answer(tx, written, answers_itself, now).await?;
        }
        Ok(Committed {
            receipt: Receipt {
                fresh: true,
                refused: true,
                exposed_order: false,
            },
            posts,
        })
    }

    /// Says `text` to `to` once for the platform's event `id` (an edited message): the id is
    /// claimed with the post, so the same event twice says it once.
    pub async fn answer_once(
        &self,
        id: &str,
        to: &Audience,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let now = table_time(now);
        let mut tx = self.store.begin().await?;
        if tx.claim(id, None, now).await? {
            tx.write(None, &[OutboxPost::text(to, text)], now).await?;
        }
        tx.commit().await
    }

    /// Warns the channel about a secret order posted there ([`Receipt::exposed_order`]),
    /// once the platform has deleted it or found it could not.
    pub async fn warn_exposed_order(
        &self,
        channel: &str,
        user: &User,
        deleted: bool,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let text = exposed_order_warning(&user.name, deleted);
        let to = Audience::Channel(channel.to_string());
        let mut tx = self.store.begin().await?;
        tx.write(None, &[OutboxPost::text(&to, &text)], table_time(now))
            .await?;
        tx.commit().await
    }

    async fn channel(
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
        } = said;
        let prefix = &self.defaults.prefix;
        let mut outcome = Outcome::default();
        let command = match parse_channel(text, prefix) {
            Ok(Some(command)) => command,
            Ok(None) => {
                // Chatter, unless it is a player's secret order typed in the open, or the
                // move of the player whose turn it is, typed without the prefix.
                if let Ok(Some(game)) = tx.game_in_channel(channel).await {
                    let record = &game.record;
                    outcome.exposed_order =
                        is_exposed_order(record, &self.catalogue, user, text, prefix);
                    if !outcome.exposed_order {
                        if let Some(hint) =
                            missing_prefix(record, &self.catalogue, user, text, prefix)
                        {
                            outcome.channel(channel, hint);
                        }
                    }
                }
                return Ok(outcome.into());
            }
            Err(error) => {
                return Ok(Outcome::refusal(
                    Audience::Channel(channel.to_string()),
                    format!("{}: {}", user.name, error.0),
                )
                .into())
            }
        };
        // `!board` and `!status` still answer about a channel's last game after it ended.
        // So do `!who`, and `!deadline`, `!undo`, `!concede`, `!draw` and `!leave` with the
        // reason they cannot change it.
        let looks_back = matches!(
            command,
            ChannelCommand::Board
                | ChannelCommand::Status
                | ChannelCommand::Who
                | ChannelCommand::Deadline(_)
                | ChannelCommand::Undo
                | ChannelCommand::Concede
                | ChannelCommand::Draw(_)
                | ChannelCommand::Leave
        );
        let found = match tx.game_in_channel(channel).await {
            Ok(None) if looks_back => tx.last_game_in_channel(channel).await,
            found => found,
        };
        let game = match found {
            Ok(game) => game,
            Err(StoreError::Corrupt { what, reason }) => {
                return Ok(Outcome::refusal(
                    Audience::Channel(channel.to_string()),
                    format!(
                        "{}: the saved {what} is unreadable ({reason}); nothing was changed.",
                        user.name
                    ),
                )
                .into());
            }
            Err(error) => return Err(error),
        };
        match command {
            ChannelCommand::Games => {
                outcome.channel(channel, games_text(self.catalogue.all(), prefix));
                Ok(outcome.into())
            }
            ChannelCommand::Help(topic) => {
                let rules = game
                    .as_ref()
                    .and_then(|g| self.catalogue.find(&g.record.game));
                outcome.channel(
                    channel,
                    channel_help(topic.as_deref(), prefix, rules, self.catalogue.all()),
                );
                Ok(outcome.into())
            }
            ChannelCommand::Rules(name) => {
                let name = name.or_else(|| game.as_ref().map(|g| g.record.game.clone()));
                let to = Audience::Channel(channel.to_string());
                match self.rules_answer(name.as_deref(), &format!("{prefix}rules")) {
                    Ok(text) => outcome.channel(channel, text),
                    Err(text) => {
                        return Ok(Outcome::refusal(to, format!("{}: {text}", user.name)).into())
                    }
                }
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
                    None => {
                        return Ok(Outcome::refusal(
                            Audience::Channel(channel.to_string()),
                            format!("{}: there is no game in this channel.", user.name),
                        )
                        .into())
                    }
                }
                Ok(outcome.into())
            }
            ChannelCommand::Audit => {
                let game = match game {
                    Some(game) => Some(game),
                    None => tx.last_game_in_channel(channel).await?,
                };
                let to = Audience::Channel(channel.to_string());
                let Some(game) = game else {
                    return Ok(Outcome::refusal(
                        to,
                        format!("{}: there is no game in this channel.", user.name),
                    )
                    .into());
                };
                let id = game.record.id;
                if game.record.status != Status::Over {
                    return Ok(Outcome::refusal(
                        to,
                        format!(
                            "{}: game #{id} is still running; its audit page is posted once it is over. `{prefix}log` shows what is public now.",
                            user.name
                        ),
                    )
                    .into());
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
                        text: audit::page(self, &game.record, &events, &inputs),
                    }),
                });
                Ok(outcome.into())
            }
            ChannelCommand::Undo => {
                let Some(game) = game else {
                    return Ok(Outcome::refusal(
                        Audience::Channel(channel.to_string()),
                        format!("{}: there is no game in this channel.", user.name),
                    )
                    .into());
                };
                // Only the GM's undo is worth rebuilding the game for; anyone else's is
                // refused by the table as for every GM power.
                let gm = admin || user.id == game.record.gm.id;
                let target = match gm && game.record.status != Status::Over {
                    true => self.undo_target(tx, &game.record).await?,
                    false => None,
                };
                let input = Input::Undo {
                    user: user.clone(),
                    admin,
                    back_to: target.as_ref().map_or(0, |(back_to, _)| *back_to),
                };
                let target = target.map(|(_, target)| target);
                self.apply_input(tx, Some(game.record), input, at, target.as_ref())
                    .await
            }
            ChannelCommand::Game { .. }
                if game.as_ref().is_some_and(|game| {
                    is_exposed_order(&game.record, &self.catalogue, user, text, prefix)
                }) =>
            {
                outcome.exposed_order = true;
                Ok(outcome.into())
            }
            command => {
                if let (ChannelCommand::New { .. }, false) = (&command, admin) {
                    let running = tx.open_games_of_gm(&user.id).await?;
                    let most = self.defaults.games_per_gm;
                    if running.len() >= most {
                        let listed: Vec<String> =
                            running.iter().map(|id| format!("#{id}")).collect();
                        return Ok(Outcome::refusal(
                            Audience::Channel(channel.to_string()),
                            format!(
                                "{}: you already run {} games not over ({}), the most one account may run at once; end one with `{prefix}end` in its channel before opening another.",
                                user.name,
                                running.len(),
                                listed.join(", ")
                            ),
                        )
                        .into());
                    }
                }
                let command = match command {
                    ChannelCommand::New { game, mut options } => {
                        if !options.iter().any(|(key, _)| key == "seed") {
                            options.push(("seed".to_string(), Seed::random().to_hex()));
                        }
                        // The rules revisions, the table's and the game's, are the bot's to
                        // say, and the log keeps them.
                        options.retain(|(key, _)| key != "revision" && key != "game_revision");
                        options.push(("revision".to_string(), lifecycle::REVISION.to_string()));
                        if let Some(rules) = self.catalogue.find(&game) {
                            options
                                .push(("game_revision".to_string(), rules.revision().to_string()));
                        }
                        ChannelCommand::New { game, options }
                    }
                    command => command,
                };
                // Only the new player of `!replace` needs a name from the platform.
                let mentioned = match &command {
                    ChannelCommand::Replace(_, new) => mentioned
                        .iter()
                        .filter(|user| user.id == *new)
                        .cloned()
                        .collect(),
                    _ => Vec::new(),
                };
                let input = Input::Channel {
                    channel: channel.to_string(),
                    user: user.clone(),
                    admin,
                    command,
                    mentioned,
                };
                self.apply_input(tx, game.map(|g| g.record), input, at, None)
                    .await
            }
        }
    }

    async fn direct(
        &self,
        tx: &mut Tx,
        user: &User,
        text: &str,
        at: At,
    ) -> Result<Handled, StoreError> {
        let refuse =
            |text: String| Ok(Outcome::refusal(Audience::Direct(user.id.clone()), text).into());
        let dm = match parse_dm(text) {
            Ok(dm) => dm,
            Err(error) => return refuse(error.0),
        };
        if let DmCommand::Rules(name) = &dm.command {
            return match self.rules_answer(Some(name), "rules") {
                Ok(text) => {
                    let mut outcome = Outcome::default();
                    outcome.direct(&user.id, text);
                    Ok(outcome.into())
                }
                Err(text) => refuse(text),
            };
        }
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
                if dm.command == DmCommand::Help {
                    let mut outcome = Outcome::default();
                    outcome.direct(&user.id, dm_help(None));
                    return Ok(outcome.into());
                }
                let text = match dm.command {
                    DmCommand::Setup(_) => "You are not the GM of any game in sign-up. Open one with `!new <game>` in a channel first.".to_string(),
                    _ => format!(
                        "You are not playing in any game, so '{}' was not taken as an order. Sign up with `{}join` in a game's channel.",
                        quote(text),
                        self.defaults.prefix
                    ),
                };
                return refuse(text);
            }
            several => {
                let list: Vec<String> = several.iter().map(|id| format!("#{id}")).collect();
                return refuse(format!(
                    "You are in several games ({}). Put the game's number first, like `#{} {}`.",
                    list.join(", "),
                    several[0],
                    quote(text)
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
        let input = Input::Direct {
            user: user.clone(),
            command: dm.command,
        };
        self.apply_input(tx, Some(game.record), input, at, None)
            .await
    }

    /// Where `!undo` would return in game `game`: its inputs are applied again from the log,
    /// and the last resolution or turn not yet undone is found (its first input's number, and
    /// the game before it). `None`: nothing has been played yet.
    async fn undo_target(
        &self,
        tx: &mut Tx,
        game: &GameRecord,
    ) -> Result<Option<(i64, UndoTarget)>, StoreError> {
        let inputs = tx.inputs(game.id).await?;
        let mut rebuilt = audit::rebuild(self, game, &inputs);
        rebuilt.by_ref().for_each(drop);
        Ok(rebuilt
            .history()
            .last()
            .map(|(back_to, target)| (back_to, target.clone())))
    }

    /// Applies an input to a game (or to no game yet, for `!new`) with the pure core, and
    /// gives the posts their cards; what is to be written comes back with the outcome.
    async fn apply_input(
        &self,
        tx: &mut Tx,
        record: Option<GameRecord>,
        input: Input,
        at: At,
        undo: Option<&UndoTarget>,
    ) -> Result<Handled, StoreError> {
        let new_id = match record {
            Some(_) => 0,
            None => tx.next_game_id().await?,
        };
        let env = Env::new(&self.catalogue, &self.defaults, at.now)
            .sent_at(at.sent)
            .undoing(undo);
        let started = std::time::Instant::now();
        let applied = {
            let _span = info_span!("apply", game = record.as_ref().map(|r| r.id)).entered();
            apply(record.as_ref(), &input, new_id, &env)
        };
        if resolves(&input, &applied.outcome) {
            metrics::histogram!("referee_resolution_seconds")
                .record(started.elapsed().as_secs_f64());
        }
        let mut outcome = applied.outcome;
        // A refusal only says why: the buttons of the game's choices stay on the posts
        // they belong to; and in the channel a question (`!status`, `!who`) gets none,
        // only a change or `!board`.
        if let (Some(game), false) = (applied.record.as_ref().or(record.as_ref()), outcome.refused)
        {
            let buttons = applied.changed
                || matches!(
                    &input,
                    Input::Channel {
                        command: ChannelCommand::Board,
                        ..
                    }
                );
            self.add_cards(tx, &mut outcome, game, buttons).await?;
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
                    sent: env.sent,
                })
            }
            _ => None,
        };
        Ok(Handled { outcome, change })
    }

    /// Gives the posts about `game` their cards, from the record as this input left it (no
    /// second read of the game): board posts get the title and the players; the last post to
    /// an audience gets the buttons of the choices open now (in the channel only when
    /// `buttons`: after a change or `!board`, not on the answer to a question).
    async fn add_cards(
        &self,
        tx: &mut Tx,
        outcome: &mut Outcome,
        game: &GameRecord,
        buttons: bool,
    ) -> Result<(), StoreError> {
        for index in 0..outcome.posts.len() {
            let post = &outcome.posts[index];
            let last = !outcome.posts[index + 1..].iter().any(|p| p.to == post.to);
            let mut card = self.card(post, last, buttons, game, false);
            // Secret orders of a player in several games must name the game.
            if let (Some(found), Audience::Direct(user)) = (&card, &post.to) {
                if found.buttons.iter().any(|b| b.direct) && tx.games_of_user(user).await?.len() > 1
                {
                    card = self.card(post, last, buttons, game, true);
                }
            }
            outcome.posts[index].card = card.filter(|card| !card.is_empty());
        }
        Ok(())
    }

    /// The card of a post about `game` (`None`: a post to another place).
    fn card(
        &self,
        post: &Post,
        last: bool,
        buttons: bool,
        game: &GameRecord,
        several: bool,
    ) -> Option<Card> {
        let prefix = &self.defaults.prefix;
        let mut card = Card::default();
        match &post.to {
            Audience::Channel(channel) if *channel == game.channel => {
                if post.svg.is_some() {
                    card = board_card(game);
                }
                if last && buttons {
                    match (&game.status, &game.phase) {
                        (Status::SignUp, _) => card.buttons.push(join_button(prefix)),
                        (Status::Running, Some(Phase::Turn { seat })) => {
                            if let (Some(loaded), Some(who)) =
                                (self.catalogue.load(game), game.seats.get(*seat))
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
                let loaded = self.catalogue.load(game)?;
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

    /// `!rules <game>`: the game's rules and options, or why there is none to show.
    /// `typed` is how `rules` is typed where it was asked: `!rules` in a channel, `rules` by
    /// DM.
    fn rules_answer(&self, name: Option<&str>, typed: &str) -> Result<String, String> {
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

    /// Every search asked and not answered yet (a game waits for it, or its GM does), oldest
    /// first, with its work ready to run.
    pub async fn pending_searches(&self) -> Result<Vec<SearchJob>, StoreError> {
        let mut jobs = Vec::new();
        for row in self.store.searching_games().await? {
            let Some(game) = self.catalogue.load(&row.record) else {
                warn!(
                    game = row.id,
                    "a game with a search asked could not be loaded"
                );
                continue;
            };
            for asked in &row.record.searches {
                let search = match asked.by_gm {
                    true => game.gm_query(&asked.key),
                    false => game.pending_search(),
                };
                match search.filter(|search| search.key == asked.key) {
                    Some(search) => {
                        let (work, steps) = (search.work, self.defaults.search_steps);
                        jobs.push(SearchJob {
                            game: row.id,
                            key: search.key,
                            work: Box::new(move || work(steps)),
                        })
                    }
                    None => {
                        warn!(game = row.id, key = %asked.key, "a search asked is not the game's to run")
                    }
                }
            }
        }
        Ok(jobs)
    }

    /// Applies the verdict of search `key` in game `game`, found beside the table, as an
    /// input of its own (logged: replay reads it instead of searching again). A verdict the
    /// game no longer waits for changes nothing.
    pub async fn apply_verdict(
        &self,
        game: i64,
        key: &str,
        verdict: String,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let now = table_time(now);
        let span = info_span!("verdict", game, key);
        async {
            let mut tx = self.store.begin().await?;
            let Some(row) = tx.game(game).await? else {
                return Ok(());
            };
            let input = Input::Verdict {
                key: key.to_string(),
                verdict,
            };
            let at = At { now, sent: None };
            let handled = self
                .apply_input(&mut tx, Some(row.record), input, at, None)
                .await?;
            write(&mut tx, &handled, &self.defaults.prefix, now).await?;
            tx.commit().await
        }
        .instrument(span)
        .await
    }

    /// Fires every deadline and reminder due at `now`, each in its own transaction, each
    /// exactly once: the game is claimed in the transaction that resolves it (on PostgreSQL a
    /// game another process is resolving is left to it). Returns how many fired.
    pub async fn fire_due(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let now = table_time(now);
        let mut fired = 0;
        loop {
            let mut tx = self.store.begin().await?;
            let Some(game) = tx.claim_due(now).await? else {
                return Ok(fired);
            };
            self.fire(&mut tx, game, now, now).await?;
            tx.commit().await?;
            fired += 1;
        }
    }

    /// Fires, inside the batch's transaction `tx`, every deadline and reminder due at or
    /// before `by` (when a message about to be applied was sent), each in a savepoint of its
    /// own: a deadline that fails is taken back alone and left to the ticker.
    async fn fire_due_within(
        &self,
        tx: &mut Tx,
        by: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        while let Some(game) = tx.claim_due(by).await? {
            tx.begin_message().await?;
            match self.fire(tx, game, by, now).await {
                Ok(()) => tx.keep_message().await?,
                Err(error) if error.is_conflict() => return Err(error),
                Err(error) => {
                    warn!(%error, "a deadline due before a message could not be fired; the ticker tries again");
                    return tx.undo_message().await;
                }
            }
        }
        Ok(())
    }

    /// Fires the deadline or reminder of `game`, claimed in `tx` as due at or before `by`,
    /// applied at `now`. A deadline's input is sent at the deadline's own time, so the phase
    /// it begins starts then, however late it fired.
    async fn fire(
        &self,
        tx: &mut Tx,
        game: GameRow,
        by: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let id = game.id;
        let span = info_span!("deadline", game = id);
        async {
            let (input, sent) = match game.record.deadline {
                Some(at) if at <= by && self.running_since.is_some_and(|since| at < since) => {
                    (Input::DeadlineMissed, Some(at))
                }
                Some(at) if at <= by => (Input::Deadline, Some(at)),
                _ => (Input::Reminder, None),
            };
            let handled = self
                .apply_input(tx, Some(game.record), input, At { now, sent }, None)
                .await?;
            write(tx, &handled, &self.defaults.prefix, now).await?;
            if handled.outcome.events.is_empty() {
                warn!(
                    game = id,
                    "a due deadline changed nothing; it is cleared to avoid a loop"
                );
                clear_due(tx, id, now).await?;
            }
            Ok(())
        }
        .instrument(span)
        .await
    }
}

/// Clears the deadline and reminder of game `id` (one that came due and changed nothing).
async fn clear_due(tx: &mut Tx, id: i64, now: DateTime<Utc>) -> Result<(), StoreError> {
    if let Some(mut game) = tx.game(id).await? {
        game.record.deadline = None;
        game.record.remind_at = None;
        let change = GameChange {
            record: &game.record,
            seats_changed: false,
            input: None,
            sent: None,
            events: &[],
        };
        tx.write(Some(&change), &[], now).await?;
    }
    Ok(())
}
