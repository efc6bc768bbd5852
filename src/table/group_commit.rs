//! Group commit: messages that arrive while a commit is under way wait in a queue, and the
//! next commit takes them all, so a burst of messages costs one durable write to disk instead
//! of one each. Whoever holds the table's turn applies the whole queue ([`Service::handle_batch`]:
//! a savepoint per message, one commit), then hands each waiting message its result; a
//! message is answered only once the commit that holds it is durable. The turn is also what
//! the deadline ticker, a catch-up and a search's verdict take, so nothing else writes to the
//! table while a batch is applied.

use super::flood::Admission;
use super::service::{Committed, Envelope, Inbound, Service, Submission};
use crate::records::Audience;
use crate::store::StoreError;
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use tracing::warn;

/// The most messages one commit takes: a longer queue is applied in several commits, so no
/// message waits behind an unbounded transaction.
pub const MAX_BATCH: usize = 128;

/// The most messages waiting for the table: beyond it, whoever queues them waits for room
/// (the Discord adapter then stops reading the gateway), so a long outage of the database
/// holds the bot back rather than filling its memory.
pub const MAX_QUEUED: usize = 10_000;

/// The first wait before a batch the database could not take is tried again; it doubles up
/// to [`MAX_RETRY_WAIT`].
const FIRST_RETRY_WAIT: Duration = Duration::from_millis(100);
/// The longest wait between two tries of a batch.
const MAX_RETRY_WAIT: Duration = Duration::from_secs(5);
/// How long a message the database refuses for a reason that does not pass by itself (a
/// constraint, not a full disk or a lost connection) is tried again before it is set aside,
/// so that one message cannot hold every game back for good.
const LASTING_FAULT_WAIT: Duration = Duration::from_secs(120);

