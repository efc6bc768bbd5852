//! Group commit: messages that arrive while a commit is under way wait in a queue, and the
//! next commit takes them all, so a burst of messages costs one durable write to disk instead
//! of one each. Whoever holds the table's turn applies the whole queue ([`Service::handle_batch`]:
//! a savepoint per message, one commit), then hands each waiting message its result; a
//! message is answered only once the commit that holds it is durable. The turn is also what
//! the deadline ticker, a catch-up and a search's verdict take, so nothing else writes to the
//! table while a batch is applied.

use super::service::{Committed, Envelope, Inbound, Service, Submission};
use crate::store::StoreError;
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use tokio::sync::oneshot;

/// The most messages one commit takes: a longer queue is applied in several commits, so no
/// message waits behind an unbounded transaction.
pub const MAX_BATCH: usize = 128;

/// A queued message and where its result goes.
struct Waiting {
    submission: Submission,
    now: DateTime<Utc>,
    reply: oneshot::Sender<Result<Committed, StoreError>>,
}

/// A message queued with [`GroupCommit::enqueue`], to wait for with [`GroupCommit::wait`].
pub struct Ticket(oneshot::Receiver<Result<Committed, StoreError>>);

/// The queue of inbound messages in front of the table, and the table's turn.
pub struct GroupCommit {
    service: Service,
    queue: Mutex<Vec<Waiting>>,
    turn: tokio::sync::Mutex<()>,
    /// Outbox rows whose message's caller answers it itself (an interaction): the outbox
    /// worker leaves them alone until [`GroupCommit::release`].
    held: Mutex<HashSet<i64>>,
    /// How many commits the queue has made, for the logs and the benchmark.
    commits: AtomicU64,
}

impl GroupCommit {
    /// A queue in front of `service`.
    pub fn new(service: Service) -> GroupCommit {
        GroupCommit {
            service,
            queue: Mutex::new(Vec::new()),
            turn: tokio::sync::Mutex::new(()),
            held: Mutex::new(HashSet::new()),
            commits: AtomicU64::new(0),
        }
    }

    /// The table behind the queue.
    pub fn service(&self) -> &Service {
        &self.service
    }

    /// Applies one message exactly once, in order of arrival, possibly in one commit with
    /// others; returns once that commit is durable. `now` is when the message arrived: a batch
    /// is applied at the latest arrival among its messages. With `answers_itself`, the
    /// message's outbox rows are held from the outbox worker (see [`GroupCommit::is_held`])
    /// before anyone else can read them.
    pub async fn submit(
        &self,
        envelope: Envelope,
        inbound: Inbound,
        answers_itself: bool,
        now: DateTime<Utc>,
    ) -> Result<Committed, StoreError> {
        let ticket = self.enqueue(envelope, inbound, answers_itself, now);
        self.wait(ticket).await
    }

    /// Queues one message for the next commit, at once and without waiting: messages are
    /// applied in the order they were queued, so a caller that queues them as they arrive
    /// (before any other work, and from one thread) keeps their order of arrival. The
    /// [`Ticket`] gives the result with [`GroupCommit::wait`].
    pub fn enqueue(
        &self,
        envelope: Envelope,
        inbound: Inbound,
        answers_itself: bool,
        now: DateTime<Utc>,
    ) -> Ticket {
        let (reply, answer) = oneshot::channel();
        self.lock_queue().push(Waiting {
            submission: Submission {
                envelope,
                inbound,
                answers_itself,
            },
            now,
            reply,
        });
        Ticket(answer)
    }

    /// The result of a queued message, once the commit that holds it is durable; whoever
    /// waits first applies the queue.
    pub async fn wait(&self, ticket: Ticket) -> Result<Committed, StoreError> {
        let Ticket(mut answer) = ticket;
        loop {
            // Another message's commit may take this one along: then its result comes
            // without this task ever taking the turn.
            let turn = tokio::select! {
                biased;
                result = &mut answer => return result.unwrap_or_else(|_| Err(dropped())),
                turn = self.turn.lock() => turn,
            };
            if let Ok(result) = answer.try_recv() {
                return result;
            }
            self.commit_queued().await;
            drop(turn);
        }
    }

    /// Takes up to [`MAX_BATCH`] queued messages, applies them in one commit and hands each
    /// its result. The caller holds the turn.
    async fn commit_queued(&self) {
        let waiting: Vec<Waiting> = {
            let mut queue = self.lock_queue();
            let take = queue.len().min(MAX_BATCH);
            queue.drain(..take).collect()
        };
        let Some(now) = waiting.iter().map(|w| w.now).max() else {
            return;
        };
        let submissions: Vec<Submission> = waiting.iter().map(|w| w.submission.clone()).collect();
        let results = self.service.handle_batch(&submissions, now).await;
        self.commits.fetch_add(1, Ordering::Relaxed);
        let held: Vec<i64> = results
            .iter()
            .flatten()
            .flat_map(|committed| committed.posts.iter().copied())
            .collect();
        self.lock_held().extend(held);
        for (waiting, result) in waiting.into_iter().zip(results) {
            // A submitter that gave up waiting no longer needs its result.
            let _ = waiting.reply.send(result);
        }
    }

    /// How many commits (batches) the queue has made so far.
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Takes the table's turn: while the guard lives no batch is applied, so a caller can
    /// fire deadlines, apply a verdict, or apply a catch-up without a batch in between.
    pub async fn turn(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.turn.lock().await
    }

    /// Whether an outbox row is held for the caller that answers its message itself.
    pub fn is_held(&self, row: i64) -> bool {
        self.lock_held().contains(&row)
    }

    /// Hands held outbox rows over to the outbox worker.
    pub fn release(&self, rows: &[i64]) {
        let mut held = self.lock_held();
        for row in rows {
            held.remove(row);
        }
    }

    fn lock_queue(&self) -> std::sync::MutexGuard<'_, Vec<Waiting>> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn lock_held(&self) -> std::sync::MutexGuard<'_, HashSet<i64>> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The error of a message whose batch was dropped before it answered (the process is
/// stopping).
fn dropped() -> StoreError {
    StoreError::Batch("the bot stopped before the message was committed".to_string())
}
