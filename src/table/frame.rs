//! The band above every board picture: the game and round, who is awaited and until when,
//! or the result once the game is over, and who is who on the picture. A picture seen alone
//! (forwarded, saved, opened full size) still says where the game stands.

use super::card::round_words;
use super::rounds::{awaited, names_in_words, places};
use crate::games::{Mark, Phase};
use crate::picture::escape;
use crate::records::{GameRecord, Status};
use std::fmt::Write;

/// The height of one line of the band, in pixels.
const LINE: u32 = 18;
/// A generous width of one character of the band's text, in pixels, to size the picture.
const CHAR: f64 = 7.6;

/// The game's picture `svg` under a band that tells its state from `record`, with the legend
/// of `marks`.
pub fn framed(svg: &str, record: &GameRecord, marks: &[Mark]) -> String {
    let (width, height) = size_of(svg).unwrap_or((600, 400));
    let mut lines = band_lines(record);
    if marks.is_empty() {
        lines.push(players_line(record));
    }
    let legend_width: f64 = marks
        .iter()
        .map(|mark| legend_entry(record, mark).chars().count() as f64 * CHAR + 34.0)
        .sum();
    let text_width = lines
        .iter()
        .map(|line| line.chars().count() as f64 * CHAR + 20.0)
        .fold(legend_width + 20.0, f64::max);
    let total_width = width.max(text_width.ceil() as u32);
    let legend_rows = u32::from(!marks.is_empty());
    let band = 10 + (lines.len() as u32 + legend_rows) * LINE + 6;
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
    for (index, line) in lines.iter().enumerate() {
        let weight = if index == 0 {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<text x=\"10\" y=\"{y}\" font-size=\"14\" fill=\"#f5f6fa\"{weight}>{}</text>",
            escape(line)
        );
        y += LINE;
    }
    let mut x = 10.0;
    for mark in marks {
        let fill = mark.colour.as_deref().unwrap_or("#f5f6fa");
        let entry = legend_entry(record, mark);
        let _ = write!(
            out,
            "<rect x=\"{x:.0}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\" stroke=\"#f5f6fa\"/>\
             <text x=\"{:.0}\" y=\"{y}\" font-size=\"13\" fill=\"#f5f6fa\">{}</text>",
            y - 11,
            escape(fill),
            x + 17.0,
            escape(&entry)
        );
        x += entry.chars().count() as f64 * CHAR + 34.0;
    }
    let _ = write!(
        out,
        "<g transform=\"translate(0,{band})\">{}</g></svg>",
        inner(svg)
    );
    out
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
        (_, phase) => {
            let names: Vec<String> = awaited(record).iter().map(|s| record.name(*s)).collect();
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
                lines.push(format!("Deadline: {}", at.format("%Y-%m-%d %H:%M UTC")));
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

/// The document without an XML declaration, to nest it.
fn inner(svg: &str) -> &str {
    match (svg.starts_with("<?xml"), svg.find("?>")) {
        (true, Some(end)) => svg[end + 2..].trim_start(),
        _ => svg,
    }
}

#[cfg(test)]
mod tests {
    use super::size_of;

    #[test]
    fn reads_the_size_of_a_document() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240.5" font-family="x">"#;
        assert_eq!(size_of(svg), Some((320, 241)));
        assert_eq!(size_of("<svg>"), None);
    }
}
