//! The board, the supply, square names and the position text format of the rules page.
//!
//! ```text
//! size 6x6
//! supply straight=3 turn=4 cross=1 thunder=0
//! . ┌ ─ ┐ . .
//! ...
//! ```
//! `size` is columns x rows. Printing follows the rules page exactly; reading forgives a
//! byte-order mark, extra spaces, blank lines, `#` comments anywhere and supply keys in any
//! order (a missing key is 0, a key given twice is refused).

use super::piece::{Dir, Kind, Piece};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// The largest number of columns or rows.
pub const MAX_SIDE: usize = 16;
/// The smallest number of columns or rows (a loop needs a 2x2 square).
pub const MIN_SIDE: usize = 2;

/// A square: column and row counted from 0 (column 0 is `a`, row 0 is `1`, the north row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    /// Column from the west, from 0.
    pub col: usize,
    /// Row from the north, from 0.
    pub row: usize,
}

impl Square {
    /// Reads a square name such as `b2` or `B 2` (no check against a board size).
    pub fn parse(text: &str) -> Option<Square> {
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits: String = chars.collect();
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) || digits.len() > 3 {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        if row == 0 {
            return None;
        }
        Some(Square {
            col: usize::from(letter as u8 - b'a'),
            row: row - 1,
        })
    }

    /// The neighbour across `side`, if it is on a board of this size.
    pub fn step(self, side: Dir, cols: usize, rows: usize) -> Option<Square> {
        let (col, row) = match side {
            Dir::North => (Some(self.col), self.row.checked_sub(1)),
            Dir::South => (Some(self.col), Some(self.row + 1)),
            Dir::West => (self.col.checked_sub(1), Some(self.row)),
            Dir::East => (Some(self.col + 1), Some(self.row)),
        };
        match (col, row) {
            (Some(col), Some(row)) if col < cols && row < rows => Some(Square { col, row }),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'a' + (self.col % 26) as u8);
        write!(f, "{letter}{}", self.row + 1)
    }
}

/// The pieces not yet placed, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Supply {
    /// Straight pieces left.
    pub straight: u32,
    /// Turn pieces left.
    pub turn: u32,
    /// Crossroad pieces left.
    pub cross: u32,
    /// Thunder pieces left.
    pub thunder: u32,
}

impl Supply {
    /// How many pieces of `kind` are left.
    pub fn count(&self, kind: Kind) -> u32 {
        match kind {
            Kind::Straight => self.straight,
            Kind::Turn => self.turn,
            Kind::Cross => self.cross,
            Kind::Thunder => self.thunder,
        }
    }

    /// The counter of `kind`, to change it.
    pub fn count_mut(&mut self, kind: Kind) -> &mut u32 {
        match kind {
            Kind::Straight => &mut self.straight,
            Kind::Turn => &mut self.turn,
            Kind::Cross => &mut self.cross,
            Kind::Thunder => &mut self.thunder,
        }
    }

    /// All pieces left.
    pub fn total(&self) -> u32 {
        self.straight + self.turn + self.cross + self.thunder
    }

    /// The supply line of the text format, without the word `supply`.
    pub fn describe(&self) -> String {
        format!(
            "straight={} turn={} cross={} thunder={}",
            self.straight, self.turn, self.cross, self.thunder
        )
    }
}

/// The board: a rectangle of squares, each empty or holding one piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Grid {
    cols: usize,
    rows: usize,
    cells: Vec<Option<Piece>>,
}

