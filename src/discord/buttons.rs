//! Buttons: the few options a player picks among (join a game, a Parcheesi step, TAG's stomp
//! or stride). A button names its outbox row and its place on the row's card; pressing it
//! sends the button's text as the presser, through the same table service as typed text.
//! A button meant for another player is refused privately.

use super::embeds::MESSAGE_LIMIT;
use super::inbound::{sent_at, submit, user, Held};
use super::{Bot, DiscordError};
use crate::store::OutboxRow;
use crate::table::{Audience, Button, Envelope, Inbound};
use poise::serenity_prelude as serenity;
use tracing::{info_span, warn, Instrument};

const PREFIX: &str = "referee:";
/// Discord shows at most 5 rows of 5 buttons.
const MAX_BUTTONS: usize = 25;

fn custom_id(row: i64, index: usize) -> String {
    format!("{PREFIX}{row}:{index}")
}

fn parse_custom_id(id: &str) -> Option<(i64, usize)> {
    let (row, index) = id.strip_prefix(PREFIX)?.split_once(':')?;
    Some((row.parse().ok()?, index.parse().ok()?))
}

/// The action rows for a row's buttons.
pub(super) fn components(row: i64, buttons: &[Button]) -> Vec<serenity::CreateActionRow> {
    let buttons: Vec<serenity::CreateButton> = buttons
        .iter()
        .take(MAX_BUTTONS)
        .enumerate()
        .map(|(index, button)| {
            let label: String = button.label.chars().take(80).collect();
            serenity::CreateButton::new(custom_id(row, index))
                .label(label)
                .style(serenity::ButtonStyle::Primary)
        })
        .collect();
    buttons
        .chunks(5)
        .map(|chunk| serenity::CreateActionRow::Buttons(chunk.to_vec()))
        .collect()
}

async fn reply_privately(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    text: String,
) -> Result<(), DiscordError> {
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(text)
                    .ephemeral(true),
            ),
        )
        .await?;
    Ok(())
}

/// Handles a button press: refuses it privately if the button is someone else's, otherwise
/// applies its text as the presser, once per interaction (a press delivered twice is neither
/// applied nor answered again). A press the table refuses (a stale Join after the start) is
/// answered privately; an accepted one is acknowledged and its posts go out as usual.
pub(super) async fn press(
    bot: &Bot,
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
) -> Result<(), DiscordError> {
    let span = info_span!("button", id = %press.id, user = %press.user.id, custom_id = %press.data.custom_id);
    async {
        let Some((row, index)) = parse_custom_id(&press.data.custom_id) else {
            return Ok(());
        };
        let button = bot
            .service
            .store()
            .outbox_row(row)
            .await?
            .and_then(|row| row.card)
            .and_then(|card| card.buttons.into_iter().nth(index));
        let Some(button) = button else {
            return reply_privately(
                ctx,
                press,
                "This button no longer does anything.".to_string(),
            )
            .await;
        };
        let presser = press.user.id.get().to_string();
        if let Some(only) = button.only.as_ref().filter(|only| **only != presser) {
            return reply_privately(
                ctx,
                press,
                format!("This choice is for <@{only}>; only they can press it."),
            )
            .await;
        }
        let nick = press.member.as_ref().and_then(|m| m.nick.as_deref());
        let who = user(&press.user, nick);
        let (inbound, audience) = match (button.direct, press.guild_id) {
            (false, Some(_)) => {
                let channel = press.channel_id.get().to_string();
                (
                    Inbound::Channel {
                        channel: channel.clone(),
                        admin: bot.is_admin(press.user.id),
                        user: who,
                        text: button.text,
                    },
                    Audience::Channel(channel),
                )
            }
            _ => (
                Inbound::Direct {
                    user: who,
                    text: button.text,
                },
                Audience::Direct(presser),
            ),
        };
        let envelope = Envelope {
            id: press.id.get().to_string(),
            place: None,
            sent: sent_at(press.id.get()),
            mentioned: Vec::new(),
            server: press.guild_id.map(|guild| guild.get().to_string()),
            edited: None,
        };
        let (receipt, rows) = submit(bot, &envelope, inbound, true, Held::No).await?;
        let all: Vec<i64> = rows.iter().map(|row| row.id).collect();
        let mut taken = Vec::new();
        let answered = if !receipt.fresh {
            Ok(())
        } else if receipt.refused {
            let (text, refusal) = refusal_text(&rows, &audience);
            let sent = reply_privately(ctx, press, text).await;
            if sent.is_ok() {
                taken = refusal;
            }
            sent
        } else {
            press
                .create_response(ctx, serenity::CreateInteractionResponse::Acknowledge)
                .await
                .map_err(DiscordError::from)
        };
        if let Err(error) = bot.answered(&taken, &all).await {
            warn!(%error, "a press's answer could not be marked delivered");
        }
        answered
    }
    .instrument(span)
    .await
}

/// The refusal a press got, from the rows it queued for `audience`, and those rows.
fn refusal_text(rows: &[OutboxRow], audience: &Audience) -> (String, Vec<i64>) {
    let mine: Vec<&OutboxRow> = rows
        .iter()
        .filter(|row| row.audience == *audience)
        .collect();
    let text = mine
        .iter()
        .map(|row| row.body.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let text: String = text.chars().take(MESSAGE_LIMIT).collect();
    (text, mine.iter().map(|row| row.id).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip_and_foreign_ones_are_ignored() {
        assert_eq!(parse_custom_id(&custom_id(42, 3)), Some((42, 3)));
        assert_eq!(parse_custom_id("other:1:2"), None);
        assert_eq!(parse_custom_id("referee:x:2"), None);
    }
}
