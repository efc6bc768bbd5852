//! The board as text (coloured squares, positions and laps, owned tiles) and as an SVG
//! picture (the loop of 50 tiles in owners' colours, pawns and effect icons).

use super::effect::{Action, Trigger};
use super::state::{Stage, State, FIRST_TILE, LAPS_TO_WIN, LAST_TILE};
use crate::picture::escape;
use std::f64::consts::PI;
use std::fmt::Write;

/// The emoji for an unowned tile on the text board.
const UNOWNED: &str = "⬛";
/// The emoji for the start tile.
const START: &str = "🏁";

/// How the text board marks `seat`'s tiles: its colour's emoji, or where the colour has none
/// (a colour a player named outside the known list), the seat's number as a keycap, so two
/// such players never share a mark.
pub(super) fn seat_mark(state: &State, seat: usize) -> String {
    match state
        .runners
        .get(seat)
        .and_then(|runner| runner.colour.known_emoji())
    {
        Some(emoji) => emoji.to_string(),
        None if seat < 9 => format!("{}\u{fe0f}\u{20e3}", seat + 1),
        None => "🔶".to_string(),
    }
}

/// The text board: ten tiles a row, then every runner, then the owned tiles.
pub fn text(state: &State) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "**50-Tile Circuit** · turn {}", state.turn);
    out.push_str("```\n");
    for row in 0..5u8 {
        let first = row * 10 + 1;
        let _ = write!(out, "{first:>2}-{:<2} ", first + 9);
        for tile in first..first + 10 {
            let square = if tile == FIRST_TILE {
                START.to_string()
            } else {
                state
                    .tiles
                    .get(&tile)
                    .map_or(UNOWNED.to_string(), |owned| seat_mark(state, owned.owner))
            };
            out.push_str(&square);
        }
        out.push('\n');
    }
    out.push_str("```\n");
    for (seat, runner) in state.runners.iter().enumerate() {
        if runner.active {
            let _ = writeln!(
                out,
                "{} {} ({}): tile {}, laps {}/{LAPS_TO_WIN}",
                seat_mark(state, seat),
                runner.name,
                runner.colour,
                runner.tile,
                runner.laps
            );
        } else {
            let _ = writeln!(out, "{} (left)", runner.name);
        }
    }
    out.push_str(&state.effects_listing());
    if let Stage::Over { winner } = &state.stage {
        let _ = write!(
            out,
            "\nGame over: {}.",
            winner.map_or("nobody wins".to_string(), |seat| format!(
                "{} wins",
                state.name(seat)
            ))
        );
    }
    out
}

/// Picture size in pixels.
const SIZE: f64 = 800.0;
/// Picture height: the square plus a line for the key.
const HEIGHT: f64 = 840.0;
/// Radius of the ring of tiles.
const RING: f64 = 330.0;
/// Side of one tile square.
const TILE: f64 = 36.0;

/// The centre of tile `tile` on a circle of `radius` (tile 1 at the top, clockwise).
fn point(tile: u8, radius: f64) -> (f64, f64) {
    let angle = (f64::from(tile) - 1.0) / f64::from(LAST_TILE) * 2.0 * PI - PI / 2.0;
    (
        SIZE / 2.0 + radius * angle.cos(),
        SIZE / 2.0 + radius * angle.sin(),
    )
}

/// A short icon for an action.
fn icon(action: Action) -> String {
    match action {
        Action::Forward(n) => format!("+{n}"),
        Action::Back(n) => format!("−{n}"),
        Action::Start => "⌂".into(),
        Action::Skip => "✕".into(),
        Action::Anchor => "⚓".into(),
        Action::Boost => "▲".into(),
        Action::Slow => "▼".into(),
        Action::Owner(n) => format!("${n}"),
    }
}

