//! Gateway events other than slash commands: typed messages (every `!command`, game action
//! and DM order, the one path for typed text), button presses, and a new session's catch-up;
//! and what to do with errors.

use super::catch_up::catch_up;
use super::inbound::{arrived, edited, typed, Held};
use super::{buttons, Bot, Context, DiscordError};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use tracing::warn;

type Framework<'a> = poise::FrameworkContext<'a, Arc<Bot>, DiscordError>;

/// Gateway events: typed messages go to the table (an edited one is answered, not read again);
/// button presses are applied; a new session of a shard (READY, never a RESUME) reads back
/// what was sent on that shard while the bot was away, and deadlines wait until every shard
/// of this process has done so.
pub(super) async fn event(
    framework: Framework<'_>,
    event: &serenity::FullEvent,
) -> Result<(), DiscordError> {
    let bot = framework.user_data;
    let http = &framework.serenity_context.http;
    match event {
        serenity::FullEvent::Message { new_message }
            if !bot.was_collected(new_message.id.get()) =>
        {
            let in_server = new_message.guild_id.is_some();
            typed(bot, http, new_message, (in_server, None), Held::No).await?;
        }
        serenity::FullEvent::MessageUpdate { event, .. } => edited(bot, event).await?,
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => buttons::press(bot, framework.serenity_context, press).await?,
        serenity::FullEvent::Ready { data_about_bot } => {
            // From now on this shard's messages are queued as they arrive, in order.
            let (arrivals, on) = (bot.clone(), http.clone());
            framework
                .serenity_context
                .shard
                .add_collector(serenity::CollectorCallback(Box::new(move |event| {
                    if let serenity::Event::MessageCreate(created) = event {
                        arrived(&arrivals, &on, &created.message);
                    }
                    true
                })));
            let shard = framework.serenity_context.shard_id.0;
            bot.shard_behind(shard);
            let guilds: Vec<serenity::GuildId> =
                data_about_bot.guilds.iter().map(|guild| guild.id).collect();
            let caught_up = catch_up(bot, http, shard, &guilds).await;
            bot.shard_caught_up(shard);
            caught_up?;
        }
        _ => {}
    }
    Ok(())
}

/// Errors never stop the bot: they are logged (a failed transaction changed nothing, and a
/// message not applied is read back at the next catch-up), and the user of a failed slash
/// command gets one sentence, never poise's own error text.
pub(super) async fn on_error(error: poise::FrameworkError<'_, Arc<Bot>, DiscordError>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            warn!(%error, command = %ctx.command().name, "a command failed");
            tell(
                ctx,
                format!(
                    "Something went wrong on my side with `/{}`, so it may not have been applied; \
                     check with `{}status` and try again. The GM can find the details in the bot's log.",
                    ctx.command().name,
                    ctx.data().prefix
                ),
            )
            .await;
        }
        poise::FrameworkError::EventHandler { error, .. } => {
            warn!(%error, "an event could not be handled");
        }
        other => {
            warn!(error = %other, "a Discord event failed");
            if let Some(ctx) = other.ctx() {
                let prefix = &ctx.data().prefix;
                let name = &ctx.command().name;
                tell(
                    ctx,
                    format!("I could not read that `/{name}`; `{prefix}help {name}` shows how to write it."),
                )
                .await;
            }
        }
    }
}

/// Says `text` privately to the user whose slash command failed.
async fn tell(ctx: Context<'_>, text: String) {
    let reply = poise::CreateReply::default().content(text).ephemeral(true);
    if let Err(error) = ctx.send(reply).await {
        warn!(%error, "the user could not be told that a command failed");
    }
}
