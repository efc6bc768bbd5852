//! The board as text (the position format in a code block, with both clocks) and as SVG.

use super::act::ShortCircuitGame;
use super::piece::{Dir, Piece};
use super::position::Square;
use crate::picture::escape;

/// A clock's time in milliseconds, written as every duration is written
/// ([`crate::duration::format_duration`]: `4 minutes 30 seconds`, `1 day 3 hours`).
pub fn duration_text(ms: i64) -> String {
    crate::duration::format_duration(chrono::Duration::milliseconds(ms))
}

fn clock_lines(game: &ShortCircuitGame) -> Vec<String> {
    (0..2)
        .map(|seat| {
            format!(
                "{}: reserve {} (turn time {})",
                game.names.get(seat).map_or("?", String::as_str),
                duration_text(game.reserve_ms.get(seat).copied().unwrap_or(0)),
                duration_text(game.setup.turn_secs * 1000)
            )
        })
        .collect()
}

fn status_line(game: &ShortCircuitGame, ended: bool) -> String {
    let name = |seat: usize| game.names.get(seat).map_or("?", String::as_str).to_string();
    match (&game.outcome, &game.challenge) {
        (None, _) if ended => "the game is over".to_string(),
        (Some(outcome), _) => format!(
            "{} won: {}",
            name(outcome.winner),
            first_line(&outcome.reason)
        ),
        (None, Some(challenge)) => format!(
            "{} called impossible; {} may place until the circuit is complete, or concede",
            name(challenge.caller),
            name(game.to_move)
        ),
        (None, None) => match &game.call {
            Some(call) => format!(
                "{} called impossible; the solver is judging",
                name(call.caller)
            ),
            None => format!("{} to move", name(game.to_move)),
        },
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim_end_matches(':')
}

/// The text board: a status line, then a code block holding the position format (which
/// `referee solve` reads back) with both clocks as `#` comment lines; `ended`: the table
/// ended the game, so it names no player to move.
pub fn text(game: &ShortCircuitGame, ended: bool) -> String {
    let mut out = format!("Short Circuit: {}\n```\n", status_line(game, ended));
    out.push_str(&game.position.to_text());
    for line in clock_lines(game) {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str("```");
    out
}

const CELL: usize = 48;
const MARGIN: usize = 28;

fn piece_svg(piece: Piece, x: usize, y: usize) -> String {
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    if piece == Piece::Thunder {
        return format!(
            r##"<rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="#f6d32d" stroke="#9a7b00" stroke-width="2"/><text x="{cx}" y="{}" font-size="28" text-anchor="middle" fill="#5c4500">⚡</text>"##,
            x + 4,
            y + 4,
            CELL - 8,
            CELL - 8,
            cy + 10
        );
    }
    let end = |side: Dir| match side {
        Dir::North => (cx, y),
        Dir::South => (cx, y + CELL),
        Dir::East => (x + CELL, cy),
        Dir::West => (x, cy),
    };
    let line = |a: Dir, b: Dir| {
        let ((x1, y1), (x2, y2)) = (end(a), end(b));
        format!(
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#b35a1f" stroke-width="10" stroke-linecap="butt"/>"##
        )
    };
    let path = |a: Dir, b: Dir| {
        let ((x1, y1), (x2, y2)) = (end(a), end(b));
        format!(
            r##"<path d="M{x1} {y1} Q{cx} {cy} {x2} {y2}" fill="none" stroke="#b35a1f" stroke-width="10"/>"##
        )
    };
    match piece {
        Piece::Vertical => line(Dir::North, Dir::South),
        Piece::Horizontal => line(Dir::West, Dir::East),
        Piece::NorthEast => path(Dir::North, Dir::East),
        Piece::EastSouth => path(Dir::East, Dir::South),
        Piece::SouthWest => path(Dir::South, Dir::West),
        Piece::WestNorth => path(Dir::West, Dir::North),
        Piece::Cross => format!(
            "{}{}<circle cx=\"{cx}\" cy=\"{cy}\" r=\"4\" fill=\"#fff\"/>",
            line(Dir::North, Dir::South),
            line(Dir::West, Dir::East)
        ),
        Piece::Thunder => String::new(),
    }
}

/// The board as an SVG picture: the squares with column letters and row numbers, the pieces,
/// and below them the status, the supply and both clocks; `ended` as for [`text`].
pub fn svg(game: &ShortCircuitGame, ended: bool) -> String {
    let grid = &game.position.grid;
    let mut lines = vec![
        status_line(game, ended),
        format!("supply: {}", game.position.supply.describe()),
    ];
    lines.extend(clock_lines(game));
    // Wide enough for the longest line below the board (about 8.4 px a character at 14 px).
    let text_width = lines
        .iter()
        .map(|line| line.chars().count() * 84 / 10 + MARGIN)
        .max()
        .unwrap_or(0);
    let width = (2 * MARGIN + grid.cols() * CELL).max(360).max(text_width);
    let text_top = MARGIN + grid.rows() * CELL + 28;
    let height = text_top + lines.len() * 22;
    let mut out = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="DejaVu Sans"><rect width="{width}" height="{height}" fill="#fbfaf5"/>"##
    );
    for square in grid.squares() {
        let (x, y) = (MARGIN + square.col * CELL, MARGIN + square.row * CELL);
        out.push_str(&format!(
            r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#e8e4d8" stroke="#9c978a" stroke-width="1"/>"##
        ));
        if let Some(piece) = grid.get(square) {
            out.push_str(&piece_svg(piece, x, y));
        }
    }
    for col in 0..grid.cols() {
        let letter = Square { col, row: 0 }
            .to_string()
            .chars()
            .next()
            .unwrap_or('?');
        out.push_str(&format!(
            r##"<text x="{}" y="{}" font-size="14" text-anchor="middle" fill="#333">{}</text>"##,
            MARGIN + col * CELL + CELL / 2,
            MARGIN - 8,
            letter
        ));
    }
    for row in 0..grid.rows() {
        out.push_str(&format!(
            r##"<text x="{}" y="{}" font-size="14" text-anchor="middle" fill="#333">{}</text>"##,
            MARGIN / 2,
            MARGIN + row * CELL + CELL / 2 + 5,
            row + 1
        ));
    }
    for (index, line) in lines.iter().enumerate() {
        out.push_str(&format!(
            r##"<text x="{}" y="{}" font-size="14" fill="#222">{}</text>"##,
            MARGIN / 2,
            text_top + index * 22,
            escape(line)
        ));
    }
    out.push_str("</svg>");
    out
}
