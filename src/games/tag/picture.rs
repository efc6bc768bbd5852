//! The board drawn: the text map and the SVG map.
//!
//! Decisions: the text map is a grid of symbols when it fits in a Discord message (about
//! 1,900 characters); otherwise it lists the occupied squares (and, for very big games, only
//! how many players there are), and the picture carries the map. In the picture, symbols
//! that the bundled font cannot draw (emoji) are replaced by the first two letters of the
//! player's name; grids above 40 squares a side show players as dots without labels.

use super::state::{Square, Stage, TagState};
use crate::games::count;
use crate::picture::escape;
use std::fmt::Write;

/// The longest text a map or summary message may have.
pub const MESSAGE_LIMIT: usize = 1900;

/// Display width of a symbol in a monospace block (emoji count as 2).
fn width(text: &str) -> usize {
    text.chars()
        .map(|c| match c as u32 {
            0x200B..=0x200F | 0xFE00..=0xFE0F | 0x0300..=0x036F => 0,
            0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF => 2,
            0x1F000..=0x1FAFF => 2,
            _ => 1,
        })
        .sum()
}

fn pad(text: &str, cells: usize) -> String {
    let mut out = text.to_string();
    for _ in width(text)..cells {
        out.push(' ');
    }
    out
}

/// One player as texts name them: `alice (A)`.
pub fn who(state: &TagState, seat: usize) -> String {
    match state.players.get(seat) {
        Some(p) => format!("{} ({})", p.name, p.symbol),
        None => format!("seat {seat}"),
    }
}

/// These players in words ([`who`] each), separated by commas.
pub fn names<'a>(state: &TagState, seats: impl Iterator<Item = &'a usize>) -> String {
    let named: Vec<String> = seats.map(|&seat| who(state, seat)).collect();
    named.join(", ")
}

/// The itness queue in words (front first), shortened for big games.
pub fn queue_text(state: &TagState) -> String {
    let mut text = names(state, state.queue.iter().take(20));
    if state.queue.len() > 20 {
        let _ = write!(text, ", and {} more", state.queue.len() - 20);
    }
    text
}

fn header(state: &TagState) -> String {
    let stage = match &state.stage {
        Stage::Bids => {
            return format!(
                "TAG, bids, {}, {}x{} grid. Who is it is decided when the bids are revealed.\n",
                count(state.living().len(), "player"),
                state.side,
                state.side
            )
        }
        Stage::Moves { round } => format!("movement round {round}"),
        // Nobody is it any more, and nobody is next.
        Stage::Over { .. } => {
            return format!(
                "TAG, game over, {} left, {}x{} grid.\n",
                count(state.queue.len(), "player"),
                state.side,
                state.side
            )
        }
    };
    let it = state
        .it
        .map(|s| who(state, s))
        .unwrap_or_else(|| "nobody".to_string());
    format!(
        "TAG, {stage}, {} left, {}x{} grid. It: {it}.\nNext to be it, in order: {}\n",
        count(state.queue.len(), "player"),
        state.side,
        state.side,
        queue_text(state)
    )
}

/// The text map: a grid of symbols, or a list of squares for big games.
pub fn board_text(state: &TagState) -> String {
    let mut text = header(state);
    let living = state.living();
    let placed: Vec<(Square, usize)> = living
        .iter()
        .filter_map(|&s| state.players[s].square.map(|q| (q, s)))
        .collect();
    if placed.is_empty() {
        return text;
    }
    let cell = placed
        .iter()
        .map(|&(_, s)| width(&state.players[s].symbol))
        .max()
        .unwrap_or(1)
        .max(1);
    let side = state.side as usize;
    let label = (state.side.to_string().len()).max(1);
    let grid_len = (side * (cell + 1) + label + 2) * (side + 1) + 8;
    if text.len() + grid_len <= MESSAGE_LIMIT {
        let mut grid = vec![vec![String::new(); side]; side];
        for &(q, s) in &placed {
            if let Some(c) = grid
                .get_mut(q.row as usize)
                .and_then(|r| r.get_mut(q.col as usize))
            {
                *c = state.players[s].symbol.clone();
            }
        }
        text.push_str("```\n");
        text.push_str(&" ".repeat(label + 1));
        for col in 0..state.side {
            text.push_str(&pad(&Square::column_name(col), cell + 1));
        }
        text.push('\n');
        for (r, row) in grid.iter().enumerate() {
            let _ = write!(text, "{:>label$} ", r + 1);
            for c in row {
                let shown = if c.is_empty() { "." } else { c.as_str() };
                text.push_str(&pad(shown, cell + 1));
            }
            text.push('\n');
        }
        text.push_str("```");
        return text;
    }
    let mut sorted = placed;
    sorted.sort_by_key(|&(q, _)| (q.row, q.col));
    let mut list = String::new();
    for (i, &(q, s)) in sorted.iter().enumerate() {
        let entry = format!("{} {q}; ", state.players[s].symbol);
        if text.len() + list.len() + entry.len() + 40 > MESSAGE_LIMIT {
            let _ = write!(list, "and {} more (see the picture)", sorted.len() - i);
            break;
        }
        list.push_str(&entry);
    }
    text.push_str(list.trim_end());
    text
}

