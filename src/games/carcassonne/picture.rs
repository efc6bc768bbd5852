//! Pictures: the map drawn from the tile data (fields green, cities tan with blue pennants,
//! roads, monasteries, followers in player colours: discs on roads, cities and monasteries,
//! squares for farmers), coordinates on every margin, the last tile outlined in yellow, the
//! legal spots for a pending tile marked with their rotations, and a side panel with the drawn
//! tile in its four rotations, features lettered as the commands name them.
//!
//! With Under the Big Top: circus spaces as small striped tents on a ring, acrobat spaces as
//! purple rings, the Big Top as a large red-and-white tent over a face-down "?" token, acrobat
//! pyramids as stacked discs (two below, one on their shoulders), the ringmaster as a disc (or a
//! farmer's square) wearing a black top hat, and a footer with the tokens revealed so far.

use super::circus::Circus;
use super::map::{Figure, Map, Placed};
use super::parse::letter;
use super::text::plural;
use super::tiles::{shape_of, Centre, Kind, Part, Shape};
use crate::picture::{self, escape};
use std::fmt::Write;

/// Fill colours of the player colours, by name.
pub fn colour_fill(name: &str) -> &'static str {
    match name {
        "red" => "#d62728",
        "blue" => "#1f5fd6",
        "green" => "#19a019",
        "yellow" => "#f5d90a",
        "grey" => "#9a9a9a",
        _ => "#222222",
    }
}

const CORNER: [(f32, f32); 4] = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
const HALF_POINT: [(f32, f32); 8] = [
    (0.25, 0.12),
    (0.75, 0.12),
    (0.88, 0.25),
    (0.88, 0.75),
    (0.75, 0.88),
    (0.25, 0.88),
    (0.12, 0.75),
    (0.12, 0.25),
];

fn edge_corners(d: usize) -> ((f32, f32), (f32, f32)) {
    (CORNER[d % 4], CORNER[(d + 1) % 4])
}

fn inward((x, y): (f32, f32), k: f32) -> (f32, f32) {
    (x + (0.5 - x) * k, y + (0.5 - y) * k)
}

fn mid(d: usize) -> (f32, f32) {
    let (a, b) = edge_corners(d);
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

fn sides(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |d| mask & (1 << d) != 0)
}

/// Where a feature's follower or label stands, in tile units (fields keep clear of the city
/// caps they touch).
fn anchor(shape: &Shape, part: &Part) -> (f32, f32) {
    match part.kind {
        Kind::City => {
            let ds: Vec<usize> = sides(part.edges).collect();
            match ds.as_slice() {
                [d] => inward(mid(*d), 0.28),
                [_, _, _] => {
                    let missing = (0..4).find(|d| !ds.contains(d)).unwrap_or(2);
                    inward(mid((missing + 2) % 4), 0.3)
                }
                _ => {
                    let n = ds.len() as f32;
                    let (sx, sy) = ds.iter().fold((0.0, 0.0), |(x, y), &d| {
                        let m = inward(mid(d), 0.55);
                        (x + m.0, y + m.1)
                    });
                    (sx / n, sy / n)
                }
            }
        }
        Kind::Road => {
            let k = match shape.centre {
                Centre::Circus | Centre::Acrobats => 0.3,
                Centre::Empty | Centre::Monastery => 0.45,
            };
            sides(part.edges)
                .next()
                .map_or((0.5, 0.5), |d| inward(mid(d), k))
        }
        Kind::Field => {
            let hs: Vec<usize> = (0..8).filter(|h| part.halves & (1 << h) != 0).collect();
            let n = hs.len().max(1) as f32;
            let (sx, sy) = hs.iter().fold((0.0, 0.0), |(x, y), &h| {
                (x + HALF_POINT[h].0, y + HALF_POINT[h].1)
            });
            let avg = (sx / n, sy / n);
            if (avg.0 - 0.5).abs() + (avg.1 - 0.5).abs() < 0.15 {
                return (0.2, 0.8);
            }
            let (mut x, mut y) = inward(avg, 0.3);
            let caps = part
                .cities
                .iter()
                .filter_map(|&c| shape.parts.get(usize::from(c)))
                .filter(|c| c.edges.count_ones() == 1);
            for cap in caps {
                match cap.edges {
                    1 => y = y.max(0.38),
                    2 => x = x.min(0.62),
                    4 => y = y.min(0.62),
                    _ => x = x.max(0.38),
                }
            }
            if matches!(shape.centre, Centre::Circus | Centre::Acrobats) {
                return clear_of_the_space((x, y));
            }
            (x, y)
        }
        Kind::Monastery => (0.5, 0.52),
    }
}

