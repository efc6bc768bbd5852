//! The audit page: one self-contained HTML file (no network, no external script) that shows
//! a game round by round (what was revealed, every roll with its draw number, the board
//! after the round) beside the seed commitment posted at the start and the seed revealed at
//! the end, and lets the reader's browser check them: WebCrypto hashes the seed against the
//! commitment, and a port of the bot's ChaCha20 draw re-derives every roll, marking each
//! verified or not. A game still running gets the page of what is public so far: its public
//! rolls, without the seed, so nothing can be checked yet.

use super::replay::rebuild;
use super::AuditError;
use crate::dice::Draw;
use crate::picture::escape;
use crate::records::Phase;
use crate::records::{EventBody, LogVisibility};
use crate::records::{GameRecord, Status};
use crate::store::{StoredEvent, StoredInput};
use crate::table::card::places;
use crate::table::lookup::Lookup;
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The check run by the reader's browser.
const SCRIPT: &str = include_str!("../../../assets/audit/verify.js");
/// How the page looks.
const STYLE: &str = include_str!("../../../assets/audit/page.css");

/// The audit page of game `id`, read from the database in one consistent snapshot.
pub async fn audit_page(table: &dyn Lookup, id: i64) -> Result<String, AuditError> {
    let log = super::log_of(table, id).await?;
    Ok(page(table, &log.game.record, &log.events, &log.inputs))
}

/// A secret order's receipt as the page shows it once the game is over.
struct Receipt<'a> {
    round: u64,
    seat: usize,
    order: &'a str,
    receipt: &'a str,
}

/// One roll as the page shows it: its number in the game's stream of draws, and the draw.
struct Roll<'a> {
    number: usize,
    draw: &'a Draw,
    /// Drawn by a resolution the GM took back (`!undo`): still a draw of the stream.
    undone: bool,
}

/// What the page shows of one round.
#[derive(Default)]
struct Round<'a> {
    lines: Vec<String>,
    rolls: Vec<Roll<'a>>,
    board: Option<String>,
}

