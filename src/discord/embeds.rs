//! An outbox row as Discord messages: the text split to Discord's 2,000 characters, and for
//! board posts an embed (title, one field per player, the deadline as a Discord timestamp)
//! with the board's PNG attached and the row's buttons below.

use super::buttons::components;
use crate::store::OutboxRow;
use poise::serenity_prelude as serenity;

/// The most characters of a message's text.
pub const MESSAGE_LIMIT: usize = 2000;
/// The most characters of an embed's description.
const DESCRIPTION_LIMIT: usize = 4096;
/// The name of the attached board picture.
const PICTURE: &str = "board.png";

/// Splits `text` into parts of at most `limit` characters, at line ends where it can; a code
/// block cut in two is closed at the end of one part and opened again in the next.
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
                let take = room - current.chars().count();
                let head: String = line.chars().take(take).collect();
                line = line.chars().skip(take).collect();
                current.push_str(&head);
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

/// The messages of one row, in order. `png` is the board picture, if the row has one and it
/// could be drawn.
pub(super) fn messages(row: &OutboxRow, png: Option<Vec<u8>>) -> Vec<serenity::CreateMessage> {
    let card = row.card.clone().unwrap_or_default();
    let rich = card.title.is_some() || png.is_some();
    let in_embed = rich && row.body.chars().count() <= DESCRIPTION_LIMIT;
    let texts = if in_embed {
        Vec::new()
    } else {
        split_text(&row.body, MESSAGE_LIMIT)
    };
    let mut messages: Vec<serenity::CreateMessage> = texts
        .into_iter()
        .map(|text| serenity::CreateMessage::new().content(text))
        .collect();
    if rich {
        let mut embed = serenity::CreateEmbed::new();
        if let Some(title) = &card.title {
            embed = embed.title(title);
        }
        if in_embed {
            embed = embed.description(&row.body);
        }
        for field in &card.fields {
            embed = embed.field(&field.name, &field.value, true);
        }
        if let Some(deadline) = card.deadline {
            let at = deadline.timestamp();
            embed = embed.field("Deadline", format!("<t:{at}:R> (<t:{at}:f>)"), false);
        }
        let mut message = serenity::CreateMessage::new();
        if let Some(png) = png {
            embed = embed.image(format!("attachment://{PICTURE}"));
            message = message.add_file(serenity::CreateAttachment::bytes(png, PICTURE));
        }
        messages.push(message.embed(embed));
    }
    if !card.buttons.is_empty() {
        if let Some(last) = messages.pop() {
            messages.push(last.components(components(row.id, &card.buttons)));
        }
    }
    messages
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn an_endless_line_is_cut() {
        let text = "y".repeat(4500);
        let parts = split_text(&text, 2000);
        assert_eq!(parts.len(), 3);
        assert_eq!(parts.concat(), text);
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
