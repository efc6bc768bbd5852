//! Delivered posts noted together. The outbox's lanes send side by side, and each post a
//! lane sent is noted delivered before the lane goes on. Noted one by one, every post cost
//! durable writes of its own, and under a burst of receipts those writes, not Discord, set
//! the pace: every lane waited for the one database connection and its disk. So a lane hands
//! its note here and waits for the turn to write; whoever takes the turn writes every note
//! waiting, in one transaction (a lane whose note someone else wrote finds none left).

use crate::store::{Delivered, Store, StoreError};
use chrono::Utc;
use std::sync::{Mutex, PoisonError};
use tokio::sync::oneshot;
use tracing::warn;

/// The notes waiting to be written, and the turn to write them.
#[derive(Default)]
pub(super) struct Notes {
    /// Each note with where to say whether the transaction that took it committed.
    waiting: Mutex<Vec<(Delivered, oneshot::Sender<bool>)>>,
    /// Held while a transaction of notes is written.
    writing: tokio::sync::Mutex<()>,
}

impl Notes {
    /// Notes `post` delivered, with the notes of the lanes waiting meanwhile; returns once it
    /// is written. Where a transaction of several notes fails, each note is written again
    /// alone, so each lane meets its own error.
    pub(super) async fn note(&self, store: &Store, post: Delivered) -> Result<(), StoreError> {
        let (tell, told) = oneshot::channel();
        self.lock().push((post.clone(), tell));
        {
            let _turn = self.writing.lock().await;
            let taken = std::mem::take(&mut *self.lock());
            if !taken.is_empty() {
                let (posts, tells): (Vec<_>, Vec<_>) = taken.into_iter().unzip();
                let written = match store.delivered_together(&posts, Utc::now()).await {
                    Ok(()) => true,
                    Err(error) => {
                        warn!(%error, posts = posts.len(), "posts sent could not be noted together; noting each alone");
                        false
                    }
                };
                for tell in tells {
                    let _ = tell.send(written);
                }
            }
        }
        // Whoever took this note answered before letting go of the turn just taken.
        match told.await {
            Ok(true) => Ok(()),
            _ => store.delivered_together(&[post], Utc::now()).await,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(Delivered, oneshot::Sender<bool>)>> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
