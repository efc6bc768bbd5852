//! `referee export`: a game as JSON, the public view or with `--secret` everything (seed,
//! orders, inputs). The log is written as it is read, a page of rows at a time, so a game of
//! any length exports in bounded memory.

use super::AuditError;
use crate::records::LogVisibility;
use crate::records::Status;
use crate::store::{StoredEvent, StoredInput};
use crate::table::lookup::Lookup;
use crate::table::rounds::describe_phase;
use serde_json::json;
use std::io::Write;

/// Rows read from the database at a time.
const PAGE: i64 = 500;

/// Writes `,"name": [...]` to `out`, one element a line: the rows `page` gives after a
/// sequence number (`seq` of the last row read), each as `line` shows it (or left out).
async fn write_array<T>(
    out: &mut impl Write,
    name: &str,
    mut page: impl AsyncFnMut(i64) -> Result<Vec<T>, crate::store::StoreError>,
    line: impl Fn(&T) -> Option<serde_json::Value>,
    seq: impl Fn(&T) -> i64,
) -> Result<(), AuditError> {
    write!(out, ",\n\"{name}\": [")?;
    let mut after = 0;
    let mut first = true;
    loop {
        let rows = page(after).await?;
        let Some(last) = rows.last() else { break };
        after = seq(last);
        for value in rows.iter().filter_map(&line) {
            out.write_all(if first { b"\n" } else { b",\n" })?;
            serde_json::to_writer(&mut *out, &value).map_err(std::io::Error::from)?;
            first = false;
        }
    }
    out.write_all(b"\n]")?;
    Ok(())
}

/// Writes game `id` as JSON to `out`: the public view, or with `secret` everything (orders,
/// seed, the record and the inputs). The head comes first, then the events (and inputs) one
/// per line.
pub async fn export(
    table: &dyn Lookup,
    id: i64,
    secret: bool,
    out: &mut impl Write,
) -> Result<(), AuditError> {
    let store = table.store();
    let game = store.game(id).await?.ok_or(AuditError::NoGame(id))?;
    let record = &game.record;
    let board = table.catalogue().load(record).map(|game| game.board().text);
    let over = record.status == Status::Over;
    let players: Vec<serde_json::Value> = record
        .seats
        .iter()
        .enumerate()
        .map(|(seat, s)| json!({"seat": seat, "name": s.user.name, "symbol": s.symbol, "present": s.present}))
        .collect();
    let mut head = json!({
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
        "seed_commitment": record.settings.commitment(),
        "practice": record.settings.practice,
        "seed": if over || secret { Some(record.settings.seed.to_hex()) } else { None },
        "salt": record.settings.salt.filter(|_| over || secret).map(|salt| salt.to_hex()),
        "board": board,
    });
    if secret {
        head["record"] = serde_json::to_value(record).unwrap_or_default();
    }
    // The head without its closing brace, then the arrays.
    let head = serde_json::to_string(&head).map_err(std::io::Error::from)?;
    out.write_all(&head.as_bytes()[..head.len() - 1])?;
    let events = async |after| store.events_after(id, after, PAGE).await;
    write_array(out, "events", events, |event: &StoredEvent| {
        (secret || event.event.visibility == LogVisibility::Public).then(|| {
            json!({"round": event.event.round, "input": event.input_seq, "visibility": event.event.visibility, "text": event.event.line(), "undone": event.undone})
        })
    }, |event| event.seq)
    .await?;
    if secret {
        let inputs = async |after| store.inputs_after(id, after, PAGE).await;
        write_array(
            out,
            "inputs",
            inputs,
            |input: &StoredInput| {
                Some(json!({"seq": input.seq, "at": input.at, "input": input.input, "undone_by": input.undone_by}))
            },
            |input| input.seq,
        )
        .await?;
    }
    out.write_all(b"}\n")?;
    out.flush()?;
    Ok(())
}