/// The audit page of a game from its record, its audit log and its inputs.
pub fn page(
    table: &dyn Lookup,
    record: &GameRecord,
    events: &[StoredEvent],
    inputs: &[StoredInput],
) -> String {
    let over = record.status == Status::Over;
    let mut rounds: BTreeMap<u64, Round> = BTreeMap::new();
    let mut number = 0;
    let mut checked: Vec<serde_json::Value> = Vec::new();
    let mut receipts: Vec<Receipt<'_>> = Vec::new();
    for stored in events {
        let event = &stored.event;
        let public = event.visibility == LogVisibility::Public;
        let round = rounds.entry(event.round).or_default();
        match &event.body {
            EventBody::Order {
                seat,
                text,
                receipt,
            } if over => receipts.push(Receipt {
                round: event.round,
                seat: *seat,
                order: text,
                receipt,
            }),
            EventBody::Roll(draw) => {
                number += 1;
                // Once the seed is out every draw can be computed by anyone, so the sealed
                // ones are shown too (and must be: the check follows the whole stream).
                if public || over {
                    round.rolls.push(Roll {
                        number,
                        draw,
                        undone: stored.undone,
                    });
                    checked.push(json!({"n": number, "sides": draw.sides, "result": draw.result}));
                }
            }
            _ if public && stored.undone => round
                .lines
                .push(format!("(undone by the GM) {}", event.line())),
            _ if public => round.lines.push(event.line()),
            _ => {}
        }
    }
    for (round, board) in boards(table, record, inputs) {
        rounds.entry(round).or_default().board = Some(board);
    }
    let commitment = posted_commitment(events).unwrap_or_else(|| record.settings.commitment());
    let data = json!({
        "commitment": commitment,
        "seed": over.then(|| record.settings.seed.to_hex()),
        "salt": record.settings.salt.filter(|_| over).map(|salt| salt.to_hex()),
        "total": checked.len(),
        "draws": checked,
        "game": record.id,
        "revision": record.settings.revision,
        "receipts": receipts.iter().enumerate().map(|(index, receipt)| json!({
            "i": index + 1,
            "round": receipt.round,
            "seat": receipt.seat,
            "order": receipt.order,
            "receipt": receipt.receipt,
        })).collect::<Vec<_>>(),
    });
    let mut html = String::new();
    head(&mut html, record);
    fairness(&mut html, record, &commitment, over);
    receipts_section(&mut html, record, &receipts);
    for (number, round) in &rounds {
        round_section(&mut html, *number, round);
    }
    let data = data.to_string().replace("</", "<\\/");
    let _ = write!(
        html,
        "<script type=\"application/json\" id=\"audit-data\">{data}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    super::emoji::drawn(&html)
}

/// The commitment as the start post gave it (the table logs it with the start).
fn posted_commitment(events: &[StoredEvent]) -> Option<String> {
    events.iter().find_map(|stored| match &stored.event.body {
        EventBody::Table(text) => text
            .strip_prefix("game started; seed commitment ")
            .map(str::to_string),
        _ => None,
    })
}

/// The public board at the end of each round, from the game rebuilt input by input (drawn
/// once a round, from the record the round's last input left).
fn boards(table: &dyn Lookup, game: &GameRecord, inputs: &[StoredInput]) -> BTreeMap<u64, String> {
    let draw = |record: &GameRecord| {
        table
            .catalogue()
            .load(record)
            .and_then(|game| game.board().svg)
    };
    let mut boards = BTreeMap::new();
    let mut last_of_round: Option<(u64, GameRecord)> = None;
    for step in rebuild(table, game, inputs) {
        let (Some(before), Some(after)) = (step.before, step.after) else {
            continue;
        };
        if let Some((round, record)) = last_of_round.take() {
            if round != before.round {
                if let Some(svg) = draw(&record) {
                    boards.insert(round, svg);
                }
            }
        }
        last_of_round = Some((before.round, after));
    }
    if let Some((round, record)) = last_of_round {
        if let Some(svg) = draw(&record) {
            boards.insert(round, svg);
        }
    }
    boards
}

fn head(html: &mut String, record: &GameRecord) {
    let title = format!("Game #{} ({}): audit", record.id, record.game);
    let players: Vec<String> = record
        .seats
        .iter()
        .map(|seat| match &seat.symbol {
            Some(symbol) => format!("{} ({symbol})", seat.user.name),
            None => seat.user.name.clone(),
        })
        .collect();
    let standing = match (&record.status, &record.phase) {
        (Status::Over, Some(Phase::Over { ranking })) => {
            let places = places(record, ranking);
            format!("Over. Final ranking: {}.", places.join("; "))
        }
        (Status::Over, _) => "Over (ended by the GM).".to_string(),
        _ => format!(
            "Still running (round {}): this page shows what is public so far.",
            record.round
        ),
    };
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p>GM: {}. Players: {}.</p>\n<p id=\"standing\">{}</p>\n",
        escape(&title),
        escape(&title),
        escape(&record.gm.name),
        escape(&players.join(", ")),
        escape(&standing)
    );
}

fn fairness(html: &mut String, record: &GameRecord, commitment: &str, over: bool) {
    let seed = if over {
        let salt = record
            .settings
            .salt
            .map(|salt| format!(", its salt <code id=\"salt\">{}</code>", salt.to_hex()))
            .unwrap_or_default();
        format!(
            "<p>Seed revealed at the end: <code id=\"seed\">{}</code>{salt}</p>",
            record.settings.seed.to_hex()
        )
    } else {
        "<p>The seed is revealed when the game ends; until then no roll can be checked.</p>"
            .to_string()
    };
    let practice = match record.settings.practice {
        true => format!(
            "<p id=\"practice\">{}</p>\n",
            escape(crate::table::rounds::PRACTICE)
        ),
        false => String::new(),
    };
    let _ = write!(
        html,
        "<section id=\"fairness\">\n<h2>Seed</h2>\n{practice}<p>Commitment posted at the start: <code id=\"commitment\">{}</code>, the SHA-256 of {}.</p>\n{seed}\n<p id=\"commitment-check\" data-verified=\"pending\">Not checked: this page's script checks it in your browser.</p>\n<p id=\"rolls-check\" data-verified=\"pending\"></p>\n</section>\n",
        escape(commitment),
        escape(record.settings.committed_bytes())
    );
}

