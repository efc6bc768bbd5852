//! The table as a service: one inbound message = one savepoint of a database transaction
//! that several queued messages may share (group commit). It parses the text, finds the game,
//! applies the input with the pure core, and writes the new record, the replay and audit
//! logs, the outbox rows and the message id (the idempotency key) together.
//!
//! This file is the service's one public face: every method a caller uses is declared on
//! [`Service`] here, and its work is done in the private module of its idea: [`messages`]
//! (what a platform hands the table and gets back), [`batch`] (queued messages in one
//! transaction, a savepoint each, one commit), [`route`] (a message to its game, as the input
//! it becomes), [`deadlines`] (firing what came due), [`computers`] (the computer seats'
//! moves), [`threads`] (private threads), [`verdicts`] (searches run beside the table) and
//! [`ratings`] (rebuilt from the logs); new public work is declared here the same way, and done
//! in a `pub(super)` function of its module. Here too, applying an input with the pure core and
//! writing what it produced. The read-only answers see the service as a [`Lookup`].

mod batch;
mod computers;
mod deadlines;
mod messages;
mod ratings;
mod route;
mod threads;
mod verdicts;

pub use computers::{MoveJob, MoveOwed, Played};
pub use messages::{Committed, Envelope, Inbound, Receipt, Submission};
pub use ratings::Rebuilt;
pub use threads::ThreadJob;
pub use verdicts::SearchJob;

use super::apply::apply;
use super::card::{board_card, choice_buttons, join_button};
use super::catalogue::Catalogue;
use super::commands;
use super::legacy;
use super::lookup::Lookup;
use super::outcome::{Outcome, Post, RATINGS_LINE};
use super::work::UndoTarget;
use super::work::{table_time, Env, TableDefaults};
use crate::chat::typed::with_prefix;
use crate::games::Decision;
use crate::records::Phase;
use crate::records::{is_computer_id, Audience, Card, EventBody, GameRecord, Input, Status, User};
use crate::store::{GameChange, OutboxPost, Store, StoreError, StoredEvent, StoredInput, Tx};
use chrono::{DateTime, Utc};
use std::borrow::Cow;
use tracing::info_span;

/// What handling one message produced, before it is written: the outcome (posts and events),
/// and the game's new record when the input changed it.
pub(super) struct Handled {
    outcome: Outcome,
    change: Option<Changed>,
    /// The private threads of the game's players (user, thread): what the game says to one
    /// of them alone goes there.
    threads: Vec<(String, String)>,
    /// The sender a platform answers itself, privately (an interaction standing for a
    /// direct message): what is said to them in plain text stays in that answer rather than
    /// going to their thread.
    answered: Option<String>,
}

/// A game the input changed: its new record, and the input for the replay log with when it
/// was sent.
pub(super) struct Changed {
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
            threads: Vec::new(),
            answered: None,
        }
    }
}

impl Handled {
    /// The game's new record, when the input changed it.
    fn record(&self) -> Option<&GameRecord> {
        self.change.as_ref().map(|changed| &changed.record)
    }

    /// Where `post` goes: to a player's private thread rather than their DMs, unless it is
    /// plain text the platform answers them with itself.
    fn place_of(&self, post: &Post) -> Audience {
        let plain = post.svg.is_none()
            && post.file.is_none()
            && post.card.as_ref().is_none_or(|card| card.title.is_none());
        match &post.to {
            Audience::Direct(user) if !(plain && self.answered.as_ref() == Some(user)) => self
                .threads
                .iter()
                .find(|(player, _)| player == user)
                .map_or_else(
                    || post.to.clone(),
                    |(_, thread)| Audience::Channel(thread.clone()),
                ),
            to => to.clone(),
        }
    }
}

