//! `referee replay`: a game rebuilt from its seed and its logged inputs, compared event by
//! event and in its final state with what the log and the game row hold.

use super::AuditError;
use crate::records::LogEvent;
use crate::records::{GameRecord, Input};
use crate::store::StoredInput;
use crate::table::apply::{apply, Applied, Env};
use crate::table::searches;
use crate::table::service::Service;
use crate::table::undo::History;

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
pub(crate) struct Step {
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

/// Applies the logged inputs of `game` (the game as the store holds it now) again, in order,
/// as the live table did: the record is read back from its stored form before every input,
/// so whatever the stored form keeps is what the next input sees; an undo returns where the
/// game's history says.
pub(crate) fn rebuild<'a>(
    service: &'a Service,
    game: &GameRecord,
    inputs: &'a [StoredInput],
) -> Rebuild<'a> {
    Rebuild {
        service,
        id: game.id,
        inputs: inputs.iter(),
        record: None,
        history: History::new(),
        waits_at_end: searches::game_waits(game),
    }
}

/// The steps of [`rebuild`], one per logged input, with the game's history of resolutions
/// and turns so far.
pub(crate) struct Rebuild<'a> {
    service: &'a Service,
    id: i64,
    inputs: std::slice::Iter<'a, StoredInput>,
    record: Option<GameRecord>,
    history: History,
    /// Whether the game still waits for a search after its last input (its verdict is not
    /// in the log yet).
    waits_at_end: bool,
}

impl Rebuild<'_> {
    /// The resolutions and turns of the inputs applied so far (where an undo would return).
    pub(crate) fn history(&self) -> &History {
        &self.history
    }
}

impl Iterator for Rebuild<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        let input = self.inputs.next()?;
        let target = match &input.input {
            Input::Undo { back_to, .. } => self.history.target(*back_to).cloned(),
            _ => None,
        };
        let env = Env::new(self.service.catalogue(), self.service.defaults(), input.at)
            .sent_at(input.sent)
            .undoing(target.as_ref());
        let mut applied = apply(self.record.as_ref(), &input.input, self.id, &env);
        if self.verdict_within(&applied) {
            self.search_within(&mut applied, &env);
        }
        let (after, unreadable) = match applied.record.as_ref().map(as_stored).transpose() {
            Ok(after) => (after, None),
            Err(error) => (applied.record.clone(), Some(error.to_string())),
        };
        if applied.changed {
            self.history.note(
                input.seq,
                &input.input,
                self.record.as_ref(),
                after.as_ref(),
            );
        }
        let before = std::mem::replace(&mut self.record, after.clone());
        Some(Step {
            seq: input.seq,
            changed: applied.changed,
            events: applied.outcome.events,
            before,
            after,
            unreadable,
        })
    }
}

impl Rebuild<'_> {
    /// Whether the input just applied left its game waiting for a search whose verdict the
    /// log keeps in the same input: a log written before searches ran beside the table
    /// (Short Circuit's impossible call was judged at once then). A newer log has the verdict
    /// as the next input, or, when it is the last input, the game waits for it still.
    fn verdict_within(&self, applied: &Applied) -> bool {
        let next_is_verdict = matches!(
            self.inputs.as_slice().first(),
            Some(StoredInput {
                input: Input::Verdict { .. },
                ..
            })
        );
        let last = self.inputs.as_slice().is_empty();
        applied.changed
            && !next_is_verdict
            && !(last && self.waits_at_end)
            && applied.record.as_ref().is_some_and(searches::game_waits)
    }

    /// Runs the search the game waits for and applies its verdict within the same step, as
    /// the table did when the log was written.
    fn search_within(&self, applied: &mut Applied, env: &Env<'_>) {
        let Some(record) = applied.record.as_ref() else {
            return;
        };
        let Some(search) = self
            .service
            .catalogue()
            .load(record)
            .and_then(|game| game.pending_search())
        else {
            return;
        };
        let input = Input::Verdict {
            key: search.key,
            verdict: (search.work)(),
        };
        let then = apply(Some(record), &input, self.id, env);
        if then.changed {
            applied.outcome.events.extend(then.outcome.events);
            applied.record = then.record;
        }
    }
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
    for step in rebuild(service, &stored.record, &inputs) {
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
