//! The board for the players: a compact text (each colour's pawns: nest, square, home row,
//! HOME) and an SVG of the cross-shaped board with the pawns and the safe squares marked.

use super::act::{Match, Stage};
use super::board::{is_safe, Colour, Position, Spot, PAWNS, RING, ROW};
use crate::picture::escape;
use std::fmt::Write;

/// One colour's pawns in words: "1 nest · 2 on 12 · 3 home row 4 · 4 HOME".
pub fn pawns_line(pos: &Position, colour: Colour) -> String {
    let parts: Vec<String> = (0..PAWNS)
        .map(|p| match pos.spot(colour, p) {
            Spot::Nest => format!("{} nest", p + 1),
            Spot::Ring(square) => format!("{} on {square}", p + 1),
            Spot::Row(step) => format!("{} home row {step}", p + 1),
            Spot::Home => format!("{} HOME", p + 1),
        })
        .collect();
    parts.join(" · ")
}

fn status_line(game: &Match, ended: bool) -> String {
    let who = game.who(game.colour());
    match &game.stage {
        _ if ended => "The game is over.".to_string(),
        Stage::Over(ranking) => {
            let first: Vec<String> = ranking
                .first()
                .into_iter()
                .flatten()
                .filter_map(|seat| game.seated.iter().find(|s| s.seat == *seat))
                .map(|s| game.who(s.colour))
                .collect();
            format!("Game over: {} first.", first.join(" and "))
        }
        Stage::Dice => {
            let left: Vec<String> = game.roll.left().map(|f| f.to_string()).collect();
            format!("{who} to play {}", left.join(" "))
        }
        Stage::Rewards => {
            let pending: Vec<String> = game.rewards.iter().map(|r| r.to_string()).collect();
            format!("{who} to move reward {}", pending.join(" and "))
        }
    }
}

/// The text board; `ended`: the table ended the game, so it names no player to move.
pub fn text(game: &Match, ended: bool) -> String {
    let mut out = String::from("```\n");
    let _ = writeln!(out, "Parcheesi · {}", status_line(game, ended));
    for s in &game.seated {
        let name = if s.gone {
            format!("{} (left)", s.name)
        } else {
            s.name.clone()
        };
        let _ = writeln!(
            out,
            "{:<6} {:<12} {}",
            s.colour.name(),
            name,
            pawns_line(&game.pos, s.colour)
        );
    }
    out.push_str("```");
    out
}

const CELL: f32 = 34.0;
const MARGIN: f32 = 10.0;

/// Where the pawns waiting in a nest, or at home, stand two by two in their square: the
/// square's top-left cell for each colour (in the order of [`Colour::ALL`]), the first
/// pawn's centre in cells from that corner (column, row), the step to the second column and
/// row, and how big they are drawn.
struct Quad {
    cells: [(u8, u8); 4],
    first: (f32, f32),
    step: (f32, f32),
    radius: f32,
}

/// The pawns in a nest (a corner of 8 x 8 cells).
const IN_NEST: Quad = Quad {
    cells: [(11, 11), (11, 0), (0, 0), (0, 11)],
    first: (2.5, 3.0),
    step: (3.0, 2.5),
    radius: 14.0,
};

/// The pawns at home (the centre cell beside each colour's home row).
const AT_HOME: Quad = Quad {
    cells: [(9, 10), (10, 9), (9, 8), (8, 9)],
    first: (0.28, 0.28),
    step: (0.44, 0.44),
    radius: 7.0,
};

/// The colour a Parcheesi colour is drawn in.
pub fn fill(colour: Colour) -> &'static str {
    match colour {
        Colour::Green => "#2e9d3a",
        Colour::Red => "#d23b2f",
        Colour::Blue => "#2f62c9",
        Colour::Yellow => "#d9a90f",
    }
}

fn tint(colour: Colour) -> &'static str {
    match colour {
        Colour::Green => "#cfe9d2",
        Colour::Red => "#f5cdc9",
        Colour::Blue => "#cbd8f3",
        Colour::Yellow => "#f7ebbb",
    }
}

/// The grid cell (column, row) of ring square `square` on the 19 x 19 cross.
fn ring_cell(square: u8) -> (u8, u8) {
    match square {
        0 => (9, 18),
        1..=8 => (10, 19 - square),
        9..=16 => (square + 2, 10),
        17 => (18, 9),
        18..=25 => (36 - square, 8),
        26..=33 => (10, 33 - square),
        34 => (9, 0),
        35..=42 => (8, square - 35),
        43..=50 => (50 - square, 8),
        51 => (0, 9),
        52..=59 => (square - 52, 10),
        _ => (8, square.saturating_sub(49).min(18)),
    }
}

/// The grid cell of step `step` (1..7) of `colour`'s home row.
fn row_cell(colour: Colour, step: u8) -> (u8, u8) {
    match colour {
        Colour::Green => (9, 18 - step),
        Colour::Red => (18 - step, 9),
        Colour::Blue => (9, step),
        Colour::Yellow => (step, 9),
    }
}

fn origin((col, row): (u8, u8)) -> (f32, f32) {
    (
        MARGIN + f32::from(col) * CELL,
        MARGIN + f32::from(row) * CELL,
    )
}

fn pawn(svg: &mut String, x: f32, y: f32, r: f32, colour: Colour, number: usize) {
    let _ = write!(
        svg,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{}" stroke="#111" stroke-width="1.5"/><text x="{x:.1}" y="{:.1}" font-size="{:.0}" text-anchor="middle" fill="#fff" font-weight="bold">{number}</text>"##,
        fill(colour),
        y + r * 0.45,
        r * 1.25
    );
}

