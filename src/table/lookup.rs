//! What the read-only side of the table looks up besides a transaction: the database, the
//! games on offer, the defaults, where an undo returns and the audit page (both built from a
//! replay, so above the commands that use them). The commands' answers and preparations, the
//! audit page and replay take it; the service provides it.

use super::catalogue::Catalogue;
use super::work::{TableDefaults, UndoTarget};
use crate::records::GameRecord;
use crate::store::{Store, StoredEvent, StoredInput};

/// The table as its read-only answers and the commands' preparations see it.
pub trait Lookup: Sync {
    /// The database.
    fn store(&self) -> &Store;

    /// The games on offer.
    fn catalogue(&self) -> &Catalogue;

    /// The table's defaults.
    fn defaults(&self) -> &TableDefaults;

    /// Whether the table serves Discord (else the console).
    fn serves_discord(&self) -> bool;

    /// Where `!undo` would return in `game`: its logged `inputs` are applied again, and the
    /// last resolution or turn not yet undone is found (its first input's number, and the game
    /// before it). `None`: nothing has been played yet.
    fn undo_target(&self, game: &GameRecord, inputs: &[StoredInput]) -> Option<(i64, UndoTarget)>;

    /// The audit page of a game, from its record, events and inputs: one HTML file in which
    /// a browser checks the seed and every roll.
    fn audit_page(
        &self,
        record: &GameRecord,
        events: &[StoredEvent],
        inputs: &[StoredInput],
    ) -> String;
}
