//! Turns a game's SVG board into a PNG, with the fonts shipped in `assets/fonts` so pictures
//! look the same on every machine: DejaVu Sans for text, and Twemoji (a colour font) for the
//! emoji players take as symbols, which DejaVu lacks; each character missing from DejaVu is
//! drawn from Twemoji.

use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// Why a picture could not be made.
#[derive(Debug, Error)]
pub enum PictureError {
    /// The game produced SVG that does not parse.
    #[error("the board picture is not valid SVG: {0}")]
    Svg(String),
    /// The picture has no area or is too large to draw.
    #[error("the board picture has an impossible size {0}x{1}")]
    Size(u32, u32),
    /// PNG encoding failed.
    #[error("the board picture could not be encoded: {0}")]
    Encode(String),
}

/// The largest side, in pixels, a picture may have (keeps uploads far below Discord's limit).
pub const MAX_SIDE: u32 = 4096;

/// DejaVu Sans 2.37 without its legacy `kern` table. Its GPOS table holds the same kerning,
/// which a shaper uses instead, so text draws the same, pixel for pixel. But the shaper built
/// a cache of the `kern` table for every line of text it laid out, a fifth of the time a
/// board took to draw.
static FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");
static EMOJI_FONT: &[u8] = include_bytes!("../assets/fonts/Twemoji.ttf");

fn options() -> &'static resvg::usvg::Options<'static> {
    static OPTIONS: OnceLock<resvg::usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = resvg::usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        fonts.load_font_data(EMOJI_FONT.to_vec());
        let mut options = resvg::usvg::Options {
            font_family: "DejaVu Sans".to_string(),
            ..Default::default()
        };
        options.fontdb = Arc::new(fonts);
        options
    })
}