/// Moves a field's mark off the circus or acrobat space in the middle of the tile.
fn clear_of_the_space((x, y): (f32, f32)) -> (f32, f32) {
    let (dx, dy) = (x - 0.5, y - 0.5);
    let len = (dx * dx + dy * dy).sqrt();
    if len >= 0.3 {
        (x, y)
    } else if len < 0.01 {
        (0.2, 0.8)
    } else {
        (0.5 + dx * 0.3 / len, 0.5 + dy * 0.3 / len)
    }
}

fn pts(points: &[(f32, f32)]) -> String {
    points
        .iter()
        .map(|(x, y)| format!("{x:.3},{y:.3}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The unit-square drawing of one tile shape (no outline).
fn tile_body(shape: &Shape, out: &mut String) {
    out.push_str("<rect width=\"1\" height=\"1\" fill=\"#86b94f\"/>");
    for part in shape.parts.iter().filter(|p| p.kind == Kind::City) {
        let ds: Vec<usize> = sides(part.edges).collect();
        let style = "fill=\"#c99a5b\" stroke=\"#6e4a22\" stroke-width=\"0.015\"";
        for &d in &ds {
            let (a, b) = edge_corners(d);
            let k = if ds.len() == 1 { 0.45 } else { 0.55 };
            let (c, e) = (inward(b, k), inward(a, k));
            if ds.len() == 1 {
                let ctl = inward(mid(d), 1.25);
                let _ = write!(
                    out,
                    "<path d=\"M{:.3},{:.3} L{:.3},{:.3} Q{:.3},{:.3} {:.3},{:.3} Z\" {style}/>",
                    a.0, a.1, b.0, b.1, ctl.0, ctl.1, a.0, a.1
                );
            } else {
                let _ = write!(out, "<polygon points=\"{}\" {style}/>", pts(&[a, b, c, e]));
            }
        }
        if ds.len() > 1 {
            let inner: Vec<(f32, f32)> = ds
                .iter()
                .flat_map(|&d| {
                    let (a, b) = edge_corners(d);
                    [inward(a, 0.55), inward(b, 0.55)]
                })
                .collect();
            let _ = write!(
                out,
                "<polygon points=\"{}\" fill=\"#c99a5b\"/>",
                pts(&inner)
            );
        }
        if part.pennant {
            let (x, y) = anchor(shape, part);
            let (vx, vy) = (x - 0.5, y - 0.5);
            let len = (vx * vx + vy * vy).sqrt();
            let (x, y) = if len < 0.05 {
                (x + 0.2, y)
            } else {
                (x - 0.2 * vy / len, y + 0.2 * vx / len)
            };
            let _ = write!(
                out,
                "<path d=\"M{:.3},{:.3} h0.14 v0.09 l-0.07,0.06 l-0.07,-0.06 Z\" fill=\"#2b4fa8\" stroke=\"#fff\" stroke-width=\"0.015\"/>",
                x - 0.07,
                y - 0.07
            );
        }
    }
    let monastery = shape.parts.iter().any(|p| p.kind == Kind::Monastery);
    for part in shape.parts.iter().filter(|p| p.kind == Kind::Road) {
        let ds: Vec<usize> = sides(part.edges).collect();
        let d = match ds.as_slice() {
            [a, b] => {
                let (p, q) = (mid(*a), mid(*b));
                format!("M{:.3},{:.3} Q0.5,0.5 {:.3},{:.3}", p.0, p.1, q.0, q.1)
            }
            [a] => {
                let p = mid(*a);
                format!("M{:.3},{:.3} L0.5,0.5", p.0, p.1)
            }
            _ => continue,
        };
        let _ = write!(
            out,
            "<path d=\"{d}\" fill=\"none\" stroke=\"#4a4a4a\" stroke-width=\"0.13\"/><path d=\"{d}\" fill=\"none\" stroke=\"#f3eedc\" stroke-width=\"0.09\"/>"
        );
        if ds.len() == 1 && shape.centre == Centre::Empty {
            out.push_str("<circle cx=\"0.5\" cy=\"0.5\" r=\"0.09\" fill=\"#6b5a45\" stroke=\"#333\" stroke-width=\"0.015\"/>");
        }
    }
    match shape.centre {
        Centre::Circus => out.push_str("<circle cx=\"0.5\" cy=\"0.5\" r=\"0.17\" fill=\"#f7e3b5\" stroke=\"#b3122e\" stroke-width=\"0.035\"/><polygon points=\"0.39,0.59 0.61,0.59 0.5,0.39\" fill=\"#d62728\" stroke=\"#7a0c1e\" stroke-width=\"0.012\"/><polygon points=\"0.46,0.59 0.54,0.59 0.5,0.39\" fill=\"#fff\"/>"),
        Centre::Acrobats => out.push_str("<circle cx=\"0.5\" cy=\"0.5\" r=\"0.17\" fill=\"#eadcf7\" stroke=\"#6a2c91\" stroke-width=\"0.035\"/><circle cx=\"0.43\" cy=\"0.55\" r=\"0.05\" fill=\"none\" stroke=\"#6a2c91\" stroke-width=\"0.02\"/><circle cx=\"0.57\" cy=\"0.55\" r=\"0.05\" fill=\"none\" stroke=\"#6a2c91\" stroke-width=\"0.02\"/><circle cx=\"0.5\" cy=\"0.43\" r=\"0.05\" fill=\"none\" stroke=\"#6a2c91\" stroke-width=\"0.02\" stroke-dasharray=\"0.02,0.015\"/>"),
        Centre::Empty | Centre::Monastery => {}
    }
    if monastery {
        out.push_str("<rect x=\"0.36\" y=\"0.42\" width=\"0.28\" height=\"0.24\" fill=\"#efe6cf\" stroke=\"#5a3d1e\" stroke-width=\"0.02\"/><polygon points=\"0.32,0.43 0.5,0.28 0.68,0.43\" fill=\"#b3412f\" stroke=\"#5a3d1e\" stroke-width=\"0.02\"/><rect x=\"0.46\" y=\"0.54\" width=\"0.08\" height=\"0.12\" fill=\"#5a3d1e\"/>");
    }
}

/// The Big Top: a large striped tent over a face-down token ("?"), or an empty token spot.
fn big_top(face_down: bool, out: &mut String) {
    out.push_str("<polygon points=\"0.2,0.74 0.8,0.74 0.8,0.5 0.5,0.18 0.2,0.5\" fill=\"#d62728\" stroke=\"#5a0a14\" stroke-width=\"0.025\"/>");
    for x in [0.32f32, 0.5, 0.68] {
        let _ = write!(
            out,
            "<polygon points=\"{:.3},0.74 {:.3},0.74 0.5,0.2\" fill=\"#fff\"/>",
            x - 0.04,
            x + 0.04
        );
    }
    out.push_str("<line x1=\"0.5\" y1=\"0.18\" x2=\"0.5\" y2=\"0.06\" stroke=\"#5a0a14\" stroke-width=\"0.02\"/><polygon points=\"0.5,0.06 0.62,0.09 0.5,0.12\" fill=\"#f5d90a\" stroke=\"#5a0a14\" stroke-width=\"0.01\"/>");
    if face_down {
        out.push_str("<circle cx=\"0.5\" cy=\"0.62\" r=\"0.09\" fill=\"#7a5230\" stroke=\"#000\" stroke-width=\"0.015\"/><text x=\"0.5\" y=\"0.665\" font-size=\"0.13\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"#fff\">?</text>");
    }
}

/// A pyramid of acrobats: two discs below, the third on their shoulders.
fn pyramid(fills: &[&str], out: &mut String) {
    const SPOTS: [(f32, f32); 3] = [(0.38, 0.62), (0.62, 0.62), (0.5, 0.4)];
    for (fill, (x, y)) in fills.iter().zip(SPOTS) {
        let _ = write!(
            out,
            "<circle cx=\"{x:.3}\" cy=\"{y:.3}\" r=\"0.12\" fill=\"{fill}\" stroke=\"#000\" stroke-width=\"0.03\"/><circle cx=\"{x:.3}\" cy=\"{y:.3}\" r=\"0.045\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"0.01\"/>"
        );
    }
}

/// The ringmaster's top hat, over a follower mark at (x, y).
fn top_hat((x, y): (f32, f32), out: &mut String) {
    let _ = write!(
        out,
        "<rect x=\"{:.3}\" y=\"{:.3}\" width=\"0.26\" height=\"0.035\" fill=\"#000\" stroke=\"#fff\" stroke-width=\"0.008\"/><rect x=\"{:.3}\" y=\"{:.3}\" width=\"0.14\" height=\"0.12\" fill=\"#000\" stroke=\"#fff\" stroke-width=\"0.008\"/><rect x=\"{:.3}\" y=\"{:.3}\" width=\"0.14\" height=\"0.025\" fill=\"#d62728\"/>",
        x - 0.13,
        y - 0.115,
        x - 0.07,
        y - 0.225,
        x - 0.07,
        y - 0.14
    );
}

fn follower_mark(kind: Kind, (x, y): (f32, f32), fill: &str, out: &mut String) {
    if kind == Kind::Field {
        let _ = write!(
            out,
            "<rect x=\"{:.3}\" y=\"{:.3}\" width=\"0.2\" height=\"0.2\" fill=\"{fill}\" stroke=\"#000\" stroke-width=\"0.03\"/><rect x=\"{:.3}\" y=\"{:.3}\" width=\"0.2\" height=\"0.2\" fill=\"none\" stroke=\"#fff\" stroke-width=\"0.012\"/>",
            x - 0.1,
            y - 0.1,
            x - 0.1,
            y - 0.1
        );
    } else {
        let _ = write!(
            out,
            "<circle cx=\"{x:.3}\" cy=\"{y:.3}\" r=\"0.11\" fill=\"{fill}\" stroke=\"#000\" stroke-width=\"0.03\"/><circle cx=\"{x:.3}\" cy=\"{y:.3}\" r=\"0.085\" fill=\"none\" stroke=\"#fff\" stroke-width=\"0.012\"/>"
        );
    }
}

fn letters(shape: &Shape, out: &mut String) {
    for (i, part) in shape.parts.iter().enumerate() {
        let (x, y) = anchor(shape, part);
        let _ = write!(
            out,
            "<circle cx=\"{x:.3}\" cy=\"{y:.3}\" r=\"0.075\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"0.012\"/><text x=\"{x:.3}\" y=\"{:.3}\" font-size=\"0.12\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
            y + 0.04,
            letter(i)
        );
    }
}

/// What the picture shows besides the map itself.
pub struct View<'a> {
    /// Colour names by seat.
    pub colours: &'a [String],
    /// Player names by seat.
    pub names: &'a [String],
    /// Tiles left in the bag.
    pub tiles_left: usize,
    /// The drawn tile kind waiting to be placed, if any.
    pub pending: Option<u8>,
    /// Legal placements of the pending tile.
    pub legal: &'a [(i32, i32, u8)],
    /// The index of the last placed tile.
    pub last: Option<usize>,
    /// Whether its player is choosing a follower for it: its features carry their letters.
    pub choosing: bool,
}

/// The Big Top and the acrobat pyramids, drawn over their tiles.
fn circus_figures(
    map: &Map,
    circus: &Circus,
    view: &View<'_>,
    place: &dyn Fn(&Placed) -> (f32, f32),
    ts: f32,
    s: &mut String,
) {
    let group = |t: &Placed, s: &mut String| {
        let (px, py) = place(t);
        let _ = write!(
            s,
            "<g transform=\"translate({px:.1},{py:.1}) scale({ts:.2})\">"
        );
    };
    if let Some(t) = circus.big_top().and_then(|b| map.tiles().get(b.tile)) {
        group(t, s);
        big_top(circus.token_down(), s);
        s.push_str("</g>");
    }
    for p in circus.pyramids() {
        let Some(t) = map.tiles().get(p.tile) else {
            continue;
        };
        let fills: Vec<&str> = p
            .acrobats
            .iter()
            .map(|&seat| colour_fill(view.colours.get(seat).map_or("", String::as_str)))
            .collect();
        group(t, s);
        pyramid(&fills, s);
        s.push_str("</g>");
    }
}

/// The footer's text size.
const FOOTER_SIZE: f32 = 14.0;
/// The height of one line of the footer.
const FOOTER_LINE: f32 = 18.0;

/// The whole board picture as SVG.
pub fn board_svg(map: &Map, view: &View<'_>) -> String {
    let (x0, y0, x1, y1) = map.bounds();
    let (x0, y0, x1, y1) = (x0 - 1, y0 - 1, x1 + 1, y1 + 1);
    let cols = (x1 - x0 + 1) as f32;
    let rows = (y1 - y0 + 1) as f32;
    let ts = (3600.0 / cols.max(rows)).clamp(20.0, 72.0);
    let margin = 30.0;
    let header = 34.0;
    let map_w = cols * ts + 2.0 * margin;
    let map_h = rows * ts + 2.0 * margin;
    let panel_w = if view.pending.is_some() { 200.0 } else { 0.0 };
    let circus = map.circus();
    let note = |seat: usize| match circus {
        Some(c) if c.ringmaster_home(seat) => " +ringmaster",
        _ => "",
    };
    let header_w: f32 = view
        .names
        .iter()
        .enumerate()
        .map(|(seat, n)| 40.0 + 9.0 * ((n.chars().count() + note(seat).len()) as f32 + 21.0))
        .sum::<f32>()
        + 16.0;
    let mut footer_text = format!("Tiles left: {}", view.tiles_left);
    if let Some(c) = circus {
        let revealed: Vec<String> = c
            .revealed()
            .iter()
            .map(|a| format!("{} {}", a.word(), a.value()))
            .collect();
        let _ = write!(
            footer_text,
            " · Big Top tokens revealed: {} ({} face down in the box)",
            if revealed.is_empty() {
                "none yet".to_string()
            } else {
                revealed.join(", ")
            },
            c.stack_left()
        );
    }
    let width = (map_w + panel_w)
        .max(header_w)
        .max(if circus.is_some() { 680.0 } else { 0.0 });
    // The footer (the tokens revealed by the end run long) wraps to the picture's width.
    let footer_lines = picture::wrap(&footer_text, FOOTER_SIZE, width - 16.0);
    let footer = 12.0 + footer_lines.len() as f32 * FOOTER_LINE;
    let height = header + map_h.max(if view.pending.is_some() { 640.0 } else { 0.0 }) + footer;
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"DejaVu Sans\"><rect width=\"100%\" height=\"100%\" fill=\"#f4f1e8\"/>"
    );
    let mut hx = 8.0;
    for (seat, name) in view.names.iter().enumerate() {
        let fill = colour_fill(view.colours.get(seat).map_or("", String::as_str));
        let score = map.scores().get(seat).copied().unwrap_or(0);
        let supply = map.supply().get(seat).copied().unwrap_or(0);
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"17\" r=\"8\" fill=\"{fill}\" stroke=\"#000\"/><text x=\"{:.1}\" y=\"22\" font-size=\"15\">{} {} pts, {}{}</text>",
            hx + 8.0,
            hx + 20.0,
            escape(name),
            score,
            plural(u32::from(supply), "follower", "followers"),
            note(seat)
        );
        hx += 40.0 + 9.0 * ((name.chars().count() + note(seat).len()) as f32 + 21.0);
    }
    let ox = margin;
    let oy = header + margin;
    let font = (ts * 0.3).clamp(9.0, 16.0);
    for x in x0..=x1 {
        let cx = ox + (x - x0) as f32 * ts + ts / 2.0;
        for y in [oy - 8.0, oy + rows * ts + font + 4.0] {
            let _ = write!(s, "<text x=\"{cx:.1}\" y=\"{y:.1}\" font-size=\"{font:.1}\" text-anchor=\"middle\">{x}</text>");
        }
    }
    for y in y0..=y1 {
        let cy = oy + (y - y0) as f32 * ts + ts / 2.0 + font / 3.0;
        for x in [ox - 4.0, ox + cols * ts + 4.0] {
            let anchor = if x < ox { "end" } else { "start" };
            let _ = write!(s, "<text x=\"{x:.1}\" y=\"{cy:.1}\" font-size=\"{font:.1}\" text-anchor=\"{anchor}\">{y}</text>");
        }
    }
    let _ = write!(
        s,
        "<rect x=\"{ox}\" y=\"{oy}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#ddd6c4\"/>",
        cols * ts,
        rows * ts
    );
    let place = |t: &Placed| (ox + (t.x - x0) as f32 * ts, oy + (t.y - y0) as f32 * ts);
    for t in map.tiles() {
        let (px, py) = place(t);
        let _ = write!(
            s,
            "<g transform=\"translate({px:.1},{py:.1}) scale({ts:.2})\">"
        );
        tile_body(t.shape(), &mut s);
        s.push_str("<rect width=\"1\" height=\"1\" fill=\"none\" stroke=\"#3c3c3c\" stroke-width=\"0.01\"/></g>");
    }
    if let Some(c) = circus {
        circus_figures(map, c, view, &place, ts, &mut s);
    }
    for f in map.followers() {
        let Some(t) = map.tiles().get(f.tile) else {
            continue;
        };
        let Some(part) = t.shape().parts.get(usize::from(f.part)) else {
            continue;
        };
        let (px, py) = place(t);
        let fill = colour_fill(view.colours.get(f.seat).map_or("", String::as_str));
        let _ = write!(
            s,
            "<g transform=\"translate({px:.1},{py:.1}) scale({ts:.2})\">"
        );
        let at = anchor(t.shape(), part);
        follower_mark(part.kind, at, fill, &mut s);
        if f.figure == Figure::Ringmaster {
            top_hat(at, &mut s);
        }
        s.push_str("</g>");
    }
    for (row, line) in footer_lines.iter().enumerate() {
        let _ = write!(
            s,
            "<text x=\"8\" y=\"{:.1}\" font-size=\"{FOOTER_SIZE}\">{}</text>",
            height - footer + 20.0 + row as f32 * FOOTER_LINE,
            escape(line)
        );
    }
    if let Some(t) = view.last.and_then(|i| map.tiles().get(i)) {
        let (px, py) = place(t);
        let _ = write!(s, "<rect x=\"{px:.1}\" y=\"{py:.1}\" width=\"{ts:.1}\" height=\"{ts:.1}\" fill=\"none\" stroke=\"#ffd400\" stroke-width=\"4\"/>");
        if view.choosing {
            let _ = write!(
                s,
                "<g transform=\"translate({px:.1},{py:.1}) scale({ts:.2})\">"
            );
            letters(t.shape(), &mut s);
            s.push_str("</g>");
        }
    }
    let mut spots: Vec<(i32, i32)> = view.legal.iter().map(|&(x, y, _)| (x, y)).collect();
    spots.dedup();
    for (x, y) in spots {
        let px = ox + (x - x0) as f32 * ts;
        let py = oy + (y - y0) as f32 * ts;
        let rots: Vec<String> = view
            .legal
            .iter()
            .filter(|l| (l.0, l.1) == (x, y))
            .map(|l| (u32::from(l.2) * 90).to_string())
            .collect();
        let _ = write!(s, "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#ffffff\" fill-opacity=\"0.55\" stroke=\"#d02090\" stroke-width=\"2\" stroke-dasharray=\"5,3\"/>", px + 2.0, py + 2.0, ts - 4.0, ts - 4.0);
        let small = (ts * 0.17).clamp(6.0, 12.0);
        for (i, line) in rots.chunks(2).enumerate() {
            let _ = write!(s, "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{small:.1}\" text-anchor=\"middle\" fill=\"#8a1060\">{}</text>", px + ts / 2.0, py + ts * 0.4 + i as f32 * small * 1.2, line.join(" "));
        }
    }
    if let Some(kind) = view.pending {
        let px = map_w + 20.0;
        let _ = write!(s, "<text x=\"{px:.1}\" y=\"{:.1}\" font-size=\"15\" font-weight=\"bold\">Tile to place</text>", header + 20.0);
        for rot in 0..4u8 {
            let Some(shape) = shape_of(kind, rot) else {
                continue;
            };
            let py = header + 34.0 + f32::from(rot) * 150.0;
            let _ = write!(
                s,
                "<text x=\"{px:.1}\" y=\"{:.1}\" font-size=\"13\">{} at {}</text>",
                py + 12.0,
                shape.name,
                u32::from(rot) * 90
            );
            let _ = write!(
                s,
                "<g transform=\"translate({px:.1},{:.1}) scale(120)\">",
                py + 18.0
            );
            tile_body(shape, &mut s);
            letters(shape, &mut s);
            s.push_str("<rect width=\"1\" height=\"1\" fill=\"none\" stroke=\"#000\" stroke-width=\"0.01\"/></g>");
        }
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `map` drawn for Ann (red) and Bob (blue) with 40 tiles left, the tile `pending` to
    /// place at `legal`, after the tile numbered `last` (its player `choosing` a follower).
    fn drawn(
        map: &Map,
        pending: Option<u8>,
        legal: &[(i32, i32, u8)],
        last: Option<usize>,
        choosing: bool,
    ) -> String {
        let colours = ["red".to_string(), "blue".to_string()];
        let names = ["Ann".to_string(), "Bob".to_string()];
        let view = View {
            colours: &colours,
            names: &names,
            tiles_left: 40,
            pending,
            legal,
            last,
            choosing,
        };
        board_svg(map, &view)
    }

    #[test]
    fn the_start_map_shows_the_start_tile_and_coordinates() {
        let mut map = Map::new(2);
        assert!(map.place(3, 0, 0, 0).is_ok());
        let legal = map.legal(21);
        let svg = drawn(&map, Some(21), &legal, Some(0), false);
        assert!(svg.contains(">-1</text>") && svg.contains(">1</text>"));
        assert!(svg.contains("Ann 0 pts, 7 followers"));
        assert!(svg.contains("Tiles left: 40"));
        assert!(svg.contains("V at 270"));
        assert!(svg.contains("#ffd400"));
        assert!(!svg.contains("Big Top"), "no expansion, no footer");
    }

    #[test]
    fn the_big_top_a_full_pyramid_and_a_ringmaster_are_drawn() {
        use super::super::circus::Animal;
        let mut map = Map::with_big_top(2, vec![Animal::Seal]);
        let placed = ["D", "AC1", "BT1"]
            .iter()
            .zip([(0, 0, 0), (0, 1, 0), (-1, 0, 270)])
            .map(|(name, (x, y, d))| map.put_named(name, x, y, d));
        assert!(placed.collect::<Result<Vec<_>, _>>().is_ok());
        for seat in [0, 1, 1] {
            assert!(map.add_acrobat(seat, 1, 0, 1).is_ok());
        }
        assert!(map.place_figure(0, 0, 1, Figure::Ringmaster).is_ok());
        assert!(map.raise_big_top(2).is_some());
        let svg = drawn(&map, None, &[], Some(2), true);
        let discs = |fill: &str| svg.matches(&format!("r=\"0.12\" fill=\"{fill}\"")).count();
        assert_eq!(
            (discs("#d62728"), discs("#1f5fd6")),
            (1, 2),
            "three acrobats"
        );
        assert_eq!(svg.matches(">?</text>").count(), 1, "the face-down token");
        assert_eq!(
            svg.matches("width=\"0.14\" height=\"0.12\"").count(),
            1,
            "one top hat"
        );
        assert!(svg.contains("Ann 0 pts, 6 followers</text>"));
        assert!(svg.contains("Bob 0 pts, 5 followers +ringmaster</text>"));
        assert!(svg.contains("Big Top tokens revealed: none yet (15 face down in the box)"));
        // Bob chooses a follower for the tile just placed: its features carry their letters.
        assert!(
            svg.contains("font-weight=\"bold\">a</text>"),
            "the letters on the tile just placed"
        );
    }
}