/// Every secret order with the receipt its player got when it came in, once the game is
/// over: the reader's browser checks each against the order and the revealed seed.
fn receipts_section(html: &mut String, record: &GameRecord, receipts: &[Receipt<'_>]) {
    if receipts.is_empty() {
        return;
    }
    let how = match record.settings.revision {
        0 => "the first 4 bytes of the SHA-256 of",
        _ => "the first 8 bytes of the HMAC-SHA-256, under the SHA-256 of \"referee receipt key \" and the seed's 32 bytes, of",
    };
    let _ = write!(
        html,
        "<section id=\"receipts\">\n<h2>Receipts</h2>\n<p>Each secret order with the receipt its player got when it came in: {how} \"game:round:seat:order\". Until the seed was revealed nobody could compute a receipt; now anyone can.</p>\n<p id=\"receipts-check\" data-verified=\"pending\"></p>\n<table class=\"receipts\">\n<tr><th>Round</th><th>Player</th><th>Order</th><th>Receipt</th><th>Check</th></tr>\n"
    );
    for (index, receipt) in receipts.iter().enumerate() {
        let _ = writeln!(
            html,
            "<tr class=\"receipt\" id=\"receipt-{n}\" data-verified=\"pending\"><td>{round}</td><td>{player}</td><td><code>{order}</code></td><td><code>{code}</code></td><td class=\"check\">not checked</td></tr>",
            n = index + 1,
            round = receipt.round,
            player = escape(&record.name(receipt.seat)),
            order = escape(receipt.order),
            code = escape(receipt.receipt)
        );
    }
    html.push_str("</table>\n</section>\n");
}

/// A line of the log as HTML: escaped, with the chat markup players see rendered as it is
/// on Discord (`**bold**`, `` `code` ``) rather than shown as asterisks and backticks.
fn marked(line: &str) -> String {
    let mut html = String::with_capacity(line.len() + 16);
    let mut bold = false;
    for (index, part) in escape(line).split("**").enumerate() {
        if index > 0 {
            html.push_str(if bold { "</strong>" } else { "<strong>" });
            bold = !bold;
        }
        let mut code = false;
        for (index, piece) in part.split('`').enumerate() {
            if index > 0 {
                html.push_str(if code { "</code>" } else { "<code>" });
                code = !code;
            }
            html.push_str(piece);
        }
        if code {
            html.push_str("</code>");
        }
    }
    if bold {
        html.push_str("</strong>");
    }
    html
}

fn round_section(html: &mut String, number: u64, round: &Round<'_>) {
    let _ = write!(
        html,
        "<section class=\"round\" id=\"round-{number}\">\n<h2>Round {number}</h2>\n"
    );
    if !round.lines.is_empty() {
        html.push_str("<ul class=\"log\">\n");
        for line in &round.lines {
            let _ = writeln!(html, "<li>{}</li>", marked(line));
        }
        html.push_str("</ul>\n");
    }
    if !round.rolls.is_empty() {
        html.push_str("<table class=\"rolls\">\n<tr><th>Draw</th><th>For</th><th>Die</th><th>Result</th><th>Check</th></tr>\n");
        for roll in &round.rolls {
            let _ = writeln!(
                html,
                "<tr class=\"roll\" id=\"draw-{n}\" data-verified=\"pending\"><td>{n}</td><td>{purpose}{undone}</td><td>d{sides}</td><td class=\"result\">{result}</td><td class=\"check\">not checked</td></tr>",
                n = roll.number,
                purpose = escape(&roll.draw.purpose),
                undone = if roll.undone { " (undone by the GM)" } else { "" },
                sides = roll.draw.sides,
                result = roll.draw.result
            );
        }
        html.push_str("</table>\n");
    }
    if let Some(board) = &round.board {
        let _ = writeln!(
            html,
            "<figure class=\"board\">{board}<figcaption>The board after round {number}.</figcaption></figure>"
        );
    }
    html.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::marked;

    #[test]
    fn chat_markup_is_rendered_and_everything_else_escaped() {
        assert_eq!(
            marked("**Bids revealed** for <b> & `bid 5`"),
            "<strong>Bids revealed</strong> for &lt;b&gt; &amp; <code>bid 5</code>"
        );
        assert_eq!(marked("a ** left open"), "a <strong> left open</strong>");
    }
}
