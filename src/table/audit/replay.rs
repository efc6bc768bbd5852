//! `referee replay`: a game rebuilt from its seed and its logged inputs, compared event by
//! event and in its final state with what the log and the game row hold.

use super::AuditError;
use crate::records::GameRecord;
use crate::records::LogEvent;
use crate::store::StoredInput;
use crate::table::apply::{apply, Env};
use crate::table::service::Service;

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

/// One logged input applied again.
pub(super) struct Step {
    /// Its place in the game's input log.
    pub seq: i64,
    /// Whether it changed the game again (every logged input did, live).
    pub changed: bool,
    /// What it produced.
    pub events: Vec<LogEvent>,
    /// The game's record before it.
    pub before: Option<GameRecord>,
    /// The game's record after it, as the store gives it back.
    pub after: Option<GameRecord>,
    /// Why the record after it does not read back from its stored form, if it does not.
    pub unreadable: Option<String>,
}

/// Applies game `id`'s logged inputs again, in order, as the live table did: the record is
/// read back from its stored form before every input, so whatever the stored form keeps is
/// what the next input sees.
pub(super) fn rebuild<'a>(
    service: &'a Service,
    id: i64,
    inputs: &'a [StoredInput],
) -> impl Iterator<Item = Step> + 'a {
    let mut record: Option<GameRecord> = None;
    inputs.iter().map(move |input| {
        let env = Env::new(service.catalogue(), service.defaults(), input.at);
        let applied = apply(record.as_ref(), &input.input, id, &env);
        let (after, unreadable) = match applied.record.as_ref().map(as_stored).transpose() {
            Ok(after) => (after, None),
            Err(error) => (applied.record.clone(), Some(error.to_string())),
        };
        let before = std::mem::replace(&mut record, after.clone());
        Step {
            seq: input.seq,
            changed: applied.changed,
            events: applied.outcome.events,
            before,
            after,
            unreadable,
        }
    })
}

/// The record as the store gives it back: written to JSON and read again.
fn as_stored(record: &GameRecord) -> Result<GameRecord, serde_json::Error> {
    serde_json::to_string(record).and_then(|text| serde_json::from_str(&text))
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
    for step in rebuild(service, id, &inputs) {
        if !step.changed {
            differences.push(format!("input {} changed nothing on replay", step.seq));
        }
        if let Some(error) = step.unreadable {
            differences.push(format!(
                "input {}: the record does not read back from its stored form ({error})",
                step.seq
            ));
        }
        produced.extend(step.events.into_iter().map(|e| (step.seq, e)));
        record = step.after;
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