/// The outbox rows `posts` the message's own answer carries (held back from the outbox lanes
/// so the platform answers with them), or none when the message does not answer itself.
pub(super) async fn held_for_answer(
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
pub(super) async fn write(
    tx: &mut Tx,
    handled: &Handled,
    prefix: &str,
    now: DateTime<Utc>,
) -> Result<Vec<i64>, StoreError> {
    // A game that ended: its result kept and rated with it, the changes in its last post.
    let ratings = match (&handled.change, handled.outcome.ended) {
        (Some(changed), true) => ratings::keep_ended(tx, &changed.record, table_time(now)).await?,
        _ => None,
    };
    let mark = format!("\n{RATINGS_LINE}");
    // A computer player is nobody to write to.
    let kept: Vec<_> = handled
        .outcome
        .posts
        .iter()
        .filter(|post| !matches!(&post.to, Audience::Direct(user) if is_computer_id(user)))
        .collect();
    let places: Vec<Audience> = kept.iter().map(|post| handled.place_of(post)).collect();
    let texts: Vec<Cow<'_, str>> = kept
        .iter()
        .map(|post| {
            let text = with_prefix(&post.text, prefix);
            match text.contains(RATINGS_LINE) {
                true => Cow::Owned(
                    text.replace(
                        &mark,
                        &ratings
                            .as_ref()
                            .map(|line| format!("\n{line}"))
                            .unwrap_or_default(),
                    )
                    .replace(RATINGS_LINE, ""),
                ),
                false => text,
            }
        })
        .collect();
    let posts: Vec<OutboxPost> = kept
        .iter()
        .zip(&texts)
        .zip(&places)
        .map(|((post, text), to)| OutboxPost {
            to,
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
pub(super) struct At {
    now: DateTime<Utc>,
    sent: Option<DateTime<Utc>>,
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

/// Whether the answer to `input` carries the game's buttons though nothing changed (`!board`).
fn offers_buttons(input: &Input) -> bool {
    match input {
        Input::Channel { text, command, .. } => {
            let said = legacy::said(text, command.as_ref(), false);
            let (word, _) = commands::split(&said);
            commands::find(&word).is_some_and(|command| command.buttons)
        }
        _ => false,
    }
}

/// The work beside the table the games wait for ([`Service::pending_work`]).
pub struct PendingWork {
    /// Every search asked and not answered yet (a game waits for it, or its GM does), oldest
    /// first, with its work ready to run.
    pub searches: Vec<SearchJob>,
    /// Every move a computer seat owes, with its decision ready to take.
    pub moves: Vec<MoveJob>,
    /// Every private thread owed: to the players of games opened with `orders=thread`, and
    /// to players whose DMs are closed.
    pub threads: Vec<ThreadJob>,
}

/// The table, bound to a database.
#[derive(Clone)]
pub struct Service {
    store: Store,
    catalogue: Catalogue,
    defaults: TableDefaults,
    running_since: Option<DateTime<Utc>>,
    /// Whether the table serves Discord: everyone in a channel reads what is typed there (a
    /// seed typed with `!new` is refused; on the console the channels are the operator's
    /// own), and a game may be opened as a forum post (`forum=`).
    on_discord: bool,
}

impl Service {
    /// A table over this store, hosting these games.
    pub fn new(store: Store, catalogue: Catalogue, defaults: TableDefaults) -> Service {
        Service {
            store,
            catalogue,
            defaults,
            running_since: None,
            on_discord: false,
        }
    }

    /// The same table, serving Discord: everyone in a channel reads what is typed there, so a
    /// `seed=` typed with `!new` would let the whole table foresee every die and is refused
    /// with where to give it instead (the GM's `setup seed=` by DM, a practice game); and a
    /// game may be opened as a post of a forum (`forum=`), which the adapter makes.
    pub fn on_discord(self) -> Service {
        Service {
            on_discord: true,
            ..self
        }
    }

    /// The game opened as a post of a forum has its post: the game that lives at `from` (its
    /// place until then, see `commands::new`) lives at `to`, and its posts not yet
    /// delivered go there.
    pub async fn homed(&self, from: &str, to: &str, now: DateTime<Utc>) -> Result<(), StoreError> {
        let now = table_time(now);
        let mut tx = self.store.begin().await?;
        if let Some(game) = tx.game_in_channel(from).await? {
            let input = Input::Homed {
                channel: to.to_string(),
            };
            let handled = self
                .apply_input(
                    &mut tx,
                    Some(game.record),
                    input,
                    At { now, sent: None },
                    None,
                )
                .await?;
            write(&mut tx, &handled, &self.defaults.prefix, now).await?;
        }
        tx.readdress(
            &Audience::Channel(from.to_string()),
            &Audience::Channel(to.to_string()),
        )
        .await?;
        tx.commit().await
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
        batch::handle(self, envelope, inbound, now).await
    }

    /// Handles several inbound messages in order, in one transaction with one commit (group
    /// commit): each message in its own savepoint. A message the database does not take (a
    /// statement fails: a full disk, a constraint) is taken back alone with its error, and
    /// every later message of the batch comes back as not written ([`StoreError::Batch`]),
    /// for the caller to try them again, in order, while the ones before it commit; a
    /// message that fails for another reason (its game's data cannot be written) is taken
    /// back and the batch goes on. Each is applied exactly once (a message id seen before, in an
    /// earlier batch or earlier in this one, changes nothing). Nothing is returned before the
    /// commit: a receipt means the message's effects are durable. A batch that lost a race
    /// with another process sharing the database (a deadlock) is taken back whole and applied
    /// again.
    pub async fn handle_batch(
        &self,
        batch: &[Submission],
        now: DateTime<Utc>,
    ) -> Vec<Result<Committed, StoreError>> {
        batch::handle_batch(self, batch, now).await
    }

    /// Sets aside a message that cannot be applied (`error`: its game's data cannot be
    /// written, or the database kept refusing it for reasons that do not pass): its id is
    /// claimed, so it is neither applied later, out of its order, nor read back again, and
    /// its sender is told it was not taken and why (unless the platform answers the message
    /// itself, as it does an interaction's error). Nothing else changes.
    pub async fn set_aside(
        &self,
        submission: &Submission,
        error: &StoreError,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        batch::set_aside(self, submission, error, now).await
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
        batch::answer_once(self, id, to, text, now).await
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
        batch::warn_exposed_order(self, channel, user, deleted, now).await
    }

    /// The work beside the table the games wait for now, read in one look at them (the
    /// worker beside the table looks after every commit; three looks were three turns on the
    /// database's one connection).
    pub async fn pending_work(&self) -> Result<PendingWork, StoreError> {
        let rows = self.store.searching_games().await?;
        Ok(PendingWork {
            searches: verdicts::searches_of(self, &rows),
            moves: computers::moves_of(self, &rows),
            threads: threads::threads_of(&rows),
        })
    }

    /// Whether the computer's move `owed` is still owed: a decision waiting for a core is not
    /// worth thinking once the game has moved on (an undo, a deadline, the GM's `end`).
    pub async fn owes_move(&self, owed: &MoveOwed) -> Result<bool, StoreError> {
        computers::owes_move(self, owed).await
    }

    /// Applies what the computer decided for the move `owed`, as the seat's own input sent
    /// now, after any deadline due by now (as a message sent now would be).
    pub async fn apply_move(
        &self,
        owed: &MoveOwed,
        decision: Option<Decision>,
        now: DateTime<Utc>,
    ) -> Result<Played, StoreError> {
        computers::apply_move(self, owed, decision, now).await
    }

    /// Fires every deadline and reminder due at `now`, each in its own transaction, each
    /// exactly once: the game is claimed in the transaction that resolves it (on PostgreSQL a
    /// game another process is resolving is left to it). Returns how many fired.
    pub async fn fire_due(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        deadlines::fire_due(self, now).await
    }

    /// `referee ratings --rebuild`: replays every finished game's log (this version of the
    /// rules, as `referee replay` does), works its result out from the record the ending
    /// input left as the live table did, and rates every server's games of each kind in the
    /// order they ended; every result and rating kept before is replaced, in one transaction.
    /// A game whose log does not replay keeps the result kept live and is reported. Meant
    /// for a database no bot is playing on (a game ending meanwhile is not counted).
    pub async fn rebuild_ratings(&self) -> Result<Rebuilt, StoreError> {
        ratings::rebuild_ratings(self).await
    }

    /// The private thread `thread` of `user` in game `game` was opened: what the game says
    /// to them alone goes there from now on, and the direct messages they were refused
    /// (their DMs closed) go there now.
    pub async fn thread_opened(
        &self,
        game: i64,
        user: &str,
        thread: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        threads::thread_opened(self, game, user, thread, now).await
    }

    /// The private thread `thread` of `user` in game `game` can no longer be posted in: what
    /// was still to be posted there goes by direct message (and, if their DMs are closed, to
    /// the new thread they are owed).
    pub async fn thread_lost(
        &self,
        game: i64,
        user: &str,
        thread: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        threads::thread_lost(self, game, user, thread, now).await
    }

    /// The platform refused a direct message to `user` (their DMs are closed): each game not
    /// over they sit or wait in owes them a private thread; where they have one already, the
    /// refused message goes there.
    pub async fn dms_closed(&self, user: &str, now: DateTime<Utc>) -> Result<(), StoreError> {
        threads::dms_closed(self, user, now).await
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
        verdicts::apply_verdict(self, game, key, verdict, now).await
    }
}

impl Service {
    /// Applies an input to a game (or to no game yet, for `!new`) with the pure core, and
    /// gives the posts their cards; what is to be written comes back with the outcome.
    pub(super) async fn apply_input(
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
        // The players' private threads, where what the game says to them alone goes.
        let threads = applied
            .record
            .as_ref()
            .or(record.as_ref())
            .map(|game| {
                game.threads()
                    .map(|(user, thread)| (user.to_string(), thread.to_string()))
                    .collect()
            })
            .unwrap_or_default();
        // A refusal only says why: the buttons of the game's choices stay on the posts
        // they belong to; and in the channel a question (`!status`, `!who`) gets none,
        // only a change or `!board`.
        if let (Some(game), false) = (applied.record.as_ref().or(record.as_ref()), outcome.refused)
        {
            let buttons = applied.changed || offers_buttons(&input);
            self.add_cards(tx, &mut outcome, game, buttons).await?;
        }
        let change = match applied.record {
            Some(new) if applied.changed => {
                let people = |r: &GameRecord| -> Vec<(String, bool, Option<String>)> {
                    r.seats
                        .iter()
                        .chain(r.waitlist.iter())
                        .map(|s| (s.user.id.clone(), s.present, s.thread.clone()))
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
        Ok(Handled {
            outcome,
            change,
            threads,
            answered: None,
        })
    }

    /// Gives the posts about `game` their cards, from the record as this input left it (no
    /// second read of the game): board posts get the title and the players; the last post to
    /// an audience gets the buttons of the choices open now (in the channel only when
    /// `buttons`: after a change or `!board`, not on the answer to a question).
    pub(super) async fn add_cards(
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
    pub(super) fn card(
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
}

impl Lookup for Service {
    fn store(&self) -> &Store {
        &self.store
    }

    fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    fn defaults(&self) -> &TableDefaults {
        &self.defaults
    }

    fn serves_discord(&self) -> bool {
        self.on_discord
    }

    fn undo_target(&self, game: &GameRecord, inputs: &[StoredInput]) -> Option<(i64, UndoTarget)> {
        let mut rebuilt = super::audit::rebuild(self, game, inputs);
        rebuilt.by_ref().for_each(drop);
        rebuilt.history().last()
    }

    fn audit_page(
        &self,
        record: &GameRecord,
        events: &[StoredEvent],
        inputs: &[StoredInput],
    ) -> String {
        super::audit::page(self, record, events, inputs)
    }
}