impl Grid {
    /// An empty board of `cols` x `rows` squares (each side from 2 to 16).
    pub fn new(cols: usize, rows: usize) -> Result<Grid, String> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&cols) || !(MIN_SIDE..=MAX_SIDE).contains(&rows) {
            return Err(format!(
                "a board is {MIN_SIDE} to {MAX_SIDE} squares each way; {cols}x{rows} is not"
            ));
        }
        Ok(Grid {
            cols,
            rows,
            cells: vec![None; cols * rows],
        })
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Whether `square` lies on the board.
    pub fn contains(&self, square: Square) -> bool {
        square.col < self.cols && square.row < self.rows
    }

    /// The piece on `square` (`None` if empty or off the board).
    pub fn get(&self, square: Square) -> Option<Piece> {
        if !self.contains(square) {
            return None;
        }
        self.cells
            .get(square.row * self.cols + square.col)
            .copied()
            .flatten()
    }

    /// Puts `piece` on `square` (or empties it with `None`); squares off the board are ignored.
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        if self.contains(square) {
            if let Some(cell) = self.cells.get_mut(square.row * self.cols + square.col) {
                *cell = piece;
            }
        }
    }

    /// The cells in row-major order, north row first.
    pub fn cells(&self) -> &[Option<Piece>] {
        &self.cells
    }

    /// Every square of the board, in row-major order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.rows).flat_map(move |row| (0..self.cols).map(move |col| Square { col, row }))
    }

    /// Whether no piece is on the board.
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(Option::is_none)
    }

    /// The neighbour of `square` across `side`, if on the board.
    pub fn neighbour(&self, square: Square, side: Dir) -> Option<Square> {
        square.step(side, self.cols, self.rows)
    }
}

/// A board with its remaining supply: what the text format describes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    /// The board.
    pub grid: Grid,
    /// The pieces not yet placed.
    pub supply: Supply,
}

/// Why a text could not be read as a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {reason}")]
pub struct FormatError {
    /// The line (from 1) where reading failed.
    pub line: usize,
    /// What was wrong and what was expected.
    pub reason: String,
}

impl Position {
    /// Reads the position text format.
    pub fn parse(text: &str) -> Result<Position, FormatError> {
        // Some editors start a UTF-8 file with a byte-order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'));
        let fail = |line: usize, reason: String| FormatError { line, reason };
        let (size_line, size) = lines.next().ok_or_else(|| {
            fail(
                1,
                "the text is empty; it starts with `size <cols>x<rows>`".into(),
            )
        })?;
        let mut grid = parse_size(size).map_err(|reason| fail(size_line, reason))?;
        let (supply_line, supply_text) = lines.next().ok_or_else(|| {
            fail(
                size_line + 1,
                "the `supply straight=.. turn=.. cross=.. thunder=..` line is missing".into(),
            )
        })?;
        let supply = parse_supply(supply_text).map_err(|reason| fail(supply_line, reason))?;
        let mut last_line = supply_line;
        for row in 0..grid.rows() {
            let (line_number, line) = lines.next().ok_or_else(|| {
                fail(
                    last_line + 1,
                    format!(
                        "the board has {} rows but only {row} were given",
                        grid.rows()
                    ),
                )
            })?;
            last_line = line_number;
            let cells: Vec<&str> = line.split_whitespace().collect();
            if cells.len() != grid.cols() {
                return Err(fail(
                    line_number,
                    format!(
                        "row {} has {} cells; the board has {} columns",
                        row + 1,
                        cells.len(),
                        grid.cols()
                    ),
                ));
            }
            for (col, cell) in cells.into_iter().enumerate() {
                let piece = parse_cell(cell).ok_or_else(|| {
                    fail(
                        line_number,
                        format!("`{cell}` is not a cell; use . ─ │ ┌ ┐ └ ┘ ┼ or ⚡"),
                    )
                })?;
                grid.set(Square { col, row }, piece);
            }
        }
        if let Some((line_number, _)) = lines.next() {
            return Err(fail(
                line_number,
                format!(
                    "the board has only {} rows; this line is one too many",
                    grid.rows()
                ),
            ));
        }
        Ok(Position { grid, supply })
    }

    /// Prints the position text format exactly as the rules page shows it.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "size {}x{}\nsupply {}\n",
            self.grid.cols(),
            self.grid.rows(),
            self.supply.describe()
        );
        for row in 0..self.grid.rows() {
            let cells: Vec<String> = (0..self.grid.cols())
                .map(|col| {
                    self.grid
                        .get(Square { col, row })
                        .map_or('.', Piece::glyph)
                        .to_string()
                })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }
}

fn parse_size(text: &str) -> Result<Grid, String> {
    let rest = text
        .strip_prefix("size")
        .ok_or_else(|| format!("expected `size <cols>x<rows>`, found `{text}`"))?;
    parse_dimensions(rest.trim())
        .ok_or_else(|| format!("expected `size <cols>x<rows>` such as `size 6x6`, found `{text}`"))
        .and_then(|(cols, rows)| Grid::new(cols, rows))
}

