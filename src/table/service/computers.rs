//! Computer players beside the table: the moves computer seats owe now, each with its
//! decision ready to take on a copy of the game, and each decision applied as the seat's own
//! input (logged: replay applies it as it was sent, and never decides again).

use super::{write, At, Service};
use crate::games::{Decision, Seat};
use crate::records::{ComputerLevel, GameRecord};
use crate::store::{GameRow, StoreError, Tx};
use crate::table::computers;
use crate::table::work::table_time;
use crate::table::Outcome;
use chrono::{DateTime, Utc};
use tracing::{info_span, warn, Instrument};

/// A move a computer seat owes ([`Service::pending_work`]), to decide beside the table; its
/// decision goes back with [`Service::apply_move`].
pub struct MoveJob {
    /// Where the move is owed.
    pub owed: MoveOwed,
    /// The decision: take it where it holds up no other game.
    pub work: Box<dyn FnOnce() -> Option<Decision> + Send>,
    /// Whether it thinks for its whole budget (a `hard` computer's, unless it makes a move
    /// it made before an undo): worth a core of its own.
    pub thinks: bool,
}

/// Where a computer's move is owed: the game, the seat, and the position the decision is
/// taken for (a decision for a position the game has left is dropped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveOwed {
    /// The game's number.
    pub game: i64,
    /// The computer's seat.
    pub seat: Seat,
    /// The position, in the words the table keeps for it.
    pub position: String,
}

/// What became of a computer's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// The game took it.
    Taken,
    /// The game had moved on meanwhile (or the seat no longer owes a move): nothing happens.
    Stale,
    /// The game refused it, or there was none: the channel is told, and the same position
    /// should not be decided again.
    Refused,
}

impl Service {
    /// [`Service::apply_move`] within `tx`. A decision the game refuses (or none at all: a
    /// fault of the game's computer player) is said in the channel, with what the GM can do.
    async fn play_in(
        &self,
        tx: &mut Tx,
        owed: &MoveOwed,
        decision: Option<Decision>,
        now: DateTime<Utc>,
    ) -> Result<Played, StoreError> {
        let Some(row) = tx.game(owed.game).await? else {
            return Ok(Played::Stale);
        };
        let seat = owed.seat;
        if !owes(&row.record, owed) {
            return Ok(Played::Stale);
        }
        let (channel, name) = (row.record.channel.clone(), row.record.name(seat));
        let input = decision.and_then(|decision| computers::input(&row.record, seat, decision));
        let mut handled = match input {
            Some(input) => {
                let at = At {
                    now,
                    sent: Some(now),
                };
                self.apply_input(tx, Some(row.record), input, at, None)
                    .await?
            }
            None => Outcome::default().into(),
        };
        let played = match handled.change {
            Some(_) => Played::Taken,
            None => {
                warn!("the computer player's move was refused, or it found none");
                handled.outcome.channel(
                    &channel,
                    format!(
                        "The computer could not make {name}'s move. The GM can `{prefix}resolve` (the game's default) or give the seat to a player with `{prefix}replace`.",
                        prefix = self.defaults.prefix
                    ),
                );
                Played::Refused
            }
        };
        write(tx, &handled, &self.defaults.prefix, now).await?;
        Ok(played)
    }
}

/// Whether `record` still owes the computer's move `owed`.
fn owes(record: &GameRecord, owed: &MoveOwed) -> bool {
    record
        .computers_owed()
        .iter()
        .any(|(owing, _)| *owing == owed.seat)
        && computers::position(record) == owed.position
}

/// The moves computer seats owe in `rows` (the games with work beside the table), for
/// [`Service::pending_work`].
pub(super) fn moves_of(service: &Service, rows: &[GameRow]) -> Vec<MoveJob> {
    let mut jobs = Vec::new();
    for row in rows {
        for (seat, strength) in row.record.computers_owed() {
            let Some(game) = service.catalogue.load(&row.record) else {
                warn!(
                    game = row.id,
                    "a game with a computer seat could not be loaded"
                );
                break;
            };
            let (seed, position) = (row.record.settings.seed, computers::position(&row.record));
            let at = position.clone();
            let think = computers::Think {
                time: service.defaults.computer_think,
                rollouts: service.defaults.computer_rollouts,
            };
            let recalled = computers::recalled(&row.record, game.as_ref(), seat);
            jobs.push(MoveJob {
                owed: MoveOwed {
                    game: row.id,
                    seat,
                    position,
                },
                thinks: strength == ComputerLevel::Hard && recalled.is_none(),
                work: match recalled {
                    Some(decision) => Box::new(move || Some(decision)),
                    None => Box::new(move || {
                        computers::decide(game.as_ref(), &seed, seat, (strength, think), &at)
                    }),
                },
            });
        }
    }
    jobs
}

/// The work of [`Service::owes_move`].
pub(super) async fn owes_move(service: &Service, owed: &MoveOwed) -> Result<bool, StoreError> {
    let row = service.store.game(owed.game).await?;
    Ok(row.is_some_and(|row| owes(&row.record, owed)))
}

/// The work of [`Service::apply_move`].
pub(super) async fn apply_move(
    service: &Service,
    owed: &MoveOwed,
    decision: Option<Decision>,
    now: DateTime<Utc>,
) -> Result<Played, StoreError> {
    let now = table_time(now);
    let span = info_span!("computer", game = owed.game, seat = owed.seat);
    async {
        let mut tx = service.store.begin().await?;
        service.fire_due_within(&mut tx, now, now).await?;
        let played = service.play_in(&mut tx, owed, decision, now).await?;
        tx.commit().await?;
        Ok(played)
    }
    .instrument(span)
    .await
}
