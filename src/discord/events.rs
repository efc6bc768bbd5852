//! Gateway events other than commands: plain messages (secret orders by DM, a game's public
//! actions, anything the table reads) and button presses; and what to do with errors.

use super::inbound::{plain_mentions, submit, user};
use super::{buttons, Bot, Context, DiscordError};
use crate::table::Inbound;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use tracing::{info_span, warn, Instrument};

type Framework<'a> = poise::FrameworkContext<'a, Arc<Bot>, DiscordError>;

/// A message that is not one of the commands: the table reads it (a DM order, `!move ...`).
/// Messages of bots, this one included, are ignored.
pub(super) async fn message(
    framework: &Framework<'_>,
    msg: &serenity::Message,
) -> Result<(), DiscordError> {
    if msg.author.bot || msg.author.id == framework.bot_id {
        return Ok(());
    }
    let bot = framework.user_data;
    let nick = msg.member.as_ref().and_then(|m| m.nick.as_deref());
    let who = user(&msg.author, nick);
    let text = plain_mentions(&msg.content);
    let (inbound, span) = match msg.guild_id {
        Some(_) => (
            Inbound::Channel {
                channel: msg.channel_id.get().to_string(),
                admin: bot.is_admin(msg.author.id),
                user: who,
                text,
            },
            info_span!("channel message", id = %msg.id, channel = %msg.channel_id),
        ),
        None => (
            Inbound::Direct { user: who, text },
            info_span!("direct message", id = %msg.id, user = %msg.author.id),
        ),
    };
    submit(bot, &msg.id.get().to_string(), inbound, false)
        .instrument(span)
        .await?;
    Ok(())
}

/// Other gateway events: button presses.
pub(super) async fn event(
    framework: Framework<'_>,
    event: &serenity::FullEvent,
) -> Result<(), DiscordError> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    {
        buttons::press(framework.user_data, framework.serenity_context, press).await?;
    }
    Ok(())
}

/// Errors never stop the bot: they are logged (a failed transaction changed nothing, and a
/// message not marked as seen is applied when Discord sends it again).
pub(super) async fn on_error(error: poise::FrameworkError<'_, Arc<Bot>, DiscordError>) {
    match error {
        // A prefix command whose words poise cannot split (an unclosed quote) still reaches the
        // table, which answers with what it expects.
        poise::FrameworkError::ArgumentParse {
            ctx: poise::Context::Prefix(prefix),
            ..
        } => {
            if let Err(error) = message(&prefix.framework, prefix.msg).await {
                warn!(%error, "a message could not be handled");
            }
        }
        poise::FrameworkError::Command { error, ctx, .. } => {
            warn!(%error, command = %ctx.command().name, "a command failed");
            tell(
                ctx,
                format!(
                    "Something went wrong on my side with `{}{}`, so it may not have been applied; \
                     check with `{}status` and try again. The GM can find the details in the bot's log.",
                    ctx.prefix(),
                    ctx.command().name,
                    ctx.data().prefix
                ),
            )
            .await;
        }
        poise::FrameworkError::EventHandler { error, .. } => {
            warn!(%error, "an event could not be handled");
        }
        poise::FrameworkError::NonCommandMessage { error, .. } => {
            warn!(%error, "a message could not be handled");
        }
        other => {
            warn!(error = %other, "a Discord event failed");
            if let Some(ctx) = other.ctx() {
                let prefix = &ctx.data().prefix;
                let name = &ctx.command().name;
                tell(
                    ctx,
                    format!("I could not read that `{name}`; `{prefix}help {name}` shows how to write it."),
                )
                .await;
            }
        }
    }
}

/// Says `text` to the user whose command failed: privately for a slash command, as a reply
/// for a prefix command. Poise's own error texts are never shown to players.
async fn tell(ctx: Context<'_>, text: String) {
    let reply = poise::CreateReply::default().content(text).ephemeral(true);
    if let Err(error) = ctx.send(reply).await {
        warn!(%error, "the user could not be told that a command failed");
    }
}
