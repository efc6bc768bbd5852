//! Players' words: the pieces of a `!place` command, read into squares and pieces (the
//! rules they must keep are `placement`'s).

use super::piece::{Kind, Piece, Rotation};
use super::placement::Item;
use super::position::Square;
use super::PLACE;

/// Reads the arguments of `!place`: `<square> <piece> <rotation>` up to three times, such as
/// `b2 turn 90 c2 straight 0`. Squares may be written `b2` or `b 2`; a piece is a kind name
/// (straight, turn, cross/crossroad, thunder) followed by its rotation (optional for cross and
/// thunder), or a glyph of the text format (`┌`), which already fixes the rotation.
pub fn parse_place(args: &str) -> Result<Vec<Item>, String> {
    let tokens: Vec<String> = args
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|token| !token.is_empty())
        .map(str::to_lowercase)
        .collect();
    if tokens.is_empty() {
        return Err(format!(
            "say where and what, such as `!{} b2 turn 90 c2 straight 0` (rotations 0, 90, 180 or 270 clockwise)",
            PLACE.name
        ));
    }
    let mut items = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let first = &tokens[at];
        let square = if let Some(square) = Square::parse(first) {
            at += 1;
            square
        } else {
            let joined = tokens.get(at + 1).map(|next| format!("{first}{next}"));
            match joined.as_deref().and_then(Square::parse) {
                Some(square) if first.len() == 1 => {
                    at += 2;
                    square
                }
                _ => {
                    return Err(format!(
                    "`{first}` is not a square; name squares like b2 (column letter, row number)"
                ))
                }
            }
        };
        let word = tokens.get(at).ok_or_else(|| {
            format!("say which piece goes on {square}: straight, turn, cross or thunder, with a rotation")
        })?;
        at += 1;
        let mut glyphs = word.chars().filter(|c| *c != '\u{fe0f}');
        let glyph = match (glyphs.next(), glyphs.next()) {
            (Some(glyph), None) => Piece::from_glyph(glyph),
            _ => None,
        };
        let piece = if let Some(piece) = glyph {
            piece
        } else {
            let kind = Kind::parse(word).ok_or_else(|| {
                format!("`{word}` is not a piece; use straight, turn, cross or thunder")
            })?;
            let rotation = tokens.get(at).and_then(|token| Rotation::parse(token));
            match (kind, rotation) {
                (_, Some(rotation)) => {
                    at += 1;
                    Piece::new(kind, rotation)
                }
                (Kind::Cross | Kind::Thunder, None) => Piece::new(kind, Rotation::R0),
                (Kind::Straight | Kind::Turn, None) => {
                    return Err(format!(
                        "the {} on {square} needs a rotation: 0, 90, 180 or 270 (clockwise)",
                        kind.name()
                    ))
                }
            }
        };
        items.push((square, piece));
    }
    Ok(items)
}
