//! `referee replay`: a game rebuilt from its seed and its logged inputs, compared event by
//! event and in its final state with what the log and the game row hold.

use super::AuditError;
use crate::records::{EventBody, GameRecord, Input, LogEvent};
use crate::store::StoredInput;
use crate::table::apply::{apply, Applied};
use crate::table::lookup::Lookup;
use crate::table::rounds;
use crate::table::undo::History;
use crate::table::work::Env;
use crate::table::work::REVISION;
use std::collections::{BTreeMap, BTreeSet};

/// The table's rules revision from which every search's verdict is logged as an input of
/// its own: searches ran beside the table before revisions were kept (revision 1).
const SEARCHES_LOGGED_FROM: u32 = 1;

/// What a replay found.
#[derive(Debug)]
pub struct ReplayReport {
    /// The game's number.
    pub game: i64,
    /// How many inputs were replayed.
    pub inputs: usize,
    /// How many events the log holds.
    pub events: usize,
    /// How many secret orders' receipts were checked against the seed.
    pub receipts: usize,
    /// Every difference found (empty: the replay matches).
    pub differences: Vec<String>,
    /// The rules revision the game was opened under, when it is older than this binary's:
    /// what the game and the table said was compared by kind, not wording (see [`agrees`]).
    pub reworded_since: Option<u32>,
    /// The rules it was replayed under, in words: "table rules revision 3, tag rules
    /// revision 2".
    pub rules: String,
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
    table: &'a dyn Lookup,
    game: &GameRecord,
    inputs: &'a [StoredInput],
) -> Rebuild<'a> {
    Rebuild {
        table,
        id: game.id,
        inputs: inputs.iter(),
        record: None,
        history: History::new(),
        waits_at_end: game.waits_for_search(),
    }
}

/// The game `game` (as the store holds it) rebuilt from its logged inputs, as the input that
/// ended it left it, with that input's time; or why it cannot be (an input changes nothing
/// on replay, the log does not end the game, or it needs rules this binary lacks).
pub(crate) fn rebuild_final(
    table: &dyn Lookup,
    game: &GameRecord,
    inputs: &[StoredInput],
) -> Result<(GameRecord, chrono::DateTime<chrono::Utc>), String> {
    revisions_known(table, game).map_err(|error| error.to_string())?;
    let mut ended = None;
    for (step, input) in rebuild(table, game, inputs).zip(inputs) {
        if !step.changed {
            return Err(format!("input {} changes nothing on replay", step.seq));
        }
        let was_over = step
            .before
            .as_ref()
            .is_some_and(|record| record.status == crate::records::Status::Over);
        if let Some(after) = step.after {
            if ended.is_none() && !was_over && after.status == crate::records::Status::Over {
                ended = Some((after, input.at));
            }
        }
    }
    ended.ok_or_else(|| format!("the log of game #{} does not end it", game.id))
}

