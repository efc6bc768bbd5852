//! The band above every board picture: the game and round, who is awaited and until when,
//! or the result once the game is over, and who is who on the picture. A picture seen alone
//! (forwarded, saved, opened full size) still says where the game stands.

use super::card::{places, round_words};
use crate::chat::deadline::clock_time;
use crate::chat::lists::names_in_words;
use crate::games::Mark;
use crate::picture::{self, escape};
use crate::records::Phase;
use crate::records::{GameRecord, Status};
use std::fmt::Write;

/// The height of one line of the band, in pixels.
const LINE: u32 = 18;
/// The size of the band's lines, in pixels.
const LINE_SIZE: f32 = 14.0;
/// The size of the legend's entries, in pixels.
const ENTRY_SIZE: f32 = 13.0;
/// The left and right margin of the band's text, in pixels.
const MARGIN: u32 = 10;
/// The width of a legend entry besides its text: the colour square and the gaps.
const ENTRY_EXTRA: f64 = 34.0;
/// The widest the band grows for its text, in pixels: about as wide as Discord shows a
/// picture usefully. Longer lines and legends wrap; a wider game picture widens the band
/// to its own width.
pub const MAX_BAND_WIDTH: u32 = 1600;

/// The game's picture `svg` under a band that tells its state from `record`, with the legend
/// of `marks`. The band wraps its lines and its legend, so a game of many players with long
/// names makes the picture taller, never wider than [`MAX_BAND_WIDTH`] (or the game's picture).
pub fn framed(svg: &str, record: &GameRecord, marks: &[Mark]) -> String {
    let (width, height) = size_of(svg).unwrap_or((600, 400));
    let mut lines = band_lines(record);
    if marks.is_empty() {
        lines.push(players_line(record));
    }
    let entries: Vec<String> = marks
        .iter()
        .map(|mark| legend_entry(record, mark))
        .collect();
    let legend_width: f64 = entries.iter().map(|entry| entry_width(entry)).sum();
    let text_width = lines
        .iter()
        .map(|line| text_width(line))
        .fold(legend_width, f64::max);
    let wanted = (text_width.ceil() as u32 + 2 * MARGIN).min(MAX_BAND_WIDTH);
    let total_width = width.max(wanted);
    let room = f64::from(total_width - 2 * MARGIN);
    let rows: Vec<(String, bool)> = lines
        .iter()
        .enumerate()
        .flat_map(|(index, line)| {
            picture::wrap(line, LINE_SIZE, room as f32)
                .into_iter()
                .map(move |part| (part, index == 0))
        })
        .collect();
    let legend = legend_rows(&entries, room);
    let legend_height = legend.last().map_or(0, |(_, row, _)| row + 1);
    let band = 10 + (rows.len() as u32 + legend_height) * LINE + 6;
    let mut out = String::with_capacity(svg.len() + 2048);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total_width}\" height=\"{}\" font-family=\"DejaVu Sans\">\
         <rect width=\"{total_width}\" height=\"{}\" fill=\"#fbfaf5\"/>\
         <rect width=\"{total_width}\" height=\"{band}\" fill=\"#2f3640\"/>",
        height + band,
        height + band
    );
    let mut y = 10 + LINE - 4;
    for (line, bold) in &rows {
        let weight = if *bold { " font-weight=\"bold\"" } else { "" };
        let _ = write!(
            out,
            "<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"14\" fill=\"#f5f6fa\"{weight}>{}</text>",
            escape(line)
        );
        y += LINE;
    }
    for ((x, row, entry), mark) in legend.iter().zip(marks) {
        let fill = mark.colour.as_deref().unwrap_or("#f5f6fa");
        let y = y + row * LINE;
        let _ = write!(
            out,
            "<rect x=\"{x:.0}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\" stroke=\"#f5f6fa\"/>\
             <text x=\"{:.0}\" y=\"{y}\" font-size=\"13\" fill=\"#f5f6fa\">{}</text>",
            y - 11,
            escape(fill),
            x + 17.0,
            escape(entry)
        );
    }
    let _ = write!(out, "<g transform=\"translate(0,{band})\">");
    nest(&mut out, svg);
    out.push_str("</g></svg>");
    out
}

/// How wide a line of the band is drawn, in pixels.
fn text_width(text: &str) -> f64 {
    f64::from(picture::text_width(text, LINE_SIZE))
}

/// How wide a legend entry is drawn, its square included.
fn entry_width(entry: &str) -> f64 {
    f64::from(picture::text_width(entry, ENTRY_SIZE)) + ENTRY_EXTRA
}

/// Where each legend entry goes: its x, its row, and its text (shortened with "…" when one
/// entry alone is wider than the band), filling rows of `room` pixels left to right.
fn legend_rows(entries: &[String], room: f64) -> Vec<(f64, u32, String)> {
    let mut placed = Vec::with_capacity(entries.len());
    let (mut x, mut row) = (f64::from(MARGIN), 0);
    for entry in entries {
        let entry = if entry_width(entry) > room {
            let chars: Vec<char> = entry.chars().collect();
            let keep = picture::fitting(&chars, room as f32, |text| {
                entry_width(&format!("{text}…")) as f32
            });
            let mut short: String = chars[..keep].iter().collect();
            short.push('…');
            short
        } else {
            entry.clone()
        };
        let width = entry_width(&entry);
        if x > f64::from(MARGIN) && x + width > f64::from(MARGIN) + room {
            x = f64::from(MARGIN);
            row += 1;
        }
        placed.push((x, row, entry));
        x += width;
    }
    placed
}

