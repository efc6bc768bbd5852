//! The game's sentences: the public summaries of the bid round and of movement rounds, the
//! ranking, and long summaries packed into messages.

use super::picture::{names, queue_text, who, MESSAGE_LIMIT};
use super::resolve::{RoundReport, StepReport};
use super::state::{BidReport, Stage, TagState};
use crate::games::count;
use std::fmt::Write;

/// The game's rules revision from which its reports use plain words: "Next to be it" for
/// the itness queue, and what a collision was in place of its kind's number.
pub const PLAIN_WORDS_FROM: u32 = 3;

/// The line that says who is it next, in order.
fn queue_line(state: &TagState, revision: u32) -> String {
    match revision >= PLAIN_WORDS_FROM {
        true => format!("Next to be it, in order: {}", queue_text(state)),
        false => format!("Itness queue: {}", queue_text(state)),
    }
}

/// The public summary of the bid round, as lines.
pub fn bids_lines(state: &TagState, report: &BidReport, revision: u32) -> Vec<String> {
    let mut lines = vec!["**Bids revealed** (each bid is paid from the 35 points):".to_string()];
    for &(seat, bid, defaulted) in &report.bids {
        let p = &state.players[seat];
        let note = if defaulted {
            " (no bid, so the minimum)".to_string()
        } else {
            format!(" (minimum {})", p.min_bid)
        };
        lines.push(format!(
            "{}: bid {bid}{note}, {}",
            who(state, seat),
            count(p.points, "point")
        ));
    }
    for &s in &report.eliminated {
        lines.push(format!("{} is knocked out by the bid.", who(state, s)));
    }
    if let Some(it) = report.it {
        lines.push(format!("{} is it.", who(state, it)));
    }
    lines.push(queue_line(state, revision));
    if matches!(state.stage, Stage::Moves { .. }) {
        let placed: Vec<String> = state
            .living()
            .iter()
            .filter_map(|&s| {
                state.players[s]
                    .square
                    .map(|q| format!("{} on {q}", who(state, s)))
            })
            .collect();
        lines.push(format!("Placement: {}.", placed.join(", ")));
        lines.push("Send your moves for round 1 by DM, like `move n stomp` (one direction per move, then stomp or stride).".to_string());
    }
    lines
}

fn step_lines(
    state: &TagState,
    k: usize,
    step: &StepReport,
    revision: u32,
    lines: &mut Vec<String>,
) {
    for c in &step.collisions {
        let parts: Vec<String> = c
            .changes
            .iter()
            .map(|&(s, d)| format!("{} {d:+}", who(state, s)))
            .collect();
        let mut line = match revision >= PLAIN_WORDS_FROM {
            true => format!(
                "Step {}: collision at {} ({}): {}",
                k + 1,
                c.square,
                c.kind.words(),
                parts.join(", ")
            ),
            false => format!(
                "Step {}: kind {} collision at {}: {}",
                k + 1,
                c.kind.number(),
                c.square,
                parts.join(", ")
            ),
        };
        if let Some(w) = c.winner {
            let _ = write!(line, "; {} stomps through", who(state, w));
        }
        lines.push(line);
    }
    for &s in &step.off_grid {
        lines.push(format!(
            "Step {}: {} cannot leave the grid and stays.",
            k + 1,
            who(state, s)
        ));
    }
    for &(s, from, to) in &step.teleports {
        lines.push(format!(
            "Step {}: {} teleports from {from} to {to} (-5).",
            k + 1,
            who(state, s)
        ));
    }
    if let Some((a, b)) = step.tag {
        lines.push(format!(
            "Step {}: {} TAGS {}, who is now it.",
            k + 1,
            who(state, a),
            who(state, b)
        ));
    }
}

