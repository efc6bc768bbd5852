//! Messages kept aside until the table can take them in the order sent: what reached its
//! handler before a new session's collector was in place, what the collector saw while that
//! session's catch-up had not yet taken what came before it, and what a catch-up could not
//! apply yet. Each is kept with the shard it came on, so a catch-up takes its own shard's.

use super::Place;
use poise::serenity_prelude as serenity;
use std::collections::{BTreeMap, HashSet};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A message kept aside: where it was posted, and the shard it came on.
pub(super) type Kept = (serenity::Message, Place, u32);

/// The messages kept aside, by id (the order sent), and the shards whose new session is
/// still opening.
#[derive(Default)]
pub(super) struct KeptAside(Mutex<Inner>);

#[derive(Default)]
struct Inner {
    messages: BTreeMap<u64, Kept>,
    opening: HashSet<u32>,
}

impl KeptAside {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `message`, which came on `shard`, aside.
    pub(super) fn keep(&self, message: serenity::Message, place: Place, shard: u32) {
        self.lock()
            .messages
            .insert(message.id.get(), (message, place, shard));
    }

    /// A new session begins on `shard`: until [`KeptAside::take_opened`], what its collector
    /// sees is kept aside too, behind what reached the handlers before the collector did.
    pub(super) fn open(&self, shard: u32) {
        self.lock().opening.insert(shard);
    }

    /// Keeps `message`, which `shard`'s collector saw, aside while that shard's session is
    /// opening; `false` once it is open (the message goes to the table's queue).
    pub(super) fn keep_while_opening(
        &self,
        message: &serenity::Message,
        place: Place,
        shard: u32,
    ) -> bool {
        let mut inner = self.lock();
        if !inner.opening.contains(&shard) {
            return false;
        }
        inner
            .messages
            .insert(message.id.get(), (message.clone(), place, shard));
        true
    }

    /// Takes what `shard` kept aside, in the order sent, and opens its session: what its
    /// collector sees from now on goes to the queue (where it waits behind the caller, who
    /// holds the table).
    pub(super) fn take_opened(&self, shard: u32) -> Vec<Kept> {
        let mut inner = self.lock();
        inner.opening.remove(&shard);
        let (taken, kept) = std::mem::take(&mut inner.messages)
            .into_iter()
            .partition(|(_, (_, _, on))| *on == shard);
        inner.messages = kept;
        taken.into_values().collect()
    }

    /// Opens `shard`'s session if its catch-up did not (it failed before): what it kept
    /// stays for the ticker.
    pub(super) fn opened(&self, shard: u32) {
        self.lock().opening.remove(&shard);
    }

    /// Takes what every shard whose session is open kept aside, in the order sent.
    pub(super) fn take_open(&self) -> Vec<Kept> {
        let mut inner = self.lock();
        let opening = inner.opening.clone();
        let (kept, taken) = std::mem::take(&mut inner.messages)
            .into_iter()
            .partition(|(_, (_, _, on))| opening.contains(on));
        inner.messages = kept;
        taken.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(id: u64) -> serenity::Message {
        let mut message = serenity::Message::default();
        message.id = serenity::MessageId::new(id);
        message
    }

    fn ids(kept: &[Kept]) -> Vec<u64> {
        kept.iter()
            .map(|(message, _, _)| message.id.get())
            .collect()
    }

    #[test]
    fn an_opening_session_keeps_what_its_collector_sees_behind_what_came_before() {
        let kept = KeptAside::default();
        let place = (true, None);
        kept.open(0);
        // Shard 0's collector sees 7 before the handler of 5, sent first, has run.
        assert!(kept.keep_while_opening(&message(7), place, 0));
        kept.keep(message(5), place, 0);
        // Shard 1 is open: its collector queues; a handler that ran late keeps its message.
        assert!(!kept.keep_while_opening(&message(6), place, 1));
        kept.keep(message(9), place, 1);
        // The ticker takes only what open shards kept.
        assert_eq!(ids(&kept.take_open()), [9]);
        // Shard 0's catch-up takes its own, in the order sent, and opens the session.
        assert_eq!(ids(&kept.take_opened(0)), [5, 7]);
        assert!(!kept.keep_while_opening(&message(8), place, 0));
        assert!(kept.take_open().is_empty());
    }

    #[test]
    fn a_session_whose_catch_up_failed_is_opened_and_its_messages_left_for_the_ticker() {
        let kept = KeptAside::default();
        kept.open(2);
        assert!(kept.keep_while_opening(&message(3), (false, None), 2));
        assert!(kept.take_open().is_empty());
        kept.opened(2);
        assert_eq!(ids(&kept.take_open()), [3]);
    }
}
