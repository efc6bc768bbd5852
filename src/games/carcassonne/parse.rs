//! Reading players' words: `!place <x> <y> <rotation> [meeple <feature> | ringmaster <feature>
//! | acrobat <x> <y> | pyramid <x> <y> | pass]`, `!meeple <feature>`, `!ringmaster <feature>`,
//! `!acrobat <x> <y>`, `!pyramid <x> <y>`, `!pass`, and feature names.
//!
//! Features are named by their letter in the tile preview (a, b, c... : cities, then roads,
//! then fields, then the monastery; letters do not depend on the rotation) or by words that
//! describe the tile as placed: `city`, `road`, `field` when the tile has only one of them,
//! `city-n`, `road-e` or `road-ew` (edges), `field-ne` (a corner) or `field-s` (a side), and
//! `monastery`. Case, spaces, commas and brackets are forgiven: `!place (1, 0) 90` works.

use super::tiles::{Kind, Shape};

/// What a player asked for after `!place` or with `!meeple`/`!pass`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum After {
    /// Nothing yet: the follower question stays open.
    Nothing,
    /// No follower.
    Pass,
    /// A follower on the named feature (the name, resolved against the placed tile).
    Meeple(String),
    /// The ringmaster on the named feature.
    Ringmaster(String),
    /// An acrobat on the acrobat tile at (x, y).
    Acrobat(i32, i32),
    /// Score the completed pyramid at (x, y).
    Pyramid(i32, i32),
}

/// A placement request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaceOrder {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Quarter turns clockwise.
    pub rot: u8,
    /// What follows in the same line.
    pub after: After,
}

fn tokens(text: &str) -> Vec<String> {
    text.replace(['(', ')', ','], " ")
        .split_whitespace()
        .map(str::to_lowercase)
        .collect()
}

/// Reads a rotation in degrees clockwise (0, 90, 180, 270).
pub fn rotation(word: &str) -> Result<u8, String> {
    let w = word.trim().trim_end_matches('°').to_lowercase();
    match w.trim_start_matches('r') {
        "0" | "360" => Ok(0),
        "90" => Ok(1),
        "180" => Ok(2),
        "270" | "-90" => Ok(3),
        _ => Err(format!(
            "`{word}` is not a rotation; use 0, 90, 180 or 270 (degrees clockwise)"
        )),
    }
}

fn number(word: &str, what: &str) -> Result<i32, String> {
    word.parse::<i32>()
        .map_err(|_| format!("`{word}` is not a whole number for {what}"))
}

/// Reads the follower part of a line (`!meeple road-n`, `!pass`, or nothing).
pub fn after(words: &[String]) -> Result<After, String> {
    match words {
        [] => Ok(After::Nothing),
        [w] if w == "pass" || w == "none" => Ok(After::Pass),
        [w, rest @ ..] if (w == "meeple" || w == "follower") && !rest.is_empty() => {
            Ok(After::Meeple(rest.join(" ")))
        }
        [w, rest @ ..] if w == "ringmaster" && !rest.is_empty() => {
            Ok(After::Ringmaster(rest.join(" ")))
        }
        [w, rest @ ..] if w == "acrobat" => {
            let (x, y) = spot(rest, "acrobat")?;
            Ok(After::Acrobat(x, y))
        }
        [w, rest @ ..] if w == "pyramid" => {
            let (x, y) = spot(rest, "pyramid")?;
            Ok(After::Pyramid(x, y))
        }
        _ => Err(format!(
            "after the placement, in the same line, write `meeple <feature>`, `ringmaster <feature>`, `acrobat <x> <y>`, `pyramid <x> <y>` or `pass` (no `!` inside the line), not `{}`",
            words.join(" ")
        )),
    }
}

fn spot(words: &[String], command: &str) -> Result<(i32, i32), String> {
    match words {
        [x, y] => Ok((number(x, "x")?, number(y, "y")?)),
        _ => Err(format!(
            "write `{command} <x> <y>` with the tile's spot, for example `{command} 1 -1`"
        )),
    }
}

/// Reads the arguments of `!acrobat` or `!pyramid` (`command`) into a spot.
pub fn coordinates(args: &str, command: &str) -> Result<(i32, i32), String> {
    spot(&tokens(args), command)
}

/// Reads the arguments of `!place`.
pub fn place(args: &str) -> Result<PlaceOrder, String> {
    let words = tokens(args);
    match words.as_slice() {
        [x, y, r, rest @ ..] => Ok(PlaceOrder {
            x: number(x, "x")?,
            y: number(y, "y")?,
            rot: rotation(r)?,
            after: after(rest)?,
        }),
        _ => Err("write `!place <x> <y> <rotation>`: the x and y of a square and a rotation (0, 90, 180 or 270), one of the legal placements the turn post lists".to_string()),
    }
}