/// The public summary of a movement round, as lines.
pub fn round_lines(state: &TagState, report: &RoundReport, revision: u32) -> Vec<String> {
    let mut lines = vec![format!("**Round {} resolved.** Orders:", report.round)];
    for (seat, order, defaulted) in &report.orders {
        let p = &state.players[*seat];
        let at = p
            .square
            .map(|q| format!("now on {q}"))
            .unwrap_or_else(|| "out".to_string());
        lines.push(format!(
            "{}: {order}{}, {at}, {}",
            who(state, *seat),
            if *defaulted { " (no order)" } else { "" },
            count(p.points, "point")
        ));
    }
    for &s in &report.upgrades {
        lines.push(format!(
            "{} upgrades (-5): one more move from next round.",
            who(state, s)
        ));
    }
    for (k, step) in report.steps.iter().enumerate() {
        step_lines(state, k, step, revision, &mut lines);
    }
    if !report.recovered.is_empty() {
        let more = report.recovered.len().saturating_sub(30);
        lines.push(format!(
            "Striding without collision, +1: {}{}",
            names(state, report.recovered.iter().take(30)),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    if let Some(it) = report.it_paid {
        lines.push(format!(
            "{} is it at the end of the round: -4.",
            who(state, it)
        ));
    }
    for &s in &report.eliminated {
        lines.push(format!(
            "{} is eliminated ({}).",
            who(state, s),
            count(state.players[s].points, "point")
        ));
    }
    if let Some(h) = report.handover {
        lines.push(format!(
            "The player who was it is eliminated, so {} is now it.",
            who(state, h)
        ));
    }
    match &state.stage {
        Stage::Over { ranking } => lines.extend(ranking_lines(state, ranking)),
        Stage::Moves { round } => {
            lines.push(queue_line(state, revision));
            let teleport = if state.tagged_last_round {
                " Somebody was tagged, so everybody may teleport."
            } else {
                ""
            };
            lines.push(format!(
                "Send your moves for round {round} by DM before the deadline.{teleport}"
            ));
        }
        Stage::Bids => {}
    }
    lines
}

/// The master-of-games points of the final places (the table posts the ranking itself).
pub fn ranking_lines(state: &TagState, ranking: &[usize]) -> Vec<String> {
    let awarded: Vec<String> = ranking
        .iter()
        .take(6)
        .enumerate()
        .map(|(place, &s)| {
            let points = match place {
                0 => 3,
                1 | 2 => 2,
                _ => 1,
            };
            format!("{} {points}", who(state, s))
        })
        .collect();
    vec![format!(
        "**Game over.** Master-of-games points: {}.",
        awarded.join(", ")
    )]
}

/// Packs lines into messages under the Discord limit.
pub fn pack(lines: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in lines {
        let line: String = line.chars().take(MESSAGE_LIMIT).collect();
        if !current.is_empty() && current.len() + line.len() + 1 > MESSAGE_LIMIT {
            out.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push('\n');
        }
        current.push_str(&line);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::state::{Dir, Mode, Move, MoveOrder};
    use super::*;
    use crate::dice::{Dice, Seed};
    use std::collections::BTreeMap;

    #[test]
    fn round_summary_reveals_orders_collisions_tags_and_eliminations() {
        let mut state = TagState::builder(5)
            .player("ann", "b2", 20)
            .player("bob", "c2", 2)
            .player("cat", "e5", 20)
            .it(0)
            .build();
        let mut orders = BTreeMap::new();
        orders.insert(0, MoveOrder::new(&[Move::Go(Dir::E)], Mode::Stomp));
        let report = state.resolve_moves(&orders, &mut Dice::new(Seed([9; 32])));
        let text = round_lines(&state, &report, PLAIN_WORDS_FROM).join("\n");
        assert!(
            text.contains("ann (ann): move e stomp, now on b2, 22 points"),
            "{text}"
        );
        assert!(
            text.contains("bob (bob): move nothing stride (no order)"),
            "{text}"
        );
        assert!(
            text.contains(
                "collision at c2 (players entering the same square): bob (bob) -6, ann (ann) +2"
            ),
            "{text}"
        );
        assert!(text.contains("ann (ann) TAGS bob (bob)"), "{text}");
        assert!(text.contains("bob (bob) is eliminated"), "{text}");
        assert!(
            text.contains("The player who was it is eliminated, so ann (ann) is now it."),
            "{text}"
        );
        assert!(
            text.contains("Game over") || text.contains("Next to be it, in order"),
            "{text}"
        );
        let board = super::super::picture::board_text(&state);
        assert!(board.contains("```") && board.contains("cat"), "{board}");
    }

    #[test]
    fn long_summaries_are_packed_under_the_limit() {
        let lines: Vec<String> = (0..500)
            .map(|i| format!("line {i} {}", "x".repeat(30)))
            .collect();
        let packed = pack(lines);
        assert!(packed.len() > 1);
        assert!(packed.iter().all(|m| m.len() <= MESSAGE_LIMIT));
        assert!(packed.concat().contains("line 499"));
    }
}
