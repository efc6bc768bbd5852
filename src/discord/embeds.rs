//! An outbox row as Discord messages: the text split to Discord's 2,000 characters, and for
//! board posts an embed (title, one field per player, the deadline as a Discord timestamp)
//! with the board's PNG attached and the row's buttons below; a row's file (the audit page)
//! goes with its last message.

use super::buttons::components;
use super::rest::PICTURE;
use crate::store::OutboxRow;
use crate::table::{deadline_words, Card, NAME_LIMIT, VALUE_LIMIT};
use poise::serenity_prelude as serenity;

/// The most characters of a message's text.
pub const MESSAGE_LIMIT: usize = 2000;
/// The most characters of an embed's description.
const DESCRIPTION_LIMIT: usize = 4096;
/// The most characters of an embed altogether: title, description, fields' names and values.
const EMBED_LIMIT: usize = 6000;

/// Splits `text` into parts of at most `limit` characters: at line ends where it can, else
/// inside an overlong line after a sentence or clause (`. `, `; `, `, `) or at a space, and
/// only where nothing else fits in the middle of a word; never inside a mention or timestamp
/// (`<@123>`, `<#123>`, `<t:...>`) or an inline code span. A code block cut in two is closed
/// at the end of one part and opened again in the next.
pub fn split_text(text: &str, limit: usize) -> Vec<String> {
    // Room for a closing fence ("\n```") at the end of every part.
    let room = limit.max(16) - 4;
    let mut parts = Vec::new();
    let mut current = String::new();
    for line in text.split('\n') {
        let mut line = line.to_string();
        loop {
            let extra = usize::from(!current.is_empty());
            if current.chars().count() + extra + line.chars().count() <= room {
                if extra == 1 {
                    current.push('\n');
                }
                current.push_str(&line);
                break;
            }
            if current.is_empty() || current == "```" {
                let take = cut_point(&line, room - current.chars().count());
                let head: String = line.chars().take(take).collect();
                line = line.chars().skip(take).collect::<String>();
                line = line.trim_start().to_string();
                current.push_str(head.trim_end());
            }
            let open = current.matches("```").count() % 2 == 1;
            if open {
                current.push_str("\n```");
            }
            parts.push(std::mem::take(&mut current));
            if open {
                current.push_str("```");
            }
        }
    }
    if !current.is_empty() || parts.is_empty() {
        parts.push(current);
    }
    parts
}

/// How many characters of an overlong `line` go into a part of `room` characters: up to the
/// last clause end or space that is outside a mention and a code span, else the most that
/// leaves a mention whole.
fn cut_point(line: &str, room: usize) -> usize {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= room {
        return chars.len();
    }
    let mut in_mention = false;
    let mut in_code = false;
    let mut safe = vec![true; room + 1];
    let (mut clause, mut space) = (None, None);
    for (index, c) in chars.iter().enumerate().take(room + 1) {
        safe[index] = !in_mention && !in_code;
        if *c == ' ' && safe[index] && index > 0 {
            space = Some(index);
            if matches!(chars[index - 1], '.' | ';' | ',' | ':' | '!' | '?') {
                clause = Some(index);
            }
        }
        match c {
            '<' if !in_code
                && chars
                    .get(index + 1)
                    .is_some_and(|n| matches!(n, '@' | '#' | 't' | ':' | 'a')) =>
            {
                in_mention = true
            }
            '>' if in_mention => in_mention = false,
            '`' => in_code = !in_code,
            _ => {}
        }
    }
    // A clause end in the second half of the part reads best; else the last space.
    match (clause.filter(|at| *at > room / 2), space) {
        (Some(at), _) => at,
        (None, Some(at)) if at > 0 => at,
        _ => (1..=room).rev().find(|at| safe[*at]).unwrap_or(room),
    }
}

/// One Discord message of an outbox row: the message, and the files to attach (the board's
/// PNG as `board.png`, shown in the embed; the row's file).
pub(super) struct Outgoing {
    /// Text, embed and buttons.
    pub message: serenity::CreateMessage,
    /// The files.
    pub files: Vec<serenity::CreateAttachment>,
}

