//! What the read-only side of the table looks up besides a transaction: the database, the
//! games on offer, the defaults, and the audit page (built from a replay, so above the
//! commands that post it). The commands' answers, the audit page and replay take it; the
//! service provides it.

use super::catalogue::Catalogue;
use super::work::TableDefaults;
use crate::records::GameRecord;
use crate::store::{Store, StoredEvent, StoredInput};

/// The table as its read-only answers see it.
pub trait Lookup: Sync {
    /// The database.
    fn store(&self) -> &Store;

    /// The games on offer.
    fn catalogue(&self) -> &Catalogue;

    /// The table's defaults.
    fn defaults(&self) -> &TableDefaults;

    /// The audit page of a game, from its record, events and inputs: one HTML file in which
    /// a browser checks the seed and every roll.
    fn audit_page(
        &self,
        record: &GameRecord,
        events: &[StoredEvent],
        inputs: &[StoredInput],
    ) -> String;
}