/// The lines under the map: the state of the game, then each player still in.
fn footer_lines(state: &TagState, living: &[usize], big: bool) -> Vec<String> {
    let name = |s: usize| state.players[s].name.clone();
    let headline = match &state.stage {
        Stage::Bids => "Bids awaited; squares are drawn at the reveal.".to_string(),
        Stage::Over { ranking } => match ranking.first() {
            Some(&winner) => format!("Game over: {} wins.", name(winner)),
            None => "Game over.".to_string(),
        },
        Stage::Moves { .. } => format!(
            "{} left; it (red ring): {}",
            count(living.len(), "player"),
            state.it.map(name).unwrap_or_else(|| "nobody".to_string())
        ),
    };
    let mut lines = vec![headline];
    if !big {
        for &s in living.iter().take(40) {
            let p = &state.players[s];
            let place = match (&state.stage, p.square) {
                (Stage::Bids, _) => format!("minimum bid {}", p.min_bid),
                (_, Some(q)) => format!("on {q}"),
                (_, None) => "off the grid".to_string(),
            };
            lines.push(format!(
                "{}: {}, {place}, {}, {}",
                p.symbol,
                p.name,
                count(p.points, "point"),
                count(p.moves, "move")
            ));
        }
    }
    lines
}

/// The fill of `seat`'s disc on the map.
pub fn seat_fill(seat: usize) -> String {
    format!("hsl({},60%,75%)", (seat * 137) % 360)
}

/// The SVG map: the grid, coordinates, players' labels and a legend.
pub fn board_svg(state: &TagState) -> String {
    let side = state.side;
    let big = side > 40;
    let cell: u32 = if big { (2000 / side).max(1) } else { 44 };
    let margin = 30;
    let grid = cell * side;
    let living = state.living();
    let over = matches!(state.stage, Stage::Over { .. });
    let legend_rows = if big {
        1
    } else {
        living.len().min(40) as u32 + 1
    };
    let lines = footer_lines(state, &living, big);
    // Wide enough for the longest line below the grid (about 7.5 pixels a character).
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    let width = (grid + 2 * margin).max(longest * 15 / 2 + 2 * margin);
    let height = grid + 2 * margin + legend_rows * 18 + 10;
    let mut footer = String::new();
    let mut y = margin + grid + 24;
    for (index, line) in lines.iter().enumerate() {
        let size = if index == 0 { 14 } else { 13 };
        let _ = write!(
            footer,
            "<text x=\"{margin}\" y=\"{y}\" font-size=\"{size}\">{}</text>",
            escape(line)
        );
        y += 18;
    }
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"DejaVu Sans\">\
         <rect width=\"{width}\" height=\"{height}\" fill=\"#fbfaf5\"/>\
         <rect x=\"{margin}\" y=\"{margin}\" width=\"{grid}\" height=\"{grid}\" fill=\"#e8efe0\" stroke=\"#555\"/>"
    );
    if !big {
        for i in 0..=side {
            let p = margin + i * cell;
            let _ = write!(
                svg,
                "<line x1=\"{p}\" y1=\"{margin}\" x2=\"{p}\" y2=\"{}\" stroke=\"#999\"/>\
                 <line x1=\"{margin}\" y1=\"{p}\" x2=\"{}\" y2=\"{p}\" stroke=\"#999\"/>",
                margin + grid,
                margin + grid
            );
        }
        for i in 0..side {
            let c = margin + i * cell + cell / 2;
            let _ = write!(
                svg,
                "<text x=\"{c}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\">{}</text>\
                 <text x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\">{}</text>",
                margin - 10,
                Square::column_name(i),
                margin / 2,
                c + 5,
                i + 1
            );
        }
    }
    for &s in &living {
        let p = &state.players[s];
        let Some(q) = p.square else { continue };
        let x = margin + q.col * cell;
        let y = margin + q.row * cell;
        // The ring marks who is it while the game runs; the last player standing is not.
        let marked = state.it == Some(s) && !over;
        let stroke = if marked { "#d00" } else { "#333" };
        let r = (cell / 2).saturating_sub(3).max(if big { 4 } else { 1 });
        let _ = write!(
            svg,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\" fill=\"{}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            x + cell / 2,
            y + cell / 2,
            seat_fill(s),
            if marked { 4 } else { 1 }
        );
        if !big {
            let label = p.symbol.clone();
            let size = match label.chars().count() {
                0..=2 => 14,
                3 => 11,
                _ => 8,
            };
            let _ = write!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"{size}\" text-anchor=\"middle\">{}</text>",
                x + cell / 2,
                y + cell / 2 + 5,
                escape(&label)
            );
        }
    }
    svg.push_str(&footer);
    svg.push_str("</svg>");
    svg
}
