//! The audit log read back: `referee replay` (rebuild a game from its seed and inputs and
//! compare), `referee export` (the game as JSON, public or secret) and the audit page (one
//! HTML file where a reader's browser checks the seed and every roll).

mod emoji;
mod export;
mod page;
mod replay;

pub use export::export;
pub use page::{audit_page, page};
pub(crate) use replay::{rebuild, rebuild_final};
pub use replay::{replay, ReplayReport};

use crate::store::{GameLog, StoreError};
use crate::table::lookup::Lookup;
use thiserror::Error;

/// Game `id`'s record, inputs and events, read in one consistent snapshot.
async fn log_of(table: &dyn Lookup, id: i64) -> Result<GameLog, AuditError> {
    let log = table.store().game_log(id).await?;
    log.ok_or(AuditError::NoGame(id))
}

/// Why a game could not be replayed, exported or audited.
#[derive(Debug, Error)]
pub enum AuditError {
    /// No game has this number in the database.
    #[error("there is no game #{0}")]
    NoGame(i64),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The game was opened under rules this binary does not have (a newer version's).
    #[error("game #{game} was opened under {opened}, newer than this binary knows ({known}); replay it with the version that opened it, or a later one")]
    NewerRules {
        /// The game.
        game: i64,
        /// The revisions it was opened under.
        opened: String,
        /// The newest this binary knows.
        known: String,
    },
    /// The export could not be written.
    #[error("could not write the export: {0}")]
    Write(#[from] std::io::Error),
}
