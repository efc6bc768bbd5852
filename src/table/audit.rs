//! The audit log read back: `referee replay` (rebuild a game from its seed and inputs and
//! compare) and `referee export` (the game as JSON, public or secret).

use super::apply::{apply, Env};
use super::outcome::{LogEvent, LogVisibility};
use super::record::{GameRecord, Status};
use super::rounds::describe_phase;
use super::service::Service;
use crate::store::StoreError;
use serde_json::json;
use thiserror::Error;

/// What a replay found.
#[derive(Debug)]
pub struct ReplayReport {
    /// The game's number.
    pub game: i64,
    /// How many inputs were replayed.
    pub inputs: usize,
    /// How many events the log holds.
    pub events: usize,
    /// Every difference found (empty: the replay matches).
    pub differences: Vec<String>,
}

impl ReplayReport {
    /// Whether every event and the final state matched.
    pub fn matches(&self) -> bool {
        self.differences.is_empty()
    }
}

/// Why a game could not be replayed or exported.
#[derive(Debug, Error)]
pub enum AuditError {
    /// No game has this number in the database.
    #[error("there is no game #{0}")]
    NoGame(i64),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Rebuilds game `id` from its logged inputs and compares every event and the final record.
pub async fn replay(service: &Service, id: i64) -> Result<ReplayReport, AuditError> {
    let store = service.store();
    let stored = store.game(id).await?.ok_or(AuditError::NoGame(id))?;
    let inputs = store.inputs(id).await?;
    let logged = store.events(id, None).await?;
    let mut differences = Vec::new();
    let mut record: Option<GameRecord> = None;
    let mut produced: Vec<(i64, LogEvent)> = Vec::new();
    for input in &inputs {
        let env = Env::new(service.catalogue(), service.defaults(), input.at);
        let applied = apply(record.as_ref(), &input.input, id, &env);
        if !applied.changed {
            differences.push(format!("input {} changed nothing on replay", input.seq));
        }
        produced.extend(applied.outcome.events.into_iter().map(|e| (input.seq, e)));
        // The live table reads the record back from the database before every input, so the
        // replay does too: whatever the stored form keeps is what the next input saw.
        record = match applied.record.as_ref().map(as_stored).transpose() {
            Ok(record) => record,
            Err(error) => {
                differences.push(format!(
                    "input {}: the record does not read back from its stored form ({error})",
                    input.seq
                ));
                applied.record
            }
        };
    }
    for (index, logged_event) in logged.iter().enumerate() {
        match produced.get(index) {
            Some((seq, event))
                if *seq == logged_event.input_seq && *event == logged_event.event => {}
            Some((seq, event)) => differences.push(format!(
                "event {}: the log says '{}' (input {}), the replay gives '{}' (input {seq})",
                index + 1,
                logged_event.event.line(),
                logged_event.input_seq,
                event.line()
            )),
            None => differences.push(format!(
                "event {}: the log says '{}', the replay has no such event",
                index + 1,
                logged_event.event.line()
            )),
        }
    }
    if produced.len() > logged.len() {
        differences.push(format!(
            "the replay gives {} events, the log holds {}",
            produced.len(),
            logged.len()
        ));
    }
    match &record {
        Some(record) if *record == stored.record => {}
        Some(_) => differences.push("the final state differs from the stored state".to_string()),
        None => differences.push("the replay created no game".to_string()),
    }
    Ok(ReplayReport {
        game: id,
        inputs: inputs.len(),
        events: logged.len(),
        differences,
    })
}

/// The record as the store gives it back: written to JSON and read again.
fn as_stored(record: &GameRecord) -> Result<GameRecord, serde_json::Error> {
    serde_json::to_string(record).and_then(|text| serde_json::from_str(&text))
}

/// Game `id` as JSON: the public view, or with `secret` everything (orders, seed, inputs).
pub async fn export(
    service: &Service,
    id: i64,
    secret: bool,
) -> Result<serde_json::Value, AuditError> {
    let store = service.store();
    let game = store.game(id).await?.ok_or(AuditError::NoGame(id))?;
    let record = &game.record;
    let events = store.events(id, None).await?;
    let board = service
        .catalogue()
        .find(&record.game)
        .zip(record.state.as_ref())
        .and_then(|(rules, state)| rules.load(state).ok())
        .map(|game| game.board().text);
    let over = record.status == Status::Over;
    let players: Vec<serde_json::Value> = record
        .seats
        .iter()
        .enumerate()
        .map(|(seat, s)| json!({"seat": seat, "name": s.user.name, "symbol": s.symbol, "present": s.present}))
        .collect();
    let mut value = json!({
        "id": record.id,
        "channel": record.channel,
        "game": record.game,
        "gm": record.gm.name,
        "status": record.status.word(),
        "round": record.round,
        "options": record.options,
        "players": players,
        "waitlist": record.waitlist.iter().map(|s| s.user.name.clone()).collect::<Vec<_>>(),
        "phase": describe_phase(record),
        "deadline": record.deadline,
        "seed_commitment": record.settings.seed.commitment(),
        "seed": if over || secret { Some(record.settings.seed.to_hex()) } else { None },
        "board": board,
    });
    let shown: Vec<serde_json::Value> = events
        .iter()
        .filter(|e| secret || e.event.visibility == LogVisibility::Public)
        .map(|e| json!({"round": e.event.round, "input": e.input_seq, "visibility": e.event.visibility, "text": e.event.line()}))
        .collect();
    value["events"] = json!(shown);
    if secret {
        value["record"] = serde_json::to_value(record).unwrap_or_default();
        let inputs = store.inputs(id).await?;
        value["inputs"] = json!(inputs
            .iter()
            .map(|i| json!({"seq": i.seq, "at": i.at, "input": i.input}))
            .collect::<Vec<_>>());
    }
    Ok(value)
}