/// The SVG picture of the circuit.
pub fn svg(state: &State) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{HEIGHT}" viewBox="0 0 {SIZE} {HEIGHT}" font-family="DejaVu Sans"><rect width="100%" height="100%" fill="#fdfaf2"/>"##
    );
    for tile in FIRST_TILE..=LAST_TILE {
        let (x, y) = point(tile, RING);
        let owner = state
            .tiles
            .get(&tile)
            .and_then(|owned| state.runners.get(owned.owner));
        let (fill, ink) = match (tile, owner) {
            (FIRST_TILE, _) => ("#f5d76e", "#000000"),
            (LAST_TILE, _) => ("#fae8a6", "#000000"),
            (_, Some(runner)) => (
                runner.colour.rgb(),
                if runner.colour.is_light() {
                    "#000000"
                } else {
                    "#ffffff"
                },
            ),
            (_, None) => ("#ffffff", "#555555"),
        };
        let half = TILE / 2.0;
        let _ = write!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="{TILE}" height="{TILE}" rx="5" fill="{fill}" stroke="#333333" stroke-width="1.5"/><text x="{x:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="{ink}">{}</text>"##,
            x - half,
            y - half,
            y + 5.0,
            if tile == FIRST_TILE {
                "GO".to_string()
            } else {
                tile.to_string()
            }
        );
        if let Some(effect) = state.tiles.get(&tile).and_then(|owned| owned.effect) {
            let (ex, ey) = point(tile, RING + 38.0);
            let dash = match effect.trigger {
                Trigger::Land => "",
                Trigger::Pass => r#" stroke-dasharray="3,2""#,
            };
            let _ = write!(
                out,
                r##"<circle cx="{ex:.1}" cy="{ey:.1}" r="15" fill="#ffffff" stroke="{}" stroke-width="2.5"{dash}/><text x="{ex:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#000000">{}</text>"##,
                owner.map_or("#333333", |runner| runner.colour.rgb()),
                ey + 5.0,
                escape(&icon(effect.action))
            );
        }
    }
    // Pawns (numbered by seat, as in the legend) inside the ring; pawns sharing a tile stand
    // two abreast, rows towards the centre, so six on one tile stay clear of the title.
    let mut stacked = [0u8; LAST_TILE as usize + 1];
    for (seat, runner) in state.runners.iter().enumerate() {
        if !runner.active {
            continue;
        }
        let depth = stacked.get(usize::from(runner.tile)).copied().unwrap_or(0);
        if let Some(slot) = stacked.get_mut(usize::from(runner.tile)) {
            *slot = slot.saturating_add(1);
        }
        let sharing = state
            .runners
            .iter()
            .filter(|other| other.active && other.tile == runner.tile)
            .count();
        let (row, side) = if sharing > 1 {
            (f64::from(depth / 2), f64::from(depth % 2) - 0.5)
        } else {
            (0.0, 0.0)
        };
        let (cx, cy) = point(runner.tile, RING - 36.0 - row * 22.0);
        let angle = (f64::from(runner.tile) - 1.0) / f64::from(LAST_TILE) * 2.0 * PI - PI / 2.0;
        let (px, py) = (
            cx - angle.sin() * side * 22.0,
            cy + angle.cos() * side * 22.0,
        );
        let ink = if runner.colour.is_light() {
            "#000000"
        } else {
            "#ffffff"
        };
        let _ = write!(
            out,
            r##"<circle cx="{px:.1}" cy="{py:.1}" r="10" fill="{}" stroke="#000000" stroke-width="2"/><text x="{px:.1}" y="{:.1}" font-size="12" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"##,
            runner.colour.rgb(),
            py + 4.0,
            seat + 1
        );
    }
    // Legend in the middle.
    let _ = write!(
        out,
        r##"<text x="{0}" y="230" font-size="24" font-weight="bold" text-anchor="middle">50-Tile Circuit</text><text x="{0}" y="258" font-size="16" text-anchor="middle">turn {1}</text>"##,
        SIZE / 2.0,
        state.turn
    );
    let mut y = 295.0;
    for (seat, runner) in state.runners.iter().enumerate() {
        let status = if runner.active {
            format!("tile {}, laps {}/{LAPS_TO_WIN}", runner.tile, runner.laps)
        } else {
            "left".to_string()
        };
        let _ = write!(
            out,
            r##"<circle cx="258" cy="{:.1}" r="10" fill="{}" stroke="#000000" stroke-width="2"/><text x="258" y="{:.1}" font-size="12" font-weight="bold" text-anchor="middle" fill="{}">{}</text><text x="276" y="{:.1}" font-size="15">{}: {}</text>"##,
            y - 5.0,
            runner.colour.rgb(),
            y - 1.0,
            if runner.colour.is_light() {
                "#000000"
            } else {
                "#ffffff"
            },
            seat + 1,
            y,
            escape(&runner.name.chars().take(18).collect::<String>()),
            status
        );
        y += 24.0;
    }
    if let Stage::Over { winner: Some(seat) } = &state.stage {
        let _ = write!(
            out,
            r##"<text x="{}" y="{:.1}" font-size="20" font-weight="bold" text-anchor="middle" fill="#b03a2e">{} wins!</text>"##,
            SIZE / 2.0,
            y + 14.0,
            escape(&state.name(*seat))
        );
    }
    out.push_str(
        r##"<text x="400" y="826" font-size="12" text-anchor="middle" fill="#555555">effect rings: solid = land, dashed = pass · +N forward · −N back · ⌂ start · ✕ skip · ⚓ anchor · ▲ boost · ▼ slow · $N owner</text></svg>"##,
    );
    out
}