/// The steps of [`rebuild`], one per logged input, with the game's history of resolutions
/// and turns so far.
pub(crate) struct Rebuild<'a> {
    table: &'a dyn Lookup,
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
            Input::Undo { back_to, .. } => self.history.target(*back_to),
            _ => None,
        };
        let env = Env::new(self.table.catalogue(), self.table.defaults(), input.at)
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
                self.table.catalogue(),
                input.seq,
                &input.input,
                (self.record.as_ref(), after.as_ref()),
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
    /// (Short Circuit's impossible call was judged at once then), which is a game opened
    /// before rules revisions were kept. A newer log has the verdict as an input of its own,
    /// later; or none, when the game ended (a concession) or the log ended before it came.
    fn verdict_within(&self, applied: &Applied) -> bool {
        let Some(record) = applied.record.as_ref() else {
            return false;
        };
        if record.settings.revision >= SEARCHES_LOGGED_FROM {
            return false;
        }
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
            && record.waits_for_search()
    }

    /// Runs the search the game waits for and applies its verdict within the same step, as
    /// the table did when the log was written.
    fn search_within(&self, applied: &mut Applied, env: &Env<'_>) {
        let Some(record) = applied.record.as_ref() else {
            return;
        };
        let Some(search) = self
            .table
            .catalogue()
            .load(record)
            .and_then(|game| game.pending_search())
        else {
            return;
        };
        let input = Input::Verdict {
            key: search.key,
            verdict: (search.work)(self.table.defaults().search_steps),
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

/// The undo marks the log's own `!undo` inputs give: for each input taken back, the number
/// of the undo that took it (what the store wrote with each undo).
fn undo_marks(inputs: &[StoredInput]) -> BTreeMap<i64, i64> {
    let mut marks = BTreeMap::new();
    for input in inputs {
        if let Input::Undo { back_to, .. } = &input.input {
            for taken in inputs
                .iter()
                .filter(|taken| taken.seq >= *back_to && taken.seq < input.seq)
            {
                marks.entry(taken.seq).or_insert(input.seq);
            }
        }
    }
    marks
}

/// The top-level fields of a record, as JSON values.
fn fields(record: &GameRecord) -> BTreeMap<String, serde_json::Value> {
    match serde_json::to_value(record) {
        Ok(serde_json::Value::Object(map)) => map.into_iter().collect(),
        _ => BTreeMap::new(),
    }
}

/// A JSON value in a line of a report: cut to a readable length.
fn shown(value: Option<&serde_json::Value>) -> String {
    let text = value.map_or_else(|| "nothing".to_string(), |v| v.to_string());
    match text.chars().count() > 120 {
        true => format!("{}...", text.chars().take(117).collect::<String>()),
        false => text,
    }
}

/// Rebuilds game `id` from its logged inputs and compares every event, the final record,
/// its status column and the undo marks with what one consistent read of the database holds
/// (a writer at work meanwhile cannot make them disagree). Each difference names the first
/// input and event where the rebuilt game and the stored one part.
pub async fn replay(table: &dyn Lookup, id: i64) -> Result<ReplayReport, AuditError> {
    let log = super::log_of(table, id).await?;
    let stored = &log.game.record;
    let rules = revisions_known(table, stored)?;
    let mut differences = Vec::new();
    let mut record: Option<GameRecord> = None;
    let mut produced: Vec<(i64, LogEvent)> = Vec::new();
    // For each field of the record, the last input that changed it in the rebuilt game.
    let mut changed_by: BTreeMap<String, i64> = BTreeMap::new();
    for (step, input) in rebuild(table, stored, &log.inputs).zip(&log.inputs) {
        if let Some(doubt) = verdict_doubt(table, stored, &step, &input.input) {
            differences.push(doubt);
        }
        if !step.changed {
            differences.push(format!("input {} changed nothing on replay", step.seq));
        }
        if let Some(error) = step.unreadable {
            differences.push(format!(
                "input {}: the record does not read back from its stored form ({error})",
                step.seq
            ));
        }
        if let Some(after) = &step.after {
            let before = step.before.as_ref().map(fields).unwrap_or_default();
            for (field, value) in fields(after) {
                if before.get(&field) != Some(&value) {
                    changed_by.insert(field, step.seq);
                }
            }
        }
        produced.extend(step.events.into_iter().map(|e| (step.seq, e)));
        record = step.after;
    }
    let logged = &log.events;
    let reworded = stored.settings.revision < REVISION;
    let first_apart = logged.iter().enumerate().find(|(index, logged_event)| {
        produced.get(*index).is_none_or(|(seq, event)| {
            *seq != logged_event.input_seq || !agrees(&logged_event.event, event, reworded)
        })
    });
    if let Some((index, logged_event)) = first_apart {
        let after = logged.len().min(produced.len()).saturating_sub(index + 1);
        let rest = match after {
            0 => String::new(),
            n => format!(" ({n} events after it are not compared)"),
        };
        differences.push(match produced.get(index) {
            Some((seq, event)) => format!(
                "event {} is where they part: the log says '{}' (input {}), the replay gives '{}' (input {seq}){rest}",
                index + 1,
                logged_event.event.line(),
                logged_event.input_seq,
                event.line()
            ),
            None => format!(
                "event {}: the log says '{}' (input {}), the replay has no such event",
                index + 1,
                logged_event.event.line(),
                logged_event.input_seq
            ),
        });
    } else if produced.len() > logged.len() {
        let (seq, event) = &produced[logged.len()];
        differences.push(format!(
            "the replay gives {} events, the log holds {}; the first one more is '{}' (input {seq})",
            produced.len(),
            logged.len(),
            event.line()
        ));
    }
    match &record {
        Some(record) if record == stored => {}
        Some(record) => {
            let (rebuilt, kept) = (fields(record), fields(stored));
            let names: BTreeSet<&String> = rebuilt.keys().chain(kept.keys()).collect();
            let parted: Vec<&String> = names
                .into_iter()
                .filter(|name| rebuilt.get(*name) != kept.get(*name))
                .collect();
            for name in parted {
                let by = changed_by
                    .get(name)
                    .map(|seq| format!("; the replay last changed it at input {seq}"))
                    .unwrap_or_default();
                differences.push(format!(
                    "the final state differs in `{name}`: stored {}, replayed {}{by}",
                    shown(kept.get(name)),
                    shown(rebuilt.get(name))
                ));
            }
        }
        None => differences.push("the replay created no game".to_string()),
    }
    if log.status != stored.status.word() {
        differences.push(format!(
            "the games row says the game is '{}', its record says '{}'",
            log.status,
            stored.status.word()
        ));
    }
    let marks = undo_marks(&log.inputs);
    for input in &log.inputs {
        let expected = marks.get(&input.seq).copied();
        if input.undone_by != expected {
            let said = |mark: Option<i64>| match mark {
                Some(undo) => format!("undone by input {undo}"),
                None => "not undone".to_string(),
            };
            differences.push(format!(
                "input {} is marked {}, but the log's undos make it {}",
                input.seq,
                said(input.undone_by),
                said(expected)
            ));
        }
    }
    let mut receipts = 0;
    for logged_event in logged {
        let LogEvent { round, body, .. } = &logged_event.event;
        if let EventBody::Order {
            seat,
            text,
            receipt,
        } = body
        {
            receipts += 1;
            let due = rounds::receipt(stored, *round, *seat, text);
            if *receipt != due {
                differences.push(format!(
                    "the receipt {receipt} of {}'s order `{text}` in round {round} (input {}) is not its commitment under the seed ({due})",
                    stored.name(*seat),
                    logged_event.input_seq
                ));
            }
        }
    }
    Ok(ReplayReport {
        game: id,
        inputs: log.inputs.len(),
        events: logged.len(),
        receipts,
        differences,
        reworded_since: reworded.then_some(stored.settings.revision),
        rules,
    })
}

/// What is wrong with the search verdict `input` logs, if it is one the game can check
/// against the position it was given on (a witness that does not complete it, an
/// "impossible" that a search under the same rules revision completes).
fn verdict_doubt(
    table: &dyn Lookup,
    stored: &GameRecord,
    step: &Step,
    input: &Input,
) -> Option<String> {
    let Input::Verdict { key, verdict } = input else {
        return None;
    };
    let game = table.catalogue().load(step.before.as_ref()?)?;
    let same_rules = table
        .catalogue()
        .find(&stored.game)
        .is_some_and(|rules| rules.revision() == stored.settings.game_revision.max(1));
    let steps_again = same_rules.then_some(table.defaults().search_steps);
    let why = game.check_verdict(key, verdict, steps_again).err()?;
    Some(format!(
        "input {}: the logged verdict of `{key}` does not hold: {why}",
        step.seq
    ))
}

/// The rules revisions a game was opened under, in words, when this binary has them; a game
/// opened by a newer version under rules this one lacks is said to be so, not reported as
/// tampered with.
fn revisions_known(lookup: &dyn Lookup, stored: &GameRecord) -> Result<String, AuditError> {
    let table = stored.settings.revision;
    let game = stored.settings.game_revision.max(1);
    let known = lookup.catalogue().find(&stored.game);
    let game_known = known.map_or(0, |rules| rules.revision());
    if table > REVISION || game > game_known {
        return Err(AuditError::NewerRules {
            game: stored.id,
            opened: format!(
                "table rules revision {table}, {} rules revision {game}",
                stored.game
            ),
            known: format!(
                "table rules revision {REVISION}, {} rules revision {game_known}",
                stored.game
            ),
        });
    }
    Ok(format!(
        "table rules revision {table}, {} rules revision {game}",
        stored.game
    ))
}

/// Whether a replayed event agrees with the logged one. In a game opened under an older rules
/// revision than this binary's, what the game and the table said may have been reworded
/// since (a prompt made clearer is no change of rules), so those texts agree when their kind,
/// round and audience do; rolls, orders and their receipts, and the final state, are always
/// compared whole.
fn agrees(logged: &LogEvent, replayed: &LogEvent, reworded: bool) -> bool {
    if logged == replayed {
        return true;
    }
    let said = |body: &EventBody| match body {
        EventBody::Game(_) => Some(0),
        EventBody::Table(_) => Some(1),
        EventBody::Resolution(_) => Some(2),
        EventBody::Roll(_) | EventBody::Order { .. } => None,
    };
    reworded
        && logged.round == replayed.round
        && logged.visibility == replayed.visibility
        && said(&logged.body).is_some()
        && said(&logged.body) == said(&replayed.body)
}
