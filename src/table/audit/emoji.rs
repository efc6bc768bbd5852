//! Emoji on the audit page as the pictures draw them: from the bundled Twemoji, so a reader
//! whose machine has no emoji font sees a frog, not an empty box. Each emoji the page uses is
//! drawn once to a small PNG carried in the page's style; the text keeps the emoji itself as
//! the image's label, for copying and for screen readers.

use crate::picture::{self, escape};
use base64::Engine;
use std::collections::BTreeMap;

/// The size, in pixels, each emoji is drawn at (shown at the text's height, so sharp on a
/// screen of twice the density).
const DRAWN: u32 = 40;

/// `html` (a whole page) with every emoji in its text, outside tags, inline pictures and
/// scripts, replaced by a span showing it as a picture; the pictures go in a `<style>` before
/// `</head>`. A page without emoji comes back as it was.
pub fn drawn(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut rest = html;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            let skip = ["<svg", "<script", "<title", "<style"]
                .iter()
                .find(|open| rest.starts_with(**open))
                .map(|open| format!("</{}>", &open[1..]));
            let end = match skip {
                Some(close) => rest.find(&close).map(|at| at + close.len()),
                None => rest.find('>').map(|at| at + 1),
            }
            .unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        let cluster = cluster_at(rest);
        if cluster.is_empty() {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let next = seen.len();
        let index = *seen.entry(cluster.to_string()).or_insert(next);
        out.push_str(&format!(
            "<span class=\"emoji e{index}\" role=\"img\" aria-label=\"{label}\" title=\"{label}\"></span>",
            label = escape(cluster)
        ));
        rest = &rest[cluster.len()..];
    }
    if seen.is_empty() {
        return html.to_string();
    }
    let mut style = String::from(
        "<style>.emoji{display:inline-block;width:1.2em;height:1.2em;vertical-align:-0.25em;background-size:contain;background-repeat:no-repeat}",
    );
    for (cluster, index) in &seen {
        if let Some(png) = png_of(cluster) {
            let data = base64::engine::general_purpose::STANDARD.encode(png);
            style.push_str(&format!(
                ".e{index}{{background-image:url(data:image/png;base64,{data})}}"
            ));
        }
    }
    style.push_str("</style>\n</head>");
    out.replacen("</head>", &style, 1)
}

/// The emoji at the start of `text` with what belongs to it (a variation selector, a skin
/// tone, a second flag letter, characters joined by a zero-width joiner), or "" when `text`
/// does not start with an emoji.
fn cluster_at(text: &str) -> &str {
    let mut chars = text.char_indices();
    let Some((_, first)) = chars.next() else {
        return "";
    };
    if !picture::is_emoji(first) {
        return "";
    }
    let mut end = first.len_utf8();
    let mut joined = false;
    for (at, c) in chars {
        let belongs = joined
            || matches!(c, '\u{FE0F}' | '\u{200D}' | '\u{1F3FB}'..='\u{1F3FF}')
            || (is_flag_letter(first) && is_flag_letter(c) && at == first.len_utf8());
        if !belongs {
            break;
        }
        joined = c == '\u{200D}';
        end = at + c.len_utf8();
    }
    &text[..end]
}

/// A regional indicator: two of them make a flag.
fn is_flag_letter(c: char) -> bool {
    ('\u{1F1E6}'..='\u{1F1FF}').contains(&c)
}

/// The emoji drawn with the bundled Twemoji, as PNG bytes.
fn png_of(cluster: &str) -> Option<Vec<u8>> {
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{DRAWN}\" height=\"{DRAWN}\"><text x=\"{half}\" y=\"{base}\" font-size=\"{size}\" text-anchor=\"middle\">{}</text></svg>",
        escape(cluster),
        half = DRAWN / 2,
        base = DRAWN * 17 / 20,
        size = DRAWN * 9 / 10,
    );
    picture::png_from_svg(&svg).ok()
}

#[cfg(test)]
mod tests {
    use super::drawn;

    #[test]
    fn emoji_in_text_become_pictures_and_the_rest_is_left_alone() {
        let page = "<html><head><title>🐸 game</title></head><body><p>ann (🐸) and bob (🦊) ♇ 🐸</p><svg><text>🐸</text></svg><script>\"🐸\"</script></body></html>";
        let out = drawn(page);
        assert!(out.contains("<title>🐸 game</title>"), "{out}");
        assert!(out.contains("<svg><text>🐸</text></svg>"), "{out}");
        assert!(out.contains("<script>\"🐸\"</script>"), "{out}");
        assert!(out.contains("ann (<span class=\"emoji e0\" role=\"img\" aria-label=\"🐸\""));
        assert!(out.contains("bob (<span class=\"emoji e1\""));
        // DejaVu Sans has ♇: it stays text. The frog is drawn once for both places.
        assert!(out.contains(") ♇ <span class=\"emoji e0\""), "{out}");
        assert_eq!(
            out.matches(".e0{background-image:url(data:image/png;base64,")
                .count(),
            1
        );
        assert!(out.contains(".e1{background-image"));
        assert_eq!(drawn("<p>no emoji</p>"), "<p>no emoji</p>");
    }
}
