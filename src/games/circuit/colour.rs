//! Player colours: names as players write them, the default palette in seat order, and how
//! each colour is drawn (an emoji square for the text board, an RGB value for the picture).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The longest colour name accepted.
pub const MAX_NAME: usize = 20;

/// Known colours: name, RGB for the picture, emoji for the text board. The first eight are the
/// seed's palette in its order; the default colours are handed out in this order.
const KNOWN: &[(&str, &str, &str)] = &[
    ("dark blue", "#1f3a93", "🟦"),
    ("purple", "#7d3c98", "🟪"),
    ("grey", "#8c8c8c", "🔘"),
    ("red", "#c0392b", "🟥"),
    ("dark green", "#1e6b34", "🟩"),
    ("teal", "#16a2a0", "🌀"),
    ("lime green", "#8bd22f", "🍏"),
    ("white", "#f7f7f7", "⬜"),
    ("orange", "#e67e22", "🟧"),
    ("yellow", "#f1c40f", "🟨"),
    ("pink", "#ff69b4", "🩷"),
    ("brown", "#8d5524", "🟫"),
    ("blue", "#2e86de", "💙"),
    ("green", "#27ae60", "💚"),
    ("black", "#222222", "🖤"),
    ("navy", "#1b2a6b", "🫐"),
    ("gold", "#d4a017", "🪙"),
    ("salmon", "#fa8072", "🍣"),
];

/// The names of the known colours, in the order they are handed out: the game's palette.
pub const NAMES: [&str; KNOWN.len()] = {
    let mut names = [""; KNOWN.len()];
    let mut at = 0;
    while at < KNOWN.len() {
        names[at] = KNOWN[at].0;
        at += 1;
    }
    names
};

/// Picture colours for names outside the known list (taken before rules revision 2), picked
/// by the name's letters.
const SPARE: &[&str] = &[
    "#b03a2e", "#6c3483", "#1a5276", "#117864", "#9a7d0a", "#a04000", "#5d6d7e", "#c71585",
];

/// A player's colour, by its normalised name (lowercase, single spaces, `gray` read as `grey`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Colour(pub String);

impl Colour {
    /// Reads a colour name as a player wrote it, or says what a colour name may be.
    pub fn parse(text: &str) -> Result<Colour, String> {
        let words: Vec<String> = text
            .split_whitespace()
            .map(|word| word.to_lowercase().replace("gray", "grey"))
            .collect();
        let name = words.join(" ");
        if name.is_empty()
            || name.chars().count() > MAX_NAME
            || !name
                .chars()
                .all(|c| c.is_alphabetic() || c == ' ' || c == '-')
        {
            return Err(format!(
                "a colour is a name of at most {MAX_NAME} letters (like `red` or `dark blue`), and '{}' is not one",
                text.trim()
            ));
        }
        Ok(Colour(name))
    }

    /// The default colours in seat order (the seed's palette first).
    pub fn palette() -> impl Iterator<Item = Colour> {
        KNOWN.iter().map(|(name, _, _)| Colour((*name).to_string()))
    }

    /// The RGB value used in the picture.
    pub fn rgb(&self) -> &'static str {
        if let Some((_, rgb, _)) = KNOWN.iter().find(|(name, _, _)| *name == self.0) {
            return rgb;
        }
        let sum: usize = self.0.bytes().map(usize::from).sum();
        SPARE.get(sum % SPARE.len()).copied().unwrap_or("#808080")
    }

    /// The emoji of a known colour, for the text board (`None`: a colour outside the known
    /// list, which the board marks otherwise).
    pub fn known_emoji(&self) -> Option<&'static str> {
        KNOWN
            .iter()
            .find(|(name, _, _)| *name == self.0)
            .map(|(_, _, emoji)| *emoji)
    }

    /// Whether text on this colour should be dark for contrast.
    pub fn is_light(&self) -> bool {
        let rgb = self.rgb().trim_start_matches('#');
        let channel = |range: std::ops::Range<usize>| {
            rgb.get(range)
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .unwrap_or(0)
        };
        channel(0..2) * 299 + channel(2..4) * 587 + channel(4..6) * 114 > 150_000
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised_and_words_refused() {
        assert_eq!(Colour::parse("  Dark   GRAY ").unwrap().0, "dark grey");
        assert!(Colour::parse("r3d").is_err());
        assert!(Colour::parse("").is_err());
        assert_eq!(Colour::parse("white").unwrap().known_emoji(), Some("⬜"));
        assert!(Colour::parse("white").unwrap().is_light());
        assert!(!Colour::parse("dark blue").unwrap().is_light());
    }
}