/// The database has not taken the messages waiting for it since `since`.
#[derive(Clone, Debug)]
pub struct Stall {
    /// When the first try of the batch failed.
    pub since: Instant,
    /// Why, as the database last said.
    pub reason: String,
    /// Where the waiting messages came from: their channels, and the senders of direct
    /// messages (each once).
    pub places: Vec<Audience>,
}

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
    /// The database's failure to take the batch being applied, while it lasts.
    stall: Mutex<Option<Stall>>,
    /// Set at shutdown: a batch the database does not take is no longer tried again (its
    /// messages are read back at the next start).
    stopping: AtomicBool,
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
            stall: Mutex::new(None),
            stopping: AtomicBool::new(false),
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
        let ticket = self.enqueue(
            Submission {
                envelope,
                inbound,
                answers_itself,
                admission: Admission::Taken,
            },
            now,
        );
        self.wait(ticket).await
    }

    /// Queues one message for the next commit, at once and without waiting: messages are
    /// applied in the order they were queued, so a caller that queues them as they arrive
    /// (before any other work, and from one thread) keeps their order of arrival. The
    /// [`Ticket`] gives the result with [`GroupCommit::wait`].
    pub fn enqueue(&self, submission: Submission, now: DateTime<Utc>) -> Ticket {
        let (reply, answer) = oneshot::channel();
        self.lock_queue().push(Waiting {
            submission,
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
    /// its result. The caller holds the turn. When the database cannot take the batch at all
    /// (busy past its timeout, away, out of room), nothing of it was written: the same
    /// messages are tried again, in order and before any later one, until it can (or the
    /// process stops); so is a message it does not take alone, with those after it.
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
        let results = self.apply_held(&submissions, now).await;
        self.commits.fetch_add(1, Ordering::Relaxed);
        let held: Vec<i64> = results
            .iter()
            .flatten()
            .flat_map(|committed| committed.posts.iter().copied())
            .collect();
        self.lock_held().extend(held);
        for (waiting, result) in waiting.into_iter().zip(results) {
            // A submitter that gave up waiting no longer needs its result, nor holds its
            // posts: the outbox worker delivers them.
            if let Err(Ok(committed)) = waiting.reply.send(result) {
                self.release(&committed.posts);
            }
        }
    }

    /// Applies `submissions` in one commit for a caller that holds the turn (the queue, a
    /// catch-up). When the database cannot take the batch at all (busy past its timeout,
    /// away, out of room), nothing of it was written: the same messages are tried again, in
    /// order and before anything else, until it can (or the process stops). A message it
    /// does not take alone (a statement fails) is tried again the same way, with the messages
    /// after it, never answered with "send it again": for good when the failure is one that
    /// passes (a full disk, a lost connection), for [`LASTING_FAULT_WAIT`] otherwise, after
    /// which that message alone is set aside, its sender told why; so is a message that can
    /// never be applied (its game's data cannot be written).
    pub async fn apply_held(
        &self,
        submissions: &[Submission],
        now: DateTime<Utc>,
    ) -> Vec<Result<Committed, StoreError>> {
        let mut wait = FIRST_RETRY_WAIT;
        let mut results: Vec<Result<Committed, StoreError>> = Vec::with_capacity(submissions.len());
        // The messages that cannot be applied, to set aside once the batch is through.
        let mut refused: Vec<usize> = Vec::new();
        let mut failing_since: Option<Instant> = None;
        while results.len() < submissions.len() {
            let rest = &submissions[results.len()..];
            let mut tried = self.service.handle_batch(rest, now).await;
            // What the database took (or the rules refused) is done; from the first message it
            // did not take, the rest waits for the next try, in order.
            let taken = tried
                .iter()
                .position(|result| {
                    matches!(result, Err(StoreError::Batch(_) | StoreError::Database(_)))
                })
                .unwrap_or(tried.len());
            let mut waiting = tried.split_off(taken).into_iter();
            if taken > 0 {
                failing_since = None;
                wait = FIRST_RETRY_WAIT;
            }
            for result in tried {
                if let Err(StoreError::Corrupt { .. }) = result {
                    refused.push(results.len());
                }
                results.push(result);
            }
            let Some(Err(error)) = waiting.next() else {
                break;
            };
            if self.stopping.load(Ordering::SeqCst) {
                // Not written, nor claimed: read back at the next start.
                results.push(Err(error));
                results.extend(waiting);
                break;
            }
            // A failure that does not pass by itself (a constraint, say) is tried again for a
            // while, in case it does; then that one message is set aside and the rest go on.
            let since = *failing_since.get_or_insert_with(Instant::now);
            let lasting = matches!(error, StoreError::Database(_)) && !error.is_transient();
            if lasting && since.elapsed() >= LASTING_FAULT_WAIT {
                warn!(%error, message = %rest[0].envelope.id, "the database kept refusing a message; it is set aside");
                refused.push(results.len());
                results.push(Err(error));
                failing_since = None;
                wait = FIRST_RETRY_WAIT;
                continue;
            }
            self.note_stall(error.to_string(), rest);
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(MAX_RETRY_WAIT);
        }
        if let Some(stall) = self.lock_stall().take() {
            warn!(
                waited_ms = stall.since.elapsed().as_millis() as u64,
                messages = submissions.len(),
                "the database took the waiting messages again"
            );
        }
        for index in refused {
            if let (Some(submission), Some(Err(error))) =
                (submissions.get(index), results.get(index))
            {
                self.set_aside(submission, error, now).await;
            }
        }
        results
    }

    /// Sets aside a message that cannot be applied, with its answer to the sender; tried again
    /// while the database does not take even that, for as long as a message is (then, or when
    /// the process stops, the message, never claimed, is read back at the next start).
    async fn set_aside(&self, submission: &Submission, error: &StoreError, now: DateTime<Utc>) {
        let mut wait = FIRST_RETRY_WAIT;
        let since = Instant::now();
        while let Err(lost) = self.service.set_aside(submission, error, now).await {
            if self.stopping.load(Ordering::SeqCst) || since.elapsed() >= LASTING_FAULT_WAIT {
                warn!(%lost, message = %submission.envelope.id, "a message that cannot be applied could not be set aside either; it is read back at the next start");
                return;
            }
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(MAX_RETRY_WAIT);
        }
    }

    /// Notes that the database did not take the batch of `submissions` (`reason`).
    fn note_stall(&self, reason: String, submissions: &[Submission]) {
        let mut stall = self.lock_stall();
        let first = stall.is_none();
        let mut places: Vec<Audience> = Vec::new();
        for submission in submissions {
            let place = match &submission.inbound {
                Inbound::Channel { channel, .. } => Audience::Channel(channel.clone()),
                Inbound::Direct { user, .. } => Audience::Direct(user.id.clone()),
            };
            if !places.contains(&place) {
                places.push(place);
            }
        }
        let since = stall
            .as_ref()
            .map_or_else(Instant::now, |stall| stall.since);
        if first {
            warn!(%reason, messages = submissions.len(), "the database cannot take the waiting messages; they wait and are tried again");
        }
        *stall = Some(Stall {
            since,
            reason,
            places,
        });
    }

    /// The database's failure to take the messages waiting, while it lasts.
    pub fn stall(&self) -> Option<Stall> {
        self.lock_stall().clone()
    }

    /// Whether nothing is queued: to a caller holding the turn, every message queued so far
    /// has been applied.
    pub fn is_empty(&self) -> bool {
        self.lock_queue().is_empty()
    }

    /// Whether the queue is full ([`MAX_QUEUED`]): who queues should wait for room.
    pub fn is_full(&self) -> bool {
        self.lock_queue().len() >= MAX_QUEUED
    }

    /// At shutdown: a batch the database does not take is not tried again; its messages
    /// answer with the error and are read back at the next start.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    fn lock_stall(&self) -> std::sync::MutexGuard<'_, Option<Stall>> {
        self.stall
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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
