//! Queued messages applied in one transaction, each in a savepoint of its own (a message that
//! fails is taken back alone), committed together; a deadline that passed before a message
//! was sent fires first. Also the answers that claim a message id without applying it: a
//! message set aside, a flooder slowed down, an edit answered once.

use super::messages::{Committed, Envelope, Inbound, Receipt, Submission};
use super::route::Said;
use super::{held_for_answer, write, At, Service};
use crate::chat::parse::{clean, quote};
use crate::records::Audience;
use crate::records::User;
use crate::store::{OutboxPost, StoreError, Tx};
use crate::table::chatter::exposed_order_warning;
use crate::table::flood::Admission;
use crate::table::work::table_time;
use chrono::{DateTime, Utc};
use tracing::{info_span, warn, Instrument};

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

/// The same failure for every message of a batch that could not commit.
fn failed_batch(messages: usize, error: &StoreError) -> Vec<Result<Committed, StoreError>> {
    (0..messages)
        .map(|_| Err(StoreError::Batch(error.to_string())))
        .collect()
}

/// The answer to `inbound`'s sender: in the channel, after their name; by DM, as a sentence.
fn reply_to(inbound: &Inbound, said: &str) -> (Audience, String) {
    match inbound {
        Inbound::Channel { channel, user, .. } => (
            Audience::Channel(channel.clone()),
            format!("{}: {said}", clean(&user.name)),
        ),
        Inbound::Direct { user, .. } => {
            let mut said = said.to_string();
            if let Some(first) = said.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            (Audience::Direct(user.id.clone()), said)
        }
    }
}

/// What a message claimed and refused without being applied comes to: its answer's `posts`.
fn refused_with(posts: Vec<i64>) -> Committed {
    Committed {
        receipt: Receipt {
            fresh: true,
            refused: true,
            exposed_order: false,
        },
        posts,
    }
}

/// When a message was sent, as the table keeps it: where the platform says, and a time
/// before the batch is applied (a message sent after `now` by the platform's clock was sent
/// now by ours).
pub(super) fn sent_time(envelope: &Envelope, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    envelope.sent.map(|sent| table_time(sent).min(now))
}

impl Service {
    /// One attempt at a batch: its results, or the conflict with another process for which
    /// the whole transaction was taken back.
    pub(super) async fn try_batch(
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
                    if let StoreError::Database(_) = error {
                        // The database did not take it: it waits, with its error, and the
                        // messages after it wait behind it, so none overtakes it.
                        let behind = batch.len() - results.len() - 1;
                        let reason = error.to_string();
                        results.push(Err(error));
                        results.extend((0..behind).map(|_| Err(StoreError::Batch(reason.clone()))));
                        break;
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
    pub(super) async fn apply_one(
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
            if let Some(edited) = envelope.edited {
                return self.edited(tx, inbound, edited, now).await;
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
                        server: envelope.server.as_deref(),
                    };
                    self.channel(tx, channel, said, at).await?
                }
                Inbound::Direct { user, text } => self.direct(tx, user, text, at).await?,
            };
            let mut handled = handled;
            if let (true, Inbound::Direct { user, .. }) = (*answers_itself, inbound) {
                handled.answered = Some(user.id.clone());
            }
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

    /// A message set aside because its sender is over their limit: the first such gets an
    /// answer saying so, the next ones nothing.
    pub(super) async fn slowed(
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
                "slow down: you sent commands faster than I take them from one person ({count} at once, then {count} every {}), so I set aside what you send for a moment; those messages are not taken. Send them again in a few seconds.",
                crate::duration::format_duration(window)
            );
            let (to, text) = reply_to(inbound, &said);
            let written = tx.write(None, &[OutboxPost::text(&to, &text)], now).await?;
            posts = held_for_answer(tx, written, answers_itself, now).await?;
        }
        Ok(refused_with(posts))
    }

    /// A message read back after it was edited (at `edited`): what was sent is no longer
    /// known, and an edit is never applied as if it had been sent at the message's time, so
    /// nothing is applied. A command or order is answered saying so, as a live edit is;
    /// chatter gets nothing.
    pub(super) async fn edited(
        &self,
        tx: &mut Tx,
        inbound: &Inbound,
        edited: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Committed, StoreError> {
        let text = inbound.text();
        let chatter = matches!(inbound, Inbound::Channel { .. })
            && !text.trim_start().starts_with(self.defaults.prefix.as_str());
        if chatter {
            return Ok(Committed {
                receipt: Receipt {
                    fresh: true,
                    ..Receipt::default()
                },
                posts: Vec::new(),
            });
        }
        let said = format!(
            "your message '{}' was edited at {} before I could read it, and I take messages as they were sent, never their edits, so I did not apply it: nothing changed. Send it again as a new message if it still stands.",
            quote(&clean(text)),
            crate::chat::deadline::clock_time(table_time(edited), None)
        );
        let (to, said) = reply_to(inbound, &said);
        tx.write(None, &[OutboxPost::text(&to, &said)], now).await?;
        Ok(refused_with(Vec::new()))
    }
}

/// The work of [`Service::handle`].
pub(super) async fn handle(
    service: &Service,
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
    let mut results = service
        .handle_batch(std::slice::from_ref(&submission), now)
        .await;
    match results.pop() {
        Some(result) => result.map(|applied| applied.receipt),
        None => Err(StoreError::Batch("no message was applied".to_string())),
    }
}

/// The work of [`Service::handle_batch`].
pub(super) async fn handle_batch(
    service: &Service,
    batch: &[Submission],
    now: DateTime<Utc>,
) -> Vec<Result<Committed, StoreError>> {
    let now = table_time(now);
    let span = info_span!("commit", messages = batch.len());
    async {
        let mut attempt = 1;
        loop {
            match service.try_batch(batch, now).await {
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

/// The work of [`Service::set_aside`].
pub(super) async fn set_aside(
    service: &Service,
    submission: &Submission,
    error: &StoreError,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let now = table_time(now);
    let envelope = &submission.envelope;
    warn!(%error, message = %envelope.id, "a message failed alone; it is set aside and its sender told");
    let mut tx = service.store.begin().await?;
    let place = envelope.place.as_ref().map(|(c, p)| (c.as_str(), *p));
    if tx.claim(&envelope.id, place, now).await? && !submission.answers_itself {
        let why = match error {
            StoreError::Database(_) => "the database kept refusing it",
            _ => "the game's saved data could not be written",
        };
        let said = format!(
            "I could not apply your message '{}': {why} (the details are in my log), so nothing changed. Tell the GM: the bot's operator must look into it.",
            quote(&clean(submission.inbound.text()))
        );
        let (to, said) = reply_to(&submission.inbound, &said);
        tx.write(None, &[OutboxPost::text(&to, &said)], now).await?;
    }
    tx.commit().await
}

/// The work of [`Service::answer_once`].
pub(super) async fn answer_once(
    service: &Service,
    id: &str,
    to: &Audience,
    text: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let now = table_time(now);
    let mut tx = service.store.begin().await?;
    if tx.claim(id, None, now).await? {
        tx.write(None, &[OutboxPost::text(to, text)], now).await?;
    }
    tx.commit().await
}

/// The work of [`Service::warn_exposed_order`].
pub(super) async fn warn_exposed_order(
    service: &Service,
    channel: &str,
    user: &User,
    deleted: bool,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let text = exposed_order_warning(&user.name, deleted);
    let to = Audience::Channel(channel.to_string());
    let mut tx = service.store.begin().await?;
    tx.write(None, &[OutboxPost::text(&to, &text)], table_time(now))
        .await?;
    tx.commit().await
}