/// Renders an SVG document to PNG bytes at its own size.
pub fn png_from_svg(svg: &str) -> Result<Vec<u8>, PictureError> {
    let tree = resvg::usvg::Tree::from_str(svg, options())
        .map_err(|error| PictureError::Svg(error.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(PictureError::Size(width, height));
    }
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(width, height).ok_or(PictureError::Size(width, height))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    encode(width, height, &pixmap.take_demultiplied())
}

/// RGBA pixels as PNG, compressed fast: a board is posted once, and under load the default
/// compression took more of the bot's time than drawing the board did, for files little
/// smaller.
fn encode(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, PictureError> {
    let failed = |error: png::EncodingError| PictureError::Encode(error.to_string());
    let mut data = Vec::new();
    let mut encoder = png::Encoder::new(&mut data, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(rgba).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(data)
}

/// One bundled font as text is measured with it: its character map, its glyphs' advances in
/// font units with the size of its em, and the advances of the first [`AT_HAND`] characters
/// worked out once (the table measures every line of every board it lays out, and looking
/// a character up in the font's tables each time cost it more than the rest of a move).
struct Measure {
    charmap: skrifa::charmap::Charmap<'static>,
    advances: skrifa::metrics::GlyphMetrics<'static>,
    em: f32,
    at_hand: Vec<Option<f32>>,
}

/// How many characters from U+0000 on each [`Measure`] keeps the advance of: Latin, with its
/// accents, and the box-drawing and block characters of the boards.
const AT_HAND: u32 = 0x2600;

impl Measure {
    fn of(data: &'static [u8]) -> Option<Measure> {
        use skrifa::MetadataProvider;
        let font = skrifa::FontRef::new(data).ok()?;
        let location = skrifa::instance::LocationRef::default();
        let em = f32::from(
            font.metrics(skrifa::instance::Size::unscaled(), location)
                .units_per_em,
        );
        let mut measure = Measure {
            charmap: font.charmap(),
            advances: font.glyph_metrics(skrifa::instance::Size::unscaled(), location),
            em,
            at_hand: Vec::new(),
        };
        measure.at_hand = (0..AT_HAND)
            .map(|code| char::from_u32(code).and_then(|c| measure.look_up(c)))
            .collect();
        Some(measure)
    }

    /// The advance of `c` in ems, if the font has it.
    fn advance(&self, c: char) -> Option<f32> {
        match self.at_hand.get(c as usize) {
            Some(advance) => *advance,
            None => self.look_up(c),
        }
    }

    /// The advance of `c` in ems as the font's tables give it.
    fn look_up(&self, c: char) -> Option<f32> {
        let glyph = self.charmap.map(c)?;
        Some(self.advances.advance_width(glyph)? / self.em.max(1.0))
    }
}

fn measures() -> &'static [Measure] {
    static MEASURES: OnceLock<Vec<Measure>> = OnceLock::new();
    MEASURES.get_or_init(|| {
        [FONT, EMOJI_FONT]
            .into_iter()
            .filter_map(Measure::of)
            .collect()
    })
}

/// Whether `c` is drawn from the bundled Twemoji, not DejaVu Sans: an emoji, which a reader
/// without an emoji font sees as an empty box unless it comes as a picture.
pub fn is_emoji(c: char) -> bool {
    match measures() {
        [text, emoji, ..] => text.advance(c).is_none() && emoji.advance(c).is_some(),
        _ => false,
    }
}

/// How wide `text` is drawn at `size` pixels with the bundled fonts (DejaVu Sans, then
/// Twemoji for what DejaVu lacks; an em for a character neither has), for laying out text
/// that must fit: a line that wraps, a picture as wide as its text.
pub fn text_width(text: &str, size: f32) -> f32 {
    let measures = measures();
    text.chars()
        .map(|c| {
            measures
                .iter()
                .find_map(|measure| measure.advance(c))
                .unwrap_or(1.0)
        })
        .sum::<f32>()
        * size
}

/// The longest start of `chars` (at least one character) drawn within `room` pixels by
/// `width`: how many characters it has.
pub fn fitting(chars: &[char], room: f32, width: impl Fn(&str) -> f32) -> usize {
    let mut taken = String::new();
    for (index, c) in chars.iter().enumerate() {
        taken.push(*c);
        if width(&taken) > room {
            return index.max(1);
        }
    }
    chars.len()
}

/// `line` cut at spaces into lines of at most `room` pixels when drawn at `size` (see
/// [`text_width`]); a word longer than a line is cut where it must.
pub fn wrap(line: &str, size: f32, room: f32) -> Vec<String> {
    let width = |text: &str| text_width(text, size);
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let joined: String = match current.is_empty() {
                true => word.iter().collect(),
                false => format!("{current} {}", word.iter().collect::<String>()),
            };
            if width(&joined) <= room {
                current = joined;
                break;
            }
            if !current.is_empty() {
                lines.push(std::mem::take(&mut current));
                continue;
            }
            let rest = word.split_off(fitting(&word, room, width));
            lines.push(word.into_iter().collect());
            word = rest;
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

/// Escapes text for use inside SVG elements and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_at_spaces_and_long_words_are_cut() {
        let room = text_width("one two three", 16.0);
        assert_eq!(
            wrap("one two three four five", 16.0, room),
            ["one two three", "four five"]
        );
        let long = "abcdefghijklmnopqrstuvwxyz".repeat(2);
        let cut = wrap(&long, 16.0, room);
        assert!(cut.len() > 2, "{cut:?}");
        assert_eq!(cut.concat(), long);
        assert!(cut.iter().all(|line| text_width(line, 16.0) <= room));
        assert_eq!(wrap("", 16.0, room), [""]);
    }

    #[test]
    fn renders_text_and_shapes_to_png() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">
            <rect width="120" height="40" fill="#fff"/>
            <text x="10" y="28" font-size="20" fill="#000">a1 &amp; b2</text></svg>"##;
        let png = png_from_svg(svg).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }

    #[test]
    fn draws_emoji_in_colour() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60">
            <rect width="60" height="60" fill="#fff"/>
            <text x="5" y="45" font-size="40">🐸</text></svg>"##;
        let png = png_from_svg(svg).unwrap();
        let decoded = decode(&png);
        // The frog is green: a coloured glyph, not a black outline or nothing.
        assert!(decoded
            .chunks(4)
            .any(|p| p[1] > 120 && p[0] < 150 && p[2] < 150 && p[3] > 200));
    }

    fn decode(png: &[u8]) -> Vec<u8> {
        let pixmap = resvg::tiny_skia::Pixmap::decode_png(png).unwrap();
        pixmap.data().to_vec()
    }

    #[test]
    fn the_text_font_kerns_through_gpos_alone() {
        use skrifa::raw::TableProvider;
        let kern = skrifa::Tag::new(b"kern");
        let font = skrifa::FontRef::new(FONT).unwrap();
        assert!(font.table_data(kern).is_none(), "no legacy kern table");
        // Every script and language the font knows applies a GPOS kern feature, so all text
        // is kerned through GPOS (where it is, a shaper never reads a kern table).
        let gpos = font.gpos().unwrap();
        let features = gpos.feature_list().unwrap().feature_records();
        let kerns = |system: skrifa::raw::tables::layout::LangSys| {
            system.feature_indices().iter().any(|index| {
                features
                    .get(usize::from(index.get()))
                    .is_some_and(|feature| feature.feature_tag() == kern)
            })
        };
        let scripts = gpos.script_list().unwrap();
        assert!(!scripts.script_records().is_empty());
        for record in scripts.script_records() {
            let tag = record.script_tag();
            let script = record.script(scripts.offset_data()).unwrap();
            let default = script.default_lang_sys().unwrap().unwrap();
            assert!(kerns(default), "script {tag}");
            for language in script.lang_sys_records() {
                let system = language.lang_sys(script.offset_data()).unwrap();
                assert!(
                    kerns(system),
                    "script {tag}, language {}",
                    language.lang_sys_tag()
                );
            }
        }
    }

    #[test]
    fn refuses_broken_svg() {
        assert!(matches!(png_from_svg("<svg"), Err(PictureError::Svg(_))));
    }

    #[test]
    fn text_is_measured_with_the_bundled_fonts() {
        // DejaVu Sans: "m" is more than twice as wide as "i".
        assert!(text_width("m", 14.0) > text_width("i", 14.0) * 2.0);
        assert!((text_width("mm", 14.0) - 2.0 * text_width("m", 14.0)).abs() < 1e-3);
        // Twice the size, twice the width; an emoji comes from Twemoji, about an em wide.
        assert!((text_width("abc", 28.0) - 2.0 * text_width("abc", 14.0)).abs() < 1e-3);
        let frog = text_width("🐸", 14.0);
        assert!(frog > 10.0 && frog < 20.0, "{frog}");
    }

    #[test]
    fn the_advances_kept_at_hand_are_the_fonts_own() {
        let measures = measures();
        assert_eq!(measures.len(), 2, "both bundled fonts read");
        for measure in measures {
            // Every character kept at hand, and some past them (symbols, emoji, CJK).
            let beyond = [
                '\u{2600}',
                '\u{2654}',
                '\u{1F438}',
                '\u{4E2D}',
                '\u{10FFFF}',
            ];
            for c in (0..AT_HAND).filter_map(char::from_u32).chain(beyond) {
                assert_eq!(measure.advance(c), measure.look_up(c), "{c:?}");
            }
        }
        // DejaVu has the board's box drawing and Latin; Twemoji has the frog, kept apart.
        let (text, emoji) = (&measures[0], &measures[1]);
        assert!(text.advance('\u{2500}').is_some() && text.advance('é').is_some());
        assert!(emoji.advance('\u{1F438}').is_some() && text.advance('\u{1F438}').is_none());
    }
}