/// Reads the arguments of `!meeple` into a feature name.
pub fn meeple(args: &str) -> Result<String, String> {
    let words = tokens(args);
    if words.is_empty() {
        return Err("name the feature: `!meeple a` or `!meeple road-n`".to_string());
    }
    Ok(words.join(" "))
}

const LETTERS: &str = "abcdefghijklmnopqrstuvwxyz";

/// The letter of part `i` in the preview.
pub fn letter(i: usize) -> char {
    LETTERS.chars().nth(i).unwrap_or('?')
}

fn edge_letters(mask: u8) -> String {
    "nesw"
        .chars()
        .enumerate()
        .filter(|(d, _)| mask & (1 << d) != 0)
        .map(|(_, c)| c)
        .collect()
}

const CORNERS: [(&str, u8); 4] = [
    ("nw", 128 | 1),
    ("ne", 2 | 4),
    ("se", 8 | 16),
    ("sw", 32 | 64),
];

/// The short name of part `i` of a placed tile that a player may type instead of its letter
/// (`city-n`, `road-ew`, `field-ne`, `monastery`).
pub fn part_name(shape: &Shape, i: usize) -> String {
    match shape.parts.get(i) {
        Some(p) => match p.kind {
            Kind::City | Kind::Road => format!("{}-{}", p.kind.word(), edge_letters(p.edges)),
            Kind::Field => {
                let corner = CORNERS
                    .iter()
                    .find(|(_, m)| p.halves & m != 0)
                    .map_or("", |(n, _)| n);
                format!("field-{corner}")
            }
            Kind::Monastery => "monastery".to_string(),
        },
        None => "?".to_string(),
    }
}

/// Part `i` of a placed tile in words, as a player finds it on the picture: "the city to the
/// north", "the road from east to west", "the field to the north-west", "the monastery".
pub fn part_words(shape: &Shape, i: usize) -> String {
    const SIDES: [&str; 4] = ["north", "east", "south", "west"];
    let sides = |mask: u8| -> Vec<&str> {
        (0..4)
            .filter(|d| mask & (1 << d) != 0)
            .map(|d| SIDES[d])
            .collect()
    };
    let Some(p) = shape.parts.get(i) else {
        return "?".to_string();
    };
    match p.kind {
        Kind::City => match sides(p.edges).as_slice() {
            [] => "the city".to_string(),
            [one] => format!("the city to the {one}"),
            [_, _, _, _] => "the city on every side".to_string(),
            [rest @ .., last] => format!("the city to the {} and {last}", rest.join(", ")),
        },
        Kind::Road => match sides(p.edges).as_slice() {
            [one] => format!("the road to the {one}"),
            [from, to] => format!("the road from {from} to {to}"),
            _ => "the road".to_string(),
        },
        Kind::Field => {
            let corners: Vec<&str> = [
                ("north-west", 128 | 1),
                ("north-east", 2 | 4),
                ("south-east", 8 | 16),
                ("south-west", 32 | 64),
            ]
            .iter()
            .filter(|(_, mask)| p.halves & mask != 0)
            .map(|(name, _)| *name)
            .collect();
            let side = match corners.as_slice() {
                ["north-west", "north-east"] => Some("north"),
                ["north-east", "south-east"] => Some("east"),
                ["south-east", "south-west"] => Some("south"),
                ["north-west", "south-west"] => Some("west"),
                _ => None,
            };
            match corners.as_slice() {
                [] => "the field".to_string(),
                [_, _, _, _] => "the field all round".to_string(),
                _ if side.is_some() => format!("the field to the {}", side.unwrap_or_default()),
                [one] => format!("the field to the {one}"),
                [rest @ .., last] => format!("the field to the {} and {last}", rest.join(", ")),
            }
        }
        Kind::Monastery => "the monastery".to_string(),
    }
}