/// The band's lines: the title, then the state of play (or the result).
fn band_lines(record: &GameRecord) -> Vec<String> {
    let title = format!(
        "Game #{}: {}{}",
        record.id,
        record.game,
        round_words(record)
    );
    let mut lines = vec![title];
    match (&record.status, &record.phase) {
        (_, Some(Phase::Over { ranking })) => {
            let places = places(record, ranking);
            let winners: Vec<String> = ranking
                .first()
                .map(|seats| seats.iter().map(|s| record.name(*s)).collect())
                .unwrap_or_default();
            lines.push(format!("Game over. Winner: {}.", names_in_words(&winners)));
            lines.push(format!("Final standing: {}", places.join("   ")));
        }
        (Status::Over, _) => lines.push("The GM ended the game.".to_string()),
        (Status::Paused { .. }, _) => lines.push("Paused by the GM.".to_string()),
        (_, _) if record.waits_for_search() => lines
            .push("The solver is judging; the clock stands still until its verdict.".to_string()),
        (_, phase) => {
            let names: Vec<String> = record.awaited().iter().map(|s| record.name(*s)).collect();
            lines.push(match phase {
                Some(Phase::Turn { .. }) => format!("{}'s turn.", names_in_words(&names)),
                Some(Phase::Orders { label, .. }) if names.is_empty() => {
                    format!("Every order for {label} is in.")
                }
                Some(Phase::Orders { label, .. }) => {
                    format!("Waiting for {label} from {}.", names_in_words(&names))
                }
                _ => "Sign-ups are open.".to_string(),
            });
            if let Some(at) = record.deadline {
                lines.push(format!(
                    "Deadline: {}",
                    clock_time(at, record.settings.tz.as_deref())
                ));
            }
        }
    }
    lines
}

/// The legend of a game that draws no seat: the players in seat order.
fn players_line(record: &GameRecord) -> String {
    let names: Vec<String> = (0..record.seats.len())
        .filter(|seat| record.seats[*seat].present)
        .map(|seat| record.name(seat))
        .collect();
    format!("Players, in seat order: {}", names.join(", "))
}

/// "🐸 ann", "A bob", "red: carol".
fn legend_entry(record: &GameRecord, mark: &Mark) -> String {
    format!("{} {}", mark.mark, record.name(mark.seat))
}

/// The width and height of an SVG document, from its root element.
fn size_of(svg: &str) -> Option<(u32, u32)> {
    let start = svg.find("<svg")?;
    let root = &svg[start..start + svg[start..].find('>')?];
    let number = |name: &str| -> Option<u32> {
        let at = root.find(&format!(" {name}=\""))? + name.len() + 3;
        let value = &root[at..at + root[at..].find('"')?];
        value
            .trim_end_matches("px")
            .parse::<f64>()
            .ok()
            .map(|v| v.ceil() as u32)
    };
    Some((number("width")?, number("height")?))
}

/// Writes the document `svg` into `out` to nest it: without its XML declaration, and its
/// root drawn without clipping to its size (`overflow="visible"`). resvg clips a nested
/// `svg` through a mask drawn off the picture, which cost a third to half of drawing a framed
/// board. The games draw within their own size, so the picture is the same
/// (`tests/pictures.rs` compares them for a whole game of each); text that ran past a game's
/// width under a wider band would now show whole instead of cut off at the edge. A root that
/// speaks of overflow itself is left as it is.
fn nest(out: &mut String, svg: &str) {
    let svg = match (svg.starts_with("<?xml"), svg.find("?>")) {
        (true, Some(end)) => svg[end + 2..].trim_start(),
        _ => svg,
    };
    let root = svg.find('>').map_or(svg, |end| &svg[..end]);
    match svg.strip_prefix("<svg ") {
        Some(rest) if !root.contains("overflow") => {
            out.push_str("<svg overflow=\"visible\" ");
            out.push_str(rest);
        }
        _ => out.push_str(svg),
    }
}

#[cfg(test)]
mod tests {
    use super::{legend_rows, size_of};

    #[test]
    fn the_legend_fills_rows_and_shortens_an_entry_wider_than_the_band() {
        let room = super::entry_width("A ann") + super::entry_width("B bob") + 1.0;
        let long = format!("C {}", "x".repeat(80));
        let entries = ["A ann".to_string(), "B bob".to_string(), long.clone()];
        let placed = legend_rows(&entries, room);
        assert_eq!(placed[0].1, 0);
        assert_eq!(placed[1].1, 0, "two short entries share a row");
        assert_eq!(placed[2].1, 1);
        assert!(placed[2].2.ends_with('…'));
        assert!(long.starts_with(placed[2].2.trim_end_matches('…')));
        assert!(super::entry_width(&placed[2].2) <= room);
    }

    #[test]
    fn reads_the_size_of_a_document() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240.5" font-family="x">"#;
        assert_eq!(size_of(svg), Some((320, 241)));
        assert_eq!(size_of("<svg>"), None);
    }
}
