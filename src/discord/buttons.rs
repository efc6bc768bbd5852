//! Buttons: the few options a player picks among (join a game, a Parcheesi step, TAG's stomp
//! or stride). A button names its outbox row and its place on the row's card; pressing it
//! sends the button's text as the presser, through the same table service as typed text.
//! A button meant for another player is refused privately.

use super::inbound::{submit, user};
use super::{Bot, DiscordError};
use crate::table::{Button, Inbound};
use poise::serenity_prelude as serenity;
use tracing::{info_span, Instrument};

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
/// applies its text as the presser (once per interaction) and acknowledges the press.
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
        let inbound = match (button.direct, press.guild_id) {
            (false, Some(_)) => Inbound::Channel {
                channel: press.channel_id.get().to_string(),
                admin: bot.is_admin(press.user.id),
                user: who,
                text: button.text,
            },
            _ => Inbound::Direct {
                user: who,
                text: button.text,
            },
        };
        submit(bot, &press.id.get().to_string(), inbound, false).await?;
        press
            .create_response(ctx, serenity::CreateInteractionResponse::Acknowledge)
            .await?;
        Ok(())
    }
    .instrument(span)
    .await
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
