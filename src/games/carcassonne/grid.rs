//! The grid under the map: what each cell holds (nothing, a tile, or an open spot: an empty
//! cell next to a tile, with what its placed neighbours show on each side), and the open spots
//! in reading order. Placing a tile changes only its cell and the up to four cells around it,
//! so listing a tile's legal placements reads a table per open spot instead of checking every
//! spot's neighbours.
//!
//! A spot's needs are one byte, two bits per side (north in the low bits, then east, south,
//! west): 0 where no tile touches that side, else the code of the edge the neighbour shows
//! there. A table, built at compile time, gives for each tile kind and each such byte the
//! rotations that fit.

use super::tiles::{Edge, TileKind, BASE, BIGTOP, KINDS};

/// The farthest a tile may lie from the start tile: room for every tile in one row, the
/// expansion's 92 included.
pub const REACH: i32 = 96;
const SIDE: i32 = 2 * REACH + 1;
/// The most tiles a map holds: more than the 92 of both boxes together (a feature keeps its
/// tiles as a set of 128 bits).
pub const MAX_TILES: usize = 128;

/// Steps to the neighbour on each side: north, east, south, west.
pub(super) const STEPS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// A cell's value with this bit is an open spot (its low byte holds the needs); otherwise 0
/// is empty and `i + 1` holds tile `i`.
const OPEN: u16 = 0x8000;

/// The code of an edge in a spot's needs (0 stands for "no neighbour").
const fn code(edge: Edge) -> u8 {
    match edge {
        Edge::Field => 1,
        Edge::Road => 2,
        Edge::City => 3,
    }
}

const fn kind_at(k: usize) -> &'static TileKind {
    if k < BASE.len() {
        &BASE[k]
    } else {
        &BIGTOP[k - BASE.len()]
    }
}

/// For each kind and each needs byte, the rotations that fit, as bits 0..4.
const fn fit_table() -> [[u8; 256]; KINDS] {
    let mut table = [[0u8; 256]; KINDS];
    let mut k = 0;
    while k < KINDS {
        let edges = kind_at(k).edges;
        let mut needs = 0;
        while needs < 256 {
            let mut rot = 0;
            while rot < 4 {
                let mut fits = true;
                let mut side = 0;
                while side < 4 {
                    let wanted = (needs >> (2 * side)) & 3;
                    // Turned `rot` quarter turns clockwise, side `side` shows the printed
                    // edge `rot` places anticlockwise of it (as in `tiles::shape`).
                    let shown = code(edges[(side + 4 - rot) % 4]) as usize;
                    if wanted != 0 && wanted != shown {
                        fits = false;
                    }
                    side += 1;
                }
                if fits {
                    table[k][needs] |= 1 << rot;
                }
                rot += 1;
            }
            needs += 1;
        }
        k += 1;
    }
    table
}

static FITS: [[u8; 256]; KINDS] = fit_table();

/// For each set of rotations (bits 0..4), the set's rotations in ascending order, then zeros
/// (never read: beyond the list's length, or written over by the next spot): a spot's
/// placements written as one block.
const fn fitting_first() -> [[u32; 4]; 16] {
    let mut table = [[0u32; 4]; 16];
    let mut set = 0;
    while set < 16 {
        let mut n = 0;
        let mut rot = 0;
        while rot < 4 {
            if set & (1 << rot) != 0 {
                table[set][n] = rot as u32;
                n += 1;
            }
            rot += 1;
        }
        set += 1;
    }
    table
}

static FITTING_FIRST: [[u32; 4]; 16] = fitting_first();

/// The index of the cell at (x,y) (`None` beyond [`REACH`]); indices grow in reading order.
pub(super) fn cell(x: i32, y: i32) -> Option<usize> {
    if x.abs() > REACH || y.abs() > REACH {
        return None;
    }
    usize::try_from((y + REACH) * SIDE + x + REACH).ok()
}

/// The spot of cell `c`.
fn spot(c: u16) -> (i32, i32) {
    let c = i32::from(c);
    (c % SIDE - REACH, c / SIDE - REACH)
}

/// A tile's legal placements, kept for reuse: its room grows to the most a map has needed and
/// is never cleared, so listing placements again allocates nothing. Each is kept packed (its
/// cell and rotation in one number) and read as (x, y, quarter turns).
#[derive(Clone, Debug, Default)]
pub struct Placements {
    slots: Vec<u32>,
    pub(super) len: usize,
}

impl Placements {
    /// Placement `i` (in reading order: row, column, rotation).
    pub fn get(&self, i: usize) -> Option<(i32, i32, u8)> {
        self.slots
            .get(..self.len)?
            .get(i)
            .map(|&packed| unpack(packed))
    }