/// Reads `<cols>x<rows>` such as `6x6` (forgiving case and `×`).
pub fn parse_dimensions(text: &str) -> Option<(usize, usize)> {
    let lower = text.trim().to_lowercase().replace('×', "x");
    let (cols, rows) = lower.split_once('x')?;
    Some((cols.trim().parse().ok()?, rows.trim().parse().ok()?))
}

fn parse_supply(text: &str) -> Result<Supply, String> {
    let rest = text.strip_prefix("supply").ok_or_else(|| {
        format!("expected `supply straight=.. turn=.. cross=.. thunder=..`, found `{text}`")
    })?;
    let mut supply = Supply::default();
    let mut given = [false; 4];
    for item in rest.split_whitespace() {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("`{item}` is not `kind=count`"))?;
        let kind = Kind::parse(key).ok_or_else(|| {
            format!("`{key}` is not a kind; use straight, turn, cross or thunder")
        })?;
        let count: u32 = value
            .parse()
            .ok()
            .filter(|count| *count <= 64)
            .ok_or_else(|| format!("`{value}` is not a count from 0 to 64"))?;
        if std::mem::replace(&mut given[kind.index()], true) {
            return Err(format!(
                "the supply line gives `{}` twice; give each kind once",
                kind.name()
            ));
        }
        *supply.count_mut(kind) = count;
    }
    Ok(supply)
}

fn parse_cell(cell: &str) -> Option<Option<Piece>> {
    let mut chars = cell.chars();
    let glyph = chars.next()?;
    // `⚡` may arrive with the emoji variation selector.
    if chars.any(|c| c != '\u{fe0f}') {
        return None;
    }
    if glyph == '.' {
        return Some(None);
    }
    Piece::from_glyph(glyph).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES_EXAMPLE: &str = "size 6x6
supply straight=3 turn=4 cross=1 thunder=0
. . . . . .
. ┌ ─ ┐ . .
. │ . │ . .
. └ ─ ┼ ─ ┐
. . . │ . │
. . . └ ─ ┘
";

    #[test]
    fn the_rules_page_example_round_trips() {
        let position = Position::parse(RULES_EXAMPLE).unwrap();
        assert_eq!(position.to_text(), RULES_EXAMPLE);
        assert_eq!(
            position.grid.get(Square::parse("b2").unwrap()),
            Some(Piece::EastSouth)
        );
        assert_eq!(position.supply.turn, 4);
    }

    #[test]
    fn reading_forgives_comments_and_refuses_bad_cells() {
        let text = format!(
            "# a comment\n{}",
            RULES_EXAMPLE.replace("supply straight=3", "supply  straight=3")
        );
        assert!(Position::parse(&text).is_ok());
        let error = Position::parse(&RULES_EXAMPLE.replace("┼", "X")).unwrap_err();
        assert_eq!(error.line, 6);
        assert!(Position::parse("size 1x40\nsupply\n").is_err());
    }

    #[test]
    fn a_byte_order_mark_is_read_and_a_supply_key_given_twice_is_refused() {
        let marked = format!("\u{feff}{RULES_EXAMPLE}");
        assert_eq!(Position::parse(&marked).unwrap().to_text(), RULES_EXAMPLE);
        let twice = RULES_EXAMPLE.replace("straight=3", "straight=3 straight=4");
        let error = Position::parse(&twice).unwrap_err();
        assert_eq!(error.line, 2);
        assert_eq!(
            error.reason,
            "the supply line gives `straight` twice; give each kind once"
        );
        let synonym = RULES_EXAMPLE.replace("turn=4", "turn=4 corner=1");
        assert!(Position::parse(&synonym)
            .unwrap_err()
            .reason
            .contains("`turn` twice"));
    }

    #[test]
    fn squares_are_named_column_letter_then_row() {
        let square = Square::parse(" C12 ").unwrap();
        assert_eq!((square.col, square.row), (2, 11));
        assert_eq!(square.to_string(), "c12");
        assert_eq!(Square::parse("b0"), None);
        assert_eq!(Square::parse("2b"), None);
    }
}