/// `text` in at most `limit` characters: cut, with "…" at the end, when it is longer.
fn within(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(limit.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A card's title and fields as an embed holds them: each within Discord's limits, and all
/// together within [`EMBED_LIMIT`] less `room` (the description's share): fields that do
/// not fit give way, from the last, to one saying how many more there are.
fn embed_parts(card: &Card, room: usize) -> (Option<String>, Vec<(String, String, bool)>) {
    let title = card.title.as_deref().map(|title| within(title, NAME_LIMIT));
    let mut fields: Vec<(String, String, bool)> = card
        .fields
        .iter()
        .map(|field| {
            let name = within(&field.name, NAME_LIMIT);
            let value = within(&field.value, VALUE_LIMIT);
            (name, value, true)
        })
        .collect();
    if let Some(deadline) = card.deadline {
        fields.push((
            "Deadline".to_string(),
            deadline_words(deadline, card.tz.as_deref()),
            false,
        ));
    }
    let size = |title: &Option<String>, fields: &[(String, String, bool)]| {
        title.as_ref().map_or(0, |t| t.chars().count())
            + fields
                .iter()
                .map(|(name, value, _)| name.chars().count() + value.chars().count())
                .sum::<usize>()
    };
    let limit = EMBED_LIMIT.saturating_sub(room);
    let mut dropped = 0;
    while size(&title, &fields) > limit && !fields.is_empty() {
        // The deadline, last, stays: the players' fields give way before it.
        let at = fields.len() - 1 - usize::from(card.deadline.is_some() && fields.len() > 1);
        fields.remove(at);
        dropped += 1;
        let more = ("…".to_string(), format!("and {dropped} more"), true);
        if size(&title, &fields) + more.0.chars().count() + more.1.chars().count() <= limit {
            let at = fields.len() - usize::from(card.deadline.is_some() && !fields.is_empty());
            fields.insert(at, more);
            break;
        }
    }
    (title, fields)
}

/// The messages of one row, in order. `png` is the board picture, if the row has one and it
/// could be drawn. The text goes into the embed's description when the embed can hold it
/// (within Discord's limits, the card's title and fields included), else before it as plain
/// messages.
pub(super) fn messages(row: &OutboxRow, png: Option<Vec<u8>>) -> Vec<Outgoing> {
    let card = row.card.clone().unwrap_or_default();
    let rich = card.title.is_some() || png.is_some();
    let in_embed = rich && text_in_embed(row, &card);
    let texts = if in_embed {
        Vec::new()
    } else {
        split_text(&row.body, MESSAGE_LIMIT)
    };
    let mut messages: Vec<Outgoing> = texts
        .into_iter()
        .map(|text| Outgoing {
            message: serenity::CreateMessage::new().content(text),
            files: Vec::new(),
        })
        .collect();
    if rich {
        let (embed, picture) = embed_of(row, &card, in_embed, png);
        messages.push(Outgoing {
            message: serenity::CreateMessage::new().embed(embed),
            files: picture.into_iter().collect(),
        });
    }
    if let (Some(file), Some(last)) = (&row.file, messages.last_mut()) {
        last.files.push(serenity::CreateAttachment::bytes(
            file.text.as_bytes().to_vec(),
            file.name.clone(),
        ));
    }
    if !card.buttons.is_empty() {
        if let Some(last) = messages.last_mut() {
            last.message =
                std::mem::take(&mut last.message).components(components(row.id, &card.buttons));
        }
    }
    messages
}

/// Whether the row's text goes in its embed's description: within Discord's limits, the
/// card's title and fields included.
fn text_in_embed(row: &OutboxRow, card: &Card) -> bool {
    let (title, fields) = embed_parts(card, 0);
    let beside = title.as_ref().map_or(0, |t| t.chars().count())
        + fields
            .iter()
            .map(|(name, value, _)| name.chars().count() + value.chars().count())
            .sum::<usize>();
    let body = row.body.chars().count();
    body <= DESCRIPTION_LIMIT && body + beside <= EMBED_LIMIT
}

/// The embed of a row (its title, its text when `in_embed`, its fields, its picture) and the
/// picture's attachment.
fn embed_of(
    row: &OutboxRow,
    card: &Card,
    in_embed: bool,
    png: Option<Vec<u8>>,
) -> (serenity::CreateEmbed, Option<serenity::CreateAttachment>) {
    let (title, fields) = embed_parts(card, 0);
    let mut embed = serenity::CreateEmbed::new();
    if let Some(title) = &title {
        embed = embed.title(title);
    }
    if in_embed {
        embed = embed.description(&row.body);
    }
    for (name, value, inline) in fields {
        embed = embed.field(name, value, inline);
    }
    let picture = png.map(|png| {
        embed = std::mem::take(&mut embed).image(format!("attachment://{PICTURE}"));
        serenity::CreateAttachment::bytes(png, PICTURE)
    });
    (embed, picture)
}

/// A row an interaction can answer with one embed (a titled card whose text fits in it, with
/// no file: `!stats`, `!leaderboard` and its chart): the embed and the picture's attachment.
pub(super) fn answer_embed(
    row: &OutboxRow,
    png: Option<Vec<u8>>,
) -> Option<(serenity::CreateEmbed, Option<serenity::CreateAttachment>)> {
    let card = row.card.as_ref().filter(|card| card.title.is_some())?;
    if row.file.is_some() || !text_in_embed(row, card) {
        return None;
    }
    Some(embed_of(row, card, true, png))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Field;

    #[test]
    fn an_embed_keeps_within_every_limit_of_discord() {
        let card = Card {
            title: Some("T".repeat(300)),
            fields: (0..24)
                .map(|n| Field {
                    name: format!("{n}{}", "n".repeat(300)),
                    value: "v".repeat(2000),
                })
                .collect(),
            deadline: Some(chrono::Utc::now()),
            tz: None,
            buttons: Vec::new(),
        };
        let (title, fields) = embed_parts(&card, 0);
        assert_eq!(title.as_ref().unwrap().chars().count(), 256);
        let total: usize = title.unwrap().chars().count()
            + fields
                .iter()
                .map(|(n, v, _)| n.chars().count() + v.chars().count())
                .sum::<usize>();
        assert!(total <= EMBED_LIMIT, "{total}");
        assert!(fields
            .iter()
            .all(|(n, v, _)| n.chars().count() <= 256 && v.chars().count() <= 1024));
        assert_eq!(fields.last().unwrap().0, "Deadline", "the deadline stays");
        let more = &fields[fields.len() - 2];
        assert_eq!(more.0, "…");
        let shown = fields.len() - 2;
        assert_eq!(more.1, format!("and {} more", 24 - shown));
    }

    #[test]
    fn short_text_is_one_part() {
        assert_eq!(split_text("hello\nworld", 2000), vec!["hello\nworld"]);
    }

    #[test]
    fn long_text_splits_at_lines_within_the_limit() {
        let line = "x".repeat(30);
        let text = vec![line.as_str(); 200].join("\n");
        let parts = split_text(&text, 2000);
        assert!(parts.len() >= 4);
        assert!(parts.iter().all(|p| p.chars().count() <= 2000));
        assert_eq!(parts.join("\n"), text);
    }

    #[test]
    fn an_endless_word_is_cut() {
        let text = "y".repeat(4500);
        let parts = split_text(&text, 2000);
        assert_eq!(parts.len(), 3);
        assert_eq!(parts.concat(), text);
    }

    #[test]
    fn a_long_line_splits_at_a_clause_or_space_never_inside_a_name_or_mention() {
        let names: Vec<String> = (0..300)
            .map(|n| format!("<@{}> (player{n})", 100_000 + n))
            .collect();
        let text = format!("Waiting for {}.", names.join(", "));
        let parts = split_text(&text, 500);
        assert!(parts.len() > 10);
        for part in &parts {
            assert!(part.chars().count() <= 500);
            assert_eq!(
                part.matches('<').count(),
                part.matches('>').count(),
                "{part}"
            );
            assert_eq!(
                part.matches('(').count(),
                part.matches(')').count(),
                "{part}"
            );
        }
        assert_eq!(parts.join(" "), text);
        let words = "one two three four five six seven eight nine ten ".repeat(60);
        let parts = split_text(words.trim(), 200);
        assert!(parts
            .iter()
            .all(|part| !part.starts_with(' ') && !part.ends_with(' ')));
        assert_eq!(parts.join(" "), words.trim());
        let whole = [
            "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        ];
        assert!(parts
            .iter()
            .all(|part| part.split(' ').all(|word| whole.contains(&word))));
    }

    #[test]
    fn a_cut_code_block_is_closed_and_reopened() {
        let body = vec!["row of the board"; 200].join("\n");
        let text = format!("```\n{body}\n```");
        let parts = split_text(&text, 2000);
        assert!(parts.len() >= 2);
        for part in &parts {
            assert_eq!(part.matches("```").count() % 2, 0, "{part}");
            assert!(part.chars().count() <= 2000);
        }
    }
}