    /// The placements, in reading order.
    pub fn iter(&self) -> impl Iterator<Item = (i32, i32, u8)> + '_ {
        self.slots
            .get(..self.len)
            .unwrap_or_default()
            .iter()
            .map(|&packed| unpack(packed))
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A placement packed as its cell times four plus its rotation.
fn unpack(packed: u32) -> (i32, i32, u8) {
    let (x, y) = spot((packed >> 2) as u16);
    (x, y, (packed & 3) as u8)
}

/// Like `binary_search` in the ascending `cells`, walking from index `from`: quicker when the
/// cell sought lies a few places away, as the cells around a placed tile do.
fn search_near(cells: &[u16], c: u16, from: usize) -> Result<usize, usize> {
    let mut i = from.min(cells.len());
    while i > 0 && cells.get(i - 1).is_some_and(|&v| v >= c) {
        i -= 1;
    }
    while cells.get(i).is_some_and(|&v| v < c) {
        i += 1;
    }
    match cells.get(i) {
        Some(&v) if v == c => Ok(i),
        _ => Err(i),
    }
}

/// The cells and the open spots.
#[derive(Clone, Debug)]
pub(super) struct Grid {
    cells: Vec<u16>,
    /// The open cells, ascending, which is reading order (row, then column).
    open: Vec<u16>,
}

impl Grid {
    /// An empty grid.
    pub(super) fn new() -> Grid {
        Grid {
            cells: vec![0; (SIDE * SIDE) as usize],
            open: Vec::with_capacity(128),
        }
    }

    /// The index of the tile at (x,y).
    pub(super) fn tile_at(&self, x: i32, y: i32) -> Option<usize> {
        let value = *self.cells.get(cell(x, y)?)?;
        (value != 0 && value & OPEN == 0).then(|| usize::from(value) - 1)
    }

    /// Puts tile `index` (below [`MAX_TILES`]), showing `edges` (north, east, south, west), at
    /// the free cell (x,y); the empty cells around it open, and open ones learn what it shows.
    pub(super) fn put(&mut self, index: usize, x: i32, y: i32, edges: [Edge; 4]) {
        let Some(c) = cell(x, y) else {
            return;
        };
        // Where the cell stands (or would stand) among the open ones: the cells around it
        // stand close by, so they are looked for from there. Its own place in the list, if
        // it was open, is taken by its east or west neighbour if one opens (nothing can stand
        // between a cell and the next one in its row, and `cell` gives no neighbour past the
        // row's end), else removed at the end: one shift of the list the fewer.
        let (mut near, mut vacant) = match self.open.binary_search(&(c as u16)) {
            Ok(i) => (i, Some(i)),
            Err(i) => (i, None),
        };
        if let Some(slot) = self.cells.get_mut(c) {
            *slot = (index + 1) as u16;
        }
        for (side, (dx, dy)) in STEPS.iter().enumerate() {
            let Some(n) = cell(x + dx, y + dy) else {
                continue;
            };
            let need = u16::from(code(edges[side])) << (2 * ((side + 2) % 4));
            match self.cells.get_mut(n) {
                Some(v) if *v == 0 => {
                    *v = OPEN | need;
                    let beside = vacant.filter(|_| *dy == 0);
                    match beside.and_then(|i| self.open.get_mut(i).map(|slot| (i, slot))) {
                        Some((i, slot)) => {
                            *slot = n as u16;
                            near = i;
                            vacant = None;
                        }
                        _ => {
                            if let Err(i) = search_near(&self.open, n as u16, near) {
                                self.open.insert(i, n as u16);
                                near = i;
                                vacant = vacant.map(|at| if i <= at { at + 1 } else { at });
                            }
                        }
                    }
                }
                Some(v) if *v & OPEN != 0 => *v |= need,
                _ => {}
            }
        }
        if let Some(i) = vacant {
            self.open.remove(i);
        }
    }

    /// The rotations (bits 0..4) that fit open cell `c`, read in `row`, one kind's line of
    /// the table.
    fn rotations(row: &[u8; 256], cells: &[u16], c: u16) -> u8 {
        cells
            .get(usize::from(c))
            .map_or(0, |&v| row[usize::from(v as u8)])
    }

    /// Every placement of kind `kind` that fits an open spot, in reading order (row, column,
    /// rotation), written over `out`.
    pub(super) fn legal_into(&self, kind: u8, out: &mut Placements) {
        out.len = 0;
        let Some(row) = FITS.get(usize::from(kind)) else {
            return;
        };
        if out.slots.len() < 4 * self.open.len() {
            out.slots.resize(4 * self.open.len(), 0);
        }
        // Each spot writes four slots at once, the rotations that fit first, and keeps as
        // many as fit: no branch to guess, and no slot is cleared first (only the first
        // `len` are read).
        let mut n = 0;
        for &c in &self.open {
            let fits = Self::rotations(row, &self.cells, c) & 15;
            let [a, b, d, e] = FITTING_FIRST[usize::from(fits)];
            let base = u32::from(c) << 2;
            if let Some(block) = out.slots.get_mut(n..n + 4) {
                block.copy_from_slice(&[base | a, base | b, base | d, base | e]);
            }
            n += fits.count_ones() as usize;
        }
        out.len = n;
    }

    /// Whether kind `kind` turned `rot` fits the spot (x,y): `None` when the spot is not
    /// open (it holds a tile, touches none, or lies beyond [`REACH`]) or the kind is unknown.
    pub(super) fn fits(&self, kind: u8, x: i32, y: i32, rot: u8) -> Option<bool> {
        let value = *self.cells.get(cell(x, y)?)?;
        if value & OPEN == 0 {
            return None;
        }
        let row = FITS.get(usize::from(kind))?;
        Some(row[usize::from(value as u8)] & (1 << (rot % 4)) != 0)
    }

    /// Whether kind `kind` fits any open spot.
    pub(super) fn fits_anywhere(&self, kind: u8) -> bool {
        FITS.get(usize::from(kind)).is_some_and(|row| {
            self.open
                .iter()
                .any(|&c| Self::rotations(row, &self.cells, c) != 0)
        })
    }
}
