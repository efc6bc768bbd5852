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