/// The list "`a` (the city to the east), `b` (the road from north to south), ..." of a
/// placed tile's features.
pub fn part_list(shape: &Shape) -> String {
    (0..shape.parts.len())
        .map(|i| format!("`{}` ({})", letter(i), part_words(shape, i)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn direction_mask(kind: Kind, dir: &str) -> Option<u8> {
    let side = |c: char| match c {
        'n' => Some(0usize),
        'e' => Some(1),
        's' => Some(2),
        'w' => Some(3),
        _ => None,
    };
    let dir = match dir {
        "north" => "n",
        "east" => "e",
        "south" => "s",
        "west" => "w",
        other => other,
    };
    match kind {
        Kind::Field => {
            if let Some((_, m)) = CORNERS
                .iter()
                .find(|(n, _)| *n == dir || n.chars().rev().collect::<String>() == dir)
            {
                return Some(*m);
            }
            let mut chars = dir.chars();
            match (chars.next().and_then(side), chars.next()) {
                (Some(d), None) => Some(3u8 << (2 * d)),
                _ => None,
            }
        }
        _ => dir
            .chars()
            .map(|c| side(c).map(|d| 1u8 << d))
            .try_fold(0u8, |acc, m| m.map(|m| acc | m)),
    }
}

/// Resolves a feature name against a placed tile into its part index.
pub fn feature(shape: &Shape, name: &str) -> Result<u8, String> {
    let name = name.trim().to_lowercase();
    let list = || part_list(shape);
    if name.chars().count() == 1 {
        let c = name.chars().next().unwrap_or(' ');
        return match LETTERS.find(c) {
            Some(i) if i < shape.parts.len() => Ok(i as u8),
            _ => Err(format!(
                "the tile has no feature `{name}`; its features are {}",
                list()
            )),
        };
    }
    let (word, dir) = match name.split_once(['-', ' ']) {
        Some((w, d)) => (w.trim().to_string(), Some(d.trim().to_string())),
        None => (name.clone(), None),
    };
    let kind = match word.as_str() {
        "city" | "knight" => Kind::City,
        "road" | "thief" => Kind::Road,
        "field" | "farmer" => Kind::Field,
        "monastery" | "cloister" | "monk" => Kind::Monastery,
        "circus" | "tent" => {
            return Err(format!(
                "no follower may stand on the circus space; name one of {}",
                list()
            ))
        }
        "acrobat" | "acrobats" => {
            return Err(
                "an acrobat is placed with `!acrobat <x> <y>`, not as a follower on a feature"
                    .to_string(),
            )
        }
        _ => return Err(format!("`{name}` is not a feature; name one of {}", list())),
    };
    let mask = match &dir {
        Some(d) => Some(direction_mask(kind, d).ok_or_else(|| {
            format!("`{d}` is not a side or corner; use n, e, s, w (or ne, se, sw, nw for fields)")
        })?),
        None => None,
    };
    let found: Vec<usize> = shape
        .parts
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == kind)
        .filter(|(_, p)| {
            mask.is_none_or(|m| {
                (if kind == Kind::Field {
                    p.halves
                } else {
                    p.edges
                }) & m
                    != 0
            })
        })
        .map(|(i, _)| i)
        .collect();
    match found.as_slice() {
        [i] => Ok(*i as u8),
        [] => Err(format!(
            "the tile has no {name} here; its features are {}",
            list()
        )),
        _ => Err(format!(
            "`{name}` could be several features; name one of {}",
            list()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tiles::{kind_of_letter, shape_of};
    use super::*;

    #[test]
    fn place_lines_are_read_forgivingly() {
        let order = place(" (1, -2)  90  Meeple Road-N ");
        assert_eq!(
            order,
            Ok(PlaceOrder {
                x: 1,
                y: -2,
                rot: 1,
                after: After::Meeple("road-n".to_string())
            })
        );
        assert!(place("1 0 45").is_err_and(|e| e.contains("0, 90, 180 or 270")));
        assert_eq!(place("1 0 0 pass").map(|o| o.after), Ok(After::Pass));
        assert_eq!(
            place("1 0 0 acrobat (2, -1)").map(|o| o.after),
            Ok(After::Acrobat(2, -1))
        );
        assert_eq!(
            place("1 0 0 ringmaster road-e").map(|o| o.after),
            Ok(After::Ringmaster("road-e".to_string()))
        );
        assert!(place("1 0 0 pyramid 2").is_err_and(|e| e.contains("`pyramid <x> <y>`")));
        assert_eq!(coordinates("3 4", "pyramid"), Ok((3, 4)));
    }

    #[test]
    fn features_by_letter_and_word() {
        let x = kind_of_letter('X').and_then(|k| shape_of(k, 0));
        let Some(x) = x else {
            panic!("tile X exists");
        };
        assert_eq!(feature(x, "road-e"), Ok(1));
        assert_eq!(feature(x, "field-ne"), Ok(5));
        assert_eq!(feature(x, "F"), Ok(5));
        assert!(feature(x, "road").is_err_and(|e| e.contains("several")));
        assert!(feature(x, "city").is_err_and(|e| e.contains("no city")));
        let d = kind_of_letter('D').and_then(|k| shape_of(k, 1));
        let Some(d) = d else {
            panic!("tile D exists");
        };
        assert_eq!(
            part_list(d),
            "`a` (the city to the east), `b` (the road from north to south), `c` (the field to the east), `d` (the field to the west)"
        );
        assert_eq!(feature(d, "city"), Ok(0));
        assert_eq!(feature(d, "field-w"), Ok(3));
    }
}