/// The SVG board.
pub fn svg(game: &Match, ended: bool) -> String {
    let side = MARGIN * 2.0 + CELL * 19.0;
    let height = side + 40.0;
    let mut svg = String::new();
    let mut numbers = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{side:.0}" height="{height:.0}" font-family="DejaVu Sans"><rect width="100%" height="100%" fill="#fbf8f0"/>"##
    );
    for colour in Colour::ALL {
        let (x, y) = origin(IN_NEST.cells[colour.index()]);
        let _ = write!(
            svg,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{w:.1}" fill="{}" stroke="#888"/><text x="{:.1}" y="{:.1}" font-size="16" text-anchor="middle" fill="{}">{} nest</text>"##,
            tint(colour),
            x + CELL * 4.0,
            y + CELL * 1.2,
            fill(colour),
            colour.name(),
            w = CELL * 8.0
        );
    }
    let (hx, hy) = origin((8, 8));
    let _ = write!(
        svg,
        r##"<rect x="{hx:.1}" y="{hy:.1}" width="{w:.1}" height="{w:.1}" fill="#fff" stroke="#444"/><text x="{:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#444">HOME</text>"##,
        hx + CELL * 1.5,
        hy + CELL * 1.5 + 3.0,
        w = CELL * 3.0
    );
    for square in 0..RING {
        let (x, y) = origin(ring_cell(square));
        let entry = Colour::ALL.into_iter().find(|c| c.entry() == square);
        let background = match entry {
            Some(c) => tint(c),
            None if is_safe(square) => "#d6d6d6",
            None => "#ffffff",
        };
        let _ = write!(
            svg,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{CELL}" height="{CELL}" fill="{background}" stroke="#666"/>"##
        );
        if is_safe(square) {
            let _ = write!(
                svg,
                r##"<circle cx="{:.1}" cy="{:.1}" r="12" fill="none" stroke="#777" stroke-width="2" stroke-dasharray="3 2"/>"##,
                x + CELL / 2.0,
                y + CELL / 2.0 + 2.0
            );
        }
        // Numbers go on top of everything, on a light label, so rings and pawns never hide
        // them.
        let _ = write!(
            numbers,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="11" rx="2" fill="#ffffff" fill-opacity="0.85"/><text x="{:.1}" y="{:.1}" font-size="10" fill="#222">{square}</text>"##,
            x + 1.0,
            y + 1.0,
            if square < 10 { 8.0 } else { 14.0 },
            x + 2.0,
            y + 10.0
        );
    }
    for colour in Colour::ALL {
        for step in 1..=ROW {
            let (x, y) = origin(row_cell(colour, step));
            let _ = write!(
                svg,
                r##"<rect x="{x:.1}" y="{y:.1}" width="{CELL}" height="{CELL}" fill="{}" stroke="#666"/>"##,
                tint(colour)
            );
        }
    }
    let mut nest_count = [0usize; 4];
    let mut home_count = [0usize; 4];
    for s in game.seated.iter().filter(|s| !s.gone) {
        let colour = s.colour;
        for p in 0..PAWNS {
            let spot = game.pos.spot(colour, p);
            match spot {
                Spot::Nest | Spot::Home => {
                    let (counts, quad) = match spot {
                        Spot::Nest => (&mut nest_count, &IN_NEST),
                        _ => (&mut home_count, &AT_HOME),
                    };
                    let k = counts[colour.index()];
                    counts[colour.index()] += 1;
                    let (x, y) = origin(quad.cells[colour.index()]);
                    let cx = x + CELL * (quad.first.0 + quad.step.0 * (k % 2) as f32);
                    let cy = y + CELL * (quad.first.1 + quad.step.1 * (k / 2) as f32);
                    pawn(&mut svg, cx, cy, quad.radius, colour, p + 1);
                }
                Spot::Ring(_) | Spot::Row(_) => {
                    let cell = match spot {
                        Spot::Ring(square) => ring_cell(square),
                        Spot::Row(step) => row_cell(colour, step),
                        _ => (0, 0),
                    };
                    let shared = (0..PAWNS).filter(|q| game.pos.spot(colour, *q) == spot);
                    let count = shared.clone().count();
                    let rank = shared.take_while(|q| *q != p).count();
                    let (x, y) = origin(cell);
                    if count > 1 {
                        let cx = x + CELL * (0.3 + 0.4 * rank as f32);
                        pawn(&mut svg, cx, y + CELL / 2.0, 9.0, colour, p + 1);
                    } else {
                        pawn(
                            &mut svg,
                            x + CELL / 2.0,
                            y + CELL / 2.0,
                            12.0,
                            colour,
                            p + 1,
                        );
                    }
                }
            }
        }
    }
    svg.push_str(&numbers);
    let _ = write!(
        svg,
        r##"<text x="{MARGIN}" y="{:.1}" font-size="16" fill="#222">{}</text>"##,
        side + 22.0,
        escape(&status_line(game, ended))
    );
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#555" text-anchor="end">grey dashed = safe square · tinted = entry square</text>"##,
        side - MARGIN,
        side + 36.0
    );
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ring_square_has_its_own_cell_off_the_home_rows() {
        let mut cells: Vec<(u8, u8)> = (0..RING).map(ring_cell).collect();
        for colour in Colour::ALL {
            cells.extend((1..=ROW).map(|s| row_cell(colour, s)));
        }
        let count = cells.len();
        cells.sort();
        cells.dedup();
        assert_eq!(cells.len(), count);
        // Consecutive ring squares touch (side by side, or diagonally at the inner corners).
        for s in 0..RING {
            let (a, b) = (ring_cell(s), ring_cell((s + 1) % RING));
            let d = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
            assert!(d.0 <= 1 && d.1 <= 1, "{s} -> {}", s + 1);
        }
    }
}
